/* SPDX-License-Identifier: MIT */
/* The fork server of the isolated runs (harness/run/zygote.c): each vector
 * in a fresh child it makes, whose implementation state is the state the
 * backend had when the server was started, never one an earlier vector
 * left; a crash or a hang ends that child only, named as a child forked
 * here would have it; an object that writes over its vector faults. Each
 * check has its twin: the same vectors in one process (what a server
 * reusing its child would give), children forked here rather than by the
 * server. */
#include "np_test.h"
#include "np_row_text.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ntprof/backend.h"
#include "ntprof/runner.h"
#include "ntprof/vector.h"
#include "run/zygote.h"

/* A backend with a count of the systems it opened in this process: a step
 * answers STATUS_SUCCESS in the first one only (code 1 from the second on),
 * as an implementation whose globals outlive a session would. It crashes
 * or hangs in the step named fatal, and refuses to begin in a child this
 * process forked itself when it wants the server's. */
typedef struct counting {
	unsigned opened;
	pid_t program;            /* nonzero: refuse to begin in a child of this process */
	const char *fatal;
	bool hang;
	bool scribble;             /* writes over the step it is given */
} counting;

static const char *counting_begin(np_backend *self, np_target t, const np_vector *v)
{
	(void)t, (void)v;
	counting *c = self->state;
	c->opened++;
	return c->program && getppid() == c->program ? "a child of the program, not of its server" : NULL;
}

static void counting_step(np_backend *self, const np_step *st, np_record *out)
{
	counting *c = self->state;
	memset(out, 0, sizeof *out);
	if (c->scribble)
		((np_step *)st)->line = -1;
	if (c->fatal && strcmp(st->function, c->fatal) == 0) {
		while (c->hang)
			pause();
		raise(SIGSEGV);
	}
	out->outcome = (np_outcome){ NP_RESULT_STATUS, c->opened > 1 };
}

static void counting_end(np_backend *self)
{
	(void)self;
}

static np_backend backend(counting *c)
{
	return (np_backend){ .name = "counting", .begin = counting_begin, .step = counting_step,
			     .end = counting_end, .state = c, .under_test = true, .step_timeout_ms = 5000 };
}

#define HEAD(id) "vector " id "\n  title   t\n  rules   QI-5\n  source  s\n"
#define QUERY    "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"

#define THREE HEAD("t/first") QUERY HEAD("t/second") QUERY HEAD("t/third") QUERY

/* The vectors of text, on l's one target. */
static void load(np_vector_set *set, np_target_list *l, const char *text)
{
	np_error err;
	memset(set, 0, sizeof *set);
	if (!np_vectors_load_text(set, "t.vec", text, strlen(text), &err))
		fail_msg("%s", err.text);
	l->count = 0;
	assert_null(np_targets_add(l, "6.1/x86"));
}

/* How many of the run's rows are of class cls. */
static unsigned count(const np_run *run, np_class cls)
{
	unsigned n = 0;
	for (unsigned i = 0; i < run->count; i++)
		n += run->row[i].cls == cls;
	return n;
}

/* Every vector in a fresh child the server made: each the first system
 * its process opened, and nothing counted here. Twin: the same vectors in
 * this one process, as a server reusing its child would run them, differ
 * from the second on; and children forked here are not the server's. */
static void test_fresh_child_per_vector(void **state)
{
	(void)state;
	np_vector_set set;
	np_target_list l;
	np_run run;
	load(&set, &l, THREE);
	counting c = { .program = getpid() };
	np_backend b = backend(&c);
	assert_true(np_zygote_start(&b, NULL));
	assert_true(np_run_vectors(&b, &set, &l, &run));
	np_zygote_stop();
	assert_int_equal(run.count, 3);
	assert_int_equal(count(&run, NP_CLASS_MATCH), 3);
	assert_int_equal(c.opened, 0);
	np_run_free(&run);

	b.step_timeout_ms = 0;   /* twin: one process for every vector */
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(count(&run, NP_CLASS_MATCH), 1);
	assert_int_equal(count(&run, NP_CLASS_STATUS_MISMATCH), 2);
	np_run_free(&run);

	c.opened = 0;   /* twin: without the server, each child is forked here */
	b.step_timeout_ms = 5000;
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(count(&run, NP_CLASS_MATCH), 0);
	np_run_free(&run);
	np_vectors_free(&set);
}

/* A server started for another backend (or another reference) does not
 * run this one's children: they are forked here, and still fresh. */
static void test_other_backend_forked_here(void **state)
{
	(void)state;
	np_vector_set set;
	np_target_list l;
	np_run run;
	load(&set, &l, THREE);
	counting c = { .program = 0 }, other = { .program = 0 };
	np_backend b = backend(&c), o = backend(&other);
	assert_true(np_zygote_start(&o, NULL));
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(count(&run, NP_CLASS_MATCH), 3);
	np_run_free(&run);
	c.program = getpid();   /* twin: the children were this process's */
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(count(&run, NP_CLASS_MATCH), 0);
	np_run_free(&run);
	np_zygote_stop();
	np_vectors_free(&set);
}

/* A crash in the server's child ends its row as crashed, naming the
 * signal and the step; a hang is ended after the step timeout; the next
 * vector gets a new child. Twin: without the fault, every row matches. */
static void test_served_crash_and_hang(void **state)
{
	(void)state;
	np_vector_set set;
	np_target_list l;
	np_run run;
	load(&set, &l, THREE);
	counting c = { .program = getpid(), .fatal = "NtQueryIntervalProfile" };
	np_backend b = backend(&c);
	assert_true(np_zygote_start(&b, NULL));
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(count(&run, NP_CLASS_CRASHED), 3);
	if (!strstr(ROW_NOTE(&run.row[0]), "SIGSEGV (signal 11) in step 1 NtQueryIntervalProfile"))
		fail_msg("note \"%s\"", ROW_NOTE(&run.row[0]));
	np_run_free(&run);
	np_zygote_stop();

	np_vector_set one;   /* a hang costs the step timeout: one vector */
	load(&one, &l, HEAD("t/hangs") QUERY);
	c.hang = true;
	b.step_timeout_ms = np_test_hang_ms();   /* not the 5 s the other steps get */
	char note[96];
	snprintf(note, sizeof note, "step 1 NtQueryIntervalProfile did not return within %g s",
		 b.step_timeout_ms / 1000.0);
	assert_true(np_zygote_start(&b, NULL));
	assert_true(np_run_vectors(&b, &one, &l, &run));
	np_vectors_free(&one);
	assert_int_equal(count(&run, NP_CLASS_TIMEOUT), 1);
	if (!strstr(ROW_NOTE(&run.row[0]), note))
		fail_msg("note \"%s\"", ROW_NOTE(&run.row[0]));
	np_run_free(&run);
	np_zygote_stop();

	c.fatal = NULL;   /* twin */
	c.hang = false;
	b.step_timeout_ms = 5000;
	assert_true(np_zygote_start(&b, NULL));
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(count(&run, NP_CLASS_MATCH), 3);
	np_run_free(&run);
	np_zygote_stop();
	np_vectors_free(&set);
}

/* An object that writes over the vector it runs ends its own row with
 * SIGSEGV: a child's copy of its vector is read-only there. Twin: in this
 * one process, where the vectors are its own, the same write goes through. */
static void test_vector_read_only_in_child(void **state)
{
	(void)state;
	np_vector_set set;
	np_target_list l;
	np_run run;
	load(&set, &l, THREE);
	counting c = { .program = getpid(), .scribble = true };
	np_backend b = backend(&c);
	assert_true(np_zygote_start(&b, NULL));
	assert_true(np_run_vectors(&b, &set, &l, &run));
	np_zygote_stop();
	assert_int_equal(count(&run, NP_CLASS_CRASHED), 3);
	if (!strstr(ROW_NOTE(&run.row[0]), "SIGSEGV (signal 11) in step 1 NtQueryIntervalProfile"))
		fail_msg("note \"%s\"", ROW_NOTE(&run.row[0]));
	assert_int_equal(set.v[0].step[0].line, 5);   /* the program's own copy, untouched */
	np_run_free(&run);

	b.step_timeout_ms = 0;   /* twin: in this process */
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(count(&run, NP_CLASS_CRASHED), 0);
	assert_int_equal(set.v[0].step[0].line, -1);
	np_run_free(&run);
	np_vectors_free(&set);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_fresh_child_per_vector),
	cmocka_unit_test(test_other_backend_forked_here),
	cmocka_unit_test(test_served_crash_and_hang),
	cmocka_unit_test(test_vector_read_only_in_child),
};

NP_TEST_MAIN(tests)
