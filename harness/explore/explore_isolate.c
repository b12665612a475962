/* SPDX-License-Identifier: MIT */
/* explore against an implementation under test, isolated as `run` isolates
 * it (harness/run/isolate.c): each combination's evaluation runs in a child
 * process (POSIX fork), which writes its records into memory it shares with
 * the parent and then ends, so nothing an implementation does to its own
 * state outlives one combination. A child that dies or whose step outlasts
 * the step timeout is ended; that target's record at that step becomes a
 * crashed outcome saying why, and a new child takes the next target. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#include <stdio.h>
#include <string.h>

#include "explore/explore_space.h"

#ifdef _WIN32

unsigned long np_xevaluate_isolated(np_backend *b, const np_vector *v, const np_target_list *l,
				    np_xresults *r)
{
	return np_xevaluate_here(b, v, l, 0, r);
}

#else

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

/* Shared with the child: its records, and where it is. */
typedef struct shared {
	np_xresults r;
	volatile unsigned seq;      /* moves on at every target and step */
	volatile unsigned target;   /* the target it is on */
	volatile int step;          /* the step it is in, -1 in open */
} shared;

/* The child's view of b: b itself, noting each step in the shared page. */
typedef struct watched {
	np_backend *inner;
	shared *sh;
	unsigned first;
} watched;

static const char *watched_begin(np_backend *self, np_target t, const np_vector *v)
{
	watched *w = self->state;
	w->sh->step = -1;
	w->sh->seq++;
	return w->inner->begin(w->inner, t, v);
}

static void watched_step(np_backend *self, const np_step *st, np_record *rec)
{
	watched *w = self->state;
	w->sh->step++;
	w->sh->seq++;
	w->inner->step(w->inner, st, rec);
}

static void watched_end(np_backend *self)
{
	watched *w = self->state;
	w->inner->end(w->inner);
	w->sh->target++;
	w->sh->seq++;
}

static _Noreturn void child(np_backend *b, const np_vector *v, const np_target_list *l, unsigned first,
			    shared *sh, pid_t parent)
{
#ifdef __linux__
	/* a parent ended by a signal takes its child with it, even one stuck
	 * in the implementation */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (getppid() != parent)
		_exit(1);
	static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS };
	for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
		signal(faults[i], SIG_DFL);
	signal(SIGINT, SIG_DFL);    /* the parent cleans up; the child only ends */
	signal(SIGTERM, SIG_DFL);
	watched w = { b, sh, first };
	np_backend view = *b;
	view.begin = watched_begin;
	view.step = watched_step;
	view.end = watched_end;
	view.state = &w;
	np_xevaluate_here(&view, v, l, first, &sh->r);
	_exit(0);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for the child, whose end closes the pipe's other end (fd); kills
 * it when a step outlasts timeout seconds. True when it was ended so. */
static bool wait_child(pid_t pid, int fd, const shared *sh, unsigned timeout, int *status)
{
	unsigned seen = sh->seq;
	long long since = now_ms();
	bool timed_out = false;
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		char byte;
		if (poll(&pfd, 1, 100) > 0 && read(fd, &byte, 1) <= 0)
			break;   /* the child has ended (or closed everything) */
		if (sh->seq != seen) {
			seen = sh->seq;
			since = now_ms();
		} else if (now_ms() - since >= (long long)timeout * 1000) {
			kill(pid, SIGKILL);
			timed_out = true;
			break;
		}
	}
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return timed_out;
}

/* The record of a target whose child ended in it: crashed at its step. */
static void lost(shared *sh, const np_vector *v, bool timed_out, int status, unsigned timeout)
{
	unsigned t = sh->target;
	int s = sh->step < 0 ? 0 : sh->step;
	np_record *rec = &sh->r.rec[t][s];
	memset(rec, 0, sizeof *rec);
	rec->outcome.kind = NP_RESULT_CRASHED;
	if (timed_out)
		snprintf(rec->why, sizeof rec->why, "step %d %s did not return within %u s (step timeout)",
			 s + 1, v->step[s].function, timeout);
	else if (WIFSIGNALED(status))
		snprintf(rec->why, sizeof rec->why, "signal %d in step %d %s", WTERMSIG(status), s + 1,
			 v->step[s].function);
	else
		snprintf(rec->why, sizeof rec->why, "its child process exited in step %d %s", s + 1,
			 v->step[s].function);
	rec->outcome.code = timed_out ? 0 : WIFSIGNALED(status) ? (uint32_t)WTERMSIG(status) : 0;
	sh->r.refused[t] = false;
	for (unsigned k = (unsigned)s + 1; k < v->nstep; k++)
		sh->r.rec[t][k] = *rec;   /* the later steps never ran */
}

unsigned long np_xevaluate_isolated(np_backend *b, const np_vector *v, const np_target_list *l,
				    np_xresults *r)
{
	static shared *sh;   /* one mapping for the process's life, reused by every combination */
	if (!sh) {
		void *m = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return np_xevaluate_here(b, v, l, 0, r);
		sh = m;
	}
	sh->r.nstep = v->nstep;
	sh->target = 0;
	while (sh->target < l->count) {
		int fds[2];
		if (pipe(fds) != 0)
			return np_xevaluate_here(b, v, l, 0, r);
		fflush(NULL);   /* nothing buffered here is written twice by the child */
		sh->step = -1;
		pid_t parent = getpid(), pid = fork();
		if (pid == 0) {
			close(fds[0]);   /* fds[1] stays open until the child ends */
			child(b, v, l, sh->target, sh, parent);
		}
		close(fds[1]);
		if (pid < 0) {
			close(fds[0]);
			return np_xevaluate_here(b, v, l, 0, r);
		}
		int status = 0;
		bool timed_out = wait_child(pid, fds[0], sh, b->step_timeout, &status);
		close(fds[0]);
		bool clean = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (clean)
			break;
		if (sh->target < l->count) {
			lost(sh, v, timed_out, status, b->step_timeout);
			sh->target++;
		}
	}
	r->nstep = v->nstep;
	memcpy(r->refused, sh->r.refused, l->count * sizeof *r->refused);
	for (unsigned t = 0; t < l->count; t++)
		memcpy(r->rec[t], sh->r.rec[t], v->nstep * sizeof *r->rec[t]);
	return l->count;
}

#endif
