/* SPDX-License-Identifier: MIT */
/* Running a vector's rows in a child process, so that an implementation
 * that crashes or does not return ends that vector's row, not the run
 * (np_backend.step_timeout_ms). Not for use outside harness/run/. */
#ifndef NTPROF_ISOLATE_H
#define NTPROF_ISOLATE_H

#include "ntprof/backend.h"
#include "ntprof/runner.h"

/* How a row that sent back no result ended. */
typedef struct np_lost {
	np_class cls;             /* NP_CLASS_CRASHED or NP_CLASS_TIMEOUT */
	int step;                 /* the step it was in (0-based), -1 in open or close */
	uint32_t reached;         /* np_row.reached of the steps before */
	char why[NP_TEXT_MAX];
} np_lost;

typedef struct np_isolation {
	/* One row, as the runner runs it (in the child). */
	void (*run)(np_backend *b, np_backend *ref, const np_vector *v, np_target t, np_row *row);
	/* The row of one that sent back nothing (in the parent). */
	void (*lost)(const np_vector *v, np_target t, const np_lost *lost, np_row *row);
} np_isolation;

/* Runs v on each of the n targets t[] into rows[], the first in a child
 * process that runs them in order and sends each row back as it ends; one
 * that crashes or whose step takes longer than b->step_timeout_ms milliseconds is
 * ended, its row made by how->lost, and a new child takes the next target.
 * Where there is no fork (Windows), or it fails, the rows run here. */
void np_isolated_rows(np_backend *b, np_backend *ref, const np_vector *v, const np_target *t,
		      unsigned n, np_row *rows, const np_isolation *how);

#endif
