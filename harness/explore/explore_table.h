/* SPDX-License-Identifier: MIT */
/* The explorer's boundary table (harness/explore/explore_table.c): the
 * boundary values of each argument and machine state, each citing the
 * SPEC.md rules that make it an edge, and the steps run before a call. The
 * rules behind outcomes come from the model's records of its runs. */
#ifndef NTPROF_EXPLORE_TABLE_H
#define NTPROF_EXPLORE_TABLE_H

#include <stdbool.h>

#include "vectors/catalog.h"

/* How a boundary's value is found. Most are written as they are; a few
 * sit on an edge that moves with the other arguments of the combination. */
typedef enum np_xderive {
	NP_XD_TEXT,       /* the text as written */
	NP_XD_CP8,        /* BufferSize = ProfileSize >> (BucketSize - 2), + delta (CP-8) */
	NP_XD_CP9,        /* BufferSize = 4 * ceil(ProfileSize / 2^BucketSize), + delta (CP-9) */
	NP_XD_WRAP32,     /* ProfileSize with ProfileBase + ProfileSize = 2^32 + delta (CP-10) */
	NP_XD_WRAP64,     /* ProfileSize with ProfileBase + ProfileSize = 2^64 + delta (CP-10) */
	NP_XD_CPU_TOP,    /* the mask bit cpus - 1 + delta: the highest active processor, one past */
	NP_XD_GROUP_TOP   /* the same bit as Groups=0:MASK */
} np_xderive;

typedef struct np_xbound {
	const char *text;    /* NP_XD_TEXT: the value; otherwise its name in reports */
	np_xderive derive;
	int delta;
	const char *rules;   /* SPEC.md rules that make this value an edge */
} np_xbound;

/* The boundaries of one argument or state. b[0] is the plain default: a
 * value written as text with which the call gets past that argument. */
typedef struct np_xlist {
	const char *function;  /* NULL: the list of every function with such a parameter */
	const char *name;      /* a catalog parameter, or a `given` key */
	const np_xbound *b;
	unsigned n;
} np_xlist;

/* The list for a parameter of f: f's own, else the parameter name's, else
 * its kind's (pointers, handles, sources, affinities). NULL: none. */
const np_xlist *np_xbounds_param(const np_function *f, const np_param *p);

/* The machine-state dimensions (given keys), count of them in *count. */
const np_xlist *np_xbounds_given(unsigned *count);

/* Steps run before the explored call on the same machine (a profile for
 * NtStartProfile to start), NULL-terminated; NULL for none. The explored
 * call's handle argument names the profile they capture. */
const char *const *np_xprelude(const np_function *f);

/* A short sequence: the explored call (its prelude first, np_xprelude),
 * then steps that see what it left. An argument of a later step written
 * Name=$Axis takes the explored call's value of that axis. */
typedef struct np_xsequence {
	const char *name;            /* the vector ID's stem: explore/NAME-HASH */
	const char *function;        /* the explored call */
	const char *fixed;           /* Name=Value: an argument of it taken off its axes, or NULL */
	const char *const *after;    /* the later steps, NULL-terminated (at most two) */
} np_xsequence;

const np_xsequence *np_xsequences(unsigned *count);

/* True for the functions the explorer generates calls of: every native,
 * Win32 and system-information call of the catalog, not the pseudo-steps. */
bool np_xexplorable(const np_function *f);

#endif
