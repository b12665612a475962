/* SPDX-License-Identifier: MIT */
/* The value of a parameter in a parsed step, its fallback when the step
 * omits it: what the tests of the step parser and the explorer read back.
 * The program itself types a step's arguments once (vectors/arg_value.c)
 * and never asks this, so it lives with the tests. */
#ifndef NTPROF_TEST_STEP_ARG_H
#define NTPROF_TEST_STEP_ARG_H

#include <string.h>

#include "vectors/catalog.h"

static inline const char *np_step_arg(const np_step *s, const np_param *p)
{
	for (unsigned i = 0; i < s->narg; i++)
		if (strcmp(s->arg[i].name, p->name) == 0)
			return s->arg[i].value;
	return p->fallback;
}

#endif
