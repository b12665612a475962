#ifndef NTPROF_MODEL_ETW_TIME_PROFILE_H
#define NTPROF_MODEL_ETW_TIME_PROFILE_H

#include "internal.h"

uint32_t np_etw_time_profile_set(np_machine *m, uint32_t interval);
uint32_t np_etw_time_profile_query(const np_machine *m);

#endif
