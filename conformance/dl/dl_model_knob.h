/* SPDX-License-Identifier: MIT */
/* What the dl: objects that are the model under another reading of one knob
 * share (dl_hal_rate.c, dl_inclusive_end.c, dl_qi_align.c): the model
 * opened with that knob set ahead of the vector's own settings, so that a
 * vector giving the knob still has its own way. */
#ifndef NTPROF_DL_MODEL_KNOB_H
#define NTPROF_DL_MODEL_KNOB_H

#include <string.h>

#include "run/impl_model.h"

static inline void *dl_open_model_with(const ntprof_system_spec *spec, const char **why, const char *knob,
				       const char *value)
{
	ntprof_setting given[64];
	ntprof_system_spec bent = *spec;
	if (spec->ngiven + 1 > sizeof given / sizeof *given) {
		*why = "too many given settings";
		return NULL;
	}
	given[0] = (ntprof_setting){ knob, value };
	memcpy(given + 1, spec->given, spec->ngiven * sizeof *given);
	bent.given = given;
	bent.ngiven = spec->ngiven + 1;
	return np_impl_model.open(&bent, why);
}

#endif
