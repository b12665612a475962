/* SPDX-License-Identifier: MIT */
/* The explorer's rule tables: SPEC.md "Order of checks" as the rules
 * behind each outcome of a function, the sections a function's vectors can
 * prove, and the version thresholds of ntprof/version_predicates.h with the
 * rules they state. The boundary values themselves are in
 * harness/explore/explore_table.c. */
#include <string.h>

#include "explore/explore_rules.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"

/* ---- SPEC.md "Order of checks": the rules behind each outcome ---- */

#define ANY_CODE 0xFFFFFFFFu
#define FN(id) (1u << (id))
#define CREATE (FN(NP_FN_CREATE_PROFILE) | FN(NP_FN_CREATE_PROFILE_EX))
#define SYSINFO (FN(NP_FN_SET_SYSINFO) | FN(NP_FN_QUERY_SYSINFO))
#define TRACE (FN(NP_FN_TRACE_SET) | FN(NP_FN_TRACE_QUERY))

typedef struct outcome_rules {
	unsigned functions;
	np_result_kind kind;
	uint32_t code;        /* ANY_CODE: every code of that kind */
	const char *rules;
} outcome_rules;

static const outcome_rules outcome_table[] = {
	/* NtSetIntervalProfile */
	{ FN(NP_FN_SET_INTERVAL), NP_RESULT_NOT_EXPORTED, 0, "SI-0" },
	{ FN(NP_FN_SET_INTERVAL), NP_RESULT_NOT_APPLICABLE, 0, "SI-0" },
	{ FN(NP_FN_SET_INTERVAL), NP_RESULT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD, "SI-1" },
	{ FN(NP_FN_SET_INTERVAL), NP_RESULT_STATUS, NP_STATUS_SUCCESS, "SI-2" },
	/* NtQueryIntervalProfile */
	{ FN(NP_FN_QUERY_INTERVAL), NP_RESULT_NOT_EXPORTED, 0, "QI-0" },
	{ FN(NP_FN_QUERY_INTERVAL), NP_RESULT_NOT_APPLICABLE, 0, "QI-0" },
	{ FN(NP_FN_QUERY_INTERVAL), NP_RESULT_STATUS, NP_STATUS_DATATYPE_MISALIGNMENT, "QI-2" },
	{ FN(NP_FN_QUERY_INTERVAL), NP_RESULT_STATUS, NP_STATUS_ACCESS_VIOLATION, "QI-1 QI-3" },
	{ FN(NP_FN_QUERY_INTERVAL), NP_RESULT_STATUS, NP_STATUS_SUCCESS, "QI-3 QI-4 QI-5" },
	/* TraceSetInformation, TraceQueryInformation */
	{ TRACE, NP_RESULT_NOT_EXPORTED, 0, "TR-0" },
	{ TRACE, NP_RESULT_NOT_APPLICABLE, 0, "TR-10 TR-18" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_NOT_SUPPORTED, "TR-1 TR-11 TR-12" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_INVALID_PARAMETER, "TR-2 TR-13 TR-14 TR-15 TR-17" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_BAD_LENGTH, "TR-3 TR-7 TR-16 TR-17" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_INCORRECT_SIZE, "TR-13 TR-15" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_MORE_DATA, "TR-7" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_OUTOFMEMORY, "TR-8" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_PRIVILEGE_NOT_HELD, "TR-5 TR-6 TR-9" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_NOACCESS, "TR-6 TR-9" },
	{ TRACE, NP_RESULT_WIN32, NP_ERROR_SUCCESS, "TR-4 TR-6 TR-7 TR-17" },
	{ TRACE, NP_RESULT_WIN32, ANY_CODE, "TR-9" },
	/* NtCreateProfile, NtCreateProfileEx */
	{ CREATE, NP_RESULT_NOT_EXPORTED, 0, "CP-0" },
	{ CREATE, NP_RESULT_NOT_APPLICABLE, 0, "CP-0" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_INVALID_PARAMETER_7, "CP-2 CP-4" },
	{ CREATE, NP_RESULT_FAULT, ANY_CODE, "CP-5" },
	{ CREATE, NP_RESULT_BUGCHECK, ANY_CODE, "CP-5" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_INVALID_PARAMETER, "CP-6 CP-7 CP-15 CP-16 CP-17 CP-20" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_BUFFER_TOO_SMALL, "CP-8 CP-9" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_BUFFER_OVERFLOW, "CP-10" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_NOT_SUPPORTED, "CP-11" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_ACCESS_VIOLATION, "CP-12 CP-13 CP-14" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_DATATYPE_MISALIGNMENT, "CP-13 CP-14" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_INVALID_HANDLE, "CP-19" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_OBJECT_TYPE_MISMATCH, "CP-19" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_ACCESS_DENIED, "CP-19 CP-22" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD, "CP-21" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_INSUFFICIENT_RESOURCES, "CP-23" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_QUOTA_EXCEEDED, "CP-23" },
	{ CREATE, NP_RESULT_STATUS, NP_STATUS_SUCCESS, "CP-23 CP-24" },
	/* NtStartProfile */
	{ FN(NP_FN_START_PROFILE), NP_RESULT_NOT_EXPORTED, 0, "ST-0" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_INVALID_HANDLE, "ST-1" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_OBJECT_TYPE_MISMATCH, "ST-1" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_ACCESS_DENIED, "ST-1" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_PROFILING_NOT_STOPPED, "ST-2" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_PROFILING_AT_LIMIT, "ST-3" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_INSUFFICIENT_RESOURCES, "ST-4 ST-5" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_ACCESS_VIOLATION, "ST-5" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_WORKING_SET_QUOTA, "ST-5" },
	{ FN(NP_FN_START_PROFILE), NP_RESULT_STATUS, NP_STATUS_SUCCESS, "ST-6 ST-7" },
	/* NtStopProfile */
	{ FN(NP_FN_STOP_PROFILE), NP_RESULT_NOT_EXPORTED, 0, "SP-0" },
	{ FN(NP_FN_STOP_PROFILE), NP_RESULT_STATUS, NP_STATUS_INVALID_HANDLE, "SP-1" },
	{ FN(NP_FN_STOP_PROFILE), NP_RESULT_STATUS, NP_STATUS_OBJECT_TYPE_MISMATCH, "SP-1" },
	{ FN(NP_FN_STOP_PROFILE), NP_RESULT_STATUS, NP_STATUS_ACCESS_DENIED, "SP-1" },
	{ FN(NP_FN_STOP_PROFILE), NP_RESULT_STATUS, NP_STATUS_PROFILING_NOT_STARTED, "SP-2" },
	{ FN(NP_FN_STOP_PROFILE), NP_RESULT_STATUS, NP_STATUS_SUCCESS, "SP-3" },
	/* NtSetSystemInformation, NtQuerySystemInformation */
	{ SYSINFO, NP_RESULT_NOT_EXPORTED, 0, "SY-0" },
	{ SYSINFO, NP_RESULT_NOT_APPLICABLE, 0, "SY-4 SY-22" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_DATATYPE_MISALIGNMENT, "SY-1" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_ACCESS_VIOLATION, "SY-2 SY-3 SY-5" },
	{ SYSINFO, NP_RESULT_FAULT, ANY_CODE, "SY-5" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_INVALID_INFO_CLASS, "SY-6 SY-20" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_ACCESS_DENIED, "SY-7" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_INFO_LENGTH_MISMATCH, "SY-8 SY-23 SY-24" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_INVALID_PARAMETER, "SY-8 SY-21" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_INSUFFICIENT_RESOURCES, "SY-10" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_NOT_SUPPORTED, "SY-11 SY-14" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_ADDRESS_ALREADY_EXISTS, "SY-12" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_MEMORY_NOT_ALLOCATED, "SY-14" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_NOT_IMPLEMENTED, "SY-20 SY-22" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD, "SY-23 TR-5" },
	{ SYSINFO, NP_RESULT_STATUS, NP_STATUS_SUCCESS, "SY-13 SY-14 SY-23 SY-24" },
};

/* The signature rule of each function: what a step no table row names falls back to. */
static const char *signature_rule(np_function_id id)
{
	switch (id) {
	case NP_FN_SET_INTERVAL:      return "SI-0";
	case NP_FN_QUERY_INTERVAL:    return "QI-0";
	case NP_FN_TRACE_SET:
	case NP_FN_TRACE_QUERY:       return "TR-0";
	case NP_FN_START_PROFILE:     return "ST-0";
	case NP_FN_STOP_PROFILE:      return "SP-0";
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:     return "SY-0";
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX:
	default:                      return "CP-0";
	}
}

const char *np_xoutcome_rules(const np_function *f, const np_outcome *o)
{
	for (size_t i = 0; i < sizeof outcome_table / sizeof *outcome_table; i++) {
		const outcome_rules *r = &outcome_table[i];
		if ((r->functions & FN(f->id)) && r->kind == o->kind &&
		    (r->code == ANY_CODE || r->code == o->code))
			return r->rules;
	}
	return signature_rule(f->id);
}

bool np_xrule_fits(const np_function *f, const char *rule)
{
	static const char *const shared[] = { "VR", "MC", "AS", "KS", "HL" };
	const char *own;
	switch (f->id) {
	case NP_FN_SET_INTERVAL:   own = "SI"; break;
	case NP_FN_QUERY_INTERVAL: own = "QI"; break;
	case NP_FN_TRACE_SET:
	case NP_FN_TRACE_QUERY:    own = "TR SI QI SY"; break;
	case NP_FN_START_PROFILE:  own = "ST CP"; break;   /* the prelude creates the profile */
	case NP_FN_STOP_PROFILE:   own = "SP ST CP"; break;
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:  own = "SY TR"; break;   /* TR-5 guards a sub-class 3 set */
	default:                   own = "CP"; break;
	}
	size_t n = strcspn(rule, "-");
	if (n < 2 || n > 4 || rule[n] != '-')
		return false;
	for (size_t i = 0; i < sizeof shared / sizeof *shared; i++)
		if (strlen(shared[i]) == n && strncmp(shared[i], rule, n) == 0)
			return true;
	for (const char *c = own; *c;) {
		size_t m = strcspn(c, " ");
		if (m == n && strncmp(c, rule, n) == 0)
			return true;
		c += m;
		while (*c == ' ')
			c++;
	}
	return false;
}

/* ---- version thresholds: the predicates of ntprof/version_predicates.h ---- */

static bool source_argument(const np_machine *m) { return np_has_source_argument(m->version); }
static bool kernel_zw(const np_machine *m) { return np_kernel_exports_zw_profile(m->version); }
static bool sp4_fixes(const np_machine *m) { return np_has_sp4_profile_fixes(m->version); }
static bool group_affinity(const np_machine *m) { return np_has_group_affinity(m->version); }
static bool capacity_fixed(const np_machine *m) { return np_capacity_check_fixed(m); }
static bool create_source(const np_machine *m) { return np_create_checks_source(m->version); }
static bool restricted(const np_machine *m) { return np_checks_restricted_callers(m->version); }
static bool start_limit(const np_machine *m) { return np_has_started_profile_limit(m->version); }
static bool mdl_16bit(const np_machine *m) { return np_mdl_size_is_16bit(m->version); }
static bool mdl_4gb(const np_machine *m) { return np_mdl_reaches_4gb(m->version); }
static bool set_privilege(const np_machine *m) { return np_set_interval_checks_privilege(m->version); }
static bool trace_set(const np_machine *m) { return np_has_trace_set_information(m->version); }
static bool trace_query(const np_machine *m) { return np_has_trace_query_information(m->version); }
static bool trace_classes_ok(const np_machine *m) { return np_trace_handles_profile_classes(m->version); }
static bool set_sysinfo(const np_machine *m) { return np_has_set_system_information(m->version); }
static bool kernel_zw_query_sysinfo(const np_machine *m)
{
	return np_kernel_exports_zw_query_system_information(m->version);
}
static bool ppca(const np_machine *m) { return np_has_processor_profile_control_area(m->version); }
static bool perf_trace(const np_machine *m) { return np_has_performance_trace_information(m->version); }
static bool event_ids(const np_machine *m) { return np_has_event_ids_information(m->version); }

static const np_xpredicate predicates[] = {
	{ "np_has_source_argument", source_argument, "SI-0 QI-0 CP-0",
	  FN(NP_FN_SET_INTERVAL) | FN(NP_FN_QUERY_INTERVAL) | CREATE | TRACE },
	{ "np_kernel_exports_zw_profile", kernel_zw, "CP-0 ST-0 SP-0 SI-0",
	  CREATE | FN(NP_FN_START_PROFILE) | FN(NP_FN_STOP_PROFILE) | FN(NP_FN_SET_INTERVAL) },
	{ "np_has_sp4_profile_fixes", sp4_fixes, "CP-2 CP-4 CP-5 ST-6", CREATE | FN(NP_FN_START_PROFILE) },
	{ "np_has_group_affinity", group_affinity, "CP-0 CP-1 CP-15 CP-16 CP-17 CP-18",
	  CREATE | FN(NP_FN_START_PROFILE) | FN(NP_FN_STOP_PROFILE) },
	{ "np_capacity_check_fixed", capacity_fixed, "CP-8 CP-9", CREATE },
	{ "np_create_checks_source", create_source, "CP-11", CREATE },
	{ "np_checks_restricted_callers", restricted, "CP-22", CREATE },
	{ "np_has_started_profile_limit", start_limit, "ST-3", FN(NP_FN_START_PROFILE) },
	{ "np_mdl_size_is_16bit", mdl_16bit, "ST-5", FN(NP_FN_START_PROFILE) },
	{ "np_mdl_reaches_4gb", mdl_4gb, "ST-5", FN(NP_FN_START_PROFILE) },
	{ "np_set_interval_checks_privilege", set_privilege, "SI-1",
	  FN(NP_FN_SET_INTERVAL) | FN(NP_FN_TRACE_SET) },
	{ "np_has_trace_set_information", trace_set, "TR-0", FN(NP_FN_TRACE_SET) },
	{ "np_has_trace_query_information", trace_query, "TR-0", FN(NP_FN_TRACE_QUERY) },
	{ "np_trace_handles_profile_classes", trace_classes_ok, "TR-1", TRACE },
	{ "np_has_set_system_information", set_sysinfo, "SY-0", FN(NP_FN_SET_SYSINFO) },
	{ "np_kernel_exports_zw_query_system_information", kernel_zw_query_sysinfo, "SY-0",
	  FN(NP_FN_QUERY_SYSINFO) },
	{ "np_has_processor_profile_control_area", ppca, "SY-6", SYSINFO },
	{ "np_has_performance_trace_information", perf_trace, "SY-20", SYSINFO | TRACE },
	{ "np_has_event_ids_information", event_ids, "SY-20", FN(NP_FN_QUERY_SYSINFO) },
};

const np_xpredicate *np_xpredicates(unsigned *count)
{
	*count = sizeof predicates / sizeof *predicates;
	return predicates;
}
