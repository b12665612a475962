/* SPDX-License-Identifier: MIT */
/* ntprof explore: the driver. Each explorable function of the catalog spans
 * a space whose axes are its arguments, its Nt/Zw spelling and the machine
 * states, each with the boundary values of harness/explore/explore_table.c
 * (explore_space.c). The sweep (explore_sweep.c) runs the plain call, every
 * boundary alone, every pair of boundaries on two axes and every triple of
 * numeric arguments, each tier in an order shuffled by the seed; a larger
 * --budget goes on with random combinations of three to six axes. Each
 * combination is a vector in memory, run through the backends' sessions on
 * every target.
 *
 * Without --against, combinations are grouped into classes of version
 * difference; with --against, each divergence from the model is minimised
 * and grouped by kind (explore_classes.c). The report (explore_report.c)
 * writes a representative of each class as a vector. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>   /* the exe links no winpthread: no clock_gettime */
#endif

#include "explore/explore_classes.h"
#include "explore/explore_report.h"
#include "explore/explore_sweep.h"

/* A monotonic clock, in seconds. */
static double now_seconds(void)
{
#ifdef _WIN32
	LARGE_INTEGER frequency, count;
	QueryPerformanceFrequency(&frequency);
	QueryPerformanceCounter(&count);
	return (double)count.QuadPart / (double)frequency.QuadPart;
#else
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
#endif
}

static double elapsed(const explorer *x)
{
	return now_seconds() - x->start;
}

/* ---- one function ---- */

/* sp outlives the sweep: the classes' representatives point into it. */
static bool explore_space(explorer *x, np_xspace *sp)
{
	np_xsweep w;
	np_xseen s = { 0 };
	if (!np_xsweep_init(&w, sp, x->o->seed))
		return false;
	unsigned long done = 0, skipped = 0;
	bool ok = true, beyond = x->o->budget > w.nfixed;
	np_xcombo c;
	while (ok && np_xsweep_next(&w, sp, beyond, &c)) {
		if (x->o->budget && done >= x->o->budget)
			break;
		if (x->o->seconds > 0 && elapsed(x) >= x->o->seconds) {
			x->st->stopped_by_time = true;
			break;
		}
		np_xpoint p;
		if (!np_xpoint_resolve(sp, &c, &p) || !np_xseen_add(&s, np_xpoint_hash(&p))) {
			if (++skipped > 100000)   /* the random tier has run out of new combinations */
				break;
			continue;
		}
		skipped = 0;
		np_xpoint_vector(&p, &x->v, x->steps);
		if (x->against && !np_vector_asked(x->against, &x->v)) {
			x->st->not_asked++;   /* what `run` would not ask of it either */
			continue;
		}
		x->st->evaluations += np_xevaluate(x->model, &x->v, &x->run, x->mres);
		if (x->against) {
			x->st->evaluations += np_xevaluate(x->against, &x->v, &x->run, x->bres);
			ok = np_xclassify_divergences(x, &p);
		} else {
			ok = np_xclassify_versions(x, x->st->combinations, &p);
		}
		done++;
		x->st->combinations++;
	}
	free(w.fixed);
	free(s.slot);
	return ok;
}

static bool explore_function(explorer *x, np_xspace *sp, const np_function *f)
{
	if (!np_xspace_init(sp, f))
		abort(); /* LCOV_EXCL_LINE: a defect of the table (test_explore checks every function) */
	return explore_space(x, sp);
}

/* A sequence runs unless --function names functions and not every one it calls. */
static bool sequence_wanted(const np_explore_options *o, const np_xsequence *q)
{
	if (o->no_sequences)
		return false;
	for (unsigned s = 0; o->nfunction && s <= NP_X_MAX_AFTER; s++) {
		const char *name = s == 0 ? q->function : q->after[s - 1];
		if (!name)
			break;
		char fn[NP_NAME_MAX];
		snprintf(fn, sizeof fn, "%.*s", (int)strcspn(name, " "), name);
		bool listed = false;
		for (unsigned i = 0; i < o->nfunction && !listed; i++)
			listed = np_function_find(o->function[i]) == np_function_find(fn);
		if (!listed)
			return false;
	}
	return true;
}

/* What was explored, where, how far. */
static void write_header(FILE *out, const explorer *x, const np_function *const *fs, unsigned nf,
			 const np_xsequence *const *qs, unsigned nq)
{
	const np_explore_options *o = x->o;
	fprintf(out, "# ntprof explore, seed %llu: ", (unsigned long long)o->seed);
	if (x->against)
		fprintf(out, "%s (%s) against the model\n", o->against_name ? o->against_name : "?",
			x->against->name);
	else
		fprintf(out, "where the model's versions disagree\n");
	fprintf(out, "# functions:");
	for (unsigned i = 0; i < nf; i++)
		fprintf(out, " %s", fs[i]->name);
	if (nq)
		fprintf(out, "\n# sequences:");
	for (unsigned i = 0; i < nq; i++)
		fprintf(out, " %s", qs[i]->name);
	if (o->budget)
		fprintf(out, "\n# targets: %u; combinations per function: %lu\n\n", x->run.count, o->budget);
	else
		fprintf(out, "\n# targets: %u; combinations per function: each boundary alone, every pair, "
			"numeric triples\n\n", x->run.count);
}

static int target_order(const np_target_list *l, unsigned a, unsigned b)
{
	if (l->t[a].arch != l->t[b].arch)
		return (int)l->t[a].arch - (int)l->t[b].arch;
	return (int)l->t[a].version - (int)l->t[b].version;
}

bool np_explore(FILE *out, np_backend *model, const np_explore_options *o, np_explore_stats *st)
{
	explorer x = { .o = o, .st = st, .model = model, .against = o->against };
	memset(st, 0, sizeof *st);
	x.start = now_seconds();
	x.run = o->targets;
	if (x.run.count == 0)
		np_targets_all(&x.run);
	for (unsigned i = 0; i < x.run.count; i++) {   /* insertion sort: a few hundred at most */
		unsigned j = i;
		for (; j > 0 && target_order(&x.run, x.order[j - 1], i) > 0; j--)
			x.order[j] = x.order[j - 1];
		x.order[j] = i;
	}
	x.mres = malloc(sizeof *x.mres);
	x.bres = malloc(sizeof *x.bres);
	x.work = malloc(sizeof *x.work);
	bool ok = x.mres && x.bres && x.work;

	const np_function *fs[NP_EXPLORE_MAX_FUNCTIONS + 32];
	unsigned nf = 0;
	if (o->nfunction) {
		for (unsigned i = 0; i < o->nfunction; i++)
			fs[nf++] = np_function_find(o->function[i]);
	} else {
		for (unsigned i = 0; np_function_at(i) && nf < sizeof fs / sizeof *fs; i++)
			if (np_xexplorable(np_function_at(i)))
				fs[nf++] = np_function_at(i);
	}
	unsigned nq = 0, nall;
	const np_xsequence *all = np_xsequences(&nall), *qs[8];
	for (unsigned i = 0; i < nall && nq < sizeof qs / sizeof *qs; i++)
		if (sequence_wanted(o, &all[i]))
			qs[nq++] = &all[i];
	write_header(out, &x, fs, nf, qs, nq);
	np_xspace *spaces = calloc(nf + nq ? nf + nq : 1, sizeof *spaces);
	ok = ok && spaces;
	for (unsigned i = 0; ok && i < nf && !st->stopped_by_time; i++)
		ok = explore_function(&x, &spaces[i], fs[i]);
	for (unsigned i = 0; ok && i < nq && !st->stopped_by_time; i++) {
		if (!np_xspace_init_sequence(&spaces[nf + i], qs[i]))
			abort(); /* LCOV_EXCL_LINE: a defect of the table (test_explore checks every sequence) */
		ok = explore_space(&x, &spaces[nf + i]);
		st->sequences++;
	}
	if (ok)
		ok = x.against ? np_xreport_divergences(&x, out) : np_xreport_versions(&x, out);
	st->classes = x.nc;
	if (x.against && o->known)
		fprintf(out, "# %lu divergent (combination, target) pair%s listed in %s, not reported\n", st->known,
			st->known == 1 ? "" : "s", o->known_name ? o->known_name : "the known list");
	if (st->accepted)
		fprintf(out, "# %lu divergent (combination, target) pair%s accepted by an `accept` line of the "
			"vectors, not reported\n", st->accepted, st->accepted == 1 ? "" : "s");
	if (st->not_asked)
		fprintf(out, "# %lu combination%s not asked of it (a function it does not implement, a "
			"capability it does not declare)\n", st->not_asked, st->not_asked == 1 ? "" : "s");
	fprintf(out, "# %zu %s from %lu combinations\n", x.nc,
		x.against ? (x.nc == 1 ? "kind of divergence" : "kinds of divergence")
			  : (x.nc == 1 ? "class of version difference" : "classes of version difference"),
		st->combinations);
	st->seconds = elapsed(&x);
	free(x.mres);
	free(x.bres);
	free(x.work);
	free(x.vc);
	free(x.dc);
	free(spaces);
	return ok;
}
