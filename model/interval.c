/* SPDX-License-Identifier: MIT */
/* NtSetIntervalProfile (SPEC.md §SI) and NtQueryIntervalProfile (§QI). */
#include "internal.h"

static const char no_source_argument[] =
	"3.10 and 3.50 have no ProfileSource argument; only ProfileTime can be meant (SI-0, QI-0)";

/* SI-3..SI-5: the kernel's set, common to NtSetIntervalProfile and the ETW
 * time-profile class. SI-8: the state it changes is the machine's, one value
 * per source, seen by every later query from any caller. */
void np_kernel_set_interval(np_machine *m, uint32_t interval, uint32_t source)
{
	NP_APPLY(m, SI_8);
	NP_APPLY(m, KS_4);   /* 100 ns units for ProfileTime, events for the others */
	if (source == NP_PROFILE_ALIGNMENT_FIXUP) {       /* kept by the kernel */
		NP_APPLY(m, SI_3);
		m->alignment_fixup_interval = interval;
		return;
	}
	if (source == NP_PROFILE_TIME && m->errata_interval != 0 &&
	    interval > m->errata_interval) {              /* the errata need wins */
		NP_APPLY(m, SI_5);
		interval = m->errata_interval;
	}
	NP_APPLY(m, SI_4);
	for (unsigned cpu = 0; cpu < m->cpus; cpu++)      /* every active processor */
		np_hal_set_interval(m, cpu, source, interval);
}

/* QI-4, QI-5: what the kernel reports for a source. */
uint32_t np_kernel_query_interval(np_machine *m, uint32_t source)
{
	if (source == NP_PROFILE_ALIGNMENT_FIXUP)
		return NP_APPLY(m, QI_4), m->alignment_fixup_interval;
	NP_APPLY(m, QI_5);
	uint32_t interval;
	NP_APPLY(m, HL_5);
	if (np_hal_query_interval(m, m->current_cpu, source, &interval))
		return interval;
	return 0;                                          /* QI-5: unsupported reads as 0 */
}

np_result np_set_interval_profile_within(np_machine *m, uint32_t interval, uint32_t source)
{
	if (m->halted)                                          /* IN-7: the system stopped */
		return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
	if (!np_has_source_argument(m->version) && source != NP_PROFILE_TIME)
		return NP_DECIDE(m, SI_0, np_not_applicable(no_source_argument));

	/* SI-1: SeSinglePrivilegeCheck against the previous mode */
	if (np_set_interval_checks_privilege(m->version) &&
	    m->previous_mode == NP_MODE_USER && !m->profile_privilege)
		return NP_DECIDE(m, SI_1, np_status(NP_STATUS_PRIVILEGE_NOT_HELD));

	/* SI-6: the old interval is read only if tracing was on before the set;
	 * SI-7: tracing that starts during the call logs 0 as the old value */
	if (m->tracing == NP_TRACING_ON)
		NP_APPLY(m, SI_6);
	uint32_t old = m->tracing == NP_TRACING_ON ? np_kernel_query_interval(m, source) : 0;
	np_kernel_set_interval(m, interval, source);
	if (m->tracing == NP_TRACING_OFF)
		return NP_DECIDE(m, SI_2, np_status(NP_STATUS_SUCCESS));
	uint32_t now = np_kernel_query_interval(m, source);
	/* SI-6, K-SET-EVENT-SAME=skipped: no event when the old interval was
	 * read and the set left it as it was */
	if (m->tracing == NP_TRACING_ON && now == old &&
	    m->knobs.set_event_same == NP_SET_EVENT_SAME_SKIPPED)
		return NP_DECIDE(m, SI_2, np_status(NP_STATUS_SUCCESS));
	if (m->tracing != NP_TRACING_ON)
		NP_APPLY(m, SI_7);                             /* on from now */
	m->tracing = NP_TRACING_ON;
	np_emit_event(m, (np_event){ NP_HOOK_SAMPLED_PROFILE_SET_INTERVAL, source, old, now });
	return NP_DECIDE(m, SI_2, np_status(NP_STATUS_SUCCESS));
}

np_result np_query_interval_profile_within(np_machine *m, uint32_t source, uint64_t interval_ptr)
{
	if (m->halted)                                          /* IN-7: the system stopped */
		return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
	if (!np_has_source_argument(m->version) && source != NP_PROFILE_TIME)
		return NP_DECIDE(m, QI_0, np_not_applicable(no_source_argument));

	/* QI-1, QI-2: the user-mode probe of Interval, alignment per K-QI-ALIGN */
	unsigned align = m->knobs.qi_align == NP_QI_ALIGN_CHECKED ? 4 : 1;
	uint32_t probe = np_probe_for_write(m, interval_ptr, sizeof(uint32_t), align);
	if (probe != NP_STATUS_SUCCESS)
		return NP_DECIDE_R(m, probe == NP_STATUS_DATATYPE_MISALIGNMENT ? NP_RULE(QI_2) : NP_RULE(QI_1), np_status(probe));

	uint32_t value = np_kernel_query_interval(m, source);
	if (!np_mem_write(m, interval_ptr, &value, sizeof value) &&
	    m->knobs.qi_write_fault == NP_QI_FAULT_EXCEPTION)
		return NP_DECIDE(m, QI_3, np_status(NP_STATUS_ACCESS_VIOLATION));    /* QI-3, K-QI-WRITE-FAULT */
	return NP_DECIDE(m, QI_3, np_status(NP_STATUS_SUCCESS));
}

np_result np_nt_set_interval_profile(np_machine *m, uint32_t interval, uint32_t source)
{
	np_trail_clear(m);
	return np_set_interval_profile_within(m, interval, source);
}

np_result np_nt_query_interval_profile(np_machine *m, uint32_t source, uint64_t interval_ptr)
{
	np_trail_clear(m);
	return np_query_interval_profile_within(m, source, interval_ptr);
}
