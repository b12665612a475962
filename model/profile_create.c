/* SPDX-License-Identifier: MIT */
/* NtCreateProfile and NtCreateProfileEx (SPEC.md CP-0..CP-25).
 *
 * The checks run in the order of SPEC.md "Order of checks"; the block of
 * user-mode probes moves with K-ORDER-PROBE. Nothing here locks, lists or
 * writes the buffer (CP-25): parameters act only at start and at interrupts. */
#include <string.h>

#include "internal.h"

/* One request as the kernel sees it after WOW64 and the wrapper of CP-1. */
typedef struct request {
	np_create_profile_args a;
	bool ex;                    /* NtCreateProfileEx */
	bool segmented;             /* CP-3 */
	uint32_t segment;
	uint64_t masks[NP_MAX_GROUPS]; /* CP-15: the validated processors */
} request;

static bool caller_is_32bit(const np_machine *m) { return m->arch != NP_X64; }

/* All ones in the kernel's word: the largest SIZE_T (CP-10; a WOW64 caller's
 * values are zero-extended into 64 bits) and the all-ones KAFFINITY (CP-16). */
static uint64_t kernel_word_max(const np_machine *m)
{
	return m->arch == NP_X86 ? 0xFFFFFFFFull : UINT64_MAX;
}

/* A 32-bit caller cannot pass more than 32 bits in a pointer, SIZE_T or
 * KAFFINITY; WOW64 zero-extends them (CP-17) and sign-extends handles (MC-3). */
static bool fits_32bit_caller(const np_create_profile_args *a)
{
	uint64_t wide = a->profile_handle | a->profile_base | a->profile_size | a->buffer |
			a->affinity_array | (a->affinity == NP_AFFINITY_ALL ? 0 : a->affinity);
	return wide <= 0xFFFFFFFFu;
}

static void widen(const np_machine *m, np_create_profile_args *a)
{
	if (caller_is_32bit(m)) {
		a->profile_handle &= 0xFFFFFFFFu;
		a->profile_base &= 0xFFFFFFFFu;
		a->profile_size &= 0xFFFFFFFFu;
		a->buffer &= 0xFFFFFFFFu;
		a->affinity &= 0xFFFFFFFFu;
		a->affinity_array &= 0xFFFFFFFFu;
	}
	a->process = np_handle_widen(m, a->process);
}

static unsigned highest_bit(uint32_t x)
{
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
}

/* CP-6: the bucket size that makes n counters span ProfileSize, in the
 * kernel's 32-bit arithmetic. q - 1 wraps for q = 0 (giving 32, which CP-7
 * rejects); log2(0) for q = 1 is K-LOG2-0. */
static uint32_t segment_bucket(const np_machine *m, uint32_t size, uint32_t counters)
{
	uint32_t q = size / counters;
	if (q == 1)
		return m->knobs.log2_0 == NP_LOG2_0_CLAMP ? 2u : 1u;
	uint32_t b = highest_bit(q - 1u) + 1u;
	return b < 2 ? 2u : b;
}

/* CP-8, CP-9 */
static bool buffer_too_small(const np_machine *m, uint64_t size, uint32_t bucket, uint32_t buffer_size)
{
	if (!np_capacity_check_fixed(m))
		return (size >> (bucket - 2)) > buffer_size;          /* CP-8: the defective test */
	uint64_t needed = (size >> bucket) + ((size & ((1ull << bucket) - 1)) != 0);
	if (size == 0 && m->knobs.zero_size == NP_ZERO_SIZE_ONE_COUNTER)
		needed = 1;
	return needed > buffer_size / 4u;                             /* CP-9 */
}

/* CP-11 */
static uint32_t check_source(np_machine *m, uint32_t source)
{
	if (!np_create_checks_source(m->version))
		return NP_STATUS_SUCCESS;
	NP_APPLY(m, CP_11);
	if (source == NP_PROFILE_ALIGNMENT_FIXUP && m->knobs.alignfixup_create == NP_ALIGNFIXUP_ACCEPT)
		return NP_STATUS_SUCCESS;
	if (source < NP_HAL_SOURCES && m->hal.source[source].supported)
		return NP_STATUS_SUCCESS;
	return NP_STATUS_NOT_SUPPORTED;
}

static unsigned group_affinity_size(const np_machine *m)
{
	return caller_is_32bit(m) ? NP_GROUP_AFFINITY_SIZE_32 : NP_GROUP_AFFINITY_SIZE_64;
}

/* CP-12, CP-13, CP-14: the user-mode probes, in this order. */
static uint32_t probe_arguments(np_machine *m, const request *r)
{
	/* each rule marked after its probe, so that it is the last one applied
	 * when the probe refuses (the probe marks AS-1 and AS-2 itself) */
	uint32_t st = np_probe_for_write(m, r->a.profile_handle, caller_is_32bit(m) ? 4u : 8u, 1);
	NP_APPLY(m, CP_12);                                            /* no alignment */
	if (st != NP_STATUS_SUCCESS)
		return st;
	if (r->a.buffer_size != 0) {
		st = np_probe_for_write(m, r->a.buffer, r->a.buffer_size, 4);
		NP_APPLY(m, CP_13);
		if (st != NP_STATUS_SUCCESS)
			return st;
	}
	if (r->ex && r->a.group_count != 0) {
		st = np_probe_input_array(m, r->a.affinity_array,
					  (uint64_t)r->a.group_count * group_affinity_size(m), 4);
		NP_APPLY(m, CP_14);
		return st;
	}
	return NP_STATUS_SUCCESS;
}

/* CP-15: one GROUP_AFFINITY element against the active processors. */
static uint32_t check_element(const np_machine *m, request *r, uint64_t mask, unsigned group,
			      bool reserved_zero)
{
	if (group >= m->groups || mask == 0 || (mask & ~np_active_mask(m)) != 0 || !reserved_zero)
		return NP_STATUS_INVALID_PARAMETER;
	if (r->masks[group] != 0 && m->knobs.groups == NP_GROUPS_REJECT)
		return NP_STATUS_INVALID_PARAMETER;
	r->masks[group] |= mask;
	return NP_STATUS_SUCCESS;
}

/* Reads element i of AffinityArray in the caller's layout. */
static bool read_element(np_machine *m, const request *r, unsigned i, uint64_t *mask,
			 unsigned *group, bool *reserved_zero)
{
	uint8_t e[NP_GROUP_AFFINITY_SIZE_64];
	unsigned size = group_affinity_size(m);
	if (!np_mem_read(m, r->a.affinity_array + (uint64_t)i * size, e, size))
		return false;
	unsigned at = size == NP_GROUP_AFFINITY_SIZE_32 ? 4u : 8u;  /* Group follows Mask */
	uint64_t mk = 0;
	memcpy(&mk, e, at);
	uint16_t g, res[3];
	memcpy(&g, e + at, 2);
	memcpy(res, e + at + 2, sizeof res);
	*mask = mk;
	*group = g;
	*reserved_zero = res[0] == 0 && res[1] == 0 && res[2] == 0;
	return true;
}

/* CP-15..CP-18: the processor specification. */
static uint32_t check_processors(np_machine *m, request *r)
{
	if (!np_has_group_affinity(m->version))
		return NP_APPLY(m, CP_18), NP_STATUS_SUCCESS;   /* stored as given, read at start */
	if (!r->ex) {
		NP_APPLY(m, CP_1);
		NP_APPLY(m, CP_16);
		if (m->arch == NP_WOW64)
			NP_APPLY(m, CP_17);
		/* CP-1, CP-16, CP-17: one element for the current group; only an
		 * all-ones mask in the kernel's width means "every active processor" */
		uint64_t mask = r->a.affinity == kernel_word_max(m) ? np_active_mask(m) : r->a.affinity;
		return check_element(m, r, mask, m->current_group, true);
	}
	NP_APPLY(m, CP_15);
	if (r->a.group_count == 0) {      /* every active processor */
		for (unsigned g = 0; g < m->groups; g++)
			r->masks[g] = np_active_mask(m);
		return NP_STATUS_SUCCESS;
	}
	for (unsigned i = 0; i < r->a.group_count; i++) {
		uint64_t mask;
		unsigned group;
		bool reserved_zero;
		if (!read_element(m, r, i, &mask, &group, &reserved_zero))
			return NP_STATUS_ACCESS_VIOLATION;   /* the copy faults (kernel-mode request) */
		uint32_t st = check_element(m, r, mask, group, reserved_zero);
		if (st != NP_STATUS_SUCCESS)
			return st;
	}
	return NP_STATUS_SUCCESS;
}

/* CP-20, CP-21: a global profile. */
static uint32_t check_global(np_machine *m, const request *r)
{
	NP_APPLY(m, CP_20);
	if (r->segmented && r->segment != 0)
		return NP_STATUS_INVALID_PARAMETER;
	if (m->previous_mode == NP_MODE_KERNEL || m->profile_privilege)
		return NP_STATUS_SUCCESS;
	NP_APPLY(m, CP_21);
	bool user_base = r->a.profile_base <= np_user_probe_address(m) - 1;
	if (user_base || m->knobs.global_priv == NP_PRIV_ALWAYS)        /* CP-21 */
		return NP_STATUS_PRIVILEGE_NOT_HELD;
	return NP_STATUS_SUCCESS;
}

/* CP-22: integrity below medium makes a caller restricted; from
 * K-SANDBOX-CHECK (1507) so does a sandboxed token, which fails Windows 10's
 * access check whatever its integrity. */
static bool restricted_caller(const np_machine *m)
{
	return m->integrity == NP_INTEGRITY_LOW || (m->sandboxed && m->version >= m->knobs.sandbox_check);
}

/* CP-22: does the region reach into kernel space (K-RESTRICTED-BOUNDARY)? */
static bool reaches_kernel(const np_machine *m, uint64_t base, uint64_t size)
{
	uint64_t limit = np_user_probe_address(m), highest = limit - 1;
	switch (m->knobs.restricted) {
	case NP_RESTRICT_END:  return base + size > limit;
	case NP_RESTRICT_BASE: return base > highest;
	case NP_RESTRICT_LAST_BYTE:
	default:               return size ? base + size - 1 > highest : base > highest;
	}
}

static uint32_t ob_fail_status(const np_machine *m)
{
	return m->knobs.ob_fail == NP_OB_FAIL_QUOTA ? NP_STATUS_QUOTA_EXCEEDED
						    : NP_STATUS_INSUFFICIENT_RESOURCES;
}

/* CP-23, CP-24: the object, its handle, and the write of the handle. */
static np_result make_object(np_machine *m, const request *r, unsigned process)
{
	unsigned slot = NP_MAX_PROFILES;
	for (unsigned i = 0; i < NP_MAX_PROFILES && slot == NP_MAX_PROFILES; i++)
		if (!(m->profiles >> i & 1))
			slot = i;
	if (!np_allocate(m) || slot == NP_MAX_PROFILES)                 /* CP-23 */
		return NP_DECIDE(m, CP_23, np_status(ob_fail_status(m)));
	np_profile *p = &m->profile[slot];
	*p = (np_profile){
		.exists = true,
		.process = process,
		.base = r->segmented ? 0 : r->a.profile_base,
		.size = r->a.profile_size,
		.buffer = r->a.buffer,
		.buffer_size = r->a.buffer_size,
		.bucket_size = r->a.bucket_size,
		.segment = r->segment,
		.source = r->a.source,
		.stored_affinity = r->a.affinity,
	};
	memcpy(p->group_mask, r->masks, sizeof p->group_mask);
	m->profiles |= 1ull << slot;
	NP_APPLY(m, CP_25);   /* nothing locked, linked or written */
	uint64_t handle = np_handle_open(m, NP_OBJ_PROFILE, slot, NP_PROFILE_CONTROL);
	if (handle == 0) {
		memset(p, 0, sizeof *p);
		m->profiles &= ~(1ull << slot);
		return NP_DECIDE(m, CP_23, np_status(ob_fail_status(m)));
	}
	/* CP-24: a 32-bit caller receives a 32-bit handle */
	bool written = np_mem_write(m, r->a.profile_handle, &handle, caller_is_32bit(m) ? 4u : 8u);
	if (!written && m->knobs.handle_fault == NP_HANDLE_FAULT_EXCEPTION)
		return NP_DECIDE(m, CP_24, np_status(NP_STATUS_ACCESS_VIOLATION));   /* the handle stays open */
	return NP_DECIDE(m, CP_24, np_status(NP_STATUS_SUCCESS));
}

static np_result create(np_machine *m, const np_create_profile_args *args, bool ex)
{
	if (m->halted)
		return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
	if (caller_is_32bit(m) && !fits_32bit_caller(args))
		return NP_DECIDE(m, CP_0, np_not_applicable("a 32-bit caller cannot pass a value wider than 32 bits"));
	/* One copy, widened in place and set field by field: an initializer
	 * (a string store) and a second copy after widen() (wide loads of
	 * narrow stores) cost more than the checks of a failing call (make bench). */
	request r;
	r.a = *args;
	widen(m, &r.a);
	r.ex = ex;
	r.segmented = false;
	r.segment = 0;
	memset(r.masks, 0, sizeof r.masks);
	np_create_profile_args *a = &r.a;
	if (!np_has_source_argument(m->version) &&                     /* CP-0 */
	    (a->source != NP_PROFILE_TIME || a->affinity != 0xFFFFFFFFu))
		return NP_DECIDE(m, CP_0, np_not_applicable("3.10 and 3.50 have no ProfileSource and no Affinity argument (CP-0)"));
	if (a->buffer_size == 0 && np_has_sp4_profile_fixes(m->version))  /* CP-2 */
		return NP_DECIDE(m, CP_2, np_status(NP_STATUS_INVALID_PARAMETER_7));
	if (np_has_segment_mode(m->arch) && a->bucket_size == 0 && a->profile_base < 0x10000) {
		NP_APPLY(m, CP_3);
		if (a->buffer_size >= 4) {
			NP_APPLY(m, CP_6), r.segmented = true;
			r.segment = (uint32_t)a->profile_base;
			a->profile_base = 0;
			a->bucket_size = segment_bucket(m, (uint32_t)a->profile_size, a->buffer_size / 4u);
		} else if (!np_has_sp4_profile_fixes(m->version)) {          /* CP-5 */
			if (m->knobs.pre_sp4_div0 == NP_DIV0_FAULT)
				return NP_DECIDE(m, CP_5, np_fault(NP_STATUS_INTEGER_DIVIDE_BY_ZERO));
			m->halted = true;
			m->halt_code = NP_BUGCHECK_KMODE_EXCEPTION_NOT_HANDLED;
			return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
		} else if (m->knobs.seg_smallbuf == NP_SEG_SMALLBUF_PARAM7) { /* CP-4 */
			return NP_DECIDE(m, CP_4, np_status(NP_STATUS_INVALID_PARAMETER_7));
		}
	}
	if (a->bucket_size < 2 || a->bucket_size > 31)                  /* CP-7 */
		return NP_DECIDE(m, CP_7, np_status(NP_STATUS_INVALID_PARAMETER));
	NP_APPLY_R(m, np_capacity_check_fixed(m) ? NP_RULE(CP_9) : NP_RULE(CP_8));
	if (buffer_too_small(m, a->profile_size, a->bucket_size, a->buffer_size))
		return NP_DECIDE_R(m, np_capacity_check_fixed(m) ? NP_RULE(CP_9) : NP_RULE(CP_8), np_status(NP_STATUS_BUFFER_TOO_SMALL));
	if (a->profile_size > kernel_word_max(m) - a->profile_base)            /* CP-10 */
		return NP_DECIDE(m, CP_10, np_status(NP_STATUS_BUFFER_OVERFLOW));

	/* CP-11, CP-12..CP-14, CP-15..CP-18 in the order K-ORDER-PROBE says */
	uint32_t st = NP_STATUS_SUCCESS;
	switch (m->knobs.order_probe) {
	case NP_PROBE_BEFORE_SOURCE:
		if ((st = probe_arguments(m, &r)) || (st = check_source(m, a->source)) ||
		    (st = check_processors(m, &r)))
			return NP_DECIDE_LAST(m, CP_11, np_status(st));
		break;
	case NP_PROBE_AFTER_PROCESSORS:
		if ((st = check_source(m, a->source)) || (st = check_processors(m, &r)) ||
		    (st = probe_arguments(m, &r)))
			return NP_DECIDE_LAST(m, CP_11, np_status(st));
		break;
	case NP_PROBE_AFTER_SOURCE:
	default:
		if ((st = check_source(m, a->source)) || (st = probe_arguments(m, &r)) ||
		    (st = check_processors(m, &r)))
			return NP_DECIDE_LAST(m, CP_11, np_status(st));
		break;
	}

	unsigned process = 0;
	if (a->process) {
		st = np_handle_reference(m, a->process, NP_OBJ_PROCESS, NP_PROCESS_QUERY_INFORMATION, &process);
		if (st != NP_STATUS_SUCCESS)
			return NP_DECIDE(m, CP_19, np_status(st));
	} else if ((st = check_global(m, &r)) != NP_STATUS_SUCCESS) {   /* CP-20, CP-21 */
		return NP_DECIDE_LAST(m, CP_20, np_status(st));
	}
	if (np_checks_restricted_callers(m->version) && m->previous_mode == NP_MODE_USER &&
	    restricted_caller(m) && reaches_kernel(m, a->profile_base, a->profile_size))
		return NP_DECIDE(m, CP_22, np_status(NP_STATUS_ACCESS_DENIED));
	return make_object(m, &r, process);
}

np_result np_nt_create_profile(np_machine *m, const np_create_profile_args *a)
{
	np_trail_clear(m);
	return create(m, a, false);
}

np_result np_nt_create_profile_ex(np_machine *m, const np_create_profile_args *a)
{
	np_trail_clear(m);
	if (!np_has_group_affinity(m->version))
		return NP_DECIDE(m, CP_0, np_not_exported());
	return create(m, a, true);
}
