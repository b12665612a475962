/* SPDX-License-Identifier: MIT */
/* Implementations in shared objects (`ntprof run --backend dl:PATH`). */
#ifndef NTPROF_BACKEND_DL_H
#define NTPROF_BACKEND_DL_H

#include <stddef.h>
#include <stdlib.h>

#include "ntprof/backend.h"

/* Loads PATH and checks its table; NULL with err saying why it cannot serve. */
np_backend *np_backend_dl_new(const char *path, char *err, size_t cap);

#endif
