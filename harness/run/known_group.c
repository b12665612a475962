/* SPDX-License-Identifier: MIT */
/* `--known-write` in few entries: a partial implementation diverges the
 * same way in many vectors (a function missing, a stub's one status), and
 * one pattern entry with one reason says so better than a line per vector.
 * A pattern is written only where it is exact: every vector of the run it
 * names diverged that way, so it never lists a vector that did not. */
#include <stdlib.h>
#include <string.h>

#include "run/known_write.h"
#include "vectors/catalog.h"

bool np_kw_add(np_kw_lines *ls, const np_kw_line *line)
{
	if (ls->count == ls->cap) {
		unsigned cap = ls->cap ? ls->cap * 2 : 64;
		np_kw_line *grown = realloc(ls->l, cap * sizeof *grown);
		if (!grown)
			return !(ls->oom = true);
		ls->l = grown;
		ls->cap = cap;
	}
	ls->l[ls->count++] = *line;
	return true;
}

static bool is_todo(const np_kw_line *l)
{
	return strncmp(l->reason, "TODO", 4) == 0;
}

static const np_function *deciding(const np_kw_line *l)
{
	return np_function_find(l->v->step[l->step_index].function);
}

/* Lines that may share a pattern: one vector each, TODO reasons alike. */
static bool same_key(const np_kw_line *a, const np_kw_line *b)
{
	return a->v && b->v && !a->kept && !b->kept && is_todo(a) && strcmp(a->reason, b->reason) == 0 &&
	       strcmp(a->scope, b->scope) == 0 && a->cls == b->cls && strcmp(a->got, b->got) == 0 &&
	       deciding(a) == deciding(b);
}

/* The line of group (lines like ls->l[first]) for vector v, or -1. */
static int line_of(const np_kw_lines *ls, unsigned first, const np_vector *v)
{
	for (unsigned i = first; i < ls->count; i++)
		if (ls->l[i].v == v && !ls->l[i].merged && same_key(&ls->l[i], &ls->l[first]))
			return (int)i;
	return -1;
}

/* Vectors of the run the candidate names; -1 when one has no line in the
 * group (the pattern would list a vector that did not diverge so). */
static int members(const np_kw_lines *ls, unsigned first, const np_known_entry *cand, const np_run *run)
{
	int n = 0;
	for (unsigned i = 0; i < run->count; i++) {
		const np_vector *v = run->row[i].vector;
		if ((i > 0 && run->row[i - 1].vector == v) || !np_known_names(cand, v))
			continue;
		if (line_of(ls, first, v) < 0)
			return -1;
		n++;
	}
	return n;
}

/* The shortest ID prefix of line `first` (cut after a `/` or `-`, or none)
 * whose pattern is exact and names two vectors or more; false for none. */
static bool best_pattern(const np_kw_lines *ls, unsigned first, const np_run *run, np_known_entry *cand)
{
	const char *id = ls->l[first].v->id;
	size_t len = strlen(id);
	memset(cand, 0, sizeof *cand);
	cand->pattern = true;
	cand->step_function = deciding(&ls->l[first]);
	for (size_t cut = 0; cut < len; cut++) {
		if (cut > 0 && id[cut - 1] != '/' && id[cut - 1] != '-')
			continue;
		snprintf(cand->vector, sizeof cand->vector, "%.*s*", (int)cut, id);
		if (members(ls, first, cand, run) >= 2)
			return true;
	}
	return false;
}

static void merge(np_kw_lines *ls, unsigned first, const np_known_entry *cand, const np_run *run)
{
	np_kw_line *l = &ls->l[first];
	for (unsigned i = 0; i < run->count; i++) {
		const np_vector *v = run->row[i].vector;
		int k;
		if ((i == 0 || run->row[i - 1].vector != v) && np_known_names(cand, v) &&
		    (k = line_of(ls, first, v)) > (int)first)
			ls->l[k].merged = true;
	}
	snprintf(l->head, sizeof l->head, "%s%s%s", cand->vector, l->scope[0] ? " " : "", l->scope);
	snprintf(l->step, sizeof l->step, "%s", cand->step_function->name);
	l->v = NULL;
}

bool np_kw_group(np_kw_lines *ls, const np_run *run)
{
	np_known_entry *cand = malloc(sizeof *cand);
	if (!cand)
		return !(ls->oom = true);
	for (unsigned i = 0; i < ls->count; i++) {
		np_kw_line *l = &ls->l[i];
		if (l->merged || !l->v || l->kept || !is_todo(l) || !deciding(l))
			continue;
		if (best_pattern(ls, i, run, cand))
			merge(ls, i, cand, run);
	}
	free(cand);
	return true;
}
