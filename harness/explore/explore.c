/* ntprof explore: the sweep. Each explorable function of the catalog spans
 * a space whose axes are its arguments, its Nt/Zw spelling and the machine
 * states, each with the boundary values of harness/explore/explore_table.c. The
 * default sweep runs the plain call, every boundary alone, every pair of
 * boundaries on two axes (two faults at once) and every triple of numeric
 * arguments, each tier in an order shuffled by the seed; a larger --budget
 * goes on with random combinations of three to six axes. Each combination is a vector in memory, run through the backends'
 * sessions on every target.
 *
 * Without --against, combinations are grouped into classes of version
 * difference: (function, outcome before, outcome after, the two versions),
 * one representative each, the first the seeded order met. With --against,
 * each (combination, target) where the backend's record differs from the
 * model's is minimised greedily: every argument off its plain default is
 * reset, one at a time, and the reset kept when the same divergence
 * remains. Divergences are grouped by (function, model outcome, backend
 * outcome); the representative is the one with the fewest arguments left. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>   /* the exe links no winpthread: no clock_gettime */
#endif

#include "explore/explore_space.h"
#include "ntprof/names.h"
#include "ntprof/version_predicates.h"

/* ---- the seeded order: splitmix64, never rand() ---- */

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static unsigned below(uint64_t *rng, unsigned n)
{
	return (unsigned)(splitmix64(rng) % n);
}

/* ---- a function's space ---- */

const char *np_explore_check_function(const char *name)
{
	const np_function *f = np_function_find(name);
	if (!f)
		return "no such function (see fixtures/README.md, Steps)";
	if (!np_xexplorable(f))
		return "a pseudo-step, not a call the explorer generates";
	return NULL;
}

static int find_dim(const np_xspace *sp, const char *name)
{
	for (unsigned i = 0; i < sp->nd; i++)
		if (strcmp(sp->d[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool np_xspace_init(np_xspace *sp, const np_function *f)
{
	memset(sp, 0, sizeof *sp);
	sp->f = f;
	for (const np_param *p = f->param; p->name; p++) {
		const np_xlist *l = np_xbounds_param(f, p);
		if (!l || sp->nd == NP_X_MAX_DIMS)
			return false;
		sp->d[sp->nd++] = (np_xdim){ NP_XDIM_ARG, p->name, p, l->b, l->n };
	}
	if (f->alias && sp->nd < NP_X_MAX_DIMS) {   /* CP-0, ST-0, SP-0, SI-0, QI-0, SY-0 */
		np_outcome none = { NP_OUT_NOT_EXPORTED, 0 };
		const char *rules = np_xoutcome_rules(f, &none);
		sp->spelling[0] = (np_xbound){ f->name, NP_XD_TEXT, 0, rules };
		sp->spelling[1] = (np_xbound){ f->alias, NP_XD_TEXT, 0, rules };
		sp->d[sp->nd++] = (np_xdim){ NP_XDIM_SPELLING, "function", NULL, sp->spelling, 2 };
	}
	unsigned ng;
	const np_xlist *g = np_xbounds_given(&ng);
	for (unsigned i = 0; i < ng && sp->nd < NP_X_MAX_DIMS; i++)
		sp->d[sp->nd++] = (np_xdim){ NP_XDIM_GIVEN, g[i].name, NULL, g[i].b, g[i].n };
	const char *const *pre = np_xprelude(f);
	for (unsigned i = 0; pre && pre[i]; i++) {
		if (i == NP_X_MAX_STEPS - 1 || np_parse_step(pre[i], &sp->prelude[i]) ||
		    np_captures_check(sp->prelude, i, &sp->prelude[i]))
			return false;
		sp->prelude_text[i] = pre[i];
		sp->nprelude = i + 1;
	}
	sp->base = find_dim(sp, "ProfileBase");
	sp->size = find_dim(sp, "ProfileSize");
	sp->bucket = find_dim(sp, "BucketSize");
	sp->cpus = find_dim(sp, "cpus");
	return true;
}

/* A combination: the index of a boundary on each axis (0: the plain default). */
typedef struct combo {
	uint8_t idx[NP_X_MAX_DIMS];
} combo;

static bool number_at(const np_xpoint *p, int dim, uint64_t *v)
{
	return dim >= 0 && np_number_parse(p->val[dim], v);
}

/* The value of a derived boundary on dim, from the values already written. */
static bool derive(np_xpoint *p, unsigned dim, const np_xbound *b)
{
	const np_xspace *sp = p->sp;
	uint64_t base, size, bucket, cpus, v;
	char *out = p->val[dim];
	switch (b->derive) {
	case NP_XD_CP8:
	case NP_XD_CP9:
		if (!number_at(p, sp->size, &size) || !number_at(p, sp->bucket, &bucket) ||
		    bucket < 2 || bucket > 31)
			return false;   /* no capacity test is reached */
		v = b->derive == NP_XD_CP8 ? size >> (bucket - 2)
					   : 4 * ((size >> bucket) + ((size & ((1ull << bucket) - 1)) != 0));
		if ((b->delta < 0 && v == 0) || v + (uint64_t)(int64_t)b->delta > 0xFFFFFFFFu ||
		    v > 0xFFFFFFFFu)
			return false;
		snprintf(out, NP_X_VALUE_MAX, "0x%llX", (unsigned long long)(v + (uint64_t)(int64_t)b->delta));
		return true;
	case NP_XD_WRAP32:
		if (!number_at(p, sp->base, &base) || base > 0x100000000ull ||
		    (b->delta < 0 && base == 0x100000000ull))
			return false;
		snprintf(out, NP_X_VALUE_MAX, "0x%llX",
			 (unsigned long long)(0x100000000ull - base + (uint64_t)(int64_t)b->delta));
		return true;
	case NP_XD_WRAP64:
		if (!number_at(p, sp->base, &base) || (base == 0 && b->delta >= 0))
			return false;   /* 2^64 itself is no SIZE_T */
		snprintf(out, NP_X_VALUE_MAX, "0x%llX", (unsigned long long)(0 - base + (uint64_t)(int64_t)b->delta));
		return true;
	case NP_XD_CPU_TOP:
	case NP_XD_GROUP_TOP:
		if (!number_at(p, sp->cpus, &cpus) || cpus == 0 || cpus - 1 + (uint64_t)b->delta >= 64)
			return false;
		v = 1ull << (cpus - 1 + (uint64_t)b->delta);
		snprintf(out, NP_X_VALUE_MAX, b->derive == NP_XD_CPU_TOP ? "0x%llX" : "0:0x%llX",
			 (unsigned long long)v);
		return true;
	case NP_XD_TEXT:
	default:
		snprintf(out, NP_X_VALUE_MAX, "%s", b->text);
		return true;
	}
}

/* Writes the combination's values; false when a derived one has no meaning
 * (a capacity edge with no valid BucketSize, a bit past 64 processors). */
static bool resolve(const np_xspace *sp, const combo *c, np_xpoint *p)
{
	/* texts first, then what reads them: wraps read ProfileBase, capacity
	 * edges ProfileSize (maybe a wrap), processor bits `cpus` */
	static const int rank[] = {
		[NP_XD_TEXT] = 0, [NP_XD_WRAP32] = 1, [NP_XD_WRAP64] = 1, [NP_XD_CP8] = 2,
		[NP_XD_CP9] = 2, [NP_XD_CPU_TOP] = 3, [NP_XD_GROUP_TOP] = 3,
	};
	p->sp = sp;
	for (int pass = 0; pass < 4; pass++)
		for (unsigned i = 0; i < sp->nd; i++) {
			const np_xbound *b = &sp->d[i].b[c->idx[i]];
			if (rank[b->derive] == pass && !derive(p, i, b))
				return false;
		}
	return true;
}

/* ---- the order of the sweep ---- */

typedef struct sweep {
	combo *fixed;             /* the plain call, each boundary alone, each pair, numeric triples */
	size_t nfixed, at;
	uint64_t rng;
} sweep;

static void shuffle(combo *c, size_t n, uint64_t *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix64(rng) % i);
		combo t = c[i - 1];
		c[i - 1] = c[j];
		c[j] = t;
	}
}

/* Numeric arguments meet in arithmetic (CP-6's bucket count, the capacity
 * of CP-8 and CP-9, CP-10's sum), so their edges are also run three at a
 * time: segment mode needs BucketSize 0, a small ProfileBase and a small
 * BufferSize together (CP-3..CP-5). */
static bool numeric(const np_xdim *d)
{
	return d->kind == NP_XDIM_ARG && (d->param->kind == NP_PARAM_U32 ||
					 d->param->kind == NP_PARAM_U64 || d->param->kind == NP_PARAM_BYTE);
}

static size_t count_triples(const np_xspace *sp, combo *out)
{
	size_t n = 0;
	for (unsigned i = 0; i < sp->nd; i++)
		for (unsigned k = i + 1; numeric(&sp->d[i]) && k < sp->nd; k++)
			for (unsigned l = k + 1; numeric(&sp->d[k]) && l < sp->nd; l++) {
				if (!numeric(&sp->d[l]))
					continue;
				for (unsigned a = 1; a < sp->d[i].n; a++)
					for (unsigned b = 1; b < sp->d[k].n; b++)
						for (unsigned c = 1; c < sp->d[l].n; c++, n++)
							if (out) {
								out[n].idx[i] = (uint8_t)a;
								out[n].idx[k] = (uint8_t)b;
								out[n].idx[l] = (uint8_t)c;
							}
			}
	return n;
}

static bool sweep_init(sweep *w, const np_xspace *sp, uint64_t seed)
{
	size_t singles = 0, pairs = 0, triples = count_triples(sp, NULL);
	for (unsigned i = 0; i < sp->nd; i++) {
		singles += sp->d[i].n - 1;
		for (unsigned k = i + 1; k < sp->nd; k++)
			pairs += (size_t)(sp->d[i].n - 1) * (sp->d[k].n - 1);
	}
	w->nfixed = 1 + singles + pairs + triples;
	w->at = 0;
	w->fixed = calloc(w->nfixed, sizeof *w->fixed);
	if (!w->fixed)
		return false;
	/* each function its own stream: the order of one does not depend on
	 * which others are explored with it */
	w->rng = seed;
	for (const char *c = sp->f->name; *c; c++)
		w->rng = (w->rng ^ (uint8_t)*c) * 0x100000001B3ull;
	size_t n = 1;
	for (unsigned i = 0; i < sp->nd; i++)
		for (unsigned a = 1; a < sp->d[i].n; a++)
			w->fixed[n++].idx[i] = (uint8_t)a;
	for (unsigned i = 0; i < sp->nd; i++)
		for (unsigned k = i + 1; k < sp->nd; k++)
			for (unsigned a = 1; a < sp->d[i].n; a++)
				for (unsigned b = 1; b < sp->d[k].n; b++) {
					w->fixed[n].idx[i] = (uint8_t)a;
					w->fixed[n++].idx[k] = (uint8_t)b;
				}
	count_triples(sp, w->fixed + n);
	shuffle(w->fixed + 1, singles, &w->rng);
	shuffle(w->fixed + 1 + singles, pairs, &w->rng);
	shuffle(w->fixed + 1 + singles + pairs, triples, &w->rng);
	return true;
}

/* The next combination: the fixed tiers in order, then (only when asked
 * for more) three to six axes off their defaults at random. */
static bool sweep_next(sweep *w, const np_xspace *sp, bool beyond, combo *c)
{
	if (w->at < w->nfixed) {
		*c = w->fixed[w->at++];
		return true;
	}
	if (!beyond)
		return false;
	unsigned axes[NP_X_MAX_DIMS], na = 0;
	for (unsigned i = 0; i < sp->nd; i++)
		if (sp->d[i].n > 1)
			axes[na++] = i;
	unsigned most = na < 6 ? na : 6;
	unsigned k = most < 3 ? most : 3 + below(&w->rng, most - 2);
	memset(c, 0, sizeof *c);
	for (unsigned j = 0; j < k; j++) {
		unsigned pick = j + below(&w->rng, na - j);
		unsigned t = axes[j];
		axes[j] = axes[pick];
		axes[pick] = t;
		c->idx[axes[j]] = (uint8_t)(1 + below(&w->rng, sp->d[axes[j]].n - 1));
	}
	return true;
}

/* Hashes of the combinations already run: two boundaries may land on one
 * value (a capacity edge on the default BufferSize). */
typedef struct seen {
	uint64_t *slot;
	size_t cap, count;
} seen;

static bool seen_add(seen *s, uint64_t h)
{
	if (2 * (s->count + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		uint64_t *slot = calloc(cap, sizeof *slot);
		if (!slot)
			return false;
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i])
				for (size_t j = s->slot[i] & (cap - 1);; j = (j + 1) & (cap - 1))
					if (!slot[j]) {
						slot[j] = s->slot[i];
						break;
					}
		free(s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	for (size_t j = h & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
		if (s->slot[j] == h)
			return false;
		if (!s->slot[j]) {
			s->slot[j] = h;
			s->count++;
			return true;
		}
	}
}

/* ---- classes ---- */

typedef struct vclass {         /* a version difference */
	const np_function *f;       /* the function of the step whose outcome changes */
	np_outcome from, to;
	np_ver before, after;
	unsigned archs;             /* where members showed it */
	unsigned long count, last;  /* combinations; the last one counted */
	np_xpoint rep;
} vclass;

typedef struct dclass {         /* a divergence from the model */
	const np_function *f;
	np_outcome model, got;
	bool outputs;               /* same outcome, other out-values */
	unsigned long count;
	np_target where;            /* where rep was minimised */
	np_xpoint rep;
	unsigned changed;           /* rep's axes off their defaults */
} dclass;

typedef struct explorer {
	const np_explore_options *o;
	np_explore_stats *st;
	np_backend *model, *against;
	np_target_list run;
	unsigned order[NP_X_MAX_TARGETS];   /* run targets by architecture, then version */
	np_vector v;
	np_step steps[NP_X_MAX_STEPS];
	np_xresults *mres, *bres, *work;
	vclass *vc;
	dclass *dc;
	size_t nc, cap;
	double start;                   /* now_seconds() at the start */
} explorer;

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
	x->vc[x->nc++] = (vclass){ f, *from, *to, before, after, arch, 1, n, *p };
	return true;
}

/* Without --against: where consecutive versions of one architecture disagree. */
static bool classify_versions(explorer *x, unsigned long n, const np_xpoint *p)
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

/* How a backend's run of a combination differs from the model's. */
typedef struct divergence {
	int step;                   /* -1: none */
	np_outcome model, got;
	bool outputs;
} divergence;

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
static divergence diverges(const np_xresults *m, const np_xresults *b, unsigned t)
{
	divergence d = { -1, { 0, 0 }, { 0, 0 }, false };
	if (m->refused[t] || b->refused[t])
		return d;
	for (unsigned s = 0; s < m->nstep; s++) {
		const np_record *mr = &m->rec[t][s], *br = &b->rec[t][s];
		if (br->outcome.kind == NP_OUT_NOT_APPLICABLE || mr->outcome.kind == NP_OUT_NOT_APPLICABLE)
			return d;
		bool other = !same_outcome(&mr->outcome, &br->outcome);
		if (other || !outputs_equal(mr, br)) {
			d = (divergence){ (int)s, mr->outcome, br->outcome, !other };
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
	return diverges(m, b, 0);
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
	x->dc[x->nc++] = (dclass){ f, d->model, d->got, d->outputs, 1, t, *p, changed };
	return true;
}

/* With --against: each kind of divergence of this combination, minimised
 * once on the first target that shows it. */
static bool classify_divergences(explorer *x, const np_xpoint *p)
{
	divergence found[8];
	unsigned nfound = 0;
	bool any = false;
	for (unsigned t = 0; t < x->run.count; t++) {
		divergence d = diverges(x->mres, x->bres, t);
		if (d.step < 0)
			continue;
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
			divergence d = diverges(x->mres, x->bres, t);
			if (d.step >= 0 && same_divergence(&d, &found[i]))
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

/* ---- one function ---- */

/* sp outlives the sweep: the classes' representatives point into it. */
static bool explore_function(explorer *x, np_xspace *sp, const np_function *f)
{
	if (!np_xspace_init(sp, f))
		abort(); /* LCOV_EXCL_LINE: a defect of the table (test_explore checks every function) */
	sweep w;
	seen s = { 0 };
	if (!sweep_init(&w, sp, x->o->seed))
		return false;
	unsigned long done = 0, skipped = 0;
	bool ok = true, beyond = x->o->budget > w.nfixed;
	combo c;
	while (ok && sweep_next(&w, sp, beyond, &c)) {
		if (x->o->budget && done >= x->o->budget)
			break;
		if (x->o->seconds > 0 && elapsed(x) >= x->o->seconds) {
			x->st->stopped_by_time = true;
			break;
		}
		np_xpoint p;
		if (!resolve(sp, &c, &p) || !seen_add(&s, np_xpoint_hash(&p))) {
			if (++skipped > 100000)   /* the random tier has run out of new combinations */
				break;
			continue;
		}
		skipped = 0;
		np_xpoint_vector(&p, &x->v, x->steps);
		x->st->evaluations += np_xevaluate(x->model, &x->v, &x->run, x->mres);
		if (x->against) {
			x->st->evaluations += np_xevaluate(x->against, &x->v, &x->run, x->bres);
			ok = classify_divergences(x, &p);
		} else {
			ok = classify_versions(x, x->st->combinations, &p);
		}
		done++;
		x->st->combinations++;
	}
	free(w.fixed);
	free(s.slot);
	return ok;
}

/* ---- the report ---- */

/* The rules a version difference rests on: the predicates of rules.h that
 * turn between the two versions (for this function), and the rules of the
 * order of checks behind the two outcomes. */
static void version_rules(const vclass *vc, np_machine *pm, char *rules, size_t cap, char *why,
			  size_t wcap)
{
	unsigned np;
	const np_xpredicate *pr = np_xpredicates(&np);
	char turned[NP_TEXT_MAX] = "", outcome_rules[NP_TEXT_MAX] = "";
	const char *r1 = np_xoutcome_rules(vc->f, &vc->from), *r2 = np_xoutcome_rules(vc->f, &vc->to);
	size_t used = 0;
	why[0] = '\0';
	for (unsigned i = 0; i < np; i++) {
		if (!(pr[i].functions & (1u << vc->f->id)))
			continue;
		pm->version = vc->before;
		bool a = pr[i].holds(pm);
		pm->version = vc->after;
		if (a == pr[i].holds(pm))
			continue;
		used += (size_t)snprintf(why + used, wcap - used, "%s%s (%s) turns %s", used ? "; " : "",
					 pr[i].name, pr[i].rules, a ? "false" : "true");
		snprintf(turned + strlen(turned), sizeof turned - strlen(turned), " %s", pr[i].rules);
	}
	if (used == 0)
		used += (size_t)snprintf(why, wcap, "no version predicate of ntprof/version_predicates.h turns here");
	char o1[64], o2[64];
	np_xoutcome_text(&vc->from, o1, sizeof o1);
	np_xoutcome_text(&vc->to, o2, sizeof o2);
	snprintf(why + used, wcap - used, "; %s: %s; %s: %s", o1, r1, o2, r2);
	snprintf(outcome_rules, sizeof outcome_rules, "%s %s", r1, r2);
	/* the turned rules that name one of the outcomes explain it best */
	rules[0] = '\0';
	for (const char *c = turned; *c;) {
		while (*c == ' ')
			c++;
		size_t n = strcspn(c, " ");
		char word[NP_NAME_MAX];
		if (n == 0 || n >= sizeof word)
			break;
		memcpy(word, c, n);
		word[n] = '\0';
		c += n;
		bool named = false;
		for (const char *h = outcome_rules; *h && !named;) {
			size_t m = strcspn(h, " ");
			named = m == n && strncmp(h, word, n) == 0;
			h += m;
			while (*h == ' ')
				h++;
		}
		if (named && !strstr(rules, word) && strlen(rules) + n + 2 < cap)
			snprintf(rules + strlen(rules), cap - strlen(rules), "%s%s", rules[0] ? " " : "", word);
	}
	if (!rules[0])
		snprintf(rules, cap, "%s %s", turned[0] ? turned + 1 : "", outcome_rules);
}

/* Drops repeated words and rules outside f's sections; keeps at most max. */
static void unique_words(const np_function *f, char *text, unsigned max)
{
	char out[NP_TEXT_MAX * 2] = "";
	unsigned n = 0;
	for (char *save = NULL, *w = strtok_r(text, " ", &save); w && n < max; w = strtok_r(NULL, " ", &save)) {
		bool dup = false;
		for (const char *h = out; *h && !dup;) {
			size_t m = strcspn(h, " ");
			dup = m == strlen(w) && strncmp(h, w, m) == 0;
			h += m;
			while (*h == ' ')
				h++;
		}
		if (!dup && np_xrule_fits(f, w) && strlen(out) + strlen(w) + 2 < sizeof out) {
			snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", n ? " " : "", w);
			n++;
		}
	}
	if (n == 0) {   /* never empty: the function's signature rule */
		np_outcome none = { NP_OUT_NOT_EXPORTED, 0 };
		snprintf(out, sizeof out, "%s", np_xoutcome_rules(f, &none));
	}
	strcpy(text, out);
}

static int function_rank(const np_function *f)
{
	for (unsigned i = 0; np_function_at(i); i++)
		if (np_function_at(i) == f)
			return (int)i;
	return -1;
}

static int vclass_order(const void *a, const void *b)
{
	const vclass *x = a, *y = b;
	int d = function_rank(x->f) - function_rank(y->f);
	if (d)
		return d;
	if (x->after != y->after)
		return (int)x->after - (int)y->after;
	if (x->before != y->before)
		return (int)x->before - (int)y->before;
	char s[4][64];
	np_xoutcome_text(&x->from, s[0], 64);
	np_xoutcome_text(&y->from, s[1], 64);
	if ((d = strcmp(s[0], s[1])))
		return d;
	np_xoutcome_text(&x->to, s[2], 64);
	np_xoutcome_text(&y->to, s[3], 64);
	return strcmp(s[2], s[3]);
}

static int dclass_order(const void *a, const void *b)
{
	const dclass *x = a, *y = b;
	int d = function_rank(x->f) - function_rank(y->f);
	if (d)
		return d;
	char s[4][64];
	np_xoutcome_text(&x->model, s[0], 64);
	np_xoutcome_text(&y->model, s[1], 64);
	if ((d = strcmp(s[0], s[1])))
		return d;
	np_xoutcome_text(&x->got, s[2], 64);
	np_xoutcome_text(&y->got, s[3], 64);
	if ((d = strcmp(s[2], s[3])))
		return d;
	return (int)x->outputs - (int)y->outputs;
}

static void arch_names(unsigned mask, char *buf, size_t cap)
{
	size_t used = 0;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		if (mask & (1u << a))
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? ", " : "",
						 np_arch_name((np_arch)a));
}

/* One vector per combination: a representative of two classes is written
 * once (IDs are unique in a file). printed[c] notes class c's. */
static bool shown_above(uint64_t *printed, size_t c, const np_xpoint *p)
{
	uint64_t h = np_xpoint_hash(p);
	bool again = false;
	for (size_t k = 0; k < c && !again; k++)
		again = printed[k] == h;
	printed[c] = h;
	return again;
}

static bool report_versions(explorer *x, FILE *out)
{
	np_machine *pm = malloc(sizeof *pm);
	if (!pm)
		return false;
	np_machine_init(pm, NP_V1703, NP_X64);   /* default knobs for the predicates */
	if (x->nc)   /* qsort must not be given NULL, even for no element */
		qsort(x->vc, x->nc, sizeof *x->vc, vclass_order);
	uint64_t *printed = calloc(x->nc + 1, sizeof *printed);
	if (!printed) {
		np_machine_fini(pm);
		free(pm);
		return false;
	}
	for (size_t c = 0; c < x->nc; c++) {
		vclass *vc = &x->vc[c];
		char o1[64], o2[64], archs[64], rules[NP_TEXT_MAX * 2], why[NP_TEXT_MAX * 4];
		char title[NP_TEXT_MAX * 2], source[NP_TEXT_MAX], id[NP_TEXT_MAX], args[NP_TEXT_MAX * 4];
		np_xoutcome_text(&vc->from, o1, sizeof o1);
		np_xoutcome_text(&vc->to, o2, sizeof o2);
		arch_names(vc->archs, archs, sizeof archs);
		version_rules(vc, pm, rules, sizeof rules, why, sizeof why);
		unique_words(vc->f, rules, NP_MAX_RULES);
		np_xpoint_describe(&vc->rep, args, sizeof args);
		np_xvector_id(&vc->rep, id, sizeof id);
		/* with --targets, the versions between two explored ones were not run */
		bool adjacent = vc->after == vc->before + 1;
		fprintf(out, "# [%zu] %s: %s on %s, %s %s %s (%s); %lu combination%s\n", c + 1,
			vc->f->name, o1, np_version_key(vc->before), o2, adjacent ? "from" : "on",
			np_version_key(vc->after), archs, vc->count, vc->count == 1 ? "" : "s");
		fprintf(out, "# why: %s\n# shown by: %s\n", why, args);
		if (shown_above(printed, c, &vc->rep)) {
			fprintf(out, "# (vector %s above)\n\n", id);
			continue;
		}
		snprintf(title, sizeof title, "%s: %s on %s, %s %s %s (ntprof explore)", vc->f->name, o1,
			 np_version_key(vc->before), o2, adjacent ? "from" : "on", np_version_key(vc->after));
		snprintf(source, sizeof source, "derived from the model by ntprof explore --seed %llu",
			 (unsigned long long)x->o->seed);
		if (!np_xvector_write(out, x->model, &vc->rep, title, rules, "boundary inferred", source,
				      x->work, &x->st->evaluations))
			fprintf(out, "# (no target takes this combination's state)\n\n");
	}
	free(printed);
	np_machine_fini(pm);
	free(pm);
	return true;
}

/* Where rep diverges: version ranges per architecture over the run targets. */
static void divergent_targets(explorer *x, const np_xpoint *p, char *buf, size_t cap)
{
	np_xpoint_vector(p, &x->v, x->steps);
	x->st->evaluations += np_xevaluate(x->model, &x->v, &x->run, x->work);
	x->st->evaluations += np_xevaluate(x->against, &x->v, &x->run, x->bres);
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		int lo = -1, hi = -1;
		for (unsigned j = 0; j <= x->run.count; j++) {
			unsigned k = j < x->run.count ? x->order[j] : 0;
			bool in = j < x->run.count && x->run.t[k].arch == (np_arch)a &&
				  diverges(x->work, x->bres, k).step >= 0;
			if (in) {
				if (lo < 0)
					lo = (int)x->run.t[k].version;
				hi = (int)x->run.t[k].version;
				continue;
			}
			if (j < x->run.count && x->run.t[k].arch != (np_arch)a)
				continue;
			if (lo >= 0 && used < cap)
				used += (size_t)snprintf(buf + used, cap - used, "%s%s%s%s/%s", used ? ", " : "",
							 np_version_key((np_ver)lo), lo == hi ? "" : "..",
							 lo == hi ? "" : np_version_key((np_ver)hi),
							 np_arch_name((np_arch)a));
			lo = hi = -1;
		}
	}
	if (!buf[0])
		snprintf(buf, cap, "nowhere now");
}

static bool report_divergences(explorer *x, FILE *out)
{
	if (x->nc)
		qsort(x->dc, x->nc, sizeof *x->dc, dclass_order);
	const char *who = x->against->name;
	uint64_t *printed = calloc(x->nc + 1, sizeof *printed);
	if (!printed)
		return false;
	for (size_t c = 0; c < x->nc; c++) {
		dclass *dc = &x->dc[c];
		char o1[64], o2[64], args[NP_TEXT_MAX * 4], where[NP_TEXT_MAX * 4], id[NP_TEXT_MAX];
		char rules[NP_TEXT_MAX * 2], title[NP_TEXT_MAX * 2], source[NP_TEXT_MAX * 2];
		np_xoutcome_text(&dc->model, o1, sizeof o1);
		np_xoutcome_text(&dc->got, o2, sizeof o2);
		np_xpoint_describe(&dc->rep, args, sizeof args);
		divergent_targets(x, &dc->rep, where, sizeof where);
		fprintf(out, "# [%zu] %s on %s/%s: %s gives %s%s, the model %s; %lu divergent combination%s\n",
			c + 1, dc->f->name, np_version_key(dc->where.version), np_arch_name(dc->where.arch),
			who, o2, dc->outputs ? " with other out-values" : "", o1, dc->count,
			dc->count == 1 ? "" : "s");
		fprintf(out, "# minimised to: %s\n# %s diverges with it on: %s\n", args, who, where);
		if (shown_above(printed, c, &dc->rep)) {
			np_xvector_id(&dc->rep, id, sizeof id);
			fprintf(out, "# (vector %s above)\n\n", id);
			continue;
		}
		snprintf(rules, sizeof rules, "%s", np_xoutcome_rules(dc->f, &dc->model));
		for (unsigned i = 0; i < dc->rep.sp->nd; i++) {
			if (np_xpoint_plain(&dc->rep, i))
				continue;
			for (unsigned b = 0; b < dc->rep.sp->d[i].n; b++) {   /* the edge's own rules */
				const np_xbound *xb = &dc->rep.sp->d[i].b[b];
				np_xpoint probe = dc->rep;
				if (xb->derive == NP_XD_TEXT ? strcmp(xb->text, dc->rep.val[i]) == 0
							     : derive(&probe, i, xb) &&
							       strcmp(probe.val[i], dc->rep.val[i]) == 0) {
					snprintf(rules + strlen(rules), sizeof rules - strlen(rules), " %s", xb->rules);
					break;
				}
			}
		}
		unique_words(dc->f, rules, NP_MAX_RULES);
		snprintf(title, sizeof title, "%s: %s where %s gives %s (ntprof explore)", dc->f->name, o1,
			 who, o2);
		snprintf(source, sizeof source, "derived from the model by ntprof explore --seed %llu (a divergence of %s)",
			 (unsigned long long)x->o->seed, who);
		if (!np_xvector_write(out, x->model, &dc->rep, title, rules, "boundary inferred", source,
				      x->work, &x->st->evaluations))
			fprintf(out, "# (no target takes this combination's state)\n\n");
	}
	free(printed);
	return true;
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
	fprintf(out, "# ntprof explore, seed %llu: ", (unsigned long long)o->seed);
	if (x.against)
		fprintf(out, "%s (%s) against the model\n", o->against_name ? o->against_name : "?",
			x.against->name);
	else
		fprintf(out, "where the model's versions disagree\n");
	fprintf(out, "# functions:");
	for (unsigned i = 0; i < nf; i++)
		fprintf(out, " %s", fs[i]->name);
	if (o->budget)
		fprintf(out, "\n# targets: %u; combinations per function: %lu\n\n", x.run.count, o->budget);
	else
		fprintf(out, "\n# targets: %u; combinations per function: each boundary alone, every pair, "
			"numeric triples\n\n", x.run.count);
	np_xspace *spaces = calloc(nf ? nf : 1, sizeof *spaces);
	ok = ok && spaces;
	for (unsigned i = 0; ok && i < nf && !st->stopped_by_time; i++)
		ok = explore_function(&x, &spaces[i], fs[i]);
	if (ok)
		ok = x.against ? report_divergences(&x, out) : report_versions(&x, out);
	st->classes = x.nc;
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
