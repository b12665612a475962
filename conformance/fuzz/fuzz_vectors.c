/* SPDX-License-Identifier: MIT */
/* libFuzzer: the vector parser (harness/vectors/parse.c) on arbitrary bytes.
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

#define FUZZER "fuzz_vectors"
#include "fuzz_support.h"

#define NAME "fuzz.vec"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	np_vector_set set = { 0 };
	np_error err;
	err.text[0] = '\0';
	if (np_vectors_load_text(&set, NAME, (const char *)data, size, &err)) {
		if (set.count == 0)
			broken("accepted a text without vectors", "");
		if (!np_vectors_check(&set, &err))   /* duplicate IDs */
			check_message(NAME, &err);
	} else {
		check_message(NAME, &err);
		if (set.count != 0)
			broken("vectors kept after an error", err.text);
	}
	np_vectors_free(&set);
	return 0;
}
