/* SPDX-License-Identifier: MIT */
/* Internal: one NtSetSystemInformation or NtQuerySystemInformation request
 * after the general defences (SY-1..SY-4), as the class handlers see it. */
#ifndef NTPROF_MODEL_SYSINFO_H
#define NTPROF_MODEL_SYSINFO_H

#include "internal.h"

typedef struct np_sysinfo {
	np_machine *m;
	uint64_t buffer;          /* SystemInformation */
	uint32_t length;          /* SystemInformationLength */
	uint64_t return_length;   /* a query's ReturnLength; 0 = NULL (and always 0 for a set) */
	bool query;
} np_sysinfo;

/* SY-5: accesses to the caller's buffer and ReturnLength after the probes.
 * Each returns false when the access faults; the handler then returns
 * np_sysinfo_fault(). */
bool np_sysinfo_read(const np_sysinfo *rq, uint32_t offset, void *out, size_t n);
bool np_sysinfo_write(const np_sysinfo *rq, uint32_t offset, const void *in, size_t n);
/* Writes *ReturnLength when the caller gave one (true when there is none). */
bool np_sysinfo_set_return_length(const np_sysinfo *rq, uint32_t n);
np_result np_sysinfo_fault(np_machine *m);

/* Class handlers. */
np_result np_processor_profile_control_area(const np_sysinfo *rq);  /* 0x81: SY-6..SY-15 */
np_result np_performance_trace(const np_sysinfo *rq);                /* 0x1F: SY-20..SY-22 */
np_result np_etw_time_profile(const np_sysinfo *rq);                 /* sub-class 0x03: SY-23 */
np_result np_etw_profile_source_list(const np_sysinfo *rq);          /* sub-class 0x0D: SY-24 */
np_result np_etw_pebs_tracing(const np_sysinfo *rq);                 /* sub-class 0x0B: SY-22c */

#endif
