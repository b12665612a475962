/* SPDX-License-Identifier: MIT */
/* ntprof harness: what a vector needs of an implementation beyond the ten
 * calls, and whether an implementation declares it (its capabilities).
 *
 * A capability is named as an implementation declares it in its
 * `implements` list (ntprof/impl.h, fixtures/README.md):
 *   - a pseudo-step, as the catalog spells it: Interrupt (also taking
 *     Interrupts), Inject, ReadEvents, MoveThread, SetCpus,
 *     SetIntervalElsewhere, Protect (also a fresh buffer's page form);
 *   - a `given` key it honours, "given:KEY" for every value or
 *     "given:KEY=VALUE" for that one; a key's family is its name with the
 *     processor or source taken out (cpu3.vendor is "vendor", any
 *     hal.SOURCE.FIELD row is "hal");
 *   - "pointer:vanishing", memory that goes away once probed;
 *   - "reading:K-NAME=VALUE", the reading of a knob (ntprof/knobs.h) it
 *     implements: a vector resting on that knob (flag unknown:K-NAME) is
 *     judged against the model under that reading, and a vector giving
 *     K-NAME=VALUE is within it.
 * Every implementation takes, undeclared, what a live system takes:
 * ReadBuffer, WriteBuffer, FreeBuffer, `given privilege`, `integrity`,
 * `mode=user`, `tracing=off` and `sandboxed=off`. */
#ifndef NTPROF_CAPABILITY_H
#define NTPROF_CAPABILITY_H

#include <stdbool.h>
#include <stddef.h>

#include "ntprof/vector.h"

#define NP_MAX_NEEDS 24
#define NP_CAPABILITY_MAX 64   /* a capability's name, with its terminating NUL */

typedef struct np_needs {
	char name[NP_MAX_NEEDS][NP_CAPABILITY_MAX];
	unsigned count;
} np_needs;

/* The capabilities v needs, each once, in the order its givens then its
 * steps first need them. */
void np_vector_needs(const np_vector *v, np_needs *out);

/* Whether the NULL-terminated list declared (an `implements` list)
 * declares need: by its name, or a "given:KEY" for a "given:KEY=VALUE". */
bool np_capability_declared(const char *const *declared, const char *need);

/* Whether name is a capability's name (and not a function's): what an
 * `implements` entry that is neither a function nor a step may be. */
bool np_capability_name(const char *name);

/* The value of the reading of knob ("K-HAL-RATE") that declared claims,
 * copied into value (cap bytes); NULL when it claims none. */
const char *np_capability_reading(const char *const *declared, const char *knob, char *value,
				  size_t cap);

#endif
