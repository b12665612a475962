/* SPDX-License-Identifier: MIT */
/* Messages that help (hints.c): the parser's fixed messages with the word
 * at fault and a "did you mean" beside them, and the out-values each
 * function reports. Each returns buf (cap bytes) filled, or error itself
 * when it has nothing to add. */
#ifndef NTPROF_HINTS_H
#define NTPROF_HINTS_H

#include <stddef.h>

#include "ntprof/vector.h"

/* A step line np_parse_step refused with error. */
const char *np_step_explain(const char *line, const char *error, char *buf, size_t cap);
/* An outcome token (STATUS_..., ERROR_..., 0x...) refused with error. */
const char *np_outcome_explain(const char *token, const char *error, char *buf, size_t cap);
/* A KEY=VALUE given pair refused with error. */
const char *np_given_explain(const char *token, const char *error, char *buf, size_t cap);

/* NULL when the step's function reports the out-value name (or its
 * out-values are not listed); else why not, in buf. */
const char *np_out_check(const np_step *step, const char *name, char *buf, size_t cap);

#endif
