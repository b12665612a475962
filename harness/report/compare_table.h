/* SPDX-License-Identifier: MIT */
/* ntprof compare's table (harness/report/compare.c reads it to print it,
 * harness/report/compare_read.c fills it): one column per file and target,
 * one row per vector, a cell where a column ran a row's vector. */
#ifndef NTPROF_COMPARE_TABLE_H
#define NTPROF_COMPARE_TABLE_H

#include "common/common.h"
#include "ntprof/compare.h"
#include "ntprof/runner.h"

typedef struct cell {
	bool present;
	np_class cls, observed;
	int step;              /* 1-based; 0 = no deciding step */
	np_answer *got;        /* the outcome at that step, NULL for none */
} cell;

typedef struct column {
	unsigned file;
	char *target;          /* "VERSION/ARCH" */
	char *label;           /* built by labels() */
	cell *cell;            /* by row; rows past n have no cell */
	unsigned n;
} column;

typedef struct rfile {
	char *path;
	char *env_label;       /* from the environment, or NULL */
	unsigned ncols;        /* targets in the file */
} rfile;

struct np_compare {
	rfile *file;
	unsigned nfiles;
	column *col;
	unsigned ncols;
	char **vector;         /* row keys in order of first appearance */
	unsigned nrows, caprows;
	np_strmap rows;         /* vector -> row */
	bool labelled;
};

#endif
