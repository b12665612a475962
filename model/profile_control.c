/* SPDX-License-Identifier: MIT */
/* NtStartProfile and NtStopProfile (SPEC.md ST-0..ST-8, SP-0..SP-5). */
#include <string.h>

#include "internal.h"

/* ST-1, SP-1: the handle must name a profile granting PROFILE_CONTROL.
 * A halted machine answers every call with its bug check. */
static np_result resolve(np_machine *m, uint64_t handle, np_profile **out)
{
	unsigned index = 0;
	if (m->halted)
		return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
	uint32_t st = np_handle_reference(m, handle, NP_OBJ_PROFILE, NP_PROFILE_CONTROL, &index);
	*out = &m->profile[index];
	return np_status(st);
}

/* ST-3: how many profiles may be started at once, system-wide. */
static uint64_t started_limit(const np_machine *m)
{
	uint64_t processors = (uint64_t)m->cpus * m->groups;
	if (m->knobs.limit == NP_LIMIT_MAXIMUM)
		processors = m->arch == NP_X86 ? 32u : (m->version == NP_V6_1 ? 64u * 4u : 64u * 20u);
	return 8192u * processors;
}

static unsigned started_count(const np_machine *m)
{
	unsigned n = m->started_elsewhere;
	for (uint64_t left = m->started_profiles; left; left &= left - 1)   /* IN-1: the started ones */
		n++;
	return n;
}

/* ST-5: the most bytes one MDL describes (IoAllocateMdl): up to 5.2,
 * (65535 - sizeof(MDL)) / sizeof(PFN_NUMBER) pages and a page less one
 * byte, in the kernel's width (an MDL is 28 bytes on x86, 48 on x64). */
static uint64_t mdl_limit(const np_machine *m)
{
	if (np_mdl_size_is_16bit(m->version))
		return np_kernel_is_32bit(m->arch) ? (65535u - 28u) / 4u * 4096u + 4095u
						   : (65535u - 48u) / 8u * 4096u + 4095u;
	return np_mdl_reaches_4gb(m->version) ? 0x100000000ull - 4096u : 0x80000000ull - 4096u;
}

/* ST-5: the buffer's MDL, then every page of the buffer must still be
 * writable user memory. */
static uint32_t lock_buffer(np_machine *m, const np_profile *p)
{
	if (m->knobs.mdl_limit == NP_MDL_LIMIT_RESOURCES && p->buffer_size > mdl_limit(m))
		return NP_STATUS_INSUFFICIENT_RESOURCES;                /* K-MDL-LIMIT */
	if (m->lock_failures) {
		m->lock_failures--;
		switch (m->knobs.lock_fail) {                          /* K-LOCK-FAIL */
		case NP_LOCK_FAIL_QUOTA:     return NP_STATUS_WORKING_SET_QUOTA;
		case NP_LOCK_FAIL_RESOURCES: return NP_STATUS_INSUFFICIENT_RESOURCES;
		case NP_LOCK_FAIL_AV:
		default:                     return NP_STATUS_ACCESS_VIOLATION;
		}
	}
	if (p->buffer_size != 0) {
		const np_region *r = np_mem_find(m, p->buffer, p->buffer_size);
		if (!r || r->revoked || !(r->prot & NP_PROT_WRITE))
			return NP_STATUS_ACCESS_VIOLATION;
	}
	if (m->map_failures) {
		m->map_failures--;
		return NP_STATUS_INSUFFICIENT_RESOURCES;
	}
	return NP_STATUS_SUCCESS;
}

/* ST-5: the system-space view of the locked counters, through which
 * interrupts count (IN-5) whatever the caller does to its own mapping later.
 * A buffer in a large, sparsely backed region has no one block to point
 * at; the interrupt then finds its pages each time. */
static uint8_t *map_counters(np_machine *m, const np_profile *p)
{
	np_region *r = p->buffer_size ? np_mem_find(m, p->buffer, p->buffer_size) : NULL;
	uint8_t *block = r ? np_region_block(r) : NULL;
	return block ? block + (p->buffer - r->base) : NULL;
}

/* ST-6: the processors a started profile counts on. */
static void choose_processors(const np_machine *m, np_profile *p)
{
	memset(p->run_mask, 0, sizeof p->run_mask);
	if (np_has_group_affinity(m->version)) {
		memcpy(p->run_mask, p->group_mask, sizeof p->run_mask);
		return;
	}
	uint64_t active = np_active_mask(m), chosen = p->stored_affinity & active;
	if (!np_has_source_argument(m->version))
		chosen = active;                        /* 3.10, 3.50: no Affinity */
	else if (np_has_sp4_profile_fixes(m->version) ? chosen == 0 : p->stored_affinity == 0)
		chosen = active;
	p->run_mask[0] = chosen;                     /* before 4.0sp4 it may stay empty */
}

np_result np_nt_start_profile(np_machine *m, uint64_t profile_handle)
{
	np_profile *p = NULL;
	np_trail_clear(m);
	np_result res = resolve(m, profile_handle, &p);
	if (res.kind != NP_RESULT_STATUS || res.code != NP_STATUS_SUCCESS)
		return m->halted ? res : NP_DECIDE(m, ST_1, res);
	uint32_t st;
	if (p->started)                                                 /* ST-2 */
		return NP_DECIDE(m, ST_2, np_status(NP_STATUS_PROFILING_NOT_STOPPED));
	if (np_has_started_profile_limit(m->version) && started_count(m) >= started_limit(m))
		return NP_DECIDE(m, ST_3, np_status(NP_STATUS_PROFILING_AT_LIMIT));
	if (!np_allocate(m))                                            /* ST-4 */
		return NP_DECIDE(m, ST_4, np_status(NP_STATUS_INSUFFICIENT_RESOURCES));
	if ((st = lock_buffer(m, p)) != NP_STATUS_SUCCESS)              /* ST-5 */
		return NP_DECIDE(m, ST_5, np_status(st));
	NP_APPLY(m, ST_6);
	choose_processors(m, p);
	NP_APPLY(m, ST_8);
	if (m->knobs.zero_on_start && p->buffer_size) {
		np_region *r = np_mem_find(m, p->buffer, p->buffer_size);
		np_region_zero(r, p->buffer - r->base, p->buffer_size);
	}
	p->mapped = map_counters(m, p);                                 /* ST-5 */
	p->started = true;                                              /* ST-7 */
	m->started_profiles |= 1ull << (p - m->profile);
	return NP_DECIDE(m, ST_7, np_status(NP_STATUS_SUCCESS));
}

np_result np_nt_stop_profile(np_machine *m, uint64_t profile_handle)
{
	np_profile *p = NULL;
	np_trail_clear(m);
	np_result res = resolve(m, profile_handle, &p);
	if (res.kind != NP_RESULT_STATUS || res.code != NP_STATUS_SUCCESS)
		return m->halted ? res : NP_DECIDE(m, SP_1, res);
	if (!p->started)                                                /* SP-2 */
		return NP_DECIDE(m, SP_2, np_status(NP_STATUS_PROFILING_NOT_STARTED));
	NP_APPLY(m, SP_4);
	p->started = false;
	m->started_profiles &= ~(1ull << (p - m->profile));
	p->mapped = NULL;
	memset(p->run_mask, 0, sizeof p->run_mask);
	return NP_DECIDE(m, SP_3, np_status(NP_STATUS_SUCCESS));
}
