/* SPDX-License-Identifier: MIT */
/* A JSON Schema validator for the schemas of schema/ (draft 2020-12), with
 * exactly the keywords they use: type (a name or a list; "integer" is a
 * whole number), enum (of scalars), properties, required,
 * additionalProperties (false or a schema), propertyNames, items (one
 * schema), pattern (json_pattern.c's subset), $ref to "#/$defs/NAME", and
 * the annotations $schema, $id, title, description and $comment. Any other
 * keyword is refused as a problem of the schema: a schema that says more
 * than this validator checks must not pass for checked. */
#ifndef NTPROF_JSON_SCHEMA_H
#define NTPROF_JSON_SCHEMA_H

#include "report/json.h"

/* Checks doc (read from doc_path) against schema (read from schema_path).
 * False with err = "DOC:LINE: $.results[2].got.kind: what is wrong", the
 * JSON path of the first value that breaks the schema; or, for a schema
 * this validator cannot use, "SCHEMA:LINE: schema: what". */
bool np_json_schema_check(const np_json *schema, const char *schema_path, const np_json *doc,
			  const char *doc_path, np_error *err);

/* pattern's match anywhere in s (JSON Schema patterns are not anchored
 * unless they say ^ or $), in *matched; NULL, or why the pattern is
 * outside the subset. */
const char *np_json_pattern_match(const char *pattern, const char *s, bool *matched);

#endif
