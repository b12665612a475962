/* SPDX-License-Identifier: MIT */
/* libFuzzer: the known-divergence file reader (harness/run/known.c) on arbitrary
 * bytes, read as `ntprof run --known` reads a file (np_known_read of a
 * stream). A rejected file gives "NAME:LINE: message" (the entries read
 * before the bad line stay until np_known_free: ntprof stops there anyway).
 * Seeds: conformance/fuzz/known/ and the files conformance/fuzz/SEEDS names. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/known.h"

#define FUZZER "fuzz_known"
#include "fuzz_support.h"

#define NAME "fuzz.known"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* fmemopen of zero bytes is refused; an empty file is read as one */
	FILE *in = size ? fmemopen((void *)data, size, "rb") : tmpfile();
	if (!in)
		return 0;
	np_known k;
	np_error err;
	memset(&k, 0, sizeof k);
	err.text[0] = '\0';
	if (!np_known_read(&k, NAME, in, &err))
		check_message(NAME, &err);
	np_known_free(&k);
	fclose(in);
	return 0;
}
