/* SPDX-License-Identifier: MIT */
/* The explorer's classes. Without --against, combinations are grouped into
 * classes of version difference: (function, outcome before, outcome after,
 * the two versions), one representative each, the first the seeded order
 * met. With --against, each (combination, target) where the backend's
 * record differs from the model's is minimised greedily: every argument
 * off its plain default is reset, one at a time, and the reset kept when
 * the same divergence remains. Divergences are grouped by (function, model
 * outcome, backend outcome); the representative is the one with the
 * fewest arguments left. */
#include <stdlib.h>
#include <string.h>

#include "explore/explore_classes.h"
#include "ntprof/known.h"

static bool same_outcome(const np_outcome *a, const np_outcome *b)
{
	return a->kind == b->kind && a->code == b->code;
}

static bool grow(explorer *x)
{
	if (x->nc < x->cap)
		return true;
	size_t cap = x->cap ? 2 * x->cap : 64;
	size_t size = x->against ? sizeof *x->dc : sizeof *x->vc;
	void *grown = realloc(x->against ? (void *)x->dc : (void *)x->vc, cap * size);
	if (!grown)
		return false;
	if (x->against)
		x->dc = grown;
	else
		x->vc = grown;
	x->cap = cap;
	return true;
}

static const np_function *step_function(const explorer *x, unsigned s)
{
	return np_function_find(x->v.step[s].function);
}

void np_xrules_add(np_xrules *set, const np_record *r)
{
	for (unsigned i = 0; i < r->napplied; i++)
		set->bit[r->applied[i].rule / 8] |= (unsigned char)(1u << (r->applied[i].rule % 8));
	set->bit[r->rule / 8] |= (unsigned char)(1u << (r->rule % 8));
}

bool np_xrules_has(const np_xrules *set, np_rule r)
{
	return r != NP_RULE_NONE && (set->bit[r / 8] >> (r % 8)) & 1u;
}

/* Notes that combination n changes outcome at step s between run targets i and k. */
static bool note_version_change(explorer *x, unsigned long n, const np_xpoint *p, unsigned s,
				unsigned i, unsigned k)
{
	const np_function *f = step_function(x, s);
	const np_outcome *from = &x->mres->rec[i][s].outcome, *to = &x->mres->rec[k][s].outcome;
	np_ver before = x->run.t[i].version, after = x->run.t[k].version;
	unsigned arch = 1u << x->run.t[k].arch;
	for (size_t c = 0; c < x->nc; c++) {
		vclass *vc = &x->vc[c];
		if (vc->f == f && vc->before == before && vc->after == after &&
		    same_outcome(&vc->from, from) && same_outcome(&vc->to, to)) {
			vc->archs |= arch;
			vc->count += vc->last != n;
			vc->last = n;
			return true;
		}
	}
	if (!grow(x))
		return false;
	const np_record *rf = &x->mres->rec[i][s], *rt = &x->mres->rec[k][s];
	vclass *vc = &x->vc[x->nc++];
	*vc = (vclass){ .f = f, .from = *from, .to = *to, .from_rule = rf->rule, .to_rule = rt->rule,
			.before = before, .after = after, .archs = arch, .count = 1, .last = n, .rep = *p };
	np_xrules_add(&vc->applied, rf);
	np_xrules_add(&vc->applied, rt);
	return true;
}

/* Without --against: where consecutive versions of one architecture disagree. */
bool np_xclassify_versions(explorer *x, unsigned long n, const np_xpoint *p)
{
	int prev = -1;
	for (unsigned j = 0; j < x->run.count; j++) {
		unsigned k = x->order[j];
		if (prev >= 0 && x->run.t[prev].arch != x->run.t[k].arch)
			prev = -1;
		if (x->mres->refused[k])
			continue;
		for (unsigned s = 0; prev >= 0 && s < x->mres->nstep; s++)
			if (!same_outcome(&x->mres->rec[prev][s].outcome, &x->mres->rec[k][s].outcome)) {
				if (!note_version_change(x, n, p, s, (unsigned)prev, k))
					return false;
				break;
			}
		prev = (int)k;
	}
	return true;
}

static bool value_equal(const char *name, const char *a, const char *b)
{
	uint64_t x, y;
	if (strcmp(name, "ProcessorProfileControlArea") == 0 && strcmp(a, "-") && strcmp(b, "-"))
		return true;   /* both wrote an address of their own making */
	if (np_number_parse(a, &x) && np_number_parse(b, &y))
		return x == y;
	return strcmp(a, b) == 0;
}

static bool outputs_equal(const np_record *m, const np_record *b)
{
	for (unsigned i = 0; i < m->nout; i++) {
		const np_pair *got = NULL;
		for (unsigned k = 0; k < b->nout && !got; k++)
			if (strcmp(b->out[k].name, m->out[i].name) == 0)
				got = &b->out[k];
		if (!got || !value_equal(m->out[i].name, m->out[i].value, got->value))
			return false;
	}
	return true;
}

/* The first step where b's records differ from m's on target t. A step
 * that cannot be expressed there (not applicable, for the backend as in
 * `ntprof run`, or for the model: a 32-bit caller's 64-bit value, a source
 * on 3.10) shows nothing: its request does not exist on that target. */
divergence np_xdiverges(const np_xresults *m, const np_xresults *b, unsigned t)
{
	divergence d = { -1, { 0, 0 }, { 0, 0 }, false, NULL };
	if (m->refused[t] || b->refused[t])
		return d;
	for (unsigned s = 0; s < m->nstep; s++) {
		const np_record *mr = &m->rec[t][s], *br = &b->rec[t][s];
		if (br->outcome.kind == NP_RESULT_NOT_APPLICABLE || mr->outcome.kind == NP_RESULT_NOT_APPLICABLE)
			return d;
		bool other = !same_outcome(&mr->outcome, &br->outcome);
		if (other || !outputs_equal(mr, br)) {
			d = (divergence){ (int)s, mr->outcome, br->outcome, !other, mr };
			return d;
		}
	}
	return d;
}

static bool same_divergence(const divergence *a, const divergence *b)
{
	return a->step == b->step && a->outputs == b->outputs && same_outcome(&a->model, &b->model) &&
	       same_outcome(&a->got, &b->got);
}

/* Runs p on target t with both backends (slot 0 of m and b). */
static divergence run_pair(np_backend *model, np_backend *judged, const np_xpoint *p, np_target t,
			   np_xresults *m, np_xresults *b, unsigned long *evaluations)
{
	static np_vector v;
	static np_step steps[NP_X_MAX_STEPS];
	np_target_list one = { .count = 1 };
	one.t[0] = t;
	np_xpoint_vector(p, &v, steps);
	*evaluations += np_xevaluate(model, &v, &one, m);
	*evaluations += np_xevaluate(judged, &v, &one, b);
	return np_xdiverges(m, b, 0);
}

unsigned long np_xminimise(np_backend *model, np_backend *judged, np_xpoint *p, np_target t,
			   np_xresults *m, np_xresults *b)
{
	unsigned long evaluations = 0;
	divergence d = run_pair(model, judged, p, t, m, b, &evaluations);
	for (unsigned i = 0; d.step >= 0 && i < p->sp->nd; i++) {
		if (np_xpoint_plain(p, i))
			continue;
		np_xpoint q = *p;
		snprintf(q.val[i], sizeof q.val[i], "%s", p->sp->d[i].b[0].text);
		divergence e = run_pair(model, judged, &q, t, m, b, &evaluations);
		if (same_divergence(&e, &d))
			*p = q;
	}
	return evaluations;
}

static bool note_divergence(explorer *x, const np_xpoint *p, np_target t, const divergence *d)
{
	const np_function *f = step_function(x, (unsigned)d->step);
	unsigned changed = np_xpoint_changed(p);
	for (size_t c = 0; c < x->nc; c++) {
		dclass *dc = &x->dc[c];
		if (dc->f == f && dc->outputs == d->outputs && same_outcome(&dc->model, &d->model) &&
		    same_outcome(&dc->got, &d->got)) {
			dc->count++;
			if (changed < dc->changed) {   /* a smaller witness */
				dc->rep = *p;
				dc->changed = changed;
				dc->where = t;
			}
			return true;
		}
	}
	if (!grow(x))
		return false;
	dclass *dc = &x->dc[x->nc++];
	*dc = (dclass){ .f = f, .model = d->model, .got = d->got, .outputs = d->outputs, .count = 1,
			.where = t, .rep = *p, .changed = changed };
	if (d->model_record) {
		dc->rule = d->model_record->rule;
		np_xrules_add(&dc->applied, d->model_record);
	}
	return true;
}

/* The class `ntprof run` gives a step that ends otherwise than the model's. */
static np_class class_of(const divergence *d, const np_record *r)
{
	if (d->outputs)
		return NP_CLASS_OUTPUT_MISMATCH;
	switch (r->outcome.kind) {
	case NP_RESULT_NOT_EXPORTED: return NP_CLASS_NOT_EXPORTED;
	case NP_RESULT_STUB:         return NP_CLASS_STUB;
	case NP_RESULT_CRASHED:      return NP_CLASS_CRASHED;
	default:                     return NP_CLASS_STATUS_MISMATCH;
	}
}

/* True when the known list lists this divergence of combination p on run
 * target t, judged as `ntprof run` would judge the combination as a vector:
 * its ID (explore/NAME-HASH), class, deciding step and what the backend got. */
static bool listed(explorer *x, const np_xpoint *p, unsigned t, const divergence *d)
{
	static np_row row;
	static np_answer got;         /* the row's, here: no allocation per combination */
	static np_row_detail detail = { .answer[NP_PART_GOT] = &got };
	if (!x->o->known)
		return false;
	const np_record *r = &x->bres->rec[t][d->step];
	memset(&row, 0, sizeof row);
	np_xvector_id(p, x->v.id, sizeof x->v.id);
	row.vector = &x->v;
	row.target = x->run.t[t];
	row.step = d->step;
	row.cls = class_of(d, r);
	row.detail = &detail;
	np_answer_from_record(r, &got);
	return np_known_listing(x->o->known, &row) != NULL;
}

/* Whether a vector's value of an argument is the combination's: the same
 * text or number; a capture (>NAME) is a fresh user pointer either way. */
static bool same_value(const char *fixture, const char *combination)
{
	uint64_t a, b;
	if (fixture[0] == '>')
		return combination[0] == '>' || strcmp(combination, "user") == 0;
	if (np_number_parse(fixture, &a) && np_number_parse(combination, &b))
		return a == b;
	return strcmp(fixture, combination) == 0;
}

/* Whether the combination's step cs (of vector cv) is an instance of the
 * vector's step fs (of fv): every given and argument fs's vector writes,
 * the combination has with the same value (an argument it leaves out at
 * its fallback). */
static bool instance_of(const np_vector *fv, const np_step *fs, const np_vector *cv, const np_step *cs)
{
	for (unsigned g = 0; g < fv->ngiven; g++) {
		bool found = false;
		for (unsigned k = 0; k < cv->ngiven && !found; k++)
			found = strcmp(fv->given[g].name, cv->given[k].name) == 0 &&
				strcmp(fv->given[g].value, cv->given[k].value) == 0;
		if (!found)
			return false;
	}
	for (unsigned a = 0; a < fs->narg; a++) {
		const np_param *p = np_param_find(fs->catalog, fs->arg[a].name);
		const char *theirs = p ? p->fallback : NULL;
		for (unsigned k = 0; p && k < cs->narg; k++)
			if (np_param_find(cs->catalog, cs->arg[k].name) == p)
				theirs = cs->arg[k].value;
		if (!theirs || !same_value(fs->arg[a].value, theirs))
			return false;
	}
	return true;
}

/* True when an `accept` line of o->accepts accepts d on run target t, as
 * `ntprof run` would (match-alternative): a step of which the combination's
 * step is an instance, whose expectation there is the model's outcome and
 * which accepts the backend's. */
static bool accepted(explorer *x, unsigned t, const divergence *d)
{
	const np_vector_set *set = x->o->accepts;
	const np_step *cs = &x->v.step[d->step];
	const np_function *f = cs->catalog;
	np_target on = x->run.t[t];
	for (unsigned i = 0; set && !d->outputs && i < set->count; i++)
		for (unsigned s = 0; s < set->v[i].nstep; s++) {
			const np_step *st = &set->v[i].step[s];
			if (st->catalog != f || !np_applies(&set->v[i].applies, on.version, on.arch) ||
			    !instance_of(&set->v[i], st, &x->v, cs))
				continue;
			const np_expect *primary = NULL;
			for (unsigned e = 0; e < st->nexpect && !primary; e++)
				if (!st->expect[e].alternative && np_applies(&st->expect[e].when, on.version, on.arch))
					primary = &st->expect[e];
			if (!primary || !same_outcome(&primary->outcome, &d->model))
				continue;
			for (unsigned e = 0; e < st->nexpect; e++)
				if (st->expect[e].alternative && np_applies(&st->expect[e].when, on.version, on.arch) &&
				    same_outcome(&st->expect[e].outcome, &d->got))
					return true;
		}
	return false;
}

/* With --against: each kind of divergence of this combination, minimised
 * once on the first target that shows it. */
bool np_xclassify_divergences(explorer *x, const np_xpoint *p)
{
	divergence found[8];
	unsigned nfound = 0;
	bool any = false;
	for (unsigned t = 0; t < x->run.count; t++) {
		divergence d = np_xdiverges(x->mres, x->bres, t);
		if (d.step < 0)
			continue;
		if (listed(x, p, t, &d)) {
			x->st->known++;
			continue;
		}
		if (accepted(x, t, &d)) {
			x->st->accepted++;
			continue;
		}
		x->st->divergences++;
		any = true;
		bool known = false;
		for (unsigned i = 0; i < nfound && !known; i++)
			known = same_divergence(&found[i], &d);
		if (known || nfound == sizeof found / sizeof *found)
			continue;
		found[nfound++] = d;
	}
	for (unsigned i = 0; any && i < nfound; i++) {
		unsigned t = 0;
		for (; t < x->run.count; t++) {
			divergence d = np_xdiverges(x->mres, x->bres, t);
			if (d.step >= 0 && same_divergence(&d, &found[i]) && !listed(x, p, t, &d) &&
			    !accepted(x, t, &d))
				break;
		}
		np_xpoint q = *p;
		np_target where = x->run.t[t];
		x->st->evaluations += np_xminimise(x->model, x->against, &q, where, x->work, x->bres);
		if (!note_divergence(x, &q, where, &found[i]))
			return false;
	}
	return true;
}
