/* SPDX-License-Identifier: MIT */
/* ntprof matrix --observed (harness/matrix/matrix_observed.c): result files
 * as columns beside the model. The file ntprof.exe live wrote under Wine
 * (conformance/data/live-wine-8.0-win10.json) and a hand-written one: steps
 * before the deciding one show the model's cell, the deciding step what the
 * system did, marked only where the file says it disagrees with the model,
 * later steps "-"; skipped, not applicable, known and accepted rows too. */
#include "np_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "harness/np_matrix_fixture.h"

#define FIXTURES NTPROF_SOURCE_ROOT "/fixtures"
#define LIVE NTPROF_SOURCE_ROOT "/conformance/data/live-wine-8.0-win10.json"

static np_compare *observed;

static void build(fx *f, np_compare *c)
{
	np_error err;
	if (!np_vectors_load(&f->set, FIXTURES "/interval/set-interval.vec", &err))
		fail_msg("%s", err.text);
	bool versions[NP_VERSION_COUNT], chosen[NP_ARCH_COUNT] = { true, true, true };
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions[v] = true;
	f->m = np_matrix_build(f->model, &f->set, versions, chosen);
	assert_non_null(f->m);
	np_matrix_observe(f->m, c);
	assert_int_equal(np_matrix_observed_count(f->m), 1);
}

static unsigned row_of(const fx *f, const char *vector, unsigned step)
{
	for (unsigned r = 0; r < np_matrix_rows(f->m); r++)
		if (strcmp(np_matrix_vector(f->m, r)->id, vector) == 0 && np_matrix_step(f->m, r) + 1 == step)
			return r;
	fail_msg("no row %s step %u", vector, step);
	return 0;
}

/* The cell of vector's step (from 1) in the observed column, and its mark. */
static void assert_cell(const fx *f, const char *vector, unsigned step, const char *want, bool differs)
{
	char buf[512];
	bool d = np_matrix_observed_text(f->m, row_of(f, vector, step), 0, buf, sizeof buf);
	if (strcmp(buf, want) != 0 || d != differs)
		fail_msg("%s step %u: want %s\"%s\", got %s\"%s\"", vector, step, differs ? "marked " : "", want,
			 d ? "marked " : "", buf);
}

static int teardown_observed(void **state)
{
	np_compare_free(observed);
	observed = NULL;
	return teardown(state);
}

static void test_matrix_observed_live_file(void **state)
{
	fx *f = *state;
	np_error err;
	observed = np_compare_new();
	if (!np_compare_load(observed, LIVE, &err))
		fail_msg("%s", err.text);
	build(f, observed);
	assert_string_equal(np_matrix_observed_label(f->m, 0), "wine 8.0 1903 18362 x64");
	assert_cell(f, "set-interval/privilege-threshold", 1, "SUCCESS", true);   /* the model refuses it */
	assert_cell(f, "set-interval/privilege-threshold", 2, "-", false);        /* not run */
	assert_cell(f, "set-interval/privilege-held", 1, "SUCCESS", false);       /* the twin: it matched */
	assert_cell(f, "set-interval/kernel-mode-caller", 1, "skipped", false);
	assert_cell(f, "set-interval/timer-boundaries-low", 1, "SUCCESS", false); /* before the deciding step */
	assert_cell(f, "set-interval/timer-boundaries-low", 2, "n/e", true);
	assert_cell(f, "set-interval/timer-boundaries-low", 3, "-", false);

	free(f->out);
	FILE *out = open_memstream(&f->out, &f->len);
	np_matrix_print(out, f->m, NP_MATRIX_TEXT, NULL);
	fclose(out);
	assert_non_null(strstr(f->out, "\nobserved: wine 8.0 1903 18362 x64 (1903/x64)\n"));
	assert_non_null(strstr(f->out, "! where the system disagrees"));
	assert_non_null(strstr(f->out, "  wine 8.0 1903 18362 x64\n"));
	assert_non_null(strstr(f->out, "  !n/e\n"));
	free(f->out);
	out = open_memstream(&f->out, &f->len);
	np_matrix_print(out, f->m, NP_MATRIX_MARKDOWN, NULL);
	fclose(out);
	assert_non_null(strstr(f->out, " wine 8.0 1903 18362 x64 |\n"));
	assert_non_null(strstr(f->out, " ≠ `SUCCESS` |\n"));
	assert_non_null(strstr(f->out, " `skipped` |\n"));
}

/* Known, accepted and not-applicable rows, from a file of format 2. */
static void test_matrix_observed_classes(void **state)
{
	fx *f = *state;
	static const char text[] =
		"{\"tool\":\"ntprof\",\"format\":2,\"results\":[\n"
		"{\"vector\":\"set-interval/privilege-threshold\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"known\","
		"\"observed\":\"status-mismatch\",\"step\":1,\"got\":{\"kind\":\"status\",\"code\":0}},\n"
		"{\"vector\":\"set-interval/timer-boundaries-low\",\"version\":\"6.2\",\"arch\":\"x64\","
		"\"class\":\"match-alternative\",\"step\":2,\"got\":{\"kind\":\"status\",\"code\":0,\"out\":{\"Interval\":\"1000\"}}},\n"
		"{\"vector\":\"set-interval/privilege-held\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"not-applicable\","
		"\"step\":null,\"got\":null},\n"
		"{\"vector\":\"set-interval/zw-alias\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"status-mismatch\","
		"\"step\":1,\"got\":{\"kind\":\"status\",\"code\":305419896}}\n"
		"]}\n";
	np_error err;
	observed = np_compare_new();
	if (!np_compare_add(observed, "hand.json", text, strlen(text), &err))
		fail_msg("%s", err.text);
	build(f, observed);
	assert_cell(f, "set-interval/privilege-threshold", 1, "SUCCESS", true);   /* listed, still a divergence */
	assert_cell(f, "set-interval/timer-boundaries-low", 2, "SUCCESS Interval=1000", false);
	assert_cell(f, "set-interval/timer-boundaries-low", 3, "SUCCESS", false);   /* accepted: it went on */
	assert_cell(f, "set-interval/privilege-held", 1, "n/a", false);
	assert_cell(f, "set-interval/zw-alias", 1, "STATUS_? (0x12345678)", true);   /* no name: the code stays */
	assert_cell(f, "set-interval/etw-event", 1, "-", false);   /* a vector the file lacks */
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown_observed)
static const struct CMUnitTest tests[] = {
	T(test_matrix_observed_live_file),
	T(test_matrix_observed_classes),
};
#undef T

NP_TEST_MAIN(tests)
