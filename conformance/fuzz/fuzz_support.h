/* SPDX-License-Identifier: MIT */
/* What the libFuzzer fuzzers (conformance/fuzz/fuzz_*.c) share. Each defines
 * FUZZER, its name for messages, before including this.
 *   broken():            stops the fuzzer on an input that broke a contract
 *                        (libFuzzer then writes the input as a finding);
 *   check_message():     a reader's error is "NAME:LINE: message" (or
 *                        "NAME: message" for the whole file), the
 *                        contract of fixtures/README.md, Errors;
 *   input, byte(), raw(): the decoding fuzzers' bytes (fuzz_model.c,
 *                        fuzz_interrupts.c), read one at a time and zeros
 *                        once they run out, so that any input decodes. */
#ifndef NTPROF_FUZZ_SUPPORT_H
#define NTPROF_FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/vector.h"

#ifndef FUZZER
#error "define FUZZER (the fuzzer's name) before including fuzz_support.h"
#endif

static inline void broken(const char *what, const char *text)
{
	fprintf(stderr, FUZZER ": %s: \"%s\"\n", what, text);
	abort();
}

/* The error of reading the text named name: "name:LINE: message", LINE a
 * number from 1, or "name: message" for the file as a whole; the message
 * not empty. */
static inline void check_message(const char *name, const np_error *err)
{
	size_t n = strlen(name);
	if (strncmp(err->text, name, n) != 0 || err->text[n] != ':')
		broken("error without the file name", err->text);
	const char *p = err->text + n + 1;
	if (p[0] == ' ' && p[1] != '\0')
		return;   /* the file as a whole */
	char *end;
	long line = strtol(p, &end, 10);
	if (end == p || line < 1 || strncmp(end, ": ", 2) != 0 || end[2] == '\0')
		broken("error without LINE: message", err->text);
}

typedef struct input {
	const uint8_t *p;
	size_t n, at;
} input;

static inline unsigned byte(input *in)
{
	return in->at < in->n ? in->p[in->at++] : 0;
}

/* BYTES bytes, little-endian. */
static inline uint64_t raw(input *in, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)byte(in) << (8 * i);
	return v;
}

#endif
