/* SPDX-License-Identifier: MIT */
/* The model as an implementation of ntprof/impl.h: the reference every
 * other implementation is compared with. */
#ifndef NTPROF_IMPL_MODEL_H
#define NTPROF_IMPL_MODEL_H

#include "ntprof/impl.h"

extern const ntprof_impl np_impl_model;

/* The simulated machine behind a system np_impl_model.open() returned: for
 * wrappers (conformance/dl/dl_faulty.c) that bend the model's behaviour. */
struct np_machine;
struct np_machine *np_impl_model_machine(void *sys);

/* A system np_impl_model.open() returned, closed and opened again as spec
 * says, in the same memory: what np_impl_model.open() would return, or
 * NULL with why, sys then closed. */
void *np_impl_model_reopen(void *sys, const ntprof_system_spec *spec, const char **why);

#endif
