/* SPDX-License-Identifier: MIT */
/* The table of commands: what main dispatches on, and what the usage text
 * lists, in its order; help, --help and --version. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/names.h"

#ifndef NTPROF_VERSION
#define NTPROF_VERSION "unknown"   /* the Makefile passes its VERSION */
#endif

/* The command being run, whose usage a usage error prints; NULL before
 * one is found (then the usage of every command). The one piece of state
 * of the command line: the option checks that call cli_usage do not know
 * their command. */
static const cli_command *current;

static void usage_lines(FILE *out, const cli_command *c, const char **lead)
{
	for (const char *const *line = c->usage; *line; line++) {
		fprintf(out, "%s%s\n", *lead, *line);
		*lead = "       ";
	}
}

static void usage_all(FILE *out)
{
	const char *lead = "usage: ";
	for (unsigned i = 0; i < cli_command_count; i++) {
		const cli_command *c = cli_commands[i];
		if (c->name && c->usage)
			usage_lines(out, c, &lead);
	}
}

static void option_help(FILE *out, const cli_option *table)
{
	for (const cli_option *o = table; o && o->name; o++) {
		char left[64];
		snprintf(left, sizeof left, "%s%s%s%s%s", o->name, o->alias ? ", " : "", o->alias ? o->alias : "",
			 o->value ? " " : "", o->value ? o->value : "");
		fprintf(out, "  %-32s %s\n", left, o->help ? o->help : "");
	}
}

int cli_help(const cli_command *c)
{
	const char *lead = "usage: ";
	usage_lines(stdout, c, &lead);
	printf("\n%s\n", c->summary);
	if (c->syntax) {
		printf("\noptions:\n");
		option_help(stdout, c->syntax->options);
		option_help(stdout, c->syntax->shared);
	}
	printf("  %-32s %s\n  %-32s %s\n", "--help", "this text", "--version", "the version of ntprof");
	for (const char *const *line = c->notes; line && *line; line++)
		printf("%s%s\n", line == c->notes ? "\n" : "", *line);
	return 0;
}

int cli_version(void)
{
	printf("ntprof %s\n", NTPROF_VERSION);
	return 0;
}

const cli_command *cli_find_command(const char *name)
{
	for (unsigned i = 0; i < cli_command_count; i++) {
		const cli_command *c = cli_commands[i];
		if (c->name && strcmp(c->name, name) == 0)
			return c;
	}
	return NULL;
}

const char *cli_nearest_command(const char *name)
{
	np_nearest n;
	np_nearest_start(&n, name);
	for (unsigned i = 0; i < cli_command_count; i++)
		if (cli_commands[i]->name && cli_commands[i]->usage)
			np_nearest_offer(&n, cli_commands[i]->name);
	return np_nearest_found(&n);
}

void cli_set_current(const cli_command *c)
{
	current = c;
}

/* help [COMMAND] and --help: a command's help, or the usage of every
 * command, on stdout; exit 0. */
static int help_main(int argc, char **argv)
{
	if (argc > 1)
		return cli_usage("help takes at most one COMMAND");
	if (argc == 1) {
		const cli_command *c = cli_find_command(argv[0]);
		if (c && !c->usage && c->main != help_main)   /* not in this build: it says so */
			return c->main(0, NULL);
		if (!c || !c->usage) {
			const char *near = cli_nearest_command(argv[0]);
			fprintf(stderr, "ntprof: help: unknown command %s%s%s%s\n", argv[0],
				near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
			return EXIT_BAD_INPUT;
		}
		return cli_help(c);
	}
	usage_all(stdout);
	printf("\n`ntprof COMMAND --help` or `ntprof help COMMAND`: a command's options; "
	       "`ntprof --version`: the version\n");
	return 0;
}

static const char *const help_usage[] = { "ntprof help [COMMAND]", NULL };

static const cli_command help = {
	.name = "help",
	.main = help_main,
	.summary = "the usage of every command, or one command's options",
	.usage = help_usage,
};

static const cli_command help_option = {
	.name = "--help",
	.main = help_main,
	.summary = "the usage of every command",
};

static int version_main(int argc, char **argv)
{
	(void)argv;
	return argc ? cli_usage("--version takes no arguments") : cli_version();
}

static const cli_command version_option = {
	.name = "--version",
	.main = version_main,
	.summary = "the version of ntprof",
};

/* cli_live and cli_child come from the file each build links: the POSIX
 * ntprof's are nameless, so skipped here. */
const cli_command *const cli_commands[] = {
	&cli_run, &cli_live, &cli_compare, &cli_matrix, &cli_diff, &cli_call, &cli_explore,
	&cli_explain, &cli_trace, &cli_export, &cli_versions, &cli_syscalls, &cli_child, &help, &help_option,
	&version_option,
};
const unsigned cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

int cli_usage(const char *why)
{
	if (why)
		fprintf(stderr, "ntprof: %s\n", why);
	if (current && current->usage) {
		const char *lead = "usage: ";
		usage_lines(stderr, current, &lead);
		fprintf(stderr, "`ntprof %s --help` for its options\n", current->name);
	} else {
		usage_all(stderr);
	}
	return EXIT_BAD_INPUT;
}
