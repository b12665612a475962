/* SPDX-License-Identifier: MIT */
/* The generated file as a whole (export.h): the header comment, the
 * prelude, one test function per vector (in #ifdef _WIN64 when only one
 * caller width has a test), the vectors left out with why, and the entry
 * point that runs every test through nx_run. Nothing in it depends on when
 * or where it is made: the same vectors and options give the same file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "run/safety.h"
#include "vectors/catalog.h"

#define FUNCTION_IDS (NP_FN_INTERRUPTS + 1)

/* A vector's file as the header and comments name it: from "fixtures/" on
 * when it is in a tree's fixtures, so that the file does not depend on where
 * the tree is; as given otherwise. */
static const char *shown_path(const char *file)
{
	const char *in = strstr(file, "/fixtures/");
	return in ? in + 1 : file;
}

/* test_ and the ID, every character that C does not take an underscore. */
static void function_name(const np_vector *v, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "test_%s", v->id);
	for (size_t i = 5; i < n && i < cap; i++)
		if (!((buf[i] >= 'a' && buf[i] <= 'z') || (buf[i] >= 'A' && buf[i] <= 'Z') ||
		      (buf[i] >= '0' && buf[i] <= '9')))
			buf[i] = '_';
}

static const char *width_condition(const np_export_plan *wide, const np_export_plan *narrow)
{
	return wide->usable && narrow->usable ? NULL : wide->usable ? "#ifdef _WIN64" : "#ifndef _WIN64";
}

static void comment_text(np_export_text *t, const char *text)
{
	for (; *text; text++)   /* a comment cannot hold its own end */
		np_export_printf(t, "%c", text[0] == '*' && text[1] == '/' ? '+' : text[0]);
}

static void vector_comment(np_export_text *t, const np_vector *v)
{
	np_export_printf(t, "/* %s: ", v->id);
	comment_text(t, v->title);
	np_export_printf(t, "\n * rules:");
	for (unsigned i = 0; i < v->nrule; i++)
		np_export_printf(t, " %s", v->rule[i]);
	np_export_printf(t, "; source: ");
	comment_text(t, v->source);
	np_export_printf(t, "\n * (%s:%d) */\n", shown_path(v->file), v->line);
}

/* The test runs only on a machine whose processors give what the model's
 * gave (export_expect.c probes them): a range of processors in group 0
 * between two probes that fit, and more groups where 64 in 2 fit. Probes
 * 0 to NP_EXPORT_PROBES - 2 are one group, ascending. */
static void processors_guard(np_export_text *t, const np_export_plan *wide, const np_export_plan *narrow)
{
	bool fit[NP_EXPORT_PROBES], all = true;
	char ranges[160] = "", cond[400] = "";
	size_t rn = 0, cn = 0;
	for (unsigned i = 0; i < NP_EXPORT_PROBES; i++) {
		fit[i] = (!wide->usable || wide->fits[i]) && (!narrow->usable || narrow->fits[i]);
		all = all && fit[i];
	}
	if (all)
		return;
	for (unsigned i = 0; i + 1 < NP_EXPORT_PROBES; i++) {
		if (!fit[i])
			continue;
		unsigned lo = np_export_probe_cpus[i];
		while (i + 2 < NP_EXPORT_PROBES && fit[i + 1])
			i++;
		unsigned hi = np_export_probe_cpus[i];
		int a = hi > lo ? snprintf(ranges + rn, sizeof ranges - rn, "%s%u to %u", rn ? ", " : "", lo, hi)
				: snprintf(ranges + rn, sizeof ranges - rn, "%s%u", rn ? ", " : "", lo);
		int b = snprintf(cond + cn, sizeof cond - cn, "%s(cpus >= %u && cpus <= %u)", cn ? " || " : "", lo, hi);
		rn += a > 0 && (size_t)a < sizeof ranges - rn ? (size_t)a : 0;
		cn += b > 0 && (size_t)b < sizeof cond - cn ? (size_t)b : 0;
	}
	bool groups = fit[NP_EXPORT_PROBES - 1] && fit[NP_EXPORT_PROBES - 2];
	np_export_printf(t, "    ULONG cpus = nx_cpus(), groups = nx_groups();\n"
			 "    if (!(%s(%s)))\n    {\n"
			 "        skip(\"%%s: its results are the model's for %s processor%s%s, not this machine's "
			 "%%lu in %%lu group(s)\\n\", id, cpus, groups);\n        return;\n    }\n",
			 groups ? "" : "groups == 1 && ", cn ? cond : "0", rn ? ranges : "no number of",
			 strcmp(ranges, "1") == 0 ? "" : "s", groups ? "" : " in one group");
}

void np_export_vector(np_export_text *t, const np_vector *v, const np_export_plan *wide,
		      const np_export_plan *narrow, const np_export_options *o, unsigned index)
{
	char name[NP_TEXT_MAX + 8];
	const char *cond = width_condition(wide, narrow);
	function_name(v, name, sizeof name);
	np_export_printf(t, "\n%s%s", cond ? cond : "", cond ? "\n" : "");
	vector_comment(t, v);
	np_global g[8];
	unsigned ng = np_vector_globals(v, g, 8);
	if (ng) {
		np_export_printf(t, "static const nx_global globals_%u[] = {", index);
		for (unsigned i = 0; i < ng; i++)
			np_export_printf(t, "%s { %d, 0x%x }", i ? "," : "", g[i].kind == NP_GLOBAL_ETW_TIME,
					 (unsigned)g[i].source);
		np_export_printf(t, " };\n\n");
	}
	np_export_printf(t, "static void %s(nx_state *s)\n{\n    static const char id[] = \"%s\";\n"
			 "    nx_result r;\n    int match, alt[%u];\n    char got[4][32];\n",
			 name, v->id, NP_EXPORT_MAX_RESULTS);
	np_export_captures(t, v);
	np_export_printf(t, "    (void)alt;\n");
	processors_guard(t, wide, narrow);
	np_export_printf(t, "\n");
	for (unsigned s = 0; s < v->nstep; s++) {
		np_export_step_code(t, v, s, wide, narrow, o);
		np_export_check_code(t, v, s, wide, narrow, o);
	}
	np_export_printf(t, "}\n%s", cond ? "#endif\n" : "");
}

/* The entry point's line that runs the vector. */
static void run_line(np_export_text *t, const np_vector *v, const np_export_plan *wide,
		     const np_export_plan *narrow, unsigned index)
{
	char name[NP_TEXT_MAX + 8];
	const char *cond = width_condition(wide, narrow);
	np_global g[8];
	unsigned ng = np_vector_globals(v, g, 8);
	bool privilege = false;
	for (unsigned i = 0; i < v->ngiven; i++)
		if (strcmp(v->given[i].name, "privilege") == 0)
			privilege = strcmp(v->given[i].value, "on") == 0;
	function_name(v, name, sizeof name);
	if (ng)
		np_export_printf(t, "%s%s    nx_run(\"%s\", %s, %d, globals_%u, %u);\n%s", cond ? cond : "",
				 cond ? "\n" : "", v->id, name, privilege, index, ng, cond ? "#endif\n" : "");
	else
		np_export_printf(t, "%s%s    nx_run(\"%s\", %s, %d, NULL, 0);\n%s", cond ? cond : "",
				 cond ? "\n" : "", v->id, name, privilege, cond ? "#endif\n" : "");
}

/* What one export is made of while it is being made. */
typedef struct export_parts {
	np_export_text body, calls, omitted;
	bool used[FUNCTION_IDS];
	unsigned exported, left_out;
} export_parts;

static void left_out_line(export_parts *x, const np_vector *v, const char *why)
{
	np_export_printf(&x->omitted, " *   %s: ", v->id);
	comment_text(&x->omitted, why);
	np_export_printf(&x->omitted, "\n");
	x->left_out++;
}

static void one_vector(export_parts *x, const np_vector *v, const np_export_options *o, np_backend *model,
		       np_export_plan plan[2])
{
	char why[NP_TEXT_MAX * 2];
	if (np_vector_has_flag(v, "hazardous")) {
		left_out_line(x, v, "hazardous: it may crash a real kernel on some version");
		return;
	}
	if (np_export_left_out(v, o, model, why, sizeof why)) {
		left_out_line(x, v, why);
		return;
	}
	np_export_plan_width(model, v, o->since, true, &plan[0]);
	np_export_plan_width(model, v, o->since, false, &plan[1]);
	if (!plan[0].usable && !plan[1].usable) {
		snprintf(why, sizeof why, "64-bit: %.180s; 32-bit: %.180s", plan[0].why, plan[1].why);
		left_out_line(x, v, why);
		return;
	}
	for (unsigned s = 0; s < v->nstep; s++)
		x->used[v->step[s].catalog->id] = true;
	np_export_vector(&x->body, v, &plan[0], &plan[1], o, x->exported);
	run_line(&x->calls, v, &plan[0], &plan[1], x->exported);
	x->exported++;
}

/* The files the vectors came from, each with how many were read. */
static void sources_list(np_export_text *t, const np_vector_set *set)
{
	for (unsigned i = 0; i < set->count; i++) {
		const char *file = set->v[i].file;
		if (i > 0 && strcmp(set->v[i - 1].file, file) == 0)
			continue;
		unsigned n = 0;
		for (unsigned k = i; k < set->count && strcmp(set->v[k].file, file) == 0; k++)
			n++;
		np_export_printf(t, " *   %s (%u)\n", shown_path(file), n);
	}
}

static void header(np_export_text *t, const np_vector_set *set, const np_export_options *o,
		   const export_parts *x)
{
	np_export_printf(t, "/* SPDX-License-Identifier: MIT */\n/*\n"
			 " * Conformance tests of the Windows NT profiling calls, in the style of Wine's\n"
			 " * dlls/ntdll/tests (include/wine/test.h). Generated by ntprof %s\n"
			 " * (ntprof export --format wine); regenerate rather than edit.\n *\n"
			 " * One test per vector: %u written, %u left out (listed below with why), of\n",
			 o->version, x->exported, x->left_out);
	sources_list(t, set);
	np_export_printf(t, " *\n * The checks are the model's results for the caller this file is built as\n"
			 " * (_WIN64: x64; else x86 and a 32-bit caller on 64-bit Windows): the newest\n"
			 " * Windows's as ok(), each other result from %s on as broken().\n",
			 np_version_key(o->since));
	if (o->nknown) {
		np_export_printf(t, " * Known divergences of Wine, as todo_wine:");
		for (unsigned k = 0; k < o->nknown; k++)
			np_export_printf(t, " %s", o->known[k]->path);
		np_export_printf(t, "\n");
	}
	if (o->nknown_ros) {
		np_export_printf(t, " * Known divergences of ReactOS, as todo_ros:");
		for (unsigned k = 0; k < o->nknown_ros; k++)
			np_export_printf(t, " %s", o->known_ros[k]->path);
		np_export_printf(t, "\n");
	}
	np_export_printf(t, " * Checks: %u ok(), %u broken(), %u todo_wine", x->body.ok, x->body.broken, x->body.todo);
	if (o->nknown_ros)
		np_export_printf(t, ", %u todo_ros", x->body.todo_ros);
	np_export_printf(t, ".\n */\n\n");
}

static bool assemble(FILE *out, const np_vector_set *set, const np_export_options *o, export_parts *x,
		     np_export_text *counts)
{
	np_export_text all = { 0 };
	header(&all, set, o, x);
	np_export_prelude(&all, x->used, FUNCTION_IDS, set, o);
	np_export_name_defines(&all, &x->body);
	np_export_printf(&all, "\n/* The HAL's default ProfileTime interval: the model's is 0x%x, another HAL's\n"
			 " * may differ, so it is read before any test sets one, where it can be. */\n"
			 "static ULONG nx_time_default = 0x%x;\n\nstatic void nx_read_time_default(void)\n{\n"
			 "    static const nx_global time = { 0, 0 };\n    ULONG value;\n"
			 "    if (nx_read_global(&time, &value) == 1) nx_time_default = value;\n}\n",
			 np_export_time_default(), np_export_time_default());
	if (x->left_out)
		np_export_printf(&all, "\n/*\n * Vectors left out, and why:\n%s */\n", x->omitted.s);
	np_export_printf(&all, "%s\nSTART_TEST(%s)\n{\n"
			 "    nx_init();\n    nx_read_time_default();\n%s}\n",
			 x->body.s ? x->body.s : "", o->test_name, x->calls.s ? x->calls.s : "");
	bool ok = !all.failed && !x->body.failed && !x->calls.failed && !x->omitted.failed &&
		  fwrite(all.s, 1, all.len, out) == all.len;
	counts->ok = x->body.ok;
	counts->broken = x->body.broken;
	counts->todo = x->body.todo;
	counts->todo_ros = x->body.todo_ros;
	np_export_free(&all);
	return ok;
}

bool np_export_wine(FILE *out, const np_vector_set *set, const np_export_options *o,
		    np_export_text *counts, char *err, size_t cap)
{
	np_backend *model = np_backend_model_new();
	np_export_plan *plan = calloc(2, sizeof *plan);
	export_parts x;
	memset(&x, 0, sizeof x);
	bool ok = model && plan;
	for (unsigned i = 0; ok && i < set->count; i++)
		if (np_export_chosen(&set->v[i], o))
			one_vector(&x, &set->v[i], o, model, plan);
	if (ok && x.exported == 0) {
		snprintf(err, cap, "no vector can be exported (%u left out)", x.left_out);
		ok = false;
	} else if (ok && !assemble(out, set, o, &x, counts)) {
		snprintf(err, cap, "out of memory or cannot write");
		ok = false;
	} else if (!ok) {
		snprintf(err, cap, "out of memory");
	}
	np_export_free(&x.body);
	np_export_free(&x.calls);
	np_export_free(&x.omitted);
	free(plan);
	if (model)
		model->destroy(model);
	return ok;
}
