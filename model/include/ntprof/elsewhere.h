/* SPDX-License-Identifier: MIT */
/* ntprof: what the rest of the system does between two calls of the caller
 * (SPEC.md MC-7, MC-8, AS-4). Each acts on one machine, as a step of a
 * vector between two calls. */
#ifndef NTPROF_ELSEWHERE_H
#define NTPROF_ELSEWHERE_H

#include <stdint.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MC-7: processors 0 to cpus - 1 of every group are active from now on;
 * not applicable (with why) when the machine cannot have that many. */
np_result np_elsewhere_set_cpus(np_machine *m, unsigned cpus);

/* MC-8: another process, holding and enabling SeSystemProfilePrivilege,
 * calls NtSetIntervalProfile from user mode; the result is that call's. */
np_result np_elsewhere_set_interval(np_machine *m, uint32_t interval, uint32_t source);

/* AS-4: the caller changes the protection of whole pages of one region of
 * at most 1 MiB: NP_PROT_READ makes them read-only, 0 unmaps them. Not
 * applicable (with why) for a range it cannot change. */
np_result np_elsewhere_protect(np_machine *m, uint64_t addr, uint64_t size, unsigned prot);

#ifdef __cplusplus
}
#endif

#endif
