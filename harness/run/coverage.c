/* SPDX-License-Identifier: MIT */
/* The coverage of a run (ntprof/coverage.h): which rows reached which
 * function of the implementation, from the bits the runner sets in each
 * row (np_row.reached). */
#include <stdio.h>
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

/* The first expectation of st that covers t (the runner's). */
static const np_expect *primary_for(const np_step *st, np_target t)
{
	for (unsigned e = 0; e < st->nexpect; e++)
		if (!st->expect[e].alternative && np_applies(&st->expect[e].when, t.version, t.arch))
			return &st->expect[e];
	return NULL;
}

/* The bits (np_function_id) of the calls the row asks: its steps up to
 * one that expects not-applicable on its target (no one is asked that). */
static uint32_t calls_of(const np_row *r)
{
	uint32_t bits = 0;
	const np_vector *v = r->vector;
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_expect *e = primary_for(&v->step[s], r->target);
		if (e && e->outcome.kind == NP_RESULT_NOT_APPLICABLE)
			break;
		if (np_function_is_call(v->step[s].catalog))
			bits |= 1u << v->step[s].catalog->id;
	}
	return bits;
}

static np_coverage_capability *capability(np_coverage *c, const char *name)
{
	for (unsigned i = 0; i < c->ncap; i++)
		if (strcmp(c->cap[i].name, name) == 0)
			return &c->cap[i];
	if (c->ncap == NP_COVERAGE_MAX)
		return NULL;
	np_coverage_capability *k = &c->cap[c->ncap++];
	snprintf(k->name, sizeof k->name, "%.63s", name);
	return k;
}

/* The row's capabilities: asked (exercised or not), or the one it lacked. */
static void count_capabilities(const np_row *r, bool is_asked, bool exercised, np_coverage *c)
{
	np_needs needs;
	if (!is_asked && !r->lacking)
		return;
	np_vector_needs(r->vector, &needs);
	for (unsigned i = 0; i < needs.count; i++) {
		np_coverage_capability *k = capability(c, needs.name[i]);
		if (!k)
			continue;
		if (!is_asked && r->lacking == i + 1)
			k->undeclared++;
		else if (is_asked) {
			k->required++;
			k->exercised += exercised;
		}
	}
}

void np_coverage_count(const np_run *run, np_coverage *c)
{
	unsigned exercised[32] = { 0 }, required[32] = { 0 };
	memset(c, 0, sizeof *c);
	c->rows = run->count;
	for (unsigned i = 0; i < run->count; i++) {
		const np_row *r = &run->row[i];
		bool is_asked = asked(r);
		uint32_t calls = is_asked ? calls_of(r) : 0;
		bool hit = (r->reached & (calls ? calls : ~0u)) != 0;
		count_capabilities(r, is_asked, hit, c);
		if (!is_asked)
			continue;
		c->required++;
		c->exercised += hit;
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

/* "; capabilities Interrupt a/b, ...; not declared (vector-targets it
 * keeps out): Inject N, ..." for the capabilities the run's rows need; a
 * row lacking several is counted for the first. */
static void capabilities_text(FILE *out, const np_coverage *c)
{
	unsigned declared = 0, missing = 0;
	for (unsigned i = 0; i < c->ncap; i++)
		if (c->cap[i].required)
			fprintf(out, "%s%s %u/%u", declared++ ? ", " : "; capabilities ", c->cap[i].name,
				c->cap[i].exercised, c->cap[i].required);
	for (unsigned i = 0; i < c->ncap; i++)
		if (c->cap[i].undeclared)
			fprintf(out, "%s%s %u", missing++ ? ", " : "; not declared (vector-targets it "
				"keeps out): ", c->cap[i].name, c->cap[i].undeclared);
}

void np_coverage_text(FILE *out, const np_coverage *c, const char *prefix)
{
	fprintf(out, "%sexercised: %u of %u vector-targets", prefix, c->exercised, c->required);
	if (c->exercised == 0)
		fprintf(out, ": nothing was exercised");
	else
		fprintf(out, " (%.1f%% of the run's %u)", 100.0 * c->exercised / (c->rows ? c->rows : 1),
			c->rows);
	for (unsigned i = 0; i < c->nfn; i++)
		fprintf(out, "%s%s %u/%u", i ? ", " : "; ", c->fn[i].name, c->fn[i].exercised,
			c->fn[i].required);
	capabilities_text(out, c);
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
