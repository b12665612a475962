/* SPDX-License-Identifier: MIT */
/* Where the model applies each rule, as its runs show it: every vector on
 * every target it applies to, run on the model, and each place in model/
 * that applied a rule on the way (NP_APPLY, NP_DECIDE: the machine's record,
 * ntprof/rule.h). Nothing here reads a comment: a rule is implemented when a
 * run applied it. */
#include <stdlib.h>
#include <string.h>

#include "ntprof/backend.h"
#include "ntprof/runner.h"
#include "run/impl_model.h"
#include "run/interpreter.h"
#include "trace/rules_scan.h"

/* Adds each place of a record not yet in ix->model. */
static void note(np_index *ix, const np_applied *a, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const char *id = np_rule_id(a[i].rule);
		bool known = false;
		for (unsigned k = ix->nmodel; k-- > 0 && !known;)
			known = ix->model[k].line == a[i].line && strcmp(ix->model[k].id, id) == 0 &&
				strcmp(ix->model[k].file, a[i].file) == 0;
		if (!known)
			np_index_cite(&ix->model, &ix->nmodel, id, a[i].file, a[i].line);
	}
}

static void run_on_model(np_index *ix, np_backend *b, const np_vector *v, np_target t)
{
	if (b->begin(b, t, v)) {
		b->end(b);
		return;
	}
	const np_native_state *s = b->state;   /* what making the machine applied */
	const np_trail *made = &np_impl_model_machine(s->sys)->trail;
	note(ix, made->applied, made->count);
	for (unsigned k = 0; k < v->nstep; k++) {
		np_record rec;
		b->step(b, &v->step[k], &rec);
		note(ix, rec.applied, rec.napplied);
	}
	b->end(b);
}

static int by_place(const void *a, const void *b)
{
	const np_cite *x = a, *y = b;
	int d = strcmp(x->file, y->file);
	return d ? d : x->line - y->line;
}

bool np_index_applied(np_index *ix)
{
	np_backend *b = np_backend_model_new();
	if (!b)
		return false;
	np_target_list all;
	np_targets_all(&all);
	for (unsigned i = 0; i < ix->vectors.count; i++)
		for (unsigned t = 0; t < all.count; t++)
			if (np_applies(&ix->vectors.v[i].applies, all.t[t].version, all.t[t].arch))
				run_on_model(ix, b, &ix->vectors.v[i], all.t[t]);
	b->destroy(b);
	if (ix->nmodel)
		qsort(ix->model, ix->nmodel, sizeof *ix->model, by_place);
	return true;
}
