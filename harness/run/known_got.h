/* SPDX-License-Identifier: MIT */
/* A known-divergence entry's GOT as a value (harness/run/known_got.c): the
 * outcome read by the vectors' own parser (np_parse_outcome) and the
 * out-values, so that `STATUS_NOT_IMPLEMENTED` and the report's
 * `STATUS_NOT_IMPLEMENTED (0xC0000002)` are the same outcome. Standard C
 * only: the Windows exe links it too. */
#ifndef NTPROF_KNOWN_GOT_H
#define NTPROF_KNOWN_GOT_H

#include "ntprof/known.h"

/* Reads text (an entry's GOT, or a GOT as a report printed it) into v: an outcome
 * (STATUS_X, 0x..., ERROR_X, fault S, bugcheck B, not-exported, stub,
 * crashed, done ...), optionally followed by its code in parentheses as
 * the report prints it, then Name=Value out-values. NULL, or why not. */
const char *np_known_value_parse(const char *text, np_known_value *v);

/* A row's answer as such a value, its out-values spelt as reports spell
 * them; false for no answer or one that is no step's outcome. */
bool np_known_value_of(const np_answer *a, np_known_value *v);

/* Same outcome and code, and the same out-values by name, compared as
 * numbers where both are numbers (Buffer= as counter lists). */
bool np_known_value_equal(const np_known_value *a, const np_known_value *b);

#endif
