/* SPDX-License-Identifier: MIT */
/* What a vector needs of an implementation beyond the calls
 * (ntprof/capability.h): read from its `given` settings, its steps and
 * their pointer arguments, so that no flag has to say it. */
#include <stdio.h>
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/capability.h"
#include "ntprof/configure.h"

static void need(np_needs *out, const char *name)
{
	for (unsigned i = 0; i < out->count; i++)
		if (strcmp(out->name[i], name) == 0)
			return;
	if (out->count < NP_MAX_NEEDS)
		snprintf(out->name[out->count++], NP_CAPABILITY_MAX, "%.63s", name);
}

/* The values every implementation takes, as a live system does. */
static bool taken_by_all(const char *key, const char *value)
{
	return strcmp(key, "privilege") == 0 || strcmp(key, "integrity") == 0 ||
	       (strcmp(key, "mode") == 0 && strcmp(value, "user") == 0) ||
	       (strcmp(key, "tracing") == 0 && strcmp(value, "off") == 0) ||
	       (strcmp(key, "sandboxed") == 0 && strcmp(value, "off") == 0);
}

/* Keys whose one value an implementation may take alone (a caller's mode,
 * one reading of a knob); the others are honoured whole. */
static bool by_value(const char *key)
{
	return strcmp(key, "mode") == 0 || strcmp(key, "tracing") == 0 ||
	       strcmp(key, "sandboxed") == 0 || strcmp(key, "hal") == 0 ||
	       strcmp(key, "alloc") == 0 || strncmp(key, "K-", 2) == 0;
}

/* The family of a `given` key: cpuN.FIELD is FIELD, hal.SOURCE.FIELD hal. */
static const char *family(const char *key)
{
	if (strncmp(key, "hal.", 4) == 0)
		return "hal";
	if (strncmp(key, "cpu", 3) == 0 && key[3] >= '0' && key[3] <= '9') {
		const char *dot = strchr(key, '.');
		return dot ? dot + 1 : key;
	}
	return key;
}

static void given_needs(const np_vector *v, np_needs *out)
{
	char name[NP_CAPABILITY_MAX];
	for (unsigned i = 0; i < v->ngiven; i++) {
		const np_pair *g = &v->given[i];
		if (taken_by_all(g->name, g->value))
			continue;
		const char *f = family(g->name);
		if (f == g->name && by_value(f))
			snprintf(name, sizeof name, "given:%.28s=%.28s", f, g->value);   /* keys and values are short */
		else
			snprintf(name, sizeof name, "given:%.56s", f);
		need(out, name);
	}
}

static bool vanishing(const np_arg *a)
{
	switch (a->kind) {
	case NP_PARAM_POINTER:    return a->pointer.symbol == NP_PTR_VANISHING;
	case NP_PARAM_OUT_HANDLE: return a->out_handle.where.symbol == NP_PTR_VANISHING;
	case NP_PARAM_BUFFER:     return a->buffer.form == NP_BUFFER_POINTER &&
					 a->buffer.where.symbol == NP_PTR_VANISHING;
	default:                  return false;
	}
}

static bool page_form(const np_arg *a)
{
	return a->kind == NP_PARAM_BUFFER && a->buffer.form == NP_BUFFER_FRESH &&
	       a->buffer.page_access != NP_PAGE_AS_IS;
}

/* The capability a step of f needs, or NULL. */
static const char *step_need(const np_function *f)
{
	switch (f->id) {
	case NP_FN_INTERRUPT:
	case NP_FN_INTERRUPTS:             return "Interrupt";
	case NP_FN_INJECT:                 return "Inject";
	case NP_FN_READ_EVENTS:            return "ReadEvents";
	case NP_FN_MOVE_THREAD:            return "MoveThread";
	case NP_FN_SET_CPUS:               return "SetCpus";
	case NP_FN_SET_INTERVAL_ELSEWHERE: return "SetIntervalElsewhere";
	case NP_FN_PROTECT:                return "Protect";
	default:                           return NULL;
	}
}

void np_vector_needs(const np_vector *v, np_needs *out)
{
	out->count = 0;
	given_needs(v, out);
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		const char *n = step_need(st->catalog);
		if (n)
			need(out, n);
		for (unsigned p = 0; p < NP_MAX_PARAMS && st->catalog->param[p].name; p++) {
			if (vanishing(&st->value[p]))
				need(out, "pointer:vanishing");
			if (page_form(&st->value[p]))
				need(out, "Protect");
		}
	}
}

/* A reading an object implements is a value of that knob it takes: a
 * vector giving "K=V" is within "reading:K=V". */
static bool reads(const char *declared, const char *need)
{
	return strncmp(declared, "reading:", 8) == 0 && strncmp(need, "given:", 6) == 0 &&
	       strcmp(declared + 8, need + 6) == 0;
}

bool np_capability_declared(const char *const *declared, const char *need)
{
	const char *eq = strncmp(need, "given:", 6) == 0 ? strchr(need, '=') : NULL;
	for (; declared && *declared; declared++) {
		if (strcmp(*declared, need) == 0 || reads(*declared, need))
			return true;
		if (eq && strlen(*declared) == (size_t)(eq - need) &&
		    strncmp(*declared, need, (size_t)(eq - need)) == 0)
			return true;
	}
	return false;
}

/* "reading:K-NAME=VALUE" names a knob of ntprof/knobs.h and one of its values. */
static bool reading_name(const char *name)
{
	char key[NP_CAPABILITY_MAX];
	const char *eq = strchr(name, '=');
	if (strncmp(name, "reading:K-", 10) != 0 || !eq || (size_t)(eq - name - 8) >= sizeof key)
		return false;
	snprintf(key, sizeof key, "%.*s", (int)(eq - name - 8), name + 8);
	return np_config_check(key, eq + 1) == NULL;
}

bool np_capability_name(const char *name)
{
	const np_function *f = np_function_find(name);
	return (f && step_need(f) && strcmp(step_need(f), name) == 0) ||   /* not "Interrupts" */
	       (strncmp(name, "given:", 6) == 0 && name[6]) || strcmp(name, "pointer:vanishing") == 0 ||
	       reading_name(name);
}

const char *np_capability_reading(const char *const *declared, const char *knob, char *value,
				  size_t cap)
{
	size_t n = strlen(knob);
	for (; declared && *declared; declared++)
		if (strncmp(*declared, "reading:", 8) == 0 && strncmp(*declared + 8, knob, n) == 0 &&
		    (*declared)[8 + n] == '=') {
			snprintf(value, cap, "%s", *declared + 9 + n);
			return value;
		}
	return NULL;
}
