/* SPDX-License-Identifier: MIT */
/* The order of the sweep. The default sweep runs the plain call, every
 * boundary alone, every pair of boundaries on two axes (two faults at
 * once) and every triple of numeric arguments, each tier in an order
 * shuffled by the seed; a larger --budget goes on with random combinations
 * of three to six axes. */
#include <stdlib.h>
#include <string.h>

#include "explore/explore_sweep.h"

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

static void shuffle(np_xcombo *c, size_t n, uint64_t *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix64(rng) % i);
		np_xcombo t = c[i - 1];
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

static size_t count_triples(const np_xspace *sp, np_xcombo *out)
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

bool np_xsweep_init(np_xsweep *w, const np_xspace *sp, uint64_t seed)
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
bool np_xsweep_next(np_xsweep *w, const np_xspace *sp, bool beyond, np_xcombo *c)
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

bool np_xseen_add(np_xseen *s, uint64_t h)
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
