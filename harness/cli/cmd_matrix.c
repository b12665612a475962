/* SPDX-License-Identifier: MIT */
/* ntprof matrix: every vector on every version (and chosen architecture) of
 * the model, a row per vector and step, a column per version. Exit 0, or 2
 * on bad input; the table goes through the sink. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/matrix.h"

typedef struct matrix_settings {
	np_matrix_format format;
	cli_arches arches;
	const char *output, *root;
	cli_paths paths;
} matrix_settings;

static int check_format(void *format, const char *value, const cli_option *o)
{
	return np_matrix_format_parse(value, format) ? 0 : cli_usage(o->bad);
}

#define AT(field) offsetof(matrix_settings, field)
static const cli_option matrix_options[] = {
	{ "--format", NULL, "text|markdown|html", AT(format), check_format,
	  "matrix: --format takes text, markdown or html", "the table's format" },
	{ "--arch", NULL, "LIST", AT(arches), cli_check_arches,
	  "--arch needs x86, x64 or wow64 (comma-separated)", "only these architectures" },
	{ "--output", NULL, "FILE", AT(output), NULL,
	  "--output needs a file", "write the table to FILE (replaced whole) instead of stdout" },
	{ "--root", NULL, "DIR", AT(root), NULL,
	  "--root needs a directory", "the tree whose fixtures/ and SPEC.md to read" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

static int matrix_operand(void *settings, char *arg)
{
	return cli_paths_add("matrix", &((matrix_settings *)settings)->paths, arg);
}

static const cli_syntax matrix_syntax = {
	.command = "matrix",
	.options = matrix_options,
	.operand = matrix_operand,
};

static const char *const matrix_usage[] = {
	"ntprof matrix [--format text|markdown|html] [--arch LIST] [--output FILE] [--root DIR] [FILE|DIR]...",
	NULL,
};

/* The page embeds the rule texts: SPEC.md is read before anything runs.
 * False after saying why. */
static bool load_rules(const matrix_settings *s, np_index *rules)
{
	np_error err;
	memset(rules, 0, sizeof *rules);
	if (s->format != NP_MATRIX_HTML)
		return true;
	const char *r = np_find_root(s->root);
	if (!r) {
		fprintf(stderr, "ntprof: matrix: cannot find SPEC.md for the rule texts (use --root DIR)\n");
		return false;
	}
	if (!np_spec_load(rules, r, &err)) {
		fprintf(stderr, "%s\n", err.text);
		np_index_free(rules);
		return false;
	}
	return true;
}

/* The matrix through the sink; 0, or EXIT_BAD_INPUT. */
static int write_matrix(const matrix_settings *s, const np_matrix *m, const np_index *rules)
{
	cli_sink out;
	if (!m) {
		fprintf(stderr, "ntprof: out of memory\n");
		return EXIT_BAD_INPUT;
	}
	if (!cli_sink_open(&out, s->output)) {
		return cli_sink_error("--output", s->output, &out);
	}
	np_matrix_print(out.f, m, s->format, rules);
	if (!cli_sink_close(&out)) {
		return cli_sink_error("--output", s->output, &out);
	}
	return 0;
}

static int matrix_main(int argc, char **argv)
{
	static matrix_settings s;
	memset(&s, 0, sizeof s);
	s.format = NP_MATRIX_TEXT;
	int status = cli_parse(&matrix_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	if (!s.arches.any)
		for (unsigned k = 0; k < NP_ARCH_COUNT; k++)
			s.arches.chosen[k] = true;
	np_index rules;
	if (!load_rules(&s, &rules))
		return EXIT_BAD_INPUT;
	np_vector_set set;
	if (!cli_load_vectors(&set, &s.paths, s.root)) {
		np_index_free(&rules);
		return EXIT_BAD_INPUT;
	}
	bool versions[NP_VERSION_COUNT];
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions[v] = true;
	np_backend *b = np_backend_model_new();
	np_matrix *m = b ? np_matrix_build(b, &set, versions, s.arches.chosen) : NULL;
	status = write_matrix(&s, m, &rules);
	np_matrix_free(m);
	if (b)
		b->destroy(b);
	np_vectors_free(&set);
	np_index_free(&rules);
	return status;
}

const cli_command cli_matrix = {
	.name = "matrix",
	.main = matrix_main,
	.summary = "every vector on every version of the model, a column per version",
	.usage = matrix_usage,
	.syntax = &matrix_syntax,
};
