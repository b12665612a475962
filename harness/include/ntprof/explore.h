/* SPDX-License-Identifier: MIT */
/* ntprof explore: argument combinations generated from the boundaries that
 * SPEC.md names (harness/explore/explore_table.c), evaluated on the model for every
 * target through the same interpreter as vectors, and reported as
 * ready-to-paste vectors: the classes of combination whose outcome changes
 * between versions, or, against another backend, each divergence from the
 * model minimised to the fewest arguments that still show it. */
#ifndef NTPROF_EXPLORE_H
#define NTPROF_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ntprof/runner.h"
#include "ntprof/backend.h"

#define NP_EXPLORE_MAX_FUNCTIONS 32

typedef struct np_explore_options {
	const char *function[NP_EXPLORE_MAX_FUNCTIONS]; /* none: every explorable function */
	unsigned nfunction;
	np_target_list targets;     /* where combinations run (none: every target) */
	uint64_t seed;              /* the order of the sweep and its random part */
	unsigned long budget;       /* combinations per function; 0: the default sweep */
	double seconds;             /* stop starting combinations after this long; 0: no limit */
	np_backend *against;        /* NULL: version differences on the model */
	const char *against_name;   /* how the backend was named (--against), for the report */
	bool no_sequences;          /* single calls only: no short sequences (explore_table.c) */
	const struct np_known *known;  /* --against: divergences it lists are counted, not reported */
	const char *known_name;     /* its file, for the report */
	/* --against: vectors whose `accept` lines a divergence may match (the
	 * fixtures): the backend's outcome where a step of the same function
	 * expects the model's on that target and accepts it; counted, not
	 * reported. NULL: none. */
	const np_vector_set *accepts;
} np_explore_options;

typedef struct np_explore_stats {
	unsigned long combinations; /* combinations evaluated, over every function */
	unsigned long evaluations;  /* (combination, target) runs on each backend, minimising included */
	unsigned long classes;      /* classes reported */
	unsigned long divergences;  /* --against: (combination, target) pairs that differed, unlisted */
	unsigned long known;        /* --against: such pairs the known list lists */
	unsigned long accepted;     /* --against: such pairs an `accept` line of o->accepts accepts */
	unsigned long not_asked;    /* --against: combinations the backend is not asked (a function
				       it does not implement, a capability it does not declare) */
	unsigned long sequences;    /* the sequences explored */
	double seconds;
	bool stopped_by_time;       /* --seconds ended the sweep early */
} np_explore_stats;

/* NULL when name (an Nt, Zw or Trace spelling) is a function the explorer
 * can explore; otherwise why not. */
const char *np_explore_check_function(const char *name);

/* Explores and writes the report to out: vectors and comments, nothing
 * else, the same for the same options and seed (--seconds aside). The
 * model backend is the reference; o->against, when set, the backend judged.
 * False only when memory runs out. */
bool np_explore(FILE *out, np_backend *model, const np_explore_options *o, np_explore_stats *st);

#endif
