/* SPDX-License-Identifier: MIT */
/* The page of ntprof matrix --format html (harness/matrix/matrix_html.c,
 * matrix_palette.c) as a structure: sticky row labels, unique anchors,
 * every in-page link resolving, tables and cells closed, the view of the
 * rows that change, links to the vectors' files; and the palette: a
 * family per status, text readable on each family's colour, the colours
 * far apart. Each structural check has a fail twin: a page broken in that
 * one way that the check must refuse. */
#include "np_test.h"

#include "matrix/matrix_internal.h"
#include "ntprof/backend.h"
#include "ntprof/matrix.h"
#include "ntprof/rules_index.h"

#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif

/* ---- the structure check ---- */

static char problem[1024];

/* The value of the attribute that starts at p (after its '="'), copied. */
static void attr(const char *p, char *buf, size_t cap)
{
	size_t n = strcspn(p, "\"");
	snprintf(buf, cap, "%.*s", (int)n, p);
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* Whether page has id="id" (exactly). */
static bool has_id(const char *page, const char *id)
{
	char want[600];
	snprintf(want, sizeof want, " id=\"%s\"", id);
	return strstr(page, want) != NULL;
}

static const char *ids_unique(const char *page)
{
	char id[512], again[600];
	for (const char *p = page; (p = strstr(p, " id=\"")); p += 5) {
		attr(p + 5, id, sizeof id);
		snprintf(again, sizeof again, " id=\"%s\"", id);
		if (strstr(p + 5, again))
			return snprintf(problem, sizeof problem, "id \"%s\" twice", id), problem;
	}
	return NULL;
}

static const char *links_resolve(const char *page)
{
	char id[512];
	for (const char *p = page; (p = strstr(p, "href=\"#")); p += 7) {
		attr(p + 7, id, sizeof id);
		if (!has_id(page, id))
			return snprintf(problem, sizeof problem, "href=\"#%s\" has no id", id), problem;
	}
	return NULL;
}

/* Every element of a table opened as often as closed; <th and <td not
 * counting <thead and <tbody. */
static const char *tables_closed(const char *page)
{
	static const char *const tags[][2] = {
		{ "<table", "</table>" }, { "<thead>", "</thead>" }, { "<tbody>", "</tbody>" },
		{ "<tr", "</tr>" }, { "<td", "</td>" }, { "<th ", "</th>" }, { "<section", "</section>" },
	};
	for (unsigned k = 0; k < sizeof tags / sizeof *tags; k++) {
		unsigned opened = count(page, tags[k][0]), closed = count(page, tags[k][1]);
		if (strcmp(tags[k][0], "<th ") == 0)
			opened += count(page, "<th>");
		if (opened != closed)
			return snprintf(problem, sizeof problem, "%s opened %u times, %s %u", tags[k][0], opened,
					tags[k][1], closed), problem;
	}
	return NULL;
}

/* The label columns sticky: the CSS and a cell of each column. */
static const char *labels_sticky(const char *page)
{
	static const char *const want[] = {
		".s1,.s2,.s3,.s4{position:sticky;", "table.m .s1{left:0;", "thead th{position:sticky;top:0;",
		"<td class=\"v s1\"", "<td class=\"r s2\"", "<td class=\"n s3\">", "<td class=\"f s4\">",
	};
	for (unsigned k = 0; k < sizeof want / sizeof *want; k++)
		if (!strstr(page, want[k]))
			return snprintf(problem, sizeof problem, "no %s", want[k]), problem;
	/* every body row of the matrix tables has its step and function cells */
	unsigned rows = 0;
	for (const char *t = strstr(page, "<table class=\"m\">"); t; t = strstr(t + 1, "<table class=\"m\">")) {
		const char *end = strstr(t, "</table>"), *body = strstr(t, "<tbody>");
		for (const char *r = body; r && end && (r = strstr(r + 1, "<tr")) && r < end;)
			rows++;
	}
	if (count(page, "<td class=\"n s3\">") != rows || count(page, "<td class=\"f s4\">") != rows)
		return snprintf(problem, sizeof problem, "%u rows, %u step and %u function cells", rows,
				count(page, "<td class=\"n s3\">"), count(page, "<td class=\"f s4\">")), problem;
	return NULL;
}

/* The view of changes: linked from the top, a table, each of its rows
 * with a cell marked as a change. */
static const char *changes_view(const char *page)
{
	const char *start = strstr(page, "<section class=\"view\" id=\"changes\">");
	const char *end = start ? strstr(start, "</section>") : NULL;
	const char *table = strstr(page, "<table");
	if (!end || !strstr(page, "<nav><a href=\"#all\">") || !strstr(page, "<a href=\"#changes\">"))
		return "no view of the changes linked from the top";
	if (!table || table < start)
		return "the view of the changes is not the first table";
	unsigned rows = 0;
	for (const char *r = strstr(start, "<tr"); r && r < end; r = strstr(r + 3, "<tr")) {
		const char *close = strstr(r, "</tr>");
		if (r[3] != '>' && r[3] != ' ')
			continue;
		char row[8192];
		snprintf(row, sizeof row, "%.*s", (int)(close - r), r);
		if (!strstr(row, "<th") && !strstr(row, " x\""))
			return snprintf(problem, sizeof problem, "a row without a change: %.200s", row), problem;
		rows += !strstr(row, "<th");
	}
	return rows ? NULL : "the view of the changes has no rows";
}

static const char *check_page(const char *page)
{
	const char *why;
	if ((why = tables_closed(page)) || (why = ids_unique(page)) || (why = links_resolve(page)) ||
	    (why = labels_sticky(page)) || (why = changes_view(page)))
		return why;
	return NULL;
}

/* ---- the page ---- */

#include "np_matrix_fixture.h"

/* The page of these fixture files (below fixtures/) on every version and
 * architecture, with SPEC.md's rules when rules. */
static void page(fx *f, const char *const *files, bool rules)
{
	np_error err;
	char path[600];
	if (rules && !np_spec_load(&f->rules, NTPROF_SOURCE_ROOT, &err))
		fail_msg("%s", err.text);
	for (; *files; files++) {
		snprintf(path, sizeof path, "%s/fixtures/%s", NTPROF_SOURCE_ROOT, *files);
		if (!np_vectors_load(&f->set, path, &err))
			fail_msg("%s", err.text);
	}
	bool versions[NP_VERSION_COUNT], arches[NP_ARCH_COUNT];
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions[v] = true;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		arches[a] = true;
	f->m = np_matrix_build(f->model, &f->set, versions, arches);
	assert_non_null(f->m);
	FILE *mem = open_memstream(&f->out, &f->len);
	np_matrix_print(mem, f->m, NP_MATRIX_HTML, &f->rules);
	assert_int_equal(fclose(mem), 0);
}

static void contains(const fx *f, const char *want)
{
	if (!strstr(f->out, want))
		fail_msg("the page lacks \"%s\"", want);
}

static void test_page_structure(void **state)
{
	fx *f = *state;
	static const char *const files[] = { "interval/set-interval.vec", "profile/create.vec",
					     "profile/counting.vec", "interval/sources.vec", NULL };
	page(f, files, true);
	const char *why = check_page(f->out);
	if (why)
		fail_msg("%s", why);
	/* the row's anchor, its vector's file and line, relative to build/reports/ */
	contains(f, "<tr id=\"vector-set-interval.privilege-threshold\" class=\"first\">");
	contains(f, "<a href=\"../../fixtures/interval/set-interval.vec#L4\">set-interval/privilege-threshold</a>");
	contains(f, "<a class=\"up\" href=\"#vector-set-interval.privilege-threshold\"");
	contains(f, "<th id=\"version-11-25H2\" title=");
	/* the rule texts as HTML: a table of SPEC.md and a URL made a link */
	contains(f, "<div class=\"rule\" id=\"rule-VR-3\">");
	contains(f, "<td>11-24H2</td>\n<td>Windows 11 24H2</td>");
	contains(f, "<a href=\"https://www.geoffchappell.com/studies/windows/km/ntoskrnl/api/ex/profile/"
		    "setinterval.htm\">");
	/* a family per status, and the legend names them */
	contains(f, ".acc{background:#f5a86b}");
	contains(f, "<li><span class=\"sw acc\">access errors and faults</span>");
	/* a cell of many versions keeps its text in view: a sticky span; one version, plain */
	contains(f, "title=\"6.2 to 11-25H2; was SUCCESS on 6.1\"><span class=\"t\">PRIVILEGE_NOT_HELD</span></td>");
	contains(f, "<td class=\"acc x\" title=\"6.2; was SUCCESS on 6.1\">PRIVILEGE_NOT_HELD</td>");
	contains(f, "td .t,td.m div{position:sticky;left:542px;");
}

/* Without the rules, the rows link no rule and the page still resolves. */
static void test_page_without_rules(void **state)
{
	fx *f = *state;
	static const char *const files[] = { "interval/set-interval.vec", NULL };
	page(f, files, false);
	const char *why = check_page(f->out);
	if (why)
		fail_msg("%s", why);
	assert_null(strstr(f->out, "href=\"#rule-"));
	assert_null(strstr(f->out, "href=\"../../"));   /* no root known: no file links */
}

/* The fail twins: the page broken in one way each, which the check must
 * refuse with that reason. */
static void broken(const fx *f, const char *from, const char *to, const char *reason)
{
	const char *at = strstr(f->out, from);
	assert_non_null(at);
	size_t head = (size_t)(at - f->out), nfrom = strlen(from), nto = strlen(to);
	char *copy = malloc(f->len + nto + 1);
	assert_non_null(copy);
	memcpy(copy, f->out, head);
	memcpy(copy + head, to, nto);
	strcpy(copy + head + nto, at + nfrom);
	const char *why = check_page(copy);
	char got[600];
	snprintf(got, sizeof got, "%s", why ? why : "(accepted)");
	free(copy);
	if (!strstr(got, reason))
		fail_msg("\"%s\" -> \"%s\": want a complaint of \"%s\", got \"%s\"", from, to, reason, got);
}

static void test_check_refuses_broken_pages(void **state)
{
	fx *f = *state;
	static const char *const files[] = { "interval/set-interval.vec", NULL };
	page(f, files, true);
	broken(f, " id=\"vector-set-interval.privilege-held\"", " id=\"vector-set-interval.privilege-threshold\"",
	       "twice");
	broken(f, "<a href=\"#rule-SI-1\"", "<a href=\"#rule-XX-1\"", "href=\"#rule-XX-1\" has no id");
	broken(f, "</td></tr>", "</tr>", "<td opened");
	broken(f, "</table>", "", "<table opened");
	broken(f, "table.m .s1{left:0;", "table.m .s1{", "no table.m .s1{left:0;");
	broken(f, "<td class=\"f s4\">", "<td class=\"f\">", "function cells");
	broken(f, "<section class=\"view\" id=\"changes\">", "<section class=\"view\" id=\"later\">",
	       "href=\"#changes\" has no id");
	broken(f, "<a href=\"#changes\">", "<a href=\"#all\">", "no view of the changes");
	broken(f, " x\" colspan=\"22\"", "\" colspan=\"22\"", "a row without a change");
}

/* ---- the palette ---- */

static void test_families(void **state)
{
	(void)state;
	static const struct { const char *cell; np_family want; } cases[] = {
		{ "SUCCESS ProfileHandle=h1", NP_FAM_SUCCESS }, { "ERROR_SUCCESS", NP_FAM_SUCCESS },
		{ "Counted=1", NP_FAM_VALUES }, { "done", NP_FAM_VALUES },
		{ "INVALID_PARAMETER_7", NP_FAM_PARAMETER }, { "INFO_LENGTH_MISMATCH", NP_FAM_PARAMETER },
		{ "PRIVILEGE_NOT_HELD", NP_FAM_ACCESS }, { "fault INTEGER_DIVIDE_BY_ZERO", NP_FAM_ACCESS },
		{ "bugcheck IRQL_NOT_LESS_OR_EQUAL", NP_FAM_BUGCHECK }, { "corruption Counted=1", NP_FAM_BUGCHECK },
		{ "n/e", NP_FAM_ABSENT }, { "n/a", NP_FAM_ABSENT },
		{ "PROFILING_NOT_STOPPED", NP_FAM_OTHER }, { "0xC0001234", NP_FAM_OTHER },
	};
	char key[64];
	for (unsigned k = 0; k < sizeof cases / sizeof *cases; k++) {
		np_status_key(cases[k].cell, key, sizeof key);
		if (np_status_family(key) != cases[k].want)
			fail_msg("%s (%s): family %d, want %d", cases[k].cell, key, np_status_family(key),
				 cases[k].want);
	}
}

static unsigned distance(const char *a, const char *b)
{
	unsigned long d = 0;
	for (int k = 0; k < 3; k++) {
		char pa[3] = { a[1 + 2 * k], a[2 + 2 * k], 0 }, pb[3] = { b[1 + 2 * k], b[2 + 2 * k], 0 };
		long x = (long)strtoul(pa, NULL, 16) - (long)strtoul(pb, NULL, 16);
		d += (unsigned long)(x * x);
	}
	unsigned r = 0;
	while ((unsigned long)(r + 1) * (r + 1) <= d)
		r++;
	return r;
}

/* WCAG 2's relative luminance of "#rrggbb". */
static double luminance(const char *rgb)
{
	double l = 0;
	static const double weight[3] = { 0.2126, 0.7152, 0.0722 };
	for (int k = 0; k < 3; k++) {
		char part[3] = { rgb[1 + 2 * k], rgb[2 + 2 * k], '\0' };
		double c = (double)strtoul(part, NULL, 16) / 255.0, lin;
		if (c <= 0.04045) {
			lin = c / 12.92;
		} else {   /* ((c + 0.055) / 1.055) ^ 2.4 without libm */
			double x = (c + 0.055) / 1.055, y = x * x, r = 1;
			/* x^0.4 by Newton's method on r^5 = x^2 */
			for (int i = 0; i < 40; i++)
				r -= (r * r * r * r * r - y) / (5 * r * r * r * r);
			lin = y * r;
		}
		l += weight[k] * lin;
	}
	return l;
}

/* The WCAG 2 contrast ratio of two "#rrggbb" colours, 1 to 21: what the
 * page's palette is held to, so the tests' own, not the program's. */
static double contrast(const char *a, const char *b)
{
	double la = luminance(a), lb = luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* Text on every family's colour at least 4.5:1 (WCAG AA for body text);
 * two families' colours at least 60 apart in RGB. The twins: the contrast
 * of two greys that are hard to tell apart, and of black on white. */
static void test_palette_readable_and_distinct(void **state)
{
	(void)state;
	assert_true(contrast("#000000", "#ffffff") > 20.99 && contrast("#ffffff", "#000000") < 21.01);
	assert_true(contrast("#777777", "#888888") < 1.5);
	assert_true(contrast("#767676", "#ffffff") > 4.5 && contrast("#777777", "#ffffff") < 4.5);
	for (unsigned a = 0; a < NP_FAMILY_COUNT; a++) {
		const np_family_info *fa = np_family_of((np_family)a);
		double c = contrast(fa->background, fa->text ? fa->text : NP_PAGE_TEXT);
		if (c < 4.5)
			fail_msg("%s: contrast %.2f", fa->name, c);
		for (unsigned b = 0; b < a; b++) {
			const np_family_info *fb = np_family_of((np_family)b);
			if (distance(fa->background, fb->background) < 60)
				fail_msg("%s and %s: %s and %s are too close", fa->name, fb->name, fa->background,
					 fb->background);
		}
	}
	assert_true(distance("#e6e6e6", "#efc3e0") < 60);   /* a pink the check must refuse */
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	T(test_page_structure),
	T(test_page_without_rules),
	T(test_check_refuses_broken_pages),
	cmocka_unit_test(test_families),
	cmocka_unit_test(test_palette_readable_and_distinct),
};
#undef T

NP_TEST_MAIN(tests)
