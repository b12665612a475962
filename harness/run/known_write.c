/* SPDX-License-Identifier: MIT */
/* `--known-write`: a known-divergence file listing every failing row of a
 * run. Each vector's failures become the fewest lines that cover no target
 * where it ran otherwise; harness/run/known_group.c then merges lines that
 * share an outcome into pattern entries. Standard C only: the Windows exe
 * links this file too. */
#include <stdlib.h>
#include <string.h>

#include "run/known_write.h"

/* Adds the line for one vector (v) or a kept pattern entry (kept). */
static void emit(np_kw_lines *ls, const np_row *like, const char *scope, const char *reason,
		 const np_known_entry *kept)
{
	np_kw_line l;
	memset(&l, 0, sizeof l);
	for (unsigned i = 0; kept && i < ls->count; i++)
		if (ls->l[i].kept == kept)
			return;   /* written back once */
	snprintf(l.scope, sizeof l.scope, "%s", kept ? kept->scope_text : scope);
	snprintf(l.head, sizeof l.head, "%s%s%s", kept ? kept->vector : like->vector->id, l.scope[0] ? " " : "",
		 l.scope);
	l.cls = np_row_observed(like);
	if (kept)
		np_known_step_text(kept, l.step, sizeof l.step);
	else
		snprintf(l.step, sizeof l.step, "%d", like->step + 1);
	if (kept)
		snprintf(l.got, sizeof l.got, "%s", kept->got);
	else
		np_row_got_text(like, l.got, sizeof l.got);
	snprintf(l.reason, sizeof l.reason, "%s", reason);
	l.v = kept ? NULL : like->vector;
	l.step_index = like->step;
	l.kept = kept;
	np_kw_add(ls, &l);
}

static void reason_for(const np_row *r, char *buf, size_t cap)
{
	if (r->cls == NP_CLASS_KNOWN)
		snprintf(buf, cap, "%s", r->listed->reason);
	else if (r->listed)
		snprintf(buf, cap, "TODO was: %s", r->listed->reason);
	else
		snprintf(buf, cap, "TODO");
}

static bool same_outcome(const np_row *a, const np_row *b)
{
	const np_answer *x = np_row_got(a), *y = np_row_got(b);
	return np_row_observed(a) == np_row_observed(b) && a->step == b->step &&
	       (x && y ? np_answer_equal(x, y) : x == y);
}

/* One vector's rows by target (NULL: no row there). */
typedef struct grid {
	const np_row *at[NP_VERSION_COUNT][NP_ARCH_COUNT];
} grid;

/* 'F' failed as `like` did there, 'O' ran there otherwise, 'N' did not run there. */
static char state_at(const grid *g, unsigned v, unsigned a, const np_row *like)
{
	const np_row *r = g->at[v][a];
	if (!r || !np_row_ran(r))
		return 'N';
	return np_class_is_failure(np_row_observed(r)) && same_outcome(r, like) ? 'F' : 'O';
}

typedef struct span {
	unsigned lo, hi;
	bool arch[NP_ARCH_COUNT];
	const np_row *known, *differs, *first;   /* for the reason */
} span;

static void scope_of(const span *s, char *buf, size_t cap)
{
	const unsigned last = NP_VERSION_COUNT - 1;
	const char *lo = np_version_key((np_ver)s->lo), *hi = np_version_key((np_ver)s->hi);
	size_t used = 0;
	buf[0] = '\0';
	if (s->lo == 0 && s->hi == last)
		;
	else if (s->lo == s->hi)
		used = (size_t)snprintf(buf, cap, "on %s", lo);
	else if (s->lo == 0)
		used = (size_t)snprintf(buf, cap, "on <=%s", hi);
	else if (s->hi == last)
		used = (size_t)snprintf(buf, cap, "on >=%s", lo);
	else
		used = (size_t)snprintf(buf, cap, "on %s..%s", lo, hi);
	unsigned n = 0;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		n += s->arch[a];
	if (n == NP_ARCH_COUNT)
		return;
	for (unsigned a = 0, k = 0; a < NP_ARCH_COUNT && used < cap; a++)
		if (s->arch[a])
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", k++ ? "," : used ? " arch=" : "arch=",
						 np_arch_name((np_arch)a));
}

/* The failures of one outcome (`like`) in few lines that cover no target
 * where the vector ran otherwise: per architecture, runs of versions from
 * one such failure to the last before a target where it ran otherwise,
 * widened to the end of the version table where nothing ran otherwise
 * beyond; architectures with the same run share a line. Runs of two
 * outcomes never meet, so the lines of a vector share no target. */
static void write_spans(np_kw_lines *w, const grid *g, const np_row *like)
{
	span sp[NP_VERSION_COUNT * NP_ARCH_COUNT];
	unsigned nsp = 0;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		bool before = false;   /* ran otherwise at a lower version */
		for (unsigned v = 0; v < NP_VERSION_COUNT;) {
			char st = state_at(g, v, a, like);
			if (st != 'F') {
				before = before || st == 'O';
				v++;
				continue;
			}
			span s = { before ? v : 0, v, { false }, NULL, NULL, NULL };
			unsigned k = v;
			for (; k < NP_VERSION_COUNT && (st = state_at(g, k, a, like)) != 'O'; k++) {
				if (st != 'F')
					continue;
				const np_row *r = g->at[k][a];
				s.hi = k;
				if (!s.first)
					s.first = r;
				if (!s.known && r->cls == NP_CLASS_KNOWN)
					s.known = r;
				if (!s.differs && r->cls != NP_CLASS_KNOWN && r->listed)
					s.differs = r;
			}
			if (k == NP_VERSION_COUNT)
				s.hi = NP_VERSION_COUNT - 1;
			unsigned i = 0;
			while (i < nsp && (sp[i].lo != s.lo || sp[i].hi != s.hi))
				i++;
			if (i == nsp)
				sp[nsp++] = s;
			else if (!sp[i].known)
				sp[i].known = s.known, sp[i].differs = sp[i].differs ? sp[i].differs : s.differs;
			sp[i].arch[a] = true;
			before = true;
			v = k;
		}
	}
	for (unsigned i = 0; i < nsp; i++) {
		char scope[NP_TEXT_MAX], reason[NP_TEXT_MAX * 2 + 16];
		scope_of(&sp[i], scope, sizeof scope);
		reason_for(sp[i].known ? sp[i].known : sp[i].differs ? sp[i].differs : sp[i].first, reason, sizeof reason);
		emit(w, like, scope, reason, NULL);
	}
}

/* One vector's rows (g[0..n)): the entry's own line when one entry matched
 * every failure; one line without a scope when every failure was alike and
 * either the run had one target (a live run: the file is that machine's)
 * or the vector failed wherever it ran; else scoped lines per outcome. */
static void write_group(np_kw_lines *w, const np_run *run, const np_row *g, unsigned n)
{
	const np_row *first = NULL, *known = NULL, *differs = NULL;
	unsigned failing = 0, running = 0;
	bool alike = true, one_entry = true;
	for (unsigned i = 0; i < n; i++) {
		const np_row *r = &g[i];
		running += np_row_ran(r);
		if (!np_class_is_failure(np_row_observed(r)))
			continue;
		failing++;
		if (!first)
			first = r;
		if (r->cls == NP_CLASS_KNOWN && !known)
			known = r;
		if (r->cls != NP_CLASS_KNOWN && r->listed && !differs)
			differs = r;
		alike = alike && same_outcome(r, first);
		one_entry = one_entry && r->cls == NP_CLASS_KNOWN && r->listed == first->listed;
	}
	if (!failing)
		return;
	char reason[NP_TEXT_MAX * 2 + 16];
	if (alike && one_entry) {
		const np_known_entry *e = first->listed;
		emit(w, first, e->scope_text, e->reason, e->pattern ? e : NULL);
		return;
	}
	if (alike && (run->targets == 1 || failing == running)) {
		reason_for(known ? known : differs ? differs : first, reason, sizeof reason);
		emit(w, first, "", reason, NULL);
		return;
	}
	grid gr;
	memset(&gr, 0, sizeof gr);
	for (unsigned i = 0; i < n; i++)
		if (!gr.at[g[i].target.version][g[i].target.arch])   /* the first, should a target repeat */
			gr.at[g[i].target.version][g[i].target.arch] = &g[i];
	for (unsigned i = 0; i < n; i++) {
		bool seen = false;
		if (!np_class_is_failure(np_row_observed(&g[i])))
			continue;
		for (unsigned j = 0; j < i && !seen; j++)
			seen = np_class_is_failure(np_row_observed(&g[j])) && same_outcome(&g[j], &g[i]);
		if (!seen)
			write_spans(w, &gr, &g[i]);
	}
}

static void collect(np_kw_lines *w, const np_run *run)
{
	for (unsigned i = 0, n; i < run->count; i += n) {
		for (n = 1; i + n < run->count && run->row[i + n].vector == run->row[i].vector; n++)
			;
		write_group(w, run, &run->row[i], n);
	}
}

np_known_written np_known_write(FILE *out, const np_run *run)
{
	np_known_written done = { 0, 0, true };
	np_kw_lines ls = { NULL, 0, 0, false };
	collect(&ls, run);
	if (ls.oom || !np_kw_group(&ls, run)) {
		free(ls.l);
		done.ok = false;
		return done;
	}
	int width = 0;
	for (unsigned i = 0; i < ls.count; i++)
		if (!ls.l[i].merged && (int)strlen(ls.l[i].head) > width)
			width = (int)strlen(ls.l[i].head);
	fprintf(out, "# Known divergences of backend %s, written by `ntprof run --known-write`.\n", run->backend);
	for (unsigned i = 0; i < run->nenv; i++)
		fprintf(out, "# env %s: %s\n", run->env[i].name, run->env[i].value);
	fprintf(out, "# VECTOR-ID [on RANGE] [arch=LIST] CLASS step N: GOT # REASON (fixtures/known/README.md).\n"
		     "# Replace every TODO with why the divergence is expected: ntprof refuses TODO reasons.\n");
	for (unsigned i = 0; i < ls.count; i++) {
		const np_kw_line *l = &ls.l[i];
		if (l->merged)
			continue;
		fprintf(out, "%-*s  %-15s  step %s: %s  # %s\n", width, l->head, np_class_name(l->cls), l->step,
			l->got, l->reason);
		done.entries++;
	}
	for (unsigned i = 0; i < run->count; i++)
		done.divergences += np_class_is_failure(np_row_observed(&run->row[i]));
	free(ls.l);
	return done;
}
