/* SPDX-License-Identifier: MIT */
/* The child processes of an isolated run (run/isolate.c for `run`,
 * explore/explore_isolate.c for `explore`), and the fork server that makes
 * them: a process forked once, early, while the program is still small,
 * which forks a fresh child for each job, so that the program's own pages
 * are not copied (nor their page tables) a thousand times over. Without
 * the server, a child is forked from here, as before. Not for use outside
 * harness/run/ and harness/explore/. */
#ifndef NTPROF_ZYGOTE_H
#define NTPROF_ZYGOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "ntprof/backend.h"

/* Forks the server now for the backend under test b (and the reference
 * ref, or NULL), which must not change from now on: the children it makes
 * start from this process as it is now. Isolated runs of b with ref then
 * go through it. False when it cannot be made (children are then forked
 * from here). The server ends with this process, or at np_zygote_stop. */
bool np_zygote_start(np_backend *b, np_backend *ref);
void np_zygote_stop(void);

#ifndef _WIN32

/* The memory shared with the children and the server, at the same address
 * in each (mapped once, before the server is forked): the job a child
 * reads and the records it writes, *bytes long. NULL when it cannot be
 * had. One child at a time uses it. */
void *np_zygote_arena(size_t *bytes);

/* Copies v with its steps, their expectations and its file name into the
 * left bytes at *at, from a page boundary on, moving *at and *left past the
 * copy; NULL when it does not fit. The last thing of a job in the arena. */
np_vector *np_vector_copy_to(char **at, size_t *left, const np_vector *v);
/* In a child: the arena from p (a copy np_vector_copy_to made) to its end,
 * read-only in this process, so that an object under test that writes over
 * the vector it runs ends with SIGSEGV rather than change what it asks. */
void np_arena_readonly_from(const void *p);

/* A child process running a job. */
typedef struct np_child {
	int pid;
	int fd;        /* readable when it ends (or the server says it has) */
	bool served;   /* made by the server, not forked here */
} np_child;

/* How a child ended: by a signal, or exiting with a status. */
typedef struct np_child_end {
	int signal;    /* 0: it exited */
	int status;
} np_child_end;

/* Starts a child that runs job(arg) and exits 0 (arg in the arena): by the
 * server when it was started for b and ref, else by fork here. In the
 * child, a fault ends it by its signal (no handler inherited), SIGINT and
 * SIGTERM end it, and so does the end of the process that made it. False
 * when no child can be had. */
bool np_child_start(np_child *c, const np_backend *b, const np_backend *ref, void (*job)(void *arg),
		    void *arg);
/* Waits for it to end, into *end; when *seq (which the child moves on as
 * it goes) stays still for timeout_ms milliseconds, ends it (SIGKILL)
 * and returns true. The child is gone when it returns. */
bool np_child_watch(np_child *c, const volatile unsigned *seq, unsigned timeout_ms, np_child_end *end);

#endif

#endif
