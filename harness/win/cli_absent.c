/* SPDX-License-Identifier: MIT */
/* The commands the Windows exe leaves out: matrix, compare and trace need
 * the Linux ntprof's libraries (cmark-gfm for the HTML pages of matrix and
 * trace, jansson to read the result files of compare and matrix --observed),
 * and diff is matrix's table of the model by version. None of them touches
 * the system it runs on: a person on Windows brings the JSON files that run
 * and live write back to a Linux machine for them. Each answers that it is
 * not in this build; the usage text and `help` do not list them. */
#include <stdio.h>

#include "cli/cli.h"

static int absent(const char *name)
{
	fprintf(stderr, "ntprof: %s is not in this build: ntprof.exe runs vectors (run, live, call); "
		"run %s with the Linux ntprof (on the JSON files that run and live write)\n", name, name);
	return EXIT_BAD_INPUT;
}

static int matrix_absent(int argc, char **argv)
{
	(void)argc, (void)argv;
	return absent("matrix");
}

static int compare_absent(int argc, char **argv)
{
	(void)argc, (void)argv;
	return absent("compare");
}

static int diff_absent(int argc, char **argv)
{
	(void)argc, (void)argv;
	return absent("diff");
}

static int trace_absent(int argc, char **argv)
{
	(void)argc, (void)argv;
	return absent("trace");
}

/* No usage: the usage text and `help COMMAND` skip them. */
const cli_command cli_matrix = { .name = "matrix", .main = matrix_absent, .summary = "not in this build" };
const cli_command cli_compare = { .name = "compare", .main = compare_absent, .summary = "not in this build" };
const cli_command cli_diff = { .name = "diff", .main = diff_absent, .summary = "not in this build" };
const cli_command cli_trace = { .name = "trace", .main = trace_absent, .summary = "not in this build" };
