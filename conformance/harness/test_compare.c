/* SPDX-License-Identifier: MIT */
/* ntprof compare: the JSON reader (harness/report/json.c) and the merged table
 * (harness/report/compare.c).
 *
 * The reader is checked on every construct of the grammar, on a table of
 * malformed texts (each error names its line), and on every truncation and
 * every one-byte deletion of a real report, which must never crash it. The
 * table is checked on reports that harness/report/report.c writes (model runs, a
 * known-divergence file applied), on labels, cells and differences, and on
 * conformance/data/bad-json/, whose expected.txt says what each file must
 * be refused with. */
#include "np_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/json.h"
#include "ntprof/compare.h"
#include "ntprof/known.h"
#include "ntprof/runner.h"
#include "ntprof/backend.h"
#include "ntprof/vector.h"

#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif
#define BAD_JSON_DIR NTPROF_SOURCE_ROOT "/conformance/data/bad-json"

typedef struct fx {
	char dir[512];
	char vec[700];
	np_vector_set set;
	np_backend *model;
	np_compare *c;
	np_error err;
	char *out;
	size_t len;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	if (!np_test_tmpdir(f->dir, sizeof f->dir, "compare")) {
		free(f);
		return -1;
	}
	f->model = np_backend_model_new();
	f->c = np_compare_new();
	*state = f;
	return f->model && f->c ? 0 : -1;
}

static int teardown(void **state)
{
	fx *f = *state;
	np_compare_free(f->c);
	if (f->model)
		f->model->destroy(f->model);
	np_vectors_free(&f->set);
	free(f->out);
	if (f->vec[0])
		remove(f->vec);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* ---- the JSON reader ---- */

static np_json *parse(const char *text, np_error *err)
{
	return np_json_parse(text, strlen(text), "t.json", err);
}

static void test_compare_json_values(void **state)
{
	(void)state;
	np_error err;
	np_json *j = parse(" {\"a\": [1, -2.5e3, 0, \"x\\\"y\\\\\\/\\n\\u00e9\\ud83d\\ude00\", true, false, null],\n"
			   "  \"b\" : {},\n  \"c\": [],\n  \"\": \"empty name\"} \n", &err);
	if (!j)
		fail_msg("%s", err.text);
	assert_int_equal(j->type, NP_JSON_OBJECT);
	assert_int_equal(j->count, 4);
	const np_json *a = np_json_get(j, "a");
	assert_non_null(a);
	assert_int_equal(a->type, NP_JSON_ARRAY);
	assert_int_equal(a->count, 7);
	const np_json *e = a->child;
	assert_int_equal(e->type, NP_JSON_NUMBER);
	assert_true(e->number == 1);
	e = e->next;
	assert_string_equal(e->text, "-2.5e3");
	assert_true(e->number == -2500);
	e = e->next->next;
	assert_int_equal(e->type, NP_JSON_STRING);
	assert_string_equal(e->text, "x\"y\\/\n\xC3\xA9\xF0\x9F\x98\x80");
	e = e->next;
	assert_true(e->type == NP_JSON_BOOL && e->boolean);
	e = e->next;
	assert_true(e->type == NP_JSON_BOOL && !e->boolean);
	assert_int_equal(e->next->type, NP_JSON_NULL);
	assert_null(e->next->next);
	const np_json *b = np_json_get(j, "b");
	assert_true(b && b->type == NP_JSON_OBJECT && b->count == 0 && b->line == 2);
	assert_int_equal(np_json_get(j, "c")->line, 3);
	assert_string_equal(np_json_get(j, "")->text, "empty name");
	assert_null(np_json_get(j, "d"));
	assert_null(np_json_get(a, "a"));   /* an array has no members */
	assert_string_equal(np_json_type_name(NP_JSON_ARRAY), "an array");
	np_json_free(j);

	j = parse("\"lone\"", &err);
	assert_true(j && j->type == NP_JSON_STRING && j->line == 1);
	np_json_free(j);
}

/* The line of every value, which jansson does not keep: found by a scan that
 * must tell member names from string values, and skip strings holding
 * quotes, commas and brackets. */
static void test_compare_json_lines(void **state)
{
	(void)state;
	np_error err;
	np_json *j = parse("{\"k{,\\\"\": [\n1,\n{\"x,\": \"a,]}\\\\\\\"\"\n}, [], {}],\n\"n\":\n-1.5e2}", &err);
	if (!j)
		fail_msg("%s", err.text);
	const np_json *k = np_json_get(j, "k{,\"");
	assert_non_null(k);
	assert_int_equal(k->line, 1);
	const np_json *e = k->child;
	assert_true(e->type == NP_JSON_NUMBER && e->line == 2);
	e = e->next;
	assert_true(e->type == NP_JSON_OBJECT && e->line == 3);
	assert_int_equal(e->child->line, 3);
	assert_string_equal(e->child->text, "a,]}\\\"");
	assert_true(e->next->type == NP_JSON_ARRAY && e->next->line == 4);
	assert_true(e->next->next->type == NP_JSON_OBJECT && e->next->next->line == 4);
	const np_json *n = np_json_get(j, "n");
	assert_true(n && n->line == 6 && n->number == -150);
	assert_string_equal(n->text, "-1.5e2");
	np_json_free(j);
	/* a number that ends the text ends at its length, not at a NUL */
	j = np_json_parse("12", 1, "t.json", &err);
	assert_non_null(j);
	assert_string_equal(j->text, "1");
	np_json_free(j);
}

static void test_compare_json_errors(void **state)
{
	(void)state;
	static const struct { const char *text; const char *want; } bad[] = {
		{ "", "t.json:1: unexpected token near end of file" },
		{ " \n\n ", "t.json:3: unexpected token near end of file" },
		{ "{\"a\":1,}", "t.json:1: string or '}' expected near '}'" },
		{ "[1,]", "t.json:1: unexpected token near ']'" },
		{ "[1 2]", "t.json:1: ']' expected near '2'" },
		{ "{\"a\" 1}", "t.json:1: ':' expected near '1'" },
		{ "{1:2}", "t.json:1: string or '}' expected near '1'" },
		{ "{\"a\":1,\n\"a\":2}", "t.json:2: duplicate object key near '\"a\"'" },
		{ "{\"a\":1}\n{", "t.json:2: end of file expected near '{'" },
		{ "\"abc", "t.json:1: premature end of input near '\"abc'" },
		{ "[\n\"a\tb\"]", "t.json:2: control character 0x9 near '\"a'" },
		{ "\"a\\qb\"", "t.json:1: invalid escape near '\"a\\q'" },
		{ "\"\\u12\"", "t.json:1: invalid escape near '\"\\u12\"'" },
		{ "\"\\udc00\"", "t.json:1: invalid Unicode '\\uDC00'" },
		{ "\"\\ud800x\"", "t.json:1: invalid Unicode '\\uD800'" },
		{ "\"\\ud800\\u0041\"", "t.json:1: invalid Unicode '\\uD800\\u0041'" },
		{ "\"a\\u0000b\"", "t.json:1: \\u0000 is not allowed" },
		{ "01", "t.json:1: invalid token near '0'" },
		{ "1.", "t.json:1: invalid token near '1.'" },
		{ "1e+", "t.json:1: invalid token near '1e+'" },
		{ "-", "t.json:1: invalid token near '-'" },
		{ "+1", "t.json:1: invalid token near '+'" },
		{ "tru", "t.json:1: invalid token near 'tru'" },
		{ "nul", "t.json:1: invalid token near 'nul'" },
		{ "[\xff]", "t.json:1: unable to decode byte 0xff" },
		{ "'a'", "t.json:1: invalid token near '''" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		np_error err;
		np_json *j = parse(bad[i].text, &err);
		if (j) {
			np_json_free(j);
			fail_msg("accepted: %s", bad[i].text);
		}
		if (strncmp(err.text, bad[i].want, strlen(bad[i].want)) != 0)
			fail_msg("for %s\n  got  %s\n  want %s...", bad[i].text, err.text, bad[i].want);
	}
}

static void test_compare_json_depth_and_nul(void **state)
{
	(void)state;
	char deep[200];
	np_error err;
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	deep[128] = '\0';
	np_json *j = parse(deep, &err);
	if (!j)
		fail_msg("64 levels refused: %s", err.text);
	np_json_free(j);
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	deep[130] = '\0';
	assert_null(parse(deep, &err));
	assert_string_equal(err.text, "t.json:1: nested deeper than 64");
	/* a NUL byte in the text is no terminator: the length is the text's */
	assert_null(np_json_parse("[1]\0[2]", 7, "t.json", &err));
	assert_string_equal(err.text, "t.json:1: end of file expected near end of file");
	assert_null(np_json_parse("\"a\0b\"", 5, "t.json", &err));
	assert_string_equal(err.text, "t.json:1: control character 0x0 near '\"a'");
}

/* ---- reports written by harness/report/report.c ---- */

static const char vectors[] =
	"vector cmp/privilege\n"                 /* status-mismatch from 6.2, match on 6.1 */
	"  title   t\n  rules   SI-1\n  source  s\n  applies >=6.1\n"
	"  call    NtSetIntervalProfile Interval=5000\n"
	"  expect  STATUS_SUCCESS\n"
	"vector cmp/query\n"                     /* output-mismatch everywhere */
	"  title   t\n  rules   QI-5\n  source  s\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS Interval=1221\n"
	"vector cmp/good|pipe\n"                 /* match everywhere; a | to escape in markdown */
	"  title   t\n  rules   QI-5\n  source  s\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS\n"
	"vector cmp/emon\n"                      /* not applicable on x86 6.1 */
	"  title   t\n  rules   KS-3\n  source  s\n  given   hal=emon\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS Interval=39063\n";

/* Runs the vectors on the targets (comma-separated), applies a known file
 * (or none), and returns the JSON report, with env pairs "k=v;k=v". */
static char *report_json(fx *f, const char *targets, const char *known, const char *env)
{
	np_target_list l = { .count = 0 };
	np_run run;
	char list[200], *save = NULL;
	if (!f->set.count) {
		snprintf(f->vec, sizeof f->vec, "%s/cmp.vec", f->dir);
		FILE *out = fopen(f->vec, "w");
		if (!out || fputs(vectors, out) < 0 || fclose(out) != 0)
			fail_msg("cannot write %s", f->vec);
		if (!np_vectors_load(&f->set, f->vec, &f->err))
			fail_msg("%s", f->err.text);
	}
	snprintf(list, sizeof list, "%s", targets);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		assert_null(np_targets_add(&l, t));
	assert_true(np_run_vectors(f->model, &f->set, &l, &run));
	snprintf(list, sizeof list, "%s", env ? env : "");
	for (char *p = strtok_r(list, ";", &save); p; p = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(p, '=');
		*eq = '\0';
		np_run_env(&run, p, eq + 1);
	}
	np_known k = { 0 };
	if (known) {
		FILE *in = fmemopen((void *)known, strlen(known), "r");
		if (!np_known_read(&k, "k.known", in, &f->err))
			fail_msg("%s", f->err.text);
		fclose(in);
		np_known_apply(&k, &run);
	}
	char *text = NULL;
	size_t len;
	FILE *m = open_memstream(&text, &len);
	np_report(m, &run, NP_FORMAT_JSON, false);
	assert_int_equal(fclose(m), 0);
	np_run_free(&run);
	np_known_free(&k);
	return text;
}

static void add(fx *f, const char *path, char *json)
{
	if (!np_compare_add(f->c, path, json, strlen(json), &f->err))
		fail_msg("%s", f->err.text);
	free(json);
}

static void print(fx *f, np_table_format fmt, bool differences)
{
	free(f->out);
	f->out = NULL;
	FILE *m = open_memstream(&f->out, &f->len);
	np_compare_print(m, f->c, fmt, differences);
	assert_int_equal(fclose(m), 0);
}

static void cell(fx *f, unsigned row, unsigned column, const char *want)
{
	char buf[600];
	np_compare_cell(f->c, row, column, buf, sizeof buf);
	if (strcmp(buf, want) != 0)
		fail_msg("row %s, column %s: \"%s\", want \"%s\"", np_compare_vector(f->c, row),
			 np_compare_label(f->c, column), buf, want);
}

#define PRIV_KNOWN "cmp/privilege status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD (0xC0000061) # r\n"

/* Two machines: a Windows 7 and a Windows 10 run, one target each. */
static void test_compare_two_machines(void **state)
{
	fx *f = *state;
	add(f, "runs/win7.json", report_json(f, "6.1/x64", NULL, "os=Windows;version=6.1;build=7601"));
	add(f, "runs/win10.json", report_json(f, "1809/x64", PRIV_KNOWN, "label=Windows 10 1809"));
	assert_int_equal(np_compare_columns(f->c), 2);
	assert_int_equal(np_compare_rows(f->c), 4);
	assert_string_equal(np_compare_label(f->c, 0), "Windows 6.1 7601");
	assert_string_equal(np_compare_label(f->c, 1), "Windows 10 1809");
	assert_string_equal(np_compare_vector(f->c, 0), "cmp/privilege");
	cell(f, 0, 0, "match");
	cell(f, 0, 1, "known status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD");
	cell(f, 1, 0, "output-mismatch step 1: STATUS_SUCCESS Interval=39063");
	cell(f, 1, 1, "output-mismatch step 1: STATUS_SUCCESS Interval=39063");
	cell(f, 2, 0, "match");
	cell(f, 3, 0, "match");
	assert_true(np_compare_row_differs(f->c, 0));
	assert_false(np_compare_row_differs(f->c, 1));
	assert_false(np_compare_row_differs(f->c, 2));
	assert_false(np_compare_row_differs(f->c, 3));
	assert_int_equal(np_compare_differing(f->c), 1);

	print(f, NP_TABLE_TEXT, false);
	assert_string_equal(f->out,
		"ntprof compare: 2 files, 2 columns, 4 vectors, 1 differ\n"
		"  vector         Windows 6.1 7601                                       Windows 10 1809\n"
		"* cmp/privilege  match                                                  known status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD\n"
		"  cmp/query      output-mismatch step 1: STATUS_SUCCESS Interval=39063  output-mismatch step 1: STATUS_SUCCESS Interval=39063\n"
		"  cmp/good|pipe  match                                                  match\n"
		"  cmp/emon       match                                                  match\n");
	print(f, NP_TABLE_TEXT, true);
	assert_string_equal(f->out,
		"ntprof compare: 2 files, 2 columns, 4 vectors, 1 differ (only those are shown)\n"
		"  vector         Windows 6.1 7601  Windows 10 1809\n"
		"* cmp/privilege  match             known status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD\n");
	print(f, NP_TABLE_MARKDOWN, false);
	assert_string_equal(f->out,
		"ntprof compare: 2 files, 2 columns, 4 vectors, 1 differ\n"
		"\n"
		"| | vector | Windows 6.1 7601 | Windows 10 1809 |\n"
		"|---|---|---|---|\n"
		"| \xE2\x89\xA0 | `cmp/privilege` | `match` | `known status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD` |\n"
		"|   | `cmp/query` | `output-mismatch step 1: STATUS_SUCCESS Interval=39063` | "
		"`output-mismatch step 1: STATUS_SUCCESS Interval=39063` |\n"
		"|   | `cmp/good\\|pipe` | `match` | `match` |\n"
		"|   | `cmp/emon` | `match` | `match` |\n");
}

/* A file with several targets has a column per target; vectors a column
 * did not run are "-"; labels that agree get the file's path. */
static void test_compare_columns_and_labels(void **state)
{
	fx *f = *state;
	add(f, "a/model.json", report_json(f, "6.1/x86,6.2/x64", NULL, NULL));
	add(f, "b/model.json", report_json(f, "6.2/x64", NULL, NULL));
	add(f, "c/model.json", report_json(f, "1809/x64", NULL, NULL));
	add(f, "wine.json", report_json(f, "6.2/x64", NULL, "wine=8.0;version=6.1;arch=x64"));
	assert_int_equal(np_compare_columns(f->c), 5);
	assert_string_equal(np_compare_label(f->c, 0), "model 6.1/x86");
	assert_string_equal(np_compare_label(f->c, 1), "model 6.2/x64");
	assert_string_equal(np_compare_label(f->c, 2), "model (b/model.json)");
	assert_string_equal(np_compare_label(f->c, 3), "model (c/model.json)");
	assert_string_equal(np_compare_label(f->c, 4), "wine 8.0 6.1 x64");
	cell(f, 3, 0, "not-applicable");   /* emon on x86 6.1 */
	cell(f, 3, 1, "match");
	cell(f, 0, 1, "status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD");
	assert_true(np_compare_row_differs(f->c, 0));
	assert_false(np_compare_row_differs(f->c, 1));

	/* a file that lacks a vector: "-", and the row differs */
	static const char one[] =
		"{\"tool\":\"ntprof\",\"format\":3,\"results\":[\n"
		"{\"vector\":\"cmp/query\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"output-mismatch\",\"step\":1,"
		"\"got\":{\"kind\":\"status\",\"code\":0,\"out\":{\"Interval\":\"39063\"}}},\n"
		"{\"vector\":\"cmp/other\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"stub\",\"step\":2,"
		"\"got\":{\"kind\":\"stub\"},\"observed\":\"stub\"},\n"
		"{\"vector\":\"cmp/odd\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"status-mismatch\",\"step\":1,"
		"\"got\":{\"kind\":\"status\",\"code\":305419896}}]}";
	assert_true(np_compare_add(f->c, "old.json", one, strlen(one), &f->err));
	assert_int_equal(np_compare_columns(f->c), 6);
	assert_int_equal(np_compare_rows(f->c), 6);
	assert_string_equal(np_compare_label(f->c, 5), "old");
	cell(f, 1, 5, "output-mismatch step 1: STATUS_SUCCESS Interval=39063");
	cell(f, 2, 5, "-");
	cell(f, 4, 5, "stub step 2: stub");
	cell(f, 4, 0, "-");
	cell(f, 5, 5, "status-mismatch step 1: STATUS_? (0x12345678)");   /* no name: the number stays */
	assert_false(np_compare_row_differs(f->c, 1));
	assert_true(np_compare_row_differs(f->c, 2));
	/* the cell is the fields' (kind, code, out), not the text beside them */
	static const char lying[] =
		"{\"tool\":\"ntprof\",\"format\":3,\"results\":[\n"
		"{\"vector\":\"cmp/query\",\"version\":\"6.1\",\"arch\":\"x86\",\"class\":\"output-mismatch\",\"step\":1,"
		"\"got\":{\"kind\":\"status\",\"code\":3221225569,\"out\":{\"Interval\":\"0x10\"},"
		"\"text\":\"STATUS_SUCCESS (0x00000000) Interval=7\"}}]}";
	assert_true(np_compare_add(f->c, "lying.json", lying, strlen(lying), &f->err));
	cell(f, 1, 6, "output-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD Interval=16");
}

/* Only behaviour counts: a known divergence equals the same unlisted one;
 * another outcome, step or class differs. The fail-twin: a table that never
 * marked a difference would pass the first half and fail the second. */
static void test_compare_differences(void **state)
{
	fx *f = *state;
	static const char *const got[] = {
		"{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"known\",\"observed\":\"stub\",\"step\":1,\"got\":{\"kind\":\"stub\"}}",
		"{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"stub\",\"step\":1,\"got\":{\"kind\":\"stub\"}}",
		"{\"vector\":\"v\",\"version\":\"1809\",\"arch\":\"x64\",\"class\":\"stub\",\"step\":1,\"got\":{\"kind\":\"stub\"}}",
		"{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"stub\",\"step\":2,\"got\":{\"kind\":\"stub\"}}",
		"{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"crashed\",\"step\":1,\"got\":{\"kind\":\"stub\"}}",
		"{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"stub\",\"step\":1,\"got\":{\"kind\":\"stub\",\"out\":{\"Interval\":\"1\"}}}",
		"{\"vector\":\"w\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"stub\",\"step\":1,\"got\":{\"kind\":\"stub\"}}",
	};
	static const bool differs[] = { false, false, false, true, true, true, true };
	for (size_t i = 0; i < sizeof got / sizeof *got; i++) {
		char a[400], b[400];
		np_compare_free(f->c);
		f->c = np_compare_new();
		snprintf(a, sizeof a, "{\"tool\":\"ntprof\",\"format\":3,\"results\":[%s]}", got[0]);
		snprintf(b, sizeof b, "{\"tool\":\"ntprof\",\"format\":3,\"results\":[%s]}", got[i]);
		assert_true(np_compare_add(f->c, "a.json", a, strlen(a), &f->err));
		assert_true(np_compare_add(f->c, "b.json", b, strlen(b), &f->err));
		if ((np_compare_differing(f->c) != 0) != differs[i])
			fail_msg("%s against %s: differing %u, want %s", got[0], got[i], np_compare_differing(f->c),
				 differs[i] ? "some" : "none");
	}
}

/* Refused results, each with file:line; the table stays as it was. */
static void test_compare_refused_files(void **state)
{
	fx *f = *state;
	static const struct { const char *text; const char *want; } bad[] = {
		{ "[]", "x.json:1: expected a result file of `ntprof run --format json`" },
		{ "{\"tool\":\"other\",\"format\":3,\"results\":[]}", "x.json:1: expected a result file" },
		{ "{\"tool\":\"ntprof\",\n\"format\":4,\"results\":[]}", "x.json:2: \"format\" 4 is not supported (this ntprof reads formats 2 and 3)" },
		{ "{\"tool\":\"ntprof\",\n\"format\":1,\"results\":[]}",
		  "x.json:2: \"format\" 1 is no longer read (it was ntprof 0.1's, outcomes as text; " },
		{ "{\"tool\":\"ntprof\",\"format\":2.5,\"results\":[]}", "x.json:1: \"format\" 2.5 is not supported" },
		{ "{\"tool\":\"ntprof\",\"results\":[]}", "x.json:1: \"format\" missing or not a number is not supported" },
		{ "{\"tool\":\"ntprof\",\"format\":3}", "x.json:1: expected \"results\": an array" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"environment\":[],\"results\":[]}", "x.json:1: \"environment\" must be an object" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"environment\":{\n\"cpus\":4},\"results\":[]}",
		  "x.json:2: environment \"cpus\" must be a string" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[\n1]}", "x.json:2: a result must be an object, not a number" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[\n{\"version\":\"6.2\"}]}", "x.json:2: a result without \"vector\"" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"great\",\"step\":0,\"got\":null}]}", "x.json:2: unknown class \"great\" in \"class\"" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"known\",\n\"observed\":\"match\",\"step\":0,\"got\":null}]}",
		  "x.json:3: class \"known\" cannot have been observed as \"match\"" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"observed\":\"crashed\",\"step\":0,\"got\":null}]}",
		  "x.json:2: class \"stub\" cannot have been observed as \"crashed\"" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"observed\":7,\"step\":0,\"got\":null}]}", "x.json:2: \"observed\" must be a string, not a number" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\n\"step\":1.5,\"got\":null}]}", "x.json:3: \"step\" must be a whole number from 0 to 1000" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"step\":-1,\"got\":null}]}", "x.json:2: \"step\" must be a whole number" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"got\":null}]}", "x.json:1: a result without \"step\"" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"step\":0,\"got\":null}]}", "x.json:1: a result with an empty vector, version or arch" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[\n"
		  "{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"match\",\"step\":0,\"got\":null},\n"
		  "{\"vector\":\"w\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"match\",\"step\":0,\"got\":null},\n"
		  "{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"stub\",\"step\":1,\"got\":{\"kind\":\"stub\"}}]}",
		  "x.json:4: vector v on 6.2/x64 is in this file twice (first at line 2)" },
		/* got is read by its fields, each checked */
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"step\":1,\"got\":{\"text\":\"stub\"}}]}", "x.json:2: a result without \"kind\"" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"step\":1,\"got\":{\n\"kind\":\"teapot\"}}]}", "x.json:3: unknown kind \"teapot\" in \"got\"" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"step\":1,\"got\":{\"kind\":\"status\",\n\"code\":-1}}]}",
		  "x.json:3: \"got\" of this kind needs \"code\": a whole number from 0 to 0xFFFFFFFF" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"step\":1,\"got\":{\"kind\":\"win32\"}}]}",
		  "x.json:2: \"got\" of this kind needs \"code\"" },
		{ "{\"tool\":\"ntprof\",\"format\":3,\"results\":[{\"vector\":\"v\",\"version\":\"6.2\",\"arch\":\"x64\",\n"
		  "\"class\":\"stub\",\"step\":1,\"got\":{\"kind\":\"stub\",\"out\":{\n\"Interval\":5}}}]}",
		  "x.json:3: out-value \"Interval\" must be a string" },
	};
	add(f, "good.json", report_json(f, "6.2/x64", NULL, NULL));
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		if (np_compare_add(f->c, "x.json", bad[i].text, strlen(bad[i].text), &f->err))
			fail_msg("accepted: %s", bad[i].text);
		if (strncmp(f->err.text, bad[i].want, strlen(bad[i].want)) != 0)
			fail_msg("for %s\n  got  %s\n  want %s...", bad[i].text, f->err.text, bad[i].want);
		assert_int_equal(np_compare_columns(f->c), 1);
		assert_int_equal(np_compare_rows(f->c), 4);
	}
	/* a missing file */
	char path[700], want[800];
	snprintf(path, sizeof path, "%s/absent.json", f->dir);
	assert_false(np_compare_load(f->c, path, &f->err));
	snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
	assert_string_equal(f->err.text, want);
}

/* Every truncation and every one-byte deletion of a real report: read or
 * refused with a line inside the text, never a crash (ASan watches). */
static void test_compare_mangled_reports_never_crash(void **state)
{
	fx *f = *state;
	char *json = report_json(f, "6.1/x86,6.2/x64", PRIV_KNOWN "cmp/good|pipe stub step 1: stub # stale\n", "wine=8.0");
	size_t len = strlen(json);
	char *copy = malloc(len + 1);
	unsigned refused = 0, lines = 1;
	assert_non_null(copy);
	for (size_t i = 0; i < len; i++)
		lines += json[i] == '\n';
	for (size_t cut = 0; cut < 2 * len; cut++) {
		size_t n;
		if (cut < len) {   /* the first cut bytes */
			n = cut;
			memcpy(copy, json, n);
		} else {           /* all but byte cut - len */
			size_t k = cut - len;
			memcpy(copy, json, k);
			memcpy(copy + k, json + k + 1, len - k - 1);
			n = len - 1;
		}
		np_compare *c = np_compare_new();
		np_error err;
		if (!np_compare_add(c, "m.json", copy, n, &err)) {
			int line = -1;
			refused++;
			if (sscanf(err.text, "m.json:%d:", &line) != 1 || line < 1 || (unsigned)line > lines)
				fail_msg("bad location in \"%s\"", err.text);
		}
		np_compare_free(c);
	}
	assert_true(refused > len);   /* every truncation, and most deletions */
	free(copy);
	free(json);
}

/* conformance/data/bad-json/expected.txt: "NAME.json => :LINE: MESSAGE-START". */
static void test_compare_bad_data_files(void **state)
{
	fx *f = *state;
	FILE *list = fopen(BAD_JSON_DIR "/expected.txt", "r");
	char line[800];
	unsigned checked = 0, failures = 0;
	if (!list)
		fail_msg("cannot open %s/expected.txt", BAD_JSON_DIR);
	while (fgets(line, sizeof line, list)) {
		char path[900], want[1800];
		line[strcspn(line, "\r\n")] = '\0';
		char *arrow = strstr(line, " => :");
		if (!line[0] || line[0] == '#')
			continue;
		if (!arrow)
			fail_msg("expected.txt: \"%s\" is not NAME => :LINE: MESSAGE", line);
		*arrow = '\0';
		snprintf(path, sizeof path, "%s/%s", BAD_JSON_DIR, line);
		snprintf(want, sizeof want, "%s:%s", path, arrow + 5);
		checked++;
		if (np_compare_load(f->c, path, &f->err)) {
			print_error("%s: read; want \"%s...\"\n", line, want);
			failures++;
		} else if (strncmp(f->err.text, want, strlen(want)) != 0) {
			print_error("%s:\n  got  \"%s\"\n  want \"%s...\"\n", line, f->err.text, want);
			failures++;
		}
	}
	fclose(list);
	assert_true(checked >= 8);
	assert_int_equal(failures, 0);
	assert_int_equal(np_compare_columns(f->c), 0);
}

static void test_compare_table_format_parse(void **state)
{
	(void)state;
	np_table_format fmt = NP_TABLE_TEXT;
	assert_true(np_table_format_parse("markdown", &fmt) && fmt == NP_TABLE_MARKDOWN);
	assert_true(np_table_format_parse("text", &fmt) && fmt == NP_TABLE_TEXT);
	assert_true(np_table_format_parse("md", &fmt) && fmt == NP_TABLE_MARKDOWN);
	assert_false(np_table_format_parse("json", &fmt));
	assert_int_equal(fmt, NP_TABLE_MARKDOWN);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_compare_json_values),
	cmocka_unit_test(test_compare_json_lines),
	cmocka_unit_test(test_compare_json_errors),
	cmocka_unit_test(test_compare_json_depth_and_nul),
	T(test_compare_two_machines),
	T(test_compare_columns_and_labels),
	T(test_compare_differences),
	T(test_compare_refused_files),
	T(test_compare_mangled_reports_never_crash),
	T(test_compare_bad_data_files),
	cmocka_unit_test(test_compare_table_format_parse),
};
#undef T

NP_TEST_MAIN(tests)
