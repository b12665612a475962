/* The decoding fuzzers' input (fuzz_model.c, fuzz_interrupts.c): bytes read
 * one at a time, zeros once they run out, so that any input decodes and a
 * shorter one is a prefix of the same choices. */
#ifndef NTPROF_FUZZ_INPUT_H
#define NTPROF_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

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
