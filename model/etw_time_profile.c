/* The kernel side of ETW's time-profile interval: NtSetSystemInformation /
 * NtQuerySystemInformation class SystemPerformanceTraceInformation (0x1F),
 * sub-class EventTraceTimeProfileInformation (0x03) (TR-4, TR-5). */
#include "etw_time_profile.h"

/* TR-5: setting it from user mode needs SeSystemProfilePrivilege
 * (K-ETW-TIME-PRIV). TR-4: with K-ETW-TIME=shared it is the kernel's
 * ProfileTime interval, set without the NtSetIntervalProfile event. */
uint32_t np_etw_time_profile_set(np_machine *m, uint32_t interval)
{
	if (m->knobs.etw_time_priv == NP_ETW_PRIV_REQUIRED &&
	    m->previous_mode == NP_MODE_USER && !m->profile_privilege)
		return NP_STATUS_PRIVILEGE_NOT_HELD;
	if (m->knobs.etw_time == NP_ETW_TIME_SHARED) {
		np_kernel_set_interval(m, interval, NP_PROFILE_TIME);
	} else {
		m->etw_time_interval = interval;
		m->etw_time_interval_set = true;
	}
	return NP_STATUS_SUCCESS;
}

/* TR-4: the query needs no privilege. A separate variable that was never set
 * reads as the HAL's ProfileTime default. */
uint32_t np_etw_time_profile_query(const np_machine *m)
{
	if (m->knobs.etw_time == NP_ETW_TIME_SHARED)
		return np_kernel_query_interval(m, NP_PROFILE_TIME);
	return m->etw_time_interval_set ? m->etw_time_interval
					: m->hal.source[NP_PROFILE_TIME].def;
}
