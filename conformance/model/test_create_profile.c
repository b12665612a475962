/* SPDX-License-Identifier: MIT */
/* SPEC.md §CP: NtCreateProfile and NtCreateProfileEx (CP-0..CP-25), and the
 * read probe of their AffinityArray (AS-3).
 *
 * Every expectation below is worked out from the rule text, not from the
 * model. A failing create must leave no object, no handle and the caller's
 * handle cell as it was (poisoned 0xCC); a successful one must write the new
 * handle in the caller's width and record the profile as the rules say. */
#include "np_test.h"
#include "np_model_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

/* ---- the address space every machine gets ---- */
#define HCELL      0x10000u                /* RW page of handle cells, 0xCC */
#define RO_PAGE    0x20000u                /* read-only page, 0xCC */
#define GONE_PAGE  0x30000u                /* passes the probe, gone afterwards */
#define UNMAPPED   0x40000u
#define AFF        0x50000u                /* RW page for GROUP_AFFINITY arrays */
#define BUF        0x100000u               /* RW buffers, 4 pages, zero */
#define BUF_LEN    0x4000u
#define KERNEL_X64 0xFFFFF80000001000ull   /* mapped RW, above the x64 limit */
#define ADDR_8000  0x80001000u             /* x86: kernel; WOW64: user space */
#define REGION     0x10000000u             /* a ProfileBase in user space */
#define POISON     0xCCu

#define X64_LIMIT  0x7FFFFFFF0000ull       /* AS-1 */
#define X86_LIMIT  0x7FFF0000u

#define BUGCHECK_KMODE_EXCEPTION 0x1Eu

#define ALL_PROCESS_ACCESS 0x001FFFFFu

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	uint64_t high = m->arch == NP_X64 ? KERNEL_X64 : ADDR_8000;
	return !(np_mem_map(m, HCELL, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, POISON) ||
		 np_mem_map(m, RO_PAGE, NP_PAGE_SIZE, NP_PROT_READ, 0, POISON) ||
		 np_mem_map(m, GONE_PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE,
			    NP_REGION_VANISHES, POISON) ||
		 np_mem_map(m, AFF, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0) ||
		 np_mem_map(m, BUF, BUF_LEN, NP_PROT_READ | NP_PROT_WRITE, 0, 0) ||
		 np_mem_map(m, high, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, POISON));
}

/* For tests that need several machines. */
static np_machine *boot(np_ver v, np_arch a)
{
	np_machine *m = machine_new_with(v, a, NULL, lay_out);
	assert_non_null(m);
	return m;
}

#define SETUP(name, v, a) \
	static int setup_##name(void **state) \
	{ \
		return setup_with(state, machine_new_with(v, a, NULL, lay_out)); \
	}
SETUP(x86_3_10, NP_V3_10, NP_X86)
SETUP(x86_3_50, NP_V3_50, NP_X86)
SETUP(x86_3_51, NP_V3_51, NP_X86)
SETUP(x86_4_0, NP_V4_0, NP_X86)
SETUP(x86_4_0sp4, NP_V4_0SP4, NP_X86)
SETUP(x86_6_1, NP_V6_1, NP_X86)
SETUP(x86_6_2, NP_V6_2, NP_X86)
SETUP(x64_6_0, NP_V6_0, NP_X64)
SETUP(x64_6_1, NP_V6_1, NP_X64)
SETUP(x64_6_2, NP_V6_2, NP_X64)
SETUP(x64_6_3, NP_V6_3, NP_X64)
SETUP(x64_1703, NP_V1703, NP_X64)
SETUP(wow64_6_0, NP_V6_0, NP_WOW64)
SETUP(wow64_6_1, NP_V6_1, NP_WOW64)
SETUP(wow64_6_3, NP_V6_3, NP_WOW64)
#undef SETUP

/* ---- helpers ---- */

static bool caller32(const np_machine *m) { return m->arch != NP_X64; }


static uint64_t rd64(np_machine *m, uint64_t addr)
{
	uint64_t v = 0;
	assert_true(np_mem_read(m, addr, &v, sizeof v));
	return v;
}

static void wr32(np_machine *m, uint64_t addr, uint32_t v)
{
	assert_true(np_mem_poke(m, addr, &v, sizeof v));
}

static unsigned live_profiles(const np_machine *m)
{
	unsigned n = 0;
	for (unsigned i = 0; i < NP_MAX_PROFILES; i++)   /* an entry is read only where the mask says */
		n += (m->profiles >> i & 1) && m->profile[i].exists;
	return n;
}

static unsigned open_handles(const np_machine *m)
{
	unsigned n = 0;
	for (unsigned i = 0; i < NP_MAX_HANDLES; i++)
		n += m->handle[i].type != NP_OBJ_NONE;
	return n;
}

/* A valid request: the caller's own process, 64 counters of 4 bytes
 * covering 0x100 bytes at REGION, all processors, ProfileTime. */
static np_create_profile_args args(void)
{
	return (np_create_profile_args){
		.profile_handle = HCELL,
		.process = NP_HANDLE_CURRENT_PROCESS,
		.profile_base = REGION,
		.profile_size = 0x100,
		.bucket_size = 2,
		.buffer = BUF,
		.buffer_size = 0x100,
		.source = NP_PROFILE_TIME,
		.affinity = NP_AFFINITY_ALL,
		.group_count = 0,
		.affinity_array = 0,
	};
}

/* The same for machine m. A WOW64 caller's all-ones Affinity is invalid
 * from 6.1 unless 32 processors are active (CP-17), so WOW64 requests name
 * processor 0 instead; everything else is args(). */
static np_create_profile_args args_m(const np_machine *m)
{
	np_create_profile_args a = args();
	if (m->arch == NP_WOW64 && np_has_group_affinity(m->version))
		a.affinity = 1;
	return a;
}

/* Puts 8 poison bytes at cell when they fit in mapped memory. */
static void poison_cell(np_machine *m, uint64_t cell)
{
	static const uint8_t p[8] = { POISON, POISON, POISON, POISON, POISON, POISON, POISON, POISON };
	if (!np_mem_poke(m, cell, p, 8))
		(void)np_mem_poke(m, cell, p, 4);
}

static np_result call(np_machine *m, const np_create_profile_args *a, bool ex)
{
	return ex ? np_nt_create_profile_ex(m, a) : np_nt_create_profile(m, a);
}

/* The handle entry of h, which must be a profile handle with PROFILE_CONTROL only. */
static np_profile *profile_of(np_machine *m, uint64_t h)
{
	assert_true(h >= 4 && h % 4 == 0 && h / 4 <= NP_MAX_HANDLES);
	const np_handle_entry *e = &m->handle[h / 4 - 1];
	assert_int_equal(e->type, NP_OBJ_PROFILE);
	assert_int_equal(e->access, NP_PROFILE_CONTROL);             /* CP-23 */
	assert_true(e->object < NP_MAX_PROFILES);
	np_profile *p = &m->profile[e->object];
	assert_true(p->exists);
	assert_false(p->started);                                      /* CP-25 */
	return p;
}

/* Expects success with the handle written at cell; returns the handle. */
static uint64_t create_ok_at(np_machine *m, const np_create_profile_args *a, bool ex, uint64_t cell)
{
	unsigned profiles = live_profiles(m), handles = open_handles(m);
	poison_cell(m, cell);
	assert_status(call(m, a, ex), NP_STATUS_SUCCESS);
	uint64_t h = caller32(m) ? rd32(m, cell) : rd64(m, cell);
	assert_int_equal(live_profiles(m), profiles + 1);
	assert_int_equal(open_handles(m), handles + 1);
	profile_of(m, h);
	return h;
}

static np_profile *create_ok(np_machine *m, const np_create_profile_args *a, bool ex)
{
	return profile_of(m, create_ok_at(m, a, ex, a->profile_handle));
}

/* Expects the status code with nothing created and the cell untouched. */
static void create_fails(np_machine *m, const np_create_profile_args *a, bool ex, uint32_t code)
{
	unsigned profiles = live_profiles(m), handles = open_handles(m);
	poison_cell(m, a->profile_handle);
	assert_status(call(m, a, ex), code);
	assert_int_equal(live_profiles(m), profiles);
	assert_int_equal(open_handles(m), handles);
	uint32_t v;
	if (np_mem_read(m, a->profile_handle, &v, sizeof v))
		assert_int_equal(v, 0xCCCCCCCCu);
}

/* A 32-bit caller passes pointers, SIZE_T and KAFFINITY values in 32 bits
 * (calls.h: "in the caller's width"); a wider value is a request that cannot
 * be expressed: not applicable, nothing created, the cell untouched. */
static void create_not_applicable(np_machine *m, const np_create_profile_args *a, bool ex,
				  uint64_t cell)
{
	unsigned profiles = live_profiles(m), handles = open_handles(m);
	poison_cell(m, cell);
	np_result r = call(m, a, ex);
	assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
	assert_non_null(r.why);
	assert_int_equal(live_profiles(m), profiles);
	assert_int_equal(open_handles(m), handles);
	assert_int_equal(rd32(m, cell), 0xCCCCCCCCu);
}

/* Closes every handle, so that the next test of a sweep starts empty. */
static void close_all(np_machine *m)
{
	for (unsigned i = 0; i < NP_MAX_HANDLES; i++)
		if (m->handle[i].type != NP_OBJ_NONE)
			assert_status(np_nt_close(m, 4u * (i + 1)), NP_STATUS_SUCCESS);
	assert_int_equal(live_profiles(m), 0);
}

/* Writes element i of a GROUP_AFFINITY array in the caller's layout (CP-14):
 * Mask (4 bytes for 32-bit callers, 8 for x64), then Group, then Reserved[3]. */
static void put_group(np_machine *m, uint64_t array, unsigned i, uint64_t mask, uint16_t group,
		      uint16_t r0, uint16_t r1, uint16_t r2)
{
	uint8_t e[16] = { 0 };
	unsigned mask_len = caller32(m) ? 4 : 8, size = caller32(m) ? 12 : 16;
	uint16_t rest[4] = { group, r0, r1, r2 };
	memcpy(e, &mask, mask_len);
	memcpy(e + mask_len, rest, sizeof rest);
	assert_true(np_mem_poke(m, array + (uint64_t)i * size, e, size));
}

static np_create_profile_args ex_args(uint16_t count, uint64_t array)
{
	np_create_profile_args a = args();
	a.group_count = count;
	a.affinity_array = array;
	return a;
}

static const np_arch arches[] = { NP_X86, NP_X64, NP_WOW64 };

/* ==== CP-0 ==== */

/* CP-0, ST-0, SP-0: NTDLL exports Nt and Zw names as long as the function
 * exists (Ex from 6.1); the kernel exports ZwCreateProfileEx, ZwStartProfile
 * and ZwStopProfile from 1607 and ZwCreateProfile never; an Nt spelling in
 * kernel mode is a kernel-mode request of the service. */
/* rules: CP-0 ST-0 SP-0 */
static void test_cp0_exports_by_version(void **state)
{
	(void)state;
	for (int v = 0; v < NP_VERSION_COUNT; v++) {
		bool ex = v >= NP_V6_1, kzw = v >= NP_V1607;
		assert_true(np_is_exported(v, NP_MODE_USER, "NtCreateProfile"));
		assert_true(np_is_exported(v, NP_MODE_USER, "ZwCreateProfile"));
		assert_int_equal(np_is_exported(v, NP_MODE_USER, "NtCreateProfileEx"), ex);
		assert_int_equal(np_is_exported(v, NP_MODE_USER, "ZwCreateProfileEx"), ex);
		assert_false(np_is_exported(v, NP_MODE_KERNEL, "ZwCreateProfile"));
		assert_int_equal(np_is_exported(v, NP_MODE_KERNEL, "ZwCreateProfileEx"), kzw);
		assert_true(np_is_exported(v, NP_MODE_KERNEL, "NtCreateProfile"));
		assert_int_equal(np_is_exported(v, NP_MODE_KERNEL, "NtCreateProfileEx"), ex);
		assert_false(np_is_exported(v, NP_MODE_USER, "NtCreateProfileEy"));
		assert_false(np_is_exported(v, NP_MODE_USER, "ntcreateprofile"));
	}
	/* the thresholds, both sides */
	assert_false(np_is_exported(NP_V6_0, NP_MODE_USER, "NtCreateProfileEx"));
	assert_true(np_is_exported(NP_V6_1, NP_MODE_USER, "NtCreateProfileEx"));
	assert_false(np_is_exported(NP_V1511, NP_MODE_KERNEL, "ZwCreateProfileEx"));
	assert_true(np_is_exported(NP_V1607, NP_MODE_KERNEL, "ZwCreateProfileEx"));
	assert_false(np_is_exported(NP_V11_24H2, NP_MODE_KERNEL, "ZwCreateProfile"));
}

/* CP-0: NtCreateProfileEx does not exist before 6.1 on any architecture; it
 * does from 6.1, where it creates like NtCreateProfile. */
/* rules: CP-0 */
static void test_cp0_ex_not_exported_before_6_1(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof arches / sizeof *arches; i++) {
		np_machine *m = boot(NP_V6_0, arches[i]);
		np_create_profile_args a = args_m(m);
		poison_cell(m, HCELL);
		np_result r = np_nt_create_profile_ex(m, &a);
		assert_int_equal(r.kind, NP_RESULT_NOT_EXPORTED);
		assert_int_equal(live_profiles(m), 0);
		assert_int_equal(rd32(m, HCELL), 0xCCCCCCCCu);
		create_ok(m, &a, false);
		machine_free(m);

		m = boot(NP_V6_1, arches[i]);
		create_ok(m, &a, true);
		machine_free(m);
	}
}

static void assert_seven_arguments(np_machine *m)
{
	assert_false(np_has_source_argument(m->version));
	np_create_profile_args a = args_m(m);
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->source, NP_PROFILE_TIME);
	static const uint32_t sources[] = { 0x01, 0x02, 0x18, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
		a = args_m(m);
		a.source = sources[i];
		poison_cell(m, HCELL);
		np_result r = np_nt_create_profile(m, &a);
		assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
		assert_non_null(r.why);
		assert_int_equal(rd32(m, HCELL), 0xCCCCCCCCu);
	}
	static const uint64_t masks[] = { 0, 1, 0x7FFFFFFF, 0xFFFFFFFE };
	for (size_t i = 0; i < sizeof masks / sizeof *masks; i++) {
		a = args_m(m);
		a.affinity = masks[i];
		np_result r = np_nt_create_profile(m, &a);
		assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
		assert_non_null(r.why);
	}
	assert_int_equal(live_profiles(m), 1);
}

/* CP-0: 3.10 has seven arguments: no source other than ProfileTime, no
 * Affinity other than all-ones. */
/* rules: CP-0 */
static void test_cp0_3_10_seven_arguments(void **state) { assert_seven_arguments(*state); }

/* CP-0: 3.50 likewise. */
/* rules: CP-0 */
static void test_cp0_3_50_seven_arguments(void **state) { assert_seven_arguments(*state); }

/* CP-0, CP-11, CP-18: from 3.51 the nine-argument form keeps any source and
 * any Affinity (no HAL check before 6.2, no processor check before 6.1). */
/* rules: CP-0 CP-11 CP-18 */
static void test_cp0_3_51_nine_arguments(void **state)
{
	np_machine *m = *state;
	assert_true(np_has_source_argument(m->version));
	np_create_profile_args a = args_m(m);
	a.source = 0x18;
	a.affinity = 0x2;
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->source, 0x18);
	assert_int_equal(p->stored_affinity, 0x2);
}

/* ==== CP-1 ==== */

/* CP-1, CP-16: from 6.1 NtCreateProfile is NtCreateProfileEx with one element
 * {Affinity, current group, 0}: same processors, same failures. */
/* rules: CP-1 CP-16 */
static void test_cp1_create_is_ex_with_current_group(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	assert_null(np_machine_set_groups(m, 2));
	m->current_group = 1;

	np_create_profile_args a = args_m(m);
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->group_mask[0], 0);
	assert_int_equal(p->group_mask[1], 0xF);

	np_create_profile_args e = ex_args(1, AFF);
	put_group(m, AFF, 0, 0xF, 1, 0, 0, 0);
	p = create_ok(m, &e, true);
	assert_int_equal(p->group_mask[0], 0);
	assert_int_equal(p->group_mask[1], 0xF);

	a.affinity = 0x6;
	p = create_ok(m, &a, false);
	assert_int_equal(p->group_mask[0], 0);
	assert_int_equal(p->group_mask[1], 0x6);
	put_group(m, AFF, 0, 0x6, 1, 0, 0, 0);
	p = create_ok(m, &e, true);
	assert_int_equal(p->group_mask[1], 0x6);

	/* an inactive processor fails both the same way */
	a.affinity = 0x10;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	put_group(m, AFF, 0, 0x10, 1, 0, 0, 0);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);

	/* and every other check is shared too */
	a = args_m(m);
	a.bucket_size = 1;
	e.bucket_size = 1;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
	a = args_m(m);
	a.buffer_size = 0;
	e = ex_args(0, 0);
	e.buffer_size = 0;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER_7);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER_7);
}

/* CP-1, CP-18: before 6.1 NtCreateProfile has no processor part at all. */
/* rules: CP-1 CP-18 */
static void test_cp1_before_6_1_no_processor_part(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	static const uint64_t masks[] = { 0, 0x10, 0xF0, 0x8000000000000000ull };
	for (size_t i = 0; i < sizeof masks / sizeof *masks; i++) {
		np_create_profile_args a = args_m(m);
		a.affinity = masks[i];
		np_profile *p = create_ok(m, &a, false);
		assert_int_equal(p->stored_affinity, masks[i]);
		for (unsigned g = 0; g < NP_MAX_GROUPS; g++)
			assert_int_equal(p->group_mask[g], 0);
	}
}

/* ==== CP-2 ==== */

/* CP-2, CP-13: before 4.0sp4 BufferSize 0 is no error of its own: the call
 * goes on, and the Buffer probe of no bytes tests nothing. */
/* rules: CP-2 CP-13 */
static void test_cp2_buffer_size_zero_4_0_goes_on(void **state)
{
	np_machine *m = *state;
	assert_false(np_has_sp4_profile_fixes(m->version));
	np_create_profile_args a = args_m(m);
	a.buffer_size = 0;
	a.profile_size = 0;
	a.buffer = UNMAPPED + 2;          /* misaligned and unmapped: never probed */
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->buffer_size, 0);
	assert_int_equal(p->buffer, UNMAPPED + 2);
	a.buffer = 0;
	create_ok(m, &a, false);
	/* a region it cannot count fails the capacity check (CP-8) instead */
	a.profile_size = 1;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
}

/* CP-2: from 4.0sp4 BufferSize 0 is STATUS_INVALID_PARAMETER_7 before every
 * other check, probes included; BufferSize 1 is past this check. */
/* rules: CP-2 */
static void test_cp2_buffer_size_zero_4_0sp4_first(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.buffer_size = 0;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER_7);
	a.bucket_size = 40;                /* CP-7 */
	a.profile_handle = 0;              /* CP-12 */
	a.buffer = UNMAPPED + 1;           /* CP-13 */
	a.process = 1;                     /* CP-19 */
	a.profile_base = 0xFFFFFFF0u;
	a.profile_size = 0x100;            /* CP-10 */
	assert_status(np_nt_create_profile(m, &a), NP_STATUS_INVALID_PARAMETER_7);
	assert_int_equal(live_profiles(m), 0);

	a = args_m(m);
	a.buffer_size = 1;
	a.profile_size = 0;
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->buffer_size, 1);
}

/* CP-2: every version from 4.0sp4 on every architecture, Ex too. */
/* rules: CP-2 */
static void test_cp2_buffer_size_zero_every_later_version(void **state)
{
	(void)state;
	for (int v = NP_V4_0SP4; v < NP_VERSION_COUNT; v++) {
		for (size_t i = 0; i < sizeof arches / sizeof *arches; i++) {
			if (!np_arch_exists(v, arches[i]))
				continue;
			np_machine *m = boot(v, arches[i]);
			np_create_profile_args a = args_m(m);
			a.buffer_size = 0;
			a.profile_handle = 0;
			a.bucket_size = 0;
			create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER_7);
			if (v >= NP_V6_1) {
				a.group_count = 1;
				a.affinity_array = 0;
				create_fails(m, &a, true, NP_STATUS_INVALID_PARAMETER_7);
			}
			machine_free(m);
		}
	}
}

/* ==== CP-3 .. CP-6: segment mode ==== */

/* CP-3, CP-6: on x86, BucketSize 0 with ProfileBase below 0x10000 is segment
 * mode: the base becomes the segment, ProfileBase 0, the bucket computed. */
/* rules: CP-3 CP-6 */
static void test_cp3_segment_mode_x86(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 0;
	a.profile_base = 0xFFFF;
	a.profile_size = 0x400;             /* n = 64, q = 16: bucket 4 */
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->segment, 0xFFFF);
	assert_int_equal(p->base, 0);
	assert_int_equal(p->bucket_size, 4);
	assert_int_equal(p->size, 0x400);

	a.profile_base = 0x1B;
	p = create_ok(m, &a, false);
	assert_int_equal(p->segment, 0x1B);
	assert_int_equal(p->base, 0);

	/* 0x10000 is an address, and BucketSize 0 fails CP-7 */
	a.profile_base = 0x10000;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	/* a non-zero BucketSize is never segment mode */
	a.profile_base = 0x1000;
	a.bucket_size = 4;
	p = create_ok(m, &a, false);
	assert_int_equal(p->segment, 0);
	assert_int_equal(p->base, 0x1000);
}

/* CP-3: no segment mode for x64 and WOW64 callers: BucketSize 0 fails CP-7. */
/* rules: CP-3 CP-7 */
static void test_cp3_no_segment_mode_x64_wow64(void **state)
{
	(void)state;
	static const np_arch wide[] = { NP_X64, NP_WOW64 };
	for (size_t i = 0; i < 2; i++) {
		assert_false(np_has_segment_mode(wide[i]));
		np_machine *m = boot(NP_V6_1, wide[i]);
		np_create_profile_args a = args_m(m);
		a.bucket_size = 0;
		static const uint64_t bases[] = { 0, 0x1B, 0xFFFF };
		for (size_t b = 0; b < 3; b++) {
			a.profile_base = bases[b];
			create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
		}
		machine_free(m);
	}
	assert_true(np_has_segment_mode(NP_X86));
}

/* CP-4: from 4.0sp4, segment mode with BufferSize 1..3 is
 * STATUS_INVALID_PARAMETER_7 (K-SEG-SMALLBUF=param7); 4 is a segment. */
/* rules: CP-4 */
static void test_cp4_small_buffer_param7(void **state)
{
	(void)state;
	static const np_ver vers[] = { NP_V4_0SP4, NP_V5_0, NP_V6_1, NP_V1703, NP_V22H2 };
	for (size_t i = 0; i < sizeof vers / sizeof *vers; i++) {
		np_machine *m = boot(vers[i], NP_X86);
		np_create_profile_args a = args_m(m);
		a.bucket_size = 0;
		a.profile_base = 0x1000;
		a.profile_size = 0x10;
		for (uint32_t size = 1; size < 4; size++) {
			a.buffer_size = size;
			create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER_7);
		}
		a.buffer_size = 4;                   /* n = 1, q = 0x10: bucket 4 */
		np_profile *p = create_ok(m, &a, false);
		assert_int_equal(p->bucket_size, 4);
		assert_int_equal(p->segment, 0x1000);
		machine_free(m);
	}
}

/* CP-4: K-SEG-SMALLBUF=invalid-parameter: not segment mode, CP-7 fails. */
/* rules: CP-4 CP-7 */
static void test_cp4_small_buffer_knob_invalid_parameter(void **state)
{
	np_machine *m = *state;
	m->knobs.seg_smallbuf = NP_SEG_SMALLBUF_INVALID;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 0;
	a.profile_base = 0x1000;
	a.profile_size = 0x10;
	for (uint32_t size = 1; size < 4; size++) {
		a.buffer_size = size;
		create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	}
	a.buffer_size = 0;                           /* CP-2 still comes first */
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER_7);
	a.buffer_size = 4;
	assert_int_equal(create_ok(m, &a, false)->segment, 0x1000);
}

/* CP-5: before 4.0sp4, segment mode with BufferSize 0..3 divides by a zero
 * bucket count: the kernel fault STATUS_INTEGER_DIVIDE_BY_ZERO (default). */
/* rules: CP-5 */
static void test_cp5_divide_by_zero_fault(void **state)
{
	(void)state;
	static const np_ver vers[] = { NP_V3_10, NP_V3_50, NP_V3_51, NP_V4_0 };
	for (size_t i = 0; i < sizeof vers / sizeof *vers; i++) {
		np_machine *m = boot(vers[i], NP_X86);
		np_create_profile_args a = args_m(m);
		a.bucket_size = 0;
		a.profile_base = 0x1000;
		a.profile_size = 0x10;
		for (uint32_t size = 0; size < 4; size++) {
			a.buffer_size = size;
			poison_cell(m, HCELL);
			np_result r = np_nt_create_profile(m, &a);
			assert_int_equal(r.kind, NP_RESULT_FAULT);
			assert_int_equal(r.code, NP_STATUS_INTEGER_DIVIDE_BY_ZERO);
			assert_false(m->halted);
			assert_int_equal(live_profiles(m), 0);
			assert_int_equal(rd32(m, HCELL), 0xCCCCCCCCu);
		}
		a.buffer_size = 4;
		assert_int_equal(create_ok(m, &a, false)->bucket_size, 4);
		machine_free(m);
	}
}

/* CP-5: K-PRE-SP4-DIV0=bugcheck: KMODE_EXCEPTION_NOT_HANDLED, and the machine
 * stays stopped for every later call. */
/* rules: CP-5 */
static void test_cp5_divide_by_zero_bugcheck(void **state)
{
	np_machine *m = *state;
	m->knobs.pre_sp4_div0 = NP_DIV0_BUGCHECK;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 0;
	a.profile_base = 0x1000;
	a.profile_size = 0x10;
	a.buffer_size = 2;
	np_result r = np_nt_create_profile(m, &a);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, BUGCHECK_KMODE_EXCEPTION);
	assert_true(m->halted);
	assert_int_equal(m->halt_code, BUGCHECK_KMODE_EXCEPTION);
	np_create_profile_args good = args_m(m);
	r = np_nt_create_profile(m, &good);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, BUGCHECK_KMODE_EXCEPTION);
	r = np_nt_start_profile(m, 4);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, BUGCHECK_KMODE_EXCEPTION);
	assert_int_equal(live_profiles(m), 0);
}

/* CP-6: BucketSize = floor(log2(q - 1)) + 1, at least 2, with n = 64
 * counters (BufferSize 0x100, and 0x103 rounds down to the same n). */
/* rules: CP-6 */
static void test_cp6_bucket_size_computed(void **state)
{
	np_machine *m = *state;
	static const struct { uint32_t size, bucket; } rows[] = {
		{ 64 * 1, 2 },    /* q = 1: log2(0), K-LOG2-0=clamp */
		{ 64 * 2, 2 },    /* q = 2: log2(1) + 1 = 1, raised to 2 */
		{ 64 * 3, 2 },    /* q = 3: log2(2) + 1 = 2 */
		{ 64 * 4, 2 },    /* q = 4: floor(log2(3)) + 1 = 2 */
		{ 64 * 5, 3 },    /* q = 5: log2(4) + 1 = 3 */
		{ 64 * 8, 3 },    /* q = 8: floor(log2(7)) + 1 = 3 */
		{ 64 * 9, 4 },    /* q = 9: log2(8) + 1 = 4 */
		{ 64 * 16, 4 },
		{ 64 * 17, 5 },
		{ 64 * 16 + 3, 4 }, /* q rounds down */
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		for (uint32_t bs = 0x100; bs <= 0x103; bs += 3) {
			np_create_profile_args a = args_m(m);
			a.bucket_size = 0;
			a.profile_base = 0x23;
			a.profile_size = rows[i].size;
			a.buffer_size = bs;
			np_profile *p = create_ok(m, &a, false);
			assert_int_equal(p->bucket_size, rows[i].bucket);
			assert_int_equal(p->base, 0);
			assert_int_equal(p->segment, 0x23);
		}
	}
	/* q = 0 (ProfileSize below n): q - 1 wraps, BucketSize 32, CP-7 fails */
	np_create_profile_args a = args_m(m);
	a.bucket_size = 0;
	a.profile_base = 0x23;
	a.buffer_size = 0x100;
	a.profile_size = 63;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	a.profile_size = 0;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	/* one counter: q = 0x80000000 gives 31, q = 0x80000001 gives 32 */
	a.buffer_size = 4;
	a.profile_size = 0x80000000u;
	assert_int_equal(create_ok(m, &a, false)->bucket_size, 31);
	a.profile_size = 0x80000001u;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
}

/* CP-6: K-LOG2-0=reject: q = 1 gives BucketSize 1, which CP-7 rejects; the
 * knob changes nothing else. */
/* rules: CP-6 CP-7 */
static void test_cp6_log2_0_reject(void **state)
{
	np_machine *m = *state;
	m->knobs.log2_0 = NP_LOG2_0_REJECT;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 0;
	a.profile_base = 0x23;
	a.profile_size = 64;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	a.profile_size = 64 + 63;                    /* still q = 1 */
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	a.profile_size = 128;                        /* q = 2 */
	assert_int_equal(create_ok(m, &a, false)->bucket_size, 2);
}

/* CP-6, CP-8, CP-9: the capacity check uses the computed BucketSize: with
 * n = 64 and q = 16 (bucket 4) the old check passes up to ProfileSize 0x403,
 * the fixed one only up to 0x400. */
/* rules: CP-6 CP-8 CP-9 */
static void test_cp6_computed_bucket_used_by_capacity(void **state)
{
	(void)state;
	np_machine *m = boot(NP_V6_1, NP_X86);
	np_create_profile_args a = args_m(m);
	a.bucket_size = 0;
	a.profile_base = 0x23;
	a.profile_size = 0x403;                      /* 0x403 >> 2 = 0x100 */
	assert_int_equal(create_ok(m, &a, false)->bucket_size, 4);
	a.profile_size = 0x404;                      /* 0x101 > 0x100 */
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	a.profile_size = 0x43F;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	machine_free(m);

	m = boot(NP_V1703, NP_X86);
	a.profile_size = 0x400;                      /* 64 buckets of 16 */
	assert_int_equal(create_ok(m, &a, false)->bucket_size, 4);
	a.profile_size = 0x401;                      /* 65 buckets */
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	machine_free(m);
}

/* ==== CP-7 ==== */

/* CP-7: BucketSize 2..31; 0, 1, 32 and more are STATUS_INVALID_PARAMETER. */
/* rules: CP-7 */
static void test_cp7_bucket_size_range(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof arches / sizeof *arches; i++) {
		np_machine *m = boot(NP_V6_1, arches[i]);
		np_create_profile_args a = args_m(m);
		a.buffer_size = 4;
		a.profile_size = 4;
		static const uint32_t bad[] = { 1, 32, 33, 0x80000000u, 0xFFFFFFFFu };
		for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
			a.bucket_size = bad[b];
			create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
		}
		a.bucket_size = 2;
		assert_int_equal(create_ok(m, &a, false)->bucket_size, 2);
		a.bucket_size = 31;
		a.profile_size = 0x80000000u;        /* one bucket of 2 GB */
		assert_int_equal(create_ok(m, &a, false)->bucket_size, 31);
		/* a low ProfileBase with BucketSize 1 is no segment either */
		a.bucket_size = 1;
		a.profile_base = 0x1000;
		create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
		machine_free(m);
	}
}

/* ==== CP-8, CP-9 ==== */

/* CP-8: before 1703 the test is ProfileSize >> (BucketSize - 2) >
 * BufferSize: a region up to a quarter bucket less one byte longer than the
 * counters cover passes, and more when BufferSize is not a multiple of 4. */
/* rules: CP-8 */
static void test_cp8_capacity_slack(void **state)
{
	(void)state;
	static const np_ver vers[] = { NP_V6_1, NP_V1607 };
	for (size_t v = 0; v < 2; v++) {
		for (size_t i = 0; i < sizeof arches / sizeof *arches; i++) {
			np_machine *m = boot(vers[v], arches[i]);
			assert_false(np_capacity_check_fixed(m));
			np_create_profile_args a = args_m(m);
			a.bucket_size = 4;
			a.buffer_size = 0x40;                /* 16 counters, 0x100 bytes */
			a.profile_size = 0x100;
			create_ok(m, &a, false);
			a.profile_size = 0x103;              /* 0x40: passes */
			assert_int_equal(create_ok(m, &a, false)->size, 0x103);
			a.profile_size = 0x104;              /* 0x41 */
			create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
			a.buffer_size = 0x43;                /* still 16 counters */
			a.profile_size = 0x10F;              /* 0x43 */
			create_ok(m, &a, false);
			a.profile_size = 0x110;              /* 0x44 */
			create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
			a.bucket_size = 2;                   /* no shift at all */
			a.buffer_size = 0x40;
			a.profile_size = 0x40;
			create_ok(m, &a, false);
			a.profile_size = 0x41;
			create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
			a.bucket_size = 31;
			a.buffer_size = 4;
			a.profile_size = 0x9FFFFFFFu;        /* >> 29 = 4 */
			create_ok(m, &a, false);
			a.profile_size = 0xA0000000u;        /* >> 29 = 5 */
			create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
			machine_free(m);
		}
	}
}

/* CP-8: SIZE_T arithmetic: 64-bit for x64 callers; a 32-bit caller's
 * ProfileSize has 32 bits (zero-extended for WOW64); it cannot pass
 * 0x1_0000_0000 at all. */
/* rules: CP-8 */
static void test_cp8_size_t_width(void **state)
{
	(void)state;
	np_machine *m = boot(NP_V6_1, NP_X64);
	np_create_profile_args a = args_m(m);
	a.bucket_size = 31;
	a.buffer_size = 8;
	a.profile_size = 0x100000000ull;             /* >> 29 = 8 */
	assert_int_equal(create_ok(m, &a, false)->size, 0x100000000ull);
	a.buffer_size = 7;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	a.bucket_size = 2;
	a.buffer_size = 0x100;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	a.profile_size = 0x8000000000000000ull;
	a.bucket_size = 31;
	a.buffer_size = 0xFFFFFFFFu;                 /* 2^34 needed */
	a.buffer = BUF;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	machine_free(m);

	static const np_arch narrow[] = { NP_X86, NP_WOW64 };
	for (size_t i = 0; i < 2; i++) {
		m = boot(NP_V6_1, narrow[i]);
		a = args_m(m);
		a.bucket_size = 2;
		a.profile_size = 0x100000000ull;
		create_not_applicable(m, &a, false, HCELL);
		a.profile_size = 0x100000100ull;
		create_not_applicable(m, &a, false, HCELL);
		a.bucket_size = 31;
		a.buffer_size = 8;
		a.profile_base = 0;
		a.profile_size = 0xFFFFFFFFu;        /* >> 29 = 7 */
		assert_int_equal(create_ok(m, &a, false)->size, 0xFFFFFFFFu);
		a.buffer_size = 6;
		create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
		machine_free(m);
	}
}

/* CP-8, CP-9: the fixed check from 1703 (both sides of the threshold, every
 * architecture): 0x101 bytes in 16-byte buckets need 17 counters. */
/* rules: CP-8 CP-9 */
static void test_cp9_threshold_1607_1703(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof arches / sizeof *arches; i++) {
		for (int v = NP_V1607; v <= NP_V1709; v++) {
			np_machine *m = boot(v, arches[i]);
			np_create_profile_args a = args_m(m);
			a.bucket_size = 4;
			a.buffer_size = 0x40;
			a.profile_size = 0x101;
			if (v < NP_V1703) {
				assert_false(np_capacity_check_fixed(m));
				create_ok(m, &a, false);
			} else {
				assert_true(np_capacity_check_fixed(m));
				create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
			}
			machine_free(m);
		}
	}
}

/* CP-9: ceil(ProfileSize / 2^BucketSize) > floor(BufferSize / 4) fails. */
/* rules: CP-9 */
static void test_cp9_capacity_exact(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 4;
	a.buffer_size = 0x40;
	a.profile_size = 0x100;                      /* 16 <= 16 */
	create_ok(m, &a, false);
	a.profile_size = 0x101;                      /* 17 > 16 */
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	a.buffer_size = 0x43;                        /* 16 whole counters */
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	a.buffer_size = 0x44;                        /* 17 */
	create_ok(m, &a, false);
	a.profile_size = 0x11;                       /* 2 buckets */
	a.buffer_size = 7;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	a.buffer_size = 8;
	create_ok(m, &a, false);
	a.bucket_size = 31;                          /* 2^40 bytes: 512 buckets */
	a.profile_size = 1ull << 40;
	a.buffer_size = 0x800;
	create_ok(m, &a, false);
	a.buffer_size = 0x7FF;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	a.profile_size = (1ull << 40) + 1;
	a.buffer_size = 0x800;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	a.buffer_size = 0x804;
	create_ok(m, &a, false);
}

/* CP-9: ProfileSize 0 needs no counter (K-ZERO-SIZE=accept), one with
 * one-counter. */
/* rules: CP-9 */
static void test_cp9_zero_size_knob(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.profile_size = 0;
	for (uint32_t bs = 1; bs <= 4; bs++) {
		a.buffer_size = bs;
		create_ok(m, &a, false);
	}
	m->knobs.zero_size = NP_ZERO_SIZE_ONE_COUNTER;
	for (uint32_t bs = 1; bs < 4; bs++) {
		a.buffer_size = bs;
		create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	}
	a.buffer_size = 4;
	create_ok(m, &a, false);
}

/* CP-8, CP-9: K-FIX-1703 moves the threshold to any version, or to never. */
/* rules: CP-8 CP-9 */
static void test_cp9_fix_version_knob(void **state)
{
	(void)state;
	np_create_profile_args a = args();          /* x64 and x86 only */
	a.bucket_size = 4;
	a.buffer_size = 0x40;
	a.profile_size = 0x103;

	np_machine *m = boot(NP_V1607, NP_X64);
	m->knobs.fixed_capacity_from = NP_V1607;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	machine_free(m);

	m = boot(NP_V1703, NP_X64);
	m->knobs.fixed_capacity_from = NP_VERSION_COUNT;      /* never */
	create_ok(m, &a, false);
	machine_free(m);

	m = boot(NP_V11_24H2, NP_X64);
	m->knobs.fixed_capacity_from = NP_VERSION_COUNT;
	create_ok(m, &a, false);
	m->knobs.fixed_capacity_from = NP_V1703;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	machine_free(m);

	m = boot(NP_V6_1, NP_X86);
	m->knobs.fixed_capacity_from = NP_V6_1;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
	m->knobs.fixed_capacity_from = NP_V6_2;
	create_ok(m, &a, false);
	machine_free(m);
}

/* ==== CP-10 ==== */

/* CP-10: x86: a sum of exactly 2^32 wraps (STATUS_BUFFER_OVERFLOW, a
 * warning, no handle); a sum of 0xFFFFFFFF passes. After CP-8. */
/* rules: CP-10 CP-8 */
static void test_cp10_wrap_x86(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 12;
	a.buffer_size = 4;
	a.profile_base = 0xFFFFF000u;
	a.profile_size = 0x1000;
	create_fails(m, &a, false, NP_STATUS_BUFFER_OVERFLOW);
	a.profile_base = 0xFFFFFFFFu;
	a.profile_size = 1;
	create_fails(m, &a, false, NP_STATUS_BUFFER_OVERFLOW);
	a.profile_base = 0x80000000u;
	a.profile_size = 0x80000000u;
	a.bucket_size = 31;
	create_fails(m, &a, false, NP_STATUS_BUFFER_OVERFLOW);
	a.profile_size = 0x7FFFFFFFu;                /* 0xFFFFFFFF */
	create_ok(m, &a, false);
	a.bucket_size = 12;
	a.profile_base = 0xFFFFF000u;
	a.profile_size = 0xFFF;
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->base, 0xFFFFF000u);
	assert_int_equal(p->size, 0xFFF);
	/* CP-8 comes first */
	a.bucket_size = 2;
	a.profile_size = 0x1000;
	create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
}

/* CP-10: x64: a sum of 2^64 wraps, SIZE_MAX passes. */
/* rules: CP-10 */
static void test_cp10_wrap_x64(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 12;
	a.buffer_size = 4;
	a.profile_base = 0xFFFFFFFFFFFFF000ull;
	a.profile_size = 0x1000;
	create_fails(m, &a, false, NP_STATUS_BUFFER_OVERFLOW);
	a.profile_base = UINT64_MAX;
	a.profile_size = 1;
	create_fails(m, &a, false, NP_STATUS_BUFFER_OVERFLOW);
	a.profile_base = 0xFFFFFFFFFFFFF000ull;
	a.profile_size = 0xFFF;
	assert_int_equal(create_ok(m, &a, false)->base, 0xFFFFFFFFFFFFF000ull);
	/* what wraps a 32-bit kernel is nothing here */
	a.profile_base = 0xFFFFF000u;
	a.profile_size = 0x1000;
	create_ok(m, &a, false);
}

/* CP-10: a WOW64 caller's 32-bit values are added in 64 bits: never a wrap. */
/* rules: CP-10 */
static void test_cp10_wow64_never_wraps(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 12;
	a.buffer_size = 4;
	a.profile_base = 0xFFFFF000u;
	a.profile_size = 0x1000;
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->base + p->size, 0x100000000ull);
	a.bucket_size = 31;
	a.buffer_size = 8;
	a.profile_base = 0xFFFFFFFFu;
	a.profile_size = 0xFFFFFFFFu;
	create_ok(m, &a, false);
	/* the caller cannot pass more than 32 bits */
	a.profile_base = 0xFFFFFFFFFFFFF000ull;
	a.profile_size = 0x1000;
	create_not_applicable(m, &a, false, HCELL);
}

/* ==== CP-11 ==== */

/* CP-11: before 6.2 any 32-bit source is kept, supported or not. */
/* rules: CP-11 */
static void test_cp11_source_stored_before_6_2(void **state)
{
	np_machine *m = *state;
	assert_false(np_create_checks_source(m->version));
	static const uint32_t sources[] = { 0x00, 0x01, 0x02, 0x18, 0xFF, 0x100, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
		np_create_profile_args a = args_m(m);
		a.source = sources[i];
		assert_int_equal(create_ok(m, &a, false)->source, sources[i]);
		np_create_profile_args e = ex_args(0, 0);
		e.source = sources[i];
		assert_int_equal(create_ok(m, &e, true)->source, sources[i]);
	}
}

static void assert_source(np_machine *m, uint32_t source, bool supported)
{
	np_create_profile_args a = args_m(m);
	a.source = source;
	if (supported)
		assert_int_equal(create_ok(m, &a, false)->source, source);
	else
		create_fails(m, &a, false, NP_STATUS_NOT_SUPPORTED);
	np_create_profile_args e = ex_args(0, 0);
	e.source = source;
	if (supported)
		create_ok(m, &e, true);
	else
		create_fails(m, &e, true, NP_STATUS_NOT_SUPPORTED);
}

/* CP-11: from 6.2 the HAL must list the source (HL-1). */
/* rules: CP-11 HL-1 */
static void test_cp11_hal_must_support_source(void **state)
{
	np_machine *m = *state;
	assert_true(np_create_checks_source(m->version));
	assert_source(m, 0x00, true);                /* Default: ProfileTime only */
	assert_source(m, 0x02, false);
	assert_source(m, 0x13, false);
	assert_source(m, 0x100, false);
	close_all(m);

	assert_null(np_machine_set_hal(m, NP_HAL_EMON));
	assert_source(m, 0x02, true);
	assert_source(m, 0x13, true);
	assert_source(m, 0x1F, true);
	assert_source(m, 0x08, false);               /* an Amd64 source */
	assert_source(m, 0x20, false);
	assert_source(m, 0x10002, false);            /* no truncation to 16 bits */
	close_all(m);

	assert_null(np_machine_set_hal(m, NP_HAL_AMD64));
	assert_source(m, 0x08, true);
	assert_source(m, 0x19, true);
	assert_source(m, 0xBF, true);
	assert_source(m, 0x13, false);
	assert_source(m, 0xC0, false);
	assert_source(m, 0xFF, false);
	assert_source(m, 0x100, false);
	assert_source(m, 0xFFFFFFFFu, false);
	close_all(m);

	/* KS-2: the last entry of the HAL's table counts once the HAL supports it */
	m->hal.source[NP_HAL_SOURCES - 1].supported = true;
	assert_source(m, 0xFF, true);
	assert_source(m, 0x100, false);
}

/* CP-11: ProfileAlignmentFixup is no HAL source: STATUS_NOT_SUPPORTED with
 * K-ALIGNFIXUP-CREATE=not-supported, kept with accept; 6.1 keeps it anyway. */
/* rules: CP-11 */
static void test_cp11_alignment_fixup_knob(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_hal(m, NP_HAL_AMD64));
	assert_source(m, NP_PROFILE_ALIGNMENT_FIXUP, false);
	m->knobs.alignfixup_create = NP_ALIGNFIXUP_ACCEPT;
	assert_source(m, NP_PROFILE_ALIGNMENT_FIXUP, true);
	assert_source(m, 0x03, false);               /* the knob is about source 1 only */

	np_machine *old = boot(NP_V6_1, NP_X64);
	assert_source(old, NP_PROFILE_ALIGNMENT_FIXUP, true);
	machine_free(old);
}

/* CP-11: a 32-bit kernel from 6.2 asks its HAL too (Emon from 6.2, KS-3). */
/* rules: CP-11 KS-3 */
static void test_cp11_x86_6_2(void **state)
{
	np_machine *m = *state;
	assert_source(m, 0x02, false);
	assert_null(np_machine_set_hal(m, NP_HAL_EMON));
	assert_source(m, 0x02, true);
	assert_source(m, 0x08, false);
	np_machine *old = boot(NP_V6_1, NP_X86);
	assert_source(old, 0x02, true);
	machine_free(old);
}

/* ==== CP-12 ==== */

/* CP-12: x64: 8 writable user bytes, no alignment. NULL, read-only,
 * unmapped and kernel addresses are STATUS_ACCESS_VIOLATION. */
/* rules: CP-12 */
static void test_cp12_handle_probe_x64(void **state)
{
	np_machine *m = *state;
	static const uint64_t bad[] = { 0, 4, RO_PAGE, UNMAPPED, KERNEL_X64,
					HCELL + NP_PAGE_SIZE - 4,   /* 8 bytes cross the page end */
					HCELL + NP_PAGE_SIZE - 1,
					0xFFFFFFFFFFFFFFF8ull };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		np_create_profile_args a = args_m(m);
		a.profile_handle = bad[i];
		create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
		np_create_profile_args e = ex_args(0, 0);
		e.profile_handle = bad[i];
		create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
	}
	assert_int_equal(rd64(m, KERNEL_X64), 0xCCCCCCCCCCCCCCCCull);
	static const uint64_t good[] = { HCELL + 1, HCELL + 3, HCELL + 6, HCELL + NP_PAGE_SIZE - 8 };
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		np_create_profile_args a = args_m(m);
		a.profile_handle = good[i];
		create_ok(m, &a, false);
	}
	/* the last user page, up to the limit and not one byte past it */
	assert_null(np_mem_map(m, X64_LIMIT - NP_PAGE_SIZE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, POISON));
	assert_null(np_mem_map(m, X64_LIMIT, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, POISON));
	np_create_profile_args a = args_m(m);
	a.profile_handle = X64_LIMIT - 8;
	create_ok(m, &a, false);
	a.profile_handle = X64_LIMIT - 4;
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
	a.profile_handle = X64_LIMIT;
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
}

/* CP-12: x86: 4 bytes; the limit is 0x7FFF0000; 0x80001000 is kernel space. */
/* rules: CP-12 */
static void test_cp12_handle_probe_x86(void **state)
{
	np_machine *m = *state;
	static const uint64_t bad[] = { 0, RO_PAGE, UNMAPPED, ADDR_8000, HCELL + NP_PAGE_SIZE - 3 };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		np_create_profile_args a = args_m(m);
		a.profile_handle = bad[i];
		create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
	}
	np_create_profile_args a = args_m(m);
	a.profile_handle = HCELL + NP_PAGE_SIZE - 4;         /* 4 bytes fit */
	create_ok(m, &a, false);
	a.profile_handle = HCELL + 2;
	create_ok(m, &a, false);
	assert_null(np_mem_map(m, X86_LIMIT - NP_PAGE_SIZE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, POISON));
	assert_null(np_mem_map(m, X86_LIMIT, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, POISON));
	a.profile_handle = X86_LIMIT - 4;
	create_ok(m, &a, false);
	a.profile_handle = X86_LIMIT - 2;
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
	a.profile_handle = X86_LIMIT;
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
}

/* CP-12, AS-1: WOW64: 4 bytes below the 64-bit kernel's limit, so
 * 0x80001000 is user space; the pointer has 32 bits. */
/* rules: CP-12 AS-1 */
static void test_cp12_handle_probe_wow64(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.profile_handle = ADDR_8000;
	create_ok(m, &a, false);
	assert_int_equal(rd32(m, ADDR_8000 + 4), 0xCCCCCCCCu);   /* 4 bytes written */
	a.profile_handle = HCELL + NP_PAGE_SIZE - 4;
	create_ok(m, &a, false);
	a.profile_handle = 0xFFFFFFFF00000000ull | HCELL;        /* no such 32-bit pointer */
	create_not_applicable(m, &a, false, HCELL);
	a.profile_handle = 0xFFFFF000u;                         /* user space, unmapped */
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
	static const uint64_t bad[] = { 0, RO_PAGE, UNMAPPED };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		a.profile_handle = bad[i];
		create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
	}
}

/* ==== CP-13 ==== */

/* CP-13: Buffer: 4-byte alignment first (STATUS_DATATYPE_MISALIGNMENT), then
 * all BufferSize bytes writable user memory (STATUS_ACCESS_VIOLATION); the
 * probe writes nothing; CP-12 comes first. */
/* rules: CP-13 CP-12 */
static void test_cp13_buffer_probe(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	for (uint64_t off = 1; off < 4; off++) {
		a.buffer = BUF + off;
		create_fails(m, &a, false, NP_STATUS_DATATYPE_MISALIGNMENT);
		a.buffer = UNMAPPED + off;                   /* alignment first */
		create_fails(m, &a, false, NP_STATUS_DATATYPE_MISALIGNMENT);
		a.buffer = KERNEL_X64 + off;
		create_fails(m, &a, false, NP_STATUS_DATATYPE_MISALIGNMENT);
	}
	static const uint64_t bad[] = { 0, UNMAPPED, RO_PAGE, KERNEL_X64, BUF + BUF_LEN - 0xFC };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		a.buffer = bad[i];
		create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
	}
	a.buffer = BUF;
	a.buffer_size = BUF_LEN + 4;                          /* one counter too far */
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
	a.buffer_size = 0xFFFFFFFFu;
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);

	/* the whole buffer, to the last byte of the region */
	for (uint64_t i = 0; i < BUF_LEN; i += 4)
		wr32(m, BUF + i, 0x5A5A5A5Au);
	a.buffer_size = BUF_LEN;
	assert_int_equal(create_ok(m, &a, false)->buffer_size, BUF_LEN);
	a.buffer = BUF + BUF_LEN - 0x100;
	a.buffer_size = 0x100;
	assert_int_equal(create_ok(m, &a, false)->buffer, BUF + BUF_LEN - 0x100);
	a.buffer = BUF + 4;
	a.buffer_size = 0x101;                                /* BufferSize need not be a multiple of 4 */
	create_ok(m, &a, false);
	for (uint64_t i = 0; i < BUF_LEN; i += 4)
		assert_int_equal(rd32(m, BUF + i), 0x5A5A5A5Au);

	/* CP-12 first: a bad handle pointer and a misaligned buffer */
	a = args_m(m);
	a.profile_handle = 0;
	a.buffer = BUF + 2;
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
}

/* CP-13: a WOW64 caller's Buffer is 32 bits; 0x80001000 is user space. */
/* rules: CP-13 */
static void test_cp13_buffer_probe_wow64(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.buffer = 0xABCD000000000000ull | BUF;
	create_not_applicable(m, &a, false, HCELL);
	a.buffer = ADDR_8000;
	assert_int_equal(create_ok(m, &a, false)->buffer, ADDR_8000);
	a.buffer = ADDR_8000 + 2;
	create_fails(m, &a, false, NP_STATUS_DATATYPE_MISALIGNMENT);
	a.buffer = 0;
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
	a.buffer = 0xFFFFF000u;
	create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
}

/* ==== CP-14, AS-3 ==== */

/* CP-14, AS-3: x64: GroupCount elements of 16 bytes, 4-byte aligned
 * (not 8), readable, below the limit; CP-13 comes first. */
/* rules: CP-14 AS-3 CP-13 */
static void test_cp14_affinity_array_probe_x64(void **state)
{
	np_machine *m = *state;
	put_group(m, AFF + 4, 0, 1, 0, 0, 0, 0);
	np_create_profile_args e = ex_args(1, AFF + 4);
	assert_int_equal(create_ok(m, &e, true)->group_mask[0], 1);
	for (uint64_t off = 1; off < 4; off++) {
		e.affinity_array = AFF + off;
		create_fails(m, &e, true, NP_STATUS_DATATYPE_MISALIGNMENT);
		e.affinity_array = UNMAPPED + off;
		create_fails(m, &e, true, NP_STATUS_DATATYPE_MISALIGNMENT);
	}
	static const uint64_t bad[] = { 0, UNMAPPED, KERNEL_X64, AFF + NP_PAGE_SIZE - 12 };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		e.affinity_array = bad[i];
		create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
	}
	put_group(m, AFF + NP_PAGE_SIZE - 16, 0, 1, 0, 0, 0, 0);
	e.affinity_array = AFF + NP_PAGE_SIZE - 16;
	create_ok(m, &e, true);
	e.group_count = 2;                             /* the second element is off the page */
	create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
	e.group_count = 0xFFFF;
	e.affinity_array = AFF;
	create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);

	/* a read-only array is fine: it is only read */
	uint8_t el[16] = { 1 };
	assert_true(np_mem_poke(m, RO_PAGE, el, sizeof el));
	e = ex_args(1, RO_PAGE);
	assert_int_equal(create_ok(m, &e, true)->group_mask[0], 1);

	/* CP-13 first: an unmapped buffer and a misaligned array */
	e = ex_args(1, AFF + 2);
	e.buffer = UNMAPPED;
	create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
	/* CP-13's misalignment and an unreadable array */
	e = ex_args(1, UNMAPPED);
	e.buffer = BUF + 2;
	create_fails(m, &e, true, NP_STATUS_DATATYPE_MISALIGNMENT);
}

/* CP-14, AS-3: 32-bit callers: 12-byte elements, so 12 bytes before the end
 * of a page hold one; the array pointer is 32 bits. */
static void assert_array_probe_32(np_machine *m)
{
	put_group(m, AFF + NP_PAGE_SIZE - 12, 0, 1, 0, 0, 0, 0);
	np_create_profile_args e = ex_args(1, AFF + NP_PAGE_SIZE - 12);
	assert_int_equal(create_ok(m, &e, true)->group_mask[0], 1);
	e.group_count = 2;
	create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
	e.group_count = 1;
	e.affinity_array = AFF + NP_PAGE_SIZE - 8;
	create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
	e.affinity_array = AFF + NP_PAGE_SIZE - 10;
	create_fails(m, &e, true, NP_STATUS_DATATYPE_MISALIGNMENT);
	put_group(m, AFF, 0, 1, 0, 0, 0, 0);
	e.affinity_array = 0x700000000ull | AFF;
	create_not_applicable(m, &e, true, HCELL);
	e.affinity_array = AFF;
	create_ok(m, &e, true);
	e.affinity_array = 0;
	create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
}

/* CP-14, AS-3: x86 caller. */
/* rules: CP-14 AS-3 */
static void test_cp14_affinity_array_probe_x86(void **state) { assert_array_probe_32(*state); }

/* CP-14, AS-3: WOW64 caller, in the caller's own layout. */
/* rules: CP-14 AS-3 */
static void test_cp14_affinity_array_probe_wow64(void **state) { assert_array_probe_32(*state); }

/* CP-14, AS-3: a kernel-mode request is not probed (misaligned is fine), but
 * a copy from unreadable memory still gives STATUS_ACCESS_VIOLATION. */
/* rules: CP-14 AS-3 */
static void test_cp14_kernel_mode_copy(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	put_group(m, AFF + 2, 0, 1, 0, 0, 0, 0);
	np_create_profile_args e = ex_args(1, AFF + 2);
	create_ok(m, &e, true);
	put_group(m, KERNEL_X64, 0, 1, 0, 0, 0, 0);
	e.affinity_array = KERNEL_X64;
	create_ok(m, &e, true);
	e.affinity_array = UNMAPPED;
	create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
	e.affinity_array = 0;
	create_fails(m, &e, true, NP_STATUS_ACCESS_VIOLATION);
}

/* ==== CP-15 .. CP-18: processors ==== */

/* CP-15: GroupCount 0 is every active processor of every active group; the
 * array is ignored and may be NULL or garbage. */
/* rules: CP-15 */
static void test_cp15_group_count_zero(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	assert_null(np_machine_set_groups(m, 3));
	static const uint64_t arrays[] = { 0, UNMAPPED + 1, KERNEL_X64 };
	for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) {
		np_create_profile_args e = ex_args(0, arrays[i]);
		np_profile *p = create_ok(m, &e, true);
		assert_int_equal(p->group_mask[0], 0xF);
		assert_int_equal(p->group_mask[1], 0xF);
		assert_int_equal(p->group_mask[2], 0xF);
		assert_int_equal(p->group_mask[3], 0);
	}
}

/* CP-15: each element: an active group, a non-zero mask of active
 * processors; any failure is STATUS_INVALID_PARAMETER. */
/* rules: CP-15 */
static void test_cp15_elements(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	assert_null(np_machine_set_groups(m, 2));
	np_create_profile_args e = ex_args(1, AFF);

	put_group(m, AFF, 0, 0x3, 1, 0, 0, 0);
	np_profile *p = create_ok(m, &e, true);
	assert_int_equal(p->group_mask[0], 0);
	assert_int_equal(p->group_mask[1], 0x3);
	put_group(m, AFF, 0, 0xF, 0, 0, 0, 0);
	assert_int_equal(create_ok(m, &e, true)->group_mask[0], 0xF);

	static const struct { uint64_t mask; uint16_t group; } bad[] = {
		{ 0, 0 }, { 0x10, 0 }, { 0x1F, 0 }, { 0x8000000000000000ull, 1 },
		{ 1, 2 }, { 1, 3 }, { 1, 4 }, { 1, 0xFFFF },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		put_group(m, AFF, 0, bad[i].mask, bad[i].group, 0, 0, 0);
		create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
	}
	/* two groups at once; a bad second element fails the whole call */
	e.group_count = 2;
	put_group(m, AFF, 0, 0x1, 0, 0, 0, 0);
	put_group(m, AFF, 1, 0x8, 1, 0, 0, 0);
	p = create_ok(m, &e, true);
	assert_int_equal(p->group_mask[0], 0x1);
	assert_int_equal(p->group_mask[1], 0x8);
	put_group(m, AFF, 1, 0x0, 1, 0, 0, 0);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);

	/* 64 processors: every bit is a processor */
	assert_null(np_machine_set_cpus(m, 64));
	e.group_count = 1;
	put_group(m, AFF, 0, UINT64_MAX, 1, 0, 0, 0);
	assert_int_equal(create_ok(m, &e, true)->group_mask[1], UINT64_MAX);
}

/* CP-15: each Reserved word must be 0. */
/* rules: CP-15 */
static void test_cp15_reserved_words(void **state)
{
	np_machine *m = *state;
	np_create_profile_args e = ex_args(1, AFF);
	put_group(m, AFF, 0, 1, 0, 1, 0, 0);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
	put_group(m, AFF, 0, 1, 0, 0, 1, 0);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
	put_group(m, AFF, 0, 1, 0, 0, 0, 0x8000);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
	put_group(m, AFF, 0, 1, 0, 0, 0, 0);
	create_ok(m, &e, true);
}

/* CP-15: two elements for one group merge (K-GROUPS=merge) or fail (reject). */
/* rules: CP-15 */
static void test_cp15_duplicate_groups(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	assert_null(np_machine_set_groups(m, 2));
	np_create_profile_args e = ex_args(2, AFF);
	put_group(m, AFF, 0, 0x1, 1, 0, 0, 0);
	put_group(m, AFF, 1, 0x4, 1, 0, 0, 0);
	np_profile *p = create_ok(m, &e, true);
	assert_int_equal(p->group_mask[0], 0);
	assert_int_equal(p->group_mask[1], 0x5);

	m->knobs.groups = NP_GROUPS_REJECT;
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
	put_group(m, AFF, 1, 0x1, 1, 0, 0, 0);          /* even the same mask */
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
	put_group(m, AFF, 1, 0x4, 0, 0, 0, 0);          /* different groups are fine */
	p = create_ok(m, &e, true);
	assert_int_equal(p->group_mask[0], 0x4);
	assert_int_equal(p->group_mask[1], 0x1);
}

/* CP-15, CP-14: a WOW64 caller's elements are 12 bytes (Group at +4); the
 * 64-bit kernel may have several groups. */
/* rules: CP-15 CP-14 */
static void test_cp15_wow64_layout(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	assert_null(np_machine_set_groups(m, 2));
	np_create_profile_args e = ex_args(2, AFF);
	put_group(m, AFF, 0, 0x1, 0, 0, 0, 0);
	put_group(m, AFF, 1, 0x6, 1, 0, 0, 0);
	np_profile *p = create_ok(m, &e, true);
	assert_int_equal(p->group_mask[0], 0x1);
	assert_int_equal(p->group_mask[1], 0x6);
	/* the same bytes read with the x64 layout would put group 6 in the
	 * second element's Mask; check the 12-byte stride by hand */
	uint8_t raw[24];
	assert_true(np_mem_read(m, AFF, raw, sizeof raw));
	assert_int_equal(raw[12], 0x6);
	assert_int_equal(raw[16], 0x1);
	put_group(m, AFF, 1, 0x6, 2, 0, 0, 0);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
}

/* CP-15, MC-4: a 32-bit kernel has one group. */
/* rules: CP-15 MC-4 */
static void test_cp15_x86_one_group(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 32));
	np_create_profile_args e = ex_args(1, AFF);
	put_group(m, AFF, 0, 0xFFFFFFFFu, 0, 0, 0, 0);
	assert_int_equal(create_ok(m, &e, true)->group_mask[0], 0xFFFFFFFFu);
	put_group(m, AFF, 0, 1, 1, 0, 0, 0);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
	assert_null(np_machine_set_cpus(m, 2));
	put_group(m, AFF, 0, 0x4, 0, 0, 0, 0);
	create_fails(m, &e, true, NP_STATUS_INVALID_PARAMETER);
}

/* CP-16: only an all-ones Affinity means "the current group's active
 * processors"; any other is the mask as given. */
/* rules: CP-16 */
static void test_cp16_affinity(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	np_create_profile_args a = args_m(m);
	assert_int_equal(create_ok(m, &a, false)->group_mask[0], 0xF);
	a.affinity = 0x5;
	assert_int_equal(create_ok(m, &a, false)->group_mask[0], 0x5);
	a.affinity = 0xF;
	assert_int_equal(create_ok(m, &a, false)->group_mask[0], 0xF);
	static const uint64_t bad[] = { 0, 0x10, 0x1F, 0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFull,
					0xFFFFFFFFFFFFFFFEull };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		a.affinity = bad[i];
		create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	}
	/* the caller's current group */
	assert_null(np_machine_set_groups(m, 3));
	m->current_group = 2;
	a.affinity = NP_AFFINITY_ALL;
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->group_mask[0], 0);
	assert_int_equal(p->group_mask[2], 0xF);
	a.affinity = 0x2;
	p = create_ok(m, &a, false);
	assert_int_equal(p->group_mask[0], 0);
	assert_int_equal(p->group_mask[2], 0x2);
}

/* CP-16: on x86 all-ones is 0xFFFFFFFF, the kernel's width. */
/* rules: CP-16 CP-17 */
static void test_cp16_x86_all_ones(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	np_create_profile_args a = args_m(m);
	a.affinity = 0xFFFFFFFFu;
	assert_int_equal(create_ok(m, &a, false)->group_mask[0], 0xF);
	a.affinity = 0xFFFFFFFEu;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	a.affinity = 0x1;
	assert_int_equal(create_ok(m, &a, false)->group_mask[0], 0x1);
	assert_false(applied(m, NP_RULE(CP_17)));      /* a WOW64 rule, not x86's */
	a.affinity = 0x100000001ull;                 /* the caller has 32 bits */
	create_not_applicable(m, &a, false, HCELL);
}

/* CP-17: WOW64 from 6.1: 0xFFFFFFFF is zero-extended, not all-ones: it fails
 * unless processors 0..31 of the current group are all active. */
/* rules: CP-17 */
static void test_cp17_wow64_all_ones(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);              /* NP_AFFINITY_ALL: the caller's -1 */
	static const unsigned few[] = { 1, 4, 31 };
	for (size_t i = 0; i < sizeof few / sizeof *few; i++) {
		assert_null(np_machine_set_cpus(m, few[i]));
		a.affinity = NP_AFFINITY_ALL;
		create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
		a.affinity = 0xFFFFFFFFu;
		create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	}
	assert_null(np_machine_set_cpus(m, 32));
	a.affinity = NP_AFFINITY_ALL;
	assert_int_equal(create_ok(m, &a, false)->group_mask[0], 0xFFFFFFFFu);
	assert_null(np_machine_set_cpus(m, 64));
	assert_int_equal(create_ok(m, &a, false)->group_mask[0], 0xFFFFFFFFu);   /* not 64 */
	assert_null(np_machine_set_cpus(m, 4));
	a.affinity = 0x3;
	assert_int_equal(create_ok(m, &a, false)->group_mask[0], 0x3);
	assert_true(applied(m, NP_RULE(CP_17)));
	a.affinity = 0xFFFFFFFF00000002ull;             /* more than 32 bits */
	create_not_applicable(m, &a, false, HCELL);
	/* NtCreateProfileEx with GroupCount 0 has no Affinity to get wrong */
	np_create_profile_args e = ex_args(0, 0);
	assert_int_equal(create_ok(m, &e, true)->group_mask[0], 0xF);
}

/* CP-17, CP-18: before 6.1 the zero-extended mask is kept as it is. */
/* rules: CP-17 CP-18 */
static void test_cp17_wow64_6_0_stored(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	np_create_profile_args a = args_m(m);
	assert_int_equal(create_ok(m, &a, false)->stored_affinity, 0xFFFFFFFFu);
	a.affinity = 0x10;
	assert_int_equal(create_ok(m, &a, false)->stored_affinity, 0x10);
	a.affinity = 0xFFFFFFFF00000010ull;
	create_not_applicable(m, &a, false, HCELL);
}

/* CP-18: before 6.1 Affinity is not checked at create, only kept; 3.10 and
 * 3.50 have none (checked in the CP-0 tests). */
/* rules: CP-18 */
static void test_cp18_stored_unchecked(void **state)
{
	(void)state;
	np_machine *m = boot(NP_V4_0, NP_X86);
	assert_null(np_machine_set_cpus(m, 2));
	static const uint64_t masks[] = { 0, 0x4, 0x80000000u, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof masks / sizeof *masks; i++) {
		np_create_profile_args a = args_m(m);
		a.affinity = masks[i];
		assert_int_equal(create_ok(m, &a, false)->stored_affinity, masks[i]);
	}
	machine_free(m);
	m = boot(NP_V6_0, NP_X64);
	np_create_profile_args a = args_m(m);
	assert_int_equal(create_ok(m, &a, false)->stored_affinity, UINT64_MAX);
	a.affinity = 0;
	assert_int_equal(create_ok(m, &a, false)->stored_affinity, 0);
	machine_free(m);
}

/* ==== CP-19 .. CP-22 ==== */

/* CP-19: Process must be a process handle with PROCESS_QUERY_INFORMATION;
 * -1 works; no privilege is needed for a process profile. */
/* rules: CP-19 */
static void test_cp19_process_handles(void **state)
{
	np_machine *m = *state;
	assert_false(m->profile_privilege);
	uint64_t other = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, ALL_PROCESS_ACCESS);
	uint64_t query = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT, NP_PROCESS_QUERY_INFORMATION);
	uint64_t noquery = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT, NP_SYNCHRONIZE);
	uint64_t limited = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, 0x1000);
	uint64_t thread = np_handle_open(m, NP_OBJ_THREAD, 1, 0x001FFFFFu);
	assert_int_equal(other, 4);
	assert_int_equal(query, 8);

	np_create_profile_args a = args_m(m);
	a.process = other;
	assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_OTHER);
	a.process = other | 3;                     /* low bits ignored (MC-3) */
	assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_OTHER);
	a.process = query;
	assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_CURRENT);
	a.process = NP_HANDLE_CURRENT_PROCESS;
	assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_CURRENT);

	a.process = noquery;
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	a.process = limited;
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	a.process = NP_HANDLE_CURRENT_THREAD;
	create_fails(m, &a, false, NP_STATUS_OBJECT_TYPE_MISMATCH);
	a.process = thread;
	create_fails(m, &a, false, NP_STATUS_OBJECT_TYPE_MISMATCH);
	np_create_profile_args b = args_m(m);
	uint64_t profile = create_ok_at(m, &b, false, HCELL);
	a.process = profile;
	create_fails(m, &a, false, NP_STATUS_OBJECT_TYPE_MISMATCH);
	static const uint64_t invalid[] = { 1, 2, 3, 0x100, 0x104, 0xFFFFFFFFu, 0x100000004ull,
					    0xFFFFFFFFFFFFFFFDull };
	for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++) {
		a.process = invalid[i];
		create_fails(m, &a, false, NP_STATUS_INVALID_HANDLE);
	}
	assert_status(np_nt_close(m, other), NP_STATUS_SUCCESS);
	a.process = other;
	create_fails(m, &a, false, NP_STATUS_INVALID_HANDLE);
}

/* CP-19: a kernel-mode request is not access-checked, but the handle must
 * still name a process. */
/* rules: CP-19 */
static void test_cp19_kernel_mode_no_access_check(void **state)
{
	np_machine *m = *state;
	uint64_t noquery = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, NP_SYNCHRONIZE);
	uint64_t none = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT, 0);
	m->previous_mode = NP_MODE_KERNEL;
	np_create_profile_args a = args_m(m);
	a.process = noquery;
	assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_OTHER);
	a.process = none;
	assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_CURRENT);
	a.process = NP_HANDLE_CURRENT_THREAD;
	create_fails(m, &a, false, NP_STATUS_OBJECT_TYPE_MISMATCH);
	a.process = 0x200;
	create_fails(m, &a, false, NP_STATUS_INVALID_HANDLE);
	m->previous_mode = NP_MODE_USER;
	a.process = noquery;
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
}

/* CP-19, MC-3: a 32-bit caller's Process is sign-extended: 0xFFFFFFFF is -1
 * and 0xFFFFFFFE is -2. On x64 these values name nothing. */
/* rules: CP-19 MC-3 */
static void test_cp19_32bit_handle_sign_extension(void **state)
{
	(void)state;
	static const np_arch narrow[] = { NP_X86, NP_WOW64 };
	for (size_t i = 0; i < 2; i++) {
		np_machine *m = boot(NP_V6_1, narrow[i]);
		uint64_t other = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, ALL_PROCESS_ACCESS);
		np_create_profile_args a = args_m(m);
		a.process = 0xFFFFFFFFu;
		assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_CURRENT);
		a.process = 0xFFFFFFFEu;
		create_fails(m, &a, false, NP_STATUS_OBJECT_TYPE_MISMATCH);
		a.process = other;
		assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_OTHER);
		a.process = 0x80000000u | other;            /* sign-extended: names nothing */
		create_fails(m, &a, false, NP_STATUS_INVALID_HANDLE);
		machine_free(m);
	}
	np_machine *m = boot(NP_V6_1, NP_X64);
	uint64_t other = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, ALL_PROCESS_ACCESS);
	np_create_profile_args a = args_m(m);
	a.process = 0xFFFFFFFFu;
	create_fails(m, &a, false, NP_STATUS_INVALID_HANDLE);
	a.process = 0xFFFFFFFEu;
	create_fails(m, &a, false, NP_STATUS_INVALID_HANDLE);
	a.process = 0x80000000u | other;
	create_fails(m, &a, false, NP_STATUS_INVALID_HANDLE);
	a.process = other;
	assert_int_equal(create_ok(m, &a, false)->process, NP_PROCESS_OTHER);
	machine_free(m);
}

/* CP-20: x86 segment mode with a global profile of a non-zero segment is
 * STATUS_INVALID_PARAMETER, before the privilege check (CP-21), in kernel
 * mode too; segment 0 is fine. */
/* rules: CP-20 CP-21 */
static void test_cp20_segment_global(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.bucket_size = 0;
	a.profile_base = 0x1000;
	a.profile_size = 0x400;
	a.process = 0;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	m->profile_privilege = true;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	m->previous_mode = NP_MODE_KERNEL;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	m->previous_mode = NP_MODE_USER;
	a.profile_base = 0;                          /* segment 0 */
	np_profile *p = create_ok(m, &a, false);
	assert_int_equal(p->segment, 0);
	assert_int_equal(p->process, 0);
	assert_int_equal(p->bucket_size, 4);
	m->profile_privilege = false;                /* segment 0 is base 0: user space */
	create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
	a.profile_base = 0x1000;
	a.process = NP_HANDLE_CURRENT_PROCESS;
	assert_int_equal(create_ok(m, &a, false)->segment, 0x1000);
}

/* CP-21: x64: a user-mode global profile with ProfileBase at or below
 * 0x7FFFFFFEFFFF needs the privilege; high integrity is not enough; a
 * kernel-mode request needs none. */
/* rules: CP-21 */
static void test_cp21_privilege_x64(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.process = 0;
	static const uint64_t user[] = { 0, REGION, X64_LIMIT - 1 };
	for (size_t i = 0; i < sizeof user / sizeof *user; i++) {
		a.profile_base = user[i];
		create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
		m->integrity = NP_INTEGRITY_HIGH;
		create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
		m->integrity = NP_INTEGRITY_MEDIUM;
		m->profile_privilege = true;
		assert_int_equal(create_ok(m, &a, false)->process, 0);
		m->profile_privilege = false;
		m->previous_mode = NP_MODE_KERNEL;
		a.profile_handle = KERNEL_X64;
		assert_int_equal(create_ok(m, &a, false)->process, 0);
		a.profile_handle = HCELL;
		m->previous_mode = NP_MODE_USER;
	}
	/* a base in kernel space needs no privilege, even if the region is small */
	static const uint64_t kernel[] = { X64_LIMIT, 0xFFFFF80000000000ull };
	for (size_t i = 0; i < 2; i++) {
		a.profile_base = kernel[i];
		assert_int_equal(create_ok(m, &a, false)->base, kernel[i]);
	}
	/* a region that starts in user space and ends in kernel space needs it */
	a.profile_base = X64_LIMIT - 0x10;
	create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
}

/* CP-21: x86: the highest user address is 0x7FFEFFFF; 0x80000000 is kernel. */
/* rules: CP-21 */
static void test_cp21_privilege_x86(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.process = 0;
	a.profile_base = X86_LIMIT - 1;
	create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
	a.profile_base = X86_LIMIT;
	create_ok(m, &a, false);
	a.profile_base = 0x80000000u;
	create_ok(m, &a, false);
	np_machine *old = boot(NP_V3_51, NP_X86);
	a.profile_base = REGION;
	create_fails(old, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
	old->profile_privilege = true;
	create_ok(old, &a, false);
	machine_free(old);
}

/* CP-21, AS-1: a WOW64 caller's base is always user space of the 64-bit
 * kernel: 0x80000000 and 0xFFFFF000 need the privilege. */
/* rules: CP-21 AS-1 */
static void test_cp21_wow64_base_user_space(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.process = 0;
	static const uint64_t bases[] = { 0x7FFEFFFFu, 0x7FFF0000u, 0x80000000u, 0xFFFFF000u };
	for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
		a.profile_base = bases[i];
		create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
	}
	m->profile_privilege = true;
	for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
		a.profile_base = bases[i];
		assert_int_equal(create_ok(m, &a, false)->base, bases[i]);
	}
}

/* CP-21: K-GLOBAL-PRIV-SCOPE=always: every user-mode global profile needs
 * the privilege; kernel mode still needs none; process profiles none. */
/* rules: CP-21 */
static void test_cp21_always_knob(void **state)
{
	np_machine *m = *state;
	m->knobs.global_priv = NP_PRIV_ALWAYS;
	np_create_profile_args a = args_m(m);
	a.process = 0;
	a.profile_base = X64_LIMIT;
	create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
	a.profile_base = 0xFFFFF80000000000ull;
	create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
	m->profile_privilege = true;
	create_ok(m, &a, false);
	m->profile_privilege = false;
	m->previous_mode = NP_MODE_KERNEL;
	a.profile_handle = KERNEL_X64;
	create_ok(m, &a, false);
	m->previous_mode = NP_MODE_USER;
	a.profile_handle = HCELL;
	a.process = NP_HANDLE_CURRENT_PROCESS;
	create_ok(m, &a, false);
}

static np_create_profile_args restricted_args(const np_machine *m, uint64_t base, uint64_t size)
{
	np_create_profile_args a = args_m(m);
	a.profile_base = base;
	a.profile_size = size;
	a.bucket_size = 12;
	a.buffer_size = 0x10;
	return a;
}

/* CP-22: from 6.3 (not 6.2), a low-integrity user-mode caller may not
 * profile a region whose last byte is above the highest user address. */
/* rules: CP-22 */
static void test_cp22_restricted_threshold(void **state)
{
	(void)state;
	static const np_arch both[] = { NP_X86, NP_X64 };
	for (size_t i = 0; i < 2; i++) {
		uint64_t limit = both[i] == NP_X64 ? X64_LIMIT : X86_LIMIT;
		for (int v = NP_V6_2; v <= NP_V1507; v++) {
			np_machine *m = boot(v, both[i]);
			np_create_profile_args in = restricted_args(m, limit - 0x1000, 0x1000);
			np_create_profile_args out = restricted_args(m, limit - 0x1000, 0x1001);
			assert_int_equal(np_checks_restricted_callers(m->version), v >= NP_V6_3);
			m->integrity = NP_INTEGRITY_LOW;
			create_ok(m, &in, false);
			if (v >= NP_V6_3)
				create_fails(m, &out, false, NP_STATUS_ACCESS_DENIED);
			else
				create_ok(m, &out, false);
			m->integrity = NP_INTEGRITY_MEDIUM;
			create_ok(m, &out, false);
			m->integrity = NP_INTEGRITY_HIGH;
			create_ok(m, &out, false);
			machine_free(m);
		}
	}
}

/* CP-22: last-byte (default): size 0 tests the base; whatever Process is;
 * after CP-21; kernel mode is never restricted. */
/* rules: CP-22 CP-21 */
static void test_cp22_last_byte(void **state)
{
	np_machine *m = *state;
	m->integrity = NP_INTEGRITY_LOW;
	np_create_profile_args a = restricted_args(m, X64_LIMIT - 1, 0);
	create_ok(m, &a, false);
	a = restricted_args(m, X64_LIMIT, 0);
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	a = restricted_args(m, X64_LIMIT - 1, 1);
	create_ok(m, &a, false);
	a = restricted_args(m, X64_LIMIT - 1, 2);
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	a = restricted_args(m, 0xFFFFF80000000000ull, 0x100);
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	/* another process */
	a.process = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, ALL_PROCESS_ACCESS);
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	/* global: with the privilege CP-22 still refuses; without it CP-21 first */
	a = restricted_args(m, X64_LIMIT - 0x1000, 0x1001);
	a.process = 0;
	create_fails(m, &a, false, NP_STATUS_PRIVILEGE_NOT_HELD);
	m->profile_privilege = true;
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	/* kernel mode */
	m->previous_mode = NP_MODE_KERNEL;
	a.profile_handle = KERNEL_X64;
	create_ok(m, &a, false);
}

/* CP-22: K-RESTRICTED-BOUNDARY=end and base. */
/* rules: CP-22 */
static void test_cp22_boundary_knobs(void **state)
{
	np_machine *m = *state;
	m->integrity = NP_INTEGRITY_LOW;
	m->knobs.restricted = NP_RESTRICT_END;       /* base + size > limit */
	np_create_profile_args a = restricted_args(m, X64_LIMIT, 0);
	create_ok(m, &a, false);
	a = restricted_args(m, X64_LIMIT, 1);
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	a = restricted_args(m, X64_LIMIT - 0x1000, 0x1000);
	create_ok(m, &a, false);
	a = restricted_args(m, X64_LIMIT - 0x1000, 0x1001);
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);

	m->knobs.restricted = NP_RESTRICT_BASE;      /* base > highest */
	a = restricted_args(m, X64_LIMIT - 0x1000, 0x2000);
	create_ok(m, &a, false);
	a = restricted_args(m, X64_LIMIT - 1, 0x1000);
	create_ok(m, &a, false);
	a = restricted_args(m, X64_LIMIT, 0);
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	a = restricted_args(m, X64_LIMIT, 0x1000);
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
}

/* CP-22, AS-1: for a WOW64 caller every 32-bit region is user space. */
/* rules: CP-22 AS-1 */
static void test_cp22_wow64(void **state)
{
	np_machine *m = *state;
	m->integrity = NP_INTEGRITY_LOW;
	np_create_profile_args a = restricted_args(m, 0xFFFFF000u, 0x1000);
	create_ok(m, &a, false);
	a = restricted_args(m, 0x7FFEF000u, 0x1001);
	create_ok(m, &a, false);
	a = restricted_args(m, 0xFFFFFFFFu, 0xFFFFFFFFu);
	a.bucket_size = 31;
	create_ok(m, &a, false);
}

/* CP-22, K-SANDBOX-CHECK: a sandboxed token of medium or high integrity is
 * restricted from 1507 (the default), never before, and from the version
 * the knob names; the twin: the same caller without the sandbox passes. */
/* rules: CP-22 */
static void test_cp22_sandboxed_token(void **state)
{
	(void)state;
	static const np_ver versions[] = { NP_V6_3, NP_V1507, NP_V1809 };
	for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
		np_machine *m = boot(versions[i], NP_X64);
		np_create_profile_args out = restricted_args(m, X64_LIMIT - 0x1000, 0x1001);
		bool checked = versions[i] >= NP_V1507;
		assert_int_equal(m->knobs.sandbox_check, NP_V1507);
		create_ok(m, &out, false);
		m->sandboxed = true;
		if (checked)
			create_fails(m, &out, false, NP_STATUS_ACCESS_DENIED);
		else
			create_ok(m, &out, false);
		m->integrity = NP_INTEGRITY_HIGH;
		if (checked)
			create_fails(m, &out, false, NP_STATUS_ACCESS_DENIED);
		m->knobs.sandbox_check = NP_V1809;
		if (versions[i] >= NP_V1809)
			create_fails(m, &out, false, NP_STATUS_ACCESS_DENIED);
		else
			create_ok(m, &out, false);
		m->knobs.sandbox_check = NP_VERSION_COUNT;   /* never */
		create_ok(m, &out, false);
		machine_free(m);
	}
}

/* ==== CP-23 .. CP-25 ==== */

/* CP-23, MC-6: an injected allocation failure, after every check: nothing is
 * created, the K-OB-FAIL status (insufficient-resources, quota-exceeded). */
/* rules: CP-23 MC-6 */
static void test_cp23_allocation_failure(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	m->alloc_failures = 1;
	a.bucket_size = 1;                          /* a check failure does not use it */
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	assert_int_equal(m->alloc_failures, 1);
	a = args_m(m);
	create_fails(m, &a, false, NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(m->alloc_failures, 0);
	assert_int_equal(create_ok_at(m, &a, false, HCELL), 4);

	m->knobs.ob_fail = NP_OB_FAIL_QUOTA;
	m->alloc_failures = 1;
	np_create_profile_args e = ex_args(0, 0);
	create_fails(m, &e, true, NP_STATUS_QUOTA_EXCEEDED);
	assert_int_equal(m->alloc_failures, 0);
	assert_int_equal(create_ok_at(m, &e, true, HCELL), 8);
}

/* CP-23, MC-3: a full handle table (64 entries) fails the create with the
 * K-OB-FAIL status, and leaves no object behind. */
/* rules: CP-23 MC-3 */
static void test_cp23_handle_table_full(void **state)
{
	np_machine *m = *state;
	for (unsigned i = 0; i < NP_MAX_HANDLES; i++)
		assert_int_equal(np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT, NP_SYNCHRONIZE),
				 4u * (i + 1));
	assert_int_equal(np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT, NP_SYNCHRONIZE), 0);
	np_create_profile_args a = args_m(m);
	create_fails(m, &a, false, NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(live_profiles(m), 0);
	m->knobs.ob_fail = NP_OB_FAIL_QUOTA;
	create_fails(m, &a, false, NP_STATUS_QUOTA_EXCEEDED);
	assert_int_equal(live_profiles(m), 0);
	assert_status(np_nt_close(m, 40), NP_STATUS_SUCCESS);
	assert_int_equal(create_ok_at(m, &a, false, HCELL), 40);
	create_fails(m, &a, false, NP_STATUS_QUOTA_EXCEEDED);
}

/* MC-3: the table's last entry (handle 0x100) names its object; the value
 * after it (0x104) names none. */
/* rules: MC-3 */
static void test_mc3_last_handle_of_table(void **state)
{
	np_machine *m = *state;
	for (unsigned i = 0; i < NP_MAX_HANDLES; i++)
		assert_int_equal(np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT, NP_SYNCHRONIZE),
				 4u * (i + 1));
	assert_status(np_nt_close(m, 4u * (NP_MAX_HANDLES + 1)), NP_STATUS_INVALID_HANDLE);
	assert_status(np_nt_close(m, 4u * NP_MAX_HANDLES), NP_STATUS_SUCCESS);
	assert_status(np_nt_close(m, 4u * NP_MAX_HANDLES), NP_STATUS_INVALID_HANDLE);
}

/* CP-23: only an allocation failure or a full handle table fail the
 * creation: 63 profiles fit a 64-entry table (one entry holds a process). */
/* rules: CP-23 */
static void test_cp23_many_profiles(void **state)
{
	np_machine *m = *state;
	assert_int_equal(np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, ALL_PROCESS_ACCESS), 4);
	np_create_profile_args a = args_m(m);
	for (unsigned i = 1; i < NP_MAX_HANDLES; i++)
		assert_int_equal(create_ok_at(m, &a, false, HCELL), 4u * (i + 1));
	assert_int_equal(live_profiles(m), NP_MAX_HANDLES - 1);
	create_fails(m, &a, false, NP_STATUS_INSUFFICIENT_RESOURCES);
}

/* CP-24: x64 writes 8 bytes; handles are 4, 8, 12 in a fresh table. */
/* rules: CP-24 */
static void test_cp24_handle_written_x64(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	assert_int_equal(create_ok_at(m, &a, false, HCELL), 4);
	assert_int_equal(rd64(m, HCELL), 4);
	a.profile_handle = HCELL + 0x10;
	assert_int_equal(create_ok_at(m, &a, false, HCELL + 0x10), 8);
	assert_int_equal(rd64(m, HCELL + 0x10), 8);
	np_create_profile_args e = ex_args(0, 0);
	e.profile_handle = HCELL + 0x21;
	assert_int_equal(create_ok_at(m, &e, true, HCELL + 0x21), 12);
	assert_int_equal(rd64(m, HCELL + 0x21), 12);
}

/* CP-24: 32-bit callers get a 4-byte handle; the next 4 bytes stay. */
/* rules: CP-24 */
static void test_cp24_handle_written_32bit(void **state)
{
	(void)state;
	static const np_arch narrow[] = { NP_X86, NP_WOW64 };
	for (size_t i = 0; i < 2; i++) {
		np_machine *m = boot(NP_V6_1, narrow[i]);
		np_create_profile_args a = args_m(m);
		assert_int_equal(create_ok_at(m, &a, false, HCELL), 4);
		assert_int_equal(rd64(m, HCELL), 0xCCCCCCCC00000004ull);
		np_create_profile_args e = ex_args(0, 0);
		assert_int_equal(create_ok_at(m, &e, true, HCELL), 8);
		assert_int_equal(rd64(m, HCELL), 0xCCCCCCCC00000008ull);
		machine_free(m);
	}
}

/* CP-24: the final write faults (the page vanished after the probe): the
 * handle stays open; STATUS_SUCCESS (K-HANDLE-WRITE-FAULT=success) or
 * STATUS_ACCESS_VIOLATION (exception). */
/* rules: CP-24 */
static void test_cp24_write_fault(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = args_m(m);
	a.profile_handle = GONE_PAGE;
	assert_status(np_nt_create_profile(m, &a), NP_STATUS_SUCCESS);
	uint64_t v;
	assert_false(np_mem_read(m, GONE_PAGE, &v, sizeof v));
	assert_int_equal(live_profiles(m), 1);
	assert_int_equal(open_handles(m), 1);
	profile_of(m, 4);
	assert_status(np_nt_start_profile(m, 4), NP_STATUS_SUCCESS);

	np_machine *x = boot(NP_V6_1, NP_X64);
	x->knobs.handle_fault = NP_HANDLE_FAULT_EXCEPTION;
	assert_status(np_nt_create_profile(x, &a), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(live_profiles(x), 1);
	assert_int_equal(open_handles(x), 1);
	profile_of(x, 4);
	assert_status(np_nt_start_profile(x, 4), NP_STATUS_SUCCESS);
	machine_free(x);
}

/* CP-25, ST-7, SP-3: creating locks, lists and writes nothing: the buffer is
 * unchanged, no injected lock or map failure is used up, the profile is
 * stopped, and it can be started and stopped again and again. */
/* rules: CP-25 ST-7 SP-3 */
static void test_cp25_no_other_effect(void **state)
{
	np_machine *m = *state;
	for (uint64_t i = 0; i < 0x100; i += 4)
		wr32(m, BUF + i, 0xA5000000u + (uint32_t)i);
	m->lock_failures = 1;
	m->map_failures = 1;
	np_create_profile_args a = args_m(m);
	uint64_t h = create_ok_at(m, &a, false, HCELL);
	np_profile *p = profile_of(m, h);
	assert_false(p->started);
	assert_int_equal(m->lock_failures, 1);
	assert_int_equal(m->map_failures, 1);
	for (uint64_t i = 0; i < 0x100; i += 4)
		assert_int_equal(rd32(m, BUF + i), 0xA5000000u + (uint32_t)i);
	assert_int_equal(p->base, REGION);
	assert_int_equal(p->size, 0x100);
	assert_int_equal(p->bucket_size, 2);
	assert_int_equal(p->buffer, BUF);
	assert_int_equal(p->buffer_size, 0x100);
	assert_int_equal(p->process, NP_PROCESS_CURRENT);
	assert_int_equal(p->handles, 1);
	m->lock_failures = 0;
	m->map_failures = 0;
	for (int round = 0; round < 3; round++) {
		assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
		assert_true(p->started);
		assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
		assert_false(p->started);
	}
	for (uint64_t i = 0; i < 0x100; i += 4)
		assert_int_equal(rd32(m, BUF + i), 0xA5000000u + (uint32_t)i);
}

/* ==== Order of checks ==== */

/* CP-11, CP-12, CP-15, CP-16: K-ORDER-PROBE, with an unsupported source, a NULL
 * handle pointer and a bad processor specification in one call, and again
 * with a supported source. */
/* rules: CP-11 CP-12 CP-15 CP-16 */
static void test_order_probe_knob(void **state)
{
	np_machine *m = *state;
	static const struct { np_knob_order_probe k; uint32_t all3, no_src, ex_case; } rows[] = {
		{ NP_PROBE_BEFORE_SOURCE, NP_STATUS_ACCESS_VIOLATION, NP_STATUS_ACCESS_VIOLATION,
		  NP_STATUS_DATATYPE_MISALIGNMENT },
		{ NP_PROBE_AFTER_SOURCE, NP_STATUS_NOT_SUPPORTED, NP_STATUS_ACCESS_VIOLATION,
		  NP_STATUS_DATATYPE_MISALIGNMENT },
		{ NP_PROBE_AFTER_PROCESSORS, NP_STATUS_NOT_SUPPORTED, NP_STATUS_INVALID_PARAMETER,
		  NP_STATUS_INVALID_PARAMETER },
	};
	assert_int_equal(m->knobs.order_probe, NP_PROBE_AFTER_SOURCE);
	for (size_t i = 0; i < 3; i++) {
		m->knobs.order_probe = rows[i].k;
		np_create_profile_args a = args_m(m);
		a.source = 0x100;
		a.profile_handle = 0;
		a.affinity = 0;
		create_fails(m, &a, false, rows[i].all3);
		a.source = NP_PROFILE_TIME;
		create_fails(m, &a, false, rows[i].no_src);
		/* Ex: a misaligned buffer and an element with Mask 0 */
		np_create_profile_args e = ex_args(1, AFF);
		put_group(m, AFF, 0, 0, 0, 0, 0, 0);
		e.buffer = BUF + 2;
		create_fails(m, &e, true, rows[i].ex_case);
		/* Ex: unsupported source and misaligned array */
		e = ex_args(1, AFF + 1);
		e.source = 0x02;
		create_fails(m, &e, true, rows[i].k == NP_PROBE_BEFORE_SOURCE
					   ? NP_STATUS_DATATYPE_MISALIGNMENT : NP_STATUS_NOT_SUPPORTED);
	}
}

/* CP-2, CP-7, CP-8, CP-10, CP-12, CP-19: steps 2 to 6 come before the probes,
 * and the probes before the process check, whatever K-ORDER-PROBE says. */
/* rules: CP-2 CP-7 CP-8 CP-10 CP-12 CP-19 */
static void test_order_checks_before_and_after_probes(void **state)
{
	np_machine *m = *state;
	static const np_knob_order_probe ks[] = { NP_PROBE_BEFORE_SOURCE, NP_PROBE_AFTER_SOURCE,
						  NP_PROBE_AFTER_PROCESSORS };
	for (size_t i = 0; i < 3; i++) {
		m->knobs.order_probe = ks[i];
		np_create_profile_args a = args_m(m);
		a.profile_handle = 0;
		a.buffer = UNMAPPED + 1;
		a.bucket_size = 1;
		create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
		a.bucket_size = 2;
		a.profile_size = 0x101;
		create_fails(m, &a, false, NP_STATUS_BUFFER_TOO_SMALL);
		a.profile_size = 0x100;
		a.profile_base = 0xFFFFFFFFFFFFFF80ull;
		create_fails(m, &a, false, NP_STATUS_BUFFER_OVERFLOW);
		a.buffer_size = 0;
		create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER_7);
		a = args_m(m);
		a.profile_handle = 0;
		a.process = 1;
		create_fails(m, &a, false, NP_STATUS_ACCESS_VIOLATION);
		/* CP-15 before CP-19 */
		a = args_m(m);
		a.affinity = 0;
		a.process = 1;
		create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
		/* CP-11 before CP-15 */
		a.source = 0x100;
		create_fails(m, &a, false, NP_STATUS_NOT_SUPPORTED);
	}
}

/* CP-19, CP-21, CP-22, CP-23: the process check and the privilege check
 * come before the restriction, and the restriction before the allocation. */
/* rules: CP-19 CP-21 CP-22 CP-23 */
static void test_order_after_probes(void **state)
{
	np_machine *m = *state;
	m->integrity = NP_INTEGRITY_LOW;
	np_create_profile_args a = restricted_args(m, 0xFFFFF80000000000ull, 0x100);
	a.process = NP_HANDLE_CURRENT_THREAD;
	create_fails(m, &a, false, NP_STATUS_OBJECT_TYPE_MISMATCH);
	a.process = 0x40;
	create_fails(m, &a, false, NP_STATUS_INVALID_HANDLE);
	a.process = NP_HANDLE_CURRENT_PROCESS;
	m->alloc_failures = 1;
	create_fails(m, &a, false, NP_STATUS_ACCESS_DENIED);
	assert_int_equal(m->alloc_failures, 1);
	m->integrity = NP_INTEGRITY_MEDIUM;
	create_fails(m, &a, false, NP_STATUS_INSUFFICIENT_RESOURCES);
	a = args_m(m);
	a.process = 0;
	a.affinity = 0x2;                           /* CP-15 before CP-21 */
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
}

/* CP-12, CP-13, CP-14, CP-19, CP-21, CP-22: a kernel-mode request has no
 * probes, no privilege check, no access check and no restriction; the other
 * checks stay. */
/* rules: CP-12 CP-13 CP-14 CP-19 CP-21 CP-22 */
static void test_kernel_mode_request(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	m->integrity = NP_INTEGRITY_LOW;
	np_create_profile_args a = args_m(m);
	a.profile_handle = KERNEL_X64;
	a.buffer = UNMAPPED + 2;
	a.process = 0;
	uint64_t h = create_ok_at(m, &a, false, KERNEL_X64);
	assert_int_equal(rd64(m, KERNEL_X64), h);
	np_profile *p = profile_of(m, h);
	assert_int_equal(p->process, 0);
	assert_int_equal(p->buffer, UNMAPPED + 2);

	a.profile_base = X64_LIMIT - 0x10;          /* reaches kernel space */
	a.process = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, NP_SYNCHRONIZE);
	assert_int_equal(create_ok_at(m, &a, false, KERNEL_X64) > 0, 1);

	put_group(m, AFF + 2, 0, 1, 0, 0, 0, 0);
	np_create_profile_args e = ex_args(1, AFF + 2);
	e.profile_handle = KERNEL_X64;
	e.buffer = KERNEL_X64 + 2;
	create_ok_at(m, &e, true, KERNEL_X64);

	a = args_m(m);
	a.profile_handle = KERNEL_X64;
	a.bucket_size = 1;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	a.bucket_size = 2;
	a.source = 0x100;
	create_fails(m, &a, false, NP_STATUS_NOT_SUPPORTED);
	a.source = 0;
	a.affinity = 0;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER);
	a.affinity = NP_AFFINITY_ALL;
	a.buffer_size = 0;
	create_fails(m, &a, false, NP_STATUS_INVALID_PARAMETER_7);
}

/* IN-7 before the 32-bit caller's limits: on a stopped machine a WOW64 call
 * with a value no 32-bit caller can pass still reports the bug check. */
/* rules: IN-7 */
static void test_cp_halted_before_wide_values(void **state)
{
	np_machine *m = *state;
	m->halted = true;
	m->halt_code = 0x0Au;
	np_create_profile_args a = args_m(m);
	a.profile_base = 0x100000000ull;
	np_result r = np_nt_create_profile(m, &a);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, 0x0Au);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, setup_##s, teardown)
static const struct CMUnitTest tests[] = {
	T(test_cp0_exports_by_version, bare),
	T(test_cp0_ex_not_exported_before_6_1, bare),
	T(test_cp0_3_10_seven_arguments, x86_3_10),
	T(test_cp0_3_50_seven_arguments, x86_3_50),
	T(test_cp0_3_51_nine_arguments, x86_3_51),
	T(test_cp1_create_is_ex_with_current_group, x64_6_1),
	T(test_cp1_before_6_1_no_processor_part, x64_6_0),
	T(test_cp2_buffer_size_zero_4_0_goes_on, x86_4_0),
	T(test_cp2_buffer_size_zero_4_0sp4_first, x86_4_0sp4),
	T(test_cp2_buffer_size_zero_every_later_version, bare),
	T(test_cp3_segment_mode_x86, x86_6_1),
	T(test_cp3_no_segment_mode_x64_wow64, bare),
	T(test_cp4_small_buffer_param7, bare),
	T(test_cp4_small_buffer_knob_invalid_parameter, x86_4_0sp4),
	T(test_cp5_divide_by_zero_fault, bare),
	T(test_cp5_divide_by_zero_bugcheck, x86_4_0),
	T(test_cp6_bucket_size_computed, x86_6_1),
	T(test_cp6_log2_0_reject, x86_6_1),
	T(test_cp6_computed_bucket_used_by_capacity, bare),
	T(test_cp7_bucket_size_range, bare),
	T(test_cp8_capacity_slack, bare),
	T(test_cp8_size_t_width, bare),
	T(test_cp9_threshold_1607_1703, bare),
	T(test_cp9_capacity_exact, x64_1703),
	T(test_cp9_zero_size_knob, x64_1703),
	T(test_cp9_fix_version_knob, bare),
	T(test_cp10_wrap_x86, x86_6_1),
	T(test_cp10_wrap_x64, x64_6_1),
	T(test_cp10_wow64_never_wraps, wow64_6_1),
	T(test_cp11_source_stored_before_6_2, x64_6_1),
	T(test_cp11_hal_must_support_source, x64_6_2),
	T(test_cp11_alignment_fixup_knob, x64_6_2),
	T(test_cp11_x86_6_2, x86_6_2),
	T(test_cp12_handle_probe_x64, x64_6_1),
	T(test_cp12_handle_probe_x86, x86_6_1),
	T(test_cp12_handle_probe_wow64, wow64_6_1),
	T(test_cp13_buffer_probe, x64_6_1),
	T(test_cp13_buffer_probe_wow64, wow64_6_1),
	T(test_cp14_affinity_array_probe_x64, x64_6_1),
	T(test_cp14_affinity_array_probe_x86, x86_6_1),
	T(test_cp14_affinity_array_probe_wow64, wow64_6_1),
	T(test_cp14_kernel_mode_copy, x64_6_1),
	T(test_cp15_group_count_zero, x64_6_1),
	T(test_cp15_elements, x64_6_1),
	T(test_cp15_reserved_words, x64_6_1),
	T(test_cp15_duplicate_groups, x64_6_1),
	T(test_cp15_wow64_layout, wow64_6_1),
	T(test_cp15_x86_one_group, x86_6_1),
	T(test_cp16_affinity, x64_6_1),
	T(test_cp16_x86_all_ones, x86_6_1),
	T(test_cp17_wow64_all_ones, wow64_6_1),
	T(test_cp17_wow64_6_0_stored, wow64_6_0),
	T(test_cp18_stored_unchecked, bare),
	T(test_cp19_process_handles, x64_6_1),
	T(test_cp19_kernel_mode_no_access_check, x64_6_1),
	T(test_cp19_32bit_handle_sign_extension, bare),
	T(test_cp20_segment_global, x86_6_1),
	T(test_cp21_privilege_x64, x64_6_1),
	T(test_cp21_privilege_x86, x86_6_1),
	T(test_cp21_wow64_base_user_space, wow64_6_1),
	T(test_cp21_always_knob, x64_6_1),
	T(test_cp22_restricted_threshold, bare),
	T(test_cp22_last_byte, x64_6_3),
	T(test_cp22_boundary_knobs, x64_6_3),
	T(test_cp22_wow64, wow64_6_3),
	T(test_cp22_sandboxed_token, bare),
	T(test_cp23_allocation_failure, x64_6_1),
	T(test_cp23_handle_table_full, x64_6_1),
	T(test_mc3_last_handle_of_table, x64_6_1),
	T(test_cp_halted_before_wide_values, wow64_6_1),
	T(test_cp23_many_profiles, x64_6_1),
	T(test_cp24_handle_written_x64, x64_6_1),
	T(test_cp24_handle_written_32bit, bare),
	T(test_cp24_write_fault, x64_6_1),
	T(test_cp25_no_other_effect, x64_6_1),
	T(test_order_probe_knob, x64_6_2),
	T(test_order_checks_before_and_after_probes, x64_6_2),
	T(test_order_after_probes, x64_6_3),
	T(test_kernel_mode_request, x64_6_3),
};
#undef T

NP_TEST_MAIN(tests)
