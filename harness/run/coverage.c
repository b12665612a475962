/* SPDX-License-Identifier: MIT */
/* The coverage of a run (ntprof/coverage.h): which rows reached which
 * function of the implementation, from the bits the runner sets in each
 * row (np_row.reached). */
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/coverage.h"

/* Whether the row was asked of the implementation at all. */
static bool asked(const np_row *r)
{
	switch (r->cls) {
	case NP_CLASS_NOT_REQUIRED:
	case NP_CLASS_NOT_IMPLEMENTED:
	case NP_CLASS_SKIPPED:
		return false;
	case NP_CLASS_NOT_APPLICABLE:
		return r->step >= 0;   /* before any step: it cannot take the vector's state */
	default:
		return true;
	}
}

/* The bits (np_function_id) of the calls the vector's steps make. */
static uint32_t calls_of(const np_vector *v)
{
	uint32_t bits = 0;
	for (unsigned s = 0; s < v->nstep; s++)
		if (np_function_is_call(v->step[s].catalog))
			bits |= 1u << v->step[s].catalog->id;
	return bits;
}

void np_coverage_count(const np_run *run, np_coverage *c)
{
	unsigned exercised[32] = { 0 }, required[32] = { 0 };
	memset(c, 0, sizeof *c);
	for (unsigned i = 0; i < run->count; i++) {
		const np_row *r = &run->row[i];
		if (!asked(r))
			continue;
		uint32_t calls = calls_of(r->vector);
		c->required++;
		c->exercised += (r->reached & calls) != 0;
		for (unsigned id = 0; id < 32; id++) {
			required[id] += (calls >> id) & 1u;
			exercised[id] += (r->reached & calls) >> id & 1u;
		}
	}
	for (unsigned i = 0; np_function_at(i) && c->nfn < NP_COVERAGE_MAX; i++) {
		const np_function *f = np_function_at(i);
		if (f->id < 32 && required[f->id])
			c->fn[c->nfn++] = (np_coverage_function){ f->name, exercised[f->id], required[f->id] };
	}
}

void np_coverage_text(FILE *out, const np_coverage *c, const char *prefix)
{
	fprintf(out, "%sexercised: %u of %u vector-targets", prefix, c->exercised, c->required);
	if (c->exercised == 0)
		fprintf(out, ": nothing was exercised");
	for (unsigned i = 0; i < c->nfn; i++)
		fprintf(out, "%s%s %u/%u", i ? ", " : "; ", c->fn[i].name, c->fn[i].exercised,
			c->fn[i].required);
	fputc('\n', out);
}

void np_coverage_json(FILE *out, const np_coverage *c)
{
	fprintf(out, "\"coverage\":{\"exercised\":%u,\"vector-targets\":%u,\"functions\":{", c->exercised,
		c->required);
	for (unsigned i = 0; i < c->nfn; i++)
		fprintf(out, "%s\"%s\":{\"exercised\":%u,\"vector-targets\":%u}", i ? "," : "", c->fn[i].name,
			c->fn[i].exercised, c->fn[i].required);
	fprintf(out, "}}");
}
