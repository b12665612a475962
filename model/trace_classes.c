/* SPDX-License-Identifier: MIT */
/* The class dispatch of TraceSetInformation and TraceQueryInformation
 * (SPEC.md TR-11, TR-12) and what the model knows of the classes other than
 * 5 and 7: the refusals the wrappers make before they reach the kernel
 * (TR-13 to TR-17). What such a class does once its refusals pass is outside
 * the model (TR-18). */
#include "trace_classes.h"

#include "ntprof/version_predicates.h"

#define CLASSIC_EVENT_ID_SIZE     0x18u   /* GUID, Type, Reserved[7] */
#define STACK_TRACING_EVENTS_MAX  256u
#define PMC_EVENTS_MAX            4u
#define GROUP_MASKS_MAX           8u      /* a PERFINFO_GROUPMASK */
#define PROFILE_SOURCES_MAX       4u
#define PERFINFO_GROUPMASK_SIZE   0x20u
#define TRACE_VERSION_INFO_SIZE   8u
#define TRACE_PROCESSING_VERSION  1u

static const char past_refusals[] =
	"past its refusals this class configures or reads a trace session through the kernel, which is outside the model (TR-18)";
static const char trace_control[] =
	"this class goes to NtTraceControl, which is outside the model (TR-18)";
static const char caller_fault[] =
	"the caller's buffer must be writable: a bad buffer faults in the caller, which the model does not simulate";

typedef struct {
	uint32_t info_class;
	bool (*handled_from)(np_ver);
} class_entry;

/* TR-11 (GC-TSI's table of classes). */
static const class_entry set_classes[] = {
	/* class 3 wherever the function exists (TR-0) */
	{ NP_TRACE_STACK_TRACING_INFO,             np_has_trace_set_information },
	{ NP_TRACE_SYSTEM_TRACE_ENABLE_FLAGS_INFO, np_trace_handles_profile_classes },
	{ NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO,  np_trace_handles_profile_classes },
	{ NP_TRACE_PROFILE_SOURCE_CONFIG_INFO,     np_trace_handles_profile_classes },
	{ NP_TRACE_PMC_EVENT_LIST_INFO,            np_trace_handles_profile_classes },
	{ NP_TRACE_PMC_COUNTER_LIST_INFO,          np_trace_handles_profile_classes },
	{ NP_TRACE_SET_DISALLOW_LIST,              np_trace_handles_windows10_classes },
};

/* TR-12 (GC-TQI's table of classes). */
static const class_entry query_classes[] = {
	{ NP_TRACE_SYSTEM_TRACE_ENABLE_FLAGS_INFO, np_trace_handles_profile_classes },
	{ NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO,  np_trace_handles_profile_classes },
	{ NP_TRACE_PROFILE_SOURCE_LIST_INFO,       np_trace_handles_profile_classes },
	{ NP_TRACE_VERSION_INFO,                   np_trace_handles_windows10_classes },
	{ NP_TRACE_DISALLOW_LIST_QUERY,            np_trace_handles_windows10_classes },
};

#define COUNT(t) (sizeof (t) / sizeof *(t))

/* Each table indexed as itself, not through a pointer: a bound one too far
 * is then an out-of-bounds index that UBSan reports (make mutants). */
static bool set_handles(np_ver v, uint32_t info_class)
{
	for (size_t i = 0; i < COUNT(set_classes); i++)
		if (set_classes[i].info_class == info_class)
			return set_classes[i].handled_from(v);
	return false;
}

static bool query_handles(np_ver v, uint32_t info_class)
{
	for (size_t i = 0; i < COUNT(query_classes); i++)
		if (query_classes[i].info_class == info_class)
			return query_classes[i].handled_from(v);
	return false;
}

const np_result *np_trace_class_gate(np_machine *m, uint32_t info_class, bool is_set,
				     np_result *out)
{
	bool ok = is_set ? set_handles(m->version, info_class) : query_handles(m->version, info_class);
	if (ok)
		return NULL;
	bool profile_class = info_class == NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO ||
			     info_class == NP_TRACE_PROFILE_SOURCE_LIST_INFO;
	*out = NP_DECIDE_R(m, profile_class ? NP_RULE(TR_1) : is_set ? NP_RULE(TR_11) : NP_RULE(TR_12),
			   np_win32(NP_ERROR_NOT_SUPPORTED));
	return out;
}

/* ---- TraceSetInformation ---- */

/* TR-13: an array of at most max CLASSIC_EVENT_ID structures; an empty one
 * must come with a NULL address. */
static np_result event_id_array(np_machine *m, uint64_t buffer, uint32_t length, uint32_t max)
{
	if (length % CLASSIC_EVENT_ID_SIZE != 0 || length / CLASSIC_EVENT_ID_SIZE > max)
		return NP_DECIDE(m, TR_13, np_win32(NP_ERROR_INCORRECT_SIZE));
	if (length == 0 && buffer != 0)
		return NP_DECIDE(m, TR_13, np_win32(NP_ERROR_INVALID_PARAMETER));
	return NP_DECIDE(m, TR_18, np_not_applicable(past_refusals));
}

/* TR-14: at most eight 32-bit group masks. */
static np_result group_masks(np_machine *m, uint32_t length)
{
	if (length % 4u != 0 || length / 4u > GROUP_MASKS_MAX)
		return NP_DECIDE(m, TR_14, np_win32(NP_ERROR_INVALID_PARAMETER));
	return NP_DECIDE(m, TR_18, np_not_applicable(past_refusals));
}

/* TR-15: one to four 32-bit profile sources; the size test comes first. */
static np_result profile_source_array(np_machine *m, uint64_t buffer, uint32_t length)
{
	if (length % 4u != 0 || length / 4u > PROFILE_SOURCES_MAX)
		return NP_DECIDE(m, TR_15, np_win32(NP_ERROR_INCORRECT_SIZE));
	if (length == 0 || buffer == 0)
		return NP_DECIDE(m, TR_15, np_win32(NP_ERROR_INVALID_PARAMETER));
	return NP_DECIDE(m, TR_18, np_not_applicable(past_refusals));
}

np_result np_trace_set_other(np_machine *m, uint32_t info_class, uint64_t buffer, uint32_t length)
{
	(void)m;
	switch (info_class) {
	case NP_TRACE_STACK_TRACING_INFO:
		return event_id_array(m, buffer, length, STACK_TRACING_EVENTS_MAX);
	case NP_TRACE_PMC_EVENT_LIST_INFO:
		return event_id_array(m, buffer, length, PMC_EVENTS_MAX);
	case NP_TRACE_SYSTEM_TRACE_ENABLE_FLAGS_INFO:
		return group_masks(m, length);
	case NP_TRACE_PROFILE_SOURCE_CONFIG_INFO:
	case NP_TRACE_PMC_COUNTER_LIST_INFO:
		return profile_source_array(m, buffer, length);
	default:
		return NP_DECIDE(m, TR_18, np_not_applicable(trace_control));            /* TR-18: 0x0A */
	}
}

/* ---- TraceQueryInformation ---- */

/* TR-16, TR-17: the return length is set to the structure's size before the
 * length test, even when the test fails with K-TQI-RETLEN=always (as TR-3). */
static bool set_return_length(np_machine *m, uint64_t return_length, uint32_t size, bool fits)
{
	if (return_length == 0 || (!fits && m->knobs.tqi_retlen != NP_RETLEN_ALWAYS))
		return true;
	return np_mem_write(m, return_length, &size, sizeof size);
}

/* TR-16: class 4 wants room for a whole PERFINFO_GROUPMASK. */
static np_result enable_flags(np_machine *m, uint32_t length, uint64_t return_length)
{
	bool fits = length >= PERFINFO_GROUPMASK_SIZE;
	if (!set_return_length(m, return_length, PERFINFO_GROUPMASK_SIZE, fits))
		return NP_DECIDE(m, TR_16, np_not_applicable(caller_fault));
	if (!fits)
		return NP_DECIDE(m, TR_16, np_win32(NP_ERROR_BAD_LENGTH));
	return NP_DECIDE(m, TR_18, np_not_applicable(past_refusals));
}

/* TR-17: class 0x0B is answered by the wrapper itself. */
static np_result version_info(np_machine *m, uint64_t session, uint64_t buffer, uint32_t length,
			      uint64_t return_length)
{
	if (session != 0)
		return NP_DECIDE(m, TR_17, np_win32(NP_ERROR_INVALID_PARAMETER));
	bool fits = length == TRACE_VERSION_INFO_SIZE;
	if (!set_return_length(m, return_length, TRACE_VERSION_INFO_SIZE, fits))
		return NP_DECIDE(m, TR_17, np_not_applicable(caller_fault));
	if (!fits)
		return NP_DECIDE(m, TR_17, np_win32(NP_ERROR_BAD_LENGTH));
	uint32_t version = TRACE_PROCESSING_VERSION;   /* Reserved, at 4, is left alone */
	if (!np_mem_write(m, buffer, &version, sizeof version))
		return NP_DECIDE(m, TR_17, np_not_applicable(caller_fault));
	return NP_DECIDE(m, TR_17, np_win32(NP_ERROR_SUCCESS));
}

np_result np_trace_query_other(np_machine *m, uint64_t session, uint32_t info_class, uint64_t buffer,
			       uint32_t length, uint64_t return_length)
{
	switch (info_class) {
	case NP_TRACE_SYSTEM_TRACE_ENABLE_FLAGS_INFO:
		return enable_flags(m, length, return_length);
	case NP_TRACE_VERSION_INFO:
		return version_info(m, session, buffer, length, return_length);
	default:
		return NP_DECIDE(m, TR_18, np_not_applicable(trace_control));            /* TR-18: 0x0E */
	}
}
