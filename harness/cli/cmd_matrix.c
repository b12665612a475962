/* SPDX-License-Identifier: MIT */
/* ntprof matrix: every vector on every version (and chosen architecture) of
 * the model, a row per vector and step, a column per version. Exit 0, or 2
 * on bad input; the table goes through the sink. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/matrix.h"

#define MAX_OBSERVED 16

typedef struct observed_files {
	const char *path[MAX_OBSERVED];
	unsigned count;
} observed_files;

typedef struct matrix_settings {
	np_matrix_format format;
	cli_arches arches;
	const char *output, *root;
	cli_paths paths;
	observed_files observed;
} matrix_settings;

static int check_format(void *format, const char *value, const cli_option *o)
{
	return np_matrix_format_parse(value, format) ? 0 : cli_usage(o->bad);
}

static int add_observed(void *field, const char *value, const cli_option *o)
{
	observed_files *f = field;
	if (f->count == MAX_OBSERVED) {
		fprintf(stderr, "ntprof: matrix: %s: at most %d files\n", o->name, MAX_OBSERVED);
		return cli_usage(NULL);
	}
	f->path[f->count++] = value;
	return 0;
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
	{ "--observed", NULL, "FILE", AT(observed), add_observed, "--observed needs a JSON result file",
	  "a column of this result file beside the model, on its versions only; repeatable (not html)" },
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
	"ntprof matrix [--format text|markdown|html] [--arch LIST] [--output FILE] [--root DIR]",
	"              [--observed FILE]... [FILE|DIR]...",
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

/* The result files of --observed, read whole before anything runs, and the
 * versions they ran on (only those are shown beside them); NULL after
 * saying why, or when there are none (*failed tells). */
static np_compare *load_observed(const observed_files *f, bool versions[NP_VERSION_COUNT], bool *failed)
{
	*failed = false;
	if (!f->count)
		return NULL;
	np_compare *c = np_compare_new();
	np_error err;
	for (unsigned i = 0; c && i < f->count; i++)
		if (!np_compare_load(c, f->path[i], &err)) {
			fprintf(stderr, "%s\n", err.text);
			np_compare_free(c);
			*failed = true;
			return NULL;
		}
	if (!c) {
		fprintf(stderr, "ntprof: out of memory\n");
		*failed = true;
		return NULL;
	}
	memset(versions, 0, NP_VERSION_COUNT * sizeof *versions);
	for (unsigned k = 0; k < np_compare_columns(c); k++) {
		np_target_list l = { .count = 0 };
		if (!np_targets_add(&l, np_compare_target(c, k)) && l.count == 1)
			versions[l.t[0].version] = true;
	}
	return c;
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
	if (s.observed.count && s.format == NP_MATRIX_HTML)
		return cli_usage("matrix: --observed takes --format text or markdown");
	bool versions[NP_VERSION_COUNT], failed;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions[v] = true;
	np_compare *observed = load_observed(&s.observed, versions, &failed);
	if (failed)
		return EXIT_BAD_INPUT;
	np_index rules;
	if (!load_rules(&s, &rules)) {
		np_compare_free(observed);
		return EXIT_BAD_INPUT;
	}
	np_vector_set set;
	if (!cli_load_vectors(&set, &s.paths, s.root)) {
		np_index_free(&rules);
		np_compare_free(observed);
		return EXIT_BAD_INPUT;
	}
	np_backend *b = np_backend_model_new();
	np_matrix *m = b ? np_matrix_build(b, &set, versions, s.arches.chosen) : NULL;
	if (m)
		np_matrix_observe(m, observed);
	status = write_matrix(&s, m, &rules);
	np_compare_free(observed);
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
