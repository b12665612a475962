/* SPDX-License-Identifier: MIT */
/* ntprof matrix as text (columns padded) or as a Markdown table. */
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"
#include "ntprof/compare.h"   /* np_md_code, np_md_text */

#define CELL_MAX 1024
/* Text shows a version's cell in at most this many columns (the rest as
 * "…"): 31 columns of whole cells would be thousands of characters wide.
 * Markdown and HTML show every cell whole. */
#define TEXT_CELL_WIDTH 28

enum { COL_VECTOR, COL_STEP, COL_FUNCTION, COL_RULES, COL_FIXED };

static void rules_of(const np_vector *v, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned r = 0; r < v->nrule && used < cap; r++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%s", r ? " " : "", v->rule[r]);
}

/* The text of a fixed column of a row. */
static void fixed_text(const np_matrix *m, unsigned row, unsigned col, char *buf, size_t cap)
{
	const np_vector *v = np_matrix_vector(m, row);
	unsigned s = np_matrix_step(m, row);
	switch (col) {
	case COL_VECTOR:   snprintf(buf, cap, "%s", v->id); break;
	case COL_STEP:     snprintf(buf, cap, "%u", s + 1); break;
	case COL_FUNCTION: snprintf(buf, cap, "%s", v->step[s].function); break;
	default:           rules_of(v, buf, cap); break;
	}
}

/* A version's cell with its change mark ("*" in text, "≠ " in Markdown). */
static void version_text(const np_matrix *m, unsigned row, np_ver v, const char *mark, char *buf,
			 size_t cap)
{
	size_t n = 0;
	if (np_matrix_changed(m, row, v))
		n = (size_t)snprintf(buf, cap, "%s", mark);
	np_matrix_column_text(m, row, v, buf + n, cap - n);
}

/* An observed column's cell with its mark where the system disagrees with
 * the model ("!" in text, "≠ " in Markdown). */
static void observed_text(const np_matrix *m, unsigned row, unsigned k, const char *mark, char *buf, size_t cap)
{
	size_t n = strlen(mark);
	if (np_matrix_observed_text(m, row, k, buf + n, cap - n))
		memcpy(buf, mark, n);
	else
		memmove(buf, buf + n, strlen(buf + n) + 1);
}

static void header(FILE *out, const np_matrix *m, unsigned versions)
{
	unsigned vectors = m->set->count;
	fprintf(out, "ntprof matrix: backend %s, %u vectors, %u steps, %u versions, architectures", m->backend,
		vectors, m->nrows, versions);
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		if (m->arch[a])
			fprintf(out, " %s", np_arch_name((np_arch)a));
	fprintf(out, "\n");
	for (unsigned k = 0; k < np_matrix_observed_count(m); k++)
		fprintf(out, "observed: %s (%s)\n", np_matrix_observed_label(m, k), np_compare_target(m->observed, k));
}

static const char *const fixed_title[COL_FIXED] = { "vector", "step", "function", "rules" };

/* Column c of a row in text: fixed, a version's, or (from first_observed
 * on) an observed one's. */
static void cell_text(const np_matrix *m, unsigned row, unsigned c, const np_ver *col_version,
		      unsigned first_observed, char *buf, size_t cap)
{
	if (c < COL_FIXED)
		fixed_text(m, row, c, buf, cap);
	else if (c < first_observed)
		version_text(m, row, col_version[c], "*", buf, cap);
	else
		observed_text(m, row, c - first_observed, "!", buf, cap);
}

static void print_markdown(FILE *out, const np_matrix *m)
{
	char text[CELL_MAX];
	fprintf(out, "\nA cell is the step's outcome and the values its vector names; where the architectures "
		     "differ it reads `x86: A / x64 wow64: B`. ≠ marks a change from the previous version, "
		     "`-` not evaluated, `n/a` not applicable, `n/e` not exported.%s\n\n|",
		np_matrix_observed_count(m) ? " An observed column is a result file: the model's cell where the step "
					       "went as the model says, ≠ where the system disagrees, `-` a step not run."
					     : "");
	for (unsigned c = 0; c < COL_FIXED; c++)
		fprintf(out, " %s |", fixed_title[c]);
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		if (m->version[v]) {
			fputc(' ', out);
			np_md_text(out, np_version_key((np_ver)v));
			fprintf(out, " |");
		}
	for (unsigned k = 0; k < np_matrix_observed_count(m); k++) {
		fputc(' ', out);
		np_md_text(out, np_matrix_observed_label(m, k));
		fprintf(out, " |");
	}
	fprintf(out, "\n|");
	for (unsigned c = 0; c < COL_FIXED; c++)
		fprintf(out, "---|");
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		if (m->version[v])
			fprintf(out, "---|");
	for (unsigned k = 0; k < np_matrix_observed_count(m); k++)
		fprintf(out, "---|");
	fputc('\n', out);
	for (unsigned r = 0; r < m->nrows; r++) {
		fputc('|', out);
		for (unsigned c = 0; c < COL_FIXED; c++) {
			fixed_text(m, r, c, text, sizeof text);
			fputc(' ', out);
			if (c == COL_VECTOR || c == COL_FUNCTION)
				np_md_code(out, text);
			else
				np_md_text(out, text);
			fprintf(out, " |");
		}
		for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
			if (!m->version[v])
				continue;
			fprintf(out, " %s", np_matrix_changed(m, r, (np_ver)v) ? "≠ " : "");
			np_matrix_column_text(m, r, (np_ver)v, text, sizeof text);
			np_md_code(out, text);
			fprintf(out, " |");
		}
		for (unsigned k = 0; k < np_matrix_observed_count(m); k++) {
			bool differs = np_matrix_observed_text(m, r, k, text, sizeof text);
			fprintf(out, " %s", differs ? "≠ " : "");
			np_md_code(out, text);
			fprintf(out, " |");
		}
		fputc('\n', out);
	}
}

void np_matrix_print_text(FILE *out, const np_matrix *m, bool markdown)
{
	unsigned ncols = COL_FIXED, versions = 0;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions += m->version[v];
	header(out, m, versions);
	if (markdown) {
		print_markdown(out, m);
		return;
	}
	fprintf(out, "a cell: the step's outcome and the values its vector names; \"x86: A / x64 wow64: B\" where "
		     "the architectures differ\n* a change from the previous version, - not evaluated, n/a not "
		     "applicable, n/e not exported; … a cell cut to %d columns (--format markdown or html shows it "
		     "whole)\n%s\n", TEXT_CELL_WIDTH,
		np_matrix_observed_count(m) ? "an observed column: a result file; the model's cell where the step went as "
					      "the model says, ! where the system disagrees, - a step not run\n"
					    : "");
	unsigned first_observed = ncols + versions;
	ncols = first_observed + np_matrix_observed_count(m);
	int *width = calloc(ncols, sizeof *width);
	np_ver *col_version = calloc(ncols, sizeof *col_version);
	if (!width || !col_version) {
		free(width);
		free(col_version);
		return;
	}
	char text[CELL_MAX];
	for (unsigned c = 0; c < COL_FIXED; c++)
		width[c] = (int)strlen(fixed_title[c]);
	for (unsigned v = 0, c = COL_FIXED; v < NP_VERSION_COUNT; v++)
		if (m->version[v]) {
			col_version[c] = (np_ver)v;
			width[c++] = (int)strlen(np_version_key((np_ver)v));
		}
	for (unsigned c = first_observed; c < ncols; c++)
		width[c] = (int)strlen(np_matrix_observed_label(m, c - first_observed));
	for (unsigned r = 0; r < m->nrows; r++)
		for (unsigned c = 0; c < ncols; c++) {
			cell_text(m, r, c, col_version, first_observed, text, sizeof text);
			int n = (int)strlen(text);
			if (c >= COL_FIXED && n > TEXT_CELL_WIDTH)
				n = TEXT_CELL_WIDTH;
			if (n > width[c])
				width[c] = n;
		}
	for (unsigned c = 0; c < ncols; c++)
		fprintf(out, "%s%-*s", c ? "  " : "", c + 1 < ncols ? width[c] : 0, c < COL_FIXED ? fixed_title[c]
			: c < first_observed ? np_version_key(col_version[c])
			: np_matrix_observed_label(m, c - first_observed));
	fputc('\n', out);
	for (unsigned r = 0; r < m->nrows; r++) {
		for (unsigned c = 0; c < ncols; c++) {
			cell_text(m, r, c, col_version, first_observed, text, sizeof text);
			bool cut = c >= COL_FIXED && strlen(text) > TEXT_CELL_WIDTH;
			if (cut)
				text[TEXT_CELL_WIDTH - 1] = '\0';
			/* "…" is one column and three bytes */
			fprintf(out, "%s%-*s%s", c ? "  " : "", c + 1 < ncols ? width[c] - cut : 0, text,
				cut ? "…" : "");
		}
		fputc('\n', out);
	}
	free(width);
	free(col_version);
}
