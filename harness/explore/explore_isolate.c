/* SPDX-License-Identifier: MIT */
/* explore against an implementation under test, isolated as `run` isolates
 * it (harness/run/isolate.c): each combination's evaluation runs in a child
 * process (run/zygote.h: made by the fork server, or forked here), which
 * writes its records into memory it shares with the parent and then ends,
 * so nothing an implementation does to its own state outlives one
 * combination. A child that dies or whose step outlasts
 * the step timeout is ended; that target's record at that step becomes a
 * crashed outcome saying why, and a new child takes the next target. */
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

#include <signal.h>

#include "run/zygote.h"

/* One combination, in the memory shared with the child (np_zygote_arena):
 * what it evaluates, its records, and where it is. */
typedef struct job {
	np_backend *b;
	const np_vector *v;         /* a copy in the arena */
	np_target_list l;
	np_xresults r;
	volatile unsigned seq;      /* moves on at every target and step */
	volatile unsigned target;   /* the target it is on */
	volatile int step;          /* the step it is in, -1 in open */
} job;

/* The child's view of b: b itself, noting each step in the shared page. */
typedef struct watched {
	np_backend *inner;
	job *j;
} watched;

static const char *watched_begin(np_backend *self, np_target t, const np_vector *v)
{
	watched *w = self->state;
	w->j->step = -1;
	w->j->seq++;
	return w->inner->begin(w->inner, t, v);
}

static void watched_step(np_backend *self, const np_step *st, np_record *rec)
{
	watched *w = self->state;
	w->j->step++;
	w->j->seq++;
	w->inner->step(w->inner, st, rec);
}

static void watched_end(np_backend *self)
{
	watched *w = self->state;
	w->inner->end(w->inner);
	w->j->target++;
	w->j->seq++;
}

/* The child: the targets from j->target on. */
static void child(void *arg)
{
	job *j = arg;
	np_arena_readonly_from(j->v);
	watched w = { j->b, j };
	np_backend view = *j->b;
	view.begin = watched_begin;
	view.step = watched_step;
	view.end = watched_end;
	view.state = &w;
	np_xevaluate_here(&view, j->v, &j->l, j->target, &j->r);
}

/* The record of a target whose child ended in it: crashed at its step. */
static void lost(job *j, const np_vector *v, bool timed_out, const np_child_end *end, unsigned timeout_ms)
{
	unsigned t = j->target;
	int s = j->step < 0 ? 0 : j->step;
	np_record *rec = &j->r.rec[t][s];
	memset(rec, 0, sizeof *rec);
	rec->outcome.kind = NP_RESULT_CRASHED;
	if (timed_out)
		snprintf(rec->why, sizeof rec->why, "step %d %s did not return within %.9g s (step timeout)",
			 s + 1, v->step[s].function, timeout_ms / 1000.0);
	else if (end->signal)
		snprintf(rec->why, sizeof rec->why, "signal %d in step %d %s", end->signal, s + 1,
			 v->step[s].function);
	else
		snprintf(rec->why, sizeof rec->why, "its child process exited in step %d %s", s + 1,
			 v->step[s].function);
	rec->outcome.code = timed_out ? 0 : (uint32_t)end->signal;
	j->r.refused[t] = false;
	for (unsigned k = (unsigned)s + 1; k < v->nstep; k++)
		j->r.rec[t][k] = *rec;   /* the later steps never ran */
}

/* The job of v on l laid out in the arena, or NULL when it cannot be had. */
static job *job_of(np_backend *b, const np_vector *v, const np_target_list *l)
{
	size_t left;
	char *at = np_zygote_arena(&left);
	job *j = (job *)at;
	if (!j || left < sizeof *j)
		return NULL;
	at += sizeof *j;
	left -= sizeof *j;
	if (!(j->v = np_vector_copy_to(&at, &left, v)))
		return NULL;
	j->b = b;
	j->l = *l;
	j->r.nstep = v->nstep;
	j->target = 0;
	return j;
}

unsigned long np_xevaluate_isolated(np_backend *b, const np_vector *v, const np_target_list *l,
				    np_xresults *r)
{
	job *j = job_of(b, v, l);
	if (!j)
		return np_xevaluate_here(b, v, l, 0, r);
	while (j->target < l->count) {
		j->step = -1;
		np_child c;
		if (!np_child_start(&c, b, NULL, child, j))
			return np_xevaluate_here(b, v, l, 0, r);
		np_child_end end;
		bool timed_out = np_child_watch(&c, &j->seq, b->step_timeout_ms, &end);
		if (!timed_out && !end.signal && !end.status)
			break;
		if (j->target < l->count) {
			lost(j, v, timed_out, &end, b->step_timeout_ms);
			j->target++;
		}
	}
	r->nstep = v->nstep;
	memcpy(r->refused, j->r.refused, l->count * sizeof *r->refused);
	for (unsigned t = 0; t < l->count; t++)
		memcpy(r->rec[t], j->r.rec[t], v->nstep * sizeof *r->rec[t]);
	return l->count;
}

#endif
