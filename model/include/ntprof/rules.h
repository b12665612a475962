/* ntprof: version behaviour as named predicates over the ordered table.
 *
 * Each predicate is defined once, names the SPEC.md rule whose version
 * threshold it states, and is the only place that threshold appears. */
#ifndef NTPROF_RULES_H
#define NTPROF_RULES_H

#include <stdbool.h>

#include "ntprof/machine.h"
#include "ntprof/version.h"

/* SI-0, QI-0: the ProfileSource argument exists from 3.51. */
static inline bool np_has_source_argument(np_ver v) { return v >= NP_V3_51; }

/* SI-1: NtSetIntervalProfile demands SeSystemProfilePrivilege from 6.2. */
static inline bool np_set_interval_checks_privilege(np_ver v) { return v >= NP_V6_2; }

/* TR-0: TraceSetInformation is exported from 6.1, TraceQueryInformation from 6.2. */
static inline bool np_has_trace_set_information(np_ver v) { return v >= NP_V6_1; }
static inline bool np_has_trace_query_information(np_ver v) { return v >= NP_V6_2; }

/* TR-1: classes 5 and 7 are handled from 6.2. */
static inline bool np_trace_handles_profile_classes(np_ver v) { return v >= NP_V6_2; }

/* SY-0: NTDLL exports NtQuerySystemInformation in every version and
 * NtSetSystemInformation from 3.50. */
static inline bool np_has_set_system_information(np_ver v) { return v >= NP_V3_50; }

/* SY-6: SystemProcessorProfileControlArea (0x81) is a valid set class from 6.2. */
static inline bool np_has_processor_profile_control_area(np_ver v) { return v >= NP_V6_2; }

/* SY-20: SystemPerformanceTraceInformation (0x1F) is valid for both
 * functions from 6.0; 3.50 to 4.0 had an unrelated query class 0x1F
 * (SystemEventIdsInformation) that is valid only trivially. */
static inline bool np_has_performance_trace_information(np_ver v) { return v >= NP_V6_0; }
static inline bool np_has_event_ids_information(np_ver v) { return v >= NP_V3_50 && v <= NP_V4_0SP4; }

/* SY-8, SY-11: the kernel is 32-bit only on x86; x64 and WOW64 callers
 * both run on a 64-bit kernel. */
static inline bool np_kernel_is_32bit(np_arch a) { return a == NP_X86; }

/* KS-3, HL-1: which HAL profile interfaces can exist. The Amd64 interface
 * exists in every x64 HAL; Intel (Emon) sources appear in 64-bit 6.0; no
 * 32-bit HAL offers anything but ProfileTime before 6.2. */
static inline bool np_hal_kind_exists(np_ver v, np_arch a, np_hal_kind k)
{
	bool kernel64 = a != NP_X86;
	switch (k) {
	case NP_HAL_DEFAULT: return true;
	case NP_HAL_AMD64:   return kernel64 ? v >= NP_V5_2SP1 : v >= NP_V6_2;
	case NP_HAL_EMON:    return kernel64 ? v >= NP_V6_0 : v >= NP_V6_2;
	}
	return false;
}

#endif
