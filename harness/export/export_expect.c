/* SPDX-License-Identifier: MIT */
/* What each step of a vector must give in the test (export.h): the model's
 * record on every target of one caller width, from --since to the newest
 * version, grouped by what the test can tell apart (the outcome and the
 * out-values the step's expectations name). The newest target's is the
 * expectation (ok); every other is an older Windows's (broken), and so is
 * each `accept` line of the vector that covers a target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "ntprof/machine.h"
#include "ntprof/runner.h"

/* The out-values the step's expectations name, once each. */
static unsigned named_outs(const np_step *st, const char *names[NP_MAX_OUTS])
{
	unsigned n = 0;
	for (unsigned e = 0; e < st->nexpect; e++)
		for (unsigned i = 0; i < st->expect[e].nout; i++) {
			const char *name = st->expect[e].out[i].name;
			bool seen = false;
			for (unsigned k = 0; k < n; k++)
				seen = seen || strcmp(names[k], name) == 0;
			if (!seen && n < NP_MAX_OUTS)
				names[n++] = name;
		}
	return n;
}

/* r cut down to what the test checks. */
static void checked_part(const np_step *st, const np_record *r, np_export_result *out)
{
	const char *names[NP_MAX_OUTS];
	unsigned n = named_outs(st, names);
	memset(out, 0, sizeof *out);
	out->outcome = r->outcome;
	for (unsigned k = 0; k < n; k++) {
		const char *value = "-";
		for (unsigned i = 0; i < r->nout; i++)
			if (strcmp(r->out[i].name, names[k]) == 0)
				value = r->out[i].value;
		snprintf(out->out[out->nout].name, sizeof out->out[0].name, "%s", names[k]);
		snprintf(out->out[out->nout].value, sizeof out->out[0].value, "%s", value);
		out->nout++;
	}
}

static bool same_result(const np_export_result *a, const np_export_result *b)
{
	if (a->outcome.kind != b->outcome.kind || a->outcome.code != b->outcome.code || a->nout != b->nout)
		return false;
	for (unsigned i = 0; i < a->nout; i++)
		if (strcmp(a->out[i].value, b->out[i].value) != 0)
			return false;
	return true;
}

/* Outcomes the test meets otherwise than as an alternative: a missing
 * export is a win_skip, and a request the version cannot express is none. */
static bool checked_outcome(np_result_kind k)
{
	return k != NP_RESULT_NOT_EXPORTED && k != NP_RESULT_NOT_APPLICABLE;
}

static void add_result(np_export_step *es, const np_export_result *r, np_target t)
{
	for (unsigned i = 0; i < es->count; i++)
		if (same_result(&es->result[i], r)) {
			es->result[i].hit[t.version][t.arch] = true;
			return;
		}
	if (es->count == NP_EXPORT_MAX_RESULTS)
		return;
	es->result[es->count] = *r;
	es->result[es->count++].hit[t.version][t.arch] = true;
}

static bool in_width(np_arch a, bool wide)
{
	return wide ? a == NP_X64 : a != NP_X64;
}

/* The newest Windows of the width: the one the test runs on today, 64-bit
 * (x64) or 32-bit (WOW64: a 32-bit test on 64-bit Windows). A vector that
 * does not apply there says nothing of what the test would meet (a test
 * cannot tell which Windows it runs on), so it has no test of that width. */
static bool newest_target(const np_vector *v, bool wide, np_target *out)
{
	*out = (np_target){ (np_ver)(NP_VERSION_COUNT - 1), wide ? NP_X64 : NP_WOW64 };
	return np_applies(&v->applies, out->version, out->arch);
}

/* The model's records of every step on t into the plan; false when the
 * model cannot take the vector there. */
static bool run_target(np_backend *model, const np_vector *v, np_target t, np_export_plan *p)
{
	if (model->begin(model, t, v)) {
		model->end(model);
		return false;
	}
	for (unsigned s = 0; s < v->nstep; s++) {
		np_record r;
		np_export_result part;
		model->step(model, &v->step[s], &r);
		checked_part(&v->step[s], &r, &part);
		bool first = p->step[s].count == 0;
		bool checked = checked_outcome(part.outcome.kind);
		if (first || checked)
			add_result(&p->step[s], &part, t);
		if (!checked)
			break;   /* the test ends there: a win_skip, or nothing to call */
	}
	model->end(model);
	return true;
}

/* The vector's `accept` lines that cover a target of the plan. */
static void add_accepts(const np_vector *v, np_ver since, bool wide, np_export_plan *p)
{
	for (unsigned s = 0; s < v->nstep; s++)
		for (unsigned e = 0; e < v->step[s].nexpect; e++) {
			const np_expect *x = &v->step[s].expect[e];
			np_export_step *es = &p->step[s];
			if (!x->alternative || es->count == NP_EXPORT_MAX_RESULTS)
				continue;
			np_export_result *r = &es->result[es->count];
			memset(r, 0, sizeof *r);
			for (unsigned ver = since; ver < NP_VERSION_COUNT; ver++)
				for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
					r->hit[ver][a] = in_width((np_arch)a, wide) &&
							 np_arch_exists((np_ver)ver, (np_arch)a) &&
							 np_applies(&v->applies, (np_ver)ver, (np_arch)a) &&
							 np_applies(&x->when, (np_ver)ver, (np_arch)a);
			r->outcome = x->outcome;
			r->nout = x->nout;
			memcpy(r->out, x->out, sizeof r->out);
			r->accept = x;
			es->count++;
		}
}

/* Why the newest target's results cannot be the expectation, or NULL. */
static const char *newest_unusable(const np_vector *v, const np_export_plan *p, char *why, size_t cap)
{
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_export_result *r = &p->step[s].result[0];
		if (p->step[s].count && checked_outcome(r->outcome.kind))
			continue;
		snprintf(why, cap, "step %u (%s) is %s on %s/%s, the newest Windows it applies to", s + 1,
			 v->step[s].function,
			 p->step[s].count && r->outcome.kind == NP_RESULT_NOT_EXPORTED ? "not exported"
										: "not applicable",
			 np_version_key(p->newest.version), np_arch_name(p->newest.arch));
		return why;
	}
	return NULL;
}

const unsigned np_export_probe_cpus[NP_EXPORT_PROBES] = { 1, 2, 3, 4, 8, 16, 31, 32, 33, 63, 64, 64 };
const unsigned np_export_probe_groups[NP_EXPORT_PROBES] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2 };

/* On which probed machines the newest Windows gives what the model's machine
 * gives: the results that depend on the processors are the model's only
 * there (CP-15, CP-16, MC-2, MC-4), and the test runs only there. */
static void probe_machines(np_backend *model, const np_vector *v, np_export_plan *p)
{
	np_vector *w = malloc(sizeof *w);
	np_export_plan *q = malloc(sizeof *q);
	for (unsigned i = 0; w && q && i < NP_EXPORT_PROBES; i++) {
		*w = *v;
		if (w->ngiven + 2 > NP_MAX_GIVEN)
			break;
		snprintf(w->given[w->ngiven].name, sizeof w->given[0].name, "cpus");
		snprintf(w->given[w->ngiven++].value, sizeof w->given[0].value, "%u", np_export_probe_cpus[i]);
		snprintf(w->given[w->ngiven].name, sizeof w->given[0].name, "groups");
		snprintf(w->given[w->ngiven++].value, sizeof w->given[0].value, "%u", np_export_probe_groups[i]);
		memset(q, 0, sizeof *q);
		bool same = run_target(model, w, p->newest, q);
		for (unsigned s = 0; same && s < v->nstep; s++)
			same = q->step[s].count == (p->step[s].count > 0) &&
			       (!q->step[s].count || same_result(&q->step[s].result[0], &p->step[s].result[0]));
		p->fits[i] = same;
	}
	free(w);
	free(q);
}

void np_export_plan_width(np_backend *model, const np_vector *v, np_ver since, bool wide,
			  np_export_plan *p)
{
	memset(p, 0, sizeof *p);
	if (!newest_target(v, wide, &p->newest)) {
		snprintf(p->why, sizeof p->why, "it does not apply to %s/%s, the newest Windows",
			 np_version_key(p->newest.version), np_arch_name(p->newest.arch));
		return;
	}
	/* the newest first, so that its results are each step's [0] */
	if (!run_target(model, v, p->newest, p)) {
		snprintf(p->why, sizeof p->why, "the model cannot take it on %s/%s",
			 np_version_key(p->newest.version), np_arch_name(p->newest.arch));
		return;
	}
	if (newest_unusable(v, p, p->why, sizeof p->why))
		return;
	probe_machines(model, v, p);   /* while each step holds the newest's result alone */
	for (int ver = (int)p->newest.version; ver >= (int)since; ver--)
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			np_target t = { (np_ver)ver, (np_arch)a };
			if (in_width(t.arch, wide) && np_arch_exists(t.version, t.arch) &&
			    np_applies(&v->applies, t.version, t.arch) &&
			    !(t.version == p->newest.version && t.arch == p->newest.arch))
				run_target(model, v, t, p);
		}
	add_accepts(v, since, wide, p);
	p->usable = true;
}

/* Appends "LO..HI ARCH" runs of r's targets on one architecture. */
static size_t where_arch(const np_export_result *r, np_arch a, char *buf, size_t cap, size_t used)
{
	for (unsigned v = 0; v < NP_VERSION_COUNT && used < cap; v++) {
		if (!r->hit[v][a])
			continue;
		unsigned hi = v;
		while (hi + 1 < NP_VERSION_COUNT && r->hit[hi + 1][a])
			hi++;
		int n = hi == v ? snprintf(buf + used, cap - used, "%s%s %s", used ? ", " : "",
					   np_version_key((np_ver)v), np_arch_name(a))
				: snprintf(buf + used, cap - used, "%s%s..%s %s", used ? ", " : "",
					   np_version_key((np_ver)v), np_version_key((np_ver)hi), np_arch_name(a));
		used += n > 0 ? (size_t)n : 0;
		v = hi;
	}
	return used;
}

void np_export_where(const np_export_result *r, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned a = 0; a < NP_ARCH_COUNT && used < cap; a++)
		used = where_arch(r, (np_arch)a, buf, cap, used);
}

int np_export_result_on(const np_export_plan *p, unsigned s, np_ver ver)
{
	for (unsigned i = 0; i < p->step[s].count; i++)
		if (!p->step[s].result[i].accept && p->step[s].result[i].hit[ver][p->newest.arch])
			return (int)i;
	return -1;
}

uint32_t np_export_time_default(void)
{
	static uint32_t def;
	np_machine *m = def ? NULL : calloc(1, sizeof *m);
	if (m && !np_machine_init(m, (np_ver)(NP_VERSION_COUNT - 1), NP_X64))
		def = m->hal.source[NP_PROFILE_TIME].def;
	if (m)
		np_machine_fini(m);
	free(m);
	return def;
}
