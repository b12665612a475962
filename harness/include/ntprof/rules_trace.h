/* SPDX-License-Identifier: MIT */
/* ntprof trace: the rule matrix, rule -> implementing code -> vectors ->
 * tests, built from an np_index (rules_index.h), as Markdown and as one
 * self-contained HTML page. The problems it lists are np_index_check's. */
#ifndef NTPROF_RULES_TRACE_H
#define NTPROF_RULES_TRACE_H

#include <stdio.h>

#include "ntprof/rules_index.h"

/* np_index_check's lines as one malloc'd string (count in *problems);
 * NULL only when out of memory or without a temporary file. */
char *np_trace_problems(const np_index *ix, unsigned *problems);

/* The matrix; problems is np_trace_problems's text (may be empty). */
void np_trace_markdown(FILE *out, const np_index *ix, const char *problems);
void np_trace_html(FILE *out, const np_index *ix, const char *problems);

#endif
