/* SPDX-License-Identifier: MIT */
/* SystemPerformanceTraceInformation (0x1F): the EVENT_TRACE_INFORMATION_CLASS
 * in the buffer's first dword picks the behaviour (SPEC.md SY-20..SY-22). */
#include "sysinfo.h"

#include "ntprof/version_predicates.h"

static const char unmodelled_subclass[] =
	"only EVENT_TRACE_INFORMATION_CLASS 0x03 and 0x0D are modelled, and 0x0B up to its refusals (SY-22)";

#define NEVER NP_VERSION_COUNT

/* SY-22: the sub-classes each version accepts, for a query and for a set
 * (GC-ETIC). Any value not accepted gets STATUS_NOT_IMPLEMENTED. */
static const struct {
	uint32_t subclass;
	np_ver query_from, set_from;
} accepted[] = {
	{ 0x00, NP_V6_0, NEVER },     /* EventTraceKernelVersionInformation */
	{ 0x01, NP_V6_0, NP_V6_2 },   /* EventTraceGroupMaskInformation: set from 6.2 */
	{ 0x02, NP_V6_0, NEVER },     /* EventTracePerformanceInformation */
	{ 0x03, NP_V6_0, NP_V6_0 },   /* EventTraceTimeProfileInformation (SY-23) */
	{ 0x04, NP_V6_0, NEVER },     /* EventTraceSessionSecurityInformation */
	/* 0x05 (EventTraceSpinlockInformation): special_case() below (SY-22a) */
	{ 0x06, NP_V6_1, NP_V6_1 },   /* EventTraceStackTracingInformation */
	{ 0x07, NP_V6_1, NP_V6_1 },   /* EventTraceExecutiveResourceInformation */
	{ 0x08, NP_V6_1, NEVER },     /* EventTraceHeapTracingInformation */
	{ 0x09, NP_V6_1, NEVER },     /* EventTraceHeapSummaryTracingInformation */
	{ 0x0A, NP_V6_1, NP_V6_1 },   /* EventTracePoolTagFilterInformation */
	{ 0x0B, NEVER, NP_V6_2 },     /* EventTracePebsTracingInformation */
	{ 0x0C, NEVER, NP_V6_2 },     /* EventTraceProfileConfigInformation */
	{ 0x0D, NP_V6_2, NEVER },     /* EventTraceProfileSourceListInformation (SY-24) */
	{ 0x0E, NEVER, NP_V6_2 },     /* EventTraceProfileEventListInformation */
	{ 0x0F, NEVER, NP_V6_2 },     /* EventTraceProfileCounterListInformation */
	{ 0x10, NEVER, NP_V6_2 },     /* EventTraceStackCachingInformation */
	{ 0x11, NEVER, NP_V6_2 },     /* EventTraceObjectTypeFilterInformation */
	{ 0x12, NP_V1607, NP_V1607 }, /* EventTraceSoftRestartInformation */
	{ 0x13, NEVER, NP_V1709 },    /* EventTraceLastBranchConfigurationInformation */
	{ 0x14, NEVER, NP_V1709 },    /* EventTraceLastBranchEventListInformation */
	{ 0x15, NEVER, NP_V1803 },    /* EventTraceProfileSourceAddInformation */
	{ 0x16, NEVER, NP_V1803 },    /* EventTraceProfileSourceRemoveInformation */
	{ 0x17, NEVER, NP_V1803 },    /* EventTraceProcessorTraceConfigurationInformation */
	{ 0x18, NEVER, NP_V1803 },    /* EventTraceProcessorTraceEventListInformation */
	{ 0x19, NP_V1803, NP_V1803 }, /* EventTraceCoverageSamplerInformation */
	/* 0x1A and 0x1B: special_case() below (SY-22b) */
};

/* SY-22a, SY-22b: what the table alone cannot say: 0x05 depends on the
 * architecture, and 0x1A and 0x1B are dated by phnt's release names. */
static bool special_case(np_machine *m, uint32_t subclass, bool query, bool *accepted_out)
{
	switch (subclass) {
	case NP_EVENT_TRACE_SPINLOCK_INFORMATION:   /* both functions */
		NP_APPLY(m, SY_22a);
		*accepted_out = np_kernel_traces_spinlocks(m->version, m->arch);
		return true;
	case NP_EVENT_TRACE_UNIFIED_STACK_CACHING_INFORMATION:
		NP_APPLY(m, SY_22b);
		*accepted_out = !query && np_has_unified_stack_caching(m->version);
		return true;
	case NP_EVENT_TRACE_CONTEXT_REGISTER_INFORMATION:
		NP_APPLY(m, SY_22b);
		*accepted_out = !query && np_has_context_register_tracing(m->version);
		return true;
	default:
		return false;
	}
}

/* Whether the version accepts the sub-class, and by which rule: SY-22's
 * table or a refinement of it. */
static bool subclass_accepted(np_machine *m, uint32_t subclass, bool query, np_rule *by)
{
	bool special;
	*by = NP_RULE(SY_22);
	if (special_case(m, subclass, query, &special)) {
		*by = np_trail_last(m, *by);
		return special;
	}
	NP_APPLY(m, SY_22);
	for (size_t i = 0; i < sizeof accepted / sizeof *accepted; i++)
		if (accepted[i].subclass == subclass)
			return m->version >= (query ? accepted[i].query_from : accepted[i].set_from);
	return false;
}

np_result np_performance_trace(const np_sysinfo *rq)
{
	/* SY-21: the sub-class is the first dword; a buffer too small to hold it
	 * is an invalid parameter */
	if (rq->length < sizeof(uint32_t))
		return NP_DECIDE(rq->m, SY_21, np_status(NP_STATUS_INVALID_PARAMETER));
	uint32_t subclass;
	if (!np_sysinfo_read(rq, 0, &subclass, sizeof subclass))
		return np_sysinfo_fault(rq->m);                          /* SY-5 */
	np_rule by;
	if (!subclass_accepted(rq->m, subclass, rq->query, &by))
		return NP_DECIDE_R(rq->m, by, np_status(NP_STATUS_NOT_IMPLEMENTED));
	switch (subclass) {
	case NP_EVENT_TRACE_TIME_PROFILE_INFORMATION:
		return np_etw_time_profile(rq);                           /* SY-23 */
	case NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION:
		return np_etw_profile_source_list(rq);                    /* SY-24 */
	case NP_EVENT_TRACE_PEBS_TRACING_INFORMATION:
		return np_etw_pebs_tracing(rq);                           /* SY-22c */
	default:
		return NP_DECIDE(rq->m, SY_22, np_not_applicable(unmodelled_subclass));
	}
}
