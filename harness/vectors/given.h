/* `given` keys: the machine state a vector needs (fixtures/README.md). */
#ifndef NTPROF_GIVEN_H
#define NTPROF_GIVEN_H

#include <stdbool.h>

#include "ntprof/machine.h"
#include "ntprof/vector.h"

/* Checks the spelling of one key=value; NULL when it is well formed. */
const char *np_given_check(const np_pair *p);

/* Applies a vector's givens to a machine (hal= first, the rest in order).
 * Returns NULL, or why the state cannot exist on that machine (the vector is
 * then not applicable there). */
const char *np_given_apply_all(np_machine *m, const np_pair *given, unsigned n);

/* The knob table, for `ntprof explain` and reports. */
typedef struct np_knob_info {
	const char *name;
	const char *values[4];   /* values[0] is the default */
} np_knob_info;
const np_knob_info *np_knob_table(unsigned *count);

#endif
