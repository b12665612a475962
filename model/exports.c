/* SPDX-License-Identifier: MIT */
/* Which profiling entry points a caller can reach (CP-0, ST-0, SP-0, SI-0,
 * QI-0): NTDLL's exports in user mode, the kernel's in kernel mode. */
#include <string.h>

#include "internal.h"

typedef struct export_row {
	const char *name;
	np_ver ntdll_from;     /* NTDLL exports it from this version */
	bool kernel_zw;        /* the kernel exports it (from 1607) */
} export_row;

static const export_row rows[] = {
	{ "NtCreateProfile",        NP_V3_10, false },
	{ "ZwCreateProfile",        NP_V3_10, false },
	{ "NtCreateProfileEx",      NP_V6_1,  false },
	{ "ZwCreateProfileEx",      NP_V6_1,  true },
	{ "NtStartProfile",         NP_V3_10, false },
	{ "ZwStartProfile",         NP_V3_10, true },
	{ "NtStopProfile",          NP_V3_10, false },
	{ "ZwStopProfile",          NP_V3_10, true },
	{ "NtSetIntervalProfile",   NP_V3_10, false },
	{ "ZwSetIntervalProfile",   NP_V3_10, true },
	{ "NtQueryIntervalProfile", NP_V3_10, false },
	{ "ZwQueryIntervalProfile", NP_V3_10, true },
};

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
			return r->kernel_zw && np_kernel_exports_zw_profile(v);
		return true;
	}
	return false;
}
