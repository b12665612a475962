/* SPDX-License-Identifier: MIT */
/* Which profiling entry points a caller can reach (CP-0, ST-0, SP-0, SI-0,
 * QI-0, SY-0): NTDLL's exports in user mode, the kernel's in kernel mode. */
#include <string.h>

#include "internal.h"

typedef struct export_row {
	const char *name;
	np_ver ntdll_from;          /* NTDLL exports it from this version */
	bool (*kernel_has)(np_ver); /* where the kernel exports the Zw name; NULL: never */
	np_rule rule;               /* the signature rule that says so */
} export_row;

static const export_row rows[] = {
	{ "NtCreateProfile",          NP_V3_10, NULL, NP_RULE(CP_0) },
	{ "ZwCreateProfile",          NP_V3_10, NULL, NP_RULE(CP_0) },
	{ "NtCreateProfileEx",        NP_V6_1,  NULL, NP_RULE(CP_0) },
	{ "ZwCreateProfileEx",        NP_V6_1,  np_kernel_exports_zw_profile, NP_RULE(CP_0) },
	{ "NtStartProfile",           NP_V3_10, NULL, NP_RULE(ST_0) },
	{ "ZwStartProfile",           NP_V3_10, np_kernel_exports_zw_profile, NP_RULE(ST_0) },
	{ "NtStopProfile",            NP_V3_10, NULL, NP_RULE(SP_0) },
	{ "ZwStopProfile",            NP_V3_10, np_kernel_exports_zw_profile, NP_RULE(SP_0) },
	{ "NtSetIntervalProfile",     NP_V3_10, NULL, NP_RULE(SI_0) },
	{ "ZwSetIntervalProfile",     NP_V3_10, np_kernel_exports_zw_profile, NP_RULE(SI_0) },
	{ "NtQueryIntervalProfile",   NP_V3_10, NULL, NP_RULE(QI_0) },
	{ "ZwQueryIntervalProfile",   NP_V3_10, np_kernel_exports_zw_profile, NP_RULE(QI_0) },
	{ "NtSetSystemInformation",   NP_V3_50, NULL, NP_RULE(SY_0) },
	{ "ZwSetSystemInformation",   NP_V3_50, np_has_set_system_information, NP_RULE(SY_0) }, /* as old as NTDLL's */
	{ "NtQuerySystemInformation", NP_V3_10, NULL, NP_RULE(SY_0) },
	{ "ZwQuerySystemInformation", NP_V3_10, np_kernel_exports_zw_query_system_information, NP_RULE(SY_0) },
};

np_applied np_export_applied(const char *name)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		if (strcmp(rows[i].name, name) == 0)
			return (np_applied){ rows[i].rule, __FILE__, __LINE__ };
	return (np_applied){ NP_RULE_NONE, NULL, 0 };
}

/* A kernel-mode step spelled Nt* stands for a request whose previous mode is
 * kernel, however the driver reached the service; one spelled Zw* calls the
 * kernel's export, which exists only where the kernel has it. */
bool np_is_exported(np_ver v, np_mode caller, const char *name)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const export_row *r = &rows[i];
		if (strcmp(r->name, name) != 0)
			continue;
		if (v < r->ntdll_from)
			return false;
		if (caller == NP_MODE_KERNEL && name[0] == 'Z')
			return r->kernel_has && r->kernel_has(v);
		return true;
	}
	return false;
}
