/* SPDX-License-Identifier: MIT */
/* The C of one step (export.h): its arguments made real, the call, and the
 * check of what it gave: the newest Windows's result as ok(), each older
 * one as broken(), todo_wine where a known list says Wine differs. The
 * test ends at a step that gave none of them, as the runner stops at the
 * first difference. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "ntprof/known.h"
#include "ntprof/names.h"
#include "ntprof/number.h"
#include "ntprof/status.h"
#include "vectors/catalog.h"

/* An outcome as a message names it: STATUS_..., ERROR_..., or its number. */
static void outcome_text(const np_outcome *o, char *buf, size_t cap)
{
	const char *name = o->kind == NP_RESULT_WIN32 ? np_win32_name(o->code) : np_status_name(o->code);
	if (name)
		snprintf(buf, cap, "%s", name);
	else if (o->kind == NP_RESULT_WIN32)
		snprintf(buf, cap, "error %" PRIu32, o->code);
	else
		snprintf(buf, cap, "status 0x%08" PRIx32, o->code);
}

/* One result as a C condition. */
static void result_expr(np_export_text *t, const np_step *st, const np_export_result *r)
{
	uint64_t value;
	const char *name = r->outcome.kind == NP_RESULT_WIN32 ? np_win32_name(r->outcome.code)
							       : np_status_name(r->outcome.code);
	const char *kind = r->outcome.kind == NP_RESULT_WIN32 ? "NX_WIN32" : "NX_STATUS";
	if (name) {
		/* mingw-w64 types STATUS_* as DWORD, Wine's headers as NTSTATUS */
		np_export_printf(t, "r.kind == %s && r.code == %s%s", kind,
				 r->outcome.kind == NP_RESULT_WIN32 ? "" : "(LONG)", name);
		np_export_name_used(t, r->outcome);
	} else {
		np_export_printf(t, "r.kind == %s && r.code == 0x%08" PRIx32, kind, r->outcome.code);
	}
	for (unsigned i = 0; i < r->nout; i++) {
		np_export_out_kind kind;
		const char *expr = np_export_out_expr(st, r->out[i].name, &kind);
		bool number = np_number_parse(r->out[i].value, &value);
		if (!expr)
			continue;
		if (strcmp(r->out[i].value, "-") == 0)
			np_export_printf(t, " && %s == NX_UNWRITTEN", expr);
		else if (kind == NP_EXPORT_OUT_HANDLE)
			np_export_printf(t, " && %s == 1", expr);   /* a capture name, or "written" */
		else if (kind == NP_EXPORT_OUT_POINTER && number)
			np_export_printf(t, " && %s == %d", expr, value != 0);
		else if (number && value == np_export_time_default())
			np_export_printf(t, " && %s == nx_time_default", expr);
		else if (number)
			np_export_printf(t, " && %s == 0x%" PRIx64 "ull", expr, value);
		else
			np_export_printf(t, " && 0 /* %s=%s cannot be checked */", r->out[i].name, r->out[i].value);
	}
}

static void rules_text(const np_vector *v, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < v->nrule && used < cap; i++) {
		int n = snprintf(buf + used, cap - used, "%s%s", i ? " " : "", v->rule[i]);
		used += n > 0 ? (size_t)n : 0;
	}
}

/* The step (0-based) a known entry names in vector v, or -1: `step N`
 * names step N; `step FUNCTION` the first call of that function; an entry
 * for any step (`step *`) names none, since a test cannot tell in advance
 * which step will decide. A pattern names v as np_known_names says. */
static int named_step(const np_known_entry *e, const np_vector *v)
{
	if (!np_known_names(e, v))
		return -1;
	if (e->step > 0)
		return e->step - 1;
	for (unsigned s = 0; e->step_function && s < v->nstep; s++)
		if (np_function_find(v->step[s].function) == e->step_function)
			return (int)s;
	return -1;
}

/* Whether a known list names this step: with no call made (a missing
 * export or a stub: call_made false), or as a call that gave another
 * result (call_made true). The scope of an entry (on RANGE arch=LIST) does
 * not count, since on Wine the test checks one Windows's results (wine_as):
 * a call entry counts where its list's Windows gives there what wine_as
 * gives, since only then did the list judge Wine against that result; a
 * missing export or a stub is Wine's on every Windows. */
static bool known_as(const np_export_options *o, const np_vector *v, unsigned s, bool call_made,
		     const np_export_plan *p)
{
	for (unsigned k = 0; k < o->nknown; k++) {
		if (call_made && np_export_result_on(p, s, o->known_for[k]) != np_export_result_on(p, s, o->wine_as))
			continue;
		for (unsigned i = 0; i < o->known[k]->count; i++) {
			const np_known_entry *e = &o->known[k]->e[i];
			bool no_call = e->cls == NP_CLASS_NOT_EXPORTED || e->cls == NP_CLASS_STUB;
			if (named_step(e, v) == (int)s && no_call != call_made)
				return true;
		}
	}
	return false;
}

/* Whether some result the step accepts has this outcome. */
static bool accepted(const np_export_plan *p, unsigned s, const np_outcome *outcome)
{
	for (unsigned i = 0; i < p->step[s].count; i++)
		if (p->step[s].result[i].outcome.kind == outcome->kind && p->step[s].result[i].outcome.code == outcome->code)
			return true;
	return false;
}

/* Whether a ReactOS list names this step (todo_ros). ReactOS's broken() is
 * true, so there every result the step accepts passes: an entry whose
 * status is one of them needs no todo (it would be a todo that succeeds). */
static bool ros_as(const np_export_options *o, const np_vector *v, unsigned s, bool call_made,
		   const np_export_plan *p)
{
	for (unsigned k = 0; k < o->nknown_ros; k++)
		for (unsigned i = 0; i < o->known_ros[k]->count; i++) {
			const np_known_entry *e = &o->known_ros[k]->e[i];
			bool no_call = e->cls == NP_CLASS_NOT_EXPORTED || e->cls == NP_CLASS_STUB;
			if (named_step(e, v) != (int)s || no_call == call_made)
				continue;
			if (e->cls == NP_CLASS_STATUS_MISMATCH && !e->any_got && accepted(p, s, &e->value.outcome))
				continue;
			return true;
		}
	return false;
}

/* ok()'s message: what the call returned and what was expected, in plain
 * words (the rules are in a comment above it); on Wine the expected
 * outcome is wine_as's (on_wine > 0: its result's index). */
static void message_code(np_export_text *t, const np_step *st, unsigned s, const np_export_step *es, int on_wine)
{
	np_export_out_kind kind;
	char want[2][64];
	outcome_text(&es->result[0].outcome, want[0], sizeof want[0]);
	outcome_text(&es->result[on_wine > 0 ? on_wine : 0].outcome, want[1], sizeof want[1]);
	bool differ = strcmp(want[0], want[1]) != 0;
	np_export_printf(t, ",\n           \"%%s: step %u: %s returned %%s", s + 1,
			 st->catalog->kind == NP_KIND_WIN32 ? st->catalog->name : st->function);
	for (unsigned i = 0, k = 1; i < es->result[0].nout && k < 4; i++)
		if (np_export_out_expr(st, es->result[0].out[i].name, &kind) && k++)
			np_export_printf(t, ", %s %%s", es->result[0].out[i].name);
	np_export_printf(t, "; expected %s\\n\", id, nx_outcome(&r, got[0], sizeof(got[0]))", differ ? "%s" : want[0]);
	for (unsigned i = 0, k = 1; i < es->result[0].nout && k < 4; i++) {
		const char *expr = np_export_out_expr(st, es->result[0].out[i].name, &kind);
		if (expr)
			np_export_printf(t, ", nx_value(%s, got[%u], sizeof(got[0]))", expr, k++);
	}
	if (differ)
		np_export_printf(t, ", nx_on_wine() ? \"%s\" : \"%s\"", want[1], want[0]);
}

/* The check of one step on one width: match, the alternatives, ok(). */
/* "5.1..6.1, 6.3": the versions a result comes from, on any architecture of
 * the width: the same comment for both widths lets their checks be one. */
static void versions_of(const np_export_result *r, char *buf, size_t cap)
{
	size_t used = 0;
	bool hit[NP_VERSION_COUNT] = { false };
	buf[0] = '\0';
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
			hit[v] = hit[v] || r->hit[v][a];
	for (unsigned v = 0; v < NP_VERSION_COUNT && used < cap; v++) {
		if (!hit[v])
			continue;
		unsigned hi = v;
		while (hi + 1 < NP_VERSION_COUNT && hit[hi + 1])
			hi++;
		int n = snprintf(buf + used, cap - used, "%s%s%s%s", used ? ", " : "", np_version_key((np_ver)v),
				 hi == v ? "" : "..", hi == v ? "" : np_version_key((np_ver)hi));
		used += n > 0 ? (size_t)n : 0;
		v = hi;
	}
}

static void check_code(np_export_text *t, const np_vector *v, unsigned s, const np_export_plan *p,
		       const np_export_options *o)
{
	bool todo = known_as(o, v, s, true, p), ros = ros_as(o, v, s, true, p);
	int on_wine = np_export_result_on(p, s, o->wine_as);
	const np_step *st = &v->step[s];
	const np_export_step *es = &p->step[s];
	char where[NP_TEXT_MAX * 2], rules[NP_TEXT_MAX];
	np_export_printf(t, "        match = ");
	result_expr(t, st, &es->result[0]);
	np_export_printf(t, ";\n");
	for (unsigned i = 1; i < es->count; i++) {
		versions_of(&es->result[i], where, sizeof where);
		if (es->result[i].accept)
			np_export_printf(t, "        /* accepted by the vector (%s): %s */\n", es->result[i].accept->flag,
					 where);
		else
			np_export_printf(t, "        /* %s */\n", where);
		np_export_printf(t, "        alt[%u] = ", i - 1);
		result_expr(t, st, &es->result[i]);
		np_export_printf(t, ";\n");
	}
	rules_text(v, rules, sizeof rules);
	np_export_printf(t, "        /* %s */\n", rules);
	/* on Wine broken() is false: the result checked there is wine_as's,
	 * the newest Windows's unless a known list is for an older one */
	if (on_wine > 0)
		np_export_printf(t, "        /* on Wine, what %s gives */\n        match = nx_on_wine() ? alt[%d] : match",
				 np_version_key(o->wine_as), on_wine - 1);
	else if (es->count > 1)
		np_export_printf(t, "        match = match");
	for (unsigned i = 1; i < es->count; i++, t->broken++)
		np_export_printf(t, " || broken(alt[%u])", i - 1);
	np_export_printf(t, "%s        %s%sok(match", on_wine > 0 || es->count > 1 ? ";\n" : "", todo ? "todo_wine " : "",
			 ros ? "todo_ros " : "");
	t->ok++;
	t->todo += todo;
	t->todo_ros += ros;
	message_code(t, st, s, &p->step[s], on_wine);
	/* the test goes on only where the check held: under todo_wine it did
	 * not, and the test ends there, as the live run stops at the first step
	 * that differs */
	np_export_printf(t, ");\n        if (!match) return;\n");
}

/* On Wine the test checks wine_as's results: where that Windows gives
 * nothing the test can check at this step (the call is missing there, or
 * its test ended before), the test ends before the call. */
static void wine_as_guard(np_export_text *t, unsigned s, const np_export_plan *p, const np_export_options *o)
{
	if (!p->usable || np_export_result_on(p, s, o->wine_as) >= 0)
		return;
	np_export_printf(t, "        if (nx_on_wine())\n        {\n            skip(\"%%s: step %u: Wine is "
			 "checked as %s, which gives nothing to check here\\n\", id);\n            return;\n"
			 "        }\n", s + 1, np_version_key(o->wine_as));
}

void np_export_step_code(np_export_text *t, const np_vector *v, unsigned s, const np_export_plan *wide,
			 const np_export_plan *narrow, const np_export_options *o)
{
	const np_step *st = &v->step[s];
	np_export_text a = { 0 }, b = { 0 };
	np_export_printf(t, "    /* step %u: %s", s + 1, st->function);
	for (unsigned i = 0; i < st->narg; i++)
		np_export_printf(t, " %s=%s", st->arg[i].name, st->arg[i].value);
	np_export_printf(t, " */\n    {\n");
	wine_as_guard(&a, s, wide, o);
	wine_as_guard(&b, s, narrow, o);
	if (a.failed || b.failed)
		t->failed = true;
	else if (wide->usable && narrow->usable && strcmp(a.s ? a.s : "", b.s ? b.s : "") != 0)
		np_export_printf(t, "#ifdef _WIN64\n%s#else\n%s#endif\n", a.s ? a.s : "", b.s ? b.s : "");
	else if (a.s || b.s)
		np_export_printf(t, "%s", a.s ? a.s : b.s);
	np_export_free(&a);
	np_export_free(&b);
	np_export_call_code(t, st);
	bool todo_call = known_as(o, v, s, false, wide->usable ? wide : narrow);
	bool ros_call = ros_as(o, v, s, false, wide->usable ? wide : narrow);
	t->todo += todo_call;
	t->todo_ros += ros_call;
	np_export_printf(t, "        if (!nx_called(s, &r, id, %u, \"%s\", %d)) return;\n", s + 1,
			 st->catalog->kind == NP_KIND_WIN32 ? st->catalog->name : st->function,
			 todo_call | ros_call << 1);
}

void np_export_check_code(np_export_text *t, const np_vector *v, unsigned s, const np_export_plan *wide,
			  const np_export_plan *narrow, const np_export_options *o)
{
	np_export_text a = { 0 }, b = { 0 };
	if (wide->usable)
		check_code(&a, v, s, wide, o);
	if (narrow->usable)
		check_code(&b, v, s, narrow, o);
	if (a.failed || b.failed)
		t->failed = true;
	else if (wide->usable && narrow->usable && strcmp(a.s, b.s) == 0)
		np_export_printf(t, "%s", a.s);
	else if (wide->usable && narrow->usable)
		np_export_printf(t, "#ifdef _WIN64\n%s#else\n%s#endif\n", a.s, b.s);
	else
		np_export_printf(t, "%s", wide->usable ? a.s : b.s);
	bool same = wide->usable && narrow->usable && !a.failed && !b.failed && strcmp(a.s, b.s) == 0;
	t->ok += same ? a.ok : a.ok + b.ok;
	t->broken += same ? a.broken : a.broken + b.broken;
	t->todo += same ? a.todo : a.todo + b.todo;
	t->todo_ros += same ? a.todo_ros : a.todo_ros + b.todo_ros;
	np_export_names_merge(t, &a);
	np_export_names_merge(t, &b);
	np_export_printf(t, "    }\n");
	np_export_free(&a);
	np_export_free(&b);
}
