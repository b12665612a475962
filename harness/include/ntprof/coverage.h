/* SPDX-License-Identifier: MIT */
/* How much of an implementation under test a run reached: per function,
 * the vector-targets (rows) asked of it that call the function, and of
 * those the ones where a step of it got a result other than not-applicable
 * from the implementation. A run that reached nothing proves nothing. */
#ifndef NTPROF_COVERAGE_H
#define NTPROF_COVERAGE_H

#include <stdio.h>

#include "ntprof/capability.h"
#include "ntprof/runner.h"

#define NP_COVERAGE_MAX 32

typedef struct np_coverage_function {
	const char *name;        /* as the catalog spells it */
	unsigned exercised;      /* rows where a step of it was answered */
	unsigned required;       /* rows asked of the implementation that call it */
} np_coverage_function;

/* A capability (ntprof/capability.h): the rows asked of the implementation
 * that need it and of those the ones exercised; or, for one it does not
 * declare, the rows that were not required for want of it. */
typedef struct np_coverage_capability {
	char name[NP_CAPABILITY_MAX];
	unsigned exercised;
	unsigned required;       /* declared: rows asked that need it */
	unsigned undeclared;     /* not declared: rows not required for want of it alone or first */
} np_coverage_capability;

typedef struct np_coverage {
	unsigned exercised;      /* rows where a step of some function was answered (a row of
				    pseudo-steps alone: a step of it) */
	unsigned required;       /* rows asked of it: not not-required, not-implemented or skipped,
				    nor refused at open (not-applicable before any step) */
	unsigned rows;           /* every row of the run */
	np_coverage_function fn[NP_COVERAGE_MAX];   /* the functions some row requires, catalog order */
	unsigned nfn;
	np_coverage_capability cap[NP_COVERAGE_MAX];  /* in the order rows first need them */
	unsigned ncap;
} np_coverage;

void np_coverage_count(const np_run *run, np_coverage *c);

/* "exercised: X of Y vector-targets (P% of the run's Z); NtSetIntervalProfile
 * a/b, ...; capabilities Interrupt a/b, ...; not declared (vector-targets it
 * keeps out): Inject N, ...", and ": nothing was exercised" when X is 0; prefix
 * first, newline last. */
void np_coverage_text(FILE *out, const np_coverage *c, const char *prefix);
/* "coverage":{...} (no comma around it). */
void np_coverage_json(FILE *out, const np_coverage *c);

#endif
