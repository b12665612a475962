/* SPDX-License-Identifier: MIT */
/* What a live backend decides before a vector runs (harness/run/safety.c): the
 * global intervals the vector may set, and whether it may fault or
 * bug-check a real kernel; and the runner's `skip` hook that turns such a
 * decision into a skipped row. */
#include "np_test.h"
#include "np_row_text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/runner.h"
#include "ntprof/backend.h"
#include "ntprof/vector.h"
#include "run/safety.h"

#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif

#define HEAD(id) "vector " id "\n  title t\n  rules SI-1\n  source derived\n"

typedef struct fx {
	np_vector_set set;
	np_backend *model;
	np_run run;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f || !(f->model = np_backend_model_new())) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	np_run_free(&f->run);
	f->model->destroy(f->model);
	np_vectors_free(&f->set);
	free(f);
	return 0;
}

static const np_vector *load(fx *f, const char *text)
{
	np_error err;
	if (!np_vectors_load_text(&f->set, "mem.vec", text, strlen(text), &err))
		fail_msg("%s", err.text);
	return &f->set.v[f->set.count - 1];
}

static np_target target(const char *text)
{
	np_target_list l = { .count = 0 };
	if (np_targets_add(&l, text) || l.count != 1)
		fail_msg("bad target %s", text);
	return l.t[0];
}

/* Every interval-setting step names its source once, in step order; queries,
 * other Trace* classes and class 0x81 set none. */
static void test_safety_interval_sources(void **state)
{
	fx *f = *state;
	const np_vector *v = load(f, HEAD("safety/sources")
		"  call NtQueryIntervalProfile Source=3\n  expect STATUS_SUCCESS\n"
		"  call NtSetIntervalProfile Interval=1000 Source=ProfileAlignmentFixup\n  expect STATUS_SUCCESS\n"
		"  call ZwSetIntervalProfile Interval=1000\n  expect STATUS_SUCCESS\n"
		"  call TraceSetInformation InformationClass=7 Source=9\n  expect ERROR_NOT_SUPPORTED\n"
		"  call TraceSetInformation Interval=5000\n  expect ERROR_SUCCESS\n"
		"  call TraceSetInformation Source=2 Interval=5000\n  expect ERROR_SUCCESS\n"
		"  call NtSetSystemInformation Allocate=1\n  expect STATUS_SUCCESS\n"
		"  call NtSetSystemInformation InformationClass=0x1F EventTraceClass=3 ProfileInterval=9\n"
		"  expect STATUS_SUCCESS\n"
		"  call NtSetIntervalProfile Interval=1 Source=1\n  expect STATUS_SUCCESS\n");
	np_global g[8];
	unsigned n = np_vector_globals(v, g, 8);
	assert_int_equal(n, 4);
	assert_true(np_global_equal(g[0], (np_global){ NP_GLOBAL_INTERVAL, 1 }));
	assert_true(np_global_equal(g[1], (np_global){ NP_GLOBAL_INTERVAL, 0 }));
	assert_true(np_global_equal(g[2], (np_global){ NP_GLOBAL_ETW_TIME, 0 }));   /* TR-4 */
	assert_true(np_global_equal(g[3], (np_global){ NP_GLOBAL_INTERVAL, 2 }));   /* TR-6 */
	assert_false(np_global_equal(g[1], g[2]));   /* fail twin: ProfileTime is not the ETW interval */
	assert_int_equal(np_vector_globals(v, g, 2), 2);   /* cap is kept */

	v = load(f, HEAD("safety/none")
		 "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		 "  call NtSetSystemInformation InformationClass=0x1F EventTraceClass=4\n"
		 "  expect STATUS_NOT_IMPLEMENTED\n");
	assert_int_equal(np_vector_globals(v, g, 8), 0);
}

static const np_vector *fixture(fx *f, const char *file, const char *id)
{
	np_error err;
	if (!np_vectors_load(&f->set, file, &err))
		fail_msg("%s", err.text);
	for (unsigned i = 0; i < f->set.count; i++)
		if (strcmp(f->set.v[i].id, id) == 0)
			return &f->set.v[i];
	fail_msg("no vector %s in %s", id, file);
	return NULL;
}

/* The fixture's own expectation on the target decides first: the
 * divide-by-zero fault of 4.0/x86, and a bug check before 1703 that is a
 * plain status from 1703 on (a hazardous vector is safe where it expects
 * no harm, fixtures/README.md). */
static void test_safety_hazard_from_fixture(void **state)
{
	fx *f = *state;
	char why[300];
	const np_vector *v = fixture(f, NTPROF_SOURCE_ROOT "/fixtures/profile/create.vec",
				     "create/segment-zero-buffer-divide");
	const char *h = np_vector_hazard(v, target("4.0/x86"), NULL, why, sizeof why);
	assert_non_null(h);
	assert_string_equal(h, "hazardous here: the fixture expects fault STATUS_INTEGER_DIVIDE_BY_ZERO "
			       "(0xC0000094) at step 1 (NtCreateProfile)");

	v = fixture(f, NTPROF_SOURCE_ROOT "/fixtures/profile/counting.vec",
		    "counting/capacity-slack-past-page");
	h = np_vector_hazard(v, target("1607/x64"), NULL, why, sizeof why);
	assert_non_null(h);
	assert_string_equal(h, "hazardous here: the fixture expects bugcheck IRQL_NOT_LESS_OR_EQUAL "
			       "(0x0000000A) at step 4 (Interrupt)");
	assert_null(np_vector_hazard(v, target("1703/x64"), f->model, why, sizeof why));
}

/* Where the fixture expects no harm, the model's prediction still counts
 * (a fixture that is wrong must not crash a kernel); a benign vector and
 * one the model cannot take are safe. */
static void test_safety_hazard_from_model(void **state)
{
	fx *f = *state;
	char why[300];
	const np_vector *v = load(f, HEAD("safety/model")
		"  applies 4.0\n"
		"  call NtCreateProfile Process=current ProfileBase=0x100 ProfileSize=0x1000 BucketSize=0 BufferSize=2\n"
		"  expect STATUS_SUCCESS\n");
	assert_null(np_vector_hazard(v, target("4.0/x86"), NULL, why, sizeof why));
	const char *h = np_vector_hazard(v, target("4.0/x86"), f->model, why, sizeof why);
	assert_non_null(h);
	assert_string_equal(h, "hazardous here: the model predicts fault STATUS_INTEGER_DIVIDE_BY_ZERO "
			       "(0xC0000094) at step 1 (NtCreateProfile)");

	v = load(f, HEAD("safety/benign") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	assert_null(np_vector_hazard(v, target("1809/x64"), f->model, why, sizeof why));

	v = load(f, HEAD("safety/not-applicable") "  given hal=emon\n"
		 "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	assert_null(np_vector_hazard(v, target("5.0/x86"), f->model, why, sizeof why));
}


/* From 6.2 a restore needs SeSystemProfilePrivilege (SI-1; TR-5 assumed):
 * a token that cannot enable it makes the state unrestorable there, not
 * before; the ETW interval is put back only where TraceSetInformation takes
 * class 5 (TR-1). */
static void test_safety_restorable(void **state)
{
	(void)state;
	char why[300];
	np_global time = { NP_GLOBAL_INTERVAL, 0 }, etw = { NP_GLOBAL_ETW_TIME, 0 };
	assert_null(np_global_unrestorable(time, target("6.2/x64"), true, why, sizeof why));
	assert_null(np_global_unrestorable(time, target("6.1/x64"), false, why, sizeof why));
	const char *w = np_global_unrestorable(time, target("6.2/x64"), false, why, sizeof why);
	assert_non_null(w);   /* fail twin of the first: the same state, no privilege */
	assert_string_equal(w, "putting the ProfileTime interval back needs SeSystemProfilePrivilege "
			       "on 6.2 (SI-1), which this process's token cannot enable");
	assert_null(np_global_unrestorable(etw, target("1809/x64"), true, why, sizeof why));
	w = np_global_unrestorable(etw, target("1809/x64"), false, why, sizeof why);
	assert_non_null(w);
	assert_non_null(strstr(w, "ETW time-profile interval back needs SeSystemProfilePrivilege on 1809 (TR-5)"));
	w = np_global_unrestorable(etw, target("6.1/x64"), true, why, sizeof why);
	assert_non_null(w);
	assert_string_equal(w, "the ETW time-profile interval can be put back only through "
			       "TraceSetInformation class 5, which 6.1 does not take (TR-1)");
}

/* What is unknown on a real kernel counts: a started segment-mode profile
 * (IN-8), a started profile of a source above 16 bits where the model
 * accepts one (IN-2), a started profile resting on an IN knob, a step the
 * model has no rule for after steps that ran; and class 0x81 allocations. */
static void test_safety_hazard_unknown(void **state)
{
	fx *f = *state;
	char why[400];
	const np_vector *v = fixture(f, NTPROF_SOURCE_ROOT "/fixtures/profile/counting.vec",
				     "counting/segment-mode-any-pc");
	const char *h = np_vector_hazard(v, target("6.1/x86"), NULL, why, sizeof why);
	assert_non_null(h);   /* the flag, without the model */
	assert_string_equal(h, "hazardous: it starts a profile and rests on unknown:K-SEGMENT-MATCH, which "
			       "the model does not model; real interrupts arrive while it is started");

	v = load(f, HEAD("safety/segment")
		 "  applies all arch=x86\n"
		 "  call NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x1B ProfileSize=0x10000 "
		 "BucketSize=0 Buffer=>b BufferSize=64\n  expect STATUS_SUCCESS\n"
		 "  call NtStartProfile ProfileHandle=h\n  expect STATUS_SUCCESS\n");
	assert_null(np_vector_hazard(v, target("6.1/x86"), NULL, why, sizeof why));
	h = np_vector_hazard(v, target("6.1/x86"), f->model, why, sizeof why);
	assert_non_null(h);
	assert_string_equal(h, "hazardous here: step 2 (NtStartProfile) starts an x86 segment-mode profile "
			       "(segment 0x1B): matching unknown (IN-8); real interrupts reach it");

	v = load(f, HEAD("safety/src16")
		 "  applies >=3.51 arch=x64\n"
		 "  call NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x100 "
		 "BucketSize=4 Buffer=>b BufferSize=64 Source=0x10000\n"
		 "  expect STATUS_NOT_SUPPORTED on >=6.2\n  expect STATUS_SUCCESS on <6.2\n"
		 "  call NtStartProfile ProfileHandle=h\n"
		 "  expect STATUS_INVALID_HANDLE on >=6.2\n  expect STATUS_SUCCESS on <6.2\n");
	h = np_vector_hazard(v, target("6.1/x64"), f->model, why, sizeof why);
	assert_non_null(h);
	assert_non_null(strstr(h, "starts a profile of source 0x10000, kept in 16 bits: matching unknown"));
	/* fail twin: where the create is refused (CP-11), nothing unknown starts */
	assert_null(np_vector_hazard(v, target("6.2/x64"), f->model, why, sizeof why));

	v = load(f, HEAD("safety/no-rule")
		 "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		 "  call NtSetSystemInformation InformationClass=0x22\n  expect not-applicable\n");
	h = np_vector_hazard(v, target("1809/x64"), f->model, why, sizeof why);
	assert_non_null(h);
	assert_non_null(strstr(h, "the model cannot say what step 2 (NtSetSystemInformation) does"));

	v = load(f, HEAD("safety/ppca")
		 "  call NtSetSystemInformation Allocate=0\n  expect STATUS_ACCESS_DENIED on >=6.2\n"
		 "  expect STATUS_INVALID_INFO_CLASS on <6.2\n");
	assert_null(np_vector_hazard(v, target("1809/x64"), NULL, why, sizeof why));   /* a free */
	v = load(f, HEAD("safety/ppca-alloc")
		 "  call NtSetSystemInformation\n  expect STATUS_ACCESS_DENIED on >=6.2\n"
		 "  expect STATUS_INVALID_INFO_CLASS on <6.2\n");
	h = np_vector_hazard(v, target("1809/x64"), f->model, why, sizeof why);
	assert_non_null(h);
	assert_non_null(strstr(h, "asks for a class 0x81 control area (Allocate=1)"));
}

/* Which vectors depend on the HAL's sources. */
static void test_safety_uses_hal(void **state)
{
	fx *f = *state;
	assert_false(np_vector_uses_hal(load(f, HEAD("safety/time")
		"  call NtSetIntervalProfile Interval=5000\n  expect STATUS_SUCCESS\n")));
	assert_true(np_vector_uses_hal(load(f, HEAD("safety/pmc")
		"  call NtQueryIntervalProfile Source=2\n  expect STATUS_SUCCESS\n")));
	assert_true(np_vector_uses_hal(load(f, HEAD("safety/list")
		"  applies >=6.2\n  call TraceQueryInformation InformationClass=7\n  expect ERROR_SUCCESS\n")));
}
/* ---- the runner's skip hook ---- */

typedef struct skipper {
	np_backend *inner;
	unsigned begins;
} skipper;

static const char *skipper_skip(np_backend *self, np_target t, const np_vector *v)
{
	(void)self;
	(void)t;
	return strcmp(v->id, "skip/me") == 0 ? "not today" : NULL;
}

static const char *skipper_begin(np_backend *self, np_target t, const np_vector *v)
{
	skipper *s = self->state;
	s->begins++;
	return s->inner->begin(s->inner, t, v);
}

static void skipper_step(np_backend *self, const np_step *st, np_record *out)
{
	skipper *s = self->state;
	s->inner->step(s->inner, st, out);
}

static void skipper_end(np_backend *self)
{
	skipper *s = self->state;
	s->inner->end(s->inner);
}

/* A backend's skip reason makes the row `skipped` with that note, before
 * begin (nothing runs); other vectors run as before; the runner counts it,
 * and a skipped row does not fail the run. In a mirrored run as well. */
static void test_safety_runner_skip_hook(void **state)
{
	fx *f = *state;
	load(f, HEAD("skip/me") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	load(f, HEAD("skip/not-me") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	skipper s = { f->model, 0 };
	np_backend b = { .name = "skipper", .begin = skipper_begin, .step = skipper_step,
			 .end = skipper_end, .state = &s, .skip = skipper_skip };
	np_target_list one = { .count = 0 };
	assert_null(np_targets_add(&one, "1809/x64"));
	assert_true(np_run_vectors(&b, &f->set, &one, &f->run));
	assert_int_equal(f->run.count, 2);
	assert_int_equal(f->run.row[0].cls, NP_CLASS_SKIPPED);
	assert_string_equal(ROW_NOTE(&f->run.row[0]), "not today");
	assert_int_equal(f->run.row[1].cls, NP_CLASS_MATCH);
	assert_int_equal(s.begins, 1);
	assert_int_equal(f->run.tally[NP_CLASS_SKIPPED], 1);
	assert_false(np_class_is_failure(NP_CLASS_SKIPPED));

	np_run_free(&f->run);
	s.begins = 0;
	np_backend *reference = np_backend_model_new();
	assert_non_null(reference);
	bool ran = np_run_mirrored(&b, reference, &f->set, one.t[0], NULL, 0, &f->run);
	reference->destroy(reference);
	assert_true(ran);
	assert_int_equal(f->run.row[0].cls, NP_CLASS_SKIPPED);
	assert_int_equal(f->run.row[1].cls, NP_CLASS_MATCH);
	assert_int_equal(s.begins, 1);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	T(test_safety_interval_sources),
	T(test_safety_hazard_from_fixture),
	T(test_safety_hazard_from_model),
	T(test_safety_restorable),
	T(test_safety_hazard_unknown),
	T(test_safety_uses_hal),
	T(test_safety_runner_skip_hook),
};
#undef T

NP_TEST_MAIN(tests)
