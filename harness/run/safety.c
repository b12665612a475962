/* SPDX-License-Identifier: MIT */
/* What a vector may do to a live system (safety.h). */
#include <stdio.h>
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/configure.h"
#include "ntprof/names.h"
#include "ntprof/runner.h"
#include "ntprof/version_predicates.h"
#include "run/safety.h"

#define TRACE_SAMPLED_PROFILE_INTERVAL_INFO 5u   /* TR-1 */
#define SYSTEM_PERFORMANCE_TRACE_INFORMATION 0x1Fu
#define EVENT_TRACE_TIME_PROFILE_INFORMATION 3u  /* SY-23 */
#define SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA 0x81u

static uint32_t u32_of(const np_step *st, const char *name)
{
	return np_step_value(st, name)->u32.value;
}

bool np_global_equal(np_global a, np_global b)
{
	return a.kind == b.kind && a.source == b.source;
}

static void add_global(np_global *out, unsigned cap, unsigned *n, np_global g)
{
	for (unsigned i = 0; i < *n; i++)
		if (np_global_equal(out[i], g))
			return;
	if (*n < cap)
		out[(*n)++] = g;
}

/* The global state one step may set; false when it sets none. */
static bool step_global(const np_step *st, np_global *g)
{
	const np_function *f = st->catalog;   /* NULL: a step never read */
	*g = (np_global){ NP_GLOBAL_INTERVAL, 0 };
	if (!f)
		return false;
	switch (f->id) {
	case NP_FN_SET_INTERVAL:   /* SI */
		g->source = np_step_value(st, "Source")->source;
		return true;
	case NP_FN_TRACE_SET:
		if (u32_of(st, "InformationClass") != TRACE_SAMPLED_PROFILE_INTERVAL_INFO)
			return false;
		g->source = np_step_value(st, "Source")->source;
		if (g->source == 0)   /* TR-4: through class 0x1F, not SI */
			g->kind = NP_GLOBAL_ETW_TIME;
		return true;   /* TR-6 otherwise */
	case NP_FN_SET_SYSINFO:   /* SY-23 */
		if (u32_of(st, "InformationClass") != SYSTEM_PERFORMANCE_TRACE_INFORMATION ||
		    u32_of(st, "EventTraceClass") != EVENT_TRACE_TIME_PROFILE_INFORMATION)
			return false;
		g->kind = NP_GLOBAL_ETW_TIME;
		return true;
	default:
		return false;
	}
}

unsigned np_vector_globals(const np_vector *v, np_global *out, unsigned cap)
{
	unsigned n = 0;
	np_global g;
	for (unsigned s = 0; s < v->nstep; s++)
		if (step_global(&v->step[s], &g))
			add_global(out, cap, &n, g);
	return n;
}

const char *np_global_name(np_global g, char *buf, size_t cap)
{
	const char *name = np_source_name(g.source);
	if (g.kind == NP_GLOBAL_ETW_TIME)
		snprintf(buf, cap, "ETW time-profile");
	else if (name)
		snprintf(buf, cap, "%s", name);
	else
		snprintf(buf, cap, "0x%X", g.source);
	return buf;
}

const char *np_global_unrestorable(np_global g, np_target t, bool privilege, char *why, size_t cap)
{
	char name[32];
	np_global_name(g, name, sizeof name);
	if (g.kind == NP_GLOBAL_ETW_TIME && !np_trace_handles_profile_classes(t.version)) {
		snprintf(why, cap, "the %s interval can be put back only through TraceSetInformation "
			 "class 5, which %s does not take (TR-1)", name, np_version_key(t.version));
		return why;
	}
	/* SI-1; TR-5 follows it by K-ETW-TIME-PRIV's default, which no source
	 * states: a restore that might be refused is not counted on */
	if (!privilege && np_set_interval_checks_privilege(t.version)) {
		snprintf(why, cap, "putting the %s interval back needs SeSystemProfilePrivilege on %s "
			 "(%s), which this process's token cannot enable", name,
			 np_version_key(t.version), g.kind == NP_GLOBAL_ETW_TIME ? "TR-5" : "SI-1");
		return why;
	}
	return NULL;
}

static bool is_hazard(np_result_kind k)
{
	return k == NP_RESULT_FAULT || k == NP_RESULT_BUGCHECK || k == NP_RESULT_CORRUPTION;
}

static const np_expect *primary_for(const np_step *st, np_target t)
{
	for (unsigned e = 0; e < st->nexpect; e++)
		if (!st->expect[e].alternative && np_applies(&st->expect[e].when, t.version, t.arch))
			return &st->expect[e];
	return NULL;
}

static bool is_fn(const np_step *st, np_function_id id)
{
	return st->catalog && st->catalog->id == id;
}

static bool is_start(const np_step *st)
{
	return is_fn(st, NP_FN_START_PROFILE);
}

/* SY-10: a class 0x81 set that asks for an area. */
static const char *control_area_allocation(const np_vector *v, char *why, size_t cap)
{
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		if (!is_fn(st, NP_FN_SET_SYSINFO) ||
		    u32_of(st, "InformationClass") != SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA ||
		    np_step_value(st, "Allocate")->byte == 0)
			continue;
		snprintf(why, cap, "hazardous: step %u (%s) asks for a class 0x81 control area (Allocate=%u): "
			 "only the kernel's refusal (SY-7) stops it, and nothing would free it", s + 1,
			 st->function, np_step_value(st, "Allocate")->byte);
		return why;
	}
	return NULL;
}

/* Whether knob (a K-NAME) is one the model has no value for (K-SEGMENT-MATCH:
 * not modelled), so that no prediction of it can be had. A knob it models
 * is judged by the model's own predictions (from_model). */
static bool not_modelled(const char *knob)
{
	unsigned n;
	const np_knob_info *k = np_knob_table(&n);
	for (unsigned i = 0; i < n; i++)
		if (strcmp(k[i].name, knob) == 0)
			return false;
	return true;
}

static const char *unknown_flag(const np_vector *v, char *why, size_t cap)
{
	bool starts = false;
	for (unsigned s = 0; s < v->nstep; s++)
		starts = starts || is_start(&v->step[s]);
	for (unsigned f = 0; f < v->nflag && starts; f++) {
		const char *flag = v->flag[f];
		if (strncmp(flag, "unknown:", 8) != 0 || !not_modelled(flag + 8))
			continue;
		snprintf(why, cap, "hazardous: it starts a profile and rests on %s, which the model does "
			 "not model; real interrupts arrive while it is started", flag);
		return why;
	}
	return NULL;
}

static const char *from_fixture(const np_vector *v, np_target t, char *why, size_t cap)
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
	return NULL;
}

/* What is unknown of the profile a create step that succeeded made: "" for
 * nothing (IN-8, IN-2). */
static const char *unknown_profile(const np_step *st, np_target t, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (!is_fn(st, NP_FN_CREATE_PROFILE) && !is_fn(st, NP_FN_CREATE_PROFILE_EX))
		return buf;
	uint64_t base = np_step_value(st, "ProfileBase")->u64;
	uint32_t source = np_step_value(st, "Source")->source;
	if (np_has_segment_mode(t.arch) && u32_of(st, "BucketSize") == 0 && base != 0 &&
	    base < 0x10000)
		snprintf(buf, cap, "an x86 segment-mode profile (segment 0x%X): matching unknown (IN-8)",
			 (unsigned)base);
	else if (source > 0xFFFF)
		snprintf(buf, cap, "a profile of source 0x%X, kept in 16 bits: matching unknown (IN-2, K-SRC16)",
			 source);
	return buf;
}

static const char *from_model(const np_vector *v, np_target t, np_backend *model, char *why,
			      size_t cap)
{
	char outcome[NP_TEXT_MAX], unknown[NP_TEXT_MAX] = "", made[NP_TEXT_MAX];
	if (model->begin(model, t, v)) {
		model->end(model);
		return NULL;   /* the model cannot take the vector: nothing of it runs */
	}
	const char *found = NULL;
	for (unsigned s = 0; s < v->nstep && !found; s++) {
		const np_step *st = &v->step[s];
		np_record r;
		model->step(model, st, &r);
		bool ok = r.outcome.kind == NP_RESULT_STATUS && r.outcome.code == 0;
		if (is_hazard(r.outcome.kind)) {
			np_format_outcome(&r.outcome, outcome, sizeof outcome);
			snprintf(why, cap, "hazardous here: the model predicts %s at step %u (%s)", outcome,
				 s + 1, st->function);
			found = why;
		} else if (r.outcome.kind == NP_RESULT_NOT_APPLICABLE && s > 0) {
			snprintf(why, cap, "hazardous here: the model cannot say what step %u (%s) does "
				 "(%.120s), and the steps before it would run for real", s + 1,
				 st->function, r.why);
			found = why;
		} else if (ok && unknown_profile(st, t, made, sizeof made)[0]) {
			snprintf(unknown, sizeof unknown, "%s", made);
		} else if (ok && is_start(st) && unknown[0]) {
			snprintf(why, cap, "hazardous here: step %u (%s) starts %s; real interrupts reach it",
				 s + 1, st->function, unknown);
			found = why;
		}
	}
	model->end(model);
	return found;
}

const char *np_vector_hazard(const np_vector *v, np_target t, np_backend *model, char *why,
			     size_t cap)
{
	const char *found = from_fixture(v, t, why, cap);
	if (!found)
		found = control_area_allocation(v, why, cap);
	if (!found)
		found = unknown_flag(v, why, cap);
	if (!found && model)
		found = from_model(v, t, model, why, cap);
	return found;
}

bool np_vector_uses_hal(const np_vector *v)
{
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		const np_param *p = st->catalog ? np_param_find(st->catalog, "Source") : NULL;
		if (p && np_step_value(st, "Source")->source != 0)
			return true;   /* HL-1, HL-2: another source than ProfileTime */
		if (is_fn(st, NP_FN_TRACE_QUERY) && u32_of(st, "InformationClass") == 7)
			return true;   /* TR-7: the list */
		if (is_fn(st, NP_FN_QUERY_SYSINFO) &&
		    u32_of(st, "InformationClass") == SYSTEM_PERFORMANCE_TRACE_INFORMATION &&
		    u32_of(st, "EventTraceClass") == 0x0D)
			return true;   /* SY-24: the list */
	}
	return false;
}
