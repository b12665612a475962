/* SPDX-License-Identifier: MIT */
/* NtSetSystemInformation and NtQuerySystemInformation as far as profiling
 * needs them (SPEC.md §SY): availability, the general user-mode defences that
 * run before any class is looked at, the class gate, and the access rules
 * the class handlers share. */
#include "sysinfo.h"

static const char other_class[] =
	"only information classes 0x1F and 0x81 are modelled (SY-4)";

/* SY-4: every other class has defences and rules of its own that the model
 * does not know (some need other alignments), so it is not applicable. */
static bool modelled(uint32_t info_class)
{
	return info_class == NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION ||
	       info_class == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA;
}

np_result np_sysinfo_fault(np_machine *m)
{
	/* SY-5: a user-mode request gets the exception code as its status; for
	 * a kernel-mode request the exception goes on as if unhandled. */
	if (m->previous_mode == NP_MODE_USER)
		return NP_DECIDE(m, SY_5, np_status(NP_STATUS_ACCESS_VIOLATION));
	return NP_DECIDE(m, SY_5, np_fault(NP_STATUS_ACCESS_VIOLATION));
}

bool np_sysinfo_read(const np_sysinfo *rq, uint32_t offset, void *out, size_t n)
{
	return np_mem_read(rq->m, rq->buffer + offset, out, n);
}

bool np_sysinfo_write(const np_sysinfo *rq, uint32_t offset, const void *in, size_t n)
{
	return np_mem_write(rq->m, rq->buffer + offset, in, n);
}

bool np_sysinfo_set_return_length(const np_sysinfo *rq, uint32_t n)
{
	return rq->return_length == 0 || np_mem_write(rq->m, rq->return_length, &n, sizeof n);
}

np_result np_set_system_information_within(np_machine *m, uint32_t info_class, uint64_t buffer,
				       uint32_t length)
{
	if (!np_has_set_system_information(m->version))
		return NP_DECIDE(m, SY_0, np_not_exported());
	if (!modelled(info_class))
		return NP_DECIDE(m, SY_4, np_not_applicable(other_class));
	/* SY-1, SY-2: a buffer is given when the length is not 0 */
	if (length != 0) {
		uint32_t probe = np_probe_for_read(m, buffer, length, 4);
		if (probe != NP_STATUS_SUCCESS)
			return NP_DECIDE_R(m, probe == NP_STATUS_DATATYPE_MISALIGNMENT ? NP_RULE(SY_1) : NP_RULE(SY_2), np_status(probe));
	}
	np_sysinfo rq = { m, buffer, length, 0, false };
	if (info_class == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA) {
		if (!np_has_processor_profile_control_area(m->version))
			return NP_DECIDE(m, SY_6, np_status(NP_STATUS_INVALID_INFO_CLASS));
		return np_processor_profile_control_area(&rq);
	}
	if (!np_has_performance_trace_information(m->version))
		return NP_DECIDE(m, SY_20, np_status(NP_STATUS_INVALID_INFO_CLASS));
	return np_performance_trace(&rq);
}

np_result np_query_system_information_within(np_machine *m, uint32_t info_class, uint64_t buffer,
					 uint32_t length, uint64_t return_length)
{
	/* SY-0: exported in every version */
	if (!modelled(info_class))
		return NP_DECIDE(m, SY_4, np_not_applicable(other_class));
	/* SY-1, SY-2: the buffer is probed for writing when the length is not 0 */
	if (length != 0) {
		uint32_t probe = np_probe_for_write(m, buffer, length, 4);
		if (probe != NP_STATUS_SUCCESS)
			return NP_DECIDE_R(m, probe == NP_STATUS_DATATYPE_MISALIGNMENT ? NP_RULE(SY_1) : NP_RULE(SY_2), np_status(probe));
	}
	/* SY-3: ReturnLength, after the buffer, with no alignment test */
	if (return_length != 0) {
		uint32_t probe = np_probe_for_write(m, return_length, sizeof(uint32_t), 1);
		if (probe != NP_STATUS_SUCCESS)
			return NP_DECIDE(m, SY_3, np_status(probe));
	}
	if (info_class == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA)
		return NP_DECIDE(m, SY_6, np_status(NP_STATUS_INVALID_INFO_CLASS));           /* SY-6: set only */
	if (!np_has_performance_trace_information(m->version))       /* SY-20 */
		return NP_DECIDE(m, SY_20, np_status(np_has_event_ids_information(m->version) ? NP_STATUS_NOT_IMPLEMENTED
									  : NP_STATUS_INVALID_INFO_CLASS));
	np_sysinfo rq = { m, buffer, length, return_length, true };
	return np_performance_trace(&rq);
}

np_result np_nt_set_system_information(np_machine *m, uint32_t info_class, uint64_t buffer,
				       uint32_t length)
{
	np_trail_clear(m);
	return np_set_system_information_within(m, info_class, buffer, length);
}

np_result np_nt_query_system_information(np_machine *m, uint32_t info_class, uint64_t buffer,
					 uint32_t length, uint64_t return_length)
{
	np_trail_clear(m);
	return np_query_system_information_within(m, info_class, buffer, length, return_length);
}
