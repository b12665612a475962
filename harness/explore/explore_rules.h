/* SPDX-License-Identifier: MIT */
/* The explorer's rule tables (harness/explore/explore_rules.c): the rules
 * behind each outcome of a function (SPEC.md "Order of checks"), the
 * sections a function's vectors can prove, and the version predicates of
 * ntprof/version_predicates.h. */
#ifndef NTPROF_EXPLORE_RULES_H
#define NTPROF_EXPLORE_RULES_H

#include <stdbool.h>

#include "vectors/catalog.h"
#include "ntprof/machine.h"

/* SPEC.md "Order of checks": the rules of the steps of f's order that end
 * in outcome o (space-separated IDs), or f's signature rule when no step
 * names it. */
const char *np_xoutcome_rules(const np_function *f, const np_outcome *o);

/* True when rule (an ID like CP-7) belongs to a section a vector of f can
 * prove: f's own, those f goes through (the Trace* functions reach SI, QI
 * and SY), and the sections every call shares (VR, MC, AS, KS, HL). A
 * boundary shared by several functions cites the rules of each. */
bool np_xrule_fits(const np_function *f, const char *rule);

/* A version threshold: a predicate of ntprof/version_predicates.h over the version
 * table, the rules it states, and the functions whose outcome it changes. */
typedef struct np_xpredicate {
	const char *name;
	bool (*holds)(const np_machine *m);   /* at m->version with the default knobs */
	const char *rules;
	unsigned functions;                   /* 1u << np_function_id */
} np_xpredicate;
const np_xpredicate *np_xpredicates(unsigned *count);

#endif
