/* SPDX-License-Identifier: MIT */
/* Reports (harness/report/report.c) and the canonical record text (harness/report/record_text.c).
 *
 * One small run with a result of every common class is reported in each
 * format into memory; text and TAP are compared whole, JUnit and JSON are
 * checked for well-formedness by the small parsers below and for their key
 * contents, escaping included. */
#include "np_test.h"
#include "np_row_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ntprof/known.h"
#include "ntprof/backend.h"
#include "ntprof/runner.h"
#include "ntprof/status.h"
#include "ntprof/vector.h"

/* ---- the run every report test formats ---- */

static const char run_text[] =
	"vector report/match\n"                          /* 1 */
	"  title   t\n"
	"  rules   QI-5\n"
	"  source  s\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS Interval=39063\n"
	"vector report/status\n"                         /* 7 */
	"  title   t\n"
	"  rules   SI-1 MC-1\n"
	"  source  s\n"
	"  call    NtSetIntervalProfile Interval=5000\n"   /* 11 */
	"  expect  STATUS_SUCCESS\n"
	"vector report/output\n"                         /* 13 */
	"  title   t\n"
	"  rules   QI-5\n"
	"  source  s\n"
	"  applies >=6.2\n"
	"  call    NtQueryIntervalProfile\n"               /* 18 */
	"  expect  STATUS_SUCCESS Interval=1221\n"
	"vector report/na\n"                             /* 20 */
	"  title   t\n"
	"  rules   KS-3\n"
	"  source  s\n"
	"  given   hal=emon\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS\n"
	"vector report/alternative\n"                    /* 27 */
	"  title   t\n"
	"  rules   SI-1\n"
	"  flags   inferred\n"
	"  source  s\n"
	"  call    NtSetIntervalProfile Interval=5000\n"   /* 32 */
	"  expect  STATUS_SUCCESS\n"
	"  accept  STATUS_PRIVILEGE_NOT_HELD flag=inferred\n"
	"vector report/esc&<>\"\\x\n"                    /* 35 */
	"  title   t\n"
	"  rules   QI-5\n"
	"  source  s\n"
	"  applies 5.1\n"
	"  call    NtQueryIntervalProfile\n"               /* 40 */
	"  expect  STATUS_SUCCESS Interval=a&b<c>\"d\\e\n";

#define NA_REASON "that HAL profile interface does not exist on this version and architecture (KS-3)"
#define GROUPED "; grouped by cause: function, rule and outcome, its vectors under it (--verbose: a line per target)"
#define SUMMARY "5 match, 1 match-alternative, 0 known, 1 status-mismatch, 2 output-mismatch, 0 not-exported, " \
		"0 stub, 0 crashed, 1 not-applicable, 0 skipped"

typedef struct fx {
	char dir[512];
	char path[700];
	np_vector_set set;
	np_backend *model;
	np_run run;
	char *out;          /* a report in memory */
	size_t len;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	if (!np_test_tmpdir(f->dir, sizeof f->dir, "report")) {
		free(f);
		return -1;
	}
	f->model = np_backend_model_new();
	*state = f;
	return f->model ? 0 : -1;
}

static int teardown(void **state)
{
	fx *f = *state;
	np_run_free(&f->run);
	if (f->model)
		f->model->destroy(f->model);
	np_vectors_free(&f->set);
	free(f->out);
	if (f->path[0])
		remove(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* Loads run_text and runs it on 6.2/x64 and 5.1/x86. */
static void small_run(fx *f)
{
	np_error err;
	np_target_list l = { .count = 0 };
	snprintf(f->path, sizeof f->path, "%s/report.vec", f->dir);
	FILE *out = fopen(f->path, "w");
	if (!out || fputs(run_text, out) < 0 || fclose(out) != 0)
		fail_msg("cannot write %s", f->path);
	if (!np_vectors_load(&f->set, f->path, &err))
		fail_msg("%s", err.text);
	assert_null(np_targets_add(&l, "6.2/x64"));
	assert_null(np_targets_add(&l, "5.1/x86"));
	assert_true(np_run_vectors(f->model, &f->set, &l, &f->run));
	assert_int_equal(f->run.count, 10);
}

static void report(fx *f, np_format fmt, bool verbose)
{
	free(f->out);
	f->out = NULL;
	FILE *m = open_memstream(&f->out, &f->len);
	assert_non_null(m);
	np_report(m, &f->run, fmt, verbose);
	assert_int_equal(fclose(m), 0);
}

static unsigned count_of(const char *text, const char *what)
{
	unsigned n = 0;
	for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

static void assert_contains(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("\"%s\" not found in:\n%s", want, text);
}

/* ---- text ---- */

static void test_report_text_exact(void **state)
{
	fx *f = *state;
	char want[4096];
	small_run(f);
	report(f, NP_FORMAT_TEXT, false);
	const char *p = f->path;
	snprintf(want, sizeof want,
		 "ntprof run: backend model, 6 vectors, 2 targets, 10 results" GROUPED "\n"
		 "status-mismatch   NtSetIntervalProfile: expected STATUS_SUCCESS (0x00000000), got "
		 "STATUS_PRIVILEGE_NOT_HELD (0xC0000061) <model: decided by SI-1> (1 vector, 1 result)\n"
		 "    report/status on 6.2/x64 [SI-1,MC-1] %s:11 step 1\n"
		 "output-mismatch   NtQueryIntervalProfile: expected STATUS_SUCCESS (0x00000000) Interval=1221, got "
		 "STATUS_SUCCESS (0x00000000) Interval=39063 <model: decided by QI-3> (1 vector, 1 result)\n"
		 "    report/output on 6.2/x64 [QI-5] %s:18 step 1\n"
		 "match-alternative NtSetIntervalProfile: expected STATUS_SUCCESS (0x00000000), got "
		 "STATUS_PRIVILEGE_NOT_HELD (0xC0000061) <model: decided by SI-1> (1 vector, 1 result)\n"
		 "    report/alternative on 6.2/x64 [SI-1] %s:32 step 1 (inferred)\n"
		 "output-mismatch   NtQueryIntervalProfile: expected STATUS_SUCCESS (0x00000000) Interval=a&b<c>\"d\\e, got "
		 "STATUS_SUCCESS (0x00000000) Interval=39063 <model: decided by QI-3> (1 vector, 1 result)\n"
		 "    report/esc&<>\"\\x on 5.1/x86 [QI-5] %s:40 step 1\n"
		 "summary: " SUMMARY "\n",
		 p, p, p, p);
	assert_string_equal(f->out, want);
}

/* The pieces a reader looks for on a mismatch: the cause on the heading,
 * where on the vector's line under it. */
static void test_report_text_mismatch_line(void **state)
{
	fx *f = *state;
	char where[800];
	small_run(f);
	report(f, NP_FORMAT_TEXT, false);
	const char *line = strstr(f->out, "\nstatus-mismatch ");
	assert_non_null(line);
	line++;
	char one[1024], two[1024];
	snprintf(one, sizeof one, "%.*s", (int)strcspn(line, "\n"), line);
	line += strcspn(line, "\n") + 1;
	snprintf(two, sizeof two, "%.*s", (int)strcspn(line, "\n"), line);
	assert_contains(one, " NtSetIntervalProfile: ");
	assert_contains(one, "expected STATUS_SUCCESS (0x00000000), got STATUS_PRIVILEGE_NOT_HELD (0xC0000061)");
	assert_contains(one, " <model: decided by SI-1> ");
	snprintf(where, sizeof where, " %s:11 ", f->path);
	assert_contains(two, where);
	assert_contains(two, "    report/status ");
	assert_contains(two, " on 6.2/x64 ");
	assert_contains(two, "[SI-1,MC-1]");
	assert_int_equal(count_of(f->out, "\nsummary: "), 1);
}

static void test_report_text_verbose_lists_everything(void **state)
{
	fx *f = *state;
	char want[1200];
	small_run(f);
	report(f, NP_FORMAT_TEXT, true);
	assert_int_equal(count_of(f->out, "\n"), 12);   /* header, 10 results, summary */
	snprintf(want, sizeof want, "\nmatch             report/match on 6.2/x64 [QI-5] %s:1\n", f->path);
	assert_contains(f->out, want);
	snprintf(want, sizeof want, "\nnot-applicable    report/na on 5.1/x86 [KS-3] %s:20 (" NA_REASON ")\n", f->path);
	assert_contains(f->out, want);
	assert_contains(f->out, "\nsummary: " SUMMARY "\n");
}

/* ---- TAP ---- */

static void test_report_tap_exact(void **state)
{
	fx *f = *state;
	char want[4096];
	small_run(f);
	report(f, NP_FORMAT_TAP, false);
	const char *p = f->path;
	snprintf(want, sizeof want,
		 "TAP version 13\n"
		 "1..10\n"
		 "ok 1 - report/match on 6.2/x64\n"
		 "ok 2 - report/match on 5.1/x86\n"
		 "not ok 3 - report/status on 6.2/x64 # status-mismatch\n"
		 "  # status-mismatch   report/status on 6.2/x64 [SI-1,MC-1] %s:11 step 1 NtSetIntervalProfile: "
		 "expected STATUS_SUCCESS (0x00000000), got STATUS_PRIVILEGE_NOT_HELD (0xC0000061) <model: decided by SI-1>\n"
		 "ok 4 - report/status on 5.1/x86\n"
		 "not ok 5 - report/output on 6.2/x64 # output-mismatch\n"
		 "  # output-mismatch   report/output on 6.2/x64 [QI-5] %s:18 step 1 NtQueryIntervalProfile: "
		 "expected STATUS_SUCCESS (0x00000000) Interval=1221, got STATUS_SUCCESS (0x00000000) Interval=39063 <model: decided by QI-3>\n"
		 "ok 6 - report/na on 6.2/x64\n"
		 "ok 7 - report/na on 5.1/x86 # SKIP not-applicable: " NA_REASON "\n"
		 "ok 8 - report/alternative on 6.2/x64 # match-alternative\n"
		 "ok 9 - report/alternative on 5.1/x86\n"
		 "not ok 10 - report/esc&<>\"\\x on 5.1/x86 # output-mismatch\n"
		 "  # output-mismatch   report/esc&<>\"\\x on 5.1/x86 [QI-5] %s:40 step 1 NtQueryIntervalProfile: "
		 "expected STATUS_SUCCESS (0x00000000) Interval=a&b<c>\"d\\e, got STATUS_SUCCESS (0x00000000) Interval=39063 <model: decided by QI-3>\n"
		 "# " SUMMARY "\n",
		 p, p, p);
	assert_string_equal(f->out, want);
}

/* TAP's own rules: a plan, one result line per test, numbered in order. */
static void test_report_tap_plan_matches_results(void **state)
{
	fx *f = *state;
	small_run(f);
	report(f, NP_FORMAT_TAP, false);
	unsigned planned = 0, seen = 0, not_ok = 0, skips = 0;
	char *copy = strdup(f->out), *save = NULL;
	assert_non_null(copy);
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned n;
		if (sscanf(line, "1..%u", &planned) == 1)
			continue;
		bool bad = strncmp(line, "not ok ", 7) == 0;
		if (bad || strncmp(line, "ok ", 3) == 0) {
			if (sscanf(line + (bad ? 7 : 3), "%u", &n) != 1 || n != seen + 1) {
				free(copy);
				fail_msg("result line out of sequence: %s", line);
			}
			seen++;
			not_ok += bad;
			skips += strstr(line, " # SKIP ") != NULL;
		}
	}
	free(copy);
	assert_int_equal(planned, 10);
	assert_int_equal(seen, 10);
	assert_int_equal(not_ok, 3);
	assert_int_equal(skips, 1);
}

/* ---- a small XML well-formedness check ---- */

static bool xml_name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
	       (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
}

static bool xml_entity(const char **s)
{
	static const char *const known[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
		if (strncmp(*s, known[i], strlen(known[i])) == 0) {
			*s += strlen(known[i]);
			return true;
		}
	}
	const char *p = *s + 1;
	if (*p++ != '#' || *p < '0' || *p > '9')
		return false;
	char *end;
	unsigned long v = strtoul(p, &end, 10);
	p = end;
	if (*p != ';' || !(v == 9 || v == 10 || v == 13 || v >= 0x20))   /* XML 1.0 Char */
		return false;
	*s = p + 1;
	return true;
}

/* NULL when s is a well-formed document (the subset report.c writes). */
static const char *xml_check(const char *s)
{
	char stack[8][64];
	int depth = 0;
	bool root = false;
	if (strncmp(s, "<?xml ", 6) == 0) {
		if (!(s = strstr(s, "?>")))
			return "unterminated XML declaration";
		s += 2;
	}
	while (*s) {
		if (*s != '<') {
			if (depth == 0 && !strchr(" \t\r\n", *s))
				return "text outside the root element";
			if (*s == '&' && !xml_entity(&s))
				return "'&' that starts no known entity in text";
			if (*s && *s != '&')
				s++;
			continue;
		}
		s++;
		bool closing = *s == '/';
		s += closing;
		const char *name = s;
		if (!xml_name_char(*s, true))
			return "bad element name";
		while (xml_name_char(*s, false))
			s++;
		size_t len = (size_t)(s - name);
		if (len >= sizeof stack[0])
			return "element name too long";
		if (closing) {
			if (*s++ != '>')
				return "bad end tag";
			if (depth == 0 || strlen(stack[depth - 1]) != len || strncmp(stack[depth - 1], name, len) != 0)
				return "end tag does not match the open element";
			depth--;
			continue;
		}
		if (depth == 0 && root)
			return "a second root element";
		root = true;
		for (;;) {
			while (*s == ' ' || *s == '\t' || *s == '\n')
				s++;
			if (*s == '>') {
				if (depth == (int)(sizeof stack / sizeof *stack))
					return "nesting too deep";
				memcpy(stack[depth], name, len);
				stack[depth++][len] = '\0';
				s++;
				break;
			}
			if (s[0] == '/' && s[1] == '>') {
				s += 2;
				break;
			}
			if (!xml_name_char(*s, true))
				return "bad attribute name";
			while (xml_name_char(*s, false))
				s++;
			if (*s++ != '=' || *s++ != '"')
				return "attribute without a quoted value";
			while (*s != '"') {
				if (*s == '\0')
					return "unterminated attribute value";
				if (*s == '<')
					return "'<' in an attribute value";
				if ((unsigned char)*s < 0x20)
					return "raw control character in an attribute value";
				if (*s == '&') {
					if (!xml_entity(&s))
						return "'&' that starts no known entity in an attribute";
				} else {
					s++;
				}
			}
			s++;
		}
	}
	if (depth)
		return "unclosed element";
	return root ? NULL : "no root element";
}

static void test_report_xml_checker_catches_errors(void **state)
{
	(void)state;
	assert_null(xml_check("<?xml version=\"1.0\"?>\n<a b=\"&amp;&lt;&#9;\"><c/></a>\n"));
	assert_non_null(xml_check("<a b=\"x&y\"></a>"));
	assert_non_null(xml_check("<a b=\"x<y\"></a>"));
	assert_non_null(xml_check("<a b=\"x\"y\"></a>"));
	assert_non_null(xml_check("<a><b></a></b>"));
	assert_non_null(xml_check("<a>"));
	assert_non_null(xml_check("<a/><b/>"));
	assert_non_null(xml_check("<a b=\"&#1;\"/>"));
}

/* ---- JUnit ---- */

static void test_report_junit_well_formed(void **state)
{
	fx *f = *state;
	small_run(f);
	report(f, NP_FORMAT_JUNIT, false);
	const char *e = xml_check(f->out);
	if (e)
		fail_msg("%s in:\n%s", e, f->out);
	if (strncmp(f->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39) != 0)
		fail_msg("no XML declaration:\n%s", f->out);
	assert_contains(f->out, "\n<testsuite name=\"ntprof-model\" tests=\"10\" failures=\"3\" skipped=\"1\">\n");
	assert_int_equal(count_of(f->out, "<testcase "), 10);
	assert_int_equal(count_of(f->out, "</testcase>"), 10);
	assert_int_equal(count_of(f->out, "<failure "), 3);
	assert_int_equal(count_of(f->out, "<skipped "), 1);
	assert_int_equal(count_of(f->out, "<failure type=\"status-mismatch\" "), 1);
	assert_int_equal(count_of(f->out, "<failure type=\"output-mismatch\" "), 2);
	size_t n = strlen(f->out);
	assert_true(n > 13 && strcmp(f->out + n - 13, "</testsuite>\n") == 0);
}

static void test_report_junit_failure_and_skip_text(void **state)
{
	fx *f = *state;
	char want[1200];
	small_run(f);
	report(f, NP_FORMAT_JUNIT, false);
	snprintf(want, sizeof want,
		 "<testcase classname=\"report/status\" name=\"6.2/x64\"><failure type=\"status-mismatch\" "
		 "message=\"%s:11 step 1: expected STATUS_SUCCESS (0x00000000), got STATUS_PRIVILEGE_NOT_HELD "
		 "(0xC0000061)\"/></testcase>\n", f->path);
	assert_contains(f->out, want);
	assert_contains(f->out, "<testcase classname=\"report/na\" name=\"5.1/x86\"><skipped message=\""
			NA_REASON "\"/></testcase>\n");
	assert_contains(f->out, "<testcase classname=\"report/match\" name=\"6.2/x64\"></testcase>\n");
	/* an alternative is a pass */
	assert_contains(f->out, "<testcase classname=\"report/alternative\" name=\"6.2/x64\"></testcase>\n");
}

static void test_report_junit_escapes(void **state)
{
	fx *f = *state;
	small_run(f);
	report(f, NP_FORMAT_JUNIT, false);
	assert_contains(f->out, "<testcase classname=\"report/esc&amp;&lt;&gt;&quot;\\x\" name=\"5.1/x86\">");
	assert_contains(f->out, "expected STATUS_SUCCESS (0x00000000) Interval=a&amp;b&lt;c&gt;&quot;d\\e, got ");
	assert_null(strstr(f->out, "a&b"));
	assert_null(strstr(f->out, "<c>"));
}

/* ---- a small JSON parser: well-formedness only ---- */

typedef struct json {
	const char *p;
	int depth;
} json;

static void json_ws(json *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static bool json_value(json *j);

static bool json_string(json *j)
{
	if (*j->p++ != '"')
		return false;
	while (*j->p != '"') {
		unsigned char c = (unsigned char)*j->p;
		if (c == '\0' || c < 0x20)
			return false;
		if (c == '\\') {
			j->p++;
			if (*j->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", j->p[i]) || j->p[i] == '\0')
						return false;
				j->p += 5;
			} else if (*j->p && strchr("\"\\/bfnrt", *j->p)) {
				j->p++;
			} else {
				return false;
			}
		} else {
			j->p++;
		}
	}
	j->p++;
	return true;
}

static bool json_digits(json *j)
{
	if (*j->p < '0' || *j->p > '9')
		return false;
	while (*j->p >= '0' && *j->p <= '9')
		j->p++;
	return true;
}

static bool json_number(json *j)
{
	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (!json_digits(j))
		return false;
	if (*j->p == '.') {
		j->p++;
		if (!json_digits(j))
			return false;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!json_digits(j))
			return false;
	}
	return true;
}

static bool json_list(json *j, char close, bool object)
{
	j->p++;
	json_ws(j);
	if (*j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		json_ws(j);
		if (object) {
			if (!json_string(j))
				return false;
			json_ws(j);
			if (*j->p++ != ':')
				return false;
		}
		if (!json_value(j))
			return false;
		json_ws(j);
		if (*j->p == close) {
			j->p++;
			return true;
		}
		if (*j->p++ != ',')
			return false;
	}
}

static bool json_value(json *j)
{
	bool ok;
	json_ws(j);
	if (++j->depth > 32)
		return false;
	switch (*j->p) {
	case '{': ok = json_list(j, '}', true); break;
	case '[': ok = json_list(j, ']', false); break;
	case '"': ok = json_string(j); break;
	case 't': ok = strncmp(j->p, "true", 4) == 0 && (j->p += 4); break;
	case 'f': ok = strncmp(j->p, "false", 5) == 0 && (j->p += 5); break;
	case 'n': ok = strncmp(j->p, "null", 4) == 0 && (j->p += 4); break;
	default: ok = json_number(j); break;
	}
	j->depth--;
	return ok;
}

/* NULL when text is one JSON value, else the text where parsing stopped. */
static const char *json_check(const char *text)
{
	json j = { text, 0 };
	if (!json_value(&j))
		return j.p;
	json_ws(&j);
	return *j.p ? j.p : NULL;
}

static void test_report_json_checker_catches_errors(void **state)
{
	(void)state;
	assert_null(json_check("{\"a\":[1,-2.5e3,\"x\\\"y\\\\\\u00e9\",true,false,null],\"b\":{}}\n"));
	assert_non_null(json_check("{\"a\":\"x\"y\"}"));
	assert_non_null(json_check("{\"a\":\"x\\y\"}"));
	assert_non_null(json_check("{\"a\":1,}"));
	assert_non_null(json_check("{\"a\":1}{"));
	assert_non_null(json_check("{\"a\":\"tab\there\"}"));
	assert_non_null(json_check("[01]"));
}

static void test_report_json_well_formed(void **state)
{
	fx *f = *state;
	small_run(f);
	report(f, NP_FORMAT_JSON, false);
	const char *e = json_check(f->out);
	if (e)
		fail_msg("not JSON from \"%.40s\" in:\n%s", e, f->out);
	if (strncmp(f->out, "{\"tool\":\"ntprof\",", 17) != 0)
		fail_msg("does not start with {\"tool\":\"ntprof\",:\n%s", f->out);
	assert_contains(f->out, "\"backend\":\"model\"");
	assert_contains(f->out, "\"summary\":{\"match\":5,\"match-alternative\":1,\"known\":0,\"status-mismatch\":1,"
			"\"output-mismatch\":2,\"not-exported\":0,\"stub\":0,\"crashed\":0,\"not-applicable\":1,"
			"\"skipped\":0}");
	assert_int_equal(count_of(f->out, "{\"vector\":"), 10);
	assert_int_equal(count_of(f->out, "\"class\":\"match\""), 5);
	assert_int_equal(count_of(f->out, "\"class\":\"match-alternative\""), 1);
	assert_int_equal(count_of(f->out, "\"class\":\"status-mismatch\""), 1);
	assert_int_equal(count_of(f->out, "\"class\":\"output-mismatch\""), 2);
	assert_int_equal(count_of(f->out, "\"class\":\"not-applicable\""), 1);
}

static void test_report_json_result_fields(void **state)
{
	fx *f = *state;
	char want[1400];
	small_run(f);
	report(f, NP_FORMAT_JSON, false);
	snprintf(want, sizeof want,
		 "{\"vector\":\"report/status\",\"version\":\"6.2\",\"arch\":\"x64\",\"class\":\"status-mismatch\","
		 "\"observed\":\"status-mismatch\","
		 "\"rules\":[\"SI-1\",\"MC-1\"],\"file\":\"%s\",\"line\":11,\"step\":1,"
		 "\"function\":\"NtSetIntervalProfile\","
		 "\"expected\":{\"kind\":\"status\",\"name\":\"STATUS_SUCCESS\",\"code\":0,\"hex\":\"0x00000000\","
		 "\"out\":{},\"text\":\"STATUS_SUCCESS (0x00000000)\"},"
		 "\"got\":{\"kind\":\"status\",\"name\":\"STATUS_PRIVILEGE_NOT_HELD\",\"code\":3221225569,"
		 "\"hex\":\"0xC0000061\",\"out\":{},\"text\":\"STATUS_PRIVILEGE_NOT_HELD (0xC0000061)\"},"
		 "\"model\":null,\"fixture\":null,\"rule\":\"SI-1\",\"note\":null,\"listed\":null}", f->path);
	assert_contains(f->out, want);
	snprintf(want, sizeof want,
		 "{\"vector\":\"report/na\",\"version\":\"5.1\",\"arch\":\"x86\",\"class\":\"not-applicable\","
		 "\"observed\":\"not-applicable\","
		 "\"rules\":[\"KS-3\"],\"file\":\"%s\",\"line\":20,\"step\":null,\"function\":null,"
		 "\"expected\":null,\"got\":null,"
		 "\"model\":null,\"fixture\":null,\"rule\":null,\"note\":\"" NA_REASON "\",\"listed\":null}", f->path);
	assert_contains(f->out, want);
}

/* A live run shows what it saw (environment) and the model's outcome beside
 * the live one, in text and JSON. */
static void test_report_environment_and_model(void **state)
{
	fx *f = *state;
	small_run(f);
	np_run_env(&f->run, "windows", "6.1.7601 SP1");
	np_run_env(&f->run, "wine", "8.0");
	np_answer_of_text("STATUS_SUCCESS (0x00000000)", np_row_answer_of(&f->run.row[0], NP_PART_MODEL));
	assert_int_equal(setenv("SOURCE_DATE_EPOCH", "42", 1), 0);
	report(f, NP_FORMAT_JSON, false);
	unsetenv("SOURCE_DATE_EPOCH");
	assert_contains(f->out, "\"timestamp\":\"1970-01-01T00:00:42Z\",\"windows\":\"6.1.7601 SP1\",\"wine\":\"8.0\"}");
	assert_contains(f->out, "\"model\":{\"kind\":\"status\",\"name\":\"STATUS_SUCCESS\",\"code\":0,"
			"\"hex\":\"0x00000000\",\"out\":{},\"text\":\"STATUS_SUCCESS (0x00000000)\"}");
	report(f, NP_FORMAT_TEXT, true);
	assert_contains(f->out, "env windows: 6.1.7601 SP1\nenv wine: 8.0\n");
	assert_contains(f->out, "[model: STATUS_SUCCESS (0x00000000)]");
	report(f, NP_FORMAT_TAP, false);   /* comments after the plan, before the results */
	assert_contains(f->out, "\n1..10\n# env windows: 6.1.7601 SP1\n# env wine: 8.0\nok 1 ");
	report(f, NP_FORMAT_JUNIT, false);
	assert_contains(f->out, "<properties>\n    <property name=\"windows\" value=\"6.1.7601 SP1\"/>\n"
				"    <property name=\"wine\" value=\"8.0\"/>\n  </properties>\n  <testcase ");
}

static void test_report_json_escapes(void **state)
{
	fx *f = *state;
	small_run(f);
	report(f, NP_FORMAT_JSON, false);
	assert_contains(f->out, "\"vector\":\"report/esc&<>\\\"\\\\x\"");
	assert_contains(f->out, "\"expected\":{\"kind\":\"status\",\"name\":\"STATUS_SUCCESS\",\"code\":0,"
			"\"hex\":\"0x00000000\",\"out\":{\"Interval\":\"a&b<c>\\\"d\\\\e\"},"
			"\"text\":\"STATUS_SUCCESS (0x00000000) Interval=a&b<c>\\\"d\\\\e\"}");
}

/* An empty run is still a well-formed report in every format. */
static void test_report_empty_run(void **state)
{
	fx *f = *state;
	f->run.backend = "model";
	report(f, NP_FORMAT_TEXT, false);
	assert_string_equal(f->out, "ntprof run: backend model, 0 vectors, 0 targets, 0 results" GROUPED "\n"
			    "summary: 0 match, 0 match-alternative, 0 known, 0 status-mismatch, 0 output-mismatch, "
			    "0 not-exported, 0 stub, 0 crashed, 0 not-applicable, 0 skipped\n");
	report(f, NP_FORMAT_TAP, false);
	assert_string_equal(f->out, "TAP version 13\n1..0\n# 0 match, 0 match-alternative, 0 known, 0 status-mismatch, "
			    "0 output-mismatch, 0 not-exported, 0 stub, 0 crashed, 0 not-applicable, 0 skipped\n");
	report(f, NP_FORMAT_JUNIT, false);
	assert_null(xml_check(f->out));
	assert_contains(f->out, "tests=\"0\" failures=\"0\" skipped=\"0\"");
	report(f, NP_FORMAT_JSON, false);
	assert_null(json_check(f->out));
	assert_contains(f->out, "\"results\":[\n]}");
}

/* A known-divergence file applied: known rows, an unlisted one and a stale
 * entry in every format, still well-formed, escapes included. */
static void test_report_known_every_format(void **state)
{
	fx *f = *state;
	static const char text[] =
		"report/status status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD (0xC0000061) # privilege & <why> \"q\"\n"
		"report/esc&<>\"\\x output-mismatch step 1: STATUS_SUCCESS (0x00000000) Interval=39063 # escapes\n"
		"report/match output-mismatch step 1: STATUS_SUCCESS (0x00000000) # stale & <x>\n";
	np_known k;
	np_error err;
	small_run(f);
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(in);
	if (!np_known_read(&k, "k&.known", in, &err))
		fail_msg("%s", err.text);
	fclose(in);
	np_known_apply(&k, &f->run);
	assert_int_equal(k.known, 2);
	assert_int_equal(k.unlisted, 1);
	assert_int_equal(k.stale, 1);

	report(f, NP_FORMAT_TEXT, false);
	assert_int_equal(count_of(f->out, "\nknown             "), 2);
	assert_contains(f->out, " {status-mismatch, listed at k&.known:1}\n");
	assert_contains(f->out, "got STATUS_SUCCESS (0x00000000) Interval=39063 <model: decided by QI-3> (1 vector, 1 result)\n"
			"    report/output on 6.2/x64 [QI-5] ");
	assert_contains(f->out, ":18 step 1 {unlisted: not in k&.known}\n");
	assert_contains(f->out, "\nstale             k&.known:3: report/match output-mismatch step 1: STATUS_SUCCESS "
			"(0x00000000): listed divergence no longer happens (now match on 6.2/x64)\n");
	assert_contains(f->out, "\nknown divergences k&.known: 3 entries, 2 rows known, 1 unlisted, 1 stale, 0 not run\n"
			"summary: 5 match, 1 match-alternative, 2 known, 0 status-mismatch, 1 output-mismatch,");

	report(f, NP_FORMAT_TAP, false);
	assert_contains(f->out, "TAP version 13\n1..11\n");
	assert_contains(f->out, "\nnot ok 3 - report/status on 6.2/x64 # TODO known status-mismatch (k&.known:1)\n");
	assert_contains(f->out, "\nnot ok 11 - stale known divergence k&.known:3: report/match ");
	assert_int_equal(count_of(f->out, "\nnot ok "), 4);

	report(f, NP_FORMAT_JUNIT, false);
	const char *e = xml_check(f->out);
	if (e)
		fail_msg("not XML from \"%.40s\" in:\n%s", e, f->out);
	assert_contains(f->out, "tests=\"11\" failures=\"2\" skipped=\"3\"");
	assert_contains(f->out, "<skipped message=\"known status-mismatch, k&amp;.known:1: privilege &amp; &lt;why&gt; "
			"&quot;q&quot;\"/>");
	assert_contains(f->out, "<testcase classname=\"known-divergences\" name=\"k&amp;.known:3\"><failure type=\"stale\" "
			"message=\"report/match output-mismatch step 1: STATUS_SUCCESS (0x00000000): listed divergence "
			"no longer happens (now match on 6.2/x64)\"/></testcase>");

	report(f, NP_FORMAT_JSON, false);
	e = json_check(f->out);
	if (e)
		fail_msg("not JSON from \"%.40s\" in:\n%s", e, f->out);
	assert_contains(f->out, "\"known\":{\"file\":\"k&.known\",\"entries\":3,\"known\":2,\"unlisted\":1,\"stale\":1,"
			"\"not-run\":0,\"stale-entries\":[\n{\"line\":3,\"vector\":\"report/match\",\"scope\":null,"
			"\"class\":\"output-mismatch\",\"step\":1,\"got\":\"STATUS_SUCCESS (0x00000000)\","
			"\"reason\":\"stale & <x>\",\"now\":\"match\",\"now-target\":\"6.2/x64\"}]},\"results\":[");
	assert_contains(f->out, "\"class\":\"known\",\"observed\":\"output-mismatch\",");
	assert_contains(f->out, "\"listed\":{\"file\":\"k&.known\",\"line\":2}}");
	np_known_free(&k);
}

static void test_report_format_parse(void **state)
{
	(void)state;
	static const struct { const char *text; np_format fmt; } good[] = {
		{ "text", NP_FORMAT_TEXT }, { "tap", NP_FORMAT_TAP }, { "junit", NP_FORMAT_JUNIT },
		{ "json", NP_FORMAT_JSON }, { "TAP", NP_FORMAT_TAP }, { "JUnit", NP_FORMAT_JUNIT },
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		np_format fmt = NP_FORMAT_TEXT;
		if (!np_format_parse(good[i].text, &fmt))
			fail_msg("\"%s\" is not a format", good[i].text);
		assert_int_equal(fmt, good[i].fmt);
	}
	np_format fmt = NP_FORMAT_JSON;
	assert_false(np_format_parse("xml", &fmt));
	assert_false(np_format_parse("", &fmt));
	assert_false(np_format_parse("jsonl", &fmt));
	assert_int_equal(fmt, NP_FORMAT_JSON);
}

/* ---- the `ntprof call` line format ---- */

static void record(np_record *r, np_result_kind kind, uint32_t code)
{
	memset(r, 0, sizeof *r);
	r->outcome.kind = kind;
	r->outcome.code = code;
}

static void assert_line(const char *function, const np_record *r, const char *want)
{
	char buf[1024];
	memset(buf, 'Z', sizeof buf);
	np_format_record(function, r, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void test_report_record_lines(void **state)
{
	(void)state;
	np_record r;
	record(&r, NP_RESULT_STATUS, NP_STATUS_SUCCESS);
	np_record_out_u32(&r, "Interval", 1221);
	assert_line("NtQueryIntervalProfile", &r, "NtQueryIntervalProfile -> STATUS_SUCCESS (0x00000000) Interval=1221");

	record(&r, NP_RESULT_WIN32, NP_ERROR_SUCCESS);
	assert_line("TraceSetInformation", &r, "TraceSetInformation -> ERROR_SUCCESS (0)");
	record(&r, NP_RESULT_WIN32, NP_ERROR_PRIVILEGE_NOT_HELD);
	np_record_out(&r, "ReturnLength", "-");
	assert_line("TraceQueryInformation", &r, "TraceQueryInformation -> ERROR_PRIVILEGE_NOT_HELD (1314) ReturnLength=-");

	record(&r, NP_RESULT_NONE, 0);
	np_record_out(&r, "Events", "none");
	assert_line("ReadEvents", &r, "ReadEvents -> Events=none");

	record(&r, NP_RESULT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_line("ZwSetIntervalProfile", &r, "ZwSetIntervalProfile -> STATUS_PRIVILEGE_NOT_HELD (0xC0000061)");
	record(&r, NP_RESULT_NOT_APPLICABLE, 0);
	snprintf(r.why, sizeof r.why, "no source argument");
	assert_line("NtSetIntervalProfile", &r, "NtSetIntervalProfile -> not-applicable (no source argument)");
	record(&r, NP_RESULT_NOT_EXPORTED, 0);
	assert_line("TraceQueryInformation", &r, "TraceQueryInformation -> not-exported");
}

static void assert_outcome_text(np_result_kind kind, uint32_t code, const char *want)
{
	np_outcome o = { kind, code };
	char buf[128];
	np_format_outcome(&o, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void test_report_outcome_text(void **state)
{
	(void)state;
	assert_outcome_text(NP_RESULT_STATUS, 0xC0000005u, "STATUS_ACCESS_VIOLATION (0xC0000005)");
	assert_outcome_text(NP_RESULT_STATUS, 0x12345678u, "STATUS_? (0x12345678)");
	assert_outcome_text(NP_RESULT_WIN32, 24, "ERROR_BAD_LENGTH (24)");
	assert_outcome_text(NP_RESULT_WIN32, 4242, "ERROR_? (4242)");
	assert_outcome_text(NP_RESULT_FAULT, 0xC0000005u, "fault STATUS_ACCESS_VIOLATION (0xC0000005)");
	assert_outcome_text(NP_RESULT_BUGCHECK, 0x0Au, "bugcheck IRQL_NOT_LESS_OR_EQUAL (0x0000000A)");
	assert_outcome_text(NP_RESULT_BUGCHECK, 0x7Fu, "bugcheck ? (0x0000007F)");
	assert_outcome_text(NP_RESULT_NOT_EXPORTED, 0, "not-exported");
	assert_outcome_text(NP_RESULT_NOT_APPLICABLE, 0, "not-applicable");
	assert_outcome_text(NP_RESULT_STUB, 0, "stub");
	assert_outcome_text(NP_RESULT_CRASHED, 0, "crashed");
	assert_outcome_text(NP_RESULT_NONE, 0, "done");
}

/* A short buffer is cut, never overrun, and stays a string. */
static void test_report_record_line_truncated(void **state)
{
	(void)state;
	np_record r;
	char buf[24];
	record(&r, NP_RESULT_STATUS, NP_STATUS_SUCCESS);
	np_record_out_u32(&r, "Interval", 39063);
	np_record_out_u32(&r, "ReturnLength", 8);
	memset(buf, 'Z', sizeof buf);
	np_format_record("NtQueryIntervalProfile", &r, buf, 16);
	assert_string_equal(buf, "NtQueryInterval");
	assert_int_equal(buf[16], 'Z');
	np_format_record("NtQueryIntervalProfile", &r, buf, sizeof buf);
	assert_string_equal(buf, "NtQueryIntervalProfile ");
}

static void test_report_record_out_limits(void **state)
{
	(void)state;
	np_record r;
	char name[16], big[400];
	record(&r, NP_RESULT_STATUS, 0);
	for (unsigned i = 0; i < NP_MAX_OUTS + 2; i++) {
		snprintf(name, sizeof name, "V%u", i);
		np_record_out_u32(&r, name, i);
	}
	assert_int_equal(r.nout, NP_MAX_OUTS);
	assert_string_equal(r.out[NP_MAX_OUTS - 1].name, "V7");
	assert_string_equal(r.out[NP_MAX_OUTS - 1].value, "7");
	record(&r, NP_RESULT_STATUS, 0);
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	np_record_out(&r, "Big", big);
	assert_int_equal(strlen(r.out[0].value), NP_TEXT_MAX - 1);
	np_record_out_u32(&r, "Max", 0xFFFFFFFFu);
	assert_string_equal(r.out[1].value, "4294967295");
}

/* The model backend's records, formatted as `ntprof call` prints them. */
static void test_report_model_call_lines(void **state)
{
	fx *f = *state;
	np_vector *v = calloc(1, sizeof *v);
	assert_non_null(v);
	static const char *const steps[][2] = {
		{ "NtQueryIntervalProfile Source=ProfileTime",
		  "NtQueryIntervalProfile -> STATUS_SUCCESS (0x00000000) Interval=39063" },
		{ "NtSetIntervalProfile Interval=1000", "NtSetIntervalProfile -> STATUS_SUCCESS (0x00000000)" },
		{ "ZwQueryIntervalProfile", "ZwQueryIntervalProfile -> STATUS_SUCCESS (0x00000000) Interval=1221" },
		{ "NtQueryIntervalProfile Interval=null",
		  "NtQueryIntervalProfile -> STATUS_ACCESS_VIOLATION (0xC0000005) Interval=-" },
		{ "TraceSetInformation Source=ProfileTime Interval=5000", "TraceSetInformation -> ERROR_SUCCESS (0)" },
		{ "TraceSetInformation InformationLength=7", "TraceSetInformation -> ERROR_BAD_LENGTH (24)" },
		{ "ReadEvents", "ReadEvents -> Events=0x0F48:0:39063:1221" },
	};
	snprintf(v->given[0].name, sizeof v->given[0].name, "privilege");
	snprintf(v->given[0].value, sizeof v->given[0].value, "on");
	snprintf(v->given[1].name, sizeof v->given[1].name, "tracing");
	snprintf(v->given[1].value, sizeof v->given[1].value, "on");
	v->ngiven = 2;
	const char *why = f->model->begin(f->model, (np_target){ NP_V11_24H2, NP_X64 }, v);
	free(v);
	assert_null(why);
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		np_step st;
		np_record r;
		char line[1024];
		const char *e = np_parse_step(steps[i][0], &st);
		if (e) {
			f->model->end(f->model);
			fail_msg("%s: %s", steps[i][0], e);
		}
		f->model->step(f->model, &st, &r);
		np_format_record(st.function, &r, line, sizeof line);
		if (strcmp(line, steps[i][1]) != 0) {
			f->model->end(f->model);
			fail_msg("step %zu \"%s\":\n  got  \"%s\"\n  want \"%s\"", i + 1, steps[i][0], line, steps[i][1]);
		}
	}
	f->model->end(f->model);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	T(test_report_text_exact),
	T(test_report_text_mismatch_line),
	T(test_report_text_verbose_lists_everything),
	T(test_report_tap_exact),
	T(test_report_tap_plan_matches_results),
	cmocka_unit_test(test_report_xml_checker_catches_errors),
	T(test_report_junit_well_formed),
	T(test_report_junit_failure_and_skip_text),
	T(test_report_junit_escapes),
	cmocka_unit_test(test_report_json_checker_catches_errors),
	T(test_report_json_well_formed),
	T(test_report_json_result_fields),
	T(test_report_json_escapes),
	T(test_report_environment_and_model),
	T(test_report_empty_run),
	T(test_report_known_every_format),
	cmocka_unit_test(test_report_format_parse),
	cmocka_unit_test(test_report_record_lines),
	cmocka_unit_test(test_report_outcome_text),
	cmocka_unit_test(test_report_record_line_truncated),
	cmocka_unit_test(test_report_record_out_limits),
	T(test_report_model_call_lines),
};
#undef T

NP_TEST_MAIN(tests)
