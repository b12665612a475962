/* The table of commands: what main dispatches on, and what the usage text
 * lists, in its order. */
#include <stdio.h>

#include "cli/cli.h"

/* help and --help: the usage of every command, to stderr, and exit 0. */
static int help_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_usage(NULL);
	return 0;
}

static const cli_command help = {
	.name = "help",
	.main = help_main,
	.summary = "the usage of every command",
};

static const cli_command help_option = {
	.name = "--help",
	.main = help_main,
	.summary = "the usage of every command",
};

/* cli_live and cli_child come from the file each build links: the POSIX
 * ntprof's are nameless, so skipped here. */
const cli_command *const cli_commands[] = {
	&cli_run, &cli_live, &cli_compare, &cli_matrix, &cli_diff, &cli_call, &cli_explore,
	&cli_explain, &cli_trace, &cli_versions, &cli_child, &help, &help_option,
};
const unsigned cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

int cli_usage(const char *why)
{
	if (why)
		fprintf(stderr, "ntprof: %s\n", why);
	const char *lead = "usage: ";
	for (unsigned i = 0; i < cli_command_count; i++) {
		const cli_command *c = cli_commands[i];
		if (!c->name || !c->usage)
			continue;
		for (const char *const *line = c->usage; *line; line++) {
			fprintf(stderr, "%s%s\n", lead, *line);
			lead = "       ";
		}
	}
	return EXIT_BAD_INPUT;
}
