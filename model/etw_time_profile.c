/* SPDX-License-Identifier: MIT */
/* The kernel side of ETW's time-profile interval: class
 * SystemPerformanceTraceInformation (0x1F), sub-class
 * EventTraceTimeProfileInformation (0x03) (SY-23, TR-4, TR-5). */
#include "sysinfo.h"

/* TR-4: with K-ETW-TIME=shared the value is the kernel's ProfileTime
 * interval; a separate variable that was never set reads as the HAL's
 * ProfileTime default. */
static uint32_t current_interval(np_machine *m)
{
	if (m->knobs.etw_time == NP_ETW_TIME_SHARED)
		return np_kernel_query_interval(m, NP_PROFILE_TIME);
	return m->etw_time_interval_set ? m->etw_time_interval : m->hal.source[NP_PROFILE_TIME].def;
}

static np_result query(const np_sysinfo *rq)
{
	/* SY-23: ProfileInterval at offset 4; no privilege is needed (TR-4) */
	uint32_t interval = current_interval(rq->m);
	if (!np_sysinfo_write(rq, 4, &interval, sizeof interval) ||
	    !np_sysinfo_set_return_length(rq, NP_EVENT_TRACE_TIME_PROFILE_SIZE))
		return np_sysinfo_fault(rq->m);                          /* SY-5 */
	return NP_DECIDE(rq->m, SY_23, np_status(NP_STATUS_SUCCESS));
}

static np_result set(const np_sysinfo *rq)
{
	np_machine *m = rq->m;
	uint32_t interval;
	if (!np_sysinfo_read(rq, 4, &interval, sizeof interval))
		return np_sysinfo_fault(m);                              /* SY-5 */
	/* TR-5: a user-mode set needs SeSystemProfilePrivilege (K-ETW-TIME-PRIV) */
	if (m->knobs.etw_time_priv == NP_ETW_PRIV_REQUIRED &&
	    m->previous_mode == NP_MODE_USER && !m->profile_privilege)
		return NP_DECIDE(m, TR_5, np_status(NP_STATUS_PRIVILEGE_NOT_HELD));
	/* TR-4: shared, it is the kernel's ProfileTime set (SI-5, SI-4), with
	 * no NtSetIntervalProfile event */
	if (m->knobs.etw_time == NP_ETW_TIME_SHARED) {
		np_kernel_set_interval(m, interval, NP_PROFILE_TIME);
	} else {
		m->etw_time_interval = interval;
		m->etw_time_interval_set = true;
	}
	return NP_DECIDE(m, TR_4, np_status(NP_STATUS_SUCCESS));
}

np_result np_etw_time_profile(const np_sysinfo *rq)
{
	/* SY-23: exactly an EVENT_TRACE_TIME_PROFILE_INFORMATION; a query's
	 * ReturnLength gets its size even when the length is wrong */
	if (rq->length != NP_EVENT_TRACE_TIME_PROFILE_SIZE) {
		if (!np_sysinfo_set_return_length(rq, NP_EVENT_TRACE_TIME_PROFILE_SIZE))
			return np_sysinfo_fault(rq->m);                  /* SY-5 */
		return NP_DECIDE(rq->m, SY_23, np_status(NP_STATUS_INFO_LENGTH_MISMATCH));
	}
	return rq->query ? query(rq) : set(rq);
}
