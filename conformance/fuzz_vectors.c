/* libFuzzer: the vector parser (harness/parse.c) on arbitrary bytes.
 *
 * Besides the sanitizers' verdict, it holds the parser to its contract
 * (fixtures/README.md, Errors): a rejected text gives "NAME:LINE: message"
 * and keeps no vector; an accepted one passes the cross-file checks without
 * crashing. Seeds: conformance/fuzz/vectors/ (fixtures and bad files). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/vector.h"

#define NAME "fuzz.vec"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops the fuzzer with the input that broke the contract. */
static void broken(const char *what, const char *text)
{
	fprintf(stderr, "fuzz_vectors: %s: \"%s\"\n", what, text);
	abort();
}

/* "fuzz.vec:LINE: message"; LINE 0 is the file as a whole (an empty file). */
static void check_message(const np_error *err)
{
	const char *p = err->text + strlen(NAME);
	char *end;
	if (strncmp(err->text, NAME ":", strlen(NAME ":")) != 0)
		broken("error without the file name", err->text);
	long line = strtol(p + 1, &end, 10);
	if (end == p + 1 || line < 0 || strncmp(end, ": ", 2) != 0 || end[2] == '\0')
		broken("error without LINE: message", err->text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	np_vector_set set = { 0 };
	np_error err;
	err.text[0] = '\0';
	if (np_vectors_load_text(&set, NAME, (const char *)data, size, &err)) {
		if (set.count == 0)
			broken("accepted a text without vectors", "");
		if (!np_vectors_check(&set, &err))   /* duplicate IDs */
			check_message(&err);
	} else {
		check_message(&err);
		if (set.count != 0)
			broken("vectors kept after an error", err.text);
	}
	np_vectors_free(&set);
	return 0;
}
