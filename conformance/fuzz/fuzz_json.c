/* SPDX-License-Identifier: MIT */
/* libFuzzer: the JSON reader (harness/report/json.c) and, above it, the result-file
 * reader of `ntprof compare` (np_compare_add, harness/report/compare.c) on
 * arbitrary bytes. A rejected file gives "NAME:LINE: message"; an accepted
 * one is printed as the comparison table (to a null stream), which walks
 * every cell. Seeds: conformance/fuzz/json/ and conformance/fuzz/SEEDS. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "ntprof/compare.h"

#define FUZZER "fuzz_json"
#include "fuzz_support.h"

#define NAME "fuzz.json"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	np_error err;
	err.text[0] = '\0';
	np_json *j = np_json_parse((const char *)data, size, NAME, &err);
	if (j)
		np_json_free(j);
	else
		check_message(NAME, &err);

	np_compare *c = np_compare_new();
	if (!c)
		return 0;
	if (np_compare_add(c, NAME, (const char *)data, size, &err))
		np_compare_print(null, c, NP_TABLE_TEXT, false);
	else
		check_message(NAME, &err);
	np_compare_free(c);
	return 0;
}
