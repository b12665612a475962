/* SPDX-License-Identifier: MIT */
/* The vector file parser (harness/vectors/, fixtures/README.md): what a good
 * file loads into, and the exact "file:line: message" of every kind of
 * malformed input. Files are written to a fresh temporary directory per test;
 * conformance/data/bad/ holds one malformed file per problem, each saying on
 * its first line which line and message it must produce. */
#include "np_test.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vectors/arg_value.h"
#include "vectors/catalog.h"
#include "np_step_arg.h"
#include "ntprof/configure.h"
#include "ntprof/status.h"
#include "ntprof/vector.h"
#include "ntprof/version.h"

#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif

#define BAD_DIR NTPROF_SOURCE_ROOT "/conformance/data/bad"

/* ---- fixture: a temporary directory, emptied and removed afterwards ---- */

#define TMP_ENTRIES 32

typedef struct tmpdir {
	char dir[512];
	char entry[TMP_ENTRIES][700];   /* files and subdirectories, in creation order */
	unsigned n;
	char path[700];                 /* the last path handed out */
} tmpdir;

static int setup_tmp(void **state)
{
	tmpdir *t = calloc(1, sizeof *t);
	if (!t)
		return -1;
	if (!np_test_tmpdir(t->dir, sizeof t->dir, "parser")) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int teardown_tmp(void **state)
{
	tmpdir *t = *state;
	while (t->n > 0)
		remove(t->entry[--t->n]);
	rmdir(t->dir);
	free(t);
	return 0;
}

/* Full path of name in the directory, remembered for removal. */
static const char *tmp_track(tmpdir *t, const char *name)
{
	char full[700];
	snprintf(full, sizeof full, "%s/%s", t->dir, name);
	for (unsigned i = 0; i < t->n; i++)
		if (strcmp(t->entry[i], full) == 0)
			return t->entry[i];
	if (t->n == TMP_ENTRIES)
		fail_msg("too many temporary files");
	snprintf(t->entry[t->n], sizeof t->entry[t->n], "%s", full);
	return t->entry[t->n++];
}

static const char *tmp_write_n(tmpdir *t, const char *name, const char *data, size_t len)
{
	const char *path = tmp_track(t, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		fail_msg("cannot create %s", path);
	size_t put = fwrite(data, 1, len, f);
	if (fclose(f) != 0 || put != len)
		fail_msg("cannot write %s", path);
	return path;
}

static const char *tmp_write(tmpdir *t, const char *name, const char *text)
{
	return tmp_write_n(t, name, text, strlen(text));
}

static const char *tmp_mkdir(tmpdir *t, const char *name)
{
	const char *path = tmp_track(t, name);
	if (mkdir(path, 0700) != 0)
		fail_msg("cannot create directory %s", path);
	return path;
}

/* ---- helpers ---- */

static void assert_prefix(const char *text, const char *prefix)
{
	if (strncmp(text, prefix, strlen(prefix)) != 0)
		fail_msg("got  \"%s\"\nwant \"%s...\"", text, prefix);
}

/* Loads text as one file; it must fail with "PATH:LINE: MESSAGE..." and
 * leave nothing in the set. */
static void assert_load_fails(tmpdir *t, const char *text, size_t len, int line, const char *message)
{
	const char *path = tmp_write_n(t, "bad.vec", text, len);
	np_vector_set set = { 0 };
	np_error err;
	char want[1400];
	memset(&err, 0, sizeof err);
	bool ok = np_vectors_load(&set, path, &err);
	unsigned count = set.count;
	np_vectors_free(&set);
	if (ok)
		fail_msg("the file loaded; want \"%s:%d: %s...\"", path, line, message);
	/* line 0: a message about the whole file, which names no line */
	if (line > 0)
		snprintf(want, sizeof want, "%s:%d: %s", path, line, message);
	else
		snprintf(want, sizeof want, "%s: %s", path, message);
	assert_prefix(err.text, want);
	assert_int_equal(count, 0);

	/* The same text from memory (as the Windows exe's embedded fixtures) goes
	 * through the same parser and names the given name. */
	memset(&err, 0, sizeof err);
	ok = np_vectors_load_text(&set, "mem/bad.vec", text, len, &err);
	count = set.count;
	np_vectors_free(&set);
	if (ok)
		fail_msg("the text loaded; want \"mem/bad.vec:%d: %s...\"", line, message);
	if (line > 0)
		snprintf(want, sizeof want, "mem/bad.vec:%d: %s", line, message);
	else
		snprintf(want, sizeof want, "mem/bad.vec: %s", message);
	assert_prefix(err.text, want);
	assert_int_equal(count, 0);
}

#define LOAD_FAILS(text, line, message) \
	assert_load_fails(*state, (text), sizeof(text) - 1, (line), (message))

/* Loads text as one file, which must load; the set is the caller's to free. */
static void load_ok(tmpdir *t, const char *name, const char *text, np_vector_set *set)
{
	np_error err;
	const char *path = tmp_write(t, name, text);
	memset(&err, 0, sizeof err);
	if (!np_vectors_load(set, path, &err)) {
		np_vectors_free(set);
		fail_msg("%s did not load: %s", path, err.text);
	}
}

/* The four lines every vector needs, as lines 1-4 of a file. */
#define HEAD(id) "vector " id "\n  title   t\n  rules   QI-5\n  source  s\n"

/* ---- a good file ---- */

static const char good_text[] =
	"# A good vector uses every kind of line.\n"                                /* 1 */
	"\n"                                                                        /* 2 */
	"vector parser/good\n"                                                      /* 3 */
	"  title   Setting without the privilege is refused from 6.2 on\n"          /* 4 */
	"  rules   SI-1 VR-1\n"                                                     /* 5 */
	"  flags   version-change documented alternative unknown:K-QI-ALIGN hazardous\n" /* 6 */
	"  source  GC-SETINT https://example.invalid/a  b\n"                        /* 7 */
	"  applies >=3.51 arch=x86,x64\n"                                           /* 8 */
	"  given   privilege=off cpus=2\n"                                          /* 9 */
	"\tgiven\tK-QI-ALIGN=none hal.ProfileTime.min=100\n"                        /* 10 */
	"  call    ZwSetIntervalProfile Interval=0x2710 ProfileSource=ProfileTime\n" /* 11 */
	"  expect  STATUS_PRIVILEGE_NOT_HELD on >=6.2\n"                            /* 12 */
	"  expect  STATUS_SUCCESS on 3.51..6.1 arch=x86,x64\n"                      /* 13 */
	"  accept  0xC0000022 on 6.2 arch=x64 flag=alternative\n"                   /* 14 */
	"  call    NtQueryIntervalProfile Source=2 Interval=misaligned\n"           /* 15 */
	"  expect  STATUS_SUCCESS Interval=0x9897 Interval=- on all\n"              /* 16 */
	"  accept  fault STATUS_ACCESS_VIOLATION flag=unknown:K-QI-ALIGN\n"         /* 17 */
	"  call    ReadEvents\n"                                                    /* 18 */
	"  expect  Events=none\n"                                                   /* 19 */
	"\n"                                                                        /* 20 */
	"vector parser/second\r\n"                                                  /* 21 */
	"  title   Defaults\r\n"                                                    /* 22 */
	"  rules   QI-5\r\n"                                                        /* 23 */
	"  source  derived\r\n"                                                     /* 24 */
	"  call    TraceQueryInformation\r\n"                                       /* 25 */
	"  expect  not-exported on <=6.1\r\n"                                       /* 26 */
	"  expect  ERROR_SUCCESS Interval=39063 ReturnLength=8 on >6.1\r\n";        /* 27 */

static void assert_pair(const np_pair *p, const char *name, const char *value)
{
	assert_string_equal(p->name, name);
	assert_string_equal(p->value, value);
}

static void assert_when(const np_applicability *a, np_ver lo, np_ver hi, bool x86, bool x64, bool wow64)
{
	assert_int_equal(a->lo, lo);
	assert_int_equal(a->hi, hi);
	assert_int_equal(a->arch[NP_X86], x86);
	assert_int_equal(a->arch[NP_X64], x64);
	assert_int_equal(a->arch[NP_WOW64], wow64);
}

static void test_parser_good_vector_header_fields(void **state)
{
	np_vector_set set = { 0 };
	load_ok(*state, "good.vec", good_text, &set);
	const char *path = ((tmpdir *)*state)->entry[0];

	assert_int_equal(set.count, 2);
	assert_int_equal(set.nfiles, 1);
	assert_string_equal(set.files[0], path);
	const np_vector *v = &set.v[0];
	assert_string_equal(v->id, "parser/good");
	assert_string_equal(v->title, "Setting without the privilege is refused from 6.2 on");
	assert_string_equal(v->source, "GC-SETINT https://example.invalid/a  b");
	assert_int_equal(v->nrule, 2);
	assert_string_equal(v->rule[0], "SI-1");
	assert_string_equal(v->rule[1], "VR-1");
	assert_int_equal(v->nflag, 5);
	assert_string_equal(v->flag[0], "version-change");
	assert_string_equal(v->flag[1], "documented");
	assert_string_equal(v->flag[2], "alternative");
	assert_string_equal(v->flag[3], "unknown:K-QI-ALIGN");
	assert_when(&v->applies, NP_V3_51, NP_V11_25H2, true, true, false);
	assert_ptr_equal(v->file, set.files[0]);
	assert_int_equal(v->line, 3);
	assert_int_equal(v->ngiven, 4);
	assert_pair(&v->given[0], "privilege", "off");
	assert_pair(&v->given[1], "cpus", "2");
	assert_pair(&v->given[2], "K-QI-ALIGN", "none");
	assert_pair(&v->given[3], "hal.ProfileTime.min", "100");
	assert_int_equal(v->given_line[0], 9);
	assert_int_equal(v->given_line[1], 9);
	assert_int_equal(v->given_line[2], 10);
	assert_int_equal(v->given_line[3], 10);
	assert_true(np_vector_has_flag(v, "documented"));
	assert_true(np_vector_has_flag(v, "unknown:K-QI-ALIGN"));
	assert_false(np_vector_has_flag(v, "boundary"));
	np_vectors_free(&set);
}

static void test_parser_good_vector_steps_and_expectations(void **state)
{
	np_vector_set set = { 0 };
	load_ok(*state, "good.vec", good_text, &set);
	const np_vector *v = &set.v[0];

	assert_int_equal(v->nstep, 3);
	/* step 1: the Zw spelling is kept, ProfileSource= is stored as Source */
	const np_step *s = &v->step[0];
	assert_string_equal(s->function, "ZwSetIntervalProfile");
	assert_int_equal(s->line, 11);
	assert_int_equal(s->narg, 2);
	assert_pair(&s->arg[0], "Interval", "0x2710");
	assert_pair(&s->arg[1], "Source", "ProfileTime");
	assert_int_equal(s->nexpect, 3);
	assert_int_equal(s->expect[0].outcome.kind, NP_RESULT_STATUS);
	assert_int_equal(s->expect[0].outcome.code, NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_false(s->expect[0].alternative);
	assert_string_equal(s->expect[0].flag, "");
	assert_int_equal(s->expect[0].nout, 0);
	assert_int_equal(s->expect[0].line, 12);
	assert_when(&s->expect[0].when, NP_V6_2, NP_V11_25H2, true, true, true);
	assert_int_equal(s->expect[1].outcome.code, NP_STATUS_SUCCESS);
	assert_int_equal(s->expect[1].line, 13);
	assert_when(&s->expect[1].when, NP_V3_51, NP_V6_1, true, true, false);
	assert_true(s->expect[2].alternative);
	assert_string_equal(s->expect[2].flag, "alternative");
	assert_int_equal(s->expect[2].outcome.kind, NP_RESULT_STATUS);
	assert_int_equal(s->expect[2].outcome.code, NP_STATUS_ACCESS_DENIED);
	assert_int_equal(s->expect[2].line, 14);
	assert_when(&s->expect[2].when, NP_V6_2, NP_V6_2, false, true, false);

	/* step 2: out-values are kept as written, `on all` is everything */
	s = &v->step[1];
	assert_string_equal(s->function, "NtQueryIntervalProfile");
	assert_int_equal(s->line, 15);
	assert_int_equal(s->narg, 2);
	assert_pair(&s->arg[0], "Source", "2");
	assert_pair(&s->arg[1], "Interval", "misaligned");
	assert_int_equal(s->nexpect, 2);
	assert_int_equal(s->expect[0].nout, 2);
	assert_pair(&s->expect[0].out[0], "Interval", "0x9897");
	assert_pair(&s->expect[0].out[1], "Interval", "-");
	assert_when(&s->expect[0].when, NP_V3_10, NP_V11_25H2, true, true, true);
	assert_int_equal(s->expect[1].outcome.kind, NP_RESULT_FAULT);
	assert_int_equal(s->expect[1].outcome.code, NP_STATUS_ACCESS_VIOLATION);
	assert_string_equal(s->expect[1].flag, "unknown:K-QI-ALIGN");
	assert_int_equal(s->expect[1].line, 17);

	/* step 3: a pseudo-step with out-values only */
	s = &v->step[2];
	assert_string_equal(s->function, "ReadEvents");
	assert_int_equal(s->narg, 0);
	assert_int_equal(s->nexpect, 1);
	assert_int_equal(s->expect[0].outcome.kind, NP_RESULT_NONE);
	assert_int_equal(s->expect[0].nout, 1);
	assert_pair(&s->expect[0].out[0], "Events", "none");
	assert_int_equal(s->expect[0].line, 19);
	np_vectors_free(&set);
}

static void test_parser_crlf_vector_with_defaults(void **state)
{
	np_vector_set set = { 0 };
	load_ok(*state, "good.vec", good_text, &set);
	const np_vector *v = &set.v[1];

	assert_string_equal(v->id, "parser/second");   /* no '\r' kept */
	assert_string_equal(v->title, "Defaults");
	assert_string_equal(v->source, "derived");
	assert_int_equal(v->line, 21);
	assert_int_equal(v->nflag, 0);
	assert_int_equal(v->ngiven, 0);
	assert_when(&v->applies, NP_V3_10, NP_V11_25H2, true, true, true);
	assert_int_equal(v->nstep, 1);
	assert_string_equal(v->step[0].function, "TraceQueryInformation");
	assert_int_equal(v->step[0].narg, 0);
	assert_int_equal(v->step[0].expect[0].outcome.kind, NP_RESULT_NOT_EXPORTED);
	assert_when(&v->step[0].expect[0].when, NP_V3_10, NP_V6_1, true, true, true);
	assert_int_equal(v->step[0].expect[1].outcome.kind, NP_RESULT_WIN32);
	assert_int_equal(v->step[0].expect[1].outcome.code, NP_ERROR_SUCCESS);
	assert_when(&v->step[0].expect[1].when, NP_V6_2, NP_V11_25H2, true, true, true);
	assert_pair(&v->step[0].expect[1].out[1], "ReturnLength", "8");
	np_vectors_free(&set);
}

/* A directory is read recursively, *.vec only, in sorted order. */
static void test_parser_directory_sorted_recursive(void **state)
{
	tmpdir *t = *state;
	np_vector_set set = { 0 };
	np_error err;
	tmp_mkdir(t, "sub");
	tmp_write(t, "sub/c.vec", HEAD("dir/c") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	tmp_write(t, "b.vec", HEAD("dir/b") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	tmp_write(t, "a.vec", HEAD("dir/a") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	tmp_write(t, "README.md", "not a vector file\n");
	tmp_write(t, "x.vec.orig", "not a vector file either\n");
	if (!np_vectors_load(&set, t->dir, &err)) {
		np_vectors_free(&set);
		fail_msg("%s", err.text);
	}
	assert_int_equal(set.count, 3);
	assert_int_equal(set.nfiles, 3);
	assert_string_equal(set.v[0].id, "dir/a");
	assert_string_equal(set.v[1].id, "dir/b");
	assert_string_equal(set.v[2].id, "dir/c");
	char want[800];
	snprintf(want, sizeof want, "%s/sub/c.vec", t->dir);
	assert_string_equal(set.v[2].file, want);
	assert_true(np_vectors_check(&set, &err));
	np_vectors_free(&set);
}

static void test_parser_missing_file_line_zero(void **state)
{
	tmpdir *t = *state;
	np_vector_set set = { 0 };
	np_error err;
	char path[700], want[800];
	snprintf(path, sizeof path, "%s/absent.vec", t->dir);
	assert_false(np_vectors_load(&set, path, &err));
	snprintf(want, sizeof want, "%s: cannot open: ", path);
	assert_prefix(err.text, want);
	assert_int_equal(set.count, 0);
	np_vectors_free(&set);
}

/* A file that fails keeps nothing; what was loaded before stays. */
static void test_parser_failed_file_keeps_nothing(void **state)
{
	tmpdir *t = *state;
	np_vector_set set = { 0 };
	np_error err;
	const char *good = tmp_write(t, "a.vec", HEAD("keep/a") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	const char *bad = tmp_write(t, "b.vec",
				    HEAD("keep/b") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
				    HEAD("keep/c") "  call NtQueryIntervalProfile\n  expect STATUS_BOGUS\n");
	bool first = np_vectors_load(&set, good, &err);
	bool second = np_vectors_load(&set, bad, &err);
	unsigned count = set.count;
	char id[NP_TEXT_MAX];
	snprintf(id, sizeof id, "%s", count ? set.v[0].id : "");
	np_vectors_free(&set);
	assert_true(first);
	assert_false(second);
	char want[800];
	snprintf(want, sizeof want, "%s:12: unknown NTSTATUS `STATUS_BOGUS`", bad);
	assert_string_equal(err.text, want);
	assert_int_equal(count, 1);
	assert_string_equal(id, "keep/a");
}

/* ---- every kind of malformed line: the exact "file:line: message" ---- */

static void test_parser_unknown_keyword(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  frobnicate yes\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "unknown keyword `frobnicate` (vector, title, rules, flags, source, applies, given, call, expect, accept)");
}

static void test_parser_keyword_before_vector(void **state)
{
	LOAD_FAILS("# comment\n  rules SI-1\n", 2, "expected `vector ID` before `rules`");
}

static void test_parser_vector_id_one_word(void **state)
{
	LOAD_FAILS("vector a b\n", 1, "expected `vector ID` (one word)");
}

static void test_parser_expect_before_call(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  expect STATUS_SUCCESS\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "`expect` before any `call`");
	LOAD_FAILS(HEAD("e/x") "  flags inferred\n  accept STATUS_SUCCESS flag=inferred\n", 6,
		   "`accept` before any `call`");
}

static void test_parser_unknown_function(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfileEx\n  expect STATUS_SUCCESS\n", 5,
		   "unknown function (see fixtures/README.md, Steps)");
	/* names are case-sensitive */
	LOAD_FAILS(HEAD("e/x") "  call ntqueryintervalprofile\n  expect STATUS_SUCCESS\n", 5, "unknown function (");
}

static void test_parser_unknown_argument(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval=1 Period=2\n  expect STATUS_SUCCESS\n", 5,
		   "unknown argument for this function");
	/* ProfileSource is an alias on the native calls only */
	LOAD_FAILS(HEAD("e/x") "  call TraceSetInformation ProfileSource=2\n  expect ERROR_SUCCESS\n", 5,
		   "unknown argument for this function");
	LOAD_FAILS(HEAD("e/x") "  call ReadEvents Events=none\n  expect Events=none\n", 5,
		   "unknown argument for this function");
}

static void test_parser_argument_not_name_value(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval\n  expect STATUS_SUCCESS\n", 5,
		   "expected Name=Value arguments");
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval=\n  expect STATUS_SUCCESS\n", 5,
		   "expected Name=Value arguments");
}

static void test_parser_argument_twice(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval=1 Interval=2\n  expect STATUS_SUCCESS\n", 5,
		   "argument given twice");
	/* the alias is the same argument */
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile Source=2 ProfileSource=2\n  expect STATUS_SUCCESS\n", 5,
		   "argument given twice");
}

static void test_parser_required_argument_missing(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Source=ProfileTime\n  expect STATUS_SUCCESS\n", 5,
		   "a required argument is missing");
}

static void test_parser_bad_number(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval=12ab\n  expect STATUS_SUCCESS\n", 5,
		   "expected a 32-bit number");
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval=0x\n  expect STATUS_SUCCESS\n", 5,
		   "expected a 32-bit number");
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval=-1\n  expect STATUS_SUCCESS\n", 5,
		   "expected a 32-bit number");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile Source=ProfileBogus\n  expect STATUS_SUCCESS\n", 5,
		   "expected a KPROFILE_SOURCE name or a 32-bit number");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile Interval=somewhere\n  expect STATUS_SUCCESS\n", 5,
		   "expected a pointer: user, null, misaligned, readonly, unmapped, kernel, vanishing or a number");
}

static void test_parser_number_overflow_32(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval=0x1FFFFFFFF\n  expect STATUS_SUCCESS\n", 5,
		   "expected a 32-bit number");
	LOAD_FAILS(HEAD("e/x") "  call NtSetIntervalProfile Interval=4294967296\n  expect STATUS_SUCCESS\n", 5,
		   "expected a 32-bit number");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile Source=0x100000000\n  expect STATUS_SUCCESS\n", 5,
		   "expected a KPROFILE_SOURCE name or a 32-bit number");
}

static void test_parser_number_overflow_64(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call TraceSetInformation SessionHandle=99999999999999999999999\n"
		   "  expect ERROR_SUCCESS\n", 5, "expected a number");
	LOAD_FAILS(HEAD("e/x") "  call TraceSetInformation SessionHandle=0x10000000000000000\n"
		   "  expect ERROR_SUCCESS\n", 5, "expected a number");
	LOAD_FAILS(HEAD("e/x") "  call TraceSetInformation SessionHandle=18446744073709551616\n"
		   "  expect ERROR_SUCCESS\n", 5, "expected a number");
}

/* The largest values of each width are accepted. */
static void test_parser_number_limits_accepted(void **state)
{
	np_vector_set set = { 0 };
	load_ok(*state, "limits.vec",
		HEAD("e/limits")
		"  call NtSetIntervalProfile Interval=0xFFFFFFFF Source=4294967295\n"
		"  expect STATUS_SUCCESS\n"
		"  call NtSetIntervalProfile Interval=4294967295\n"
		"  expect STATUS_SUCCESS\n"
		"  call TraceSetInformation SessionHandle=18446744073709551615\n"
		"  expect ERROR_SUCCESS\n"
		"  call TraceSetInformation SessionHandle=0xFFFFFFFFFFFFFFFF\n"
		"  expect ERROR_SUCCESS\n",
		&set);
	assert_int_equal(set.count, 1);
	assert_int_equal(set.v[0].nstep, 4);
	assert_string_equal(set.v[0].step[2].arg[0].value, "18446744073709551615");
	np_vectors_free(&set);
}

/* An out-value the function never reports fails as the vector is read,
 * naming the ones it does; one it reports reads. */
static void test_parser_out_value_of_no_such_name(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS Other=-\n", 6,
		   "NtQueryIntervalProfile has no out-value Other (it reports: Interval)");
	LOAD_FAILS(HEAD("e/x") "  call NtStartProfile ProfileHandle=null\n  expect STATUS_SUCCESS Interval=1\n", 6,
		   "NtStartProfile has no out-value Interval (it reports none)");
	np_vector_set set = { 0 };
	np_error err;
	static const char good[] = HEAD("e/x") "  call ZwQueryIntervalProfile\n  expect STATUS_SUCCESS Interval=1\n";
	assert_true(np_vectors_load_text(&set, "ok.vec", good, sizeof good - 1, &err));
	np_vectors_free(&set);
	(void)state;
}

/* A name of no table is quoted, with the nearest name when one is near. */
static void test_parser_status_did_you_mean(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCES\n", 6,
		   "unknown NTSTATUS `STATUS_SUCCES` (did you mean STATUS_SUCCESS?)");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_NOT_A_STATUS\n", 6,
		   "unknown NTSTATUS `STATUS_NOT_A_STATUS`");
	(void)state;
}

static void test_parser_unknown_status_name(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_NOT_A_STATUS\n", 6, "unknown NTSTATUS");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect 0x1FFFFFFFF\n", 6, "unknown NTSTATUS");
	LOAD_FAILS(HEAD("e/x") "  call TraceSetInformation\n  expect ERROR_NOT_AN_ERROR\n", 6, "unknown Win32 error name");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect fault STATUS_NOPE\n", 6, "unknown exception status");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect bugcheck NOPE\n", 6, "unknown bug check");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect fault\n", 6,
		   "fault and bugcheck need a name or number after them");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect success\n", 6,
		   "expected an outcome: STATUS_*, ERROR_*, 0x........, fault S, bugcheck B, not-exported, not-applicable");
}

static void test_parser_expect_bad_words(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS whatever\n", 6,
		   "expected Name=Value, `on RANGE`, arch=LIST or flag=NAME");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS on\n", 6,
		   "`on` needs a version range");
	LOAD_FAILS(HEAD("e/x") "  flags inferred\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS flag=inferred\n",
		   7, "flag= belongs on `accept` lines only");
}

static void test_parser_unknown_version_in_range(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  applies >=7.1\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "unknown version in range (see `ntprof versions`)");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS on 6.2..12-25H2\n", 6,
		   "unknown version in range (see `ntprof versions`)");
	/* a build number below every release of its family */
	LOAD_FAILS(HEAD("e/x") "  applies 10.0.100\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "unknown version in range (see `ntprof versions`)");
}

static void test_parser_empty_range(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  applies 1809..6.2\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "version range is empty (low above high)");
	LOAD_FAILS(HEAD("e/x") "  applies <3.10\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "version range is empty");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS on >11-25H2\n", 6,
		   "version range is empty");
}

static void test_parser_unknown_arch(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  applies all arch=x86,arm64\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "architecture must be x86, x64 or wow64");
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS arch=ia64\n", 6,
		   "architecture must be x86, x64 or wow64");
	LOAD_FAILS(HEAD("e/x") "  applies all x86\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "expected arch=LIST after the range");
	LOAD_FAILS(HEAD("e/x") "  applies\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "expected `applies RANGE [arch=LIST]`");
}

static void test_parser_accept_without_flag(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  flags inferred\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		   "  accept STATUS_ACCESS_VIOLATION\n", 8,
		   "an `accept` line needs flag=NAME saying why the alternative is acceptable");
	LOAD_FAILS(HEAD("e/x") "  flags inferred\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		   "  accept STATUS_ACCESS_VIOLATION flag=\n", 8,
		   "an `accept` line needs flag=NAME");
}

static void test_parser_accept_flag_not_declared(void **state)
{
	/* reported at the accept line, although found when the vector ends */
	LOAD_FAILS(HEAD("e/x") "  flags documented\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		   "  accept STATUS_ACCESS_VIOLATION flag=boundary\n" HEAD("e/y")
		   "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   8, "accept flag=boundary is not among the vector's flags");
}

static void test_parser_unknown_flag(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  flags documented shiny\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "unknown flag `shiny` (see fixtures/README.md)");
	LOAD_FAILS(HEAD("e/x") "  flags unknown:K-\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "unknown flag `unknown:K-`");
	LOAD_FAILS(HEAD("e/x") "  flags unknown\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "unknown flag `unknown`");
}

static void test_parser_bad_rule_id(void **state)
{
	LOAD_FAILS("vector e/x\n  title t\n  rules si-1\n", 3, "expected a rule ID like SI-1, got `si-1`");
	LOAD_FAILS("vector e/x\n  title t\n  rules ABCDE-1\n", 3, "expected a rule ID like SI-1, got `ABCDE-1`");
	LOAD_FAILS("vector e/x\n  title t\n  rules QI-\n", 3, "expected a rule ID like SI-1, got `QI-`");
}

static void test_parser_missing_title_rules_source(void **state)
{
	LOAD_FAILS("vector e/t\n  rules QI-5\n  source s\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   1, "vector e/t: missing `title`");
	LOAD_FAILS("vector e/r\n  title t\n  source s\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   1, "vector e/r: missing `rules`");
	LOAD_FAILS("vector e/s\n  title t\n  rules QI-5\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   1, "vector e/s: missing `source` (where the expectation comes from)");
	/* a vector is checked when the next one starts: the line is its own */
	LOAD_FAILS(HEAD("e/ok") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		   "\nvector e/t2\n  rules QI-5\n  source s\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		   HEAD("e/next") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   8, "vector e/t2: missing `title`");
}

static void test_parser_title_and_source_once_with_text(void **state)
{
	LOAD_FAILS("vector e/x\n  title\n", 2, "`title` needs text");
	LOAD_FAILS("vector e/x\n  title a\n  title b\n", 3, "`title` given twice");
	LOAD_FAILS("vector e/x\n  title a\n  source b\n  source c\n", 4, "`source` given twice");
}

static void test_parser_no_call(void **state)
{
	LOAD_FAILS(HEAD("e/x"), 1, "vector e/x: no `call` step");
}

static void test_parser_step_without_expect(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n  call NtQueryIntervalProfile\n",
		   7, "step has no `expect` line");
}

static void test_parser_uncovered_target(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS on >=6.2\n", 5,
		   "no `expect` line covers 3.10/x86 (the vector applies there)");
	/* the first gap is named: x64 exists from 5.2sp1, so <6.2 on x86 only leaves 5.2sp1/x64 */
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS on >=6.2\n"
		   "  expect STATUS_SUCCESS on <6.2 arch=x86\n", 5,
		   "no `expect` line covers 5.2sp1/x64 (the vector applies there)");
	/* an accept line covers nothing */
	LOAD_FAILS(HEAD("e/x") "  flags inferred\n  applies >=6.2\n  call NtQueryIntervalProfile\n"
		   "  accept STATUS_SUCCESS flag=inferred\n  expect STATUS_SUCCESS arch=x64,wow64\n", 7,
		   "no `expect` line covers 6.2/x86 (the vector applies there)");
}

/* Pairs that never existed (x86 Windows 11, x64 before 5.2sp1) need no expectation. */
static void test_parser_nonexistent_targets_need_no_expect(void **state)
{
	np_vector_set set = { 0 };
	load_ok(*state, "ok.vec",
		HEAD("e/x86") "  applies all arch=x86\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS on <=22H2\n"
		HEAD("e/x64") "  applies all arch=x64\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS on >=5.2sp1\n",
		&set);
	assert_int_equal(set.count, 2);
	np_vectors_free(&set);
}

static void test_parser_duplicate_id_across_files(void **state)
{
	tmpdir *t = *state;
	np_vector_set set = { 0 };
	np_error err;
	char want[1400];
	const char *a = tmp_write(t, "a.vec", HEAD("dup/x") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	const char *b = tmp_write(t, "b.vec", "# second file\n\n" HEAD("dup/x")
				  "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	bool loaded = np_vectors_load(&set, t->dir, &err);
	bool checked = loaded && np_vectors_check(&set, &err);
	np_vectors_free(&set);
	assert_true(loaded);
	assert_false(checked);
	snprintf(want, sizeof want, "%s:3: duplicate vector ID dup/x (first at %s:1)", b, a);
	assert_string_equal(err.text, want);

	/* within one file too */
	const char *c = tmp_write(t, "c.vec", HEAD("dup/y") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
				  HEAD("dup/y") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n");
	loaded = np_vectors_load(&set, c, &err);
	checked = loaded && np_vectors_check(&set, &err);
	np_vectors_free(&set);
	assert_true(loaded);
	assert_false(checked);
	snprintf(want, sizeof want, "%s:7: duplicate vector ID dup/y (first at %s:1)", c, c);
	assert_string_equal(err.text, want);
}

static void test_parser_nul_byte(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  call NtQueryIntervalProfile\0 Source=2\n  expect STATUS_SUCCESS\n", 5,
		   "control character 0x00 in the line (binary file?)");
}

static void test_parser_control_character(void **state)
{
	LOAD_FAILS("vector e/x\n  title a\x1b[1mb\n", 2, "control character 0x1B in the line (binary file?)");
	LOAD_FAILS("vector e/x\n  title a\rb\n", 2, "control character 0x0D in the line");
	LOAD_FAILS("vector e/x\n  title a\fb\n", 2, "control character 0x0C in the line");
}

static void test_parser_line_length_limit(void **state)
{
	tmpdir *t = *state;
	size_t cap = 3 * 4096 + 512;
	char *text = malloc(cap);
	assert_non_null(text);
	/* line 1 is 4096 characters (the limit), line 2 is 4097 */
	size_t n = 0;
	text[n++] = '#';
	memset(text + n, 'x', 4095);
	n += 4095;
	text[n++] = '\n';
	text[n++] = '#';
	memset(text + n, 'y', 4096);
	n += 4096;
	text[n++] = '\n';
	const char *path = tmp_write_n(t, "long.vec", text, n);
	free(text);
	np_vector_set set = { 0 };
	np_error err;
	bool ok = np_vectors_load(&set, path, &err);
	np_vectors_free(&set);
	assert_false(ok);
	char want[800];
	snprintf(want, sizeof want, "%s:2: line longer than 4096 characters", path);
	assert_string_equal(err.text, want);
}

/* 16 MiB of comment lines, then one more: the line that crosses the limit
 * is named, whether the text comes from a file or from memory. */
static void test_parser_file_size_limit(void **state)
{
	size_t line = 1024, limit = 16u << 20, n = limit + line;
	char *text = malloc(n);
	assert_non_null(text);
	for (size_t i = 0; i < n; i += line) {
		text[i] = '#';
		memset(text + i + 1, 'z', line - 2);
		text[i + line - 1] = '\n';
	}
	assert_load_fails(*state, text, n, (int)(limit / line) + 1, "file larger than 16 MiB");
	/* exactly at the limit it loads as far as the content goes */
	np_vector_set set = { 0 };
	np_error err;
	assert_false(np_vectors_load_text(&set, "mem.vec", text, limit, &err));
	np_vectors_free(&set);
	free(text);
	char want[64];
	snprintf(want, sizeof want, "mem.vec:%d: no vectors in the file", (int)(limit / line));
	assert_string_equal(err.text, want);
}

/* A text without a final newline, with CRLF line ends, loads like a file. */
static void test_parser_text_line_ends(void **state)
{
	(void)state;
	static const char text[] =
		"vector t/crlf\r\n  title t\r\n  rules SI-1\r\n  source derived\r\n"
		"  call NtQueryIntervalProfile\r\n  expect STATUS_SUCCESS";
	np_vector_set set = { 0 };
	np_error err;
	bool ok = np_vectors_load_text(&set, "mem.vec", text, sizeof text - 1, &err);
	if (!ok)
		fail_msg("%s", err.text);
	assert_int_equal(set.count, 1);
	assert_string_equal(set.v[0].file, "mem.vec");
	assert_int_equal(set.v[0].step[0].expect[0].line, 6);
	np_vectors_free(&set);
}

static bool has_two_steps(const np_vector *v)
{
	return v->nstep == 2;
}

static bool has_one_step(const np_vector *v)
{
	return v->nstep == 1;
}

static bool is_four(const np_vector *v)
{
	return strcmp(v->id, "k/four") == 0;
}

/* np_vectors_keep: the vectors kept stay in their order, whole; the others
 * go, and keeping none leaves an empty set that frees cleanly. */
static void test_parser_keep_some_vectors(void **state)
{
	(void)state;
	static const char text[] =
		HEAD("k/one") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		HEAD("k/two") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
			      "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		HEAD("k/three") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		HEAD("k/four") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
			       "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n";
	np_vector_set set = { 0 };
	np_error err;
	if (!np_vectors_load_text(&set, "mem.vec", text, sizeof text - 1, &err))
		fail_msg("%s", err.text);
	assert_int_equal(set.count, 4);
	np_vectors_keep(&set, has_two_steps);
	assert_int_equal(set.count, 2);
	assert_string_equal(set.v[0].id, "k/two");
	assert_string_equal(set.v[1].id, "k/four");
	assert_int_equal(set.v[1].nstep, 2);
	assert_int_equal(set.v[1].step[1].expect[0].outcome.code, NP_STATUS_SUCCESS);
	np_vectors_keep(&set, has_two_steps);   /* nothing more to drop */
	assert_int_equal(set.count, 2);
	np_vectors_keep(&set, is_four);
	assert_int_equal(set.count, 1);
	assert_string_equal(set.v[0].id, "k/four");
	np_vectors_keep(&set, has_one_step);
	assert_int_equal(set.count, 0);
	np_vectors_free(&set);
}

/* np_vectors_seal: every vector, step and expectation is where it was read,
 * now in one block (the second step's expectations after the first's); a
 * sealed set is kept whole and frees cleanly. An empty set stays unsealed. */
static void test_parser_seal_keeps_every_vector(void **state)
{
	(void)state;
	static const char text[] =
		HEAD("s/one") "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n"
		HEAD("s/two") "  given privilege=off\n"
			      "  call NtSetIntervalProfile Interval=5000\n  expect STATUS_PRIVILEGE_NOT_HELD\n"
			      "  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS Interval=39063\n";
	np_vector_set set = { 0 };
	np_error err;
	assert_false(np_vectors_seal(&set));
	if (!np_vectors_load_text(&set, "mem.vec", text, sizeof text - 1, &err))
		fail_msg("%s", err.text);
	assert_true(np_vectors_seal(&set));
	assert_non_null(set.block);
	assert_true(np_vectors_seal(&set));   /* once is enough */
	assert_int_equal(set.count, 2);
	assert_string_equal(set.v[0].id, "s/one");
	assert_string_equal(set.v[1].id, "s/two");
	assert_string_equal(set.v[1].given[0].name, "privilege");
	assert_int_equal(set.v[1].nstep, 2);
	assert_string_equal(set.v[1].step[0].function, "NtSetIntervalProfile");
	assert_int_equal(set.v[1].step[0].expect[0].outcome.code, NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_string_equal(set.v[1].step[1].function, "NtQueryIntervalProfile");
	assert_int_equal(set.v[1].step[1].expect[0].outcome.code, NP_STATUS_SUCCESS);
	assert_string_equal(set.v[1].step[1].expect[0].out[0].value, "39063");
	assert_string_equal(set.v[1].file, "mem.vec");
	np_vectors_keep(&set, has_two_steps);
	assert_int_equal(set.count, 2);
	np_vectors_free(&set);
	assert_null(set.block);
}

static void test_parser_empty_file_no_vectors(void **state)
{
	LOAD_FAILS("", 0, "no vectors in the file");
	LOAD_FAILS("# only a comment\n\n   \n", 3, "no vectors in the file");
}

static void test_parser_given_unknown_key(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  given colour=red\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "given colour=red: unknown given key");
	LOAD_FAILS(HEAD("e/x") "  given privilege\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "given privilege: expected KEY=VALUE");
	LOAD_FAILS(HEAD("e/x") "  given =on\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n", 5,
		   "given =on: expected KEY=VALUE");
}

static void test_parser_given_bad_value(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  given privilege=maybe\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "given privilege=maybe: privilege takes on or off");
	LOAD_FAILS(HEAD("e/x") "  given cpus=2 cpus=0\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "given cpus=0: cpus takes a number from 1 to 64");
	LOAD_FAILS(HEAD("e/x") "  given cpus=65\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "given cpus=65: cpus takes a number from 1 to 64");
	LOAD_FAILS(HEAD("e/x") "  given hal=arm\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "given hal=arm: hal takes default, emon or amd64");
	LOAD_FAILS(HEAD("e/x") "  given tracing=yes\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "given tracing=yes: tracing takes on, off or late");
	LOAD_FAILS(HEAD("e/x") "  given cpu=64\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "given cpu=64: cpu takes a number from 0 to 63");
	LOAD_FAILS(HEAD("e/x") "  given hal.ProfileTime.min=lots\n  call NtQueryIntervalProfile\n"
		   "  expect STATUS_SUCCESS\n", 5, "given hal.ProfileTime.min=lots: hal.SOURCE.min/max/default take a 32-bit number");
	LOAD_FAILS(HEAD("e/x") "  given hal.ProfileNothing.min=1\n  call NtQueryIntervalProfile\n"
		   "  expect STATUS_SUCCESS\n", 5, "given hal.ProfileNothing.min=1: hal.SOURCE needs a source name");
}

static void test_parser_unknown_knob(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  given K-NO-SUCH-KNOB=on\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "given K-NO-SUCH-KNOB=on: unknown knob (see SPEC.md, Knobs)");
}

static void test_parser_bad_knob_value(void **state)
{
	LOAD_FAILS(HEAD("e/x") "  given K-HAL-CLAMP=round\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS\n",
		   5, "given K-HAL-CLAMP=round: not a value of that knob (see SPEC.md, Knobs)");
}

/* ---- conformance/data/bad: one malformed file per problem ----
 * Line 1 of each file: "# WHAT => :LINE: MESSAGE-START". */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file that cannot say what it expects on its line 1 (an empty one) has
 * its line in BAD_DIR/expected.txt: "NAME => :LINE: MESSAGE-START". The
 * line becomes "# NAME => ..." in first, or "" when none is listed. */
static void expectation_of(const char *name, char *first, size_t cap)
{
	char line[400];
	size_t n = strlen(name);
	first[0] = '\0';
	FILE *f = fopen(BAD_DIR "/expected.txt", "r");
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, name, n) == 0 && strncmp(line + n, " => :", 5) == 0) {
			snprintf(first, cap, "# %s", line);
			break;
		}
	if (f)
		fclose(f);
}

static void test_parser_bad_data_files(void **state)
{
	(void)state;
	DIR *d = opendir(BAD_DIR);
	if (!d)
		fail_msg("cannot open %s", BAD_DIR);
	char *names[256];
	unsigned count = 0;
	for (struct dirent *de; (de = readdir(d)) != NULL;) {
		size_t n = strlen(de->d_name);
		if (n > 4 && strcmp(de->d_name + n - 4, ".vec") == 0 && count < 256)
			names[count++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, count, sizeof *names, by_name);

	unsigned failures = 0;
	for (unsigned i = 0; i < count; i++) {
		char path[800], first[512] = "", want[1400];
		np_vector_set set = { 0 };
		np_error err;
		snprintf(path, sizeof path, "%s/%s", BAD_DIR, names[i]);
		FILE *f = fopen(path, "rb");
		if (!f) {
			print_error("%s: cannot open\n", path);
			failures++;
			continue;
		}
		if (!fgets(first, sizeof first, f) || first[0] != '#')
			expectation_of(names[i], first, sizeof first);
		fclose(f);
		first[strcspn(first, "\r\n")] = '\0';
		const char *arrow = strstr(first, " => :");
		char *end = NULL;
		long line = arrow ? strtol(arrow + 5, &end, 10) : -1;
		if (first[0] != '#' || !arrow || !end || end == arrow + 5 || strncmp(end, ": ", 2) != 0 ||
		    end[2] == '\0') {
			print_error("%s: line 1 must be \"# WHAT => :LINE: MESSAGE\", is \"%s\"\n", path, first);
			failures++;
			continue;
		}
		if (line > 0)
			snprintf(want, sizeof want, "%s:%ld: %s", path, line, end + 2);
		else   /* the file as a whole */
			snprintf(want, sizeof want, "%s: %s", path, end + 2);
		/* as ntprof run reads them: the file, then the checks across files */
		bool loaded = np_vectors_load(&set, path, &err);
		bool ok = loaded && np_vectors_check(&set, &err);
		unsigned left = loaded ? 0 : set.count;
		np_vectors_free(&set);
		if (ok) {
			print_error("%s: loaded; want \"%s...\"\n", names[i], want);
			failures++;
		} else if (strncmp(err.text, want, strlen(want)) != 0) {
			print_error("%s:\n  got  \"%s\"\n  want \"%s...\"\n", names[i], err.text, want);
			failures++;
		} else if (left != 0) {
			print_error("%s: %u vectors kept after the error\n", names[i], left);
			failures++;
		}
	}
	for (unsigned i = 0; i < count; i++)
		free(names[i]);
	if (count < 50)   /* at least 50 malformed files */
		fail_msg("%s holds %u *.vec files, want at least 50", BAD_DIR, count);
	if (failures)
		fail_msg("%u of %u files in %s did not fail as their first line says", failures, count, BAD_DIR);
}

/* ---- np_parse_range ---- */

static void assert_range(const char *text, np_ver lo, np_ver hi)
{
	np_applicability a;
	memset(&a, 0, sizeof a);
	a.arch[NP_X64] = true;   /* a range leaves the architectures alone */
	const char *e = np_parse_range(text, &a);
	if (e)
		fail_msg("\"%s\": %s", text, e);
	if (a.lo != lo || a.hi != hi)
		fail_msg("\"%s\" is %s..%s, want %s..%s", text, np_version_key(a.lo), np_version_key(a.hi),
			 np_version_key(lo), np_version_key(hi));
	assert_false(a.arch[NP_X86]);
	assert_true(a.arch[NP_X64]);
	assert_false(a.arch[NP_WOW64]);
}

static void assert_range_error(const char *text, const char *want)
{
	np_applicability a;
	memset(&a, 0, sizeof a);
	const char *e = np_parse_range(text, &a);
	if (!e)
		fail_msg("\"%s\" parsed as %s..%s, want the error \"%s\"", text, np_version_key(a.lo),
			 np_version_key(a.hi), want);
	assert_string_equal(e, want);
}

static void test_parser_range_operators(void **state)
{
	(void)state;
	assert_range("all", NP_V3_10, NP_V11_25H2);
	assert_range("6.2", NP_V6_2, NP_V6_2);
	assert_range("=6.2", NP_V6_2, NP_V6_2);
	assert_range(">=6.2", NP_V6_2, NP_V11_25H2);
	assert_range(">6.2", NP_V6_3, NP_V11_25H2);
	assert_range("<=1803", NP_V3_10, NP_V1803);
	assert_range("<1703", NP_V3_10, NP_V1607);
	assert_range("6.2..1803", NP_V6_2, NP_V1803);
	assert_range("1809..1809", NP_V1809, NP_V1809);
	assert_range("3.10", NP_V3_10, NP_V3_10);
	assert_range(">=3.10", NP_V3_10, NP_V11_25H2);
	assert_range("<=11-24H2", NP_V3_10, NP_V11_24H2);
	assert_range("<3.50", NP_V3_10, NP_V3_10);
	assert_range(">11-23H2", NP_V11_24H2, NP_V11_25H2);
	assert_range(">11-24H2", NP_V11_25H2, NP_V11_25H2);
	/* Server 2022 sits between 22H2 and 11-21H2 by its build; srv2025 names 11-24H2 (VR-1) */
	assert_range("22H2..11-21H2", NP_V22H2, NP_V11_21H2);
	assert_range(">22H2", NP_VSRV2022, NP_V11_25H2);
	assert_range("<11-21H2", NP_V3_10, NP_VSRV2022);
	assert_range("srv2022", NP_VSRV2022, NP_VSRV2022);
	assert_range("srv2025..11-25H2", NP_V11_24H2, NP_V11_25H2);
	assert_range("4.0sp4", NP_V4_0SP4, NP_V4_0SP4);
	assert_range("5.2sp1..6.0", NP_V5_2SP1, NP_V6_0);
}

static void test_parser_range_build_numbers(void **state)
{
	(void)state;
	assert_range("10.0.17763", NP_V1809, NP_V1809);
	assert_range(">=10.0.17763", NP_V1809, NP_V11_25H2);
	assert_range("4.0.1381.133", NP_V4_0SP4, NP_V4_0SP4);
	assert_range("4.0.1381", NP_V4_0, NP_V4_0);
	assert_range("5.2.3790.1830", NP_V5_2SP1, NP_V5_2SP1);
	assert_range("6.1.7601..6.2.9200", NP_V6_1, NP_V6_2);
	assert_range("<6.2.9200", NP_V3_10, NP_V6_1);
	/* a build between releases names the newest at or below it (VR-2) */
	assert_range("10.0.17200", NP_V1803, NP_V1803);
	assert_range("10.0.17000", NP_V1709, NP_V1709);
	assert_range("=10.0.26100", NP_V11_24H2, NP_V11_24H2);
	assert_range("=10.0.20348", NP_VSRV2022, NP_VSRV2022);
	assert_range("10.0.21999", NP_VSRV2022, NP_VSRV2022);
	assert_range("10.0.26200", NP_V11_25H2, NP_V11_25H2);
}

static void test_parser_range_errors(void **state)
{
	(void)state;
	const char *unknown = "unknown version in range (see `ntprof versions`)";
	assert_range_error("1809..6.2", "version range is empty (low above high)");
	assert_range_error("<3.10", "version range is empty");
	assert_range_error(">11-25H2", "version range is empty");
	assert_range_error("9.9", unknown);
	assert_range_error("", unknown);
	assert_range_error(">=", unknown);
	assert_range_error("6.2..", unknown);
	assert_range_error("..6.2", unknown);
	assert_range_error("=>6.2", unknown);
	assert_range_error("6.2...1809", unknown);
	assert_range_error("10.0.100", unknown);
	/* the low end of LO..HI has at most 47 characters (a vector's name length) */
	assert_range("10.0.000000000000000000000000000000000000017763..1809", NP_V1809, NP_V1809);
	assert_range_error("10.0.0000000000000000000000000000000000000017763..1809", "version range too long");
}

/* ---- np_parse_outcome ---- */

static void assert_outcome(const char *const *tok, unsigned ntok, np_result_kind kind, uint32_t code,
			   unsigned used)
{
	np_outcome o = { NP_RESULT_CRASHED, 0xDEADBEEFu };
	unsigned u = 99;
	const char *e = np_parse_outcome(tok, ntok, &u, &o);
	if (e)
		fail_msg("\"%s\": %s", ntok ? tok[0] : "(none)", e);
	assert_int_equal(o.kind, kind);
	assert_int_equal(o.code, code);
	assert_int_equal(u, used);
}

#define OUTCOME(kind, code, used, ...)                                                    \
	do {                                                                              \
		const char *const t_[] = { __VA_ARGS__ };                                  \
		assert_outcome(t_, sizeof t_ / sizeof *t_, (kind), (code), (used));         \
	} while (0)

static void test_parser_outcome_kinds(void **state)
{
	(void)state;
	OUTCOME(NP_RESULT_STATUS, NP_STATUS_SUCCESS, 1, "STATUS_SUCCESS");
	OUTCOME(NP_RESULT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD, 1, "STATUS_PRIVILEGE_NOT_HELD", "on", "6.2");
	OUTCOME(NP_RESULT_STATUS, 0xC0000061u, 1, "0xC0000061");
	OUTCOME(NP_RESULT_STATUS, 0x12345678u, 1, "0x12345678");
	OUTCOME(NP_RESULT_WIN32, NP_ERROR_BAD_LENGTH, 1, "ERROR_BAD_LENGTH");
	OUTCOME(NP_RESULT_WIN32, NP_ERROR_SUCCESS, 1, "ERROR_SUCCESS");
	OUTCOME(NP_RESULT_FAULT, NP_STATUS_ACCESS_VIOLATION, 2, "fault", "STATUS_ACCESS_VIOLATION");
	OUTCOME(NP_RESULT_FAULT, 0xC0000094u, 2, "fault", "0xC0000094", "Interval=-");
	OUTCOME(NP_RESULT_BUGCHECK, 0x0Au, 2, "bugcheck", "IRQL_NOT_LESS_OR_EQUAL");
	OUTCOME(NP_RESULT_BUGCHECK, 0xACu, 2, "bugcheck", "HAL_MEMORY_ALLOCATION");
	OUTCOME(NP_RESULT_BUGCHECK, 0x1Eu, 2, "bugcheck", "0x1E");
	OUTCOME(NP_RESULT_NOT_EXPORTED, 0, 1, "not-exported");
	OUTCOME(NP_RESULT_NOT_APPLICABLE, 0, 1, "not-applicable", "on", "<=3.50");
	OUTCOME(NP_RESULT_STUB, 0, 1, "stub");
	OUTCOME(NP_RESULT_CRASHED, 0, 1, "crashed");
	/* a pseudo-step: no outcome word, nothing consumed */
	OUTCOME(NP_RESULT_NONE, 0, 0, "Events=none");
	np_outcome o = { NP_RESULT_STATUS, 7 };
	unsigned used = 9;
	assert_null(np_parse_outcome(NULL, 0, &used, &o));
	assert_int_equal(o.kind, NP_RESULT_NONE);
	assert_int_equal(o.code, 0);
	assert_int_equal(used, 0);
}

static void assert_outcome_error(const char *const *tok, unsigned ntok, const char *want)
{
	np_outcome o;
	unsigned used;
	const char *e = np_parse_outcome(tok, ntok, &used, &o);
	if (!e)
		fail_msg("\"%s\" parsed, want \"%s\"", tok[0], want);
	assert_string_equal(e, want);
}

#define OUTCOME_ERROR(want, ...)                                                     \
	do {                                                                         \
		const char *const t_[] = { __VA_ARGS__ };                             \
		assert_outcome_error(t_, sizeof t_ / sizeof *t_, (want));              \
	} while (0)

static void test_parser_outcome_errors(void **state)
{
	(void)state;
	const char *any = "expected an outcome: STATUS_*, ERROR_*, 0x........, fault S, bugcheck B, "
			  "not-exported, not-applicable";
	OUTCOME_ERROR("unknown NTSTATUS", "STATUS_NOPE");
	OUTCOME_ERROR("unknown NTSTATUS", "0x1FFFFFFFF");
	OUTCOME_ERROR("unknown NTSTATUS", "0xZZ");
	OUTCOME_ERROR("unknown Win32 error name", "ERROR_NOPE");
	OUTCOME_ERROR("unknown exception status", "fault", "STATUS_NOPE");
	OUTCOME_ERROR("fault and bugcheck need a name or number after them", "fault");
	OUTCOME_ERROR("fault and bugcheck need a name or number after them", "bugcheck");
	OUTCOME_ERROR("unknown bug check", "bugcheck", "NOPE");
	OUTCOME_ERROR("unknown bug check", "bugcheck", "0x100000000");
	OUTCOME_ERROR(any, "success");
	OUTCOME_ERROR(any, "0");
	OUTCOME_ERROR(any, "Not-Exported");
}

/* ---- np_parse_step and np_step_arg ---- */

static void assert_arg(const np_step *s, const char *param, const char *want)
{
	const np_function *f = np_function_find(s->function);
	assert_non_null(f);
	const np_param *p = np_param_find(f, param);
	if (!p)
		fail_msg("%s has no parameter %s", s->function, param);
	const char *got = np_step_arg(s, p);
	if (!want) {
		assert_null(got);
		return;
	}
	if (!got)
		fail_msg("%s %s: no value, want %s", s->function, param, want);
	assert_string_equal(got, want);
}

static void test_parser_step_defaults(void **state)
{
	(void)state;
	np_step s;
	assert_null(np_parse_step("NtSetIntervalProfile Interval=10", &s));
	assert_string_equal(s.function, "NtSetIntervalProfile");
	assert_int_equal(s.narg, 1);
	assert_int_equal(s.nexpect, 0);
	assert_arg(&s, "Interval", "10");
	assert_arg(&s, "Source", "ProfileTime");
	assert_arg(&s, "ProfileSource", "ProfileTime");   /* the alias finds the same parameter */

	assert_null(np_parse_step("NtQueryIntervalProfile", &s));
	assert_int_equal(s.narg, 0);
	assert_arg(&s, "Source", "ProfileTime");
	assert_arg(&s, "Interval", "user");

	assert_null(np_parse_step("TraceSetInformation", &s));
	assert_arg(&s, "SessionHandle", "0");
	assert_arg(&s, "InformationClass", "5");
	assert_arg(&s, "Source", "ProfileTime");
	assert_arg(&s, "Interval", "0");
	assert_arg(&s, "InformationLength", "8");

	assert_null(np_parse_step("TraceQueryInformation", &s));
	assert_arg(&s, "SessionHandle", "0");
	assert_arg(&s, "InformationClass", "5");
	assert_arg(&s, "Source", "ProfileTime");
	assert_arg(&s, "InformationLength", "auto");
	assert_arg(&s, "TraceInformation", "user");
	assert_arg(&s, "ReturnLength", "user");

	assert_null(np_parse_step("ReadEvents", &s));
	assert_string_equal(s.function, "ReadEvents");
	assert_int_equal(s.narg, 0);

	/* SY-*: class 0x81 by default, the structure's own length */
	assert_null(np_parse_step("NtSetSystemInformation", &s));
	assert_arg(&s, "InformationClass", "0x81");
	assert_arg(&s, "SystemInformationClass", "0x81");
	assert_arg(&s, "Allocate", "1");
	assert_arg(&s, "EventTraceClass", "3");
	assert_arg(&s, "ProfileInterval", "0");
	assert_arg(&s, "SystemInformation", "user");
	assert_arg(&s, "SystemInformationLength", "auto");

	assert_null(np_parse_step("ZwQuerySystemInformation", &s));
	assert_string_equal(s.function, "ZwQuerySystemInformation");
	assert_arg(&s, "InformationClass", "0x81");
	assert_arg(&s, "EventTraceClass", "3");
	assert_arg(&s, "SystemInformation", "user");
	assert_arg(&s, "SystemInformationLength", "auto");
	assert_arg(&s, "ReturnLength", "user");

	/* SY-15: MoveThread needs Cpu */
	assert_null(np_parse_step("MoveThread Cpu=3", &s));
	assert_arg(&s, "Cpu", "3");
	assert_string_equal(np_parse_step("MoveThread", &s), "a required argument is missing");

	/* Interrupts: Interrupt's arguments, and a run of Count pcs Step apart */
	assert_null(np_parse_step("Interrupts Pc=0x10000000 Count=3", &s));
	assert_int_equal(s.narg, 2);
	assert_arg(&s, "Source", "ProfileTime");
	assert_arg(&s, "Step", "1");
	assert_arg(&s, "Cpu", "0");
	assert_arg(&s, "Group", "0");
	assert_arg(&s, "Process", "current");
	assert_int_equal(np_step_value(&s, "Step")->u64, 1);
	assert_int_equal(np_step_value(&s, "Count")->u32.value, 3);
	assert_string_equal(np_parse_step("Interrupts Pc=0x10000000", &s), "a required argument is missing");
	assert_string_equal(np_parse_step("Interrupts Count=1", &s), "a required argument is missing");
}

static void test_parser_step_canonical_names(void **state)
{
	(void)state;
	np_step s;
	assert_null(np_parse_step("ZwQueryIntervalProfile ProfileSource=ProfileTotalIssues Interval=null", &s));
	assert_string_equal(s.function, "ZwQueryIntervalProfile");
	assert_int_equal(s.narg, 2);
	assert_string_equal(s.arg[0].name, "Source");
	assert_string_equal(s.arg[0].value, "ProfileTotalIssues");
	assert_string_equal(s.arg[1].name, "Interval");
	assert_string_equal(s.arg[1].value, "null");
	assert_arg(&s, "Source", "ProfileTotalIssues");

	assert_null(np_parse_step("\t ZwSetIntervalProfile\tInterval=0x10  ProfileSource=0x19 ", &s));
	assert_string_equal(s.function, "ZwSetIntervalProfile");
	assert_int_equal(s.narg, 2);
	assert_string_equal(s.arg[1].name, "Source");
	assert_string_equal(s.arg[1].value, "0x19");

	/* InformationLength=auto is the query's own default, not a number elsewhere */
	assert_null(np_parse_step("TraceQueryInformation InformationLength=auto InformationClass=7", &s));
	assert_arg(&s, "InformationLength", "auto");
	assert_string_equal(np_parse_step("TraceSetInformation InformationLength=auto", &s),
			    "expected a 32-bit number");

	/* every symbolic pointer, and a number */
	static const char *const pointers[] = { "user", "null", "misaligned", "readonly", "unmapped",
						"kernel", "vanishing", "0x7FFEFFFC", "0" };
	for (size_t i = 0; i < sizeof pointers / sizeof *pointers; i++) {
		char line[128];
		snprintf(line, sizeof line, "NtQueryIntervalProfile Interval=%s", pointers[i]);
		const char *e = np_parse_step(line, &s);
		if (e)
			fail_msg("\"%s\": %s", line, e);
		assert_arg(&s, "Interval", pointers[i]);
	}
}

static void test_parser_step_errors(void **state)
{
	(void)state;
	np_step s;
	assert_string_equal(np_parse_step("", &s), "expected a function name");
	assert_string_equal(np_parse_step("   \t ", &s), "expected a function name");
	assert_string_equal(np_parse_step("NtSetIntervalProfile", &s), "a required argument is missing");
	assert_string_equal(np_parse_step("NtSetIntervalProfile Interval=1 Interval=1", &s), "argument given twice");
	assert_string_equal(np_parse_step("NtSetIntervalProfile Interval=1 Source=0x100000000", &s),
			    "expected a KPROFILE_SOURCE name or a 32-bit number");
	assert_string_equal(np_parse_step("NtQueryIntervalProfile Interval=user+2", &s),
			    "expected a pointer: user, null, misaligned, readonly, unmapped, kernel, vanishing or a number");
	assert_string_equal(np_parse_step("ReadEvents Events=none", &s), "unknown argument for this function");
	/* SY-9: Allocate is a BOOLEAN: one byte */
	assert_null(np_parse_step("NtSetSystemInformation Allocate=255", &s));
	assert_string_equal(np_parse_step("NtSetSystemInformation Allocate=256", &s),
			    "expected a number from 0 to 255");
	assert_string_equal(np_parse_step("NtSetSystemInformation Allocate=yes", &s),
			    "expected a number from 0 to 255");
	assert_string_equal(np_parse_step("NtQuerySystemInformation Allocate=1", &s),
			    "unknown argument for this function");
	assert_null(np_parse_step("NtQuerySystemInformation SystemInformationLength=auto", &s));
	assert_string_equal(np_parse_step("MoveThread Cpu=auto", &s), "expected a 32-bit number");
	/* a run is bounded where it is read: NP_MAX_RUN, and one past it */
	assert_null(np_parse_step("Interrupts Pc=0 Step=0xFFFFFFFFFFFFFFFF Count=65536", &s));
	assert_int_equal(np_step_value(&s, "Count")->u32.value, NP_MAX_RUN);
	assert_null(np_parse_step("Interrupts Pc=0 Count=0", &s));
	assert_string_equal(np_parse_step("Interrupts Pc=0 Count=65537", &s), "Count: a run is at most 65536 interrupts");
	assert_string_equal(np_parse_step("Interrupts Pc=0 Count=0xFFFFFFFF", &s),
			    "Count: a run is at most 65536 interrupts");
	assert_string_equal(np_parse_step("Interrupts Pc=0 Count=auto", &s), "expected a 32-bit number");
	assert_string_equal(np_parse_step("NtQueryIntervalProfile =3", &s), "expected Name=Value arguments");
	char long_value[300];
	memset(long_value, '1', sizeof long_value - 1);
	long_value[sizeof long_value - 1] = '\0';
	char line[400];
	snprintf(line, sizeof line, "NtSetIntervalProfile Interval=%s", long_value);
	assert_string_equal(np_parse_step(line, &s), "argument name or value too long");
}

/* ---- typed values: a step read once ---- */

static const np_arg *value_of(const np_step *s, const char *param)
{
	const np_arg *a = np_step_value(s, param);
	const np_param *p = np_param_find(s->catalog, param);
	assert_non_null(p);
	assert_int_equal(a->kind, p->kind);   /* typed by its catalog kind */
	return a;
}

/* Every kind, written and left to its fallback, as the step holds it
 * after np_parse_step: nothing later reads the text again. */
static void test_parser_step_typed_values(void **state)
{
	(void)state;
	static np_step s;
	assert_null(np_parse_step("NtCreateProfile ProfileHandle=>h Process=0x44 ProfileBase=0x10000 "
				  "ProfileSize=0xFFFFFFFFFFFFFFFF BucketSize=2 Buffer=>b BufferSize=4 "
				  "Source=ProfileAlignmentFixup Affinity=0x3", &s));
	assert_ptr_equal(s.catalog, np_function_find("NtCreateProfile"));
	assert_int_equal(s.narg, 9);
	assert_string_equal(s.arg[0].value, ">h");   /* the text as written is kept */
	assert_int_equal(value_of(&s, "ProfileHandle")->out_handle.where.symbol, NP_PTR_USER);
	assert_string_equal(value_of(&s, "ProfileHandle")->out_handle.capture, "h");
	assert_int_equal(value_of(&s, "Process")->handle.symbol, NP_HANDLE_NUMBER);
	assert_int_equal(value_of(&s, "Process")->handle.number, 0x44);
	assert_int_equal(value_of(&s, "ProfileBase")->u64, 0x10000);
	assert_true(value_of(&s, "ProfileSize")->u64 == UINT64_MAX);
	assert_int_equal(value_of(&s, "BucketSize")->u32.value, 2);
	assert_false(value_of(&s, "BucketSize")->u32.automatic);
	assert_int_equal(value_of(&s, "Buffer")->buffer.form, NP_BUFFER_FRESH);
	assert_string_equal(value_of(&s, "Buffer")->buffer.name, "b");
	assert_int_equal(value_of(&s, "Source")->source, 1);
	assert_int_equal(np_step_value(&s, "ProfileSource")->source, 1);   /* the alias */
	assert_false(value_of(&s, "Affinity")->affinity.all);
	assert_int_equal(value_of(&s, "Affinity")->affinity.mask, 3);

	/* the fallbacks: user, null, ProfileTime, all */
	assert_null(np_parse_step("NtCreateProfile ProfileBase=0 ProfileSize=4 BucketSize=2 BufferSize=4", &s));
	assert_int_equal(s.narg, 4);
	assert_int_equal(value_of(&s, "ProfileHandle")->out_handle.where.symbol, NP_PTR_USER);
	assert_string_equal(value_of(&s, "ProfileHandle")->out_handle.capture, "");
	assert_int_equal(value_of(&s, "Process")->handle.symbol, NP_HANDLE_NULL);
	assert_int_equal(value_of(&s, "Buffer")->buffer.form, NP_BUFFER_FRESH);
	assert_string_equal(value_of(&s, "Buffer")->buffer.name, "");
	assert_int_equal(value_of(&s, "Source")->source, 0);
	assert_true(value_of(&s, "Affinity")->affinity.all);

	/* GROUPS, U32 auto, POINTER symbols and numbers */
	assert_null(np_parse_step("NtCreateProfileEx ProfileBase=0 ProfileSize=4 BucketSize=2 BufferSize=4 "
				  "Buffer=kernel Groups=0:0x1,1:0xF0:7 AffinityArray=0x20", &s));
	const np_arg *g = value_of(&s, "Groups");
	assert_int_equal(g->groups.count, 2);
	assert_int_equal(g->groups.element[1].group, 1);
	assert_int_equal(g->groups.element[1].mask, 0xF0);
	assert_int_equal(g->groups.element[1].reserved, 7);
	assert_true(value_of(&s, "GroupCount")->u32.automatic);
	assert_int_equal(value_of(&s, "AffinityArray")->pointer.symbol, NP_PTR_NUMBER);
	assert_int_equal(value_of(&s, "AffinityArray")->pointer.number, 0x20);
	assert_int_equal(value_of(&s, "Buffer")->buffer.form, NP_BUFFER_POINTER);
	assert_int_equal(value_of(&s, "Buffer")->buffer.where.symbol, NP_PTR_KERNEL);

	/* BYTE, U32 numbers where the fallback is auto, CHOICE, CAPTURED, HANDLE NAME */
	assert_null(np_parse_step("NtSetSystemInformation Allocate=0 SystemInformationLength=0x10 "
				  "SystemInformation=misaligned", &s));
	assert_int_equal(value_of(&s, "Allocate")->byte, 0);
	assert_int_equal(value_of(&s, "SystemInformationLength")->u32.value, 16);
	assert_false(value_of(&s, "SystemInformationLength")->u32.automatic);
	assert_int_equal(value_of(&s, "InformationClass")->u32.value, 0x81);
	assert_int_equal(value_of(&s, "SystemInformation")->pointer.symbol, NP_PTR_MISALIGNED);
	assert_null(np_parse_step("Interrupt Pc=0x401000 Process=other", &s));
	assert_int_equal(value_of(&s, "Process")->choice.index, 1);
	assert_string_equal(value_of(&s, "Process")->choice.word, "other");
	assert_int_equal(value_of(&s, "Pc")->u64, 0x401000);
	assert_int_equal(value_of(&s, "Cpu")->u32.value, 0);
	assert_null(np_parse_step("ReadBuffer Buffer=counts", &s));
	assert_string_equal(value_of(&s, "Buffer")->captured, "counts");
	assert_true(value_of(&s, "Count")->u32.automatic);
	assert_null(np_parse_step("NtStopProfile ProfileHandle=prof", &s));
	assert_int_equal(value_of(&s, "ProfileHandle")->handle.symbol, NP_HANDLE_NAME);
	assert_string_equal(value_of(&s, "ProfileHandle")->handle.name, "prof");
	assert_null(np_parse_step("NtCreateProfile ProfileBase=0 ProfileSize=4 BucketSize=2 BufferSize=4 Buffer=b", &s));
	assert_int_equal(value_of(&s, "Buffer")->buffer.form, NP_BUFFER_CAPTURED);
	assert_string_equal(value_of(&s, "Buffer")->buffer.name, "b");
}

/* Every fallback of the catalog is a value its parameter takes: a step
 * that leaves any parameter out is typed. */
static void test_parser_catalog_fallbacks_parse(void **state)
{
	(void)state;
	unsigned checked = 0;
	for (unsigned i = 0; np_function_at(i); i++) {
		const np_function *f = np_function_at(i);
		for (const np_param *p = f->param; p->name; p++) {
			np_arg a;
			if (!p->fallback)
				continue;
			const char *e = np_arg_parse(p, p->fallback, &a);
			if (e)
				fail_msg("%s %s=%s: %s", f->name, p->name, p->fallback, e);
			assert_int_equal(a.kind, p->kind);
			checked++;
		}
	}
	assert_true(checked > 30);
}

/* A bad value fails when the file is read, naming its line, and nothing of
 * the file is kept; the run never sees it. */
static void test_parser_bad_value_fails_at_read_time(void **state)
{
	(void)state;
	static const char text[] =
		HEAD("t/bad")
		"  call NtSetIntervalProfile Interval=10000\n  expect STATUS_SUCCESS\n"
		"  call NtSetIntervalProfile Interval=0x100000000\n  expect STATUS_SUCCESS\n";
	np_vector_set set = { 0 };
	np_error err;
	assert_false(np_vectors_load_text(&set, "mem.vec", text, sizeof text - 1, &err));
	assert_string_equal(err.text, "mem.vec:7: expected a 32-bit number: Interval=0x100000000");
	assert_int_equal(set.count, 0);
	np_vectors_free(&set);
}

/* A step a program builds (the explorer's) is typed as a read one is, and
 * refused for what a read one would be. */
static void test_parser_step_type_built(void **state)
{
	(void)state;
	static np_step read, built;
	assert_null(np_parse_step("ZwQueryIntervalProfile ProfileSource=3 Interval=readonly", &read));
	memset(&built, 0, sizeof built);
	snprintf(built.function, sizeof built.function, "ZwQueryIntervalProfile");
	snprintf(built.arg[0].name, sizeof built.arg[0].name, "ProfileSource");
	snprintf(built.arg[0].value, sizeof built.arg[0].value, "3");
	snprintf(built.arg[1].name, sizeof built.arg[1].name, "Interval");
	snprintf(built.arg[1].value, sizeof built.arg[1].value, "readonly");
	built.narg = 2;
	assert_null(np_step_type(&built));
	assert_ptr_equal(built.catalog, read.catalog);
	assert_string_equal(built.arg[0].name, "Source");   /* the canonical spelling, as read */
	assert_memory_equal(built.value, read.value, sizeof read.value);

	snprintf(built.arg[1].value, sizeof built.arg[1].value, "nowhere");
	assert_string_equal(np_step_type(&built),
			    "expected a pointer: user, null, misaligned, readonly, unmapped, kernel, vanishing or a number");
	assert_null(built.catalog);
	snprintf(built.arg[1].name, sizeof built.arg[1].name, "Source");
	assert_string_equal(np_step_type(&built), "argument given twice");
	snprintf(built.arg[1].name, sizeof built.arg[1].name, "Length");
	assert_string_equal(np_step_type(&built), "unknown argument for this function");
	built.narg = 0;
	snprintf(built.function, sizeof built.function, "MoveThread");
	assert_string_equal(np_step_type(&built), "a required argument is missing");
	/* a built run is bounded as a read one is, and left untyped */
	snprintf(built.function, sizeof built.function, "Interrupts");
	snprintf(built.arg[0].name, sizeof built.arg[0].name, "Pc");
	snprintf(built.arg[0].value, sizeof built.arg[0].value, "0x10000000");
	snprintf(built.arg[1].name, sizeof built.arg[1].name, "Count");
	snprintf(built.arg[1].value, sizeof built.arg[1].value, "65536");
	built.narg = 2;
	assert_null(np_step_type(&built));
	assert_non_null(built.catalog);
	snprintf(built.arg[1].value, sizeof built.arg[1].value, "65537");
	assert_string_equal(np_step_type(&built), "Count: a run is at most 65536 interrupts");
	assert_null(built.catalog);
	built.narg = 0;
	snprintf(built.function, sizeof built.function, "NtFrobnicate");
	assert_string_equal(np_step_type(&built), "unknown function (see fixtures/README.md, Steps)");
}

/* ---- np_parse_given_pair ---- */

static void test_parser_given_pair(void **state)
{
	(void)state;
	np_pair p;
	static const char *const good[] = {
		"privilege=on", "privilege=off", "tracing=late", "mode=kernel", "integrity=low", "cpus=1",
		"cpus=64", "cpu=63", "hal=default", "hal=emon", "hal=amd64", "K-ERRATA=0", "alloc=fail",
		"hal.ProfileTime.supported=off", "hal.0x19.max=0xFFFFFFFF", "hal.ProfileTime.default=4000",
		"pebs=on", "pebs=off", "cpu0.pebs=off", "cpu63.pebs=on", "vendor=amd", "cpu1.vendor=other",
		"misc_enable=0xFFFFFFFFFFFFFFFF", "cpu2.misc_enable=0", "cpuid1_ecx=0xFFFFFFFF",
		"cpu3.cpuid1_ecx=4",
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		const char *e = np_parse_given_pair(good[i], &p);
		if (e)
			fail_msg("\"%s\": %s", good[i], e);
	}
	/* every value of every knob in the table */
	unsigned nknob = 0;
	const np_knob_info *knob = np_knob_table(&nknob);
	assert_true(nknob > 0);
	for (unsigned k = 0; k < nknob; k++) {
		assert_non_null(knob[k].values[0]);
		for (unsigned v = 0; v < 4 && knob[k].values[v]; v++) {
			char pair[128];
			snprintf(pair, sizeof pair, "%s=%s", knob[k].name, knob[k].values[v]);
			const char *e = np_parse_given_pair(pair, &p);
			if (e)
				fail_msg("\"%s\": %s", pair, e);
		}
	}
	assert_null(np_parse_given_pair("hal.ProfileTime.min=100", &p));
	assert_string_equal(p.name, "hal.ProfileTime.min");
	assert_string_equal(p.value, "100");
	assert_string_equal(np_parse_given_pair("privilege=maybe", &p), "privilege takes on or off");
	assert_string_equal(np_parse_given_pair("cpus=0", &p), "cpus takes a number from 1 to 64");
	assert_string_equal(np_parse_given_pair("cpus=65", &p), "cpus takes a number from 1 to 64");
	assert_string_equal(np_parse_given_pair("hal=arm", &p), "hal takes default, emon or amd64");
	assert_string_equal(np_parse_given_pair("K-NOPE=1", &p), "unknown knob (see SPEC.md, Knobs)");
	assert_string_equal(np_parse_given_pair("K-HAL-CLAMP=round", &p),
			    "not a value of that knob (see SPEC.md, Knobs)");
	assert_string_equal(np_parse_given_pair("colour=red", &p), "unknown given key");
	assert_string_equal(np_parse_given_pair("privilege", &p), "expected KEY=VALUE");
	assert_string_equal(np_parse_given_pair("privilege=", &p), "expected KEY=VALUE");
	assert_string_equal(np_parse_given_pair("=on", &p), "expected KEY=VALUE");
	assert_string_equal(np_parse_given_pair("K-ERRATA=0x100000000", &p), "K-ERRATA takes a 32-bit interval (0 = none)");
	assert_string_equal(np_parse_given_pair("alloc=maybe", &p), "alloc takes fail or ok");
	assert_string_equal(np_parse_given_pair("hal.ProfileTime.colour=1", &p),
			    "hal.SOURCE.FIELD: FIELD is supported, min, max or default");
	assert_string_equal(np_parse_given_pair("hal.ProfileTime.supported=yes", &p),
			    "hal.SOURCE.supported takes on or off");
	assert_string_equal(np_parse_given_pair("hal.0x100.min=1", &p),
			    "hal.SOURCE needs a source name or a number below 0x100");
	/* SY-16: processor properties */
	assert_string_equal(np_parse_given_pair("pebs=maybe", &p), "pebs takes on or off");
	assert_string_equal(np_parse_given_pair("cpu1.vendor=via", &p), "vendor takes intel, amd or other");
	assert_string_equal(np_parse_given_pair("misc_enable=0x10000000000000000", &p),
			    "misc_enable takes a 64-bit number (IA32_MISC_ENABLE)");
	assert_string_equal(np_parse_given_pair("cpuid1_ecx=0x100000000", &p),
			    "cpuid1_ecx takes a 32-bit number (CPUID leaf 1, ECX)");
	assert_string_equal(np_parse_given_pair("cpu0.colour=red", &p),
			    "a processor property is pebs, vendor, misc_enable or cpuid1_ecx");
	assert_string_equal(np_parse_given_pair("cpu64.pebs=on", &p),
			    "expected cpuN.FIELD=VALUE with N from 0 to 63");
	assert_string_equal(np_parse_given_pair("cpu.pebs=on", &p),
			    "expected cpuN.FIELD=VALUE with N from 0 to 63");
	assert_string_equal(np_parse_given_pair("cpux.pebs=on", &p),
			    "expected cpuN.FIELD=VALUE with N from 0 to 63");
	assert_string_equal(np_parse_given_pair("cpu123456789.pebs=on", &p),
			    "expected cpuN.FIELD=VALUE with N from 0 to 63");
}


/* Captures across the steps of one vector: a handle and a buffer captured by a
 * create are usable later; the checker accepts exactly that use. */
static void test_parser_captures_good(void **state)
{
	np_vector_set set = { 0 };
	load_ok(*state, "cap.vec",
		"vector cap/ok\n"
		"  title   t\n  rules   ST-1\n  source  s\n  flags   hazardous\n"
		"  call    NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000 ProfileSize=16 BucketSize=2 Buffer=>b BufferSize=16\n"
		"  expect  STATUS_SUCCESS ProfileHandle=h\n"
		"  call    NtStartProfile ProfileHandle=h\n"
		"  expect  STATUS_SUCCESS\n"
		"  call    NtCreateProfile ProfileHandle=>h2 Process=current ProfileBase=0x10000 ProfileSize=16 BucketSize=2 Buffer=b BufferSize=16\n"
		"  expect  STATUS_SUCCESS\n"
		"  call    NtDuplicateObject SourceHandle=h2 DesiredAccess=0 TargetHandle=>h3\n"
		"  expect  STATUS_SUCCESS TargetHandle=h3\n"
		"  call    Interrupt Pc=0x10004 Cpu=0 Process=other\n"
		"  expect  corruption Counted=1\n"
		"  call    ReadBuffer Buffer=b Count=5\n"
		"  expect  Buffer=0,1,0*3\n", &set);
	assert_int_equal(set.count, 1);
	const np_vector *v = &set.v[0];
	assert_int_equal(v->nstep, 6);
	assert_string_equal(v->step[0].arg[0].value, ">h");
	assert_int_equal(v->step[4].expect[0].outcome.kind, NP_RESULT_CORRUPTION);
	assert_string_equal(v->step[5].expect[0].out[0].value, "0,1,0*3");
	np_vectors_free(&set);
}

/* The capture checker alone, step by step: use before capture, capture
 * twice, and the two kinds kept apart. */
static void test_parser_captures_checker(void **state)
{
	(void)state;
	np_step s[3];
	assert_null(np_parse_step("NtCreateProfile ProfileHandle=>h Buffer=>b ProfileBase=0 ProfileSize=4 BucketSize=2 BufferSize=4", &s[0]));
	assert_null(np_captures_check(s, 0, &s[0]));
	assert_null(np_parse_step("NtStopProfile ProfileHandle=h", &s[1]));
	assert_null(np_captures_check(s, 1, &s[1]));
	assert_non_null(np_captures_check(s, 0, &s[1]));           /* not yet captured */
	assert_null(np_parse_step("WriteBuffer Buffer=b Index=0 Value=1", &s[2]));
	assert_null(np_captures_check(s, 1, &s[2]));
	assert_null(np_parse_step("WriteBuffer Buffer=h Index=0 Value=1", &s[2]));
	assert_string_equal(np_captures_check(s, 1, &s[2]), "that name is a handle, not a buffer");
	assert_null(np_parse_step("NtClose Handle=b", &s[2]));
	assert_string_equal(np_captures_check(s, 1, &s[2]), "that name is a buffer, not a handle");
	assert_null(np_parse_step("NtCreateProfile Buffer=>b ProfileBase=0 ProfileSize=4 BucketSize=2 BufferSize=4", &s[2]));
	assert_non_null(np_captures_check(s, 1, &s[2]));            /* b captured twice */
	/* symbols and numbers are never names */
	assert_null(np_parse_step("NtClose Handle=current", &s[2]));
	assert_null(np_captures_check(s, 0, &s[2]));
	assert_null(np_parse_step("NtClose Handle=0x40", &s[2]));
	assert_null(np_captures_check(s, 0, &s[2]));
}

/* AS-4: a fresh buffer's page form; any other buffer, word or page number
 * is refused as the file is read. */
/* rules: AS-4 */
static void test_parser_buffer_page_form(void **state)
{
	(void)state;
	static const char head[] = "NtCreateProfile ProfileBase=0 ProfileSize=4 BucketSize=2 BufferSize=0x3000 Buffer=";
	char line[256];
	np_step s[2];
	snprintf(line, sizeof line, "%s>b:unmapped=2", head);
	assert_null(np_parse_step(line, &s[0]));
	const np_arg *a = np_step_value(&s[0], "Buffer");
	assert_int_equal(a->buffer.form, NP_BUFFER_FRESH);
	assert_string_equal(a->buffer.name, "b");
	assert_int_equal(a->buffer.page_access, NP_PAGE_UNMAPPED);
	assert_int_equal(a->buffer.page, 2);
	assert_null(np_captures_check(s, 0, &s[0]));
	snprintf(line, sizeof line, "%suser:readonly=0x1", head);
	assert_null(np_parse_step(line, &s[1]));
	a = np_step_value(&s[1], "Buffer");
	assert_int_equal(a->buffer.page_access, NP_PAGE_READONLY);
	assert_int_equal(a->buffer.page, 1);
	snprintf(line, sizeof line, "%s>b", head);   /* the twin: no form, nothing changed */
	assert_null(np_parse_step(line, &s[1]));
	assert_int_equal(np_step_value(&s[1], "Buffer")->buffer.page_access, NP_PAGE_AS_IS);
	static const char *const bad[] = { "b:unmapped=1", "null:readonly=1", ">b:hole=1",
					   ">b:unmapped=", ">b:unmapped=-1", ">b:readonly=0x100000",
					   ">:unmapped=1" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(line, sizeof line, "%s%s", head, bad[i]);
		assert_non_null(np_parse_step(line, &s[1]));
	}
	assert_null(np_parse_step("Protect Buffer=b Page=1 Access=readonly", &s[1]));
	assert_null(np_captures_check(s, 1, &s[1]));
	assert_non_null(np_parse_step("Protect Buffer=b Page=1 Access=write", &s[1]));
	assert_non_null(np_parse_step("Protect Buffer=b Page=1", &s[1]));
}

/* Names, handle symbols and GROUP_AFFINITY lists (fixtures/README.md). */
static void test_parser_profile_argument_syntax(void **state)
{
	(void)state;
	assert_true(np_capture_name_ok("h"));
	assert_true(np_capture_name_ok("buf_2"));
	assert_false(np_capture_name_ok("user"));
	assert_false(np_capture_name_ok("current"));
	assert_false(np_capture_name_ok("H"));
	assert_false(np_capture_name_ok("2h"));
	assert_false(np_capture_name_ok("h-1"));
	uint64_t n;
	assert_int_equal(np_handle_parse("null", &n), NP_HANDLE_NULL);
	assert_int_equal(np_handle_parse("noquery", &n), NP_HANDLE_NOQUERY);
	assert_int_equal(np_handle_parse("0x44", &n), NP_HANDLE_NUMBER);
	assert_int_equal(n, 0x44);
	assert_int_equal(np_handle_parse("h", &n), NP_HANDLE_NAME);
	np_group_element g[NP_MAX_GROUP_ELEMENTS];
	unsigned count;
	assert_true(np_groups_parse("0:0x3,1:1:7", g, &count));
	assert_int_equal(count, 2);
	assert_int_equal(g[0].group, 0);
	assert_int_equal(g[0].mask, 3);
	assert_int_equal(g[0].reserved, 0);
	assert_int_equal(g[1].group, 1);
	assert_int_equal(g[1].reserved, 7);
	assert_true(np_groups_parse("none", g, &count));
	assert_int_equal(count, 0);
	assert_false(np_groups_parse("0", g, &count));
	assert_false(np_groups_parse("0:1:2:3", g, &count));
	assert_false(np_groups_parse("0x10000:1", g, &count));
	assert_false(np_groups_parse("0:x", g, &count));
	assert_false(np_groups_parse("0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1", g, &count));
	np_step st;
	assert_string_equal(np_parse_step("NtCreateProfile ProfileBase=0 ProfileSize=4 BucketSize=2 BufferSize=4 Affinity=0x", &st),
			    "expected an affinity: all, -1 (all ones) or a number");
	assert_string_equal(np_parse_step("Interrupt Pc=1 Process=others", &st),
			    "not one of the values this argument takes");
	assert_null(np_parse_step("Interrupt Pc=1 Process=other", &st));
}

/* ReadBuffer's counter lists: canonical runs, and parsing that expands them. */
static void test_parser_counter_lists(void **state)
{
	(void)state;
	char text[NP_TEXT_MAX];
	uint32_t c[8] = { 0, 2, 0, 0, 0, 0, 7, 7 };
	np_counters_format(c, 8, text, sizeof text);
	assert_string_equal(text, "0,2,0*4,7,7");
	np_counters_format(c, 0, text, sizeof text);
	assert_string_equal(text, "none");
	uint32_t big[100];
	for (unsigned i = 0; i < 100; i++)
		big[i] = 4000000000u + i;
	np_counters_format(big, 100, text, sizeof text);
	assert_string_equal(text, "100-counters");
	uint32_t out[8];
	unsigned n;
	assert_true(np_counters_parse("0,2,0*4,7,7", out, 8, &n));
	assert_int_equal(n, 8);
	assert_memory_equal(out, c, sizeof c);
	assert_true(np_counters_parse("none", out, 8, &n));
	assert_int_equal(n, 0);
	assert_false(np_counters_parse("0*9", out, 8, &n));       /* longer than the room */
	assert_false(np_counters_parse("1,x", out, 8, &n));
	assert_false(np_counters_parse("0*0", out, 8, &n));
	assert_false(np_counters_parse("4294967296", out, 8, &n));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup_tmp, teardown_tmp)
static const struct CMUnitTest tests[] = {
	T(test_parser_good_vector_header_fields),
	T(test_parser_good_vector_steps_and_expectations),
	T(test_parser_crlf_vector_with_defaults),
	T(test_parser_directory_sorted_recursive),
	T(test_parser_missing_file_line_zero),
	T(test_parser_failed_file_keeps_nothing),
	T(test_parser_unknown_keyword),
	T(test_parser_keyword_before_vector),
	T(test_parser_vector_id_one_word),
	T(test_parser_expect_before_call),
	T(test_parser_unknown_function),
	T(test_parser_unknown_argument),
	T(test_parser_argument_not_name_value),
	T(test_parser_argument_twice),
	T(test_parser_required_argument_missing),
	T(test_parser_bad_number),
	T(test_parser_number_overflow_32),
	T(test_parser_number_overflow_64),
	T(test_parser_number_limits_accepted),
	T(test_parser_unknown_status_name),
	T(test_parser_expect_bad_words),
	T(test_parser_unknown_version_in_range),
	T(test_parser_empty_range),
	T(test_parser_unknown_arch),
	T(test_parser_accept_without_flag),
	T(test_parser_accept_flag_not_declared),
	T(test_parser_unknown_flag),
	T(test_parser_bad_rule_id),
	T(test_parser_missing_title_rules_source),
	T(test_parser_title_and_source_once_with_text),
	T(test_parser_no_call),
	T(test_parser_step_without_expect),
	T(test_parser_uncovered_target),
	T(test_parser_nonexistent_targets_need_no_expect),
	T(test_parser_duplicate_id_across_files),
	T(test_parser_nul_byte),
	T(test_parser_control_character),
	T(test_parser_line_length_limit),
	T(test_parser_file_size_limit),
	cmocka_unit_test(test_parser_text_line_ends),
	T(test_parser_empty_file_no_vectors),
	T(test_parser_given_unknown_key),
	T(test_parser_given_bad_value),
	T(test_parser_unknown_knob),
	T(test_parser_bad_knob_value),
	cmocka_unit_test(test_parser_bad_data_files),
	cmocka_unit_test(test_parser_range_operators),
	cmocka_unit_test(test_parser_range_build_numbers),
	cmocka_unit_test(test_parser_range_errors),
	cmocka_unit_test(test_parser_outcome_kinds),
	cmocka_unit_test(test_parser_outcome_errors),
	cmocka_unit_test(test_parser_step_defaults),
	cmocka_unit_test(test_parser_step_canonical_names),
	cmocka_unit_test(test_parser_step_errors),
	cmocka_unit_test(test_parser_step_typed_values),
	cmocka_unit_test(test_parser_catalog_fallbacks_parse),
	cmocka_unit_test(test_parser_bad_value_fails_at_read_time),
	T(test_parser_out_value_of_no_such_name),
	T(test_parser_status_did_you_mean),
	cmocka_unit_test(test_parser_step_type_built),
	cmocka_unit_test(test_parser_given_pair),
	T(test_parser_captures_good),
	cmocka_unit_test(test_parser_captures_checker),
	cmocka_unit_test(test_parser_profile_argument_syntax),
	cmocka_unit_test(test_parser_buffer_page_form),
	cmocka_unit_test(test_parser_counter_lists),
	cmocka_unit_test(test_parser_keep_some_vectors),
	cmocka_unit_test(test_parser_seal_keeps_every_vector),
};
#undef T

NP_TEST_MAIN(tests)
