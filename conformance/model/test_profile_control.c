/* SPDX-License-Identifier: MIT */
/* SPEC.md §ST, §SP and MC-3, MC-5, MC-6: NtStartProfile, NtStopProfile,
 * NtClose and NtDuplicateObject around profile objects, and injected
 * failures.
 *
 * What a start did is read back the way a caller sees it: counts appearing
 * in the caller's buffer after an interrupt (np_profile_interrupt), plus the
 * profile's own record (m->profile[i]). Expectations come from the rules. */
#include "np_test.h"
#include "np_model_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define HCELL      0x10000u        /* RW page of handle cells */
#define BUF        0x100000u       /* RW, 4 pages, zero */
#define BUF_LEN    0x4000u
#define BUF2       0x200000u       /* a second RW buffer page, zero */
#define REGION     0x10000000u
#define POISON     0xCCu

#define ALL_PROCESS_ACCESS 0x001FFFFFu

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	return !(np_mem_map(m, HCELL, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, POISON) ||
		 np_mem_map(m, BUF, BUF_LEN, NP_PROT_READ | NP_PROT_WRITE, 0, 0) ||
		 np_mem_map(m, BUF2, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0));
}

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
SETUP(x86_3_51, NP_V3_51, NP_X86)
SETUP(x86_4_0, NP_V4_0, NP_X86)
SETUP(x86_4_0sp4, NP_V4_0SP4, NP_X86)
SETUP(x64_6_0, NP_V6_0, NP_X64)
SETUP(x64_6_1, NP_V6_1, NP_X64)
SETUP(wow64_6_0, NP_V6_0, NP_WOW64)
SETUP(wow64_6_1, NP_V6_1, NP_WOW64)
#undef SETUP

/* ---- helpers ---- */

static void wr32(np_machine *m, uint64_t addr, uint32_t v)
{
	assert_true(np_mem_write(m, addr, &v, sizeof v));
}

/* The profile a handle names (any access). */
static np_profile *profile_of(np_machine *m, uint64_t h)
{
	assert_true(h >= 4 && h / 4 <= NP_MAX_HANDLES);
	const np_handle_entry *e = &m->handle[h / 4 - 1];
	assert_int_equal(e->type, NP_OBJ_PROFILE);
	assert_true(e->object < NP_MAX_PROFILES);
	np_profile *p = &m->profile[e->object];
	assert_true(p->exists);
	return p;
}

static unsigned live_profiles(const np_machine *m)
{
	unsigned n = 0;
	for (unsigned i = 0; i < NP_MAX_PROFILES; i++)   /* an entry is read only where the mask says */
		n += (m->profiles >> i & 1) && m->profile[i].exists;
	return n;
}

/* Creates a profile of [base, base+size) in buckets of 2^bucket bytes with
 * counters at buffer; returns its handle. process 0 is global. The caller's
 * Affinity names processor 0 only on WOW64 (CP-17), all-ones elsewhere. */
static uint64_t make(np_machine *m, uint64_t process, uint64_t base, uint64_t size,
		     uint32_t bucket, uint64_t buffer, uint32_t buffer_size, uint64_t affinity)
{
	np_create_profile_args a = {
		.profile_handle = HCELL, .process = process, .profile_base = base,
		.profile_size = size, .bucket_size = bucket, .buffer = buffer,
		.buffer_size = buffer_size, .source = NP_PROFILE_TIME, .affinity = affinity,
	};
	uint64_t h = 0;
	assert_status(np_nt_create_profile(m, &a), NP_STATUS_SUCCESS);
	assert_true(np_mem_read(m, HCELL, &h, m->arch == NP_X64 ? 8 : 4));
	profile_of(m, h);
	return h;
}

/* 16 counters of 16-byte buckets over REGION..REGION+0x100 at buf. */
static uint64_t make_simple(np_machine *m, uint64_t buf)
{
	uint64_t aff = m->arch == NP_WOW64 && np_has_group_affinity(m->version) ? 1 : NP_AFFINITY_ALL;
	return make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, buf, 0x40, aff);
}

/* Raises one interrupt; returns how many profiles counted it. */
static unsigned irq_at(np_machine *m, uint64_t pc, unsigned cpu, unsigned group, unsigned process)
{
	np_interrupt i = { .source = NP_PROFILE_TIME, .cpu = cpu, .group = group, .pc = pc,
			   .process = process };
	unsigned counted = 99;
	np_result r = np_profile_interrupt(m, &i, &counted);
	assert_int_equal(r.kind, NP_RESULT_NONE);
	return counted;
}

static unsigned irq(np_machine *m, uint64_t pc)
{
	return irq_at(m, pc, 0, 0, NP_PROCESS_CURRENT);
}

static uint64_t dup_handle(np_machine *m, uint64_t h, uint32_t access)
{
	uint64_t d = 0;
	assert_status(np_nt_duplicate_object(m, h, access, &d), NP_STATUS_SUCCESS);
	assert_true(d != 0);
	return d;
}

static np_region *region_at(np_machine *m, uint64_t addr)
{
	np_region *r = np_mem_find(m, addr, 1);
	assert_non_null(r);
	return r;
}

/* ==== ST-0, SP-0 ==== */

/* ST-0, SP-0: NTDLL exports Nt and Zw spellings in every version; the kernel
 * exports only the Zw stubs, from 1607. */
/* rules: ST-0 SP-0 */
static void test_st0_sp0_exports(void **state)
{
	(void)state;
	static const char *const user[] = { "NtStartProfile", "ZwStartProfile", "NtStopProfile",
					    "ZwStopProfile" };
	for (int v = 0; v < NP_VERSION_COUNT; v++) {
		for (size_t i = 0; i < 4; i++)
			assert_true(np_is_exported(v, NP_MODE_USER, user[i]));
		assert_int_equal(np_is_exported(v, NP_MODE_KERNEL, "ZwStartProfile"), v >= NP_V1607);
		assert_int_equal(np_is_exported(v, NP_MODE_KERNEL, "ZwStopProfile"), v >= NP_V1607);
		assert_true(np_is_exported(v, NP_MODE_KERNEL, "NtStartProfile"));
		assert_true(np_is_exported(v, NP_MODE_KERNEL, "NtStopProfile"));
	}
	assert_false(np_is_exported(NP_V1511, NP_MODE_KERNEL, "ZwStartProfile"));
	assert_true(np_is_exported(NP_V1607, NP_MODE_KERNEL, "ZwStartProfile"));
	assert_false(np_is_exported(NP_V1511, NP_MODE_KERNEL, "ZwStopProfile"));
	assert_true(np_is_exported(NP_V1607, NP_MODE_KERNEL, "ZwStopProfile"));
}

/* ==== ST-1 ==== */

/* ST-1, MC-3: NULL or a value naming nothing is STATUS_INVALID_HANDLE, a
 * handle to another type STATUS_OBJECT_TYPE_MISMATCH; the low two bits of a
 * handle are ignored. A failure changes nothing. */
/* rules: ST-1 MC-3 */
static void test_st1_bad_handles(void **state)
{
	np_machine *m = *state;
	uint64_t process = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT, ALL_PROCESS_ACCESS);
	uint64_t thread = np_handle_open(m, NP_OBJ_THREAD, 1, 0x001FFFFFu);
	uint64_t h = make_simple(m, BUF);
	assert_int_equal(h, 12);
	static const uint64_t invalid[] = { 0, 1, 2, 3, 16, 0x100, 0x104, 0x1000,
					    0xFFFFFFFFu, 0x10000000Cull, 0xFFFFFFFFFFFFFFFDull };
	for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++)
		assert_status(np_nt_start_profile(m, invalid[i]), NP_STATUS_INVALID_HANDLE);
	static const uint64_t wrong[] = { NP_HANDLE_CURRENT_PROCESS, NP_HANDLE_CURRENT_THREAD };
	for (size_t i = 0; i < 2; i++)
		assert_status(np_nt_start_profile(m, wrong[i]), NP_STATUS_OBJECT_TYPE_MISMATCH);
	assert_status(np_nt_start_profile(m, process), NP_STATUS_OBJECT_TYPE_MISMATCH);
	assert_status(np_nt_start_profile(m, thread | 2), NP_STATUS_OBJECT_TYPE_MISMATCH);
	assert_false(profile_of(m, h)->started);
	assert_int_equal(irq(m, REGION), 0);

	assert_status(np_nt_start_profile(m, h | 3), NP_STATUS_SUCCESS);
	assert_true(profile_of(m, h)->started);
	assert_status(np_nt_stop_profile(m, h | 1), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h | 2), NP_STATUS_SUCCESS);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);

	assert_status(np_nt_close(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_INVALID_HANDLE);
}

/* ST-1, MC-5: a user-mode request needs PROFILE_CONTROL; a kernel-mode one
 * is not access-checked. A duplicate is masked to PROFILE_ALL_ACCESS. */
/* rules: ST-1 MC-5 */
static void test_st1_access(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	uint64_t none = dup_handle(m, h, 0);
	uint64_t std = dup_handle(m, h, 0x000F0000u);
	uint64_t all = dup_handle(m, h, 0xFFFFFFFFu);
	uint64_t ctl = dup_handle(m, h, NP_PROFILE_CONTROL);
	assert_int_equal(m->handle[all / 4 - 1].access, NP_PROFILE_ALL_ACCESS);
	assert_int_equal(m->handle[std / 4 - 1].access, 0x000F0000u);

	assert_status(np_nt_start_profile(m, none), NP_STATUS_ACCESS_DENIED);
	assert_status(np_nt_start_profile(m, std), NP_STATUS_ACCESS_DENIED);
	assert_false(profile_of(m, h)->started);
	assert_status(np_nt_start_profile(m, all), NP_STATUS_SUCCESS);
	assert_status(np_nt_stop_profile(m, ctl), NP_STATUS_SUCCESS);

	m->previous_mode = NP_MODE_KERNEL;
	assert_status(np_nt_start_profile(m, none), NP_STATUS_SUCCESS);
	assert_true(profile_of(m, h)->started);
	assert_status(np_nt_start_profile(m, NP_HANDLE_CURRENT_PROCESS), NP_STATUS_OBJECT_TYPE_MISMATCH);
	assert_status(np_nt_start_profile(m, 0), NP_STATUS_INVALID_HANDLE);
	assert_status(np_nt_stop_profile(m, std), NP_STATUS_SUCCESS);
}

/* ST-1, SP-1, MC-3: a 32-bit caller's handle is 32 bits, sign-extended:
 * 0xFFFFFFFF is -1 (a process: type mismatch), 0x80000004 is no table
 * entry. For an x64 caller 0xFFFFFFFF names nothing. */
/* rules: ST-1 SP-1 MC-3 */
static void test_st1_32bit_handles(void **state)
{
	(void)state;
	static const np_arch narrow[] = { NP_X86, NP_WOW64 };
	for (size_t i = 0; i < 2; i++) {
		np_machine *m = boot(NP_V6_1, narrow[i]);
		uint64_t h = make_simple(m, BUF);
		assert_int_equal(h, 4);
		assert_status(np_nt_start_profile(m, 0xFFFFFFFFu), NP_STATUS_OBJECT_TYPE_MISMATCH);
		assert_status(np_nt_start_profile(m, 0xFFFFFFFEu), NP_STATUS_OBJECT_TYPE_MISMATCH);
		assert_status(np_nt_start_profile(m, 0x80000004u), NP_STATUS_INVALID_HANDLE);
		assert_status(np_nt_stop_profile(m, 0xFFFFFFFEu), NP_STATUS_OBJECT_TYPE_MISMATCH);
		assert_false(profile_of(m, h)->started);
		assert_status(np_nt_start_profile(m, h | 3), NP_STATUS_SUCCESS);
		assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
		machine_free(m);
	}
	np_machine *m = boot(NP_V6_1, NP_X64);
	uint64_t h = make_simple(m, BUF);
	assert_int_equal(h, 4);
	assert_status(np_nt_start_profile(m, 0xFFFFFFFFu), NP_STATUS_INVALID_HANDLE);
	assert_status(np_nt_start_profile(m, 0x80000004u), NP_STATUS_INVALID_HANDLE);
	assert_status(np_nt_stop_profile(m, 0xFFFFFFFEu), NP_STATUS_INVALID_HANDLE);
	assert_false(profile_of(m, h)->started);
	machine_free(m);
}

/* ==== ST-2 ==== */

/* ST-2: a started profile gives STATUS_PROFILING_NOT_STOPPED and nothing
 * changes: it keeps counting; no allocation or lock is attempted. */
/* rules: ST-2 */
static void test_st2_already_started(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	m->alloc_failures = 1;
	m->lock_failures = 1;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_PROFILING_NOT_STOPPED);
	assert_status(np_nt_start_profile(m, dup_handle(m, h, NP_PROFILE_CONTROL)),
		      NP_STATUS_PROFILING_NOT_STOPPED);
	assert_int_equal(m->alloc_failures, 1);
	assert_int_equal(m->lock_failures, 1);
	assert_true(profile_of(m, h)->started);
	assert_int_equal(irq(m, REGION + 0x10), 1);
	assert_int_equal(rd32(m, BUF + 4), 1);
}

/* ==== ST-3 ==== */

/* ST-3: from 6.1, 8192 x processors started profiles, those started
 * elsewhere included, give STATUS_PROFILING_AT_LIMIT; before ST-4, after
 * ST-2. */
/* rules: ST-3 ST-4 ST-2 */
static void test_st3_limit_6_1(void **state)
{
	np_machine *m = *state;
	assert_true(np_has_started_profile_limit(m->version));
	uint64_t a = make_simple(m, BUF), b = make_simple(m, BUF + 0x1000);
	m->started_elsewhere = 8192;
	m->alloc_failures = 1;
	assert_status(np_nt_start_profile(m, a), NP_STATUS_PROFILING_AT_LIMIT);
	assert_int_equal(m->alloc_failures, 1);
	assert_false(profile_of(m, a)->started);
	assert_int_equal(irq(m, REGION), 0);
	m->alloc_failures = 0;

	m->started_elsewhere = 8191;
	assert_status(np_nt_start_profile(m, a), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, b), NP_STATUS_PROFILING_AT_LIMIT);
	assert_status(np_nt_start_profile(m, a), NP_STATUS_PROFILING_NOT_STOPPED);
	assert_int_equal(irq(m, REGION), 1);
	assert_status(np_nt_stop_profile(m, a), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, b), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, a), NP_STATUS_PROFILING_AT_LIMIT);
	m->started_elsewhere = 8190;
	assert_status(np_nt_start_profile(m, a), NP_STATUS_SUCCESS);

	/* two processors: twice the limit */
	assert_status(np_nt_stop_profile(m, a), NP_STATUS_SUCCESS);
	assert_status(np_nt_stop_profile(m, b), NP_STATUS_SUCCESS);
	assert_null(np_machine_set_cpus(m, 2));
	m->started_elsewhere = 16384;
	assert_status(np_nt_start_profile(m, a), NP_STATUS_PROFILING_AT_LIMIT);
	m->started_elsewhere = 16383;
	assert_status(np_nt_start_profile(m, a), NP_STATUS_SUCCESS);
}

/* ST-3, MC-4: K-LIMIT=active counts the active processors of every group. */
/* rules: ST-3 MC-4 */
static void test_st3_limit_counts_all_groups(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 2));
	assert_null(np_machine_set_groups(m, 2));
	uint64_t a = make_simple(m, BUF), b = make_simple(m, BUF + 0x1000);
	m->started_elsewhere = 32767;
	assert_status(np_nt_start_profile(m, a), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, b), NP_STATUS_PROFILING_AT_LIMIT);
}

/* ST-3: no limit before 6.1 (up to 5.0 the intended 8 never takes effect;
 * 5.1 to 6.0 have none). */
/* rules: ST-3 */
static void test_st3_no_limit_before_6_1(void **state)
{
	(void)state;
	static const struct { np_ver v; np_arch a; } rows[] = {
		{ NP_V3_51, NP_X86 }, { NP_V4_0, NP_X86 }, { NP_V5_0, NP_X86 }, { NP_V5_1, NP_X86 },
		{ NP_V6_0, NP_X86 }, { NP_V6_0, NP_X64 }, { NP_V6_0, NP_WOW64 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		np_machine *m = boot(rows[i].v, rows[i].a);
		assert_false(np_has_started_profile_limit(m->version));
		m->started_elsewhere = 1000000;
		for (unsigned k = 0; k < 10; k++) {
			uint64_t h = make_simple(m, BUF + 0x100 * k);
			assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
		}
		assert_int_equal(irq(m, REGION), 10);
		machine_free(m);
	}
}

/* ST-3: K-LIMIT=maximum: 32 processors on x86, 64 x 4 on a 64-bit 6.1
 * kernel, 64 x 20 on a 64-bit kernel from 6.2 (WOW64 included). */
/* rules: ST-3 */
static void test_st3_limit_maximum_knob(void **state)
{
	(void)state;
	static const struct { np_ver v; np_arch a; unsigned processors; } rows[] = {
		{ NP_V6_1, NP_X86, 32 }, { NP_V1703, NP_X86, 32 },
		{ NP_V6_1, NP_X64, 256 }, { NP_V6_1, NP_WOW64, 256 },
		{ NP_V6_2, NP_X64, 1280 }, { NP_V6_2, NP_WOW64, 1280 }, { NP_V11_24H2, NP_X64, 1280 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		np_machine *m = boot(rows[i].v, rows[i].a);
		uint64_t a = make_simple(m, BUF), b = make_simple(m, BUF + 0x1000);
		unsigned limit = 8192u * rows[i].processors;
		m->started_elsewhere = 8192;                  /* the active limit of 1 processor */
		assert_status(np_nt_start_profile(m, a), NP_STATUS_PROFILING_AT_LIMIT);
		m->knobs.limit = NP_LIMIT_MAXIMUM;
		m->started_elsewhere = limit;
		assert_status(np_nt_start_profile(m, a), NP_STATUS_PROFILING_AT_LIMIT);
		m->started_elsewhere = limit - 1;
		assert_status(np_nt_start_profile(m, a), NP_STATUS_SUCCESS);
		assert_status(np_nt_start_profile(m, b), NP_STATUS_PROFILING_AT_LIMIT);
		machine_free(m);
	}
}

/* ==== ST-4, ST-5 ==== */

/* ST-4, MC-6: an injected allocation failure: STATUS_INSUFFICIENT_RESOURCES,
 * the profile stays stopped, the lock is not attempted; the next start works. */
/* rules: ST-4 MC-6 */
static void test_st4_allocation_failure(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	m->alloc_failures = 1;
	m->lock_failures = 1;
	m->knobs.lock_fail = NP_LOCK_FAIL_QUOTA;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(m->alloc_failures, 0);
	assert_int_equal(m->lock_failures, 1);
	assert_false(profile_of(m, h)->started);
	assert_int_equal(irq(m, REGION), 0);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_WORKING_SET_QUOTA);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(irq(m, REGION), 1);
}

/* ST-5, MC-6: an injected lock failure with each K-LOCK-FAIL value; the
 * profile stays stopped; the injection is used once. */
/* rules: ST-5 MC-6 */
static void test_st5_lock_failures(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	static const struct { np_knob_lock_fail k; uint32_t status; } rows[] = {
		{ NP_LOCK_FAIL_AV, NP_STATUS_ACCESS_VIOLATION },
		{ NP_LOCK_FAIL_QUOTA, NP_STATUS_WORKING_SET_QUOTA },
		{ NP_LOCK_FAIL_RESOURCES, NP_STATUS_INSUFFICIENT_RESOURCES },
	};
	assert_int_equal(m->knobs.lock_fail, NP_LOCK_FAIL_AV);
	for (size_t i = 0; i < 3; i++) {
		m->knobs.lock_fail = rows[i].k;
		m->lock_failures = 1;
		m->map_failures = 1;
		assert_status(np_nt_start_profile(m, h), rows[i].status);
		assert_int_equal(m->lock_failures, 0);
		assert_int_equal(m->map_failures, 1);        /* the map comes after the lock */
		assert_false(profile_of(m, h)->started);
		assert_int_equal(irq(m, REGION), 0);
		assert_status(np_nt_start_profile(m, h), NP_STATUS_INSUFFICIENT_RESOURCES);
		assert_int_equal(m->map_failures, 0);
		assert_false(profile_of(m, h)->started);
		assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
		assert_int_equal(irq(m, REGION), 1);
		assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	}
	assert_int_equal(rd32(m, BUF), 3);
}

/* ST-5 K-MDL-LIMIT: the largest buffer one MDL describes starts, one byte
 * more gives STATUS_INSUFFICIENT_RESOURCES (insufficient-resources, the
 * default) or starts (none); create takes both (CP-25). */
/* rules: ST-5 CP-25 */
static void test_st5_mdl_limit(void **state)
{
	(void)state;
	static const struct { np_ver v; np_arch a; uint32_t limit; } rows[] = {
		{ NP_V4_0, NP_X86, 0x3FF8FFFu }, { NP_V5_2SP1, NP_X86, 0x3FF8FFFu },
		{ NP_V5_2SP1, NP_X64, 0x1FF9FFFu }, { NP_V5_2SP1, NP_WOW64, 0x1FF9FFFu },
		{ NP_V6_0, NP_X64, 0x7FFFF000u }, { NP_V6_1, NP_X64, 0xFFFFF000u },
	};
	const uint64_t big = 0x20000000u;
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		np_machine *m = boot(rows[i].v, rows[i].a);
		uint64_t aff = m->arch == NP_WOW64 && np_has_group_affinity(m->version) ? 1 : NP_AFFINITY_ALL;
		assert_null(np_mem_map(m, big, (uint64_t)rows[i].limit + 1, NP_PROT_READ | NP_PROT_WRITE, 0, 0));
		uint64_t fits = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, big, rows[i].limit, aff);
		uint64_t over = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, big, rows[i].limit + 1, aff);
		assert_int_equal(m->knobs.mdl_limit, NP_MDL_LIMIT_RESOURCES);
		assert_status(np_nt_start_profile(m, fits), NP_STATUS_SUCCESS);
		assert_status(np_nt_stop_profile(m, fits), NP_STATUS_SUCCESS);
		assert_status(np_nt_start_profile(m, over), NP_STATUS_INSUFFICIENT_RESOURCES);
		assert_false(profile_of(m, over)->started);
		m->knobs.mdl_limit = NP_MDL_LIMIT_NONE;
		assert_status(np_nt_start_profile(m, over), NP_STATUS_SUCCESS);
		machine_free(m);
	}
}

/* ST-5: the buffer's pages must still be writable user memory, all
 * BufferSize bytes of them, in kernel mode too; else STATUS_ACCESS_VIOLATION. */
/* rules: ST-5 */
static void test_st5_buffer_gone(void **state)
{
	np_machine *m = *state;
	/* freed after the create */
	uint64_t h = make_simple(m, BUF2);
	region_at(m, BUF2)->revoked = true;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_ACCESS_VIOLATION);
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_ACCESS_VIOLATION);
	m->previous_mode = NP_MODE_USER;
	assert_false(profile_of(m, h)->started);
	assert_int_equal(irq(m, REGION), 0);
	region_at(m, BUF2)->revoked = false;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);

	/* made read-only after the create */
	region_at(m, BUF2)->prot = NP_PROT_READ;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_ACCESS_VIOLATION);
	assert_false(profile_of(m, h)->started);
	region_at(m, BUF2)->prot = NP_PROT_READ | NP_PROT_WRITE;

	/* 0x2000 bytes of buffer, 4 counters in use in the first page; the
	 * second page is decommitted after the create: still a failure */
	uint64_t big = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x10, 2, BUF, 0x2000, NP_AFFINITY_ALL);
	region_at(m, BUF)->size = 0x1000;
	assert_status(np_nt_start_profile(m, big), NP_STATUS_ACCESS_VIOLATION);
	assert_false(profile_of(m, big)->started);
	region_at(m, BUF)->size = BUF_LEN;
	assert_status(np_nt_start_profile(m, big), NP_STATUS_SUCCESS);
}

/* ==== ST-6 ==== */

/* ST-6: from 6.1 the processors are those validated at create, whatever
 * becomes active later. */
/* rules: ST-6 */
static void test_st6_processors_from_6_1(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	uint64_t five = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, BUF, 0x40, 0x5);
	uint64_t all = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, BUF + 0x1000, 0x40,
			    NP_AFFINITY_ALL);
	assert_status(np_nt_start_profile(m, five), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, all), NP_STATUS_SUCCESS);
	assert_int_equal(profile_of(m, five)->run_mask[0], 0x5);
	assert_int_equal(profile_of(m, all)->run_mask[0], 0xF);
	assert_int_equal(irq_at(m, REGION, 0, 0, NP_PROCESS_CURRENT), 2);
	assert_int_equal(irq_at(m, REGION, 1, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_at(m, REGION, 2, 0, NP_PROCESS_CURRENT), 2);
	assert_int_equal(irq_at(m, REGION, 3, 0, NP_PROCESS_CURRENT), 1);
	assert_null(np_machine_set_cpus(m, 8));
	assert_status(np_nt_stop_profile(m, all), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, all), NP_STATUS_SUCCESS);
	assert_int_equal(profile_of(m, all)->run_mask[0], 0xF);
	assert_int_equal(irq_at(m, REGION, 7, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(rd32(m, BUF), 2);
	assert_int_equal(rd32(m, BUF + 0x1000), 4);
}

/* Starts a profile with the given Affinity; returns its processors. */
static uint64_t run_mask_for(np_machine *m, uint64_t affinity, uint64_t buf)
{
	uint64_t h = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, buf, 0x40, affinity);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	return profile_of(m, h)->run_mask[0];
}

/* ST-6: 3.51 to 4.0 (before sp4): 0 means every active processor; a mask
 * with no active processor starts but never counts; else mask and active. */
static void assert_pre_sp4(np_machine *m)
{
	assert_false(np_has_sp4_profile_fixes(m->version));
	assert_null(np_machine_set_cpus(m, 4));
	assert_int_equal(run_mask_for(m, 0, BUF), 0xF);
	assert_int_equal(run_mask_for(m, 0x30, BUF + 0x100), 0);
	assert_int_equal(run_mask_for(m, 0x12, BUF + 0x200), 0x2);
	assert_int_equal(run_mask_for(m, 0xFFFFFFFFu, BUF + 0x300), 0xF);
	for (unsigned cpu = 0; cpu < 4; cpu++)
		assert_int_equal(irq_at(m, REGION, cpu, 0, NP_PROCESS_CURRENT), cpu == 1 ? 3 : 2);
	assert_int_equal(rd32(m, BUF + 0x100), 0);           /* never counts */
	assert_int_equal(rd32(m, BUF + 0x200), 1);
	assert_int_equal(rd32(m, BUF), 4);
}

/* ST-6: 4.0. */
/* rules: ST-6 */
static void test_st6_4_0(void **state) { assert_pre_sp4(*state); }

/* ST-6: 3.51. */
/* rules: ST-6 */
static void test_st6_3_51(void **state) { assert_pre_sp4(*state); }

/* ST-6: 4.0sp4 to 6.0: a mask with no active processor means all of them. */
/* rules: ST-6 */
static void test_st6_4_0sp4(void **state)
{
	np_machine *m = *state;
	assert_true(np_has_sp4_profile_fixes(m->version));
	assert_null(np_machine_set_cpus(m, 4));
	assert_int_equal(run_mask_for(m, 0, BUF), 0xF);
	assert_int_equal(run_mask_for(m, 0x30, BUF + 0x100), 0xF);
	assert_int_equal(run_mask_for(m, 0x12, BUF + 0x200), 0x2);
	assert_int_equal(irq_at(m, REGION, 3, 0, NP_PROCESS_CURRENT), 2);
	assert_int_equal(rd32(m, BUF + 0x100), 1);
}

/* ST-6: 6.0 reads the kept Affinity at each start, against the processors
 * active then. */
/* rules: ST-6 */
static void test_st6_6_0_read_at_each_start(void **state)
{
	np_machine *m = *state;
	assert_false(np_has_group_affinity(m->version));
	assert_null(np_machine_set_cpus(m, 4));
	uint64_t h = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, BUF, 0x40, 0x30);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(profile_of(m, h)->run_mask[0], 0xF);
	assert_int_equal(irq_at(m, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_null(np_machine_set_cpus(m, 8));
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(profile_of(m, h)->run_mask[0], 0x30);
	assert_int_equal(irq_at(m, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(irq_at(m, REGION, 5, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(rd32(m, BUF), 2);
	uint64_t all = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, BUF + 0x100, 0x40,
			    NP_AFFINITY_ALL);
	assert_status(np_nt_start_profile(m, all), NP_STATUS_SUCCESS);
	assert_int_equal(profile_of(m, all)->run_mask[0], 0xFF);
}

/* ST-6, CP-17: WOW64 before 6.1: the zero-extended 0xFFFFFFFF is kept and
 * read against the active processors at start. */
/* rules: ST-6 CP-17 */
static void test_st6_wow64_6_0(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 40));
	uint64_t h = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, BUF, 0x40, NP_AFFINITY_ALL);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(profile_of(m, h)->run_mask[0], 0xFFFFFFFFu);
	assert_int_equal(irq_at(m, REGION, 31, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_at(m, REGION, 32, 0, NP_PROCESS_CURRENT), 0);
}

/* ST-6, CP-18: 3.10 has no Affinity: every processor counts. */
/* rules: ST-6 CP-18 */
static void test_st6_3_10_all_processors(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 3));
	uint64_t h = make_simple(m, BUF);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(profile_of(m, h)->run_mask[0], 0x7);
	for (unsigned cpu = 0; cpu < 3; cpu++)
		assert_int_equal(irq_at(m, REGION, cpu, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(rd32(m, BUF), 3);
}

/* ==== ST-7, ST-8 ==== */

/* ST-7, IN-1, IN-5: a started profile is linked into its process's list or
 * the global list with its range, bucket and source; counts appear live in
 * the caller's own buffer. */
/* rules: ST-7 IN-1 IN-5 */
static void test_st7_linked(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	uint64_t other = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, ALL_PROCESS_ACCESS);
	uint64_t mine = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, BUF, 0x40, NP_AFFINITY_ALL);
	uint64_t global = make(m, 0, REGION, 0x100, 2, BUF + 0x1000, 0x100, NP_AFFINITY_ALL);
	uint64_t theirs = make(m, other, REGION, 0x100, 3, BUF + 0x2000, 0x80, NP_AFFINITY_ALL);
	np_profile *p = profile_of(m, mine);
	assert_int_equal(p->process, NP_PROCESS_CURRENT);
	assert_int_equal(profile_of(m, global)->process, 0);
	assert_int_equal(profile_of(m, theirs)->process, NP_PROCESS_OTHER);
	assert_int_equal(irq(m, REGION + 0x24), 0);          /* nothing started yet */

	assert_status(np_nt_start_profile(m, mine), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, global), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, theirs), NP_STATUS_SUCCESS);
	assert_true(p->started);
	assert_int_equal(p->base, REGION);
	assert_int_equal(p->size, 0x100);
	assert_int_equal(p->bucket_size, 4);
	assert_int_equal(p->source, NP_PROFILE_TIME);

	assert_int_equal(irq_at(m, REGION + 0x24, 0, 0, NP_PROCESS_CURRENT), 2);
	assert_int_equal(rd32(m, BUF + 4 * 2), 1);              /* 0x24 >> 4 */
	assert_int_equal(rd32(m, BUF + 0x1000 + 4 * 9), 1);     /* 0x24 >> 2 */
	assert_int_equal(rd32(m, BUF + 0x2000 + 4 * 4), 0);
	assert_int_equal(irq_at(m, REGION + 0x24, 0, 0, NP_PROCESS_OTHER), 2);
	assert_int_equal(rd32(m, BUF + 4 * 2), 1);
	assert_int_equal(rd32(m, BUF + 0x1000 + 4 * 9), 2);
	assert_int_equal(rd32(m, BUF + 0x2000 + 4 * 4), 1);     /* 0x24 >> 3 */
}

/* ST-8: with K-ZERO-ON-START=no (default) a start leaves the counters, so
 * counts add up over start and stop pairs. */
/* rules: ST-8 */
static void test_st8_not_cleared(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	wr32(m, BUF + 8, 5);
	wr32(m, BUF + 0x3C, 0xDEADBEEFu);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(rd32(m, BUF + 8), 5);
	assert_int_equal(irq(m, REGION + 0x20), 1);
	assert_int_equal(rd32(m, BUF + 8), 6);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(irq(m, REGION + 0x2F), 1);
	assert_int_equal(rd32(m, BUF + 8), 7);
	assert_int_equal(rd32(m, BUF + 0x3C), 0xDEADBEEFu);
}

/* ST-8: K-ZERO-ON-START=yes: each start sets all BufferSize bytes to 0,
 * and no byte after them. */
/* rules: ST-8 */
static void test_st8_zero_on_start_knob(void **state)
{
	np_machine *m = *state;
	m->knobs.zero_on_start = true;
	uint64_t h = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, BUF, 0x43, NP_AFFINITY_ALL);
	uint8_t fill[0x50];
	memset(fill, 0xAB, sizeof fill);
	assert_true(np_mem_write(m, BUF, fill, sizeof fill));
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	uint8_t got[0x50];
	assert_true(np_mem_read(m, BUF, got, sizeof got));
	for (size_t i = 0; i < sizeof got; i++)
		assert_int_equal(got[i], i < 0x43 ? 0 : 0xAB);
	assert_int_equal(irq(m, REGION + 0x20), 1);
	assert_int_equal(rd32(m, BUF + 8), 1);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(rd32(m, BUF + 8), 1);
	wr32(m, BUF + 12, 9);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(rd32(m, BUF + 8), 0);
	assert_int_equal(rd32(m, BUF + 12), 0);
	assert_int_equal(got[0x43], 0xAB);
}

/* ST-8: the clearing stops at the buffer's last byte when the part left in
 * the last page is one byte short of a page (0xFFF bytes). */
/* rules: ST-8 */
static void test_st8_zero_on_start_page_less_one(void **state)
{
	np_machine *m = *state;
	m->knobs.zero_on_start = true;
	uint8_t fill[NP_PAGE_SIZE];
	memset(fill, 0xAB, sizeof fill);
	assert_true(np_mem_write(m, BUF2, fill, sizeof fill));
	uint64_t h = make(m, NP_HANDLE_CURRENT_PROCESS, REGION, 0x100, 4, BUF2, 0xFFF, NP_AFFINITY_ALL);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	uint8_t got[NP_PAGE_SIZE];
	assert_true(np_mem_read(m, BUF2, got, sizeof got));
	assert_int_equal(got[0xFFE], 0);
	assert_int_equal(got[0xFFF], 0xAB);
}

/* ST-3: a started profile in the last slot of the table counts toward the
 * limit like any other. */
/* rules: ST-3 */
static void test_st3_last_slot_counts(void **state)
{
	np_machine *m = *state;
	uint64_t first = 0, last = 0;
	for (unsigned i = 0; i < NP_MAX_PROFILES; i++) {
		last = make_simple(m, BUF);
		if (i == 0)
			first = last;
	}
	assert_int_equal(last, 4u * NP_MAX_PROFILES);
	/* CP-23: a 65th profile finds no free slot (and no handle) */
	np_create_profile_args a = {
		.profile_handle = HCELL, .process = NP_HANDLE_CURRENT_PROCESS, .profile_base = REGION,
		.profile_size = 0x100, .bucket_size = 4, .buffer = BUF, .buffer_size = 0x40,
		.source = NP_PROFILE_TIME, .affinity = NP_AFFINITY_ALL,
	};
	assert_status(np_nt_create_profile(m, &a), NP_STATUS_INSUFFICIENT_RESOURCES);
	m->started_elsewhere = 8192u * m->cpus - 1;      /* one below the limit */
	assert_status(np_nt_start_profile(m, last), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, first), NP_STATUS_PROFILING_AT_LIMIT);
}

/* ==== SP-1 .. SP-5 ==== */

/* SP-1: the handle checks of ST-1; a failed stop leaves the profile running. */
/* rules: SP-1 ST-1 */
static void test_sp1_bad_handles(void **state)
{
	np_machine *m = *state;
	uint64_t process = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT, ALL_PROCESS_ACCESS);
	uint64_t h = make_simple(m, BUF);
	uint64_t none = dup_handle(m, h, 0);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	static const uint64_t invalid[] = { 0, 1, 3, 0x100, 0x104, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++)
		assert_status(np_nt_stop_profile(m, invalid[i]), NP_STATUS_INVALID_HANDLE);
	assert_status(np_nt_stop_profile(m, NP_HANDLE_CURRENT_PROCESS), NP_STATUS_OBJECT_TYPE_MISMATCH);
	assert_status(np_nt_stop_profile(m, NP_HANDLE_CURRENT_THREAD), NP_STATUS_OBJECT_TYPE_MISMATCH);
	assert_status(np_nt_stop_profile(m, process), NP_STATUS_OBJECT_TYPE_MISMATCH);
	assert_status(np_nt_stop_profile(m, none), NP_STATUS_ACCESS_DENIED);
	assert_true(profile_of(m, h)->started);
	assert_int_equal(irq(m, REGION), 1);
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(np_nt_stop_profile(m, none), NP_STATUS_SUCCESS);
	assert_false(profile_of(m, h)->started);
}

/* SP-2: a profile that is not started: STATUS_PROFILING_NOT_STARTED. */
/* rules: SP-2 */
static void test_sp2_not_started(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_PROFILING_NOT_STARTED);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_PROFILING_NOT_STARTED);
	m->lock_failures = 1;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_PROFILING_NOT_STARTED);
	m->started_elsewhere = 8192;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_PROFILING_AT_LIMIT);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_PROFILING_NOT_STARTED);
}

/* SP-3, MC-6: a stop cannot fail: no allocation, lock or mapping is used;
 * the object and handle stay; a stopped profile counts nothing and can be
 * started again. */
/* rules: SP-3 MC-6 */
static void test_sp3_stop_cannot_fail(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	m->alloc_failures = 1;
	m->lock_failures = 1;
	m->map_failures = 1;
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(m->alloc_failures, 1);
	assert_int_equal(m->lock_failures, 1);
	assert_int_equal(m->map_failures, 1);
	np_profile *p = profile_of(m, h);
	assert_false(p->started);
	assert_int_equal(p->handles, 1);
	assert_int_equal(m->handle[h / 4 - 1].access, NP_PROFILE_CONTROL);
	assert_int_equal(irq(m, REGION), 0);
	m->alloc_failures = m->lock_failures = m->map_failures = 0;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(irq(m, REGION), 1);
}

/* SP-4: counts stay after the stop and no interrupt changes them until the
 * next start. */
/* rules: SP-4 */
static void test_sp4_counts_stay(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(irq(m, REGION + 0x30), 1);
	assert_int_equal(irq(m, REGION + 0x3F), 1);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(rd32(m, BUF + 12), 2);
	assert_int_equal(irq(m, REGION + 0x30), 0);
	assert_int_equal(rd32(m, BUF + 12), 2);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(irq(m, REGION + 0x30), 1);
	assert_int_equal(rd32(m, BUF + 12), 3);
}

/* SP-5, MC-5: closing the last handle of a started profile stops and
 * deletes it; closing one of two handles does neither. */
/* rules: SP-5 MC-5 */
static void test_sp5_close_last_handle_stops(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	uint64_t d = dup_handle(m, h, NP_PROFILE_CONTROL);
	np_profile *p = profile_of(m, h);
	assert_int_equal(p->handles, 2);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_close(m, h), NP_STATUS_SUCCESS);
	assert_true(p->exists);
	assert_true(p->started);
	assert_int_equal(p->handles, 1);
	assert_int_equal(irq(m, REGION), 1);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_INVALID_HANDLE);
	assert_status(np_nt_close(m, d), NP_STATUS_SUCCESS);
	assert_int_equal(live_profiles(m), 0);
	assert_int_equal(irq(m, REGION), 0);
	assert_int_equal(rd32(m, BUF), 1);
	assert_status(np_nt_stop_profile(m, d), NP_STATUS_INVALID_HANDLE);

	/* the deleted profile no longer counts against the limit (ST-3) */
	m->started_elsewhere = 8191;
	uint64_t a = make_simple(m, BUF);
	assert_status(np_nt_start_profile(m, a), NP_STATUS_SUCCESS);
	assert_status(np_nt_close(m, a), NP_STATUS_SUCCESS);
	uint64_t b = make_simple(m, BUF + 0x100);
	assert_status(np_nt_start_profile(m, b), NP_STATUS_SUCCESS);
	/* a stopped profile is deleted by its last close too */
	uint64_t c = make_simple(m, BUF + 0x200);
	assert_int_equal(live_profiles(m), 2);
	assert_status(np_nt_close(m, c), NP_STATUS_SUCCESS);
	assert_int_equal(live_profiles(m), 1);
}

/* ==== MC-3, MC-5, MC-6 ==== */

/* MC-3: the table starts empty; entries are 4, 8, 12 in order; a freed
 * entry is reused; pseudo-handles are no entries. */
/* rules: MC-3 */
static void test_mc3_handle_values(void **state)
{
	np_machine *m = *state;
	for (unsigned i = 0; i < NP_MAX_HANDLES; i++)
		assert_int_equal(m->handle[i].type, NP_OBJ_NONE);
	assert_int_equal(make_simple(m, BUF), 4);
	assert_int_equal(make_simple(m, BUF + 0x100), 8);
	assert_int_equal(np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, ALL_PROCESS_ACCESS), 12);
	assert_int_equal(make_simple(m, BUF + 0x200), 16);
	assert_status(np_nt_close(m, 8), NP_STATUS_SUCCESS);
	assert_int_equal(make_simple(m, BUF + 0x300), 8);
	for (uint64_t v = 4; v < 8; v++) {
		assert_status(np_nt_start_profile(m, v), NP_STATUS_SUCCESS);
		assert_status(np_nt_stop_profile(m, v ^ 3), NP_STATUS_SUCCESS);
	}
	for (uint64_t v = 12; v < 16; v++)
		assert_status(np_nt_start_profile(m, v), NP_STATUS_OBJECT_TYPE_MISMATCH);
	for (uint64_t v = 0; v < 4; v++)
		assert_status(np_nt_start_profile(m, v), NP_STATUS_INVALID_HANDLE);
	for (unsigned i = 4; i < NP_MAX_HANDLES; i++)
		assert_int_equal(m->handle[i].type, NP_OBJ_NONE);
}

/* MC-5: NtClose of a table handle succeeds once; anything else is
 * STATUS_INVALID_HANDLE. */
/* rules: MC-5 */
static void test_mc5_close(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	uint64_t process = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, ALL_PROCESS_ACCESS);
	static const uint64_t bad[] = { 0, 1, 2, 3, 0x100, 0x104, NP_HANDLE_CURRENT_PROCESS,
					NP_HANDLE_CURRENT_THREAD, 0xFFFFFFFFu, 0x100000004ull };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_status(np_nt_close(m, bad[i]), NP_STATUS_INVALID_HANDLE);
	assert_int_equal(live_profiles(m), 1);
	assert_status(np_nt_close(m, process | 2), NP_STATUS_SUCCESS);
	assert_int_equal(m->handle[process / 4 - 1].type, NP_OBJ_NONE);
	assert_status(np_nt_close(m, process), NP_STATUS_INVALID_HANDLE);
	assert_status(np_nt_close(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_close(m, h), NP_STATUS_INVALID_HANDLE);
	assert_int_equal(live_profiles(m), 0);
}

/* MC-5: NtDuplicateObject gives a new handle with exactly the access asked
 * for, masked to PROFILE_ALL_ACCESS for a profile; a value naming nothing is
 * STATUS_INVALID_HANDLE. */
/* rules: MC-5 */
static void test_mc5_duplicate(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	uint64_t process = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, NP_SYNCHRONIZE);
	uint64_t d = dup_handle(m, h | 1, 0xFFFFFFFFu);
	assert_int_equal(d, 12);
	assert_int_equal(m->handle[d / 4 - 1].type, NP_OBJ_PROFILE);
	assert_int_equal(m->handle[d / 4 - 1].access, 0x000F0001u);
	assert_int_equal(m->handle[d / 4 - 1].object, m->handle[h / 4 - 1].object);
	assert_int_equal(profile_of(m, h)->handles, 2);
	uint64_t z = dup_handle(m, h, 0x00100000u);          /* SYNCHRONIZE is no profile right */
	assert_int_equal(m->handle[z / 4 - 1].access, 0);
	assert_int_equal(profile_of(m, h)->handles, 3);
	uint64_t pd = dup_handle(m, process, ALL_PROCESS_ACCESS);
	assert_int_equal(m->handle[pd / 4 - 1].type, NP_OBJ_PROCESS);
	assert_int_equal(m->handle[pd / 4 - 1].object, NP_PROCESS_OTHER);
	assert_int_equal(m->handle[pd / 4 - 1].access, ALL_PROCESS_ACCESS);

	static const uint64_t bad[] = { 0, 3, 0x100, 0x104 };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		uint64_t out = 77;
		assert_status(np_nt_duplicate_object(m, bad[i], NP_PROFILE_CONTROL, &out),
			      NP_STATUS_INVALID_HANDLE);
		assert_int_equal(out, 0);
	}
	assert_status(np_nt_close(m, h), NP_STATUS_SUCCESS);
	uint64_t out = 77;
	assert_status(np_nt_duplicate_object(m, h, NP_PROFILE_CONTROL, &out), NP_STATUS_INVALID_HANDLE);
	assert_int_equal(profile_of(m, d)->handles, 2);
	/* the duplicate works for the profile on its own */
	assert_status(np_nt_start_profile(m, d), NP_STATUS_SUCCESS);
	assert_int_equal(irq(m, REGION), 1);
}

/* MC-3, MC-5: a WOW64 caller's handle argument to NtClose is 32 bits,
 * sign-extended: -1 and 0x80000004 name no entry. */
/* rules: MC-3 MC-5 */
static void test_mc5_32bit_close(void **state)
{
	np_machine *m = *state;
	uint64_t h = make_simple(m, BUF);
	assert_int_equal(h, 4);
	assert_status(np_nt_close(m, 0xFFFFFFFFu), NP_STATUS_INVALID_HANDLE);
	assert_status(np_nt_close(m, 0x80000004u), NP_STATUS_INVALID_HANDLE);
	assert_int_equal(live_profiles(m), 1);
	assert_status(np_nt_close(m, 7), NP_STATUS_SUCCESS);
	assert_int_equal(live_profiles(m), 0);
}

/* MC-6, CP-23, ST-4, ST-5: each injected failure is used up by the first
 * operation of its kind, and only by it. */
/* rules: MC-6 CP-23 ST-4 ST-5 */
static void test_mc6_injections_used_once(void **state)
{
	np_machine *m = *state;
	np_create_profile_args a = {
		.profile_handle = HCELL, .process = NP_HANDLE_CURRENT_PROCESS, .profile_base = REGION,
		.profile_size = 0x100, .bucket_size = 4, .buffer = BUF, .buffer_size = 0x40,
		.source = NP_PROFILE_TIME, .affinity = NP_AFFINITY_ALL,
	};
	m->alloc_failures = 2;
	m->lock_failures = 1;
	m->map_failures = 1;
	assert_status(np_nt_create_profile(m, &a), NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_status(np_nt_create_profile(m, &a), NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(m->alloc_failures, 0);
	assert_status(np_nt_create_profile(m, &a), NP_STATUS_SUCCESS);
	assert_int_equal(m->lock_failures, 1);       /* create locks nothing */
	assert_int_equal(m->map_failures, 1);
	uint64_t h = 4;
	profile_of(m, h);
	m->alloc_failures = 1;
	assert_status(np_nt_start_profile(m, h), NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(m->lock_failures, 1);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(m->map_failures, 1);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(m->map_failures, 0);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(m->alloc_failures + m->lock_failures + m->map_failures, 0);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, setup_##s, teardown)
static const struct CMUnitTest tests[] = {
	T(test_st0_sp0_exports, bare),
	T(test_st1_bad_handles, x64_6_1),
	T(test_st1_access, x64_6_1),
	T(test_st1_32bit_handles, bare),
	T(test_st2_already_started, x64_6_1),
	T(test_st3_limit_6_1, x64_6_1),
	T(test_st3_limit_counts_all_groups, x64_6_1),
	T(test_st3_no_limit_before_6_1, bare),
	T(test_st3_limit_maximum_knob, bare),
	T(test_st4_allocation_failure, x64_6_1),
	T(test_st5_lock_failures, x64_6_1),
	cmocka_unit_test(test_st5_mdl_limit),
	T(test_st5_buffer_gone, x64_6_1),
	T(test_st6_processors_from_6_1, x64_6_1),
	T(test_st6_4_0, x86_4_0),
	T(test_st6_3_51, x86_3_51),
	T(test_st6_4_0sp4, x86_4_0sp4),
	T(test_st6_6_0_read_at_each_start, x64_6_0),
	T(test_st6_wow64_6_0, wow64_6_0),
	T(test_st6_3_10_all_processors, x86_3_10),
	T(test_st7_linked, x64_6_1),
	T(test_st8_not_cleared, x64_6_1),
	T(test_st8_zero_on_start_knob, x64_6_1),
	T(test_st8_zero_on_start_page_less_one, x64_6_1),
	T(test_st3_last_slot_counts, x64_6_1),
	T(test_sp1_bad_handles, x64_6_1),
	T(test_sp2_not_started, x64_6_1),
	T(test_sp3_stop_cannot_fail, x64_6_1),
	T(test_sp4_counts_stay, x64_6_1),
	T(test_sp5_close_last_handle_stops, x64_6_1),
	T(test_mc3_handle_values, x64_6_1),
	T(test_mc5_close, x64_6_1),
	T(test_mc5_duplicate, x64_6_1),
	T(test_mc5_32bit_close, wow64_6_1),
	T(test_mc6_injections_used_once, x64_6_1),
};
#undef T

NP_TEST_MAIN(tests)
