/* SPDX-License-Identifier: MIT */
/* Status, error and bug check names (SPEC.md §1 table), and the NTSTATUS to Win32
 * translation used by the Trace* wrappers (TR-9). */
#include <stddef.h>
#include <string.h>

#include "ntprof/names.h"
#include "ntprof/number.h"
#include "ntprof/status.h"

typedef struct { uint32_t code; const char *name; } code_name;

#define N(x) { NP_##x, #x }
static const code_name statuses[] = {
	N(STATUS_SUCCESS), N(STATUS_DATATYPE_MISALIGNMENT), N(STATUS_BUFFER_OVERFLOW),
	N(STATUS_UNSUCCESSFUL), N(STATUS_NOT_IMPLEMENTED), N(STATUS_INVALID_INFO_CLASS),
	N(STATUS_INFO_LENGTH_MISMATCH), N(STATUS_ACCESS_VIOLATION), N(STATUS_INVALID_HANDLE),
	N(STATUS_INVALID_PARAMETER), N(STATUS_NO_MEMORY), N(STATUS_ACCESS_DENIED),
	N(STATUS_BUFFER_TOO_SMALL), N(STATUS_OBJECT_TYPE_MISMATCH), N(STATUS_QUOTA_EXCEEDED), N(STATUS_PRIVILEGE_NOT_HELD),
	N(STATUS_INTEGER_DIVIDE_BY_ZERO), N(STATUS_INSUFFICIENT_RESOURCES),
	N(STATUS_MEMORY_NOT_ALLOCATED), N(STATUS_WORKING_SET_QUOTA), N(STATUS_PROFILING_NOT_STARTED),
	N(STATUS_PROFILING_NOT_STOPPED), N(STATUS_NOT_SUPPORTED), N(STATUS_PROFILING_AT_LIMIT),
	N(STATUS_INVALID_PARAMETER_7), N(STATUS_ADDRESS_ALREADY_EXISTS),
};
static const code_name errors[] = {
	N(ERROR_SUCCESS), N(ERROR_INVALID_FUNCTION), N(ERROR_ACCESS_DENIED),
	N(ERROR_NOT_ENOUGH_MEMORY), N(ERROR_OUTOFMEMORY), N(ERROR_BAD_LENGTH),
	N(ERROR_NOT_SUPPORTED), N(ERROR_INVALID_PARAMETER), N(ERROR_CALL_NOT_IMPLEMENTED),
	N(ERROR_INSUFFICIENT_BUFFER),
	N(ERROR_MORE_DATA), N(ERROR_NOACCESS), N(ERROR_PRIVILEGE_NOT_HELD),
	N(ERROR_NO_SYSTEM_RESOURCES), N(ERROR_INCORRECT_SIZE),
};
static const code_name bugchecks[] = {
	{ NP_BUGCHECK_IRQL_NOT_LESS_OR_EQUAL, "IRQL_NOT_LESS_OR_EQUAL" },
	{ NP_BUGCHECK_KMODE_EXCEPTION_NOT_HANDLED, "KMODE_EXCEPTION_NOT_HANDLED" },
	{ NP_BUGCHECK_HAL_MEMORY_ALLOCATION, "HAL_MEMORY_ALLOCATION" },
};
#undef N

static const char *name_of(const code_name *t, size_t n, uint32_t code)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].code == code)
			return t[i].name;
	return NULL;
}

static bool parse_in(const code_name *t, size_t n, const char *text, uint32_t *out)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].name, text) == 0) {
			*out = t[i].code;
			return true;
		}
	}
	uint64_t v;
	if (!np_number_parse(text, &v) || v > 0xFFFFFFFFu)
		return false;
	*out = (uint32_t)v;
	return true;
}

const char *np_status_name(uint32_t s) { return name_of(statuses, sizeof statuses / sizeof *statuses, s); }
const char *np_win32_name(uint32_t e) { return name_of(errors, sizeof errors / sizeof *errors, e); }

bool np_status_parse(const char *text, uint32_t *out)
{
	return parse_in(statuses, sizeof statuses / sizeof *statuses, text, out);
}

bool np_win32_parse(const char *text, uint32_t *out)
{
	return parse_in(errors, sizeof errors / sizeof *errors, text, out);
}

const char *np_bugcheck_name(uint32_t code)
{
	return name_of(bugchecks, sizeof bugchecks / sizeof *bugchecks, code);
}

bool np_bugcheck_parse(const char *text, uint32_t *out)
{
	return parse_in(bugchecks, sizeof bugchecks / sizeof *bugchecks, text, out);
}

/* TR-9: the translations RtlNtStatusToDosError makes for the statuses that
 * can reach the Trace* wrappers (winerror.h / ntstatus.h pairs). */
uint32_t np_status_to_win32(uint32_t s)
{
	static const struct { uint32_t status, error; } map[] = {
		{ NP_STATUS_SUCCESS,                NP_ERROR_SUCCESS },
		{ NP_STATUS_PRIVILEGE_NOT_HELD,     NP_ERROR_PRIVILEGE_NOT_HELD },
		{ NP_STATUS_ACCESS_VIOLATION,       NP_ERROR_NOACCESS },
		{ NP_STATUS_DATATYPE_MISALIGNMENT,  NP_ERROR_NOACCESS },
		{ NP_STATUS_INVALID_PARAMETER,      NP_ERROR_INVALID_PARAMETER },
		{ NP_STATUS_NOT_IMPLEMENTED,        NP_ERROR_INVALID_FUNCTION },
		{ NP_STATUS_INFO_LENGTH_MISMATCH,   NP_ERROR_BAD_LENGTH },
		{ NP_STATUS_INSUFFICIENT_RESOURCES, NP_ERROR_NO_SYSTEM_RESOURCES },
		{ NP_STATUS_NO_MEMORY,              NP_ERROR_NOT_ENOUGH_MEMORY },
		{ NP_STATUS_NOT_SUPPORTED,          NP_ERROR_NOT_SUPPORTED },
		{ NP_STATUS_ACCESS_DENIED,          NP_ERROR_ACCESS_DENIED },
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (map[i].status == s)
			return map[i].error;
	return NP_ERROR_INVALID_FUNCTION; /* TR-9: not reached by any modelled path */
}

static const char *nearest_in(const code_name *t, size_t n, const char *text)
{
	np_nearest near;
	np_nearest_start(&near, text);
	for (size_t i = 0; i < n; i++)
		np_nearest_offer(&near, t[i].name);
	return np_nearest_found(&near);
}

const char *np_status_nearest(const char *text)
{
	return nearest_in(statuses, sizeof statuses / sizeof *statuses, text);
}

const char *np_win32_nearest(const char *text)
{
	return nearest_in(errors, sizeof errors / sizeof *errors, text);
}
