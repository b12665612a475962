/* SPDX-License-Identifier: MIT */
/* The colours of ntprof matrix --format html: a colour per family of
 * statuses (success, parameter errors, access errors and faults, bug
 * checks, not exported or not applicable, other), so that a reader sees the
 * kind of outcome at a glance and reads the exact status in the cell. The
 * families' colours are checked in conformance/harness/test_matrix.c: text on
 * each at least 4.5:1 (WCAG AA), the backgrounds far apart. */
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"

/* Text colour NULL: the page's (NP_PAGE_TEXT). */
static const np_family_info families[NP_FAMILY_COUNT] = {
	[NP_FAM_SUCCESS]   = { "ok", "success", "#b9e6b3", NULL },
	[NP_FAM_VALUES]    = { "val", "values only (a pseudo-step: no status)", "#a9cdf0", NULL },
	[NP_FAM_PARAMETER] = { "par", "parameter errors", "#fbe08a", NULL },
	[NP_FAM_ACCESS]    = { "acc", "access errors and faults", "#f5a86b", NULL },
	[NP_FAM_BUGCHECK]  = { "bug", "bug checks, corruption, crashes", "#b8322a", "#ffffff" },
	[NP_FAM_ABSENT]    = { "abs", "not exported, not applicable, stub", "#e6e6e6", "#555555" },
	[NP_FAM_OTHER]     = { "oth", "other statuses", "#e7a6d3", NULL },
};

const np_family_info *np_family_of(np_family f)
{
	return &families[f < NP_FAMILY_COUNT ? f : NP_FAM_OTHER];
}

void np_status_key(const char *text, char *buf, size_t cap)
{
	size_t n = strcspn(text, " ");
	if ((strncmp(text, "fault ", 6) == 0 || strncmp(text, "bugcheck ", 9) == 0) && text[n])
		n += 1 + strcspn(text + n + 1, " ");
	if (memchr(text, '=', n) || strcmp(text, "done") == 0)
		snprintf(buf, cap, "values");
	else
		snprintf(buf, cap, "%.*s", (int)n, text);
}

static bool one_of(const char *key, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(key, *list) == 0)
			return true;
	return false;
}

np_family np_status_family(const char *key)
{
	static const char *const success[] = { "SUCCESS", "ERROR_SUCCESS", NULL };
	static const char *const absent[] = { "n/e", "n/a", "stub", NULL };
	static const char *const broken[] = { "corruption", "crashed", NULL };
	/* The caller's own doing: a value, a size or a handle it passed. */
	static const char *const parameter[] = {
		"INFO_LENGTH_MISMATCH", "INVALID_INFO_CLASS", "BUFFER_TOO_SMALL", "BUFFER_OVERFLOW",
		"INVALID_HANDLE", "OBJECT_TYPE_MISMATCH", "ERROR_BAD_LENGTH", "ERROR_MORE_DATA",
		"ERROR_INVALID_PARAMETER", "ERROR_INVALID_HANDLE", NULL };
	/* Refused for want of a right, or a probe of the caller's memory. */
	static const char *const access[] = {
		"ACCESS_DENIED", "PRIVILEGE_NOT_HELD", "ACCESS_VIOLATION", "DATATYPE_MISALIGNMENT",
		"ERROR_ACCESS_DENIED", "ERROR_PRIVILEGE_NOT_HELD", "ERROR_NOACCESS", NULL };
	if (one_of(key, success))
		return NP_FAM_SUCCESS;
	if (strcmp(key, "values") == 0)
		return NP_FAM_VALUES;
	if (one_of(key, absent))
		return NP_FAM_ABSENT;
	if (one_of(key, broken) || strncmp(key, "bugcheck", 8) == 0)
		return NP_FAM_BUGCHECK;
	if (one_of(key, parameter) || strncmp(key, "INVALID_PARAMETER", 17) == 0)
		return NP_FAM_PARAMETER;
	if (one_of(key, access) || strncmp(key, "fault", 5) == 0)
		return NP_FAM_ACCESS;
	return NP_FAM_OTHER;
}
