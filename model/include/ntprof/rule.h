/* SPDX-License-Identifier: MIT */
/* ntprof: the rules of SPEC.md as values (ntprof/rules.h lists them), and
 * the record of which rules a call applied and which one decided it. */
#ifndef NTPROF_RULE_H
#define NTPROF_RULE_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NP_RULE_NONE is no rule: a record no call has written yet. */
typedef enum np_rule {
	NP_RULE_NONE = 0,
#define NP_RULE_DEF(sym, id, title) NP_RULE_##sym,
#include "ntprof/rules.h"
	NP_RULE_COUNT
} np_rule;

/* A rule by its ID with '_' for '-': NP_RULE(SI_1). An ID SPEC.md does not
 * have is an undeclared identifier, so it does not compile. */
#define NP_RULE(sym) NP_RULE_##sym

/* "SI-1" and its title; NULL for NP_RULE_NONE or a value out of range. */
const char *np_rule_id(np_rule r);
const char *np_rule_title(np_rule r);
/* The rule whose ID is text (exactly, e.g. "SY-22a"); false when none is. */
bool np_rule_parse(const char *text, np_rule *out);

/* What one call did, rule by rule: the rules it applied on the way, in the
 * order it applied them (each once), and the rule that decided its outcome.
 * Each public call of ntprof/calls.h clears it on entry; a call the model
 * makes on its own behalf (TR-4 going through class 0x1F) adds to the
 * caller's record, and the outermost decision is the last one written. */
#define NP_TRAIL_MAX 24
typedef struct np_applied {
	np_rule rule;
	const char *file;   /* where the model applied it (__FILE__, __LINE__) */
	int line;
} np_applied;
typedef struct np_trail {
	np_rule decided;
	unsigned count;
	np_applied applied[NP_TRAIL_MAX];
	/* bit r of the rules in applied[]: a call applies the same rules again
	 * and again, and a bit answers "already there?" without a search */
	unsigned long long has[(NP_RULE_COUNT + 63) / 64];
} np_trail;

#ifdef __cplusplus
}
#endif

#endif
