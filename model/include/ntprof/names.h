/* SPDX-License-Identifier: MIT */
/* ntprof: names of profile sources and of the model's enumerations. */
#ifndef NTPROF_NAMES_H
#define NTPROF_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "ntprof/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* KS-1: the public KPROFILE_SOURCE names, 0x00..0x18 ("ProfileTime" ...). */
const char *np_source_name(uint32_t source);
/* Accepts a public name or a 32-bit number (ntprof/number.h: decimal or 0x hex). */
bool np_source_parse(const char *text, uint32_t *out);

/* Spelling suggestions ("did you mean X?"): the candidate nearest a
 * mistyped word by edit distance (insertions, deletions, substitutions and
 * swaps of neighbours, case ignored), offered one by one from any table. */
typedef struct np_nearest {
	const char *word;
	const char *best;     /* NULL until a candidate is near enough */
	unsigned distance;
} np_nearest;

void np_nearest_start(np_nearest *n, const char *word);
void np_nearest_offer(np_nearest *n, const char *candidate);
/* The nearest candidate offered, when close enough to be a likely typo
 * (at most a third of the word's letters, at most 3, at least 1); else NULL. */
const char *np_nearest_found(const np_nearest *n);
/* The edit distance itself; words longer than 63 characters are far from all. */
unsigned np_edit_distance(const char *a, const char *b);

/* The public source name nearest text, or NULL. */
const char *np_source_nearest(const char *text);

const char *np_hal_kind_name(np_hal_kind k);
bool np_hal_kind_parse(const char *text, np_hal_kind *out);

#ifdef __cplusplus
}
#endif

#endif
