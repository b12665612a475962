/* SPDX-License-Identifier: MIT */
/* ntprof: the one rule for a number written as text, wherever the model or
 * the harness reads one (a vector's argument, a `given` value, a source or
 * status number, a part of a build number).
 *
 * A number is decimal digits, or 0x or 0X and hex digits, nothing else: no
 * sign, no space, no suffix. Leading zeros are decimal, never octal (010 is
 * ten). It has at most 64 bits; a longer one is refused, not cut. */
#ifndef NTPROF_NUMBER_H
#define NTPROF_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads all of text; false (out untouched) when it is no number. */
bool np_number_parse(const char *text, uint64_t *out);
/* The same for the first len characters of text (a part of a longer text). */
bool np_number_parse_len(const char *text, size_t len, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
