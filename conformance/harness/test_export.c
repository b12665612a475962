/* SPDX-License-Identifier: MIT */
/* What `ntprof export` decides before it writes C (harness/export/): each
 * step's expectation from the model (the newest Windows's result, older
 * results that differ, the vector's accept lines), the targets named for
 * each, and which vectors are left out and why. The C it writes is
 * checked by conformance/cli/test_export.sh and, built and run under Wine, by
 * conformance/cli/test_export_wine.sh. */
#include "np_test.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "ntprof/backend.h"
#include "ntprof/vector.h"

#define HEAD(id) "vector " id "\n  title t\n  rules SI-1\n  source derived\n"

typedef struct fx {
	np_vector_set set;
	np_backend *model;
	np_export_plan plan;
	char why[NP_TEXT_MAX * 2];
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

static const char *where(const np_export_result *r)
{
	static char buf[NP_TEXT_MAX * 2];
	np_export_where(r, buf, sizeof buf);
	return buf;
}

static const char threshold[] = HEAD("t/threshold")
	"  call NtSetIntervalProfile Interval=5000\n"
	"  expect STATUS_PRIVILEGE_NOT_HELD on >=6.2\n"
	"  expect STATUS_SUCCESS on <6.2\n";

/* The newest Windows's refusal is the expectation; the success before 6.2
 * an older Windows's, named by its targets, per caller width. */
static void test_export_plan_newest_and_older(void **state)
{
	fx *f = *state;
	const np_vector *v = load(f, threshold);
	np_export_plan_width(f->model, v, NP_V5_1, true, &f->plan);
	assert_true(f->plan.usable);
	assert_int_equal(f->plan.newest.version, NP_VERSION_COUNT - 1);
	assert_int_equal(f->plan.newest.arch, NP_X64);
	assert_int_equal(f->plan.step[0].count, 2);
	assert_int_equal(f->plan.step[0].result[0].outcome.code, 0xC0000061u);
	assert_int_equal(f->plan.step[0].result[1].outcome.code, 0);
	assert_string_equal(where(&f->plan.step[0].result[1]), "5.2sp1..6.1 x64");
	assert_string_equal(where(&f->plan.step[0].result[0]), "6.2..11-25H2 x64");

	np_export_plan_width(f->model, v, NP_V5_1, false, &f->plan);
	assert_true(f->plan.usable);
	assert_int_equal(f->plan.newest.arch, NP_WOW64);
	assert_int_equal(f->plan.step[0].count, 2);
	assert_string_equal(where(&f->plan.step[0].result[1]), "5.1..6.1 x86, 5.2sp1..6.1 wow64");
}

/* The twin: from 6.2 on, no older result differs. */
static void test_export_plan_since(void **state)
{
	fx *f = *state;
	const np_vector *v = load(f, threshold);
	np_export_plan_width(f->model, v, NP_V6_2, true, &f->plan);
	assert_true(f->plan.usable);
	assert_int_equal(f->plan.step[0].count, 1);
	assert_string_equal(where(&f->plan.step[0].result[0]), "6.2..11-25H2 x64");
}

/* A vector that does not reach the newest Windows has no test: a test
 * cannot tell which Windows it runs on. */
static void test_export_plan_not_newest(void **state)
{
	fx *f = *state;
	const np_vector *v = load(f, HEAD("t/old") "  applies <=6.1\n"
				     "  call NtSetIntervalProfile Interval=5000\n  expect STATUS_SUCCESS\n");
	np_export_plan_width(f->model, v, NP_V5_1, true, &f->plan);
	assert_false(f->plan.usable);
	assert_non_null(strstr(f->plan.why, "does not apply to 11-25H2/x64"));
}

/* An accept line is an alternative, marked as the vector's. */
static void test_export_plan_accept(void **state)
{
	fx *f = *state;
	const np_vector *v = load(f, HEAD("t/accept") "  flags unknown:K-QI-ALIGN alternative\n"
				     "  call NtQueryIntervalProfile Interval=misaligned\n"
				     "  expect STATUS_SUCCESS Interval=39063\n"
				     "  accept STATUS_DATATYPE_MISALIGNMENT flag=unknown:K-QI-ALIGN\n");
	np_export_plan_width(f->model, v, NP_V5_1, true, &f->plan);
	assert_true(f->plan.usable);
	const np_export_step *s = &f->plan.step[0];
	assert_int_equal(s->result[0].outcome.code, 0);
	assert_int_equal(s->result[0].nout, 1);
	assert_string_equal(s->result[0].out[0].value, "39063");
	assert_non_null(s->result[s->count - 1].accept);
	assert_int_equal(s->result[s->count - 1].outcome.code, 0x80000002u);
}

/* Left out, each with why; the HAL's sources only without --hal-dependent. */
static void test_export_left_out(void **state)
{
	fx *f = *state;
	np_export_options o = { .since = NP_V5_1 };
	/* loaded first, then taken: a load may move the vectors before it */
	load(f, HEAD("t/only") "  flags model-only\n"
		"  call NtSetIntervalProfile Interval=1\n  expect STATUS_SUCCESS\n");
	load(f, HEAD("t/low") "  given integrity=low\n"
		"  call NtSetIntervalProfile Interval=1\n  expect STATUS_PRIVILEGE_NOT_HELD on >=6.2\n"
		"  expect STATUS_SUCCESS on <6.2\n");
	load(f, HEAD("t/hal") "  call NtQueryIntervalProfile Source=ProfileAlignmentFixup\n"
		"  expect STATUS_SUCCESS Interval=0 on >=3.51\n  expect not-applicable on <3.51\n");
	load(f, threshold);
	const np_vector *only = &f->set.v[0], *low = &f->set.v[1], *hal = &f->set.v[2], *fine = &f->set.v[3];
	assert_non_null(strstr(np_export_left_out(only, &o, f->model, f->why, sizeof f->why), "model-only"));
	assert_non_null(strstr(np_export_left_out(low, &o, f->model, f->why, sizeof f->why), "integrity=low"));
	assert_non_null(strstr(np_export_left_out(hal, &o, f->model, f->why, sizeof f->why), "HAL"));
	assert_null(np_export_left_out(fine, &o, f->model, f->why, sizeof f->why));
	o.hal_dependent = true;
	assert_null(np_export_left_out(hal, &o, f->model, f->why, sizeof f->why));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	T(test_export_plan_newest_and_older),
	T(test_export_plan_since),
	T(test_export_plan_not_newest),
	T(test_export_plan_accept),
	T(test_export_left_out),
};
#undef T

NP_TEST_MAIN(tests)
