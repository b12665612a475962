/* SPDX-License-Identifier: MIT */
/* An implementation under test (np_backend.under_test): what the runner
 * does not ask of it (not-required, not-implemented), what it must answer
 * (unanswered), the coverage of a run (harness/run/coverage.c), and each
 * vector in a child process (harness/run/isolate.c): a crash and a hang end
 * their row only. Each check has its twin: the same backend not under test,
 * or the same run without the fault. */
#include "np_test.h"
#include "np_row_text.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ntprof/backend.h"
#include "ntprof/capability.h"
#include "ntprof/coverage.h"
#include "ntprof/runner.h"
#include "ntprof/vector.h"
#include "ntprof/version.h"

/* A backend that answers every step with one result kind (code 0), or
 * crashes or hangs in the step named fatal. */
typedef struct scripted {
	np_result_kind kind;
	unsigned begins, steps;
	const char *lacks;        /* the function it does not implement, or NULL */
	const char *fatal;        /* the function in which it fails, or NULL */
	bool hang;                /* fatal: hang rather than crash */
	const char *refuses;      /* begin refuses every vector, saying this; or NULL */
	const char *undeclared;   /* the capability it does not declare, or NULL */
} scripted;

static const char *scripted_begin(np_backend *self, np_target t, const np_vector *v)
{
	(void)t, (void)v;
	((scripted *)self->state)->begins++;
	return ((scripted *)self->state)->refuses;
}

static bool scripted_can(np_backend *self, const char *capability)
{
	const scripted *s = self->state;
	return !s->undeclared || strcmp(capability, s->undeclared) != 0;
}

static void scripted_step(np_backend *self, const np_step *st, np_record *out)
{
	scripted *s = self->state;
	memset(out, 0, sizeof *out);
	s->steps++;
	if (s->fatal && strcmp(st->function, s->fatal) == 0) {
		while (s->hang)
			pause();
		raise(SIGSEGV);
	}
	out->outcome.kind = s->kind;
}

static void scripted_end(np_backend *self)
{
	(void)self;
}

static bool scripted_implements(np_backend *self, const char *function)
{
	const scripted *s = self->state;
	return !s->lacks || strcmp(function, s->lacks) != 0;
}

static np_backend backend(scripted *s, bool under_test)
{
	return (np_backend){ .name = "scripted", .begin = scripted_begin, .step = scripted_step,
			     .end = scripted_end, .state = s, .under_test = under_test,
			     .implements = scripted_implements, .can = scripted_can };
}

static void load(np_vector_set *set, const char *text)
{
	np_error err;
	memset(set, 0, sizeof *set);
	if (!np_vectors_load_text(set, "t.vec", text, strlen(text), &err))
		fail_msg("%s", err.text);
}

static np_target target(const char *text)
{
	np_target_list l = { .count = 0 };
	const char *e = np_targets_add(&l, text);
	if (e || l.count != 1)
		fail_msg("%s: %s", text, e ? e : "not one target");
	return l.t[0];
}

#define HEAD(id) "vector " id "\n  title   t\n  rules   QI-5\n  source  s\n"
#define QUERY    "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"

static void assert_class(const np_row *row, np_class cls, const char *note)
{
	if (row->cls != cls)
		fail_msg("%s: class %s, want %s (note \"%s\")", row->vector->id, np_class_name(row->cls),
			 np_class_name(cls), ROW_NOTE(row));
	if (note && !strstr(ROW_NOTE(row), note))
		fail_msg("%s: note \"%s\" lacks \"%s\"", row->vector->id, ROW_NOTE(row), note);
}

/* A model-only vector is not asked of it: never begun. */
static void test_model_only_not_required(void **state)
{
	(void)state;
	np_vector_set set;
	np_row row;
	scripted s = { .kind = NP_RESULT_STATUS };
	load(&set, HEAD("t/model-only") "  flags   model-only\n" QUERY);
	np_backend b = backend(&s, true);
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_NOT_REQUIRED, "model-only vector");
	assert_int_equal(s.begins, 0);
	b = backend(&s, false);   /* twin: the reference runs it */
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_MATCH, NULL);
	assert_int_equal(s.begins, 1);
	np_vectors_free(&set);
}

/* A vector needing a capability it does not declare is not asked of it,
 * the capability named; declared, the same vector is run. */
static void test_capability_not_declared(void **state)
{
	(void)state;
	np_vector_set set;
	np_row row;
	scripted s = { .kind = NP_RESULT_STATUS, .undeclared = "given:hal=emon" };
	load(&set, HEAD("t/hal") "  given   hal=emon\n" QUERY);
	np_backend b = backend(&s, true);
	np_run_one(&b, &set.v[0], target("6.2/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_NOT_REQUIRED, "needs given:hal=emon, which it does not declare");
	assert_int_equal(row.lacking, 1);
	assert_int_equal(s.begins, 0);
	s.undeclared = "given:cpus";   /* twin: hal declared */
	np_run_one(&b, &set.v[0], target("6.2/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_MATCH, NULL);
	assert_int_equal(row.lacking, 0);
	assert_int_equal(s.begins, 1);
	np_vectors_free(&set);
}

/* What a vector needs: its steps beyond the calls, its givens beyond a
 * live system's, its vanishing memory; each once. */
static void test_vector_needs(void **state)
{
	(void)state;
	np_vector_set set;
	np_needs n;
	load(&set, HEAD("t/needs") "  given   privilege=on mode=user cpus=4 cpu3.vendor=amd hal.ProfileTime.min=10 K-QI-ALIGN=checked\n"
	     "  call NtQueryIntervalProfile Interval=vanishing\n  expect STATUS_SUCCESS\n"
	     "  call Interrupts Pc=0x1000 Count=2\n  expect\n  call Interrupt Pc=0x1000\n  expect\n");
	np_vector_needs(&set.v[0], &n);
	static const char *const want[] = { "given:cpus", "given:vendor", "given:hal", "given:K-QI-ALIGN=checked",
					    "pointer:vanishing", "Interrupt" };
	assert_int_equal(n.count, sizeof want / sizeof *want);
	for (unsigned i = 0; i < n.count; i++)
		assert_string_equal(n.name[i], want[i]);
	static const char *const declared[] = { "given:K-QI-ALIGN", "Interrupt", NULL };
	assert_true(np_capability_declared(declared, "given:K-QI-ALIGN=checked"));
	assert_false(np_capability_declared(declared, "given:K-QI-ALIGNX=checked"));
	assert_false(np_capability_declared(declared, "Inject"));
	assert_true(np_capability_name("given:hal") && np_capability_name("Protect"));
	assert_false(np_capability_name("NtStartProfile") || np_capability_name("ReadBuffer") ||
		     np_capability_name("Interrupts") || np_capability_name("given:"));
	np_vectors_free(&set);
}

/* A knob reading claimed: its name and value are those of ntprof/knobs.h
 * (a misspelt one is no claim), it takes the vectors giving that value and
 * not the other, and it is found by its knob alone. */
static void test_reading_claims(void **state)
{
	(void)state;
	assert_true(np_capability_name("reading:K-HAL-RATE=power-of-two") &&
		    np_capability_name("reading:K-MDL-LIMIT=none"));
	assert_false(np_capability_name("reading:K-HAL-RATE=power-of-2") ||
		     np_capability_name("reading:K-HAL-RAT=power-of-two") ||
		     np_capability_name("reading:K-HAL-RATE") || np_capability_name("reading:privilege=on"));
	static const char *const declared[] = { "NtSetIntervalProfile", "reading:K-HAL-RATE=power-of-two", NULL };
	assert_true(np_capability_declared(declared, "given:K-HAL-RATE=power-of-two"));
	assert_false(np_capability_declared(declared, "given:K-HAL-RATE=exact"));
	char value[32];
	assert_non_null(np_capability_reading(declared, "K-HAL-RATE", value, sizeof value));
	assert_string_equal(value, "power-of-two");
	assert_null(np_capability_reading(declared, "K-HAL-CLAMP", value, sizeof value));
	assert_null(np_capability_reading(declared, "K-HAL", value, sizeof value));
}

/* A state within what it declares must be taken: refused, the row is
 * unanswered, unless the model cannot take it either (a HAL interface the
 * version lacks, KS-3); --allow-not-applicable keeps it not-applicable. */
static void test_refused_state(void **state)
{
	(void)state;
	np_vector_set set;
	np_row row;
	scripted s = { .kind = NP_RESULT_STATUS, .refuses = "not modelled here" };
	load(&set, HEAD("t/refused") QUERY HEAD("t/emon") "  given   hal=emon\n" QUERY);
	np_backend b = backend(&s, true);
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_UNANSWERED, "it refused a state within what it declares: not modelled here");
	np_run_one(&b, &set.v[1], target("4.0/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_NOT_REQUIRED, "the model cannot take it either");
	b.allow_not_applicable = true;   /* twin */
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_NOT_APPLICABLE, "not modelled here");
	np_vectors_free(&set);
}

/* A vector resting on a knob whose reading the object declares is judged
 * under that reading, and the row says so; a state refused there is still
 * unanswered. Its twin: the same vector on an object declaring no reading. */
static void test_reading_refused(void **state)
{
	(void)state;
	np_vector_set set;
	np_row row;
	scripted s = { .kind = NP_RESULT_STATUS, .refuses = "not modelled here" };
	load(&set, HEAD("t/rests") "  flags   unknown:K-HAL-RATE\n" QUERY);
	static const char *const claims[] = { "reading:K-HAL-RATE=power-of-two", NULL };
	np_backend b = backend(&s, true);
	b.declared = claims;
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_UNANSWERED, "it refused a state within what it declares: not modelled here");
	assert_string_equal(np_row_reading(&row), "K-HAL-RATE=power-of-two");
	b.declared = NULL;   /* twin */
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_UNANSWERED, "it refused a state within what it declares: not modelled here");
	assert_string_equal(np_row_reading(&row), "");
	np_vectors_free(&set);
}

/* Steps before one that expects not-applicable are asked and judged: the
 * row stands on them. */
static void test_judged_to_the_step_before(void **state)
{
	(void)state;
	np_vector_set set;
	np_row row;
	scripted s = { .kind = NP_RESULT_STATUS };
	load(&set, HEAD("t/partly") QUERY "  call NtQueryIntervalProfile\n  expect not-applicable\n");
	np_backend b = backend(&s, true);
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_MATCH, "judged to the step before: step 2 expects not-applicable");
	assert_int_equal(s.steps, 1);
	np_vectors_free(&set);
}

/* A step that expects not-applicable is not asked: the row stops there. */
static void test_expects_not_applicable_not_required(void **state)
{
	(void)state;
	np_vector_set set;
	np_row row;
	scripted s = { .kind = NP_RESULT_NOT_APPLICABLE };
	load(&set, HEAD("t/expects-na") "  call NtQueryIntervalProfile\n  expect not-applicable\n");
	np_backend b = backend(&s, true);
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_NOT_REQUIRED, "step 1 expects not-applicable");
	assert_int_equal(s.steps, 0);
	b = backend(&s, false);   /* twin: the reference's not-applicable matches */
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_MATCH, NULL);
	np_vectors_free(&set);
}

/* Not-applicable where a result is expected: unanswered, a failure, unless
 * allowed; on the reference, not-applicable as ever. */
static void test_unanswered(void **state)
{
	(void)state;
	np_vector_set set;
	np_row row;
	scripted s = { .kind = NP_RESULT_NOT_APPLICABLE };
	load(&set, HEAD("t/unanswered") QUERY);
	np_backend b = backend(&s, true);
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_UNANSWERED, NULL);
	assert_true(np_class_is_failure(row.cls));
	assert_int_equal(row.reached, 0);
	b.allow_not_applicable = true;
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_NOT_APPLICABLE, NULL);
	b = backend(&s, false);
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_NOT_APPLICABLE, NULL);
	np_vectors_free(&set);
}

/* A vector calling a function it does not implement is not run. */
static void test_not_implemented(void **state)
{
	(void)state;
	np_vector_set set;
	np_row row;
	scripted s = { .kind = NP_RESULT_STATUS, .lacks = "NtQueryIntervalProfile" };
	/* the Zw spelling is the same function */
	load(&set, HEAD("t/lacking") "  call ZwQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	np_backend b = backend(&s, true);
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_NOT_IMPLEMENTED, "step 1 calls NtQueryIntervalProfile, which is not implemented");
	assert_int_equal(s.begins, 0);
	s.lacks = "NtSetIntervalProfile";   /* twin: lacking another one */
	np_run_one(&b, &set.v[0], target("6.1/x86"), &row);
	np_keep_row(&row);
	assert_class(&row, NP_CLASS_MATCH, NULL);
	np_vectors_free(&set);
}

/* The coverage counts the rows asked of it, and those it answered. */
static void test_coverage(void **state)
{
	(void)state;
	np_vector_set set;
	np_run run;
	np_coverage c;
	np_target_list l = { .count = 0 };
	scripted s = { .kind = NP_RESULT_STATUS };
	load(&set, HEAD("t/a") QUERY HEAD("t/b") "  flags   model-only\n" QUERY
		HEAD("t/c") "  given privilege=on\n  call NtSetIntervalProfile Interval=5000\n"
		"  expect STATUS_SUCCESS\n" QUERY);
	assert_null(np_targets_add(&l, "6.1/x86"));
	assert_null(np_targets_add(&l, "6.2/x86"));
	np_backend b = backend(&s, true);
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_true(run.under_test);
	np_coverage_count(&run, &c);
	assert_int_equal(c.required, 4);   /* t/b is not required */
	assert_int_equal(c.exercised, 4);
	assert_int_equal(c.nfn, 2);
	assert_string_equal(c.fn[0].name, "NtSetIntervalProfile");
	assert_int_equal(c.fn[0].required, 2);
	assert_int_equal(c.fn[0].exercised, 2);
	assert_string_equal(c.fn[1].name, "NtQueryIntervalProfile");
	assert_int_equal(c.fn[1].required, 4);
	np_run_free(&run);
	s.kind = NP_RESULT_NOT_APPLICABLE;   /* twin: it answers nothing */
	assert_true(np_run_vectors(&b, &set, &l, &run));
	np_coverage_count(&run, &c);
	assert_int_equal(c.required, 4);
	assert_int_equal(c.exercised, 0);
	assert_int_equal(c.fn[1].exercised, 0);
	np_run_free(&run);
	np_vectors_free(&set);
}

/* A crash in a child ends its row as crashed at that step, naming the
 * signal (whatever handler this process has: cmocka's, a sanitizer's); the
 * other targets and vectors go on. */
static void test_isolated_crash(void **state)
{
	(void)state;
	np_vector_set set;
	np_run run;
	np_target_list l = { .count = 0 };
	scripted s = { .kind = NP_RESULT_STATUS, .fatal = "NtSetIntervalProfile" };
	load(&set, HEAD("t/crash") "  given privilege=on\n" QUERY
		"  call NtSetIntervalProfile Interval=5000\n  expect STATUS_SUCCESS\n" HEAD("t/fine") QUERY);
	assert_null(np_targets_add(&l, "6.1/x86"));
	assert_null(np_targets_add(&l, "6.2/x86"));
	np_backend b = backend(&s, true);
	b.step_timeout_ms = 5000;
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(run.count, 4);
	for (unsigned i = 0; i < 2; i++) {
		assert_class(&run.row[i], NP_CLASS_CRASHED, "SIGSEGV (signal 11) in step 2 NtSetIntervalProfile");
		assert_int_equal(run.row[i].step, 1);
		assert_true(run.row[i].reached != 0);   /* step 1 was answered before */
	}
	assert_class(&run.row[2], NP_CLASS_MATCH, NULL);
	assert_class(&run.row[3], NP_CLASS_MATCH, NULL);
	assert_int_equal(run.tally[NP_CLASS_CRASHED], 2);
	assert_int_equal(s.steps, 0);   /* the children's counts stay theirs */
	np_run_free(&run);
	s.fatal = NULL;   /* twin: without the fault, every row matches */
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(run.tally[NP_CLASS_MATCH], 4);
	np_run_free(&run);
	np_vectors_free(&set);
}

/* A step that does not return is ended after the timeout: timeout, naming it. */
static void test_isolated_hang(void **state)
{
	(void)state;
	np_vector_set set;
	np_run run;
	np_target_list l = { .count = 0 };
	scripted s = { .kind = NP_RESULT_STATUS, .fatal = "NtQueryIntervalProfile", .hang = true };
	load(&set, HEAD("t/hang") QUERY);
	assert_null(np_targets_add(&l, "6.1/x86"));
	np_backend b = backend(&s, true);
	b.step_timeout_ms = np_test_hang_ms();
	char note[96];
	snprintf(note, sizeof note, "step 1 NtQueryIntervalProfile did not return within %g s",
		 b.step_timeout_ms / 1000.0);
	assert_true(np_run_vectors(&b, &set, &l, &run));
	assert_int_equal(run.count, 1);
	assert_class(&run.row[0], NP_CLASS_TIMEOUT, note);
	assert_true(np_class_is_failure(run.row[0].cls));
	assert_string_equal(ROW_EXPECTED(&run.row[0]), "STATUS_SUCCESS (0x00000000)");
	np_run_free(&run);
	np_vectors_free(&set);
}

/* A mismatching row run in a child process comes back whole: its expected
 * and got answers and its note travel after it down the pipe. The twin is
 * the same run in this process, which must say exactly the same. */
static void test_isolated_detail(void **state)
{
	(void)state;
	np_vector_set set;
	np_run run, here;
	np_target_list l = { .count = 0 };
	scripted s = { .kind = NP_RESULT_WIN32 };
	load(&set, HEAD("t/differs") QUERY HEAD("t/also") QUERY);
	assert_null(np_targets_add(&l, "6.1/x86"));
	assert_null(np_targets_add(&l, "6.2/x86"));
	np_backend b = backend(&s, true);
	b.step_timeout_ms = 5000;
	assert_true(np_run_vectors(&b, &set, &l, &run));
	b.step_timeout_ms = 0;
	assert_true(np_run_vectors(&b, &set, &l, &here));
	assert_int_equal(run.count, 4);
	assert_int_equal(run.tally[NP_CLASS_STATUS_MISMATCH], 4);
	for (unsigned i = 0; i < run.count; i++) {
		assert_non_null(run.row[i].detail);
		assert_ptr_not_equal(run.row[i].detail, here.row[i].detail);   /* each its own */
		assert_string_equal(ROW_EXPECTED(&run.row[i]), "STATUS_SUCCESS (0x00000000)");
		assert_string_equal(ROW_GOT(&run.row[i]), "ERROR_SUCCESS (0)");
		assert_string_equal(ROW_GOT(&run.row[i]), ROW_GOT(&here.row[i]));
		assert_string_equal(ROW_NOTE(&run.row[i]), ROW_NOTE(&here.row[i]));
	}
	np_run_free(&run);
	np_run_free(&here);
	np_vectors_free(&set);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_model_only_not_required),
	cmocka_unit_test(test_expects_not_applicable_not_required),
	cmocka_unit_test(test_unanswered),
	cmocka_unit_test(test_capability_not_declared),
	cmocka_unit_test(test_vector_needs),
	cmocka_unit_test(test_reading_claims),
	cmocka_unit_test(test_refused_state),
	cmocka_unit_test(test_reading_refused),
	cmocka_unit_test(test_judged_to_the_step_before),
	cmocka_unit_test(test_not_implemented),
	cmocka_unit_test(test_coverage),
	cmocka_unit_test(test_isolated_crash),
	cmocka_unit_test(test_isolated_hang),
	cmocka_unit_test(test_isolated_detail),
};

NP_TEST_MAIN(tests)
