/* SPDX-License-Identifier: MIT */
/* What the rest of the system does between two calls of the caller: the
 * active processors change (MC-7), another privileged process sets an
 * interval (MC-8), the caller protects pages of its buffer (AS-4). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ntprof/elsewhere.h"

/* The step is done: rule decided it, as it decides a step with no
 * outcome of its own. */
static np_result none(np_machine *m, np_rule rule)
{
	return NP_DECIDE_R(m, rule, ((np_result){ NP_RESULT_NONE, 0, NULL }));
}

/* MC-7: np_machine_set_cpus keeps every processor's state; a processor
 * that becomes active takes the intervals its peers have, and the caller
 * whose processor goes away runs on processor 0. What a profile counts on
 * follows from when its processors were read (ST-6, CP-15). */
np_result np_elsewhere_set_cpus(np_machine *m, unsigned cpus)
{
	np_trail_clear(m);
	np_config_error e = np_machine_set_cpus(m, cpus);
	return e ? NP_DECIDE(m, MC_7, np_not_applicable(e)) : none(m, NP_RULE(MC_7));
}

/* MC-8, SI-8: the other caller's set is the same call with its own
 * previous mode and privilege; the caller's own stay as they were. */
np_result np_elsewhere_set_interval(np_machine *m, uint32_t interval, uint32_t source)
{
	np_mode mode = m->previous_mode;
	bool privilege = m->profile_privilege;
	m->previous_mode = NP_MODE_USER;
	m->profile_privilege = true;
	np_trail_clear(m);
	NP_APPLY(m, MC_8);
	np_result r = np_set_interval_profile_within(m, interval, source);
	m->previous_mode = mode;
	m->profile_privilege = privilege;
	return r;
}

/* A started profile counts through its region's storage (ST-5), which a
 * split would move (by guest address: host blocks have no order). */
static bool region_locked(const np_machine *m, const np_region *r)
{
	for (unsigned i = 0; i < NP_MAX_PROFILES; i++) {
		const np_profile *p = &m->profile[i];
		if ((m->started_profiles >> i & 1) && p->mapped &&   /* mapped only while started */
		    p->buffer >= r->base && p->buffer < r->base + r->size)
			return true;
	}
	return false;
}

/* Maps [base, base + len) of the old region's bytes anew with prot. */
static void map_piece(np_machine *m, const np_region *old, uint64_t base, uint64_t len, unsigned prot)
{
	/* np_mem_map refuses an empty piece; any other cannot fail, the old
	 * region's place and slot being free */
	if (np_mem_map(m, base, len, prot, old->flags, old->fill) != NULL)
		return;
	np_region *r = &m->mem.region[m->mem.count - 1];
	memcpy(np_region_block(r), old->bytes + (base - old->base), (size_t)len);
	r->revoked = old->revoked;
}

/* AS-4: the region is split in up to three: the pages before, the pages
 * changed (left out when unmapped), the pages after. */
np_result np_elsewhere_protect(np_machine *m, uint64_t addr, uint64_t size, unsigned prot)
{
	np_trail_clear(m);
	if (size == 0 || addr % NP_PAGE_SIZE != 0 || size % NP_PAGE_SIZE != 0)
		return NP_DECIDE(m, AS_4, np_not_applicable("protection changes whole pages"));
	np_region *r = np_mem_find(m, addr, size);
	if (!r || !np_region_block(r))   /* the old region as one block, for map_piece */
		return NP_DECIDE(m, AS_4, np_not_applicable("the pages must lie in one mapped region of at most 1 MiB"));
	if (region_locked(m, r))
		return NP_DECIDE(m, AS_4, np_not_applicable("the model keeps a started profile's counters in one region"));
	if (m->mem.count + 2 > NP_MAX_REGIONS)
		return NP_DECIDE(m, AS_4, np_not_applicable("too many mapped regions"));
	np_region old = *r;
	*r = m->mem.region[--m->mem.count];
	map_piece(m, &old, old.base, addr - old.base, old.prot);
	map_piece(m, &old, addr, prot ? size : 0, prot);
	map_piece(m, &old, addr + size, old.base + old.size - addr - size, old.prot);
	np_region_free(&old);
	return none(m, NP_RULE(AS_4));
}
