/* SPDX-License-Identifier: MIT */
/* The text report's lines (report/report_groups.h). An implementation with
 * one bug gets every vector that reaches it wrong, on most targets: the
 * default report groups its rows by cause (the class, the deciding step's
 * function, the rule the model decided by, what was expected and what was
 * got), a heading per cause with its vectors under it, each vector's rows
 * that say the same on one line with their targets as version ranges, so
 * that a run with a few bugs reads as a few headings. --verbose keeps a
 * line per target (harness/report/report.c).
 *
 * A row's fields are read in two places only: row_cause (the heading, and
 * the key of the grouping) and row_details (what a vector's line adds). */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "ntprof/known.h"
#include "ntprof/target_ranges.h"
#include "report/report_groups.h"

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static size_t append(char *buf, size_t cap, size_t used, const char *fmt, ...)
{
	if (used >= cap)
		return used;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + used, cap - used, fmt, ap);
	va_end(ap);
	return n < 0 ? used : used + (size_t)n;
}

static int step_line(const np_row *r)
{
	return r->step >= 0 ? r->vector->step[r->step].line : r->vector->line;
}

/* What a known-divergence file says of a failing or known row. */
static size_t known_note(char *buf, size_t cap, size_t used, const np_run *run, const np_row *r)
{
	const np_known_entry *e = r->listed;
	if (r->cls == NP_CLASS_KNOWN)
		return append(buf, cap, used, " {%s, listed at %s:%d}", np_class_name(r->observed),
			      run->known->path, e->line);
	if (!np_class_is_failure(r->cls))
		return used;
	if (!e)
		return append(buf, cap, used, " {unlisted: not in %s}", run->known->path);
	char step[NP_NAME_MAX];
	np_known_step_text(e, step, sizeof step);
	return append(buf, cap, used, " {unlisted: %s:%d lists %s step %s: %s}", run->known->path, e->line,
		      np_class_name(e->cls), step, e->got);
}

/* The cause of a row: " FUNCTION: expected E, got G" of its deciding step,
 * with the rule the model decided it by (where the row is shown by
 * default and the model said); for a row without a deciding step, its
 * note. Rows of one class and one cause share a heading. */
static size_t row_cause(char *buf, size_t cap, size_t used, const np_row *r)
{
	char expected[NP_TEXT_MAX * 3], got[NP_TEXT_MAX * 3];
	if (r->step < 0) {
		np_row_note_text(r, expected, sizeof expected);
		return append(buf, cap, used, " %s", expected);
	}
	np_row_expected_text(r, expected, sizeof expected);
	np_row_got_text(r, got, sizeof got);
	used = append(buf, cap, used, " %s: expected %s, got %s", r->vector->step[r->step].function,
		      expected, got);
	if (r->rule != NP_RULE_NONE && !np_class_is_quiet(r->cls))
		used = append(buf, cap, used, " <model: decided by %s>", np_rule_id(r->rule));
	return used;
}

/* What a row says beside its cause: the unknowns the vector's expectation
 * rests on (of a failure), the note (with_note), the model's outcome (where it is not the
 * expectation, unless model_always), the fixture's expectation, the
 * reading that judged it and what a known-divergence file says of it. */
static size_t row_details(char *buf, size_t cap, size_t used, const np_run *run, const np_row *r,
			  bool model_always, bool with_note)
{
	const np_vector *v = r->vector;
	for (unsigned i = 0; r->step >= 0 && np_class_is_failure(r->cls) && i < v->nflag; i++)
		if (strncmp(v->flag[i], "unknown:", 8) == 0)
			used = append(buf, cap, used, " <rests on %s>", v->flag[i]);
	char text[NP_TEXT_MAX * 3];
	np_row_note_text(r, text, sizeof text);
	if (with_note && text[0])
		used = append(buf, cap, used, " (%s)", text);
	/* beside a difference, the model's outcome is news only where it is
	 * not what the vector expects */
	if (np_row_model_differs(r, model_always)) {
		np_row_model_text(r, text, sizeof text);
		used = append(buf, cap, used, " [model: %s]", text);
	}
	np_row_fixture_text(r, text, sizeof text);
	if (text[0])
		used = append(buf, cap, used, " [fixture: %s]", text);
	if (np_row_reading(r)[0])
		used = append(buf, cap, used, " [judged under its reading %s]", np_row_reading(r));
	if (run->known)
		used = known_note(buf, cap, used, run, r);
	return used;
}

/* " [rules] file:line", and " step N" where the row has a deciding step. */
static size_t row_where(char *buf, size_t cap, size_t used, const np_row *r)
{
	const np_vector *v = r->vector;
	used = append(buf, cap, used, " [");
	for (unsigned i = 0; i < v->nrule; i++)
		used = append(buf, cap, used, "%s%s", i ? "," : "", v->rule[i]);
	used = append(buf, cap, used, "] %s:%d", v->file, step_line(r));
	if (r->step >= 0)
		used = append(buf, cap, used, " step %d", r->step + 1);
	return used;
}

void np_row_tail(const np_run *run, const np_row *r, bool model_always, char *buf, size_t cap)
{
	size_t used = row_where(buf, cap, 0, r);
	if (r->step >= 0)
		used = row_cause(buf, cap, used, r);
	row_details(buf, cap, used, run, r, model_always, true);
}

/* A vector's line under its heading: where, and the details; the note is
 * the heading's where the row has no deciding step. */
static void vector_line(const np_run *run, const np_row *r, char *buf, size_t cap)
{
	size_t used = row_where(buf, cap, 0, r);
	row_details(buf, cap, used, run, r, false, r->step >= 0);
}

static void cause_text(const np_row *r, char *buf, size_t cap)
{
	buf[0] = '\0';
	row_cause(buf, cap, 0, r);
}

/* The rows the default report shows, and where each is written. */
typedef struct grouping {
	const np_run *run;
	unsigned n;           /* rows shown: neither quiet (match, not applicable, ...) */
	unsigned *row;        /* their indices in the run, in its order */
	uint64_t *cause;      /* each one's class and cause, hashed */
	uint64_t *line;       /* each one's vector and vector line, hashed */
	unsigned char *state; /* NOT_YET, IN_CAUSE (the heading being written), WRITTEN */
	char a[NP_ROW_TAIL_MAX], b[NP_ROW_TAIL_MAX];
	char ranges[NP_TARGET_RANGES_MAX];
} grouping;

enum { NOT_YET, IN_CAUSE, WRITTEN };

static const np_row *shown(const grouping *g, unsigned k)
{
	return &g->run->row[g->row[k]];
}

/* The targets the vector of run row i ran on: its rows (np_run_vectors
 * writes a vector's targets together). */
static void ran_on(const np_run *run, unsigned i, np_target_grid *ran)
{
	const np_vector *v = run->row[i].vector;
	unsigned first = i, end = i + 1;
	while (first > 0 && run->row[first - 1].vector == v)
		first--;
	while (end < run->count && run->row[end].vector == v)
		end++;
	memset(ran, 0, sizeof *ran);
	for (unsigned j = first; j < end; j++)
		ran->at[run->row[j].target.version][run->row[j].target.arch] = true;
}

/* The line of shown row k, in its heading, and of every later row of the
 * heading and of its vector that says the same: its targets as ranges. */
static void write_vector_line(FILE *out, grouping *g, unsigned k)
{
	const np_row *lead = shown(g, k);
	np_target_grid in = { .at = { { false } } }, ran;
	in.at[lead->target.version][lead->target.arch] = true;
	vector_line(g->run, lead, g->a, sizeof g->a);
	g->state[k] = WRITTEN;
	/* the shown rows of one vector are consecutive, as the run's are */
	for (unsigned j = k + 1; j < g->n && shown(g, j)->vector == lead->vector; j++) {
		if (g->state[j] != IN_CAUSE || g->line[j] != g->line[k])
			continue;
		vector_line(g->run, shown(g, j), g->b, sizeof g->b);
		if (strcmp(g->a, g->b) != 0)
			continue;
		in.at[shown(g, j)->target.version][shown(g, j)->target.arch] = true;
		g->state[j] = WRITTEN;
	}
	ran_on(g->run, g->row[k], &ran);
	np_target_ranges(&in, &ran, g->ranges, sizeof g->ranges);
	fprintf(out, "    %s on %s%s\n", lead->vector->id, g->ranges, g->a);
}

/* The heading of shown row k's cause, then the vector lines of every row
 * with that cause, in the run's order. */
static void write_cause(FILE *out, grouping *g, unsigned k)
{
	const np_row *lead = shown(g, k);
	unsigned results = 0, vectors = 0;
	const np_vector *last = NULL;
	cause_text(lead, g->a, sizeof g->a);
	for (unsigned j = k; j < g->n; j++) {
		const np_row *r = shown(g, j);
		if (g->state[j] != NOT_YET || g->cause[j] != g->cause[k] || r->cls != lead->cls)
			continue;
		cause_text(r, g->b, sizeof g->b);
		if (strcmp(g->a, g->b) != 0)
			continue;
		g->state[j] = IN_CAUSE;
		results++;
		vectors += r->vector != last;   /* a vector's rows are consecutive */
		last = r->vector;
	}
	fprintf(out, "%-17s%s (%u vector%s, %u result%s)\n", np_class_name(lead->cls), g->a, vectors,
		vectors == 1 ? "" : "s", results, results == 1 ? "" : "s");
	for (unsigned j = k; j < g->n; j++)
		if (g->state[j] == IN_CAUSE)
			write_vector_line(out, g, j);
}

/* Room for the shown rows; false when memory runs out. */
static bool grouping_start(grouping *g, const np_run *run)
{
	g->run = run;
	g->n = 0;
	for (unsigned i = 0; i < run->count; i++)
		g->n += !np_class_is_quiet(run->row[i].cls);
	size_t n = g->n ? g->n : 1;
	g->row = malloc(n * sizeof *g->row);
	g->cause = malloc(n * sizeof *g->cause);
	g->line = malloc(n * sizeof *g->line);
	g->state = calloc(n, sizeof *g->state);
	return g->row && g->cause && g->line && g->state;
}

static void grouping_free(grouping *g)
{
	free(g->row);
	free(g->cause);
	free(g->line);
	free(g->state);
}

bool np_report_groups(FILE *out, const np_run *run)
{
	grouping *g = malloc(sizeof *g);   /* some 26 KB of text */
	if (!g)
		return false;
	bool ok = grouping_start(g, run);
	for (unsigned i = 0, k = 0; ok && i < run->count; i++) {
		const np_row *r = &run->row[i];
		if (np_class_is_quiet(r->cls))
			continue;
		g->row[k] = i;
		cause_text(r, g->a, sizeof g->a);
		g->cause[k] = np_fnv1a_str(NP_FNV1A_SEED ^ (uint64_t)r->cls, g->a);
		vector_line(run, r, g->b, sizeof g->b);
		g->line[k] = np_fnv1a_str(np_fnv1a(NP_FNV1A_SEED, &r->vector, sizeof r->vector), g->b);
		k++;
	}
	for (unsigned k = 0; ok && k < g->n; k++)
		if (g->state[k] == NOT_YET)
			write_cause(out, g, k);
	grouping_free(g);
	free(g);
	return ok;
}
