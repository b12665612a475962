/* SPDX-License-Identifier: MIT */
/* A vector's rows in a child process (run/zygote.h: made by the fork
 * server, or forked here). The child runs the rows and writes each one
 * whole into memory it shares with the parent, where it also notes which
 * row and step it is in, so that when it dies or stops answering the
 * parent can say where. A child per vector rather than per step keeps a
 * full run about as fast as one in this process. */
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

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/zygote.h"

enum phase { PHASE_OPEN, PHASE_STEP, PHASE_CLOSE };

/* Written by the child, read by the parent. */
typedef struct progress {
	volatile unsigned seq;    /* moves on at every open, step and close */
	volatile int phase;       /* enum phase */
	volatile int step;        /* PHASE_STEP: the step (0-based) */
	volatile uint32_t reached;   /* the row's np_row.reached so far */
} progress;

/* One vector's rows, in the memory shared with the child (np_zygote_arena):
 * what it runs, where it is, and the rows it has ended, each written whole
 * into wire before used counts it. */
typedef struct job {
	np_backend *b, *ref;
	const np_isolation *how;
	const np_vector *v;       /* a copy in the arena */
	np_target *t;
	unsigned first, n;
	progress p;
	volatile size_t used;
	size_t cap;
	char *wire;
} job;

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

/* The most bytes a row takes in the wire: itself, its detail, its answers. */
#define ROW_WIRE_MAX (sizeof(np_row) + sizeof(np_row_detail) + NP_PART_COUNT * sizeof(np_answer))

static void put(job *j, size_t *at, const void *what, size_t size)
{
	if (size > j->cap - *at)
		_exit(1);   /* LCOV_EXCL_LINE: the wire holds n rows of ROW_WIRE_MAX */
	memcpy(j->wire + *at, what, size);
	*at += size;
}

/* Appends row to j's wire, then its detail and the answers it has, if any;
 * counted in used only when whole. */
static void send_row(job *j, const np_row *row)
{
	size_t at = j->used;
	put(j, &at, row, sizeof *row);
	for (unsigned p = 0; row->detail && p <= NP_PART_COUNT; p++) {
		const void *what = p == 0 ? (const void *)row->detail : row->detail->answer[p - 1];
		if (what)
			put(j, &at, what, p == 0 ? sizeof *row->detail : sizeof(np_answer));
	}
	j->used = at;
}

/* The child: rows first..n-1, each into the wire as it ends. */
static void child(void *arg)
{
	job *j = arg;
	np_arena_readonly_from(j->v);
	watched w = { j->b, &j->p };
	np_backend view = *j->b;
	view.begin = watched_begin;
	view.step = watched_step;
	view.end = watched_end;
	view.skip = j->b->skip ? watched_skip : NULL;
	view.implements = j->b->implements ? watched_implements : NULL;
	view.can = j->b->can ? watched_can : NULL;
	view.state = &w;
	for (unsigned i = j->first; i < j->n; i++) {
		np_row row;
		j->how->run(&view, j->ref, j->v, j->t[i], &row);
		send_row(j, &row);
		np_row_free(&row);
	}
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

/* Where the child was, as words: "step 3 NtStartProfile", "open", "close". */
static void where(const progress *p, const np_vector *v, char *buf, size_t cap)
{
	if (p->phase == PHASE_STEP && p->step >= 0 && (unsigned)p->step < v->nstep)
		snprintf(buf, cap, "step %d %s", p->step + 1, v->step[p->step].function);
	else
		snprintf(buf, cap, "%s", p->phase == PHASE_CLOSE ? "close()" : "open()");
}

static void lost_of(const progress *p, const np_vector *v, np_class cls, const np_child_end *end,
		    unsigned timeout_ms, np_lost *lost)
{
	char at[NP_NAME_MAX + 32];
	where(p, v, at, sizeof at);
	lost->cls = cls;
	lost->step = p->phase == PHASE_STEP ? p->step : -1;
	lost->reached = p->reached;
	if (cls == NP_CLASS_TIMEOUT)
		snprintf(lost->why, sizeof lost->why, "%s did not return within %.9g s (step timeout); "
			 "its child process was ended", at, timeout_ms / 1000.0);
	else if (end->signal)
		snprintf(lost->why, sizeof lost->why, "%s (signal %d) in %s", signal_name(end->signal),
			 end->signal, at);
	else
		snprintf(lost->why, sizeof lost->why, "its child process exited with status %d in %s",
			 end->status, at);
}

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

/* The whole rows among the bytes the child wrote (at most cap), into rows,
 * each naming v (the child named its copy); how many. */
static unsigned unpack(const char *wire, size_t bytes, const np_vector *v, np_row *rows, unsigned cap)
{
	unsigned k = 0;
	for (size_t at = 0, took; k < cap && (took = unpack_row(wire + at, bytes - at, &rows[k])) > 0; k++) {
		rows[k].vector = v;
		at += took;
	}
	return k;
}

/* The most rows a vector has: one per target. */
#define ROWS_MAX (sizeof ((np_target_list *)0)->t / sizeof(np_target))

/* The job of v on t[0..n-1] laid out in the arena, or NULL when it cannot
 * be had or does not fit. The wire comes first, the same bytes for every
 * vector: only the child writes there (valgrind, tracing this process
 * alone, would take for unwritten the bytes of an earlier copy there). */
static job *job_of(np_backend *b, np_backend *ref, const np_vector *v, const np_target *t, unsigned n,
		   const np_isolation *how)
{
	size_t left, wire = ROWS_MAX * ROW_WIRE_MAX;
	char *at = np_zygote_arena(&left);
	job *j = (job *)at;
	if (!j || n > ROWS_MAX || left < sizeof *j + wire + n * sizeof *t)
		return NULL;
	memset(j, 0, sizeof *j);
	j->wire = at + sizeof *j;
	j->cap = wire;
	j->t = memcpy(j->wire + wire, t, n * sizeof *t);
	at = (char *)(j->t + n);
	left -= sizeof *j + wire + n * sizeof *t;
	if (!(j->v = np_vector_copy_to(&at, &left, v)))
		return NULL;
	j->b = b;
	j->ref = ref;
	j->how = how;
	j->n = n;
	return j;
}

void np_isolated_rows(np_backend *b, np_backend *ref, const np_vector *v, const np_target *t,
		      unsigned n, np_row *rows, const np_isolation *how)
{
	job *j = n ? job_of(b, ref, v, t, n, how) : NULL;
	unsigned next = 0;
	while (j && next < n) {
		j->first = next;
		j->used = 0;
		j->p.phase = PHASE_OPEN;
		j->p.step = -1;
		np_child c;
		if (!np_child_start(&c, b, ref, child, j))
			break;
		np_child_end end;
		bool timed_out = np_child_watch(&c, &j->p.seq, b->step_timeout_ms, &end);
		next += unpack(j->wire, j->used, v, &rows[next], n - next);
		bool clean = !timed_out && !end.signal && !end.status;
		if (next < n && !clean) {
			np_lost lost;
			lost_of(&j->p, v, timed_out ? NP_CLASS_TIMEOUT : NP_CLASS_CRASHED, &end, b->step_timeout_ms,
				&lost);
			how->lost(v, t[next], &lost, &rows[next]);
			next++;
		} else if (next < n) {
			break;   /* ended well without every row: run the rest here */
		}
	}
	for (; next < n; next++)   /* no child could be had: here, unprotected */
		how->run(b, ref, v, t[next], &rows[next]);
}

#endif
