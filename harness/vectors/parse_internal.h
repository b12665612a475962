/* SPDX-License-Identifier: MIT */
/* The pieces the vector reader shares between its files: the file and line
 * reader (vector_file.c), the vector and expectation parser (parse.c) and
 * the step parser (step.c). Not for use outside harness/vectors/. */
#ifndef NTPROF_PARSE_INTERNAL_H
#define NTPROF_PARSE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "ntprof/vector.h"

#define NP_LINE_MAX   4096   /* characters in one line */
#define NP_TOKENS_MAX 64     /* words in one line */

/* Fills err with "file:line: message" (the message cut at 400 bytes) and
 * returns false. */
bool np_vectors_vfail(np_error *err, const char *file, int line, const char *fmt, va_list ap);

/* Copies src when it fits in cap bytes with its NUL; false (dst untouched)
 * otherwise. */
bool np_copy_text(char *dst, size_t cap, const char *src);

/* Splits line in place at spaces and tabs into at most max words. */
unsigned np_tokenize(char *line, char **tok, unsigned max);

/* One line of a vector file (in place: the line is split). A `vector` line
 * finishes the vector before it (np_vector_finish) and starts *cur. */
bool np_parse_line(np_vector_set *set, np_vector **cur, char *line, const char *file, int lineno,
		   np_error *err);

/* Checks a finished vector: required fields, hazardous outcomes flagged,
 * every version and architecture it applies to covered. */
bool np_vector_finish(np_vector *v, np_error *err);

#endif
