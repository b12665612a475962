/* The model as an implementation of ntprof/backend.h: the reference every
 * other implementation is compared with. */
#ifndef NTPROF_IMPL_MODEL_H
#define NTPROF_IMPL_MODEL_H

#include "ntprof/backend.h"

extern const ntprof_impl np_impl_model;

#endif
