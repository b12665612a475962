/* SPDX-License-Identifier: MIT */
/* One argument's text read as a typed value (ntprof/step_arg.h) by the
 * kind of its catalog parameter. */
#ifndef NTPROF_ARG_VALUE_H
#define NTPROF_ARG_VALUE_H

#include "vectors/catalog.h"

/* Reads text, a value written for p or p's fallback, into *out (all of it
 * set, nothing of the text kept but the names a capture needs). NULL, or
 * the message a step line gets for a value p does not take. */
const char *np_arg_parse(const np_param *p, const char *text, np_arg *out);

#endif
