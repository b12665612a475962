/* SPDX-License-Identifier: MIT */
/* ntprof: every knob of SPEC.md §Knobs, declared once (an X-macro list).
 *
 * Not a header to include on its own, and without an include guard on
 * purpose: ntprof/machine.h and model/configure.c include it once for each
 * thing they make from it (the enumerations and the fields of np_knobs, the
 * defaults of np_machine_init, np_knob_table and the setter), each time
 * with these four macros defined; it undefines them at its end.
 *
 *   NP_KNOB(NAME, field, RULE, DEFAULT, VALUES): a knob with named values.
 *     NAME: its spelling in SPEC.md and in `given` (K-...); field: its field
 *     in np_knobs, of type np_knob_<field>; RULE: the SPEC.md rules it
 *     qualifies; DEFAULT: its value on a fresh machine; VALUES: one
 *     NP_KNOB_VALUE(ENUMERATOR, "spelling") per value, in enumeration order
 *     from 0, at most NP_KNOB_MAX_VALUES (ntprof/configure.h).
 *   NP_VERSION_KNOB(NAME, field, RULE, DEFAULT, "default"): a version key,
 *     or never (NP_VERSION_COUNT); an np_ver field.
 *   NP_RANGE_KNOB(NAME, field, RULE, LO, HI, "default"): a version range,
 *     or never (field_lo > field_hi); two np_ver fields, field_lo and field_hi.
 *
 * Adding a knob is one entry here, and its use in the model. The order is
 * np_knob_table's. */

/* K-HAL-CLAMP (HL-4): what the HAL does with an interval outside [min, max]. */
NP_KNOB("K-HAL-CLAMP", hal_clamp, "HL-4", NP_HAL_CLAMP,
	NP_KNOB_VALUE(NP_HAL_CLAMP, "clamp")     /* default: clamp into [min, max] */
	NP_KNOB_VALUE(NP_HAL_IGNORE, "ignore")   /* silently keep the old interval */
	NP_KNOB_VALUE(NP_HAL_STORE, "store"))    /* store the value as given */

/* K-HAL-RATE (HL-4): what the HAL of a 32-bit x86 kernel keeps of an
 * in-range ProfileTime interval: exactly it, or the period of the
 * power-of-two rate of the clock that drives the profile interrupt. */
NP_KNOB("K-HAL-RATE", hal_rate, "HL-4", NP_HAL_RATE_EXACT,
	NP_KNOB_VALUE(NP_HAL_RATE_EXACT, "exact")                 /* default: as given */
	NP_KNOB_VALUE(NP_HAL_RATE_POWER_OF_TWO, "power-of-two"))  /* the nearest period of 2..8192 Hz */

/* K-SET-EVENT-SAME (SI-6): is the set-interval event logged when the
 * interval read before the set equals the one after it. */
NP_KNOB("K-SET-EVENT-SAME", set_event_same, "SI-6", NP_SET_EVENT_SAME_LOGGED,
	NP_KNOB_VALUE(NP_SET_EVENT_SAME_LOGGED, "logged")
	NP_KNOB_VALUE(NP_SET_EVENT_SAME_SKIPPED, "skipped"))

/* K-QI-ALIGN (QI-2): does the Interval probe demand 4-byte alignment; no
 * source names such a test (none, the default). */
NP_KNOB("K-QI-ALIGN", qi_align, "QI-2", NP_QI_ALIGN_NONE,
	NP_KNOB_VALUE(NP_QI_ALIGN_CHECKED, "checked")
	NP_KNOB_VALUE(NP_QI_ALIGN_NONE, "none"))

/* K-QI-WRITE-FAULT (QI-3): status when the final write of *Interval faults. */
NP_KNOB("K-QI-WRITE-FAULT", qi_write_fault, "QI-3", NP_QI_FAULT_SUCCESS,
	NP_KNOB_VALUE(NP_QI_FAULT_SUCCESS, "success")
	NP_KNOB_VALUE(NP_QI_FAULT_EXCEPTION, "exception"))

/* K-ETW-TIME (TR-4): is the ETW time-profile interval the HAL's ProfileTime interval. */
NP_KNOB("K-ETW-TIME", etw_time, "TR-4", NP_ETW_TIME_SHARED,
	NP_KNOB_VALUE(NP_ETW_TIME_SHARED, "shared")
	NP_KNOB_VALUE(NP_ETW_TIME_SEPARATE, "separate"))

/* K-ETW-TIME-PRIV (TR-5): privilege for setting the ETW time-profile interval. */
NP_KNOB("K-ETW-TIME-PRIV", etw_time_priv, "TR-5", NP_ETW_PRIV_REQUIRED,
	NP_KNOB_VALUE(NP_ETW_PRIV_REQUIRED, "required")
	NP_KNOB_VALUE(NP_ETW_PRIV_NONE, "none"))

/* K-SRCLIST-LEN (TR-7): the answer to a too-small source-list buffer. */
NP_KNOB("K-SRCLIST-LEN", srclist_len, "TR-7", NP_SRCLIST_BAD_LENGTH,
	NP_KNOB_VALUE(NP_SRCLIST_BAD_LENGTH, "bad-length")
	NP_KNOB_VALUE(NP_SRCLIST_MORE_DATA, "more-data"))

/* K-TQI-RETLEN (TR-3): is *ReturnLength written when the length is wrong
 * (always), or only when InformationLength is right (right-length). */
NP_KNOB("K-TQI-RETLEN", tqi_retlen, "TR-3", NP_RETLEN_ALWAYS,
	NP_KNOB_VALUE(NP_RETLEN_ALWAYS, "always")
	NP_KNOB_VALUE(NP_RETLEN_RIGHT_LENGTH, "right-length"))

/* K-SEG-SMALLBUF (CP-4): x86 segment mode with BufferSize < 4, from 4.0sp4. */
NP_KNOB("K-SEG-SMALLBUF", seg_smallbuf, "CP-4", NP_SEG_SMALLBUF_PARAM7,
	NP_KNOB_VALUE(NP_SEG_SMALLBUF_PARAM7, "param7")
	NP_KNOB_VALUE(NP_SEG_SMALLBUF_INVALID, "invalid-parameter"))

/* K-PRE-SP4-DIV0 (CP-5): what the divide by a zero bucket count does. */
NP_KNOB("K-PRE-SP4-DIV0", pre_sp4_div0, "CP-5", NP_DIV0_FAULT,
	NP_KNOB_VALUE(NP_DIV0_FAULT, "fault")
	NP_KNOB_VALUE(NP_DIV0_BUGCHECK, "bugcheck"))

/* K-LOG2-0 (CP-6): the segment-mode bucket size when ProfileSize/n is 1. */
NP_KNOB("K-LOG2-0", log2_0, "CP-6", NP_LOG2_0_CLAMP,
	NP_KNOB_VALUE(NP_LOG2_0_CLAMP, "clamp")
	NP_KNOB_VALUE(NP_LOG2_0_REJECT, "reject"))

/* K-ZERO-SIZE (CP-9): does ProfileSize 0 need a counter under the fixed check. */
NP_KNOB("K-ZERO-SIZE", zero_size, "CP-9", NP_ZERO_SIZE_ACCEPT,
	NP_KNOB_VALUE(NP_ZERO_SIZE_ACCEPT, "accept")
	NP_KNOB_VALUE(NP_ZERO_SIZE_ONE_COUNTER, "one-counter"))

/* K-ALIGNFIXUP-CREATE (CP-11): create with ProfileAlignmentFixup from 6.2. */
NP_KNOB("K-ALIGNFIXUP-CREATE", alignfixup_create, "CP-11", NP_ALIGNFIXUP_NOT_SUPPORTED,
	NP_KNOB_VALUE(NP_ALIGNFIXUP_NOT_SUPPORTED, "not-supported")
	NP_KNOB_VALUE(NP_ALIGNFIXUP_ACCEPT, "accept"))

/* K-ORDER-PROBE (CP-12..CP-14): where the user-mode probes run. */
NP_KNOB("K-ORDER-PROBE", order_probe, "CP-12..CP-14", NP_PROBE_AFTER_SOURCE,
	NP_KNOB_VALUE(NP_PROBE_AFTER_SOURCE, "after-source")
	NP_KNOB_VALUE(NP_PROBE_BEFORE_SOURCE, "before-source")
	NP_KNOB_VALUE(NP_PROBE_AFTER_PROCESSORS, "after-processors"))

/* K-GROUPS (CP-15): two elements for one group. */
NP_KNOB("K-GROUPS", groups, "CP-15", NP_GROUPS_MERGE,
	NP_KNOB_VALUE(NP_GROUPS_MERGE, "merge")
	NP_KNOB_VALUE(NP_GROUPS_REJECT, "reject"))

/* K-GLOBAL-PRIV-SCOPE (CP-21): which global profiles need the privilege. */
NP_KNOB("K-GLOBAL-PRIV-SCOPE", global_priv, "CP-21", NP_PRIV_USER_BASE,
	NP_KNOB_VALUE(NP_PRIV_USER_BASE, "user-base")
	NP_KNOB_VALUE(NP_PRIV_ALWAYS, "always"))

/* K-RESTRICTED-BOUNDARY (CP-22): when a region "reaches into" kernel space. */
NP_KNOB("K-RESTRICTED-BOUNDARY", restricted, "CP-22", NP_RESTRICT_LAST_BYTE,
	NP_KNOB_VALUE(NP_RESTRICT_LAST_BYTE, "last-byte")
	NP_KNOB_VALUE(NP_RESTRICT_END, "end")
	NP_KNOB_VALUE(NP_RESTRICT_BASE, "base"))

/* K-OB-FAIL (CP-23): the status when the object or handle cannot be made. */
NP_KNOB("K-OB-FAIL", ob_fail, "CP-23", NP_OB_FAIL_RESOURCES,
	NP_KNOB_VALUE(NP_OB_FAIL_RESOURCES, "insufficient-resources")
	NP_KNOB_VALUE(NP_OB_FAIL_QUOTA, "quota-exceeded"))

/* K-HANDLE-WRITE-FAULT (CP-24): the final write of *ProfileHandle faults. */
NP_KNOB("K-HANDLE-WRITE-FAULT", handle_fault, "CP-24", NP_HANDLE_FAULT_SUCCESS,
	NP_KNOB_VALUE(NP_HANDLE_FAULT_SUCCESS, "success")
	NP_KNOB_VALUE(NP_HANDLE_FAULT_EXCEPTION, "exception"))

/* K-LIMIT (ST-3): which processor count the started-profile limit uses. */
NP_KNOB("K-LIMIT", limit, "ST-3", NP_LIMIT_ACTIVE,
	NP_KNOB_VALUE(NP_LIMIT_ACTIVE, "active")
	NP_KNOB_VALUE(NP_LIMIT_MAXIMUM, "maximum"))

/* K-LOCK-FAIL (ST-5): the status of an (injected) failure to lock the buffer. */
NP_KNOB("K-LOCK-FAIL", lock_fail, "ST-5", NP_LOCK_FAIL_AV,
	NP_KNOB_VALUE(NP_LOCK_FAIL_AV, "access-violation")
	NP_KNOB_VALUE(NP_LOCK_FAIL_QUOTA, "working-set-quota")
	NP_KNOB_VALUE(NP_LOCK_FAIL_RESOURCES, "insufficient-resources"))

/* K-MDL-LIMIT (ST-5): what start does with a buffer longer than one MDL
 * describes on the version (IoAllocateMdl's limit). */
NP_KNOB("K-MDL-LIMIT", mdl_limit, "ST-5", NP_MDL_LIMIT_RESOURCES,
	NP_KNOB_VALUE(NP_MDL_LIMIT_RESOURCES, "insufficient-resources")  /* default: the MDL cannot be had */
	NP_KNOB_VALUE(NP_MDL_LIMIT_NONE, "none"))                        /* no limit: the buffer is locked */

/* K-ZERO-ON-START (ST-8): does a start clear the buffer. */
NP_KNOB("K-ZERO-ON-START", zero_on_start, "ST-8", NP_ZERO_ON_START_NO,
	NP_KNOB_VALUE(NP_ZERO_ON_START_NO, "no")
	NP_KNOB_VALUE(NP_ZERO_ON_START_YES, "yes"))

/* K-SRC16 (IN-2): the interrupt's source against the 16 bits the profile
 * keeps (low16, the default), or against all 32 bits (full). */
NP_KNOB("K-SRC16", src16, "IN-2", NP_SRC_LOW16,
	NP_KNOB_VALUE(NP_SRC_FULL, "full")
	NP_KNOB_VALUE(NP_SRC_LOW16, "low16"))

/* K-OOB-POLICY (IN-7): an increment outside the counters. */
NP_KNOB("K-OOB-POLICY", oob, "IN-7", NP_OOB_PAGE,
	NP_KNOB_VALUE(NP_OOB_PAGE, "page")   /* default: corruption in the last mapped page, bug check past it */
	NP_KNOB_VALUE(NP_OOB_BUGCHECK, "bugcheck")
	NP_KNOB_VALUE(NP_OOB_CORRUPTION, "corruption")
	NP_KNOB_VALUE(NP_OOB_IGNORE, "ignore"))

/* K-PEBS-ON-FREE (SY-14): does the PEBS test of SY-11 also guard a free. */
NP_KNOB("K-PEBS-ON-FREE", pebs_on_free, "SY-14", NP_PEBS_FREE_CHECKED,
	NP_KNOB_VALUE(NP_PEBS_FREE_CHECKED, "checked")
	NP_KNOB_VALUE(NP_PEBS_FREE_UNCHECKED, "unchecked"))

/* K-PPCA-LENGTH-ORDER (SY-8): is the class 0x81 length tested after the
 * user-mode refusal of SY-7 (mode-first) or before it (length-first). */
NP_KNOB("K-PPCA-LENGTH-ORDER", ppca_length_order, "SY-8", NP_PPCA_MODE_FIRST,
	NP_KNOB_VALUE(NP_PPCA_MODE_FIRST, "mode-first")
	NP_KNOB_VALUE(NP_PPCA_LENGTH_FIRST, "length-first"))

/* K-PPCA-LENGTH-STATUS (SY-8): the status of a wrong class 0x81 length. */
NP_KNOB("K-PPCA-LENGTH-STATUS", ppca_length_status, "SY-8", NP_PPCA_INFO_LENGTH_MISMATCH,
	NP_KNOB_VALUE(NP_PPCA_INFO_LENGTH_MISMATCH, "info-length-mismatch")
	NP_KNOB_VALUE(NP_PPCA_INVALID_PARAMETER, "invalid-parameter"))

/* K-FIX-1703 (CP-9): the first version with the fixed capacity check. */
NP_VERSION_KNOB("K-FIX-1703", fixed_capacity_from, "CP-9", NP_V1703, "1703")

/* K-PPCA-WIDE-FROM (SY-9): the first version whose PROCESSOR_PROFILE_CONTROL_AREA
 * is 0xA0 bytes rather than 0x60. */
NP_VERSION_KNOB("K-PPCA-WIDE-FROM", ppca_wide_from, "SY-9", NP_V2004, "2004")

/* K-SANDBOX-CHECK (CP-22): the first version whose restricted callers include
 * a sandboxed token of medium integrity or more (Windows 10's access check). */
NP_VERSION_KNOB("K-SANDBOX-CHECK", sandbox_check, "CP-22", NP_V1507, "1507")

/* K-INCLUSIVE-END (IN-4): the versions that count an interrupt exactly at RangeLimit. */
NP_RANGE_KNOB("K-INCLUSIVE-END", inclusive, "IN-4", NP_V6_2, NP_V1803, "6.2..1803")

#undef NP_KNOB
#undef NP_KNOB_VALUE
#undef NP_VERSION_KNOB
#undef NP_RANGE_KNOB
