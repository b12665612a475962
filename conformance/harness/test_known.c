/* SPDX-License-Identifier: MIT */
/* Known-divergence files (harness/run/known.c): the reader, the matcher that
 * turns listed failures into `known` and finds unlisted rows and stale
 * entries, target scoping, and the writer (fixtures/known/README.md).
 *
 * The runs are the model's on a few vectors whose expectations are wrong on
 * purpose, so that they fail in known ways. The fail-twins: a known file
 * wrong in any one field (vector, class, step, outcome, scope) must be
 * caught, and the reader must refuse every malformed line of a table. */
#include "np_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "ntprof/known.h"
#include "ntprof/runner.h"
#include "ntprof/backend.h"
#include "ntprof/vector.h"

/* ---- the vectors: each fails in its own way on the model ---- */

static const char vectors[] =
	"vector known/privilege\n"            /* status-mismatch from 6.2, match on 6.1 */
	"  title   t\n  rules   SI-1\n  source  s\n  applies >=6.1\n"
	"  call    NtSetIntervalProfile Interval=5000\n"
	"  expect  STATUS_SUCCESS\n"
	"vector known/query\n"                /* output-mismatch everywhere */
	"  title   t\n  rules   QI-5\n  source  s\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS Interval=1221\n"
	"vector known/good\n"                 /* match everywhere */
	"  title   t\n  rules   QI-5\n  source  s\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS\n"
	"vector known/emon\n"                 /* not applicable on 6.1/x86, output-mismatch elsewhere */
	"  title   t\n  rules   KS-3\n  source  s\n  given   hal=emon\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS Interval=1\n"
	"vector known/trace\n"                /* not-exported on 6.0, at the second step */
	"  title   t\n  rules   TR-1\n  source  s\n  applies 6.0\n"
	"  call    NtQueryIntervalProfile\n"
	"  expect  STATUS_SUCCESS\n"
	"  call    TraceSetInformation Interval=5000\n"
	"  expect  ERROR_SUCCESS\n";

#define PRIV  "STATUS_PRIVILEGE_NOT_HELD (0xC0000061)"
#define QUERY "STATUS_SUCCESS (0x00000000) Interval=39063"

/* Every failure of the run on 6.0/x86, 6.1/x86, 6.2/x64 and 1809/x64. */
static const char all_listed[] =
	"# the model against vectors that are wrong on purpose\n"
	"\n"
	"known/privilege  status-mismatch  step 1: " PRIV "  # SI-1: no privilege from 6.2\n"
	"known/query      output-mismatch  step 1: " QUERY " # the vector expects the minimum\n"
	"   known/emon  on >=6.2  output-mismatch step 1:   STATUS_SUCCESS   (0x00000000) Interval=39063 # blanks collapse\n"
	"known/trace on 6.0 arch=x86 not-exported step 2: not-exported # no Trace* before 6.1 #2\n";

typedef struct fx {
	char dir[512];
	char vec[700];
	np_vector_set set;
	np_backend *model;
	np_run run;
	np_known known;
	np_error err;
	char *text;          /* a written known file, in memory */
	size_t len;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	if (!np_test_tmpdir(f->dir, sizeof f->dir, "known")) {
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
	np_known_free(&f->known);
	if (f->model)
		f->model->destroy(f->model);
	np_vectors_free(&f->set);
	free(f->text);
	if (f->vec[0])
		remove(f->vec);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* Reads a known file from text; false with f->err on an error. */
static bool parse(fx *f, const char *text)
{
	np_known_free(&f->known);
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(in);
	bool ok = np_known_read(&f->known, "k.known", in, &f->err);
	fclose(in);
	return ok;
}

static void parse_ok(fx *f, const char *text)
{
	if (!parse(f, text))
		fail_msg("%s", f->err.text);
}

/* Runs the vectors on the model, on the given targets (NULL-terminated). */
static void run_on(fx *f, const char *const *targets)
{
	np_target_list l = { .count = 0 };
	if (!f->set.count) {
		snprintf(f->vec, sizeof f->vec, "%s/known.vec", f->dir);
		FILE *out = fopen(f->vec, "w");
		if (!out || fputs(vectors, out) < 0 || fclose(out) != 0)
			fail_msg("cannot write %s", f->vec);
		if (!np_vectors_load(&f->set, f->vec, &f->err))
			fail_msg("%s", f->err.text);
	}
	for (; *targets; targets++)
		assert_null(np_targets_add(&l, *targets));
	np_run_free(&f->run);
	assert_true(np_run_vectors(f->model, &f->set, &l, &f->run));
}

static const char *const four[] = { "6.0/x86", "6.1/x86", "6.2/x64", "1809/x64", NULL };

static const np_row *row_of(const fx *f, const char *vector, const char *target)
{
	char t[64];
	for (unsigned i = 0; i < f->run.count; i++) {
		const np_row *r = &f->run.row[i];
		snprintf(t, sizeof t, "%s/%s", np_version_key(r->target.version), np_arch_name(r->target.arch));
		if (strcmp(r->vector->id, vector) == 0 && strcmp(t, target) == 0)
			return r;
	}
	fail_msg("no row for %s on %s", vector, target);
	return NULL;
}

static void assert_counts(const fx *f, unsigned known, unsigned unlisted, unsigned stale, unsigned not_run)
{
	const np_known *k = &f->known;
	if (k->known != known || k->unlisted != unlisted || k->stale != stale || k->not_run != not_run)
		fail_msg("known %u, unlisted %u, stale %u, not run %u; want %u, %u, %u, %u", k->known, k->unlisted,
			 k->stale, k->not_run, known, unlisted, stale, not_run);
	assert_int_equal(f->run.tally[NP_CLASS_KNOWN], known);
	assert_true(np_known_failed(k) == (unlisted || stale));
}

/* ---- reading ---- */

static void test_known_read_fields(void **state)
{
	fx *f = *state;
	parse_ok(f, all_listed);
	assert_string_equal(f->known.path, "k.known");
	assert_int_equal(f->known.count, 4);
	const np_known_entry *e = f->known.e;
	assert_string_equal(e[0].vector, "known/privilege");
	assert_int_equal(e[0].cls, NP_CLASS_STATUS_MISMATCH);
	assert_int_equal(e[0].step, 1);
	assert_string_equal(e[0].got, PRIV);
	assert_string_equal(e[0].reason, "SI-1: no privilege from 6.2");
	assert_string_equal(e[0].scope_text, "");
	assert_int_equal(e[0].line, 3);
	assert_true(np_applies(&e[0].scope, NP_V3_10, NP_X86) && np_applies(&e[0].scope, NP_V11_24H2, NP_WOW64));

	assert_string_equal(e[2].vector, "known/emon");
	assert_string_equal(e[2].got, QUERY);            /* blanks collapsed */
	assert_string_equal(e[2].scope_text, "on >=6.2");
	assert_false(np_applies(&e[2].scope, NP_V6_1, NP_X64));
	assert_true(np_applies(&e[2].scope, NP_V6_2, NP_X86));
	assert_int_equal(e[2].line, 5);

	assert_int_equal(e[3].cls, NP_CLASS_NOT_EXPORTED);
	assert_int_equal(e[3].step, 2);
	assert_string_equal(e[3].scope_text, "on 6.0 arch=x86");
	assert_string_equal(e[3].reason, "no Trace* before 6.1 #2");   /* a # inside the reason stays */
	assert_true(np_applies(&e[3].scope, NP_V6_0, NP_X86));
	assert_false(np_applies(&e[3].scope, NP_V6_0, NP_X64));
}

static void test_known_read_empty_and_comments(void **state)
{
	fx *f = *state;
	parse_ok(f, "");
	assert_int_equal(f->known.count, 0);
	parse_ok(f, "# only a comment\n\n   \t\n  # indented comment\r\n");
	assert_int_equal(f->known.count, 0);
	parse_ok(f, "a/b arch=wow64,x64 stub step 32: stub # CRLF line\r\n");
	assert_int_equal(f->known.e[0].step, 32);
	assert_string_equal(f->known.e[0].reason, "CRLF line");
	assert_false(np_applies(&f->known.e[0].scope, NP_V1809, NP_X86));
	/* disjoint scopes of one vector are two entries, not a duplicate */
	parse_ok(f, "a/b on <6.2 crashed step 1: crashed # old\n"
		    "a/b on >=6.2 crashed step 1: crashed # new\n"
		    "a/c crashed step 1: crashed # another vector\n");
	assert_int_equal(f->known.count, 3);
	/* a reason that merely starts with the letters of TODO is a reason */
	parse_ok(f, "a/b crashed step 1: crashed # TODOS of the caller are not ours\n");
}

/* Each malformed line is refused with file:line and what was expected. */
static void test_known_read_errors(void **state)
{
	fx *f = *state;
	static const struct { const char *text; const char *want; } bad[] = {
		{ "a/b\n", "k.known:1: expected `VECTOR-ID [on RANGE] [arch=LIST] CLASS step N: GOT # REASON`" },
		{ "# c\na/b frobbed step 1: x # r\n", "k.known:2: unknown class frobbed (one of status-mismatch, "
		  "output-mismatch, not-exported, stub or crashed)" },
		{ "a/b match step 1: x # r\n", "k.known:1: class match is no divergence" },
		{ "a/b known step 1: x # r\n", "k.known:1: class known is no divergence" },
		{ "a/b not-applicable step 1: x # r\n", "k.known:1: class not-applicable is no divergence" },
		{ "a/b stub 1: x # r\n", "k.known:1: expected `step N:` after the class" },
		{ "a/b stub step\n", "k.known:1: expected `step N:` after the class" },
		{ "a/b stub step 1 x # r\n", "k.known:1: expected `step N:` after the class, not `step 1`" },
		{ "a/b stub step one: x # r\n", "k.known:1: expected `step N:` after the class, not `step one:`" },
		{ "a/b stub step 0: x # r\n", "k.known:1: step 0: is not a step number (1 to 32)" },
		{ "a/b stub step 33: x # r\n", "k.known:1: step 33: is not a step number (1 to 32)" },
		{ "a/b stub step 1: # r\n", "k.known:1: expected the observed outcome (a report's `got`) after `step 1:`" },
		{ "a/b stub step 1: stub\n", "k.known:1: missing reason" },
		{ "a/b stub step 1: stub#r\n", "k.known:1: missing reason" },
		{ "a/b stub step 1: stub #   \n", "k.known:1: missing reason" },
		{ "a/b stub step 1: stub # TODO\n", "k.known:1: the reason is still TODO: say why a/b diverges" },
		{ "a/b stub step 1: stub # todo: explain\n", "k.known:1: the reason is still TODO" },
		{ "a/b stub step 1: stub # TODO was: old reason\n", "k.known:1: the reason is still TODO" },
		{ "a/b on stub step 1: stub # r\n", "k.known:1: on stub: unknown version in range" },
		{ "a/b on\n", "k.known:1: expected a version range after `on`" },
		{ "a/b on 9.9 stub step 1: stub # r\n", "k.known:1: on 9.9: unknown version in range" },
		{ "a/b arch=arm stub step 1: stub # r\n", "k.known:1: arch=arm: architectures are x86, x64 and wow64" },
		{ "a/b arch=x86, stub step 1: stub # r\n", "k.known:1: arch=x86,: architectures are" },
		{ "a/b arch=x86 on 6.1 stub step 1: stub # r\n", "k.known:1: unknown class on" },
		{ "a/b stub step 1: stub # r\na/b crashed step 2: crashed # r\n",
		  "k.known:2: a/b is listed twice for the same target (first at line 1)" },
		{ "a/b on 6.1 stub step 1: stub # r\n# c\na/b arch=x86 stub step 1: stub # r\n",
		  "k.known:3: a/b is listed twice for the same target (first at line 1)" },
		{ "a/b stub step 1: st\001ub # r\n", "k.known:1: control character 0x01" },
		{ "a/b stub step NtFrobnicate: stub # r\n", "k.known:1: expected `step N:` after the class, not `step NtFrobnicate:` (N, a function" },
		{ "a/b stub step NtQueryIntervalProfile stub # r\n", "k.known:1: expected `step N:` after the class, not `step NtQueryIntervalProfile`" },
		{ "a/b status-mismatch step 1: status_success (0x00000000) # r\n", "k.known:1: status_success (0x00000000): expected an outcome" },
		{ "a/b status-mismatch step 1: STATUS_FROBNICATED # r\n", "k.known:1: STATUS_FROBNICATED: unknown NTSTATUS" },
		{ "a/b status-mismatch step 1: STATUS_SUCCESS (0xC0000061) # r\n", "k.known:1: STATUS_SUCCESS (0xC0000061): the outcome's name and its code in parentheses disagree" },
		{ "a/b status-mismatch step 1: STATUS_SUCCESS (x) # r\n", "k.known:1: STATUS_SUCCESS (x): expected the outcome's code in parentheses" },
		{ "a/b status-mismatch step 1: STATUS_? # r\n", "k.known:1: STATUS_?: an outcome without a name needs its code in parentheses" },
		{ "a/b output-mismatch step 1: STATUS_SUCCESS Interval # r\n", "k.known:1: STATUS_SUCCESS Interval: expected Name=Value out-values" },
		{ "a/b output-mismatch step 1: Interval=1 # r\n", "k.known:1: Interval=1: expected an outcome before the out-values" },
		{ "a/* stub step *: stub # r\na/* stub step *: stub # again\n", "k.known:2: a/* is listed twice for the same target (first at line 1)" },
		{ "* not-exported step NtQueryIntervalProfile: * # r\n* on 6.1 not-exported step ZwQueryIntervalProfile: * # r\n", "k.known:2: * is listed twice" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		if (parse(f, bad[i].text))
			fail_msg("accepted: %s", bad[i].text);
		if (strncmp(f->err.text, bad[i].want, strlen(bad[i].want)) != 0)
			fail_msg("for %s got: %s\nwant: %s...", bad[i].text, f->err.text, bad[i].want);
	}
}

static void test_known_read_long_line_and_missing_file(void **state)
{
	fx *f = *state;
	char *text = malloc(5000);
	assert_non_null(text);
	memset(text, 'x', 4998);
	memcpy(text, "# fine\n", 7);
	text[4998] = '\n';
	text[4999] = '\0';
	assert_false(parse(f, text));
	assert_string_equal(f->err.text, "k.known:2: line too long (at most 2047 bytes)");
	text[7] = '#';        /* a comment of 2047 bytes, the longest line, then a longer one */
	text[2054] = '\n';
	assert_false(parse(f, text));
	assert_string_equal(f->err.text, "k.known:3: line too long (at most 2047 bytes)");
	free(text);

	/* a NUL inside a line is no end of it */
	static const char nul[] = "a/b stub step 1: st\0ub # r\n";
	FILE *in = fmemopen((void *)nul, sizeof nul - 1, "r");
	assert_non_null(in);
	np_known_free(&f->known);
	assert_false(np_known_read(&f->known, "k.known", in, &f->err));
	fclose(in);
	assert_string_equal(f->err.text, "k.known:1: control character 0x00");
	/* nor a lone carriage return */
	assert_false(parse(f, "a/b stub step 1: st\rub # r\n"));
	assert_string_equal(f->err.text, "k.known:1: control character 0x0D");

	char path[700];
	snprintf(path, sizeof path, "%s/absent.known", f->dir);
	np_known_free(&f->known);
	assert_false(np_known_load(&f->known, path, &f->err));
	char want[800];
	snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
	assert_string_equal(f->err.text, want);
}

/* conformance/data/bad-known: one file per problem a run refuses (a malformed
 * line, or an entry for no vector of fixtures/); line 1 of each says "# WHAT => :LINE: MESSAGE-START". */
#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif
#define BAD_KNOWN_DIR NTPROF_SOURCE_ROOT "/conformance/data/bad-known"

static void test_known_bad_data_files(void **state)
{
	fx *f = *state;
	DIR *d = opendir(BAD_KNOWN_DIR);
	unsigned checked = 0, failures = 0;
	/* read against the vectors of fixtures/, as a run reads it */
	np_error err;
	const np_vector_set *const fixtures[1] = { &f->set };
	if (!np_vectors_load(&f->set, NTPROF_SOURCE_ROOT "/fixtures", &err))
		fail_msg("%s", err.text);
	if (!d)
		fail_msg("cannot open %s", BAD_KNOWN_DIR);
	for (struct dirent *de; (de = readdir(d)) != NULL;) {
		size_t n = strlen(de->d_name);
		char path[800], first[512] = "", want[1400];
		if (n < 7 || strcmp(de->d_name + n - 6, ".known") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", BAD_KNOWN_DIR, de->d_name);
		FILE *in = fopen(path, "rb");
		if (!in || !fgets(first, sizeof first, in))
			fail_msg("%s: cannot read its first line", path);
		fclose(in);
		first[strcspn(first, "\r\n")] = '\0';
		const char *arrow = strstr(first, " => :");
		if (!arrow)
			fail_msg("%s: line 1 must be \"# WHAT => :LINE: MESSAGE\"", path);
		snprintf(want, sizeof want, "%s:%s", path, arrow + 5);
		np_known_free(&f->known);
		checked++;
		if (np_known_load(&f->known, path, &f->err) &&
		    np_known_check(&f->known, fixtures, 1, "fixtures/", &f->err)) {
			print_error("%s: loaded; want \"%s...\"\n", de->d_name, want);
			failures++;
		} else if (strncmp(f->err.text, want, strlen(want)) != 0) {
			print_error("%s:\n  got  \"%s\"\n  want \"%s...\"\n", de->d_name, f->err.text, want);
			failures++;
		}
	}
	closedir(d);
	assert_true(checked >= 14);
	assert_int_equal(failures, 0);
}

/* ---- matching ---- */

static void test_known_apply_every_failure_listed(void **state)
{
	fx *f = *state;
	run_on(f, four);
	assert_int_equal(f->run.tally[NP_CLASS_STATUS_MISMATCH], 2);
	assert_int_equal(f->run.tally[NP_CLASS_OUTPUT_MISMATCH], 6);
	assert_int_equal(f->run.tally[NP_CLASS_NOT_EXPORTED], 1);
	parse_ok(f, all_listed);
	np_known_apply(&f->known, &f->run);
	assert_counts(f, 9, 0, 0, 0);
	assert_ptr_equal(f->run.known, &f->known);
	for (unsigned c = 0; c < NP_CLASS_COUNT; c++)
		if (np_class_is_failure((np_class)c))
			assert_int_equal(f->run.tally[c], 0);
	const np_row *r = row_of(f, "known/privilege", "1809/x64");
	assert_int_equal(r->cls, NP_CLASS_KNOWN);
	assert_int_equal(r->observed, NP_CLASS_STATUS_MISMATCH);
	assert_int_equal(np_row_observed(r), NP_CLASS_STATUS_MISMATCH);
	assert_ptr_equal(r->listed, &f->known.e[0]);
	r = row_of(f, "known/privilege", "6.1/x86");   /* covered, but a match: stays one */
	assert_int_equal(r->cls, NP_CLASS_MATCH);
	assert_ptr_equal(r->listed, &f->known.e[0]);
	assert_int_equal(row_of(f, "known/trace", "6.0/x86")->cls, NP_CLASS_KNOWN);
	assert_int_equal(f->known.e[1].matched, 4);
	assert_false(np_class_is_failure(NP_CLASS_KNOWN));
}

static void test_known_apply_unlisted(void **state)
{
	fx *f = *state;
	run_on(f, four);
	/* the emon line left out: its two failing rows are unlisted */
	parse_ok(f, "known/privilege  status-mismatch  step 1: " PRIV "  # r\n"
		    "known/query      output-mismatch  step 1: " QUERY " # r\n"
		    "known/trace not-exported step 2: not-exported # r\n");
	np_known_apply(&f->known, &f->run);
	assert_counts(f, 7, 2, 0, 0);
	const np_row *r = row_of(f, "known/emon", "6.2/x64");
	assert_int_equal(r->cls, NP_CLASS_OUTPUT_MISMATCH);
	assert_null(r->listed);
	assert_int_equal(f->run.tally[NP_CLASS_OUTPUT_MISMATCH], 2);
}

static void test_known_apply_stale(void **state)
{
	fx *f = *state;
	run_on(f, four);
	parse_ok(f, all_listed);
	f->known.e[0].matched = 99;   /* left from elsewhere: apply starts afresh */
	np_known_apply(&f->known, &f->run);
	parse_ok(f, "known/good output-mismatch step 1: " QUERY " # it used to fail\n");
	np_known_apply(&f->known, &f->run);   /* a second apply judges what was observed */
	assert_counts(f, 0, 9, 1, 0);
	const np_known_entry *e = &f->known.e[0];
	assert_true(e->ran);
	assert_int_equal(e->matched, 0);
	assert_int_equal(e->now, NP_CLASS_MATCH);
	assert_int_equal(e->now_target.version, NP_V6_0);
	assert_int_equal(row_of(f, "known/privilege", "6.2/x64")->cls, NP_CLASS_STATUS_MISMATCH);
}

/* An entry whose vector did not run on a target it covers is neither
 * matched nor stale: a run of some files or targets says nothing of it.
 * A not-applicable row is no run. */
static void test_known_apply_not_run(void **state)
{
	fx *f = *state;
	static const char *const old_only[] = { "6.1/x86", NULL };
	run_on(f, old_only);
	parse_ok(f, "known/absent stub step 1: stub # a vector this run lacks\n"
		    "known/query on >=6.2 output-mismatch step 1: " QUERY " # only newer targets\n"
		    "known/emon output-mismatch step 1: " QUERY " # not applicable on 6.1/x86\n"
		    "known/query on 6.1 arch=x86 output-mismatch step 1: " QUERY " # this one ran\n");
	np_known_apply(&f->known, &f->run);
	assert_counts(f, 1, 0, 0, 3);
	assert_false(f->known.e[0].ran);
	assert_false(f->known.e[2].ran);
	assert_true(f->known.e[3].ran);
}

/* An entry must name a vector of the sets it is read against: one for no
 * vector would only ever count as not run, and never fail. The first such
 * entry is named by file:line; a second set (the full fixtures of a run of
 * some files) can supply the vector. */
static void test_known_check_names_vectors(void **state)
{
	fx *f = *state;
	static const char *const one[] = { "6.1/x86", NULL };
	run_on(f, one);
	const np_vector_set *const sets[1] = { &f->set };
	parse_ok(f, "known/query output-mismatch step 1: " QUERY " # r\n"
		    "known/trace not-exported step 2: not-exported # r\n");
	assert_true(np_known_check(&f->known, sets, 1, "the set", &f->err));
	parse_ok(f, "known/query output-mismatch step 1: " QUERY " # r\n"
		    "\n"
		    "known/absent stub step 1: stub # r\n"
		    "known/missing stub step 1: stub # r\n");
	assert_false(np_known_check(&f->known, sets, 1, "the set", &f->err));
	assert_string_equal(f->err.text, "k.known:3: known/absent: no such vector in the set "
			    "(an entry for no vector never runs, so it could never fail)");
	assert_false(np_known_check(&f->known, sets, 0, "no set", &f->err));
	assert_string_equal(f->err.text, "k.known:1: known/query: no such vector in no set "
			    "(an entry for no vector never runs, so it could never fail)");

	/* a second set that holds both: every entry names a vector */
	char path[800];
	np_vector_set more;
	np_error err;
	snprintf(path, sizeof path, "%s/more.vec", f->dir);
	FILE *out = fopen(path, "w");
	assert_non_null(out);
	fputs("vector known/absent\n  title t\n  rules QI-5\n  source s\n"
	      "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
	      "vector known/missing\n  title t\n  rules QI-5\n  source s\n"
	      "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", out);
	assert_int_equal(fclose(out), 0);
	memset(&more, 0, sizeof more);
	bool loaded = np_vectors_load(&more, path, &err);
	remove(path);
	if (!loaded)
		fail_msg("%s", err.text);
	const np_vector_set *const both[2] = { &f->set, &more };
	assert_true(np_known_check(&f->known, both, 2, "both", &f->err));
	np_vectors_free(&more);
}

/* Scoping: an entry covers the targets of its range and architectures only. */
static void test_known_apply_scoped(void **state)
{
	fx *f = *state;
	run_on(f, four);
	parse_ok(f, "known/query on 6.2 arch=x64 output-mismatch step 1: " QUERY " # r\n"
		    "known/query on 1809 output-mismatch step 1: " QUERY " # r\n"
		    "known/privilege on <6.2 status-mismatch step 1: " PRIV " # r\n");
	np_known_apply(&f->known, &f->run);
	/* query on 6.0/x86 and 6.1/x86, privilege on 6.2 and 1809, emon twice,
	 * trace: unlisted; the privilege entry covers 6.1, where it matches: stale */
	assert_counts(f, 2, 7, 1, 0);
	assert_int_equal(row_of(f, "known/query", "6.2/x64")->cls, NP_CLASS_KNOWN);
	assert_int_equal(row_of(f, "known/query", "1809/x64")->cls, NP_CLASS_KNOWN);
	assert_int_equal(row_of(f, "known/query", "6.1/x86")->cls, NP_CLASS_OUTPUT_MISMATCH);
	assert_null(row_of(f, "known/query", "6.1/x86")->listed);
	assert_true(f->known.e[2].ran && !f->known.e[2].matched);
}

/* The fail-twins: one field wrong in one entry, and the run must fail, with
 * the rows it covered unlisted and the entry stale. */
static void test_known_apply_catches_any_wrong_field(void **state)
{
	fx *f = *state;
	static const char *const wrong[] = {
		"known/querx     output-mismatch step 1: " QUERY " # wrong vector\n",
		"known/query     status-mismatch step 1: " QUERY " # wrong class\n",
		"known/query     output-mismatch step 2: " QUERY " # wrong step\n",
		"known/query     output-mismatch step 1: STATUS_SUCCESS (0x00000000) Interval=39064 # wrong value\n",
		"known/query     output-mismatch step 1: STATUS_SUCCESS (0x00000000) # an out-value missing\n",
		"known/query     output-mismatch step 1: " QUERY " Buffer=1 # an out-value more\n",
		"known/query     output-mismatch step 1: STATUS_UNSUCCESSFUL Interval=39063 # wrong outcome\n",
		"known/query on <6.0 output-mismatch step 1: " QUERY " # wrong scope\n",
	};
	run_on(f, four);
	for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
		char text[2048];
		snprintf(text, sizeof text,
			 "known/privilege status-mismatch step 1: " PRIV " # r\n"
			 "known/emon on >=6.2 output-mismatch step 1: " QUERY " # r\n"
			 "known/trace not-exported step 2: not-exported # r\n%s", wrong[i]);
		parse_ok(f, text);
		np_known_apply(&f->known, &f->run);
		const np_known_entry *e = &f->known.e[3];
		if (f->known.unlisted != 4 || f->known.known != 5 || !np_known_failed(&f->known))
			fail_msg("not caught (%u unlisted, %u known): %s", f->known.unlisted, f->known.known, wrong[i]);
		if (e->matched || (e->ran && f->known.stale != 1) || (!e->ran && f->known.not_run != 1))
			fail_msg("the wrong entry is not stale: %s", wrong[i]);
	}
}

/* ---- writing ---- */

static void write_known(fx *f)
{
	free(f->text);
	f->text = NULL;
	FILE *m = open_memstream(&f->text, &f->len);
	assert_non_null(m);
	np_known_write(m, &f->run);
	assert_int_equal(fclose(m), 0);
}

/* Fails unless text has a line that reads want, with blanks collapsed. */
static void assert_line_in(const char *text, const char *want)
{
	for (const char *p = text; *p;) {
		char line[1024];
		size_t n = 0;
		for (; *p && *p != '\n'; p++)
			if (n + 1 < sizeof line && !(*p == ' ' && n && line[n - 1] == ' '))
				line[n++] = *p;
		line[n] = '\0';
		if (*p)
			p++;
		if (strcmp(line, want) == 0)
			return;
	}
	fail_msg("no line \"%s\" in:\n%s", want, text);
}

static char *replace_all(const char *text, const char *from, const char *to)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, from)); p += strlen(from))
		n++;
	char *out = malloc(strlen(text) + n * strlen(to) + 1), *o = out;
	assert_non_null(out);
	for (const char *p = text, *q; ; p = q + strlen(from)) {
		if (!(q = strstr(p, from))) {
			strcpy(o, p);
			break;
		}
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		o = strcpy(o, to) + strlen(to);
	}
	return out;
}

/* Written, then read back once every TODO has a reason: no unlisted, no stale. */
static void test_known_write_round_trip(void **state)
{
	fx *f = *state;
	run_on(f, four);
	np_run_env(&f->run, "wine", "8.0");
	write_known(f);
	assert_non_null(strstr(f->text, "# env wine: 8.0\n"));
	/* privilege failed on x64 and ran on x86 (6.1) only otherwise: scoped;
	 * query failed everywhere alike, emon wherever it ran: no scope */
	assert_line_in(f->text, "known/privilege arch=x64 status-mismatch step 1: " PRIV " # TODO");
	assert_line_in(f->text, "known/query output-mismatch step 1: " QUERY " # TODO");
	assert_line_in(f->text, "known/emon output-mismatch step 1: " QUERY " # TODO");
	assert_line_in(f->text, "known/trace not-exported step 2: not-exported # TODO");
	assert_null(strstr(f->text, "known/good"));
	assert_false(parse(f, f->text));   /* TODO is refused */
	assert_non_null(strstr(f->err.text, "the reason is still TODO"));

	char *fixed = replace_all(f->text, "# TODO", "# explained");
	parse_ok(f, fixed);
	free(fixed);
	assert_int_equal(f->known.count, 4);
	np_known_apply(&f->known, &f->run);
	assert_counts(f, 9, 0, 0, 0);
}

/* Scopes: per architecture, versions from a failure up to where the vector
 * ran otherwise; two outcomes of one vector get lines that share no target,
 * and the file reads back and matches the run exactly. */
static void test_known_write_scopes(void **state)
{
	fx *f = *state;
	static const char *const many[] = { "6.1", "6.2/x64", "1809", NULL };
	snprintf(f->vec, sizeof f->vec, "%s/scopes.vec", f->dir);
	FILE *out = fopen(f->vec, "w");
	assert_non_null(out);
	fputs("vector known/privilege\n"   /* match on 6.1, fails from 6.2 */
	      "  title   t\n  rules   SI-1\n  source  s\n  applies >=6.1\n"
	      "  call    NtSetIntervalProfile Interval=5000\n"
	      "  expect  STATUS_SUCCESS\n"
	      "vector known/denied\n"      /* fails everywhere, one way on 6.1, another from 6.2 */
	      "  title   t\n  rules   SI-1\n  source  s\n  applies >=6.1\n"
	      "  call    NtSetIntervalProfile Interval=5000\n"
	      "  expect  STATUS_ACCESS_DENIED\n", out);
	assert_int_equal(fclose(out), 0);
	if (!np_vectors_load(&f->set, f->vec, &f->err))
		fail_msg("%s", f->err.text);
	run_on(f, many);
	write_known(f);
	/* both vectors fail alike from 6.2 on, and no other vector calls
	 * NtSetIntervalProfile: one pattern line per scope stands for both */
	assert_line_in(f->text, "* on >=1809 arch=x86,wow64 status-mismatch step NtSetIntervalProfile: " PRIV " # TODO");
	assert_line_in(f->text, "* on >=6.2 arch=x64 status-mismatch step NtSetIntervalProfile: " PRIV " # TODO");
	assert_line_in(f->text, "known/denied on <=6.1 status-mismatch step 1: STATUS_SUCCESS (0x00000000) # TODO");
	assert_null(strstr(f->text, "known/privilege on"));
	char *fixed = replace_all(f->text, "# TODO", "# explained");
	parse_ok(f, fixed);
	free(fixed);
	assert_int_equal(f->known.count, 3);
	np_known_apply(&f->known, &f->run);
	assert_counts(f, 11, 0, 0, 0);
}

/* Rewritten from a run with the file applied: the reasons of the entries
 * that matched stay, an entry that no longer fits leaves a TODO that quotes
 * its old reason, and a scope written by hand is kept. */
static void test_known_write_keeps_reasons(void **state)
{
	fx *f = *state;
	run_on(f, four);
	parse_ok(f, "known/query on >=6.0 output-mismatch step 1: " QUERY " # the minimum is wrong\n"
		    "known/privilege status-mismatch step 1: STATUS_ACCESS_DENIED (0xC0000022) # old outcome\n");
	np_known_apply(&f->known, &f->run);
	write_known(f);
	assert_line_in(f->text, "known/query on >=6.0 output-mismatch step 1: " QUERY " # the minimum is wrong");
	assert_non_null(strstr(f->text, "step 1: " PRIV "  # TODO was: old outcome\n"));
	assert_line_in(f->text, "known/emon output-mismatch step 1: " QUERY " # TODO");
	/* a one-target run writes no scope: the file is that target's */
	static const char *const one[] = { "1809/x64", NULL };
	run_on(f, one);
	write_known(f);
	assert_line_in(f->text, "known/privilege status-mismatch step 1: " PRIV " # TODO");
}

static void test_known_write_nothing_failing(void **state)
{
	fx *f = *state;
	static const char *const one[] = { "6.1/x86", NULL };
	run_on(f, one);
	parse_ok(f, "known/query output-mismatch step 1: " QUERY " # r\n");
	np_known_apply(&f->known, &f->run);
	write_known(f);
	parse_ok(f, f->text);
	assert_int_equal(f->known.count, 1);   /* the known row is still written */
	np_run_free(&f->run);
	f->run.backend = "model";
	write_known(f);
	parse_ok(f, f->text);   /* only comments */
	assert_int_equal(f->known.count, 0);
}

/* ---- GOT by value, patterns ---- */

/* An entry's GOT is read as the vectors read an outcome: the status by
 * name without its code, or as a number, is the report's status; the
 * twin, another status, leaves the rows unlisted and the entry stale. */
static void test_known_got_by_value(void **state)
{
	fx *f = *state;
	run_on(f, four);
	parse_ok(f, "known/privilege status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD # no code\n"
		    "known/query output-mismatch step 1: 0x0 Interval=0x9897 # numbers\n");
	np_known_apply(&f->known, &f->run);
	assert_counts(f, 6, 3, 0, 0);
	assert_int_equal(f->known.e[0].matched, 2);
	assert_int_equal(f->known.e[1].matched, 4);
	parse_ok(f, "known/privilege status-mismatch step 1: STATUS_ACCESS_DENIED # another status\n"
		    "known/query output-mismatch step 1: STATUS_SUCCESS Interval=39064 # another value\n");
	np_known_apply(&f->known, &f->run);
	assert_counts(f, 0, 9, 2, 0);
}

/* A pattern lists the failures of every vector it names: ID matched by
 * the glob and a call of the step's function; IDs go first. */
static void test_known_pattern_apply(void **state)
{
	fx *f = *state;
	run_on(f, four);
	parse_ok(f, "known/* output-mismatch step NtQueryIntervalProfile: " QUERY " # the family\n"
		    "known/privilege status-mismatch step 1: " PRIV " # by ID\n"
		    "* status-mismatch step *: * # any status-mismatch\n");
	np_known_apply(&f->known, &f->run);
	/* query 4, emon 2 by the pattern; privilege 2 by its ID; trace unlisted */
	assert_counts(f, 8, 1, 1, 0);
	assert_int_equal(f->known.e[0].matched, 6);
	assert_int_equal(f->known.e[1].matched, 2);
	assert_int_equal(f->known.e[2].matched, 0);   /* the ID went first: stale */
	assert_ptr_equal(row_of(f, "known/emon", "6.2/x64")->listed, &f->known.e[0]);
	assert_ptr_equal(row_of(f, "known/privilege", "6.2/x64")->listed, &f->known.e[1]);
	/* the twins: a step of another function, another family, another class */
	static const char *const wrong[] = {
		"known/* output-mismatch step TraceSetInformation: " QUERY " # r\n",
		"known/q* output-mismatch step NtQueryIntervalProfile: " QUERY " # r\n",
		"known/* status-mismatch step NtQueryIntervalProfile: " QUERY " # r\n",
		"known/* output-mismatch step 2: " QUERY " # r\n",
	};
	for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
		parse_ok(f, wrong[i]);
		np_known_apply(&f->known, &f->run);
		if (f->known.known == 6 || !np_known_failed(&f->known))
			fail_msg("not caught: %s", wrong[i]);
	}
}

/* np_known_check: a pattern must name a vector (with its step). */
static void test_known_pattern_check(void **state)
{
	fx *f = *state;
	static const char *const one[] = { "6.1/x86", NULL };
	run_on(f, one);
	const np_vector_set *const sets[1] = { &f->set };
	parse_ok(f, "known/* not-exported step TraceSetInformation: * # r\n* stub step *: * # r\n");
	assert_true(np_known_check(&f->known, sets, 1, "the set", &f->err));
	parse_ok(f, "known/* not-exported step NtCreateProfile: * # r\n");
	assert_false(np_known_check(&f->known, sets, 1, "the set", &f->err));
	assert_string_equal(f->err.text, "k.known:1: known/*: the pattern matches no vector in the set that "
			    "calls the step's function (an entry for no vector never runs, so it could never fail)");
	parse_ok(f, "known/* not-exported step 3: * # r\n");
	assert_false(np_known_check(&f->known, sets, 1, "the set", &f->err));
	parse_ok(f, "other/* not-exported step 1: * # r\n");
	assert_false(np_known_check(&f->known, sets, 1, "the set", &f->err));
	assert_string_equal(f->err.text, "k.known:1: other/*: the pattern matches no vector in the set "
			    "(an entry for no vector never runs, so it could never fail)");
}

/* --known-write merges only where exact: query and emon fail alike, but
 * known/good and known/trace call NtQueryIntervalProfile too and did not
 * fail so, so no pattern may stand for the two. */
static void test_known_write_no_inexact_pattern(void **state)
{
	fx *f = *state;
	run_on(f, four);
	write_known(f);
	assert_null(strstr(f->text, "*  "));
	assert_line_in(f->text, "known/query output-mismatch step 1: " QUERY " # TODO");
	char *fixed = replace_all(f->text, "# TODO", "# explained");
	parse_ok(f, fixed);
	free(fixed);
	np_known_apply(&f->known, &f->run);
	assert_counts(f, 9, 0, 0, 0);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	T(test_known_read_fields),
	T(test_known_got_by_value),
	T(test_known_pattern_apply),
	T(test_known_pattern_check),
	T(test_known_write_no_inexact_pattern),
	T(test_known_read_empty_and_comments),
	T(test_known_read_errors),
	T(test_known_read_long_line_and_missing_file),
	T(test_known_bad_data_files),
	T(test_known_apply_every_failure_listed),
	T(test_known_apply_unlisted),
	T(test_known_apply_stale),
	T(test_known_apply_not_run),
	T(test_known_check_names_vectors),
	T(test_known_apply_scoped),
	T(test_known_apply_catches_any_wrong_field),
	T(test_known_write_round_trip),
	T(test_known_write_scopes),
	T(test_known_write_keeps_reasons),
	T(test_known_write_nothing_failing),
};
#undef T

NP_TEST_MAIN(tests)
