/* ntprof: names of profile sources and of the model's enumerations. */
#ifndef NTPROF_NAMES_H
#define NTPROF_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "ntprof/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* KS-1: the public KPROFILE_SOURCE names, 0x00..0x18 ("ProfileTime" ...). */
const char *np_source_name(uint32_t source);
/* Accepts a public name or a 32-bit number (ntprof/number.h: decimal or 0x hex). */
bool np_source_parse(const char *text, uint32_t *out);

const char *np_hal_kind_name(np_hal_kind k);
bool np_hal_kind_parse(const char *text, np_hal_kind *out);

#ifdef __cplusplus
}
#endif

#endif
