/* SPDX-License-Identifier: MIT */
/* Writing a known-divergence file (harness/run/known_write.c): the lines
 * one vector's failures need, then (harness/run/known_group.c) lines that
 * share an outcome merged into pattern entries where that is exact. */
#ifndef NTPROF_KNOWN_WRITE_H
#define NTPROF_KNOWN_WRITE_H

#include "ntprof/known.h"

typedef struct np_kw_line {
	char head[NP_TEXT_MAX * 2];    /* the ID or pattern, then the scope */
	char scope[NP_TEXT_MAX];
	np_class cls;
	char step[NP_NAME_MAX];        /* N, FUNCTION or * */
	char got[NP_TEXT_MAX * 2];
	char reason[NP_TEXT_MAX * 2 + 16];
	const np_vector *v;            /* the vector of a line for one vector, else NULL */
	int step_index;                /* its deciding step, 0-based */
	const np_known_entry *kept;    /* a pattern entry written back as it was */
	bool merged;                   /* now part of a pattern line */
} np_kw_line;

typedef struct np_kw_lines {
	np_kw_line *l;
	unsigned count, cap;
	bool oom;
} np_kw_lines;

/* Appends a line; false (and oom set) when memory runs out. */
bool np_kw_add(np_kw_lines *ls, const np_kw_line *line);

/* Merges lines for single vectors that share scope, class, the function of
 * the deciding step, GOT and a TODO reason into pattern lines: ID prefix
 * then `*`, `step FUNCTION:`, where the pattern names (np_known_names) no
 * vector of the run but those lines' own. The merged lines are marked; the
 * pattern line takes the place of the first. False when memory runs out. */
bool np_kw_group(np_kw_lines *ls, const np_run *run);

#endif
