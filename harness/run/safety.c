/* What a vector may do to a live system (safety.h). */
#include <stdio.h>
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/names.h"
#include "ntprof/runner.h"
#include "run/safety.h"

#define PROFILE_TIME 0u
#define TRACE_SAMPLED_PROFILE_INTERVAL_INFO 5u   /* TR-1 */
#define SYSTEM_PERFORMANCE_TRACE_INFORMATION 0x1Fu
#define EVENT_TRACE_TIME_PROFILE_INFORMATION 3u  /* SY-23 */

static uint32_t u32_of(const np_step *st, const char *name)
{
	return np_step_value(st, name)->u32.value;
}

static void add_source(uint32_t *out, unsigned cap, unsigned *n, uint32_t source)
{
	for (unsigned i = 0; i < *n; i++)
		if (out[i] == source)
			return;
	if (*n < cap)
		out[(*n)++] = source;
}

unsigned np_vector_interval_sources(const np_vector *v, uint32_t *out, unsigned cap)
{
	unsigned n = 0;
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		const np_function *f = st->catalog;   /* NULL: a step never read */
		if (!f)
			continue;
		switch (f->id) {
		case NP_FN_SET_INTERVAL:
			add_source(out, cap, &n, np_step_value(st, "Source")->source);
			break;
		case NP_FN_TRACE_SET:
			if (u32_of(st, "InformationClass") != TRACE_SAMPLED_PROFILE_INTERVAL_INFO)
				break;
			/* source 0 goes through SY-23 (TR-4) */
			add_source(out, cap, &n, np_step_value(st, "Source")->source);
			break;
		case NP_FN_SET_SYSINFO:
			if (u32_of(st, "InformationClass") == SYSTEM_PERFORMANCE_TRACE_INFORMATION &&
			    u32_of(st, "EventTraceClass") == EVENT_TRACE_TIME_PROFILE_INFORMATION)
				add_source(out, cap, &n, PROFILE_TIME);
			break;
		default:
			break;
		}
	}
	return n;
}

static bool is_hazard(np_outcome_kind k)
{
	return k == NP_OUT_FAULT || k == NP_OUT_BUGCHECK || k == NP_OUT_CORRUPTION;
}

static const np_expect *primary_for(const np_step *st, np_target t)
{
	for (unsigned e = 0; e < st->nexpect; e++)
		if (!st->expect[e].alternative && np_applies(&st->expect[e].when, t.version, t.arch))
			return &st->expect[e];
	return NULL;
}

const char *np_vector_hazard(const np_vector *v, np_target t, np_backend *model, char *why,
			     size_t cap)
{
	char outcome[NP_TEXT_MAX];
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_expect *e = primary_for(&v->step[s], t);
		if (e && is_hazard(e->outcome.kind)) {
			np_format_outcome(&e->outcome, outcome, sizeof outcome);
			snprintf(why, cap, "hazardous here: the fixture expects %s at step %u (%s)", outcome,
				 s + 1, v->step[s].function);
			return why;
		}
	}
	if (!model || model->begin(model, t, v)) {
		if (model)
			model->end(model);
		return NULL;   /* the model cannot take the vector: it predicts nothing */
	}
	const char *found = NULL;
	for (unsigned s = 0; s < v->nstep && !found; s++) {
		np_record r;
		model->step(model, &v->step[s], &r);
		if (is_hazard(r.outcome.kind)) {
			np_format_outcome(&r.outcome, outcome, sizeof outcome);
			snprintf(why, cap, "hazardous here: the model predicts %s at step %u (%s)", outcome,
				 s + 1, v->step[s].function);
			found = why;
		}
	}
	model->end(model);
	return found;
}
