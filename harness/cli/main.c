/* SPDX-License-Identifier: MIT */
/* ntprof: run vectors against a backend, compare result files, evaluate calls
 * on the model, explore boundary combinations, explain rules. Exit status: 0
 * all well, 1 a difference (mismatch, unlisted or stale known divergence,
 * differing results, failed check, something the explorer found), 2 bad
 * input (usage, an unreadable or malformed file, an unknown version).
 *
 * main only finds the command (cli/commands.c); each command is a file of
 * its own (cli/cmd_NAME.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli/cli.h"

/* COMMAND --help and COMMAND --version, wherever they stand among its
 * arguments: its help or the version, on stdout; -1 when neither is there. */
static int help_or_version(const cli_command *c, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 && c->usage)
			return cli_help(c);
		if (strcmp(argv[i], "--version") == 0)
			return cli_version();
	}
	return -1;
}

/* What went to stdout must have got there: a full disk or a closed pipe
 * is an error, not a quiet success with output lost. */
static int check_stdout(const char *command, int status)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	fprintf(stderr, "ntprof: %s: the output to stdout was lost: %s\n", command, strerror(errno));
	return EXIT_BAD_INPUT;
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
	/* Each vector opens and frees a ~90 KiB simulated machine at the top of
	 * the heap. glibc would give that memory back to the kernel and take it
	 * again for the next vector (two brk calls per vector: half of a run's
	 * time). Keeping up to 16 MiB of free heap avoids it. */
	mallopt(M_TRIM_THRESHOLD, 16 << 20);
#endif
	if (argc < 2)
		return cli_usage(NULL);
	const cli_command *c = cli_find_command(argv[1]);
	if (!c) {
		const char *near = cli_nearest_command(argv[1]);
		fprintf(stderr, "ntprof: unknown command %s%s%s%s\n", argv[1], near ? " (did you mean " : "",
			near ? near : "", near ? "?)" : "");
		return cli_usage(NULL);
	}
	cli_set_current(c);
	int status = help_or_version(c, argc - 2, argv + 2);
	if (status < 0)
		status = c->main(argc - 2, argv + 2);
	return check_stdout(argv[1], status);
}
