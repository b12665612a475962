/* SPDX-License-Identifier: MIT */
/* Reading JSON (RFC 8259) for the harness's own result files, by jansson:
 * the whole text becomes a tree whose nodes name the line they start on;
 * any malformed input is "file:line: message". The Linux ntprof only: the
 * Windows exe reads no JSON. */
#ifndef NTPROF_JSON_H
#define NTPROF_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "ntprof/vector.h"   /* np_error */

typedef enum np_json_type {
	NP_JSON_NULL, NP_JSON_BOOL, NP_JSON_NUMBER, NP_JSON_STRING, NP_JSON_ARRAY, NP_JSON_OBJECT
} np_json_type;

typedef struct np_json {
	np_json_type type;
	int line;                    /* where the value starts */
	char *key;                   /* the member's name, inside an object */
	char *text;                  /* STRING: decoded (never holds NUL); NUMBER: as written */
	double number;
	bool boolean;
	struct np_json *child;       /* ARRAY, OBJECT: the first element or member */
	struct np_json *next;        /* the next sibling */
	unsigned count;              /* ARRAY, OBJECT: elements or members */
} np_json;

/* Parses text[0..len) (one value, blanks around it). NULL and err on error:
 * a syntax error, a control character or NUL in a string, a bad escape or
 * surrogate, an integer beyond 64 bits, nesting deeper than 64, a duplicate
 * member name, trailing text. */
np_json *np_json_parse(const char *text, size_t len, const char *path, np_error *err);
void np_json_free(np_json *j);

/* The member of an object named key, or NULL. */
const np_json *np_json_get(const np_json *object, const char *key);
const char *np_json_type_name(np_json_type t);

#endif
