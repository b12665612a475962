/* SPDX-License-Identifier: MIT */
/* A vector's rows in a child process (POSIX fork). The child runs the rows
 * and writes each one whole down a pipe; it notes, in a page it shares with
 * the parent, which row and step it is in, so that when it dies or stops
 * answering the parent can say where. A child per vector rather than per
 * step keeps a full run about as fast as one in this process. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS: a page shared with the child */
#include <stdio.h>
#include <string.h>

#include "vectors/catalog.h"
#include "run/isolate.h"

#ifdef _WIN32

void np_isolated_rows(np_backend *b, np_backend *ref, const np_vector *v, const np_target *t,
		      unsigned n, np_row *rows, const np_isolation *how)
{
	for (unsigned i = 0; i < n; i++)
		how->run(b, ref, v, t[i], &rows[i]);
}

#else

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum phase { PHASE_OPEN, PHASE_STEP, PHASE_CLOSE };

/* Written by the child, read by the parent. */
typedef struct progress {
	volatile unsigned seq;    /* moves on at every open, step and close */
	volatile int phase;       /* enum phase */
	volatile int step;        /* PHASE_STEP: the step (0-based) */
	volatile uint32_t reached;   /* the row's np_row.reached so far */
} progress;

/* The child's view of b: b itself, noting each call in the shared page. */
typedef struct watched {
	np_backend *inner;
	progress *p;
} watched;

static const char *watched_begin(np_backend *self, np_target t, const np_vector *v)
{
	watched *w = self->state;
	w->p->phase = PHASE_OPEN;
	w->p->step = -1;
	w->p->reached = 0;
	w->p->seq++;
	return w->inner->begin(w->inner, t, v);
}

static void watched_step(np_backend *self, const np_step *st, np_record *r)
{
	watched *w = self->state;
	w->p->step++;
	w->p->phase = PHASE_STEP;
	w->p->seq++;
	w->inner->step(w->inner, st, r);
	if (r->outcome.kind != NP_RESULT_NOT_APPLICABLE)   /* as the runner counts it */
		w->p->reached |= 1u << st->catalog->id;
}

static void watched_end(np_backend *self)
{
	watched *w = self->state;
	w->p->phase = PHASE_CLOSE;
	w->p->seq++;
	w->inner->end(w->inner);
}

static const char *watched_skip(np_backend *self, np_target t, const np_vector *v)
{
	watched *w = self->state;
	return w->inner->skip(w->inner, t, v);
}

static bool watched_implements(np_backend *self, const char *function)
{
	watched *w = self->state;
	return w->inner->implements(w->inner, function);
}

static bool watched_can(np_backend *self, const char *capability)
{
	watched *w = self->state;
	return w->inner->can(w->inner, capability);
}

static bool write_all(int fd, const void *data, size_t n)
{
	const char *p = data;
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* Writes row to fd, then its detail and the answers it has, if any. */
static bool send_row(int fd, const np_row *row)
{
	if (!write_all(fd, row, sizeof *row))
		return false;
	for (unsigned p = 0; row->detail && p <= NP_PART_COUNT; p++) {
		const void *what = p == 0 ? (const void *)row->detail : row->detail->answer[p - 1];
		size_t size = p == 0 ? sizeof *row->detail : sizeof(np_answer);
		if (what && !write_all(fd, what, size))
			return false;
	}
	return true;
}

/* The child: rows first..n-1, each written whole to fd as it ends. */
static _Noreturn void child(np_backend *b, np_backend *ref, const np_vector *v, const np_target *t,
			    unsigned first, unsigned n, const np_isolation *how, int fd, progress *p)
{
	/* A fault ends the child by its signal, which the parent names: not a
	 * handler this process inherited (a sanitizer's, a test framework's). */
	static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS };
	for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
		signal(faults[i], SIG_DFL);
	watched w = { b, p };
	np_backend view = *b;
	view.begin = watched_begin;
	view.step = watched_step;
	view.end = watched_end;
	view.skip = b->skip ? watched_skip : NULL;
	view.implements = b->implements ? watched_implements : NULL;
	view.can = b->can ? watched_can : NULL;
	view.state = &w;
	for (unsigned i = first; i < n; i++) {
		np_row row;
		how->run(&view, ref, v, t[i], &row);
		if (!send_row(fd, &row))
			_exit(1);
		np_row_free(&row);
	}
	_exit(0);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS:  return "SIGBUS";
	case SIGILL:  return "SIGILL";
	case SIGFPE:  return "SIGFPE";
	case SIGABRT: return "SIGABRT";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGTRAP: return "SIGTRAP";
	case SIGSYS:  return "SIGSYS";
	default:      return "a signal";
	}
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Where the child was, as words: "step 3 NtStartProfile", "open", "close". */
static void where(const progress *p, const np_vector *v, char *buf, size_t cap)
{
	if (p->phase == PHASE_STEP && p->step >= 0 && (unsigned)p->step < v->nstep)
		snprintf(buf, cap, "step %d %s", p->step + 1, v->step[p->step].function);
	else
		snprintf(buf, cap, "%s", p->phase == PHASE_CLOSE ? "close()" : "open()");
}

static void lost_of(const progress *p, const np_vector *v, np_class cls, int status, unsigned timeout,
		    np_lost *lost)
{
	char at[NP_NAME_MAX + 32];
	where(p, v, at, sizeof at);
	lost->cls = cls;
	lost->step = p->phase == PHASE_STEP ? p->step : -1;
	lost->reached = p->reached;
	if (cls == NP_CLASS_TIMEOUT)
		snprintf(lost->why, sizeof lost->why, "%s did not return within %u s (step timeout); "
			 "its child process was ended", at, timeout);
	else if (WIFSIGNALED(status))
		snprintf(lost->why, sizeof lost->why, "%s (signal %d) in %s", signal_name(WTERMSIG(status)),
			 WTERMSIG(status), at);
	else
		snprintf(lost->why, sizeof lost->why, "its child process exited with status %d in %s",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, at);
}

/* Reads the child's rows into buf (cap bytes) until it ends or a step
 * outlasts timeout seconds. Returns how many bytes came; *status is the
 * child's wait status, *timed_out whether it was ended for the timeout. */
static size_t collect(pid_t pid, int fd, const progress *p, unsigned timeout, char *buf, size_t cap,
		      int *status, bool *timed_out)
{
	size_t got = 0;
	unsigned seen = p->seq;
	long long since = now_ms(), limit = (long long)timeout * 1000;
	*timed_out = false;
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		int ready = poll(&pfd, 1, limit < 100 ? (int)limit : 100);
		if (ready > 0) {
			ssize_t k = read(fd, buf + got, cap - got);
			if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN))
				break;
			if (k > 0)
				got += (size_t)k;
		}
		if (p->seq != seen) {
			seen = p->seq;
			since = now_ms();
		} else if (now_ms() - since >= limit) {
			kill(pid, SIGKILL);
			*timed_out = true;
			break;
		}
	}
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return got;
}

/* The most bytes a row takes down the pipe: itself, its detail, its answers. */
#define ROW_WIRE_MAX (sizeof(np_row) + sizeof(np_row_detail) + NP_PART_COUNT * sizeof(np_answer))

/* The row at wire (bytes long) into r, with copies of its detail and
 * answers of its own; the bytes it took, or 0 when it was cut off. */
static size_t unpack_row(const char *wire, size_t bytes, np_row *r)
{
	size_t at = sizeof *r;
	if (bytes < at)
		return 0;
	memcpy(r, wire, sizeof *r);
	if (!r->detail)
		return at;
	np_row_detail d;
	if (bytes - at < sizeof d)
		return 0;
	memcpy(&d, wire + at, sizeof d);
	at += sizeof d;
	for (unsigned p = 0; p < NP_PART_COUNT; p++)
		if (d.answer[p] && bytes - at >= sizeof(np_answer))
			at += sizeof(np_answer);
		else if (d.answer[p])
			return 0;
	r->detail = NULL;
	np_row_detail *mine = np_row_detail_of(r);
	*mine = d;
	at = sizeof *r + sizeof d;
	for (unsigned p = 0; p < NP_PART_COUNT; p++) {
		mine->answer[p] = NULL;
		if (d.answer[p]) {
			memcpy(np_row_answer_of(r, (np_row_part)p), wire + at, sizeof(np_answer));
			at += sizeof(np_answer);
		}
	}
	return at;
}

/* The whole rows among the bytes the child sent (at most cap), into rows;
 * how many. */
static unsigned unpack(const char *wire, size_t bytes, np_row *rows, unsigned cap)
{
	unsigned k = 0;
	for (size_t at = 0, took; k < cap && (took = unpack_row(wire + at, bytes - at, &rows[k])) > 0; k++)
		at += took;
	return k;
}

void np_isolated_rows(np_backend *b, np_backend *ref, const np_vector *v, const np_target *t,
		      unsigned n, np_row *rows, const np_isolation *how)
{
	progress *p = mmap(NULL, sizeof *p, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *wire = malloc((size_t)n * ROW_WIRE_MAX);
	unsigned next = 0;
	while (p != MAP_FAILED && wire && next < n) {
		int fds[2];
		if (pipe(fds) != 0)
			break;
		fflush(NULL);   /* nothing buffered here is written twice by the child */
		p->phase = PHASE_OPEN;
		p->step = -1;
		pid_t pid = fork();
		if (pid == 0) {
			close(fds[0]);
			child(b, ref, v, t, next, n, how, fds[1], p);
		}
		close(fds[1]);
		if (pid < 0) {
			close(fds[0]);
			break;
		}
		int status = 0;
		bool timed_out;
		size_t bytes = collect(pid, fds[0], p, b->step_timeout, wire, (n - next) * ROW_WIRE_MAX,
				       &status, &timed_out);
		close(fds[0]);
		next += unpack(wire, bytes, &rows[next], n - next);
		bool clean = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (next < n && !clean) {
			np_lost lost;
			lost_of(p, v, timed_out ? NP_CLASS_TIMEOUT : NP_CLASS_CRASHED, status, b->step_timeout,
				&lost);
			how->lost(v, t[next], &lost, &rows[next]);
			next++;
		} else if (next < n) {
			break;   /* ended well without every row: run the rest here */
		}
	}
	for (; next < n; next++)   /* no child could be had: here, unprotected */
		how->run(b, ref, v, t[next], &rows[next]);
	if (p != MAP_FAILED)
		munmap(p, sizeof *p);
	free(wire);
}

#endif
