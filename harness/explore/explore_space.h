/* SPDX-License-Identifier: MIT */
/* The explorer's internals shared by its parts (harness/explore/): the space of
 * a function and its combinations (explore_space.c), points written as
 * vectors (explore_vector.c), and minimising a divergence (explore_classes.c). */
#ifndef NTPROF_EXPLORE_SPACE_H
#define NTPROF_EXPLORE_SPACE_H

#include <stdio.h>

#include "vectors/catalog.h"
#include "ntprof/backend.h"
#include "explore/explore_table.h"
#include "ntprof/explore.h"

#define NP_X_MAX_DIMS  20
#define NP_X_MAX_PRELUDE 2     /* steps before the explored call */
#define NP_X_MAX_AFTER 2       /* a sequence's steps after it */
#define NP_X_MAX_STEPS (NP_X_MAX_PRELUDE + 1 + NP_X_MAX_AFTER)
#define NP_X_VALUE_MAX 48
#define NP_X_MAX_TARGETS (64 * NP_ARCH_COUNT)

typedef enum np_xdim_kind { NP_XDIM_ARG, NP_XDIM_SPELLING, NP_XDIM_GIVEN } np_xdim_kind;

/* One axis of a function's space: an argument, the Nt/Zw spelling, or a
 * machine state; its values are boundaries, b[0] the plain default. */
typedef struct np_xdim {
	np_xdim_kind kind;
	const char *name;
	const np_param *param;        /* NP_XDIM_ARG */
	const np_xbound *b;
	unsigned n;
} np_xdim;

typedef struct np_xspace {
	const np_function *f;
	np_xdim d[NP_X_MAX_DIMS];
	unsigned nd;
	np_step prelude[NP_X_MAX_PRELUDE];
	const char *prelude_text[NP_X_MAX_PRELUDE];
	unsigned nprelude;
	const char *sequence;          /* a sequence's name; NULL: the call alone */
	np_pair fixed;                 /* an argument of the call taken off the axes (name "": none) */
	np_step after[NP_X_MAX_AFTER]; /* a sequence's later steps */
	int after_dim[NP_X_MAX_AFTER][NP_MAX_ARGS];   /* the axis an argument takes, -1: as written */
	unsigned nafter;
	int base, size, bucket, cpus;  /* the axes derived values read, -1 for none */
	np_xbound spelling[2];         /* the Nt and Zw names */
} np_xspace;

/* A combination with every value written out. */
typedef struct np_xpoint {
	const np_xspace *sp;
	char val[NP_X_MAX_DIMS][NP_X_VALUE_MAX];
} np_xpoint;

/* Records of one combination on each target. */
typedef struct np_xresults {
	bool refused[NP_X_MAX_TARGETS];
	np_record rec[NP_X_MAX_TARGETS][NP_X_MAX_STEPS];
	unsigned nstep;
} np_xresults;

/* A function's axes and prelude. False when a parameter has no boundary
 * list or a prelude does not parse: a defect of the table, which
 * conformance/harness/test_explore.c rules out for every explorable function. */
bool np_xspace_init(np_xspace *sp, const np_function *f);

/* A sequence's space: its explored call's, less the fixed argument's axis,
 * with its later steps. False on a defect of the table, as above. */
bool np_xspace_init_sequence(np_xspace *sp, const np_xsequence *q);

/* A combination: the index of a boundary on each axis (0: the plain default). */
typedef struct np_xcombo {
	uint8_t idx[NP_X_MAX_DIMS];
} np_xcombo;

/* Writes the combination's values; false when a derived one has no meaning
 * (a capacity edge with no valid BucketSize, a bit past 64 processors). */
bool np_xpoint_resolve(const np_xspace *sp, const np_xcombo *c, np_xpoint *p);

/* The value of a derived boundary on dim, from the values already written. */
bool np_xpoint_derive(np_xpoint *p, unsigned dim, const np_xbound *b);

/* Greedy minimisation of a divergence of judged from model on target t:
 * each axis off its plain default is reset, one at a time in the order of
 * the axes, and the reset kept when the same divergence (step, both
 * outcomes, out-values or not) remains. m and b are scratch. Returns the
 * evaluations made; p is left as it is when it shows no divergence. */
unsigned long np_xminimise(np_backend *model, np_backend *judged, np_xpoint *p, np_target t,
			   np_xresults *m, np_xresults *b);

bool np_xpoint_plain(const np_xpoint *p, unsigned dim);
unsigned np_xpoint_changed(const np_xpoint *p);   /* axes off their plain default */
/* "Name=Value ..." of the axes off their plain default ("plain defaults" for none). */
void np_xpoint_describe(const np_xpoint *p, char *buf, size_t cap);

/* The combination as a vector: its given pairs and steps (steps[] holds them). */
void np_xpoint_vector(const np_xpoint *p, np_vector *v, np_step *steps);

/* Runs the vector on every target of l with b; a target b skips or whose
 * state it refuses is marked refused. Returns the evaluations made. */
unsigned long np_xevaluate(np_backend *b, const np_vector *v, const np_target_list *l, np_xresults *r);
/* The same, here, from target first on (the records before it untouched). */
unsigned long np_xevaluate_here(np_backend *b, const np_vector *v, const np_target_list *l, unsigned first,
				np_xresults *r);
/* The same in a child process per combination (explore_isolate.c): what b
 * is asked with b->step_timeout_ms set, as `run` isolates an implementation. */
unsigned long np_xevaluate_isolated(np_backend *b, const np_vector *v, const np_target_list *l,
				    np_xresults *r);

/* The outcome as an expectation writes it: STATUS_X, fault STATUS_X, ... */
void np_xoutcome_text(const np_outcome *o, char *buf, size_t cap);

/* Writes p as a vector whose expectations are the model's on every target
 * that exists (work holds the records). rules and flags are space-separated;
 * flags the vector's nature adds (order, version-change, not-live,
 * hazardous) are added to them. Returns false when no target can take it. */
bool np_xvector_write(FILE *out, np_backend *model, const np_xpoint *p, const char *title,
		      const char *rules, const char *flags, const char *source, np_xresults *work,
		      unsigned long *evaluations);

/* The vector ID for p: explore/FUNCTION-HASH. */
void np_xvector_id(const np_xpoint *p, char *buf, size_t cap);
uint64_t np_xpoint_hash(const np_xpoint *p);

/* Version ranges: `on` text for [lo, hi] ("" for every version). */
void np_xrange_text(np_ver lo, np_ver hi, char *buf, size_t cap);

#endif
