/* SPDX-License-Identifier: MIT */
/* One step's record as one line of text, for a record that crosses a process
 * boundary: the Windows exe runs each vector in a child process of its own
 * (harness/win/), which sends the parent one line per step over a pipe.
 *
 *   R<TAB>KIND<TAB>CODE<TAB>WHY<TAB>NAME=VALUE<TAB>...<LF>
 *
 * KIND is the result kind's number (the ABI's, ntprof/impl.h), CODE eight
 * hex digits, WHY the reason ("" for none); out-values follow in order.
 * Tabs, line ends and other control characters inside a field become
 * spaces, so a line is always one line. Portable, so that the format is
 * tested on Linux. */
#ifndef NTPROF_RECORD_LINE_H
#define NTPROF_RECORD_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "ntprof/backend.h"

/* Longest line np_record_encode writes, the final newline and NUL included. */
#define NP_RECORD_LINE_MAX (16 + NP_TEXT_MAX + NP_MAX_OUTS * (NP_NAME_MAX + NP_TEXT_MAX + 2) + 2)

/* Writes r as one line ending in '\n' into buf (cap >= NP_RECORD_LINE_MAX
 * holds any record); returns its length, or 0 when buf is too small. */
size_t np_record_encode(const np_record *r, char *buf, size_t cap);

/* Reads a line (with or without its '\n') into r. False when it is not a
 * well-formed record line (wrong tag, kind, code, out-value or length). */
bool np_record_decode(const char *line, np_record *r);

/* A step as the line np_parse_step reads back ("FUNCTION Name=Value ..."),
 * for a child process that runs it; returns the length, 0 when buf is too
 * small. np_parse_step of it gives the same function and arguments. */
size_t np_step_line(const np_step *st, char *buf, size_t cap);

#endif
