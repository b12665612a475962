/* SPDX-License-Identifier: MIT */
/* The settings a run adds to a vector (harness/run/settings.c): those of a
 * mirrored run (the model configured like the live system) and the knob
 * readings an implementation declares. */
#ifndef NTPROF_RUN_SETTINGS_H
#define NTPROF_RUN_SETTINGS_H

#include "ntprof/backend.h"

/* v with the settings of extra it does not set itself (a fresh copy, to
 * free), or NULL when memory runs out. */
np_vector *np_vector_with_settings(const np_vector *v, const np_pair *extra, unsigned nextra);

/* The readings b declares ("reading:K-NAME=VALUE" in its implements) of the
 * knobs v rests on (its flags unknown:K-NAME), as settings into read[]
 * (room for NP_MAX_FLAGS); how many. */
unsigned np_readings_of(const np_backend *b, const np_vector *v, np_pair *read);

#endif
