/* SPDX-License-Identifier: MIT */
/* ntprof: version behaviour as named predicates over the ordered table.
 *
 * Each predicate is defined once, names the SPEC.md rule whose version
 * threshold it states, and is the only place that threshold appears. */
#ifndef NTPROF_VERSION_PREDICATES_H
#define NTPROF_VERSION_PREDICATES_H

#include <stdbool.h>

#include "ntprof/machine.h"
#include "ntprof/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SI-0, QI-0, CP-0, IN-2: the ProfileSource (and, for NtCreateProfile, the
 * Affinity) argument exists from 3.51; so do source and processor
 * qualification at interrupt time. */
static inline bool np_has_source_argument(np_ver v) { return v >= NP_V3_51; }

/* CP-0, ST-0, SP-0, SI-0, QI-0: the kernel exports the Zw stubs of the
 * profile functions (not ZwCreateProfile) from 1607. */
static inline bool np_kernel_exports_zw_profile(np_ver v) { return v >= NP_V1607; }

/* CP-2, CP-4, ST-6: NT 4.0 SP4 added the BufferSize checks of create and made
 * an affinity with no active processor mean all processors. */
static inline bool np_has_sp4_profile_fixes(np_ver v) { return v >= NP_V4_0SP4; }

/* CP-3: segment mode exists only for a 32-bit kernel. */
static inline bool np_has_segment_mode(np_arch a) { return a == NP_X86; }

/* CP-0, CP-1, CP-15, CP-16, ST-6, MC-4: processor groups and
 * NtCreateProfileEx from 6.1; NtCreateProfile becomes its wrapper and the
 * processors are validated at create. Groups beyond one need a 64-bit kernel. */
static inline bool np_has_group_affinity(np_ver v) { return v >= NP_V6_1; }
static inline bool np_has_processor_groups(np_ver v, np_arch a)
{
	return a != NP_X86 && np_has_group_affinity(v);
}
/* MC-4: a 64-bit kernel allows 4 processor groups in 6.1 and 20 from 6.2. */
static inline bool np_has_twenty_groups(np_ver v) { return v >= NP_V6_2; }

/* CP-8, CP-9: the capacity check is fixed from K-FIX-1703 (1703 by default). */
static inline bool np_capacity_check_fixed(const np_machine *m)
{
	return m->version >= m->knobs.fixed_capacity_from;
}

/* CP-11: create asks the HAL whether the source is supported from 6.2. */
static inline bool np_create_checks_source(np_ver v) { return v >= NP_V6_2; }

/* CP-22: restricted callers may not profile kernel space from 6.3. */
static inline bool np_checks_restricted_callers(np_ver v) { return v >= NP_V6_3; }

/* ST-3: the started-profile limit takes effect from 6.1. */
static inline bool np_has_started_profile_limit(np_ver v) { return v >= NP_V6_1; }

/* ST-5: one MDL describes what its 16-bit size has room for, up to 5.2;
 * 2 GB less a page on 6.0; 4 GB less a page from 6.1 (IoAllocateMdl). */
static inline bool np_mdl_size_is_16bit(np_ver v) { return v <= NP_V5_2SP1; }
static inline bool np_mdl_reaches_4gb(np_ver v) { return v >= NP_V6_1; }

/* IN-3, IN-4: the region's end is wrongly inclusive in K-INCLUSIVE-END
 * (6.2 to 1803 by default). */
static inline bool np_region_end_inclusive(const np_machine *m)
{
	return m->version >= m->knobs.inclusive_lo && m->version <= m->knobs.inclusive_hi;
}

/* SI-1: NtSetIntervalProfile demands SeSystemProfilePrivilege from 6.2. */
static inline bool np_set_interval_checks_privilege(np_ver v) { return v >= NP_V6_2; }

/* TR-0: TraceSetInformation is exported from 6.1, TraceQueryInformation from 6.2. */
static inline bool np_has_trace_set_information(np_ver v) { return v >= NP_V6_1; }
static inline bool np_has_trace_query_information(np_ver v) { return v >= NP_V6_2; }

/* TR-1, TR-11, TR-12: classes 5 and 7 are handled from 6.2, and so are
 * TraceSetInformation's classes 4, 6, 8 and 9 and TraceQueryInformation's
 * class 4. */
static inline bool np_trace_handles_profile_classes(np_ver v) { return v >= NP_V6_2; }

/* TR-11, TR-12: the classes Windows 10 added (set 0x0A, query 0x0B and 0x0E). */
static inline bool np_trace_handles_windows10_classes(np_ver v) { return v >= NP_V1507; }

/* SY-0: NTDLL exports NtQuerySystemInformation in every version and
 * NtSetSystemInformation from 3.50. */
static inline bool np_has_set_system_information(np_ver v) { return v >= NP_V3_50; }

/* SY-0: the kernel exports ZwQuerySystemInformation from 4.0 (and
 * ZwSetSystemInformation as early as NTDLL has the set). */
static inline bool np_kernel_exports_zw_query_system_information(np_ver v) { return v >= NP_V4_0; }

/* SY-6: SystemProcessorProfileControlArea (0x81) is a valid set class from 6.2. */
static inline bool np_has_processor_profile_control_area(np_ver v) { return v >= NP_V6_2; }

/* SY-20: SystemPerformanceTraceInformation (0x1F) is valid for both
 * functions from 6.0; 3.50 to 4.0 had an unrelated query class 0x1F
 * (SystemEventIdsInformation) that is valid only trivially. */
static inline bool np_has_performance_trace_information(np_ver v) { return v >= NP_V6_0; }
static inline bool np_has_event_ids_information(np_ver v) { return v >= NP_V3_50 && v <= NP_V4_0SP4; }

/* SY-22a: sub-class 0x05 (EventTraceSpinlockInformation) from 6.1 on a 64-bit
 * kernel, but only from 6.2 on a 32-bit one. */
static inline bool np_kernel_traces_spinlocks(np_ver v, np_arch a)
{
	return v >= (a == NP_X86 ? NP_V6_2 : NP_V6_1);
}

/* SY-22b: sub-class 0x1A (EventTraceUnifiedStackCachingInformation), which
 * phnt dates "21H1": the first key whose kernel is past the 19041 line is
 * 11-21H2. Sub-class 0x1B (context registers) from 11-24H2. */
static inline bool np_has_unified_stack_caching(np_ver v) { return v >= NP_VSRV2022; }
static inline bool np_has_context_register_tracing(np_ver v) { return v >= NP_V11_24H2; }

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

/* SY-9: the control area grew from 0x60 to 0xA0 bytes in K-PPCA-WIDE-FROM
 * (2004 by default). */
static inline bool np_ppca_is_wide(const np_machine *m)
{
	return m->version >= m->knobs.ppca_wide_from;
}

#ifdef __cplusplus
}
#endif

#endif
