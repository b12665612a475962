/* SPDX-License-Identifier: MIT */
/* `ntprof.exe live`: the vectors on the live Windows (or Wine) system, each
 * in a child process, judged against the model mirroring the system, with
 * the system's profile intervals saved and restored. Windows only.
 *
 *   remote.c  a backend whose sessions run in `ntprof.exe --child`
 *   child.c   the child: one session of np_impl_windows, exceptions caught
 *   live.c    the run: probe, intervals, what to skip, the environment */
#ifndef NTPROF_LIVE_H
#define NTPROF_LIVE_H

#include <stdbool.h>

#include "ntprof/runner.h"
#include "ntprof/backend.h"
#include "ntprof/vector.h"

/* Exit codes of a child: it raised (after sending its last record), or the
 * parent ended it (a hang, the end of the run, Ctrl-C). Kept below 256:
 * Wine passes on the low 8 bits only. */
#define NP_CHILD_EXIT_RAISED 3u
#define NP_CHILD_EXIT_ENDED  4u

/* The child process's main: `ntprof.exe --child`. */
int np_win_child_main(void);

/* A backend whose every session runs in a new child process. rescue: it
 * may start children even after np_win_remote_interrupt (to restore the
 * intervals on Ctrl-C). */
np_backend *np_win_remote_new(const char *name, bool rescue);
/* Ends every running child now, and refuses new ones but rescue ones. */
void np_win_remote_interrupt(void);

typedef struct np_live_options {
	bool allow_hazard;             /* run vectors that may harm the kernel, or of unknown behaviour */
	bool allow_unsaved_intervals;  /* run vectors that set an interval that cannot be restored */
} np_live_options;

typedef struct np_live np_live;

/* Probes the system, the HAL's source list (in a child) and saves the
 * interval of every source the vectors that apply here may set (in a
 * child). NULL when out of memory. */
np_live *np_live_open(const np_vector_set *set, const np_live_options *opt);
/* The live system's version and architecture; false (with why) when they
 * are not ones `ntprof versions` knows. */
bool np_live_target(const np_live *l, np_target *t, char *why, size_t cap);
/* The model settings that mirror the live system, for np_run_mirrored. */
unsigned np_live_mirror(const np_live *l, np_pair *out, unsigned cap);
/* The backend to run: sessions in child processes, vectors skipped when
 * unsafe, intervals restored after every vector that may have set one.
 * Owned by l. */
np_backend *np_live_backend(np_live *l);
/* Restores the saved intervals a last time and adds the environment to
 * the run's report (call after np_run_mirrored). */
void np_live_finish(np_live *l, np_run *run);
/* How many sources the last restore did not put back (the set failed, or
 * the interval read afterwards is not the one saved); the report and
 * stderr name them. */
unsigned np_live_left_changed(const np_live *l);
void np_live_close(np_live *l);

#endif
