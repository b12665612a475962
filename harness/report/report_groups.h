/* SPDX-License-Identifier: MIT */
/* The text report's lines (harness/report/report.c): a row's text after its
 * targets, and the default report's grouping of rows by cause. */
#ifndef NTPROF_REPORT_GROUPS_H
#define NTPROF_REPORT_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ntprof/runner.h"

/* Room for a row's text after its targets (a longer one is cut). */
#define NP_ROW_TAIL_MAX 8192

/* What a row's line says after " on TARGETS": " [rules] file:line", the
 * deciding step with what was expected and got and the rule the model
 * decided by, the unknowns the expectation rests on, the note, the model's
 * outcome, the fixture's expectation and what a known-divergence file says
 * of it. The model's outcome is left out where it is the expectation
 * itself unless model_always. */
void np_row_tail(const np_run *run, const np_row *r, bool model_always, char *buf, size_t cap);

/* The default text report's result lines: the rows shown by default
 * (neither quiet: np_class_is_quiet) grouped by cause, a heading per class
 * and cause (the deciding step's function, what was expected and got, the
 * rule the model decided by; a row without a deciding step, its note) with
 * its counts of vectors and results, in the order of its first row; under
 * it a line per vector and everything that line says (step, unknowns,
 * model, known-divergence note...), naming the targets it holds for as
 * version ranges per architecture (ntprof/target_ranges.h). False, with
 * nothing written, when memory runs out. */
bool np_report_groups(FILE *out, const np_run *run);

#endif
