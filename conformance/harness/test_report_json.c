/* SPDX-License-Identifier: MIT */
/* The JSON report, format 3 (harness/report/report_json.c): each outcome
 * text a row keeps is taken apart into kind, name, code and out-values;
 * the timestamp follows SOURCE_DATE_EPOCH; a live run says so in every
 * format; and every document written here passes the schema
 * (schema/run-result-v3.schema.json). The values are read back with the
 * harness's JSON reader, member by member. */
#include "np_test.h"
#include "np_row_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/runner.h"
#include "report/json.h"
#include "schema/json_schema.h"
#include "report/report_json.h"

#define SCHEMA NTPROF_SOURCE_ROOT "/schema/run-result-v3.schema.json"

static np_step steps[2] = { { .function = "NtSetIntervalProfile", .line = 5 }, { .function = "ReadEvents", .line = 6 } };
static np_vector vector = { .id = "t/outcomes", .rule = { "SI-1", "MC-1" }, .nrule = 2, .step = steps, .nstep = 2,
			    .file = "t.vec", .line = 1 };

static char *render(const np_run *run, np_format fmt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_non_null(m);
	np_report(m, run, fmt, true);
	assert_int_equal(fclose(m), 0);
	return text;
}

static np_json *read_json(const char *path, const char *text)
{
	np_error err;
	np_json *j = np_json_parse(text, strlen(text), path, &err);
	if (!j)
		fail_msg("%s", err.text);
	return j;
}

/* The document passes the schema. */
static void assert_valid(const np_json *doc)
{
	FILE *in = fopen(SCHEMA, "rb");
	assert_non_null(in);
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof text - 1, in);
	fclose(in);
	text[n] = '\0';
	np_json *schema = read_json(SCHEMA, text);
	np_error err;
	if (!np_json_schema_check(schema, SCHEMA, doc, "report.json", &err))
		fail_msg("%s", err.text);
	np_json_free(schema);
}

static void assert_member(const np_json *obj, const char *name, const char *want)
{
	const np_json *m = np_json_get(obj, name);
	if (!m)
		fail_msg("no \"%s\"", name);
	if (!want) {
		assert_int_equal(m->type, NP_JSON_NULL);
		return;
	}
	assert_true(m->type == NP_JSON_STRING || m->type == NP_JSON_NUMBER);
	assert_string_equal(m->text, want);
}

/* One row whose "got" is text; returns its outcome object in the document. */
static const np_json *got_of(np_json **doc, const char *text, const char *field)
{
	static np_row row;
	np_run run = { .backend = "model", .row = &row, .count = 1, .cap = 1 };
	memset(&row, 0, sizeof row);
	row.vector = &vector;
	row.cls = NP_CLASS_STATUS_MISMATCH;
	row.step = 1;
	np_row_detail *d = np_row_detail_of(&row);
	np_keep_row(&row);
	char answer[NP_TEXT_MAX * 2];
	snprintf(answer, sizeof answer, "%s", text);
	char *step = strstr(answer, " (step ");
	if (step) {   /* a fixture's: its step apart */
		d->fixture_step = atoi(step + 7) - 1;
		*step = '\0';
	}
	np_answer_of_text(answer, np_row_answer_of(&row, strcmp(field, "got") == 0 ? NP_PART_GOT
							 : strcmp(field, "model") == 0 ? NP_PART_MODEL : NP_PART_FIXTURE));
	char *out = render(&run, NP_FORMAT_JSON);
	*doc = read_json("report.json", out);
	free(out);
	assert_valid(*doc);
	const np_json *results = np_json_get(*doc, "results");
	assert_true(results && results->count == 1);
	assert_member(results->child, "function", "ReadEvents");
	assert_member(results->child, "step", "2");
	return np_json_get(results->child, field);
}

static void test_report_json_outcome_kinds(void **state)
{
	(void)state;
	static const struct { const char *text, *kind, *name, *code, *hex; } cases[] = {
		{ "STATUS_PRIVILEGE_NOT_HELD (0xC0000061)", "status", "STATUS_PRIVILEGE_NOT_HELD", "3221225569", "0xC0000061" },
		{ "STATUS_? (0x12345678)", "status", NULL, "305419896", "0x12345678" },
		{ "ERROR_BAD_LENGTH (24)", "win32", "ERROR_BAD_LENGTH", "24", "0x00000018" },
		{ "fault STATUS_INTEGER_DIVIDE_BY_ZERO (0xC0000094)", "fault", "STATUS_INTEGER_DIVIDE_BY_ZERO",
		  "3221225620", "0xC0000094" },
		{ "bugcheck IRQL_NOT_LESS_OR_EQUAL (0x0000000A)", "bugcheck", "IRQL_NOT_LESS_OR_EQUAL", "10", "0x0000000A" },
		{ "bugcheck ? (0x000000FF)", "bugcheck", NULL, "255", "0x000000FF" },
		{ "not-exported", "not-exported", NULL, NULL, NULL },
		{ "not-applicable", "not-applicable", NULL, NULL, NULL },
		{ "stub", "stub", NULL, NULL, NULL },
		{ "crashed", "crashed", NULL, NULL, NULL },
		{ "corruption", "corruption", NULL, NULL, NULL },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
		np_json *doc;
		const np_json *o = got_of(&doc, cases[i].text, "got");
		assert_non_null(o);
		assert_member(o, "kind", cases[i].kind);
		assert_member(o, "name", cases[i].name);
		assert_member(o, "code", cases[i].code);
		assert_member(o, "hex", cases[i].hex);
		assert_member(o, "text", cases[i].text);
		assert_int_equal(np_json_get(o, "out")->count, 0);
		np_json_free(doc);
	}
}

/* Out-values by name; a pseudo-step's "done" is kind none. */
static void test_report_json_out_values(void **state)
{
	(void)state;
	np_json *doc;
	const np_json *o = got_of(&doc, "done Events=none Counted=1", "got");
	assert_member(o, "kind", "none");
	const np_json *out = np_json_get(o, "out");
	assert_int_equal(out->count, 2);
	assert_member(out, "Events", "none");
	assert_member(out, "Counted", "1");
	np_json_free(doc);
	o = got_of(&doc, "STATUS_SUCCESS (0x00000000) Interval=39063 ReturnLength=-", "got");
	out = np_json_get(o, "out");
	assert_member(out, "Interval", "39063");
	assert_member(out, "ReturnLength", "-");
	np_json_free(doc);
}

/* The model's words beside a live row, and a fixture's step. */
static void test_report_json_model_and_fixture(void **state)
{
	(void)state;
	np_json *doc;
	const np_json *o = got_of(&doc, "not applicable (no EMON on this version)", "model");
	assert_member(o, "kind", "not-applicable");
	assert_member(o, "why", "no EMON on this version");
	assert_member(o, "code", NULL);
	np_json_free(doc);
	o = got_of(&doc, "applicable", "model");
	assert_member(o, "kind", "applicable");
	np_json_free(doc);
	o = got_of(&doc, "STATUS_SUCCESS (0x00000000) Interval=5 (step 2)", "fixture");
	assert_member(o, "step", "2");
	assert_member(o, "text", "STATUS_SUCCESS (0x00000000) Interval=5");
	assert_member(np_json_get(o, "out"), "Interval", "5");
	np_json_free(doc);
}

static void test_report_json_timestamp(void **state)
{
	(void)state;
	static const struct { const char *epoch, *want; } good[] = {
		{ "0", "1970-01-01T00:00:00Z" }, { "1767225600", "2026-01-01T00:00:00Z" },
		{ "253402300799", "9999-12-31T23:59:59Z" },
	};
	static const char *const bad[] = { "", "-1", "12x", " 5", "0x10", "253402300800", "99999999999999999999999" };
	char buf[64], why[160];
	for (unsigned i = 0; i < sizeof good / sizeof *good; i++) {
		assert_int_equal(setenv("SOURCE_DATE_EPOCH", good[i].epoch, 1), 0);
		assert_true(np_report_timestamp(buf, sizeof buf, why, sizeof why));
		assert_string_equal(buf, good[i].want);
	}
	for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(setenv("SOURCE_DATE_EPOCH", bad[i], 1), 0);
		if (np_report_timestamp(buf, sizeof buf, why, sizeof why))
			fail_msg("SOURCE_DATE_EPOCH=\"%s\" was taken as %s", bad[i], buf);
		assert_non_null(strstr(why, "SOURCE_DATE_EPOCH="));
	}
	unsetenv("SOURCE_DATE_EPOCH");
	assert_true(np_report_timestamp(buf, sizeof buf, why, sizeof why));   /* now */
	bool matched = false;
	assert_null(np_json_pattern_match("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$", buf, &matched));
	assert_true(matched);
	assert_string_not_equal(buf, "1970-01-01T00:00:00Z");
}

/* A live run names itself and the system in every format; a run does not. */
static void test_report_live_says_live(void **state)
{
	(void)state;
	np_run run = { .command = "live", .backend = "live", .vectors = 3 };
	snprintf(run.system, sizeof run.system, "10.0.19045 SP0 (version 22H2, build 19045, x64, Wine 9.0)");
	np_run_env(&run, "build", "19045");
	char *out = render(&run, NP_FORMAT_TEXT);
	assert_non_null(strstr(out, "ntprof live on 10.0.19045 SP0 (version 22H2, build 19045, x64, Wine 9.0): "
				    "3 vectors, 0 results\n"));
	assert_null(strstr(out, "ntprof run"));
	free(out);
	out = render(&run, NP_FORMAT_TAP);
	assert_non_null(strstr(out, "\n# ntprof live on 10.0.19045 SP0 (version 22H2"));
	free(out);
	out = render(&run, NP_FORMAT_JUNIT);
	assert_non_null(strstr(out, "<testsuite name=\"ntprof-live\""));
	free(out);
	out = render(&run, NP_FORMAT_JSON);
	np_json *doc = read_json("live.json", out);
	free(out);
	assert_valid(doc);
	assert_member(doc, "command", "live");
	assert_member(doc, "system", run.system);
	assert_member(np_json_get(doc, "environment"), "build", "19045");
	np_json_free(doc);

	np_run plain = { .backend = "model", .vectors = 3 };   /* the twin: run says run */
	out = render(&plain, NP_FORMAT_TEXT);
	assert_non_null(strstr(out, "ntprof run: backend model, 3 vectors"));
	free(out);
	out = render(&plain, NP_FORMAT_JSON);
	doc = read_json("run.json", out);
	free(out);
	assert_member(doc, "command", "run");
	assert_member(doc, "system", NULL);
	np_json_free(doc);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_report_json_outcome_kinds),
	cmocka_unit_test(test_report_json_out_values),
	cmocka_unit_test(test_report_json_model_and_fixture),
	cmocka_unit_test(test_report_json_timestamp),
	cmocka_unit_test(test_report_live_says_live),
};

NP_TEST_MAIN(tests)
