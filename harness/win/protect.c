/* SPDX-License-Identifier: MIT */
/* The Protect step and the page form of a fresh buffer (SPEC.md AS-4) on a
 * live system: whole pages of a region the harness mapped become read-only
 * or are decommitted, so that nothing is behind them. Never memory the
 * harness did not map. Windows only. */
#include <windows.h>

#include <stdbool.h>
#include <stdint.h>

#include "win/impl_windows.h"

static ntprof_result refused(const char *why)
{
	return (ntprof_result){ NTPROF_NOT_APPLICABLE, 0, why };
}

ntprof_result np_win_protect_pages(void *const *region, unsigned nregion, uint64_t addr, uint64_t size,
				   unsigned prot)
{
	MEMORY_BASIC_INFORMATION mi;
	void *at = (void *)(uintptr_t)addr;
	bool ours = false;
	if (!VirtualQuery(at, &mi, sizeof mi))
		return refused("the pages are not the caller's");
	for (unsigned i = 0; i < nregion; i++)
		ours = ours || mi.AllocationBase == region[i];
	/* mi describes the pages from addr that share one state and protection */
	if (!ours || mi.State != MEM_COMMIT || (uint64_t)(uintptr_t)mi.BaseAddress + mi.RegionSize < addr + size)
		return refused("the pages must lie in one region the caller mapped");
	DWORD old;
	bool done = prot & NTPROF_PROT_READ ? VirtualProtect(at, (SIZE_T)size, PAGE_READONLY, &old) != 0
					  : VirtualFree(at, (SIZE_T)size, MEM_DECOMMIT) != 0;
	return done ? (ntprof_result){ NTPROF_NONE, 0, NULL } : refused("the system refused to change the pages");
}
