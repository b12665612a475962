/* SPDX-License-Identifier: MIT */
/* Where the model applies each rule, as its runs show it: every vector on
 * every target it applies to, run on the model, and each place in model/
 * that applied a rule on the way (NP_APPLY, NP_DECIDE: the machine's record,
 * ntprof/rule.h). Nothing here reads a comment: a rule is implemented when a
 * run applied it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/backend.h"
#include "ntprof/runner.h"
#include "run/impl_model.h"
#include "run/interpreter.h"
#include "trace/rules_scan.h"

/* The places already noted, by the record's own pointers: a run applies the
 * same few hundred places millions of times, so each is looked up here
 * first and compared by text (a header's __FILE__ may differ by unit) only
 * the first time its pointer is seen. */
#define SEEN_SLOTS 4096u   /* a power of two, well above the model's places */
typedef struct seen {
	const char *file[SEEN_SLOTS];
	int line[SEEN_SLOTS];
	np_rule rule[SEEN_SLOTS];
	unsigned used;
} seen;

/* The slot of (rule, file, line): where it is, or the free one it would take. */
static unsigned seen_slot(const seen *s, const np_applied *a)
{
	uintptr_t h = (uintptr_t)a->file * 31u + (uintptr_t)a->line * 131u + (uintptr_t)a->rule;
	unsigned i = (unsigned)(h ^ (h >> 12)) & (SEEN_SLOTS - 1);
	while (s->file[i] && !(s->file[i] == a->file && s->line[i] == a->line && s->rule[i] == a->rule))
		i = (i + 1) & (SEEN_SLOTS - 1);
	return i;
}

/* Adds each place of a record not yet in ix->model. */
static void note(np_index *ix, seen *s, const np_applied *a, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned slot = seen_slot(s, &a[i]);
		if (s->file[slot])
			continue;
		const char *id = np_rule_id(a[i].rule);
		bool known = false;
		for (unsigned k = ix->nmodel; k-- > 0 && !known;)
			known = ix->model[k].line == a[i].line && strcmp(ix->model[k].id, id) == 0 &&
				strcmp(ix->model[k].file, a[i].file) == 0;
		if (!known)
			np_index_cite(&ix->model, &ix->nmodel, id, a[i].file, a[i].line);
		if (s->used < SEEN_SLOTS / 2) {   /* past that, every place is compared by text */
			s->used++;
			s->file[slot] = a[i].file;
			s->line[slot] = a[i].line;
			s->rule[slot] = a[i].rule;
		}
	}
}

static void run_on_model(np_index *ix, seen *s, np_backend *b, const np_vector *v, np_target t)
{
	if (b->begin(b, t, v)) {
		b->end(b);
		return;
	}
	const np_native_state *st = b->state;   /* what making the machine applied */
	const np_trail *made = &np_impl_model_machine(st->sys)->trail;
	note(ix, s, made->applied, made->count);
	for (unsigned k = 0; k < v->nstep; k++) {
		np_record rec;
		b->step(b, &v->step[k], &rec);
		note(ix, s, rec.applied, rec.napplied);
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
	seen *s = calloc(1, sizeof *s);
	if (!b || !s) {
		if (b)
			b->destroy(b);
		free(s);
		return false;
	}
	np_target_list all;
	np_targets_all(&all);
	for (unsigned i = 0; i < ix->vectors.count; i++)
		for (unsigned t = 0; t < all.count; t++)
			if (np_applies(&ix->vectors.v[i].applies, all.t[t].version, all.t[t].arch))
				run_on_model(ix, s, b, &ix->vectors.v[i], all.t[t]);
	b->destroy(b);
	free(s);
	if (ix->nmodel)
		qsort(ix->model, ix->nmodel, sizeof *ix->model, by_place);
	return true;
}
