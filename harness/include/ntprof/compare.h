/* SPDX-License-Identifier: MIT */
/* ntprof compare: JSON result files of `ntprof run` (and of the live
 * backends) merged into one table, one row per vector and one column per
 * file (per file and target, for a file that ran several targets). Each
 * cell gives the class and a short outcome at the deciding step; a row
 * whose cells differ in behaviour (observed class, step, outcome) is marked.
 * Standard C only. */
#ifndef NTPROF_COMPARE_H
#define NTPROF_COMPARE_H

#include <stdio.h>

#include "ntprof/runner.h"   /* np_class */
#include "ntprof/vector.h"   /* np_error */

typedef enum np_table_format { NP_TABLE_TEXT, NP_TABLE_MARKDOWN } np_table_format;
bool np_table_format_parse(const char *text, np_table_format *out);

typedef struct np_compare np_compare;

np_compare *np_compare_new(void);
void np_compare_free(np_compare *c);

/* Adds one result file, read from path (np_compare_load) or given as text.
 * False with err = "file:line: message" when it is no JSON, no result file
 * of format 2 or 3, or holds a vector twice for one target; c is then as before. */
bool np_compare_load(np_compare *c, const char *path, np_error *err);
bool np_compare_add(np_compare *c, const char *path, const char *text, size_t len, np_error *err);

unsigned np_compare_rows(const np_compare *c);        /* vectors */
unsigned np_compare_columns(const np_compare *c);
unsigned np_compare_differing(const np_compare *c);   /* rows whose cells differ */
/* A column's label: the file's environment ("label", else "wine", "os",
 * "version", "build", "arch" joined), else its name without .json; the
 * target added for a file with several; the file name added where two agree. */
const char *np_compare_label(np_compare *c, unsigned column);
/* The text of one cell ("-" for a vector the column did not run). */
void np_compare_cell(const np_compare *c, unsigned row, unsigned column, char *buf, size_t cap);
const char *np_compare_vector(const np_compare *c, unsigned row);
bool np_compare_row_differs(const np_compare *c, unsigned row);

void np_compare_print(FILE *out, np_compare *c, np_table_format fmt, bool differences_only);

/* For ntprof matrix --observed: a column's target ("VERSION/ARCH"); the row
 * of a vector (false when no file ran it); and the result a column holds
 * for a row (false for none): its class as written (cls; for a known
 * divergence, the class observed in *observed), its deciding step (from 1;
 * 0 for none) and the outcome at that step (NULL for none). */
const char *np_compare_target(const np_compare *c, unsigned column);
bool np_compare_find(const np_compare *c, const char *vector, unsigned *row);
bool np_compare_result(const np_compare *c, unsigned row, unsigned column, np_class *cls, np_class *observed,
		       int *step, const np_answer **got);

/* Markdown table cells: text as a code span (only | escaped), or as plain
 * text with Markdown's special characters escaped. Shared with ntprof matrix. */
void np_md_code(FILE *out, const char *s);
void np_md_text(FILE *out, const char *s);

#endif
