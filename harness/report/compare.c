/* SPDX-License-Identifier: MIT */
/* ntprof compare: the table of JSON result files (harness/report/compare_read.c
 * reads them), its labels and cells, printed side by side as text or
 * Markdown. */
#include <stdlib.h>
#include <string.h>

#include "report/compare_table.h"

np_compare *np_compare_new(void)
{
	return calloc(1, sizeof(np_compare));
}

void np_compare_free(np_compare *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->nfiles; i++) {
		free(c->file[i].path);
		free(c->file[i].env_label);
	}
	for (unsigned i = 0; i < c->ncols; i++) {
		for (unsigned r = 0; r < c->col[i].n; r++)
			free(c->col[i].cell[r].got);
		free(c->col[i].cell);
		free(c->col[i].target);
		free(c->col[i].label);
	}
	for (unsigned r = 0; r < c->nrows; r++)
		free(c->vector[r]);
	free(c->file);
	free(c->col);
	free(c->vector);
	np_strmap_free(&c->rows);
	free(c);
}

bool np_table_format_parse(const char *text, np_table_format *out)
{
	if (strcmp(text, "text") == 0)
		return *out = NP_TABLE_TEXT, true;
	if (strcmp(text, "markdown") == 0 || strcmp(text, "md") == 0)
		return *out = NP_TABLE_MARKDOWN, true;
	return false;
}

/* ---- the table ---- */

static const char *base_name(const char *path)
{
	const char *b = path;
	for (const char *p = path; *p; p++)
		if (*p == '/' || *p == '\\')
			b = p + 1;
	return b;
}

static char *join(const char *a, const char *sep, const char *b, const char *end)
{
	size_t n = strlen(a) + strlen(sep) + strlen(b) + strlen(end) + 1;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s%s%s", a, sep, b, end);
	return s;
}

/* Labels: environment or file name, the target where a file has several,
 * the file's path where columns of two files would read alike. */
static void labels(np_compare *c)
{
	if (c->labelled)
		return;
	char **base = calloc(c->ncols ? c->ncols : 1, sizeof *base);
	if (!base)
		return;
	for (unsigned k = 0; k < c->ncols; k++) {
		const rfile *f = &c->file[c->col[k].file];
		char name[300];
		const char *b = base_name(f->path);
		size_t n = strlen(b);
		if (n > 5 && strcmp(b + n - 5, ".json") == 0)
			n -= 5;
		snprintf(name, sizeof name, "%.*s", (int)n, b);
		base[k] = join(f->env_label ? f->env_label : name, f->ncols > 1 ? " " : "",
			       f->ncols > 1 ? c->col[k].target : "", "");
	}
	for (unsigned k = 0; k < c->ncols; k++) {
		bool twin = false;
		for (unsigned j = 0; j < c->ncols && !twin; j++)
			twin = c->col[j].file != c->col[k].file && base[j] && base[k] && strcmp(base[j], base[k]) == 0;
		free(c->col[k].label);
		c->col[k].label = base[k] ? join(base[k], twin ? " (" : "", twin ? c->file[c->col[k].file].path : "",
						 twin ? ")" : "")
					  : NULL;
	}
	for (unsigned k = 0; k < c->ncols; k++)
		free(base[k]);
	free(base);
	c->labelled = true;
}

unsigned np_compare_rows(const np_compare *c) { return c->nrows; }
unsigned np_compare_columns(const np_compare *c) { return c->ncols; }
const char *np_compare_vector(const np_compare *c, unsigned row) { return c->vector[row]; }

const char *np_compare_label(np_compare *c, unsigned k)
{
	labels(c);
	return c->col[k].label ? c->col[k].label : "?";
}

static const cell *cell_at(const np_compare *c, unsigned row, unsigned k)
{
	const column *col = &c->col[k];
	return row < col->n && col->cell[row].present ? &col->cell[row] : NULL;
}

const char *np_compare_target(const np_compare *c, unsigned k) { return c->col[k].target; }

bool np_compare_find(const np_compare *c, const char *vector, unsigned *row)
{
	for (unsigned r = 0; r < c->nrows; r++)
		if (strcmp(c->vector[r], vector) == 0)
			return *row = r, true;
	return false;
}

bool np_compare_result(const np_compare *c, unsigned row, unsigned k, np_class *cls, np_class *observed,
		       int *step, const np_answer **got)
{
	const cell *x = cell_at(c, row, k);
	if (!x)
		return false;
	*cls = x->cls;
	*observed = x->observed;
	*step = x->step;
	*got = x->got;
	return true;
}

void np_compare_cell(const np_compare *c, unsigned row, unsigned k, char *buf, size_t cap)
{
	const cell *x = cell_at(c, row, k);
	char got[NP_TEXT_MAX * 3];
	if (!x) {
		snprintf(buf, cap, "-");
		return;
	}
	size_t used = (size_t)snprintf(buf, cap, "%s%s%s", np_class_name(x->cls), x->cls == NP_CLASS_KNOWN ? " " : "",
				       x->cls == NP_CLASS_KNOWN ? np_class_name(x->observed) : "");
	if (x->step > 0 && x->got && used < cap &&
	    (x->cls != NP_CLASS_NOT_APPLICABLE && x->cls != NP_CLASS_SKIPPED && x->cls != NP_CLASS_MATCH)) {
		np_answer_brief(x->got, got, sizeof got);
		snprintf(buf + used, cap - used, " step %d: %s", x->step, got);
	}
}

/* Cells agree when the behaviour agrees: a known divergence equals the same
 * unlisted one (only the bookkeeping differs). */
static bool same_cell(const cell *a, const cell *b)
{
	if (!a || !b)
		return a == b;
	return a->observed == b->observed && a->step == b->step &&
	       (a->got && b->got ? np_answer_equal(a->got, b->got) : a->got == b->got);
}

bool np_compare_row_differs(const np_compare *c, unsigned row)
{
	for (unsigned k = 1; k < c->ncols; k++)
		if (!same_cell(cell_at(c, row, 0), cell_at(c, row, k)))
			return true;
	return false;
}

unsigned np_compare_differing(const np_compare *c)
{
	unsigned n = 0;
	for (unsigned r = 0; r < c->nrows; r++)
		n += np_compare_row_differs(c, r);
	return n;
}

/* Markdown: inside a code span only | (a table's separator) needs a backslash;
 * a backtick in the text takes a double-backtick span. */
void np_md_code(FILE *out, const char *s)
{
	const char *fence = strchr(s, '`') ? "`` " : "`", *close = strchr(s, '`') ? " ``" : "`";
	fputs(fence, out);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputs(close, out);
}

void np_md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\|*_`<>[]", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

void np_compare_print(FILE *out, np_compare *c, np_table_format fmt, bool differences_only)
{
	char text[NP_TEXT_MAX * 3];
	unsigned differ = np_compare_differing(c);
	labels(c);
	fprintf(out, "ntprof compare: %u files, %u columns, %u vectors, %u differ%s\n", c->nfiles, c->ncols,
		c->nrows, differ, differences_only ? " (only those are shown)" : "");
	if (fmt == NP_TABLE_MARKDOWN) {
		fprintf(out, "\n| | vector |");
		for (unsigned k = 0; k < c->ncols; k++) {
			fputc(' ', out);
			np_md_text(out, np_compare_label(c, k));
			fprintf(out, " |");
		}
		fprintf(out, "\n|---|---|");
		for (unsigned k = 0; k < c->ncols; k++)
			fprintf(out, "---|");
		fputc('\n', out);
		for (unsigned r = 0; r < c->nrows; r++) {
			bool d = np_compare_row_differs(c, r);
			if (differences_only && !d)
				continue;
			fprintf(out, "| %s | ", d ? "≠" : " ");
			np_md_code(out, c->vector[r]);
			fprintf(out, " |");
			for (unsigned k = 0; k < c->ncols; k++) {
				np_compare_cell(c, r, k, text, sizeof text);
				fputc(' ', out);
				np_md_code(out, text);
				fprintf(out, " |");
			}
			fputc('\n', out);
		}
		return;
	}
	/* text: columns padded to their widest cell; '*' marks a differing row */
	int *width = calloc(c->ncols + 1, sizeof *width);
	if (!width)
		return;
	width[0] = (int)strlen("vector");
	for (unsigned k = 0; k < c->ncols; k++)
		width[k + 1] = (int)strlen(np_compare_label(c, k));
	for (unsigned r = 0; r < c->nrows; r++) {
		if (differences_only && !np_compare_row_differs(c, r))
			continue;
		if ((int)strlen(c->vector[r]) > width[0])
			width[0] = (int)strlen(c->vector[r]);
		for (unsigned k = 0; k < c->ncols; k++) {
			np_compare_cell(c, r, k, text, sizeof text);
			if ((int)strlen(text) > width[k + 1])
				width[k + 1] = (int)strlen(text);
		}
	}
	fprintf(out, "  %-*s", width[0], "vector");
	for (unsigned k = 0; k < c->ncols; k++)
		fprintf(out, "  %-*s", k + 1 < c->ncols ? width[k + 1] : 0, np_compare_label(c, k));
	fputc('\n', out);
	for (unsigned r = 0; r < c->nrows; r++) {
		bool d = np_compare_row_differs(c, r);
		if (differences_only && !d)
			continue;
		fprintf(out, "%c %-*s", d ? '*' : ' ', width[0], c->vector[r]);
		for (unsigned k = 0; k < c->ncols; k++) {
			np_compare_cell(c, r, k, text, sizeof text);
			fprintf(out, "  %-*s", k + 1 < c->ncols ? width[k + 1] : 0, text);
		}
		fputc('\n', out);
	}
	free(width);
}
