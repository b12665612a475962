/* SPDX-License-Identifier: MIT */
/* `ntprof export --upstream`'s selection (export_select.c): a function's
 * main rules from a SPEC.md's "Order of checks", the pairs a vector covers
 * (its rules in the blocks of the functions it calls, and the statuses those
 * calls give on the newest Windows),
 * and the greedy cover's choices (most pairs first, then fewer steps, then
 * the first; vectors the export leaves out are no candidates). The whole
 * selection of the fixtures, built and run under Wine, is
 * conformance/cli/test_export_upstream.sh's. */
#include "np_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/export.h"
#include "ntprof/vector.h"

#define HEAD(id, rules) "vector " id "\n  title t\n  rules " rules "\n  source derived\n"
#define THRESHOLD_STEP "  call NtSetIntervalProfile Interval=5000\n" \
	"  expect STATUS_PRIVILEGE_NOT_HELD on >=6.2\n  expect STATUS_SUCCESS on <6.2\n"
#define QUERY_NULL_STEP "  call NtQueryIntervalProfile Interval=null\n  expect STATUS_ACCESS_VIOLATION Interval=-\n"

/* SI-8 is a rule of SPEC.md but of no function's block. */
static const char spec_text[] =
	"# a SPEC.md\n\n## NtSetIntervalProfile\n\n### SI-8 - another rule\n\n## Order of checks\n\n"
	"**NtSetIntervalProfile**\n\n1. SI-1: privilege.\n2. SI-2: STATUS_SUCCESS.\n\n"
	"**NtQueryIntervalProfile** (user mode)\n\n1. QI-1: range.\n\n## Knobs\n\nSI-8 and QI-2.\n";

typedef struct fx {
	char dir[256], spec[300];
	np_vector_set set;
	np_export_options o;
	unsigned npairs;
	char why[NP_TEXT_MAX * 4];
} fx;

static bool write_spec(fx *f, const char *text)
{
	FILE *s = fopen(f->spec, "w");
	bool ok = s && fputs(text, s) >= 0;
	return s && fclose(s) == 0 && ok;
}

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f || !np_test_tmpdir(f->dir, sizeof f->dir, "upstream")) {
		free(f);
		return -1;
	}
	snprintf(f->spec, sizeof f->spec, "%s/SPEC.md", f->dir);
	f->o.since = NP_V6_1;
	*state = f;
	return write_spec(f, spec_text) ? 0 : -1;
}

static int teardown(void **state)
{
	fx *f = *state;
	free((void *)f->o.only);
	np_vectors_free(&f->set);
	unlink(f->spec);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void load(fx *f, const char *text)
{
	np_error err;
	if (!np_vectors_load_text(&f->set, "mem.vec", text, strlen(text), &err))
		fail_msg("%s", err.text);
}

/* The IDs chosen, space-separated, in the files' order. */
static const char *chosen(fx *f)
{
	static char buf[512];
	assert_true(np_export_upstream(&f->set, &f->o, f->spec, &f->npairs, f->why, sizeof f->why));
	buf[0] = '\0';
	for (unsigned i = 0; i < f->o.nonly; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "", f->o.only[i]);
	return buf;
}

/* One vector covering both pairs is kept over two covering one each. */
static void test_upstream_most_pairs_first(void **state)
{
	fx *f = *state;
	load(f, HEAD("t/a", "SI-1") THRESHOLD_STEP HEAD("t/b", "SI-2") THRESHOLD_STEP
		HEAD("t/both", "SI-1 SI-2") THRESHOLD_STEP);
	assert_string_equal(chosen(f), "t/both");
	assert_int_equal(f->npairs, 3);   /* SI-1, SI-2, STATUS_PRIVILEGE_NOT_HELD */
}

/* The same rules, another status on the newest Windows: both are kept. */
static void test_upstream_each_status(void **state)
{
	fx *f = *state;
	load(f, HEAD("t/refused", "SI-1") THRESHOLD_STEP HEAD("t/refused-too", "SI-1") THRESHOLD_STEP
		HEAD("t/held", "SI-1") "  given privilege=on\n  call NtSetIntervalProfile Interval=5000\n"
		"  expect STATUS_SUCCESS\n");
	assert_string_equal(chosen(f), "t/refused t/held");
	assert_int_equal(f->npairs, 3);   /* SI-1, STATUS_PRIVILEGE_NOT_HELD, STATUS_SUCCESS */
}

/* Among vectors covering the same pairs: the one of fewer steps, then the first. */
static void test_upstream_fewer_steps_then_first(void **state)
{
	fx *f = *state;
	load(f, HEAD("t/long", "SI-1") THRESHOLD_STEP THRESHOLD_STEP HEAD("t/short", "SI-1") THRESHOLD_STEP
		HEAD("t/short-too", "SI-1") THRESHOLD_STEP);
	assert_string_equal(chosen(f), "t/short");
}

/* A rule counts for the functions whose block lists it, called by the
 * vector: SI-1 of a query, and SI-8 of no block, are no pairs. */
static void test_upstream_rule_of_the_function(void **state)
{
	fx *f = *state;
	load(f, HEAD("t/query", "SI-1 SI-8 QI-1") QUERY_NULL_STEP HEAD("t/set", "SI-1 SI-8") THRESHOLD_STEP);
	assert_string_equal(chosen(f), "t/query t/set");
	/* (NtQueryIntervalProfile, QI-1), (NtSetIntervalProfile, SI-1), and a status of each */
	assert_int_equal(f->npairs, 4);
	np_vectors_free(&f->set);
	memset(&f->set, 0, sizeof f->set);
	free((void *)f->o.only);
	/* a call no block names covers nothing, whatever its rules and status */
	load(f, HEAD("t/stray", "SI-1 SI-8") "  call NtClose Handle=null\n  expect STATUS_INVALID_HANDLE\n");
	assert_false(np_export_upstream(&f->set, &f->o, f->spec, &f->npairs, f->why, sizeof f->why));
	assert_non_null(strstr(f->why, "no vector the export can write covers"));
}

/* A vector the export leaves out is no candidate, whatever it covers; and
 * --function narrows the candidates as it narrows the export. */
static void test_upstream_only_what_the_export_writes(void **state)
{
	fx *f = *state;
	load(f, HEAD("t/model", "SI-1 SI-2 QI-1") "  flags model-only\n" THRESHOLD_STEP
		HEAD("t/set", "SI-1") THRESHOLD_STEP HEAD("t/query", "QI-1") QUERY_NULL_STEP);
	assert_string_equal(chosen(f), "t/set t/query");
	free((void *)f->o.only);
	f->o.only = NULL;
	f->o.function[0] = "NtQueryIntervalProfile";
	f->o.nfunction = 1;
	assert_string_equal(chosen(f), "t/query");
}

/* The selection is what np_export_chosen then takes. */
static void test_upstream_chosen(void **state)
{
	fx *f = *state;
	load(f, HEAD("t/a", "SI-1") THRESHOLD_STEP HEAD("t/both", "SI-1 SI-2") THRESHOLD_STEP);
	assert_string_equal(chosen(f), "t/both");
	assert_false(np_export_chosen(&f->set.v[0], &f->o));
	assert_true(np_export_chosen(&f->set.v[1], &f->o));
}

/* A SPEC.md without the section, or none: false, naming the file. */
static void test_upstream_bad_spec(void **state)
{
	fx *f = *state;
	load(f, HEAD("t/a", "SI-1") THRESHOLD_STEP);
	assert_true(write_spec(f, "# a SPEC.md\n\n## Order of things\n\n**NtSetIntervalProfile**\n\nSI-1\n"));
	assert_false(np_export_upstream(&f->set, &f->o, f->spec, &f->npairs, f->why, sizeof f->why));
	assert_non_null(strstr(f->why, "SPEC.md: no \"## Order of checks\" section"));
	assert_null(f->o.only);
	unlink(f->spec);
	assert_false(np_export_upstream(&f->set, &f->o, f->spec, &f->npairs, f->why, sizeof f->why));
	assert_non_null(strstr(f->why, "SPEC.md: cannot be read"));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	T(test_upstream_most_pairs_first),
	T(test_upstream_each_status),
	T(test_upstream_fewer_steps_then_first),
	T(test_upstream_rule_of_the_function),
	T(test_upstream_only_what_the_export_writes),
	T(test_upstream_chosen),
	T(test_upstream_bad_spec),
};
#undef T

NP_TEST_MAIN(tests)
