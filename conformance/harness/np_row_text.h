/* SPDX-License-Identifier: MIT */
/* What the harness programs share to look at a run's rows: a row's parts
 * as the reports print them (ROW_EXPECTED(r), ...), an answer made from
 * such text to build rows with, and rows run by a test kept so that their
 * details are freed at exit (the leak checks see none). */
#ifndef NTPROF_NP_ROW_TEXT_H
#define NTPROF_NP_ROW_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/known_got.h"
#include "ntprof/runner.h"

/* A row's part by the accessor fn, in one of eight buffers used in turn, so
 * that one assertion may print several. */
static inline const char *np_row_words(const np_row *r, void (*fn)(const np_row *, char *, size_t))
{
	static char buf[8][NP_TEXT_MAX * 3];
	static unsigned next;
	char *b = buf[next++ % 8];
	fn(r, b, sizeof buf[0]);
	return b;
}
#define ROW_EXPECTED(r) np_row_words((r), np_row_expected_text)
#define ROW_GOT(r)      np_row_words((r), np_row_got_text)
#define ROW_MODEL(r)    np_row_words((r), np_row_model_text)
#define ROW_FIXTURE(r)  np_row_words((r), np_row_fixture_text)
#define ROW_NOTE(r)     np_row_words((r), np_row_note_text)

/* text as a report prints an answer ("" for none, "applicable", "not
 * applicable (why)", or an outcome with out-values) into out; a test's
 * text that does not read fails the test. */
static inline void np_answer_of_text(const char *text, np_answer *out)
{
	memset(out, 0, sizeof *out);
	size_t n = strlen(text);
	if (!text[0])
		return;
	if (strcmp(text, "applicable") == 0) {
		np_answer_open(out, NULL);
		return;
	}
	if (strncmp(text, "not applicable (", 16) == 0 && text[n - 1] == ')') {
		char why[NP_TEXT_MAX];
		snprintf(why, sizeof why, "%.*s", (int)(n - 17), text + 16);
		np_answer_open(out, why);
		return;
	}
	np_known_value v;
	const char *bad = np_known_value_parse(text, &v);
	if (bad) {
		fprintf(stderr, "%s: %s\n", text, bad);
		abort();
	}
	np_record rec;
	memset(&rec, 0, sizeof rec);
	rec.outcome = v.outcome;
	memcpy(rec.out, v.out, sizeof v.out);
	rec.nout = v.nout;
	np_answer_from_record(&rec, out);
}

static np_row_detail *np_kept_detail[1024];
static unsigned np_nkept;
static bool np_kept_freed_at_exit;

static inline void np_free_kept(void)
{
	while (np_nkept)
		np_row_detail_free(np_kept_detail[--np_nkept]);
}

/* Keeps r's detail to free at exit (the row may be run again). */
static inline void np_keep_row(const np_row *r)
{
	if (!np_kept_freed_at_exit)
		np_kept_freed_at_exit = atexit(np_free_kept) == 0;
	if (r->detail && np_nkept < sizeof np_kept_detail / sizeof *np_kept_detail)
		np_kept_detail[np_nkept++] = r->detail;
}

#endif
