/* SPDX-License-Identifier: MIT */
/* Small pieces that several parts of the harness share, one of each: the
 * FNV-1a hash, a map from strings to indices over an array the caller
 * keeps, the HTML escaper of the pages, and the reading of a duration. */
#ifndef NTPROF_COMMON_H
#define NTPROF_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* 64-bit FNV-1a: NP_FNV1A_SEED is the offset basis; np_fnv1a goes on from
 * h over n more bytes, so one hash may run over several pieces. */
#define NP_FNV1A_SEED UINT64_C(0xCBF29CE484222325)
uint64_t np_fnv1a(uint64_t h, const void *bytes, size_t n);
uint64_t np_fnv1a_str(uint64_t h, const char *s);

/* Strings to indices by open addressing: keys[i] is the string of index i,
 * kept by the caller; a slot holds an index + 1, 0 when empty. A zeroed map
 * is empty. To add: np_strmap_reserve (false on out-of-memory), then
 * np_strmap_slot; when *slot is 0, store index + 1 there and count++. */
typedef struct np_strmap {
	unsigned *slot;
	unsigned cap, count;
} np_strmap;

bool np_strmap_reserve(np_strmap *m, char *const *keys);
/* The slot of key: found (*slot != 0) or where it goes. */
unsigned *np_strmap_slot(const np_strmap *m, char *const *keys, const char *key);
void np_strmap_free(np_strmap *m);

/* At most n bytes of s (up to its NUL) as HTML text or attribute value:
 * & < > " escaped. */
void np_html_escape(FILE *out, const char *s, size_t n);

/* A duration in seconds, whole or with up to three decimals ("2", "0.2",
 * "1.25"), into *ms as milliseconds: false (*ms untouched) for anything
 * else, for 0 and above max_ms. Decimal digits only: no sign, no space, no
 * hex, no exponent. */
bool np_seconds_parse(const char *text, unsigned max_ms, unsigned *ms);

#endif
