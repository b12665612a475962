/* SPDX-License-Identifier: MIT */
/* Reading rule IDs out of the tests: in conformance/ the rules tags that say "this test checks these rules" apart
 * from mere mentions. Internal to harness/trace/. */
#ifndef NTPROF_TRACE_RULES_SCAN_H
#define NTPROF_TRACE_RULES_SCAN_H

#include <stddef.h>

#include "ntprof/rules_index.h"

/* Reads a rule ID at p in line (2-4 capitals, '-', digits, an optional
 * lowercase letter, not inside a longer word) into out; its length, or 0. */
size_t np_rule_id_at(const char *line, const char *p, char *out, size_t cap);

/* Appends a problem line ("file:line: what") to ix->note. */
void np_index_note(np_index *ix, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Appends a citation of id at file:line to a list. */
void np_index_cite(np_cite **list, unsigned *n, const char *id, const char *file, int line);

/* Every place in model/ that applied a rule in a run of the vectors on the
 * model (harness/trace/rules_applied.c) into ix->model; false when out of
 * memory. */
bool np_index_applied(np_index *ix);

/* The .c, .h and .sh files under conformance/: rules tags into ix->tests, every
 * other mention into ix->mentions, a malformed or misplaced tag into ix->note. */
void np_scan_tests(np_index *ix);

#endif
