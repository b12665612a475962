/* SPDX-License-Identifier: MIT */
/* The commands the Windows exe leaves out: it carries what a person runs on
 * a Windows machine, live and what live needs. matrix, compare and trace
 * need the Linux ntprof's libraries (cmark-gfm for the HTML pages of matrix
 * and trace, jansson to read the result files of compare and matrix
 * --observed), and diff is matrix's table of the model by version; a person
 * on Windows brings the JSON files that run and live write back to a Linux
 * machine for them. explore and export work on the model and dl: objects,
 * never on the system they run on, so they gain nothing from Windows (the
 * export a Windows machine runs is built on Linux, make export-test), and
 * they were a quarter of the exe's compile. Each answers that it is not in
 * this build; the usage text and `help` do not list them. */
#include <stdio.h>

#include "cli/cli.h"

static int absent(const char *name, const char *on_what)
{
	fprintf(stderr, "ntprof: %s is not in this build: ntprof.exe runs vectors (run, live, call); "
		"run %s with the Linux ntprof (%s)\n", name, name, on_what);
	return EXIT_BAD_INPUT;
}

#define ON_RESULTS "on the JSON files that run and live write"
#define ON_MODEL "it works on the model and dl: objects, never on this system"

/* A command's stand-in: its answer and its entry of the command table. No
 * usage: the usage text and `help COMMAND` skip it. */
#define ABSENT(cmd, on_what)                                                                      \
	static int cmd##_absent(int argc, char **argv)                                            \
	{                                                                                         \
		(void)argc, (void)argv;                                                           \
		return absent(#cmd, on_what);                                                     \
	}                                                                                         \
	const cli_command cli_##cmd = { .name = #cmd, .main = cmd##_absent, .summary = "not in this build" };

ABSENT(matrix, ON_RESULTS)
ABSENT(compare, ON_RESULTS)
ABSENT(diff, ON_MODEL)
ABSENT(trace, ON_MODEL)
ABSENT(explore, ON_MODEL)
ABSENT(export, ON_MODEL)
