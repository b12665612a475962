/* SPDX-License-Identifier: MIT */
/* Class SystemPerformanceTraceInformation (0x1F), sub-class
 * EventTracePebsTracingInformation (0x0B), set only: the refusals the kernel
 * makes before it configures PEBS tracing for a trace session (SY-22c).
 * What it configures is outside the model. */
#include "sysinfo.h"

/* EVENT_TRACE_SYSTEM_EVENT_INFORMATION up to its HookId array: the class, 4
 * bytes of padding and a 64-bit TraceHandle, on every architecture. */
#define SYSTEM_EVENT_HEADER  0x10u
#define PEBS_HOOK_ID         0x524u

static const char configures_session[] =
	"past its refusals sub-class 0x0B configures PEBS tracing for a trace session, which is outside the model (SY-22c)";

np_result np_etw_pebs_tracing(const np_sysinfo *rq)
{
	/* SY-22c: at least the header, then no HookId or exactly one, and that
	 * one must be the PEBS event's */
	if (rq->length < SYSTEM_EVENT_HEADER)
		return NP_DECIDE(rq->m, SY_22c, np_status(NP_STATUS_INFO_LENGTH_MISMATCH));
	uint32_t excess = rq->length - SYSTEM_EVENT_HEADER;
	if (excess != 0 && excess != sizeof(uint32_t))
		return NP_DECIDE(rq->m, SY_22c, np_status(NP_STATUS_INVALID_PARAMETER));
	if (excess != 0) {
		uint32_t hook;
		if (!np_sysinfo_read(rq, SYSTEM_EVENT_HEADER, &hook, sizeof hook))
			return np_sysinfo_fault(rq->m);                  /* SY-5 */
		if (hook != PEBS_HOOK_ID)
			return NP_DECIDE(rq->m, SY_22c, np_status(NP_STATUS_INVALID_PARAMETER));
	}
	/* SY-22c: a user-mode request needs SeSystemProfilePrivilege */
	if (rq->m->previous_mode == NP_MODE_USER && !rq->m->profile_privilege)
		return NP_DECIDE(rq->m, SY_22c, np_status(NP_STATUS_PRIVILEGE_NOT_HELD));
	return NP_DECIDE(rq->m, SY_22c, np_not_applicable(configures_session));
}
