/* SPDX-License-Identifier: MIT */
/* Known-divergence files against vectors and runs: which vectors an entry
 * names (an ID, or a pattern of IDs with the step that decides), which
 * rows it covers, and the judging of a run's rows (fixtures/known/README.md).
 * Standard C only: the Windows exe links this file too. */
#include <string.h>

#include "run/known_got.h"
#include "vectors/catalog.h"

/* `*` matches any run of characters, `/` included; everything else itself. */
static bool glob_match(const char *pat, const char *s)
{
	const char *star = NULL, *resume = NULL;
	while (*s) {
		if (*pat == '*') {
			star = pat++;
			resume = s;
		} else if (*pat == *s) {
			pat++;
			s++;
		} else if (star) {
			pat = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

static bool calls(const np_vector *v, unsigned s, const struct np_function *f)
{
	return s < v->nstep && np_function_find(v->step[s].function) == f;
}

/* A pattern names the vectors whose ID it matches and that have the step
 * it speaks of: step N, or a call of the function; an ID names its vector. */
bool np_known_names(const np_known_entry *e, const np_vector *v)
{
	if (!e->pattern)
		return strcmp(e->vector, v->id) == 0;
	if (!glob_match(e->vector, v->id))
		return false;
	if (e->step)
		return (unsigned)e->step <= v->nstep;
	for (unsigned s = 0; e->step_function && s < v->nstep; s++)
		if (calls(v, s, e->step_function))
			return true;
	return !e->step_function;
}

void np_known_step_text(const np_known_entry *e, char *buf, size_t cap)
{
	if (e->step)
		snprintf(buf, cap, "%d", e->step);
	else if (e->step_function)
		snprintf(buf, cap, "%s", e->step_function->name);
	else
		snprintf(buf, cap, "*");
}

/* A vector of the sets the entry names (by_id: whose ID it matches, whatever its steps). */
static bool has_vector(const np_vector_set *const *sets, unsigned nsets, const np_known_entry *e, bool by_id)
{
	for (unsigned s = 0; s < nsets; s++)
		for (unsigned i = 0; i < sets[s]->count; i++)
			if (by_id ? glob_match(e->vector, sets[s]->v[i].id) : np_known_names(e, &sets[s]->v[i]))
				return true;
	return false;
}

bool np_known_check(const np_known *k, const np_vector_set *const *sets, unsigned nsets,
		    const char *where, np_error *err)
{
	for (unsigned i = 0; i < k->count; i++) {
		const np_known_entry *e = &k->e[i];
		if (has_vector(sets, nsets, e, false))
			continue;
		if (e->pattern) {
			bool by_id = has_vector(sets, nsets, e, true);
			return np_error_at(err, k->path, e->line,
					   "%s: the pattern matches no vector in %s%s (an entry for no vector never runs, "
					   "so it could never fail)", e->vector, where,
					   !by_id ? "" : e->step_function ? " that calls the step's function" : " with that step");
		}
		return np_error_at(err, k->path, e->line,
				   "%s: no such vector in %s (an entry for no vector never runs, so it could never fail)",
				   e->vector, where);
	}
	return true;
}

static bool covers(const np_known_entry *e, const np_row *r)
{
	return np_known_names(e, r->vector) && np_applies(&e->scope, r->target.version, r->target.arch);
}

/* The row's failure as the entry lists it: class, deciding step, GOT
 * (got: the row's, read as a value; NULL when it does not read). */
static bool lists(const np_known_entry *e, const np_row *r, np_class observed, const np_known_value *got)
{
	if (e->cls != observed || r->step < 0)
		return false;
	if (e->step ? e->step != r->step + 1 : e->step_function && !calls(r->vector, (unsigned)r->step, e->step_function))
		return false;
	if (e->any_got)
		return true;
	if (got)
		return np_known_value_equal(&e->value, got);
	char text[NP_TEXT_MAX * 3];
	np_row_got_text(r, text, sizeof text);
	return strcmp(e->got, text) == 0;
}

/* The entry covering r that lists its failure (IDs before patterns, then
 * in the file's order), else NULL; *cover gets the entry to name for it:
 * that one, else the first covering (IDs first). */
static const np_known_entry *listing(const np_known *k, const np_row *r, np_class observed,
				     const np_known_entry **cover)
{
	np_known_value value;
	const np_known_value *got = NULL;
	if (np_class_is_failure(observed) && np_known_value_of(np_row_got(r), &value))
		got = &value;
	const np_known_entry *found = NULL;
	*cover = NULL;
	for (unsigned pass = 0; pass < 2 && !found; pass++)
		for (unsigned i = 0; i < k->count && !found; i++) {
			const np_known_entry *e = &k->e[i];
			if (e->pattern != (pass == 1) || !covers(e, r))
				continue;
			if (!*cover)
				*cover = e;
			if (np_class_is_failure(observed) && lists(e, r, observed, got))
				found = e;
		}
	if (found)
		*cover = found;
	return found;
}

const np_known_entry *np_known_listing(const np_known *k, const np_row *r)
{
	const np_known_entry *cover;
	return listing(k, r, np_row_observed(r), &cover);
}

/* Every entry covering a row that ran notes it: it ran, and how. */
static void note_ran(np_known *k, const np_row *r)
{
	if (!np_row_ran(r))
		return;
	for (unsigned i = 0; i < k->count; i++) {
		np_known_entry *e = &k->e[i];
		if (!e->ran && covers(e, r)) {
			e->ran = true;
			e->now = r->cls;
			e->now_target = r->target;
		}
	}
}

void np_known_apply(np_known *k, np_run *run)
{
	k->known = k->unlisted = k->stale = k->not_run = 0;
	for (unsigned i = 0; i < k->count; i++) {
		k->e[i].matched = 0;
		k->e[i].ran = false;
	}
	for (unsigned i = 0; i < run->count; i++) {
		np_row *r = &run->row[i];
		if (r->cls == NP_CLASS_KNOWN)   /* applied before: judge what was observed */
			run->tally[r->cls]--, r->cls = r->observed, run->tally[r->cls]++;
		r->observed = r->cls;
		note_ran(k, r);
		const np_known_entry *cover;
		const np_known_entry *e = listing(k, r, r->cls, &cover);
		r->listed = cover;
		if (!np_class_is_failure(r->cls))
			continue;
		if (e) {
			run->tally[r->cls]--;
			r->cls = NP_CLASS_KNOWN;
			run->tally[r->cls]++;
			k->e[e - k->e].matched++;
			k->known++;
		} else {
			k->unlisted++;
		}
	}
	for (unsigned i = 0; i < k->count; i++) {
		/* An entry whose vector did not run on a target it covers says
		 * nothing about this run (a subset of the files or targets). */
		if (!k->e[i].ran)
			k->not_run++;
		else if (!k->e[i].matched)
			k->stale++;
	}
	run->known = k;
}

bool np_known_failed(const np_known *k)
{
	return k->unlisted || k->stale;
}
