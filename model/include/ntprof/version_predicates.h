/* SPDX-License-Identifier: MIT */
/* ntprof: version behaviour as named predicates over the ordered table.
 *
 * The predicates are declared once, in ntprof/predicates.h, each with the
 * SPEC.md rules whose threshold it states; this header defines them as
 * functions, and np_predicate_table enumerates them. */
#ifndef NTPROF_VERSION_PREDICATES_H
#define NTPROF_VERSION_PREDICATES_H

#include <stdbool.h>

#include "ntprof/machine.h"
#include "ntprof/rule.h"
#include "ntprof/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NP_PREDICATE_PARAMS_V  np_ver v
#define NP_PREDICATE_PARAMS_A  np_arch a
#define NP_PREDICATE_PARAMS_VA np_ver v, np_arch a
#define NP_PREDICATE_PARAMS_M  const np_machine *m
#define NP_PREDICATE(name, shape, rules, expression) \
	static inline bool name(NP_PREDICATE_PARAMS_##shape) { return expression; }
#include "ntprof/predicates.h"

/* KS-3, HL-1: whether a HAL profile interface can exist. */
static inline bool np_hal_kind_exists(np_ver v, np_arch a, np_hal_kind k)
{
	switch (k) {
	case NP_HAL_DEFAULT: return true;
	case NP_HAL_AMD64:   return np_hal_has_amd64(v, a);
	case NP_HAL_EMON:    return np_hal_has_emon(v, a);
	}
	return false;
}

/* One predicate as data: its name, the rules it states (the first the one
 * it is for, the list ended by NP_RULE_NONE), and its value on a machine
 * (at its version and architecture, with its knobs). */
#define NP_PREDICATE_MAX_RULES 9
typedef struct np_predicate {
	const char *name;
	np_rule rules[NP_PREDICATE_MAX_RULES];
	bool (*holds)(const np_machine *m);
} np_predicate;

/* Every predicate of ntprof/predicates.h, in its order. */
const np_predicate *np_predicate_table(unsigned *count);

#ifdef __cplusplus
}
#endif

#endif
