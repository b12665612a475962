/* SPDX-License-Identifier: MIT */
/* A row's typed answers (harness/report/record_text.c) and note
 * (harness/run/row.c): one spelling of each out-value whichever side it
 * came from, equality by value, the brief form of a table cell, and the
 * words of each kind of note. Each equality has its twin that differs. */
#include "np_test.h"
#include "np_row_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ntprof/backend.h"
#include "ntprof/runner.h"
#include "ntprof/vector.h"

/* An expectation as a vector writes it: outcome STATUS code, then pairs. */
static void expect_of(np_expect *e, uint32_t code, const char *name, const char *value)
{
	memset(e, 0, sizeof *e);
	e->outcome = (np_outcome){ NP_RESULT_STATUS, code };
	if (name) {
		snprintf(e->out[0].name, sizeof e->out[0].name, "%s", name);
		snprintf(e->out[0].value, sizeof e->out[0].value, "%s", value);
		e->nout = 1;
	}
}

static void record_of(np_record *r, uint32_t code, const char *name, const char *value)
{
	memset(r, 0, sizeof *r);
	r->outcome = (np_outcome){ NP_RESULT_STATUS, code };
	if (name)
		np_record_out(r, name, value);
}

static const char *text(const np_answer *a)
{
	static char buf[NP_TEXT_MAX * 3];
	np_answer_text(a, buf, sizeof buf);
	return buf;
}

/* The vector's spelling and the record's meet in one: an interval in
 * decimal, an address in hex, counters in runs, unwritten as "-". */
static void test_answer_one_spelling(void **state)
{
	(void)state;
	static const struct { const char *name, *vector, *record, *printed; } cases[] = {
		{ "Interval", "0x9897", "39063", "Interval=39063" },
		{ "ProcessorProfileControlArea", "2316304384", "0x8A100000", "ProcessorProfileControlArea=0x8A100000" },
		{ "Buffer", "0,0,0,1", "0*3,1", "Buffer=0*3,1" },
		{ "ReturnLength", "-", "-", "ReturnLength=-" },
		{ "ProfileHandle", "h", "h", "ProfileHandle=h" },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
		np_expect e;
		np_record r;
		np_answer want, got;
		expect_of(&e, 0, cases[i].name, cases[i].vector);
		record_of(&r, 0, cases[i].name, cases[i].record);
		np_answer_from_expect(&e, &want);
		np_answer_from_record(&r, &got);
		char printed[NP_TEXT_MAX];
		snprintf(printed, sizeof printed, "STATUS_SUCCESS (0x00000000) %s", cases[i].printed);
		assert_string_equal(text(&want), printed);
		assert_string_equal(text(&got), printed);
		assert_true(np_answer_equal(&want, &got));
	}
}

/* Twins: another value, another code, a value unwritten, one out-value
 * more: each differs. */
static void test_answer_differences(void **state)
{
	(void)state;
	np_expect e;
	np_record r;
	np_answer want, got;
	expect_of(&e, 0, "Interval", "0x9897");
	np_answer_from_expect(&e, &want);
	static const struct { uint32_t code; const char *value; } other[] = {
		{ 0, "39064" }, { 0xC0000061, "39063" }, { 0, "-" }, { 0, "x" },
	};
	for (unsigned i = 0; i < sizeof other / sizeof *other; i++) {
		record_of(&r, other[i].code, "Interval", other[i].value);
		np_answer_from_record(&r, &got);
		assert_false(np_answer_equal(&want, &got));
	}
	record_of(&r, 0, "Interval", "39063");
	np_record_out(&r, "ReturnLength", "4");
	np_answer_from_record(&r, &got);
	assert_false(np_answer_equal(&want, &got));
	assert_false(np_answer_equal(&got, &want));
	np_answer open, refused;
	np_answer_open(&open, NULL);
	np_answer_open(&refused, "no EMON");
	assert_string_equal(text(&open), "applicable");
	assert_string_equal(text(&refused), "not applicable (no EMON)");
	assert_false(np_answer_equal(&open, &refused));
	assert_false(np_answer_equal(&open, &want));
}

/* A stub's or a crash's code is printed nowhere, so an answer keeps none:
 * Wine's stub (code 0x80000100) is the known list's `stub`. The twin: a
 * status's code is kept, and another code differs. */
static void test_answer_uncoded_kinds(void **state)
{
	(void)state;
	np_record r;
	np_answer got, listed;
	np_known_value a, b;
	memset(&r, 0, sizeof r);
	r.outcome = (np_outcome){ NP_RESULT_STUB, 0x80000100u };
	np_answer_from_record(&r, &got);
	np_answer_of_text("stub", &listed);
	assert_true(np_answer_equal(&got, &listed));
	assert_true(np_known_value_of(&got, &a));
	assert_null(np_known_value_parse("stub", &b));
	assert_true(np_known_value_equal(&a, &b));
	r.outcome = (np_outcome){ NP_RESULT_STATUS, 0x80000100u };
	np_answer_from_record(&r, &got);
	np_answer_of_text("STATUS_SUCCESS", &listed);
	assert_false(np_answer_equal(&got, &listed));
	assert_true(np_known_value_of(&got, &a));
	assert_null(np_known_value_parse("STATUS_SUCCESS", &b));
	assert_false(np_known_value_equal(&a, &b));
}

/* A table cell drops the code a name already says, never an unnamed one's. */
static void test_answer_brief(void **state)
{
	(void)state;
	static const struct { const char *full, *brief; } cases[] = {
		{ "STATUS_SUCCESS (0x00000000) Interval=5", "STATUS_SUCCESS Interval=5" },
		{ "STATUS_? (0x12345678)", "STATUS_? (0x12345678)" },
		{ "ERROR_BAD_LENGTH (24)", "ERROR_BAD_LENGTH" },
		{ "fault STATUS_ACCESS_VIOLATION (0xC0000005)", "fault STATUS_ACCESS_VIOLATION" },
		{ "done Counted=3", "done Counted=3" },
		{ "stub", "stub" },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
		np_answer a;
		char buf[NP_TEXT_MAX];
		np_answer_of_text(cases[i].full, &a);
		assert_string_equal(text(&a), cases[i].full);
		np_answer_brief(&a, buf, sizeof buf);
		assert_string_equal(buf, cases[i].brief);
	}
}

/* Each kind of note in words; a row with nothing to say has no detail. */
static void test_answer_notes(void **state)
{
	(void)state;
	static np_step steps[2];
	static np_vector v = { .id = "t/notes", .step = steps, .nstep = 2 };
	const char *bad = np_parse_step("NtStartProfile ProfileHandle=h", &steps[1]);
	if (bad)
		fail_msg("%s", bad);
	np_row r = { .vector = &v, .cls = NP_CLASS_NOT_REQUIRED };
	static const struct { np_note note; int step; const char *why, *words; } cases[] = {
		{ NP_NOTE_NONE, -1, NULL, "" },
		{ NP_NOTE_MODEL_ONLY, -1, NULL, "model-only vector" },
		{ NP_NOTE_NOT_LIVE, -1, NULL, "not-live vector" },
		{ NP_NOTE_NOT_IMPLEMENTED, 1, NULL, "step 2 calls NtStartProfile, which is not implemented" },
		{ NP_NOTE_EXPECTS_NA, 0, NULL, "step 1 expects not-applicable" },
		{ NP_NOTE_EXPECTS_NA, 1, NULL, "judged to the step before: step 2 expects not-applicable" },
		{ NP_NOTE_REF_STEP, 1, "no EMON", "expects not-applicable: the reference cannot take step 2: no EMON" },
		{ NP_NOTE_REF_REFUSED, -1, "no EMON", "the reference cannot take it: no EMON" },
		{ NP_NOTE_REFUSED, -1, "no", "it refused a state within what it declares: no" },
		{ NP_NOTE_REFUSED_BOTH, -1, "no", "the model cannot take it either: no" },
		{ NP_NOTE_WHY, -1, "because", "because" },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
		np_row_set_note(&r, cases[i].note, cases[i].step, cases[i].why);
		if (i == 0)
			assert_null(r.detail);   /* words of its own kind need no detail */
		assert_string_equal(ROW_NOTE(&r), cases[i].words);
	}
	r.cls = NP_CLASS_NOT_APPLICABLE;   /* not asked of an implementation: no such prefix */
	np_row_set_note(&r, NP_NOTE_REF_STEP, 1, "no EMON");
	assert_string_equal(ROW_NOTE(&r), "the reference cannot take step 2: no EMON");
	assert_null(np_row_got(&r));
	assert_string_equal(ROW_GOT(&r), "");
	np_row_free(&r);
	assert_null(r.detail);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_answer_one_spelling),
	cmocka_unit_test(test_answer_differences),
	cmocka_unit_test(test_answer_uncoded_kinds),
	cmocka_unit_test(test_answer_brief),
	cmocka_unit_test(test_answer_notes),
};

NP_TEST_MAIN(tests)
