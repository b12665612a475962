/* SPDX-License-Identifier: MIT */
/* ntprof: every version predicate, declared once (an X-macro list).
 *
 * Not a header to include on its own, and without an include guard on
 * purpose: ntprof/version_predicates.h includes it to define the
 * predicates, and model/rule.c to make np_predicate_table, each time with
 * NP_PREDICATE defined; it undefines it at its end.
 *
 *   NP_PREDICATE(name, SHAPE, (NP_RULE(R), ...), expression): the predicate name,
 *     true where expression holds. SHAPE gives its arguments: V (np_ver v),
 *     A (np_arch a), VA (np_ver v, np_arch a) or M (const np_machine *m, for
 *     a threshold a knob moves). NP_RULE(R), ...: the SPEC.md rules whose version
 *     threshold it states, the first the one it is for.
 *
 * Each threshold appears here and nowhere else. Adding a predicate is one
 * entry here and its use in the model; ntprof explore and ntprof explain
 * find it in np_predicate_table. */

/* SI-0, QI-0, CP-0, IN-2: the ProfileSource (and, for NtCreateProfile, the
 * Affinity) argument exists from 3.51; so do source and processor
 * qualification at interrupt time. */
NP_PREDICATE(np_has_source_argument, V, (NP_RULE(SI_0), NP_RULE(QI_0), NP_RULE(CP_0), NP_RULE(IN_2)), v >= NP_V3_51)

/* CP-0, ST-0, SP-0, SI-0, QI-0: the kernel exports the Zw stubs of the
 * profile functions (not ZwCreateProfile) from 1607. */
NP_PREDICATE(np_kernel_exports_zw_profile, V, (NP_RULE(CP_0), NP_RULE(ST_0), NP_RULE(SP_0), NP_RULE(SI_0), NP_RULE(QI_0)), v >= NP_V1607)

/* CP-2, CP-4, ST-6: NT 4.0 SP4 added the BufferSize checks of create and made
 * an affinity with no active processor mean all processors. */
NP_PREDICATE(np_has_sp4_profile_fixes, V, (NP_RULE(CP_2), NP_RULE(CP_4), NP_RULE(CP_5), NP_RULE(ST_6)), v >= NP_V4_0SP4)

/* CP-3: segment mode exists only for a 32-bit kernel. */
NP_PREDICATE(np_has_segment_mode, A, (NP_RULE(CP_3)), a == NP_X86)

/* CP-0, CP-1, CP-15, CP-16, ST-6, MC-4: processor groups and
 * NtCreateProfileEx from 6.1; NtCreateProfile becomes its wrapper and the
 * processors are validated at create. Groups beyond one need a 64-bit kernel. */
NP_PREDICATE(np_has_group_affinity, V, (NP_RULE(CP_1), NP_RULE(CP_0), NP_RULE(CP_15), NP_RULE(CP_16), NP_RULE(CP_17), NP_RULE(CP_18), NP_RULE(ST_6), NP_RULE(MC_4)),
	     v >= NP_V6_1)
NP_PREDICATE(np_has_processor_groups, VA, (NP_RULE(MC_4)), a != NP_X86 && v >= NP_V6_1)
/* MC-4: a 64-bit kernel allows 4 processor groups in 6.1 and 20 from 6.2. */
NP_PREDICATE(np_has_twenty_groups, V, (NP_RULE(MC_4)), v >= NP_V6_2)

/* CP-8, CP-9: the capacity check is fixed from K-FIX-1703 (1703 by default). */
NP_PREDICATE(np_capacity_check_fixed, M, (NP_RULE(CP_8), NP_RULE(CP_9)), m->version >= m->knobs.fixed_capacity_from)

/* CP-11: create asks the HAL whether the source is supported from 6.2. */
NP_PREDICATE(np_create_checks_source, V, (NP_RULE(CP_11)), v >= NP_V6_2)

/* CP-22: restricted callers may not profile kernel space from 6.3. */
NP_PREDICATE(np_checks_restricted_callers, V, (NP_RULE(CP_22)), v >= NP_V6_3)

/* ST-3: the started-profile limit takes effect from 6.1. */
NP_PREDICATE(np_has_started_profile_limit, V, (NP_RULE(ST_3)), v >= NP_V6_1)

/* ST-5: one MDL describes what its 16-bit size has room for, up to 5.2;
 * 2 GB less a page on 6.0; 4 GB less a page from 6.1 (IoAllocateMdl). */
NP_PREDICATE(np_mdl_size_is_16bit, V, (NP_RULE(ST_5)), v <= NP_V5_2SP1)
NP_PREDICATE(np_mdl_reaches_4gb, V, (NP_RULE(ST_5)), v >= NP_V6_1)

/* IN-3, IN-4: the region's end is wrongly inclusive in K-INCLUSIVE-END
 * (6.2 to 1803 by default). */
NP_PREDICATE(np_region_end_inclusive, M, (NP_RULE(IN_4), NP_RULE(IN_3)),
	     m->version >= m->knobs.inclusive_lo && m->version <= m->knobs.inclusive_hi)

/* SI-1: NtSetIntervalProfile demands SeSystemProfilePrivilege from 6.2. */
NP_PREDICATE(np_set_interval_checks_privilege, V, (NP_RULE(SI_1)), v >= NP_V6_2)

/* TR-0: TraceSetInformation is exported from 6.1, TraceQueryInformation from 6.2. */
NP_PREDICATE(np_has_trace_set_information, V, (NP_RULE(TR_0)), v >= NP_V6_1)
NP_PREDICATE(np_has_trace_query_information, V, (NP_RULE(TR_0)), v >= NP_V6_2)

/* TR-1, TR-11, TR-12: classes 5 and 7 are handled from 6.2, and so are
 * TraceSetInformation's classes 4, 6, 8 and 9 and TraceQueryInformation's
 * class 4. */
NP_PREDICATE(np_trace_handles_profile_classes, V, (NP_RULE(TR_1), NP_RULE(TR_11), NP_RULE(TR_12)), v >= NP_V6_2)

/* TR-11, TR-12: the classes Windows 10 added (set 0x0A, query 0x0B and 0x0E). */
NP_PREDICATE(np_trace_handles_windows10_classes, V, (NP_RULE(TR_11), NP_RULE(TR_12)), v >= NP_V1507)

/* SY-0: NTDLL exports NtQuerySystemInformation in every version and
 * NtSetSystemInformation from 3.50. */
NP_PREDICATE(np_has_set_system_information, V, (NP_RULE(SY_0)), v >= NP_V3_50)

/* SY-0: the kernel exports ZwQuerySystemInformation from 4.0 (and
 * ZwSetSystemInformation as early as NTDLL has the set). */
NP_PREDICATE(np_kernel_exports_zw_query_system_information, V, (NP_RULE(SY_0)), v >= NP_V4_0)

/* SY-6: SystemProcessorProfileControlArea (0x81) is a valid set class from 6.2. */
NP_PREDICATE(np_has_processor_profile_control_area, V, (NP_RULE(SY_6)), v >= NP_V6_2)

/* SY-20: SystemPerformanceTraceInformation (0x1F) is valid for both
 * functions from 6.0; 3.50 to 4.0 had an unrelated query class 0x1F
 * (SystemEventIdsInformation) that is valid only trivially. */
NP_PREDICATE(np_has_performance_trace_information, V, (NP_RULE(SY_20)), v >= NP_V6_0)
NP_PREDICATE(np_has_event_ids_information, V, (NP_RULE(SY_20)), v >= NP_V3_50 && v <= NP_V4_0SP4)

/* SY-22a: sub-class 0x05 (EventTraceSpinlockInformation) from 6.1 on a 64-bit
 * kernel, but only from 6.2 on a 32-bit one. */
NP_PREDICATE(np_kernel_traces_spinlocks, VA, (NP_RULE(SY_22a)), v >= (a == NP_X86 ? NP_V6_2 : NP_V6_1))

/* SY-22b: sub-class 0x1A (EventTraceUnifiedStackCachingInformation), which
 * phnt dates "21H1": the first key whose kernel is past the 19041 line is
 * 11-21H2. Sub-class 0x1B (context registers) from 11-24H2. */
NP_PREDICATE(np_has_unified_stack_caching, V, (NP_RULE(SY_22b)), v >= NP_VSRV2022)
NP_PREDICATE(np_has_context_register_tracing, V, (NP_RULE(SY_22b)), v >= NP_V11_24H2)

/* SY-8, SY-11: the kernel is 32-bit only on x86; x64 and WOW64 callers
 * both run on a 64-bit kernel. */
NP_PREDICATE(np_kernel_is_32bit, A, (NP_RULE(SY_8), NP_RULE(SY_11)), a == NP_X86)

/* KS-3, HL-1: which HAL profile interfaces can exist. The Amd64 interface
 * exists in every x64 HAL; Intel (Emon) sources appear in 64-bit 6.0; no
 * 32-bit HAL offers anything but ProfileTime before 6.2. */
NP_PREDICATE(np_hal_has_amd64, VA, (NP_RULE(KS_3), NP_RULE(HL_1)), a != NP_X86 ? v >= NP_V5_2SP1 : v >= NP_V6_2)
NP_PREDICATE(np_hal_has_emon, VA, (NP_RULE(KS_3), NP_RULE(HL_1)), a != NP_X86 ? v >= NP_V6_0 : v >= NP_V6_2)

/* SY-9: the control area grew from 0x60 to 0xA0 bytes in K-PPCA-WIDE-FROM
 * (2004 by default). */
NP_PREDICATE(np_ppca_is_wide, M, (NP_RULE(SY_9)), m->version >= m->knobs.ppca_wide_from)

#undef NP_PREDICATE
