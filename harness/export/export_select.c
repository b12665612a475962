/* SPDX-License-Identifier: MIT */
/* Which vectors become tests (export.h). A vector is left out, with a
 * comment in the file saying why, when a real system cannot take it (flag
 * model-only or not-live, or a `given` a test cannot set up), when it may harm the
 * system on any version (as `ntprof.exe live` decides it, run/
 * safety.h), or when a step is one the export cannot write. */
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "run/safety.h"
#include "vectors/catalog.h"

static bool function_supported(np_function_id id)
{
	switch (id) {
	case NP_FN_SET_INTERVAL:
	case NP_FN_QUERY_INTERVAL:
	case NP_FN_TRACE_SET:
	case NP_FN_TRACE_QUERY:
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX:
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:
	case NP_FN_CLOSE:
	case NP_FN_DUPLICATE_OBJECT:
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:
		return true;
	default:
		return false;
	}
}

bool np_export_step_supported(const np_step *st)
{
	if (!st->catalog || !function_supported(st->catalog->id))
		return false;
	for (unsigned i = 0; i < NP_MAX_PARAMS && st->catalog->param[i].name; i++) {
		const np_arg *a = np_step_value(st, st->catalog->param[i].name);
		if (a && a->kind == NP_PARAM_POINTER && a->pointer.symbol == NP_PTR_VANISHING)
			return false;   /* memory that vanishes once probed: the model only */
	}
	np_export_out_kind kind;
	for (unsigned e = 0; e < st->nexpect; e++)
		for (unsigned i = 0; i < st->expect[e].nout; i++)
			if (!np_export_out_expr(st, st->expect[e].out[i].name, &kind))
				return false;
	return true;
}

static bool names_function(const np_export_options *o, const np_step *st)
{
	for (unsigned i = 0; i < o->nfunction; i++) {
		const np_function *f = np_function_find(o->function[i]);
		if (f && st->catalog && f->id == st->catalog->id)
			return true;
	}
	return false;
}

bool np_export_chosen(const np_vector *v, const np_export_options *o)
{
	if (o->nfunction == 0)
		return true;
	for (unsigned s = 0; s < v->nstep; s++)
		if (names_function(o, &v->step[s]))
			return true;
	return false;
}

/* The `given` pairs a test takes: the privilege (set by the test), and the
 * state every real caller is in. */
static bool given_supported(const np_pair *g)
{
	if (strcmp(g->name, "privilege") == 0)
		return true;
	/* tracing, even off, is refused: whether a system traces profile events
	 * cannot be probed (as the live side refuses it) */
	return (strcmp(g->name, "mode") == 0 && strcmp(g->value, "user") == 0) ||
	       (strcmp(g->name, "alloc") == 0 && strcmp(g->value, "ok") == 0);
}

/* Hazardous on some target, of any version: as the live side judges it. */
static const char *hazard(const np_vector *v, np_backend *model, char *why, size_t cap)
{
	for (unsigned ver = 0; ver < NP_VERSION_COUNT; ver++)
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			np_target t = { (np_ver)ver, (np_arch)a };
			char text[NP_TEXT_MAX * 2];
			if (!np_arch_exists(t.version, t.arch) || !np_applies(&v->applies, t.version, t.arch))
				continue;
			if (np_vector_hazard(v, t, model, text, sizeof text)) {
				snprintf(why, cap, "on %s/%s, %s", np_version_key(t.version), np_arch_name(t.arch),
					 text);
				return why;
			}
		}
	return NULL;
}

const char *np_export_left_out(const np_vector *v, const np_export_options *o, np_backend *model,
			       char *why, size_t cap)
{
	if (np_vector_has_flag(v, "model-only")) {
		snprintf(why, cap, "model-only: no implementation can be asked it");
		return why;
	}
	if (np_vector_has_flag(v, "not-live")) {
		snprintf(why, cap, "not-live: it needs state a live system cannot take");
		return why;
	}
	for (unsigned i = 0; i < v->ngiven; i++)
		if (!given_supported(&v->given[i])) {
			snprintf(why, cap, "it needs `given %s=%s`, which a test cannot set up", v->given[i].name,
				 v->given[i].value);
			return why;
		}
	if (!o->hal_dependent && np_vector_uses_hal(v)) {
		snprintf(why, cap, "its outcome depends on the HAL's profile sources, which differ between "
			 "machines (--hal-dependent keeps it, with the model's default HAL)");
		return why;
	}
	for (unsigned s = 0; s < v->nstep; s++)
		if (!np_export_step_supported(&v->step[s])) {
			snprintf(why, cap, "step %u (%s) is not one the export writes yet", s + 1,
				 v->step[s].function);
			return why;
		}
	return hazard(v, model, why, cap);
}

/* A known list's entries were judged against one Windows's expectations:
 * the live run that wrote it says which in its `# env version:` line. */
bool np_export_known_for(const char *path, np_ver *out, char *why, size_t cap)
{
	static const char tag[] = "# env version:";
	char line[512];
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, cap, "%s: cannot be read", path);
		return false;
	}
	for (int n = 1; fgets(line, sizeof line, f); n++) {
		char version[64];
		if (strncmp(line, tag, sizeof tag - 1) != 0)
			continue;
		fclose(f);
		if (sscanf(line + sizeof tag - 1, "%63s", version) == 1 && np_version_parse(version, out))
			return true;
		snprintf(why, cap, "%s:%d: `# env version:` names no version `ntprof versions` knows", path, n);
		return false;
	}
	fclose(f);
	snprintf(why, cap, "%s: no line `# env version: VERSION` saying which Windows the list's expectations "
		 "are for (a live run's --known-write writes it)", path);
	return false;
}
