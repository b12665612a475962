/* SPDX-License-Identifier: MIT */
/* The text report's lines (report/report_groups.h). An implementation that
 * gets one step wrong gets it wrong on most targets: the default report
 * writes such rows once, with their targets as version ranges, so that a
 * run with a few bugs reads as a few lines; --verbose keeps a line per
 * target (harness/report/report.c). Rows share a line only when everything
 * that line says beside the targets is the same text, whatever the class. */
#include <stdarg.h>
#include <stdint.h>
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

void np_row_tail(const np_run *run, const np_row *r, bool model_always, char *buf, size_t cap)
{
	const np_vector *v = r->vector;
	size_t used = append(buf, cap, 0, " [");
	for (unsigned i = 0; i < v->nrule; i++)
		used = append(buf, cap, used, "%s%s", i ? "," : "", v->rule[i]);
	used = append(buf, cap, used, "] %s:%d", v->file, step_line(r));
	char text[NP_TEXT_MAX * 3], got[NP_TEXT_MAX * 3];
	if (r->step >= 0) {
		np_row_expected_text(r, text, sizeof text);
		np_row_got_text(r, got, sizeof got);
		used = append(buf, cap, used, " step %d %s: expected %s, got %s", r->step + 1,
			      v->step[r->step].function, text, got);
	}
	/* why: the rule the model decided by, and the unknowns the vector's
	 * expectation rests on */
	if (r->step >= 0 && r->rule != NP_RULE_NONE && np_class_is_failure(r->cls))
		used = append(buf, cap, used, " <model: decided by %s>", np_rule_id(r->rule));
	for (unsigned i = 0; r->step >= 0 && np_class_is_failure(r->cls) && i < v->nflag; i++)
		if (strncmp(v->flag[i], "unknown:", 8) == 0)
			used = append(buf, cap, used, " <rests on %s>", v->flag[i]);
	np_row_note_text(r, text, sizeof text);
	if (text[0])
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
		known_note(buf, cap, used, run, r);
}

static bool shown_by_default(const np_row *r)
{
	return !np_class_is_quiet(r->cls);
}

/* FNV-1a of a row's class and tail: rows whose hashes differ say different
 * things, so only rows with equal hashes are compared in full. */
static uint64_t line_hash(np_class cls, const char *tail)
{
	return np_fnv1a_str(NP_FNV1A_SEED ^ (uint64_t)cls, tail);
}

/* At most this many rows are grouped at once: one vector's rows, a row per
 * target (np_target_list's room). */
#define BLOCK_MAX (64 * NP_ARCH_COUNT)

typedef struct block {
	const np_run *run;
	const np_row *row;        /* the block's first row */
	unsigned count;
	uint64_t hash[BLOCK_MAX];
	bool done[BLOCK_MAX];     /* written, or not shown */
	np_target_grid ran;       /* the targets the vector ran on */
	char tail[NP_ROW_TAIL_MAX], other[NP_ROW_TAIL_MAX];
	char ranges[NP_TARGET_RANGES_MAX];
} block;

/* The line of row i and of every later row of the block that says the same. */
static void write_group(FILE *out, block *b, unsigned i)
{
	const np_row *lead = &b->row[i];
	np_target_grid in = { .at = { { false } } };
	in.at[lead->target.version][lead->target.arch] = true;
	np_row_tail(b->run, lead, false, b->tail, sizeof b->tail);
	for (unsigned j = i + 1; j < b->count; j++) {
		const np_row *r = &b->row[j];
		if (b->done[j] || b->hash[j] != b->hash[i] || r->cls != lead->cls)
			continue;
		np_row_tail(b->run, r, false, b->other, sizeof b->other);
		if (strcmp(b->other, b->tail) != 0)
			continue;
		in.at[r->target.version][r->target.arch] = true;
		b->done[j] = true;
	}
	np_target_ranges(&in, &b->ran, b->ranges, sizeof b->ranges);
	fprintf(out, "%-17s %s on %s%s\n", np_class_name(lead->cls), lead->vector->id, b->ranges, b->tail);
}

static void write_block(FILE *out, block *b)
{
	memset(&b->ran, 0, sizeof b->ran);
	for (unsigned i = 0; i < b->count; i++) {
		const np_row *r = &b->row[i];
		b->ran.at[r->target.version][r->target.arch] = true;
		b->done[i] = !shown_by_default(r);
		if (!b->done[i]) {
			np_row_tail(b->run, r, false, b->tail, sizeof b->tail);
			b->hash[i] = line_hash(r->cls, b->tail);
		}
	}
	for (unsigned i = 0; i < b->count; i++)
		if (!b->done[i])
			write_group(out, b, i);
}

void np_report_groups(FILE *out, const np_run *run)
{
	block b;   /* some 22 KB */
	b.run = run;
	for (unsigned first = 0, end; first < run->count; first = end) {
		/* a block: the run's consecutive rows of one vector (np_run_vectors
		 * writes a vector's targets together) */
		for (end = first + 1; end < run->count && end - first < BLOCK_MAX &&
				      run->row[end].vector == run->row[first].vector;)
			end++;
		b.row = &run->row[first];
		b.count = end - first;
		write_block(out, &b);
	}
}
