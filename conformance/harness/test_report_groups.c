/* SPDX-License-Identifier: MIT */
/* The default text report's grouping by cause (harness/report/report_groups.c) and
 * the target ranges it names (harness/report/target_ranges.c).
 *
 * Runs are built by hand, row by row, so that each test chooses the
 * targets, classes and outcomes it needs; each report is written into
 * memory and its result lines compared whole. */
#include "np_test.h"
#include "np_row_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/known.h"
#include "ntprof/runner.h"
#include "ntprof/target_ranges.h"
#include "ntprof/vector.h"

#define OK   "STATUS_SUCCESS (0x00000000)"
#define DENY "STATUS_PRIVILEGE_NOT_HELD (0xC0000061)"
#define BAD  "STATUS_INVALID_PARAMETER (0xC000000D)"
/* what every line of the one vector says after its targets, up to expected */
#define WHERE " [SI-1,MC-1] t.vec:11 step 1 NtSetIntervalProfile: expected "

typedef struct fx {
	np_step step;
	np_vector v, w;
	np_row row[16];
	np_run run;
	char *out;
	size_t len;
	char body[8192];   /* the result lines of out */
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->step.function, sizeof f->step.function, "NtSetIntervalProfile");
	f->step.line = 11;
	snprintf(f->v.id, sizeof f->v.id, "groups/one");
	snprintf(f->v.rule[0], sizeof f->v.rule[0], "SI-1");
	snprintf(f->v.rule[1], sizeof f->v.rule[1], "MC-1");
	f->v.nrule = 2;
	f->v.step = &f->step;
	f->v.nstep = 1;
	f->v.file = "t.vec";
	f->v.line = 7;
	f->w = f->v;
	snprintf(f->w.id, sizeof f->w.id, "groups/two");
	f->run.backend = "dl-test";
	f->run.row = f->row;
	f->run.cap = 16;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	free(f->out);
	free(f);
	return 0;
}

static np_target target(const char *text)
{
	np_target_list l = { .count = 0 };
	const char *why = np_targets_add(&l, text);
	if (why || l.count != 1)
		fail_msg("%s: not one target", text);
	return l.t[0];
}

/* A row of vector v on target at: cls at step 1, expected OK, got got,
 * the model's outcome model ("" for none). */
static np_row *add(fx *f, const np_vector *v, const char *at, np_class cls, const char *got,
		   const char *model)
{
	assert_true(f->run.count < f->run.cap);
	np_row *r = &f->row[f->run.count++];
	memset(r, 0, sizeof *r);
	r->vector = v;
	r->target = target(at);
	r->cls = cls;
	r->step = cls == NP_CLASS_MATCH || cls == NP_CLASS_NOT_APPLICABLE ? -1 : 0;
	if (r->step == 0) {
		np_answer_of_text(OK, np_row_answer_of(r, NP_PART_EXPECTED));
		np_answer_of_text(got, np_row_answer_of(r, NP_PART_GOT));
		np_answer_of_text(model, np_row_answer_of(r, NP_PART_MODEL));
		np_keep_row(r);
	}
	f->run.tally[cls]++;
	return r;
}

/* The report's result lines: everything between the header and the known
 * divergences' counts or the summary (f->out keeps the whole report). */
static const char *lines(fx *f, bool verbose)
{
	free(f->out);
	f->out = NULL;
	FILE *m = open_memstream(&f->out, &f->len);
	assert_non_null(m);
	np_report(m, &f->run, NP_FORMAT_TEXT, verbose);
	assert_int_equal(fclose(m), 0);
	const char *body = strchr(f->out, '\n');
	assert_non_null(body);
	const char *end = strstr(body, "\nknown divergences ");
	if (!end)
		end = strstr(body, "\nsummary: ");
	assert_non_null(end);
	snprintf(f->body, sizeof f->body, "%.*s", (int)(end - body), body + 1);
	return f->body;
}

/* ---- target ranges ---- */

static np_target_grid every_target(void)
{
	np_target_grid g = { .at = { { false } } };
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
			g.at[v][a] = np_arch_exists((np_ver)v, (np_arch)a);
	return g;
}

static void test_ranges_a_run_per_architecture(void **state)
{
	(void)state;
	np_target_grid ran = every_target(), in = { .at = { { false } } };
	for (unsigned v = NP_V6_2; v < NP_VERSION_COUNT; v++)
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
			in.at[v][a] = ran.at[v][a];
	char buf[NP_TARGET_RANGES_MAX];
	np_target_ranges(&in, &ran, buf, sizeof buf);
	const char *newest = np_version_key((np_ver)(NP_VERSION_COUNT - 1));
	char want[96];
	snprintf(want, sizeof want, "6.2..22H2/x86, 6.2..%s/x64, 6.2..%s/wow64", newest, newest);
	assert_string_equal(buf, want);
	np_target_grid none = { .at = { { false } } };
	np_target_ranges(&none, &ran, buf, sizeof buf);
	assert_string_equal(buf, "");
}

/* A target that ran otherwise between two of the set splits the run; one
 * that did not run at all does not. */
static void test_ranges_split_where_a_target_between_differs(void **state)
{
	(void)state;
	np_target_grid ran = every_target(), in = { .at = { { false } } };
	in.at[NP_V6_1][NP_X86] = in.at[NP_V6_3][NP_X86] = in.at[NP_V1809][NP_WOW64] = true;
	char buf[NP_TARGET_RANGES_MAX];
	np_target_ranges(&in, &ran, buf, sizeof buf);
	assert_string_equal(buf, "6.1/x86, 6.3/x86, 1809/wow64");
	ran.at[NP_V6_2][NP_X86] = false;
	np_target_ranges(&in, &ran, buf, sizeof buf);
	assert_string_equal(buf, "6.1..6.3/x86, 1809/wow64");
}

/* The largest set fits NP_TARGET_RANGES_MAX; a smaller buffer is cut, ended. */
static void test_ranges_room_and_cut(void **state)
{
	(void)state;
	np_target_grid ran = every_target(), in = { .at = { { false } } };
	for (unsigned v = 0; v < NP_VERSION_COUNT; v += 2)   /* every other version: a run each */
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
			in.at[v][a] = ran.at[v][a];
	char buf[NP_TARGET_RANGES_MAX + 1];
	memset(buf, 'x', sizeof buf);
	np_target_ranges(&in, &ran, buf, NP_TARGET_RANGES_MAX);
	assert_true(strlen(buf) < NP_TARGET_RANGES_MAX - 1);
	assert_int_equal(strncmp(buf, "3.10/x86, 3.51/x86, 4.0sp4/x86, ", 32), 0);
	char last[32];   /* the newest of every other version, the set's last */
	snprintf(last, sizeof last, ", %s/wow64", np_version_key((np_ver)((NP_VERSION_COUNT - 1) / 2 * 2)));
	assert_non_null(strstr(buf, last));
	char small[12];
	memset(small, 'x', sizeof small);
	np_target_ranges(&in, &ran, small, sizeof small);
	assert_string_equal(small, "3.10/x86, 3");
}

/* ---- grouping ---- */

/* A heading: class, the cause of the one vector's step 1 (expected OK,
 * got GOT) and its counts. */
#define HEAD(cls, got, counts) cls "NtSetIntervalProfile: expected " OK ", got " got " (" counts ")\n"
/* what a vector's line says after its targets */
#define AT " [SI-1,MC-1] t.vec:11 step 1"

static void test_groups_same_line_shares_a_line(void **state)
{
	fx *f = *state;
	add(f, &f->v, "6.2/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	add(f, &f->v, "6.3/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	add(f, &f->v, "6.2/x64", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	assert_string_equal(lines(f, false), HEAD("status-mismatch   ", DENY, "1 vector, 3 results")
			    "    groups/one on 6.2..6.3/x86, 6.2/x64" AT "\n");
	assert_non_null(strstr(f->out, "; grouped by cause: function, rule and outcome, its vectors under it "
				       "(--verbose: a line per target)\n"));
	assert_string_equal(strstr(f->out, "\nsummary: "), "\nsummary: 0 match, 0 match-alternative, 0 known, "
			    "3 status-mismatch, 0 output-mismatch, 0 not-exported, 0 stub, 0 crashed, "
			    "0 not-applicable, 0 skipped\n");
}

/* Another got is another cause, and splits the range: 6.2 ran otherwise
 * between 6.1 and 6.3. */
static void test_groups_different_got_never_merged(void **state)
{
	fx *f = *state;
	add(f, &f->v, "6.1/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	add(f, &f->v, "6.2/x86", NP_CLASS_STATUS_MISMATCH, BAD, OK);
	add(f, &f->v, "6.3/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	assert_string_equal(lines(f, false), HEAD("status-mismatch   ", DENY, "1 vector, 2 results")
			    "    groups/one on 6.1/x86, 6.3/x86" AT "\n"
			    HEAD("status-mismatch   ", BAD, "1 vector, 1 result")
			    "    groups/one on 6.2/x86" AT "\n");
}

/* The same got in another class is another cause. */
static void test_groups_different_class_never_merged(void **state)
{
	fx *f = *state;
	add(f, &f->v, "6.1/x64", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	add(f, &f->v, "6.2/x64", NP_CLASS_CRASHED, DENY, OK);
	add(f, &f->v, "6.3/x64", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	assert_string_equal(lines(f, false), HEAD("status-mismatch   ", DENY, "1 vector, 2 results")
			    "    groups/one on 6.1/x64, 6.3/x64" AT "\n"
			    HEAD("crashed           ", DENY, "1 vector, 1 result")
			    "    groups/one on 6.2/x64" AT "\n");
}

/* Two vectors that fail for one cause: one heading, a line each under it. */
static void test_groups_vectors_of_one_cause_share_a_heading(void **state)
{
	fx *f = *state;
	add(f, &f->v, "6.1/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	add(f, &f->v, "6.2/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	add(f, &f->w, "6.2/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	assert_string_equal(lines(f, false), HEAD("status-mismatch   ", DENY, "2 vectors, 3 results")
			    "    groups/one on 6.1..6.2/x86" AT "\n"
			    "    groups/two on 6.2/x86" AT "\n");
}

/* The rule the model decided by is part of the cause: the same function,
 * expected and got decided by two rules are two headings, each naming its
 * rule, in the order of their first rows. */
static void test_groups_different_rule_never_merged(void **state)
{
	fx *f = *state;
	add(f, &f->v, "6.1/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK)->rule = NP_RULE(SI_1);
	add(f, &f->w, "6.1/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK)->rule = NP_RULE(SI_8);
	add(f, &f->w, "6.2/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK)->rule = NP_RULE(SI_1);
	assert_string_equal(lines(f, false),
			    HEAD("status-mismatch   ", DENY " <model: decided by SI-1>", "2 vectors, 2 results")
			    "    groups/one on 6.1/x86" AT "\n"
			    "    groups/two on 6.2/x86" AT "\n"
			    HEAD("status-mismatch   ", DENY " <model: decided by SI-8>", "1 vector, 1 result")
			    "    groups/two on 6.1/x86" AT "\n");
}

/* A row without a deciding step (skipped, refused at the start) has its
 * note for a cause. */
static void test_groups_no_step_by_note(void **state)
{
	fx *f = *state;
	const char *note[] = { "hazard: may fault", "hazard: may fault", "another reason" };
	const np_vector *vec[] = { &f->v, &f->w, &f->w };
	for (unsigned i = 0; i < 3; i++) {
		np_row *r = add(f, vec[i], "6.1/x86", NP_CLASS_SKIPPED, "", "");
		r->step = -1;
		np_row_set_note(r, NP_NOTE_WHY, -1, note[i]);
		r->target.version = (np_ver)(r->target.version + (i == 2));
	}
	assert_string_equal(lines(f, false), "skipped           hazard: may fault (2 vectors, 2 results)\n"
			    "    groups/one on 6.1/x86 [SI-1,MC-1] t.vec:7\n"
			    "    groups/two on 6.1/x86 [SI-1,MC-1] t.vec:7\n"
			    "skipped           another reason (1 vector, 1 result)\n"
			    "    groups/two on 6.2/x86 [SI-1,MC-1] t.vec:7\n");
}

/* Targets are named in the version table's order whatever the rows' order;
 * matches and not-applicable rows are not shown, but they split ranges. */
static void test_groups_targets_in_version_order(void **state)
{
	fx *f = *state;
	add(f, &f->v, "1809/x64", NP_CLASS_OUTPUT_MISMATCH, OK " Interval=1", OK " Interval=1");
	add(f, &f->v, "6.1/x64", NP_CLASS_OUTPUT_MISMATCH, OK " Interval=1", OK " Interval=1");
	add(f, &f->v, "6.2/x86", NP_CLASS_OUTPUT_MISMATCH, OK " Interval=1", OK " Interval=1");
	add(f, &f->v, "6.2/x64", NP_CLASS_OUTPUT_MISMATCH, OK " Interval=1", OK " Interval=1");
	add(f, &f->v, "1507/x64", NP_CLASS_MATCH, "", "");
	add(f, &f->v, "6.3/x64", NP_CLASS_NOT_APPLICABLE, "", "");
	add(f, &f->v, "1607/x64", NP_CLASS_OUTPUT_MISMATCH, OK " Interval=1", OK " Interval=1");
	assert_string_equal(lines(f, false), HEAD("output-mismatch   ", OK " Interval=1", "1 vector, 5 results")
			    "    groups/one on 6.2/x86, 6.1..6.2/x64, 1607..1809/x64" AT " [model: " OK " Interval=1]\n");
}

/* The model's outcome only where it is not the vector's expectation; a
 * model that agrees with one target and not another splits the vector's
 * line under one heading. --verbose shows it on every line, a line per
 * target. */
static void test_groups_model_only_where_it_differs(void **state)
{
	fx *f = *state;
	add(f, &f->v, "6.1/x86", NP_CLASS_STATUS_MISMATCH, DENY, OK);
	add(f, &f->v, "6.2/x86", NP_CLASS_STATUS_MISMATCH, DENY, DENY);
	add(f, &f->v, "6.3/x86", NP_CLASS_STATUS_MISMATCH, DENY, DENY);
	assert_string_equal(lines(f, false), HEAD("status-mismatch   ", DENY, "1 vector, 3 results")
			    "    groups/one on 6.1/x86" AT "\n"
			    "    groups/one on 6.2..6.3/x86" AT " [model: " DENY "]\n");
	assert_string_equal(lines(f, true),
			    "status-mismatch   groups/one on 6.1/x86" WHERE OK ", got " DENY " [model: " OK "]\n"
			    "status-mismatch   groups/one on 6.2/x86" WHERE OK ", got " DENY " [model: " DENY "]\n"
			    "status-mismatch   groups/one on 6.3/x86" WHERE OK ", got " DENY " [model: " DENY "]\n");
	assert_null(strstr(f->out, "grouped by cause"));
}

/* Every class the default report shows is grouped the same way, known rows
 * with what the known-divergence file says of them. */
static void test_groups_every_class(void **state)
{
	fx *f = *state;
	static np_known_entry e = { .cls = NP_CLASS_STATUS_MISMATCH, .step = 1, .line = 3 };
	snprintf(e.got, sizeof e.got, "%s", DENY);
	static np_known k = { .path = "t.known", .e = &e, .count = 1 };   /* outlives the run */
	f->run.known = &k;
	for (unsigned c = 0; c < NP_CLASS_COUNT; c++) {
		bool shown = c != NP_CLASS_MATCH && c != NP_CLASS_NOT_APPLICABLE && c != NP_CLASS_NOT_REQUIRED &&
			     c != NP_CLASS_NOT_IMPLEMENTED;
		f->run.count = 0;
		add(f, &f->v, "6.1/x86", (np_class)c, DENY, OK)->listed = &e;
		add(f, &f->v, "6.2/x86", (np_class)c, DENY, OK)->listed = &e;
		f->row[0].observed = f->row[1].observed = NP_CLASS_STATUS_MISMATCH;
		const char *got = lines(f, false);
		char want[1024], note[200] = "";
		if (c == NP_CLASS_KNOWN)
			snprintf(note, sizeof note, " {status-mismatch, listed at t.known:3}");
		else if (np_class_is_failure((np_class)c))
			snprintf(note, sizeof note, " {unlisted: t.known:3 lists status-mismatch step 1: %s}", DENY);
		snprintf(want, sizeof want, "%-17s NtSetIntervalProfile: expected " OK ", got " DENY
			 " (1 vector, 2 results)\n    groups/one on 6.1..6.2/x86" AT "%s\n",
			 np_class_name((np_class)c), note);
		if (!shown)
			assert_string_equal(got, "");
		else if (strcmp(got, want) != 0)
			fail_msg("class %s:\n  got  %s  want %s", np_class_name((np_class)c), got, want);
	}
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_ranges_a_run_per_architecture),
	cmocka_unit_test(test_ranges_split_where_a_target_between_differs),
	cmocka_unit_test(test_ranges_room_and_cut),
	T(test_groups_same_line_shares_a_line),
	T(test_groups_different_got_never_merged),
	T(test_groups_different_class_never_merged),
	T(test_groups_vectors_of_one_cause_share_a_heading),
	T(test_groups_different_rule_never_merged),
	T(test_groups_no_step_by_note),
	T(test_groups_targets_in_version_order),
	T(test_groups_model_only_where_it_differs),
	T(test_groups_every_class),
};
#undef T

NP_TEST_MAIN(tests)
