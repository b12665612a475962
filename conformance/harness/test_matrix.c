/* SPDX-License-Identifier: MIT */
/* ntprof matrix and ntprof diff (harness/matrix/):
 * the short cell texts, the cells of known version boundaries on the model
 * (SI-1's privilege check from 6.2, IN-4's inclusive end on 6.2..1803,
 * CP-10's 32-bit wrap on x86 only), which cells are marked as changes,
 * the three printers and the diff of two versions. */
#include "np_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"
#include "ntprof/matrix.h"
#include "ntprof/rules_index.h"
#include "ntprof/backend.h"
#include "ntprof/status.h"
#include "ntprof/vector.h"

#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif
#define FIXTURES NTPROF_SOURCE_ROOT "/fixtures"

#include "np_matrix_fixture.h"

/* Loads fixture files (relative to fixtures/) and builds the matrix on
 * every version and the architectures in arches ("x86,x64,wow64"). */
static void build(fx *f, const char *arches, const char *file1, const char *file2)
{
	np_error err;
	char path[600];
	const char *files[2] = { file1, file2 };
	for (unsigned i = 0; i < 2 && files[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", FIXTURES, files[i]);
		if (!np_vectors_load(&f->set, path, &err))
			fail_msg("%s", err.text);
	}
	bool versions[NP_VERSION_COUNT], chosen[NP_ARCH_COUNT] = { false };
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions[v] = true;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		chosen[a] = strstr(arches, np_arch_name((np_arch)a)) != NULL;
	f->m = np_matrix_build(f->model, &f->set, versions, chosen);
	assert_non_null(f->m);
}

/* The row of vector id, step (1-based). */
static unsigned row_of(const fx *f, const char *id, unsigned step)
{
	for (unsigned r = 0; r < np_matrix_rows(f->m); r++)
		if (strcmp(np_matrix_vector(f->m, r)->id, id) == 0 && np_matrix_step(f->m, r) + 1 == step)
			return r;
	fail_msg("no row for %s step %u", id, step);
	return 0;
}

static np_ver ver(const char *key)
{
	np_ver v;
	if (!np_version_parse(key, &v))
		fail_msg("unknown version %s", key);
	return v;
}

static void column(const fx *f, unsigned row, const char *version, const char *want)
{
	char buf[1024];
	np_matrix_column_text(f->m, row, ver(version), buf, sizeof buf);
	if (strcmp(buf, want) != 0)
		fail_msg("%s step %u on %s: \"%s\", want \"%s\"", np_matrix_vector(f->m, row)->id,
			 np_matrix_step(f->m, row) + 1, version, buf, want);
}

static void print(fx *f, np_matrix_format fmt)
{
	free(f->out);
	f->out = NULL;
	FILE *mem = open_memstream(&f->out, &f->len);
	np_matrix_print(mem, f->m, fmt, &f->rules);
	assert_int_equal(fclose(mem), 0);
}

static void contains(const fx *f, const char *want)
{
	if (!strstr(f->out, want))
		fail_msg("the output lacks \"%s\"", want);
}

static void lacks(const fx *f, const char *unwanted)
{
	if (strstr(f->out, unwanted))
		fail_msg("the output has \"%s\"", unwanted);
}

/* ---- cells ---- */

static void cell_of(const char *expects, np_result_kind kind, uint32_t code, const char *outs,
		    const char *want)
{
	np_step st;
	np_expect e[2];
	np_record rec;
	memset(&st, 0, sizeof st);
	memset(e, 0, sizeof e);
	memset(&rec, 0, sizeof rec);
	st.expect = e;
	for (const char *p = expects; *p; st.nexpect++) {   /* "A,B;C": names per expect line */
		size_t n = strcspn(p, ";");
		for (const char *q = p; q < p + n;) {
			size_t k = strcspn(q, ",;");
			snprintf(e[st.nexpect].out[e[st.nexpect].nout++].name, NP_NAME_MAX, "%.*s", (int)k, q);
			q += k + (q[k] == ',');
		}
		p += n + (p[n] == ';');
	}
	rec.outcome = (np_outcome){ kind, code };
	for (const char *p = outs; *p;) {   /* "Name=value,Name=value" */
		size_t n = strcspn(p, ","), eq = strcspn(p, "=");
		snprintf(rec.out[rec.nout].name, NP_NAME_MAX, "%.*s", (int)eq, p);
		snprintf(rec.out[rec.nout++].value, NP_TEXT_MAX, "%.*s", (int)(n - eq - 1), p + eq + 1);
		p += n + (p[n] == ',');
	}
	char buf[400];
	np_matrix_cell_of(&st, &rec, buf, sizeof buf);
	if (strcmp(buf, want) != 0)
		fail_msg("cell \"%s\", want \"%s\"", buf, want);
}

static void test_matrix_cell_texts(void **state)
{
	(void)state;
	cell_of("", NP_RESULT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD, "", "PRIVILEGE_NOT_HELD");
	cell_of("", NP_RESULT_STATUS, NP_STATUS_SUCCESS, "", "SUCCESS");
	cell_of("", NP_RESULT_STATUS, 0xC0DE0001u, "", "0xC0DE0001");
	cell_of("", NP_RESULT_WIN32, NP_ERROR_SUCCESS, "", "ERROR_SUCCESS");
	cell_of("", NP_RESULT_WIN32, 4242, "", "ERROR_4242");
	cell_of("", NP_RESULT_FAULT, NP_STATUS_INTEGER_DIVIDE_BY_ZERO, "", "fault INTEGER_DIVIDE_BY_ZERO");
	cell_of("", NP_RESULT_BUGCHECK, 0x0A, "", "bugcheck IRQL_NOT_LESS_OR_EQUAL");
	cell_of("", NP_RESULT_BUGCHECK, 0x1234, "", "bugcheck 0x00001234");
	cell_of("", NP_RESULT_NOT_EXPORTED, 0, "", "n/e");
	cell_of("Interval", NP_RESULT_NOT_APPLICABLE, 0, "Interval=-", "n/a");
	cell_of("Counted", NP_RESULT_CORRUPTION, 0, "Counted=1", "corruption Counted=1");
	cell_of("", NP_RESULT_NONE, 0, "", "done");
	/* only the out-values some expect line of the step names, in the record's order */
	cell_of("Interval", NP_RESULT_STATUS, 0, "Interval=5000,Other=7", "SUCCESS Interval=5000");
	cell_of("Counted;Buffer", NP_RESULT_NONE, 0, "Buffer=0*3,Counted=1", "Buffer=0*3 Counted=1");
	/* an unwritten value: left out after a failure, shown after a success */
	cell_of("ProfileHandle", NP_RESULT_STATUS, NP_STATUS_INVALID_PARAMETER, "ProfileHandle=-", "INVALID_PARAMETER");
	cell_of("ProfileHandle", NP_RESULT_STATUS, 0, "ProfileHandle=-", "SUCCESS ProfileHandle=-");
	cell_of("ReturnLength", NP_RESULT_WIN32, NP_ERROR_BAD_LENGTH, "ReturnLength=8", "ERROR_BAD_LENGTH ReturnLength=8");
}

/* ---- the model's matrix ---- */

/* SI-1: no privilege check before 6.2, STATUS_PRIVILEGE_NOT_HELD from 6.2. */
/* rules: SI-1 */
static void test_matrix_si1_boundary_is_a_change(void **state)
{
	fx *f = *state;
	build(f, "x86,x64,wow64", "interval/set-interval.vec", NULL);
	unsigned r = row_of(f, "set-interval/privilege-threshold", 1);
	assert_string_equal(np_matrix_cell(f->m, r, ver("6.1"), NP_X64), "SUCCESS");
	assert_string_equal(np_matrix_cell(f->m, r, ver("6.2"), NP_X64), "PRIVILEGE_NOT_HELD");
	assert_string_equal(np_matrix_cell(f->m, r, ver("6.2"), NP_WOW64), "PRIVILEGE_NOT_HELD");
	column(f, r, "6.1", "SUCCESS");
	column(f, r, "6.2", "PRIVILEGE_NOT_HELD");
	assert_true(np_matrix_changed(f->m, r, ver("6.2")));
	assert_false(np_matrix_changed(f->m, r, ver("6.1")));
	assert_false(np_matrix_changed(f->m, r, ver("6.3")));
	/* the query after it reports what the refused set left (SI-1: nothing changes) */
	unsigned q = row_of(f, "set-interval/privilege-threshold", 2);
	column(f, q, "6.1", "SUCCESS Interval=5000");
	column(f, q, "6.2", "SUCCESS Interval=39063");
	assert_true(np_matrix_changed(f->m, q, ver("6.2")));
}

/* Outside `applies` (>=3.51) there is no cell, and starting to apply is no change. */
static void test_matrix_unevaluated_and_first_cells(void **state)
{
	fx *f = *state;
	build(f, "x86,x64,wow64", "interval/set-interval.vec", NULL);
	unsigned r = row_of(f, "set-interval/privilege-threshold", 1);
	assert_null(np_matrix_cell(f->m, r, ver("3.50"), NP_X86));
	assert_null(np_matrix_cell(f->m, r, ver("4.0"), NP_X64));   /* no x64 before 5.2sp1 (VR-3) */
	column(f, r, "3.50", "-");
	assert_false(np_matrix_changed(f->m, r, ver("3.51")));
	assert_false(np_matrix_changed(f->m, r, ver("3.10")));     /* the first column */
	/* the x64 and WOW64 cells that appear with 5.2sp1 are no change either */
	assert_false(np_matrix_changed(f->m, r, ver("5.2sp1")));
}

/* CP-10: a region ending at 2^32 wraps for an x86 caller only; the cell
 * splits by architecture, and the architectures that start to exist at
 * 5.2sp1 are no change from 5.2, where only x86 exists. */
/* rules: CP-10 */
static void test_matrix_architectures_split_a_cell(void **state)
{
	fx *f = *state;
	build(f, "x86,x64,wow64", "profile/create.vec", NULL);
	unsigned r = row_of(f, "create/wrap-32bit", 2);
	column(f, r, "5.2", "BUFFER_OVERFLOW");
	column(f, r, "5.2sp1", "x86: BUFFER_OVERFLOW / x64 wow64: SUCCESS ProfileHandle=h2");
	column(f, r, "11-24H2", "SUCCESS ProfileHandle=h2");   /* no x86 Windows 11 */
	column(f, r, "srv2022", "SUCCESS ProfileHandle=h2");   /* nor x86 Server 2022 (VR-3) */
	assert_false(np_matrix_changed(f->m, r, ver("5.2sp1")));
	assert_false(np_matrix_changed(f->m, r, ver("11-21H2")));
	np_matrix_free(f->m);
	np_vectors_free(&f->set);
	build(f, "x64", "profile/create.vec", NULL);   /* --arch x64: one architecture, no split */
	r = row_of(f, "create/wrap-32bit", 2);
	column(f, r, "5.2", "-");
	column(f, r, "5.2sp1", "SUCCESS ProfileHandle=h2");
	assert_null(np_matrix_cell(f->m, r, ver("5.2sp1"), NP_X86));
}

/* IN-4: Pc = base + size counts on 6.2..1803 (corruption past a 64-byte
 * buffer) and no longer from 1809: two changes in one row. */
/* rules: IN-4 */
static void test_matrix_inclusive_end_changes_twice(void **state)
{
	fx *f = *state;
	build(f, "x64", "profile/counting.vec", NULL);
	unsigned r = row_of(f, "counting/end-of-region", 4);
	column(f, r, "6.1", "Counted=0");
	column(f, r, "6.2", "corruption Counted=1");
	column(f, r, "1803", "corruption Counted=1");
	column(f, r, "1809", "Counted=0");
	unsigned changes = 0;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		changes += np_matrix_changed(f->m, r, (np_ver)v);
	assert_int_equal(changes, 2);
	assert_true(np_matrix_changed(f->m, r, ver("6.2")) && np_matrix_changed(f->m, r, ver("1809")));
}

/* ---- printers ---- */

static void test_matrix_text_and_markdown(void **state)
{
	fx *f = *state;
	build(f, "x86,x64,wow64", "interval/set-interval.vec", NULL);
	print(f, NP_MATRIX_TEXT);
	contains(f, "architectures x86 x64 wow64\n");
	/* 3.51, where the vector starts to apply, is not marked; 6.2 is; 6.3 is the same */
	const char *row = strstr(f->out, "\nset-interval/privilege-threshold ");
	assert_non_null(row);
	char line[4000];
	snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
	const char *c351 = strstr(line, "  SUCCESS "), *c62 = strstr(line, "  *PRIVILEGE_NOT_HELD ");
	assert_non_null(c351);
	assert_non_null(c62);
	assert_true(c351 < c62 && strstr(line, "*SUCCESS") == NULL);
	assert_non_null(strstr(c62, " PRIVILEGE_NOT_HELD "));
	print(f, NP_MATRIX_MARKDOWN);
	contains(f, "| `set-interval/privilege-threshold` | 1 | `NtSetIntervalProfile` | SI-1 MC-1 VR-1 |");
	contains(f, "| `SUCCESS` | ≠ `PRIVILEGE_NOT_HELD` | `PRIVILEGE_NOT_HELD` |");
	contains(f, "| 6.1 | 6.2 |");
}

static void test_matrix_html_is_self_contained(void **state)
{
	fx *f = *state;
	np_error err;
	if (!np_spec_load(&f->rules, NTPROF_SOURCE_ROOT, &err))
		fail_msg("%s", err.text);
	build(f, "x86,x64,wow64", "interval/set-interval.vec", NULL);
	print(f, NP_MATRIX_HTML);
	assert_true(strncmp(f->out, "<!DOCTYPE html>", 15) == 0);
	contains(f, "<style>");
	contains(f, "</html>\n");
	/* nothing fetched: no script, no external source, stylesheet or link */
	lacks(f, "<script");
	lacks(f, "src=");
	lacks(f, "<link");
	lacks(f, "<base");
	lacks(f, "<img");
	lacks(f, "<iframe");
	lacks(f, "<object");
	lacks(f, "<embed");
	/* a URL out of the page (SPEC.md's sources) only as a link, followed when clicked */
	for (const char *p = f->out; (p = strstr(p, "href=\"http")); p++) {
		const char *tag = p;
		while (tag > f->out && *tag != '<')
			tag--;
		if (strncmp(tag, "<a href=\"http", 13) != 0)
			fail_msg("a URL out of the page not in a link: %.80s", tag);
	}
	lacks(f, "url(");
	lacks(f, "@import");
	/* rows link their rules to the texts embedded below */
	contains(f, "<a href=\"#rule-SI-1\" title=\"SI-1 — Privilege from 6.2\">SI-1</a>");
	contains(f, "<div class=\"rule\" id=\"rule-SI-1\"><h3>SI-1 — Privilege from 6.2</h3>");
	contains(f, "<p>From 6.2 on, a user-mode caller that lacks SeSystemProfilePrivilege gets "
		    "STATUS_PRIVILEGE_NOT_HELD");
	lacks(f, "id=\"rule-QI-1\"");              /* no vector here cites it */
	/* the change at 6.2, marked and merged to the end; a colour per status */
	contains(f, " x\" colspan=\"22\" title=\"6.2 to 11-25H2; was SUCCESS on 6.1\">"
		    "<span class=\"t\">PRIVILEGE_NOT_HELD</span></td>");
	contains(f, "colspan=\"9\" title=\"3.51 to 6.1\"><span class=\"t\">SUCCESS</span></td>");
	contains(f, "{background:#b9e6b3}");       /* SUCCESS is green */
	/* the vector's file below the root, not the build machine's path */
	contains(f, "(fixtures/interval/set-interval.vec:4)");
	lacks(f, NTPROF_SOURCE_ROOT "/fixtures");
}

static void test_matrix_html_escapes(void **state)
{
	fx *f = *state;
	build(f, "x64", "profile/create.vec", NULL);
	print(f, NP_MATRIX_HTML);   /* no rules loaded: rule IDs unlinked */
	lacks(f, "href=\"#rule-");
	contains(f, "<h2 id=\"rules\">Rules</h2>");
	/* titles with quotes or angle brackets stay inside their attribute */
	for (const char *p = f->out; (p = strstr(p, "title=\"")); p += 7) {
		const char *end = strchr(p + 7, '"');
		assert_non_null(end);
		for (const char *q = p + 7; q < end; q++)
			if (*q == '<' || *q == '>')
				fail_msg("unescaped %c in a title: %.80s", *q, p);
	}
}

/* ---- ntprof diff ---- */

static unsigned diff(fx *f, const char *a, const char *b, const char *arches)
{
	np_target ta[NP_ARCH_COUNT], tb[NP_ARCH_COUNT];
	unsigned n = 0;
	for (unsigned k = 0; k < NP_ARCH_COUNT; k++)
		if (strstr(arches, np_arch_name((np_arch)k)) && np_arch_exists(ver(a), (np_arch)k) &&
		    np_arch_exists(ver(b), (np_arch)k)) {
			ta[n] = (np_target){ ver(a), (np_arch)k };
			tb[n++] = (np_target){ ver(b), (np_arch)k };
		}
	free(f->out);
	f->out = NULL;
	FILE *mem = open_memstream(&f->out, &f->len);
	unsigned rows = np_matrix_diff(mem, f->m, ta, tb, n);
	assert_int_equal(fclose(mem), 0);
	return rows;
}

/* rules: SI-1 */
static void test_diff_si1_grouped_by_function(void **state)
{
	fx *f = *state;
	build(f, "x86,x64,wow64", "interval/set-interval.vec", NULL);
	assert_int_equal(diff(f, "6.1", "6.2", "x86,x64,wow64"), 3);
	assert_string_equal(f->out,
			    "NtSetIntervalProfile: SI-1 MC-1 VR-1 VR-2\n"
			    "  set-interval/privilege-threshold step 1 (SI-1 MC-1 VR-1)\n"
			    "    6.1  SUCCESS\n"
			    "    6.2  PRIVILEGE_NOT_HELD\n"
			    "  set-interval/privilege-threshold-by-build step 1 (SI-1 VR-2)\n"
			    "    6.1  SUCCESS\n"
			    "    6.2  PRIVILEGE_NOT_HELD\n"
			    "NtQueryIntervalProfile: SI-1 MC-1 VR-1\n"
			    "  set-interval/privilege-threshold step 2 (SI-1 MC-1 VR-1)\n"
			    "    6.1  SUCCESS Interval=5000\n"
			    "    6.2  SUCCESS Interval=39063\n");
	/* the same version, or two versions that agree: nothing at all */
	assert_int_equal(diff(f, "6.2", "6.2", "x86,x64,wow64"), 0);
	assert_string_equal(f->out, "");
	assert_int_equal(diff(f, "6.2", "1511", "x86,x64,wow64"), 0);
	assert_string_equal(f->out, "");
}

/* rules: IN-4 */
static void test_diff_inclusive_end_1803_1809(void **state)
{
	fx *f = *state;
	build(f, "x64", "profile/counting.vec", NULL);
	assert_true(diff(f, "1803", "1809", "x64") > 0);
	contains(f, "Interrupt: ");
	contains(f, "  counting/end-of-region step 4 (IN-3 IN-4 IN-7 ST-7)\n"
		    "    1803  corruption Counted=1\n"
		    "    1809  Counted=0\n");
	contains(f, "ReadBuffer: ");
	contains(f, "    1803  Buffer=0*15,1,1\n    1809  Buffer=0*15,1,0\n");
	lacks(f, "NtSetIntervalProfile");
}

/* Architectures are named only where the way a step differs is not the
 * same on every architecture compared (KS-3: the EMON HAL is x86-only). */
static void test_diff_names_architectures_when_they_differ(void **state)
{
	fx *f = *state;
	build(f, "x86,x64,wow64", "interval/sources.vec", "profile/create.vec");
	diff(f, "6.1", "6.2", "x86,x64,wow64");
	contains(f, "  sources/emon-interface-exists step 1 (KS-3 HL-1 VR-3)\n    6.1 x86  n/a\n    6.2 x86  SUCCESS");
	/* a pair of different architectures (VERSION/ARCH sides) labels each side */
	np_target a = { ver("5.2"), NP_X86 }, b = { ver("5.2sp1"), NP_X64 };
	free(f->out);
	f->out = NULL;
	FILE *mem = open_memstream(&f->out, &f->len);
	assert_true(np_matrix_diff(mem, f->m, &a, &b, 1) > 0);
	assert_int_equal(fclose(mem), 0);
	contains(f, "  create/wrap-32bit step 2 (CP-10)\n    5.2/x86     BUFFER_OVERFLOW\n"
		    "    5.2sp1/x64  SUCCESS ProfileHandle=h2\n");
}

static void test_matrix_format_parse(void **state)
{
	(void)state;
	np_matrix_format fmt = NP_MATRIX_TEXT;
	assert_true(np_matrix_format_parse("html", &fmt) && fmt == NP_MATRIX_HTML);
	assert_true(np_matrix_format_parse("md", &fmt) && fmt == NP_MATRIX_MARKDOWN);
	assert_true(np_matrix_format_parse("text", &fmt) && fmt == NP_MATRIX_TEXT);
	assert_false(np_matrix_format_parse("json", &fmt));
	assert_int_equal(fmt, NP_MATRIX_TEXT);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_matrix_cell_texts),
	T(test_matrix_si1_boundary_is_a_change),
	T(test_matrix_unevaluated_and_first_cells),
	T(test_matrix_architectures_split_a_cell),
	T(test_matrix_inclusive_end_changes_twice),
	T(test_matrix_text_and_markdown),
	T(test_matrix_html_is_self_contained),
	T(test_matrix_html_escapes),
	T(test_diff_si1_grouped_by_function),
	T(test_diff_inclusive_end_1803_1809),
	T(test_diff_names_architectures_when_they_differ),
	cmocka_unit_test(test_matrix_format_parse),
};
#undef T

NP_TEST_MAIN(tests)
