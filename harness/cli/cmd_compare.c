/* SPDX-License-Identifier: MIT */
/* ntprof compare: result files of `ntprof run --format json` side by side,
 * a row per vector and step. Exit 0 when every row agrees, 1 when some
 * differ (as diff does), 2 on bad input; the table goes through the sink
 * either way. */
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "ntprof/compare.h"

typedef struct compare_settings {
	np_table_format format;
	const char *output;
	bool differences;
	char **files;      /* the files, in order, at the front of argv */
	int nfiles;
} compare_settings;

static int check_format(void *format, const char *value, const cli_option *o)
{
	return np_table_format_parse(value, format) ? 0 : cli_usage(o->bad);
}

#define AT(field) offsetof(compare_settings, field)
static const cli_option compare_options[] = {
	{ "--format", NULL, "text|markdown", AT(format), check_format,
	  "compare: --format takes text or markdown", "the table's format" },
	{ "--output", NULL, "FILE", AT(output), NULL,
	  "--output needs a file", "write the table to FILE (replaced whole) instead of stdout" },
	{ "--differences", NULL, NULL, AT(differences), NULL,
	  NULL, "only the rows that differ" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

static int compare_operand(void *settings, char *arg)
{
	compare_settings *s = settings;
	s->files[s->nfiles++] = arg;
	return 0;
}

static const cli_syntax compare_syntax = {
	.command = "compare",
	.options = compare_options,
	.operand = compare_operand,
};

static const char *const compare_usage[] = {
	"ntprof compare [--format text|markdown] [--output FILE] [--differences] RESULT.json...",
	NULL,
};

/* The table through the sink; the status np_compare_differing gave, or
 * EXIT_BAD_INPUT when it cannot be written. */
static int write_table(const compare_settings *s, np_compare *c, int status)
{
	cli_sink out;
	if (!cli_sink_open(&out, s->output)) {
		return cli_sink_error("--output", s->output, &out);
	}
	np_compare_print(out.f, c, s->format, s->differences);
	if (!cli_sink_close(&out)) {
		return cli_sink_error("--output", s->output, &out);
	}
	return status;
}

static int compare_main(int argc, char **argv)
{
	compare_settings s = { .format = NP_TABLE_TEXT, .files = argv };
	int status = cli_parse(&compare_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	if (s.nfiles == 0)
		return cli_usage("compare needs at least one JSON result file (ntprof run --format json)");
	np_compare *c = np_compare_new();
	np_error err;
	if (!c) {
		fprintf(stderr, "ntprof: out of memory\n");
		return EXIT_BAD_INPUT;
	}
	for (int i = 0; i < s.nfiles; i++)
		if (!np_compare_load(c, s.files[i], &err)) {
			fprintf(stderr, "%s\n", err.text);
			np_compare_free(c);
			return EXIT_BAD_INPUT;
		}
	status = write_table(&s, c, np_compare_differing(c) ? EXIT_DIFFERENCE : 0);
	np_compare_free(c);
	return status;
}

const cli_command cli_compare = {
	.name = "compare",
	.main = compare_main,
	.summary = "compare result files of ntprof run --format json, row by row",
	.usage = compare_usage,
	.syntax = &compare_syntax,
};
