/* SPDX-License-Identifier: MIT */
/* Counting at a profile interrupt (SPEC.md IN-1..IN-8). */
#include "internal.h"

#include <string.h>

/* How bad one increment went, in increasing order. */
typedef enum hit { HIT_SKIPPED, HIT_NONE, HIT_CORRUPTION, HIT_BUGCHECK } hit;

/* IN-5, IN-6: one 32-bit counter, through the locked pages (so a buffer the
 * caller freed after the start still takes it). Memory the model does not
 * back is simply not there to change. */
static void increment(np_machine *m, uint64_t addr)
{
	np_region *r = np_mem_find(m, addr, 4);
	if (!r)
		return;
	uint32_t v;
	np_region_copy_out(r, addr - r->base, &v, sizeof v);
	v++;                                         /* wraps to 0 (IN-6) */
	np_region_copy_in(r, addr - r->base, &v, sizeof v);
}

/* IN-5, IN-6: a counter inside the buffer, through the kernel's mapping
 * of the locked counters when there is one (ST-5). */
static void count(np_machine *m, const np_profile *p, uint64_t offset)
{
	if (!p->mapped) {
		increment(m, p->buffer + offset);
		return;
	}
	uint32_t v;
	memcpy(&v, p->mapped + offset, sizeof v);    /* the buffer need not be aligned */
	v++;                                         /* wraps to 0 (IN-6) */
	memcpy(p->mapped + offset, &v, sizeof v);
}

/* The common case first: the compiler lays the loop out around it. */
#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define LIKELY(x) (x)
#endif

/* The lowest set bit's index (x != 0). */
static unsigned lowest_bit(uint64_t x)
{
#if defined(__GNUC__)
	return (unsigned)__builtin_ctzll(x);
#else
	unsigned n = 0;
	while (!(x & 1u))
		x >>= 1, n++;
	return n;
#endif
}

/* IN-7: an increment whose counter is not wholly inside the buffer. */
static hit overrun(np_machine *m, const np_profile *p, uint64_t addr)
{
	uint64_t mapped_end = (p->buffer + p->buffer_size + NP_PAGE_SIZE - 1) & ~(uint64_t)(NP_PAGE_SIZE - 1);
	switch (m->knobs.oob) {
	case NP_OOB_IGNORE:
		return HIT_SKIPPED;          /* nothing written, nothing counted */
	case NP_OOB_BUGCHECK:
		return HIT_BUGCHECK;
	case NP_OOB_CORRUPTION:
		increment(m, addr);
		return HIT_CORRUPTION;
	case NP_OOB_PAGE:
	default:
		if (addr + 4 > mapped_end)
			return HIT_BUGCHECK;         /* past the system mapping */
		increment(m, addr);
		return HIT_CORRUPTION;               /* the slack of the last page */
	}
}

/* IN-2: source (as the profile keeps it, K-SRC16) and processor (from 3.51). */
static bool qualifies(const np_machine *m, const np_profile *p, const np_interrupt *irq)
{
	if (!np_has_source_argument(m->version))
		return true;
	bool same_source = m->knobs.src16 == NP_SRC_LOW16
		? (uint16_t)p->source == (uint16_t)irq->source
		: p->source == irq->source;
	return same_source && ((p->run_mask[irq->group] >> irq->cpu) & 1u);
}

/* IN-3, IN-4 */
static bool in_region(const np_machine *m, const np_profile *p, uint64_t pc)
{
	uint64_t limit = p->base + p->size;
	if (pc < p->base)
		return false;
	return pc < limit || (pc == limit && np_region_end_inclusive(m));
}

np_result np_profile_interrupt(np_machine *m, const np_interrupt *irq, unsigned *counted)
{
	np_trail_clear(m);
	*counted = 0;
	if (m->halted)
		return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
	if (irq->group >= m->groups || irq->cpu >= m->cpus)
		return NP_DECIDE(m, IN_2, np_not_applicable("no such active processor"));
	if (!np_has_source_argument(m->version) && irq->source != NP_PROFILE_TIME)
		return NP_DECIDE(m, IN_2, np_not_applicable("3.10 and 3.50 know only ProfileTime interrupts (IN-2)"));
	hit worst = HIT_NONE;
	NP_APPLY(m, IN_1);   /* the interrupted process's list, then the global list */
	unsigned lists[2] = { irq->process, 0 };
	for (unsigned l = 0; l < 2; l++) {
		for (uint64_t left = m->started_profiles; left; left &= left - 1) {
			np_profile *p = &m->profile[lowest_bit(left)];
			if (!p->started || p->process != lists[l])   /* the flag is the truth */
				continue;
			if (p->segment != 0)                              /* IN-8: before any test */
				return NP_DECIDE(m, IN_8, np_not_applicable("K-SEGMENT-MATCH: segment-mode profiles are not modelled (IN-8)"));
			NP_APPLY_R(m, np_region_end_inclusive(m) ? NP_RULE(IN_4) : NP_RULE(IN_3));
			if (!qualifies(m, p, irq) || !in_region(m, p, irq->pc))
				continue;
			uint64_t offset = ((irq->pc - p->base) >> p->bucket_size) * 4u;   /* IN-5 */
			uint64_t addr = p->buffer + offset;
			hit h = HIT_NONE;
			if (offset + 4 <= p->buffer_size) {
				NP_APPLY(m, IN_6);
				count(m, p, offset);
			}
			else
				h = overrun(m, p, addr);                  /* IN-7 */
			if (h != HIT_SKIPPED)
				(*counted)++;
			if (h > worst)
				worst = h;
			if (h == HIT_BUGCHECK) {
				m->halted = true;
				m->halt_code = NP_BUGCHECK_IRQL_NOT_LESS_OR_EQUAL;
				return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
			}
		}
	}
	if (worst == HIT_CORRUPTION)
		return NP_DECIDE(m, IN_7, ((np_result){ NP_RESULT_CORRUPTION, 0, NULL }));
	return NP_DECIDE(m, IN_5, ((np_result){ NP_RESULT_NONE, 0, NULL }));
}

/* The one started profile a run of interrupts can count into, or NULL when
 * the run must take the general path (none, several, a segment profile, or
 * counters the kernel has not mapped). */
static const np_profile *sole_counter(const np_machine *m, const np_interrupt *irq)
{
	const np_profile *sole = NULL;
	unsigned lists[2] = { irq->process, 0 };
	for (unsigned l = 0; l < 2; l++)
		for (uint64_t left = m->started_profiles; left; left &= left - 1) {
			const np_profile *p = &m->profile[lowest_bit(left)];
			if (!p->started || p->process != lists[l])
				continue;
			if (sole || p->segment != 0 || !p->mapped)
				return NULL;
			if (qualifies(m, p, irq))
				sole = p;
		}
	return sole;
}

/* The fast loop of a run: counts pc[i] for i from *at on while each lands in
 * a counter wholly inside the buffer, skipping those outside the region;
 * stops at the first that would overrun (IN-7), *at then naming it, or at n.
 * Returns how many it counted. One comparison per pc in the common case:
 * limit is the lesser of the region's width and the counters' reach; the
 * count is what was looked at less what was skipped, so that the common
 * case does no bookkeeping (perf showed it in the loop's profile). */
static uint64_t count_inside(uint8_t *counters, uint64_t base, uint64_t width, unsigned shift, uint64_t whole,
			     const uint64_t *pc, size_t n, size_t *at)
{
	uint64_t reach = whole << shift;   /* under 2^61: a 32-bit buffer size, a bucket of at most 2^31 bytes */
	uint64_t limit = reach < width ? reach : width;
	const uint64_t *next = pc + *at, *end = pc + n;
	size_t skipped = 0;
	for (; next < end; next++) {
		uint64_t d = *next - base;
		if (LIKELY(d < limit)) {
			uint8_t *counter = counters + (d >> shift) * 4u;   /* IN-5 */
			uint32_t v;
			memcpy(&v, counter, sizeof v);                    /* IN-6: may be unaligned, wraps */
			v++;
			memcpy(counter, &v, sizeof v);
		} else if (d < width) {
			break;                                            /* past the counters: IN-7 */
		} else {
			skipped++;                                        /* outside the region: IN-3 */
		}
	}
	size_t looked = (size_t)(next - pc) - *at;
	*at = (size_t)(next - pc);
	return (uint64_t)(looked - skipped);
}

/* A run through np_profile_interrupt, one pc at a time: the general path. */
static np_result one_by_one(np_machine *m, const np_interrupt *irq, const uint64_t *pc, size_t n,
			    uint64_t *counted)
{
	np_result worst = { NP_RESULT_NONE, 0, NULL };
	for (size_t i = 0; i < n; i++) {
		np_interrupt one = *irq;
		unsigned c;
		one.pc = pc[i];
		np_result r = np_profile_interrupt(m, &one, &c);
		*counted += c;
		if (r.kind != NP_RESULT_NONE)
			worst = r;   /* corruption, or the bug check that ends the run */
		if (r.kind == NP_RESULT_BUGCHECK || r.kind == NP_RESULT_NOT_APPLICABLE)
			return r;
	}
	return worst;
}

np_result np_profile_interrupts(np_machine *m, const np_interrupt *irq, const uint64_t *pc, size_t n,
				uint64_t *counted)
{
	*counted = 0;
	bool plain = !m->halted && irq->group < m->groups && irq->cpu < m->cpus &&
		     (np_has_source_argument(m->version) || irq->source == NP_PROFILE_TIME);
	const np_profile *p = plain ? sole_counter(m, irq) : NULL;
	/* IN-3, IN-4: pc is in the region when pc - base < width; CP-10 keeps
	 * base + size from wrapping, so an address below base is never in it */
	uint64_t width = p ? p->size + (np_region_end_inclusive(m) ? 1u : 0u) : 0;
	if (!p || width < p->size || p->base + p->size < p->base)
		return one_by_one(m, irq, pc, n, counted);
	uint64_t whole = p->buffer_size / 4u;   /* counters wholly inside */
	hit worst = HIT_NONE;
	for (size_t i = 0; i < n; i++) {
		*counted += count_inside(p->mapped, p->base, width, p->bucket_size, whole, pc, n, &i);
		if (i == n)
			break;
		uint64_t index = (pc[i] - p->base) >> p->bucket_size;
		hit h = overrun(m, p, p->buffer + index * 4u);            /* IN-7 */
		if (h != HIT_SKIPPED)
			++*counted;
		if (h > worst)
			worst = h;
		if (h == HIT_BUGCHECK) {
			m->halted = true;
			m->halt_code = NP_BUGCHECK_IRQL_NOT_LESS_OR_EQUAL;
			return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
		}
	}
	if (worst == HIT_CORRUPTION)
		return NP_DECIDE(m, IN_7, ((np_result){ NP_RESULT_CORRUPTION, 0, NULL }));
	return NP_DECIDE(m, IN_5, ((np_result){ NP_RESULT_NONE, 0, NULL }));
}
