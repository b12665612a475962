/* SPDX-License-Identifier: MIT */
/* json_schema_check SCHEMA FILE...: checks each FILE against SCHEMA with the
 * harness's validator (harness/report/json_schema.c), for
 * conformance/cli/test_schema.sh. Prints "FILE: valid" or the first problem
 * (FILE:LINE: JSON path: what) for each; exit status 0 when all are valid,
 * 1 when one is not, 2 for bad usage, an unreadable or malformed file or a
 * schema the validator cannot use. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/json_schema.h"

#define MAX_BYTES (64u << 20)

/* The file's JSON tree, or NULL after saying why on stderr. */
static np_json *load(const char *path)
{
	np_error err;
	FILE *in = fopen(path, "rb");
	if (!in) {
		fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
		return NULL;
	}
	char *text = malloc(MAX_BYTES);
	size_t len = text ? fread(text, 1, MAX_BYTES, in) : 0;
	bool whole = text && !ferror(in) && len < MAX_BYTES;
	fclose(in);
	np_json *j = whole ? np_json_parse(text, len, path, &err) : NULL;
	free(text);
	if (!whole)
		fprintf(stderr, "%s: cannot read it whole (at most %u MiB)\n", path, MAX_BYTES >> 20);
	else if (!j)
		fprintf(stderr, "%s\n", err.text);
	return j;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: json_schema_check SCHEMA FILE...\n");
		return 2;
	}
	np_json *schema = load(argv[1]);
	if (!schema)
		return 2;
	int status = 0;
	for (int i = 2; i < argc; i++) {
		np_json *doc = load(argv[i]);
		np_error err;
		if (!doc) {
			status = 2;
			continue;
		}
		if (np_json_schema_check(schema, argv[1], doc, argv[i], &err)) {
			printf("%s: valid\n", argv[i]);
		} else {
			fprintf(stderr, "%s\n", err.text);
			bool schema_fault = strncmp(err.text, argv[1], strlen(argv[1])) == 0 &&
					    strstr(err.text, ": schema: ") != NULL;
			if (schema_fault || status == 0)
				status = schema_fault ? 2 : 1;
		}
		np_json_free(doc);
	}
	np_json_free(schema);
	return status;
}
