/* SPDX-License-Identifier: MIT */
/* The order of the sweep (harness/explore/explore_sweep.c): the fixed tiers
 * shuffled by the seed, then random combinations, and the combinations
 * already run. */
#ifndef NTPROF_EXPLORE_SWEEP_H
#define NTPROF_EXPLORE_SWEEP_H

#include "explore/explore_space.h"

typedef struct np_xsweep {
	np_xcombo *fixed;         /* the plain call, each boundary alone, each pair, numeric triples */
	size_t nfixed, at;
	uint64_t rng;
} np_xsweep;

/* The fixed tiers of sp, each in the order seed and the function's name
 * give. False when memory runs out; w->fixed is the caller's to free. */
bool np_xsweep_init(np_xsweep *w, const np_xspace *sp, uint64_t seed);

/* The next combination: the fixed tiers in order, then (only when asked
 * for more) three to six axes off their defaults at random. */
bool np_xsweep_next(np_xsweep *w, const np_xspace *sp, bool beyond, np_xcombo *c);

/* Hashes of the combinations already run: two boundaries may land on one
 * value (a capacity edge on the default BufferSize). slot is the caller's
 * to free. */
typedef struct np_xseen {
	uint64_t *slot;
	size_t cap, count;
} np_xseen;

/* Adds h; false when it was there already or memory runs out. */
bool np_xseen_add(np_xseen *s, uint64_t h);

#endif
