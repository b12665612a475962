/* SPDX-License-Identifier: MIT */
/* SPEC.md §MC (the simulated machine) and §AS (address space and probes).
 *
 * The probe of AS-2 is internal to the model; it is observed through the one
 * call that probes a user pointer, NtQueryIntervalProfile (QI-1, QI-2). */
#include "np_test.h"
#include "np_model_fixture.h"

#include <stdlib.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define RW_PAGE     0x10000u               /* writable user page */
#define RO_PAGE     0x20000u               /* read-only user page */
#define UNMAPPED    0x40000u               /* user address, nothing mapped */
#define KERNEL_X64  0xFFFFF80000001000ull  /* 64-bit kernel space */
#define KERNEL_X86  0x80001000u            /* x86 kernel space; a user address for WOW64 */
#define POISON      0xCCCCCCCCu
#define TIME_DEFAULT 39063u                /* HL-2: what a fresh ProfileTime query reports */

/* ---- fixtures ---- */

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	uint64_t kernel = m->arch == NP_X86 ? KERNEL_X86 : KERNEL_X64;
	return !(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC) ||
		 np_mem_map(m, RO_PAGE, NP_PAGE_SIZE, NP_PROT_READ, 0, 0xCC) ||
		 np_mem_map(m, kernel, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
}

static int boot(void **state, np_ver v, np_arch a)
{
	np_machine *m = machine_new_with(v, a, NULL, lay_out);
	return setup_with(state, m);
}

static int setup_x86(void **state) { return boot(state, NP_V6_2, NP_X86); }
static int setup_x64(void **state) { return boot(state, NP_V6_2, NP_X64); }
static int setup_wow64(void **state) { return boot(state, NP_V6_2, NP_WOW64); }

/* ---- helpers ---- */

static uint32_t peek(np_machine *m, uint64_t addr)
{
	uint32_t v = 0;
	assert_true(np_mem_read(m, addr, &v, sizeof v));
	return v;
}

static void map_rw(np_machine *m, uint64_t base)
{
	assert_null(np_mem_map(m, base, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
}

/* NtQueryIntervalProfile(ProfileTime, addr): the probe outcome. */
static uint32_t probe_via_query(np_machine *m, uint64_t addr)
{
	np_result r = np_nt_query_interval_profile(m, 0x00, addr);
	assert_int_equal(r.kind, NP_RESULT_STATUS);
	return r.code;
}

/* ---- MC-1 ---- */

static void assert_defaults(np_machine *m, np_ver v, np_arch a)
{
	assert_int_equal(m->version, v);
	assert_int_equal(m->arch, a);
	assert_int_equal(m->previous_mode, NP_MODE_USER);
	assert_int_equal(m->integrity, NP_INTEGRITY_MEDIUM);
	assert_false(m->profile_privilege);
	assert_int_equal(m->cpus, 1);
	assert_int_equal(m->current_cpu, 0);
	assert_int_equal(m->hal.kind, NP_HAL_DEFAULT);
	assert_int_equal(m->tracing, NP_TRACING_OFF);
	assert_int_equal(m->errata_interval, 0);
	assert_int_equal(m->alloc_failures, 0);
	assert_int_equal(m->event_count, 0);
	assert_int_equal(m->events_lost, 0);
	assert_int_equal(m->alignment_fixup_interval, 0);
	assert_false(m->etw_time_interval_set);
	assert_int_equal(m->mem.count, 0);
	assert_int_equal(m->knobs.hal_clamp, NP_HAL_CLAMP);
	assert_int_equal(m->knobs.qi_align, NP_QI_ALIGN_NONE);
	assert_int_equal(m->knobs.qi_write_fault, NP_QI_FAULT_SUCCESS);
	assert_int_equal(m->knobs.etw_time, NP_ETW_TIME_SHARED);
	assert_int_equal(m->knobs.etw_time_priv, NP_ETW_PRIV_REQUIRED);
	assert_int_equal(m->knobs.srclist_len, NP_SRCLIST_BAD_LENGTH);
	assert_int_equal(m->knobs.tqi_retlen, NP_RETLEN_ALWAYS);
	/* the Default HAL: ProfileTime only (HL-1) */
	for (unsigned s = 0; s < NP_HAL_SOURCES; s++)
		assert_int_equal(m->hal.source[s].supported, s == 0x00);
}

/* MC-1: every existing version/architecture pair starts with the defaults. */
/* rules: MC-1 */
static void test_machine_init_defaults_every_pair(void **state)
{
	np_machine *m = *state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			if (!np_arch_exists((np_ver)v, (np_arch)a))
				continue;
			assert_null(np_machine_init(m, (np_ver)v, (np_arch)a));
			assert_defaults(m, (np_ver)v, (np_arch)a);
			np_machine_fini(m);
		}
	}
}

/* MC-1: an architecture or version past the table is refused as such, not
 * as a pair that never existed (kills mutants of the range check). */
/* rules: MC-1 */
static void test_machine_init_out_of_table(void **state)
{
	np_machine *m = *state;
	assert_string_equal(np_machine_init(m, NP_V6_1, NP_ARCH_COUNT), "no such version or architecture");
	assert_string_equal(np_machine_init(m, NP_VERSION_COUNT, NP_X64), "no such version or architecture");
}

/* VR-3, MC-1: the refusal of a pair that never existed names the reason. */
/* rules: VR-3 MC-1 */
static void test_machine_init_nonexistent_pair_messages(void **state)
{
	np_machine *m = *state;
	assert_string_equal(np_machine_init(m, NP_V11_21H2, NP_X86), "Windows 11 has no x86 edition (VR-3)");
	assert_string_equal(np_machine_init(m, NP_V5_2, NP_X64), "x64 and WOW64 exist from 5.2sp1 (VR-3)");
	assert_string_equal(np_machine_init(m, NP_V5_2, NP_WOW64), "x64 and WOW64 exist from 5.2sp1 (VR-3)");
}

/* MC-1: nothing is mapped: even address 0 and the first user page fault
 * (fail-twin of the mapped-page probes below). */
/* rules: MC-1 */
static void test_machine_init_nothing_mapped(void **state)
{
	np_machine *m = *state;
	uint32_t v = POISON;
	assert_null(np_machine_init(m, NP_V1507, NP_X64));
	assert_false(np_mem_read(m, 0, &v, sizeof v));
	assert_false(np_mem_read(m, RW_PAGE, &v, sizeof v));
	assert_false(np_mem_write(m, RW_PAGE, &v, sizeof v));
	assert_null(np_mem_find(m, RW_PAGE, 4));
	assert_int_equal(v, POISON);
	assert_int_equal(probe_via_query(m, RW_PAGE), NP_STATUS_ACCESS_VIOLATION);
}

/* MC-1 (SI-4): a machine made again in memory a run has used, whose tables
 * init leaves as they were (np_machine.profile on), holds nothing of that
 * run: every processor's interval is the default, no profile exists, and
 * processors made active later take the default too. */
/* rules: MC-1 SI-4 MC-2 */
static void test_machine_init_over_a_used_machine(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_init(m, NP_V1809, NP_X64));
	assert_null(np_machine_set_cpus(m, 4));
	for (unsigned c = 0; c < 4; c++)
		np_hal_put_interval(m, NP_PROFILE_TIME, c, 5000 + c);
	memset(m->profile, 0xA5, sizeof m->profile);       /* what a run leaves */
	memset(m->hal_interval_apart, 0xA5, sizeof m->hal_interval_apart);
	m->profiles = UINT64_MAX;
	assert_null(np_machine_init(m, NP_V1809, NP_X64));
	assert_int_equal(m->profiles, 0);
	assert_null(np_machine_set_cpus(m, NP_MAX_CPUS));
	for (unsigned c = 0; c < NP_MAX_CPUS; c++) {
		assert_int_equal(np_hal_interval_on(m, NP_PROFILE_TIME, c), TIME_DEFAULT);
		assert_int_equal(np_hal_interval_on(m, 0x02, c), 0);   /* unsupported: nothing */
	}
}

/* MC-1: a fresh machine's caller holds no privilege, so a 6.2 set fails
 * (SI-1) while the same machine given the privilege succeeds. */
/* rules: MC-1 SI-1 */
static void test_machine_init_default_caller_unprivileged(void **state)
{
	np_machine *m = *state;
	np_result r = np_nt_set_interval_profile(m, 5000, 0x00);
	assert_int_equal(r.kind, NP_RESULT_STATUS);
	assert_int_equal(r.code, NP_STATUS_PRIVILEGE_NOT_HELD);
	m->profile_privilege = true;
	r = np_nt_set_interval_profile(m, 5000, 0x00);
	assert_int_equal(r.code, NP_STATUS_SUCCESS);
}

/* ---- MC-2 ---- */

/* MC-2: cpus is 1..64; 0 and 65 are refused and leave the count alone. */
/* rules: MC-2 */
static void test_machine_set_cpus_bounds(void **state)
{
	np_machine *m = *state;
	assert_non_null(np_machine_set_cpus(m, 0));
	assert_int_equal(m->cpus, 1);
	assert_null(np_machine_set_cpus(m, 1));
	assert_int_equal(m->cpus, 1);
	assert_null(np_machine_set_cpus(m, 64));
	assert_int_equal(m->cpus, 64);
	assert_non_null(np_machine_set_cpus(m, 65));
	assert_int_equal(m->cpus, 64);
	assert_non_null(np_machine_set_cpus(m, 0xFFFFFFFFu));
	assert_int_equal(m->cpus, 64);
	assert_null(np_machine_set_cpus(m, 2));
	assert_int_equal(m->cpus, 2);
}

/* MC-2 (SI-4): processors 0..63 are all active at cpus=64: a set made from
 * processor 0 is reported on each of them. */
/* rules: MC-2 SI-4 */
static void test_machine_set_cpus_64_all_active(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_null(np_machine_set_cpus(m, 64));
	np_result r = np_nt_set_interval_profile(m, 5000, 0x00);
	assert_int_equal(r.code, NP_STATUS_SUCCESS);
	for (unsigned c = 0; c < 64; c++) {
		m->current_cpu = c;
		assert_true(np_mem_write(m, RW_PAGE, &(uint32_t){ POISON }, 4));
		assert_int_equal(probe_via_query(m, RW_PAGE), NP_STATUS_SUCCESS);
		assert_int_equal(peek(m, RW_PAGE), 5000);
	}
}

/* MC-2 (SI-4): processors at or above cpus are not active: a set does not
 * reach processor 2 when cpus=2 (fail-twin of the test above). */
/* rules: MC-2 SI-4 */
static void test_machine_set_cpus_2_leaves_processor_2_inactive(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_null(np_machine_set_cpus(m, 2));
	np_result r = np_nt_set_interval_profile(m, 5000, 0x00);
	assert_int_equal(r.code, NP_STATUS_SUCCESS);
	assert_int_equal(np_hal_interval_on(m, 0x00, 0), 5000);
	assert_int_equal(np_hal_interval_on(m, 0x00, 1), 5000);
	assert_int_equal(np_hal_interval_on(m, 0x00, 2), TIME_DEFAULT);
	assert_int_equal(np_hal_interval_on(m, 0x00, 63), TIME_DEFAULT);
}

/* MC-2: the caller always runs on an active processor after a shrink. */
/* rules: MC-2 */
static void test_machine_set_cpus_shrink_keeps_caller_active(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 8));
	m->current_cpu = 7;
	assert_null(np_machine_set_cpus(m, 8));
	assert_int_equal(m->current_cpu, 7);
	assert_null(np_machine_set_cpus(m, 4));
	assert_true(m->current_cpu < 4);
}

/* MC-2: a 32-bit kernel takes 32 processors and refuses 33. */
/* rules: MC-2 */
static void test_machine_set_cpus_x86_limit(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 32));
	assert_int_equal(m->cpus, 32);
	assert_non_null(np_machine_set_cpus(m, 33));
	assert_int_equal(m->cpus, 32);
	/* out of range for any kernel is said first */
	assert_string_equal(np_machine_set_cpus(m, 65), "cpus must be 1 to 64 (one processor group)");
	/* MC-4: likewise a group count out of range on a kernel without groups */
	assert_string_equal(np_machine_set_groups(m, NP_MAX_GROUPS + 1), "groups must be 1 to 20");
	assert_string_equal(np_machine_set_groups(m, 2), "processor groups exist on x64 from 6.1 (MC-4)");
}

/* MC-2: a caller on the first processor that stops being active (cpu ==
 * cpus) moves to an active one. */
/* rules: MC-2 */
static void test_machine_set_cpus_shrink_to_caller_exactly(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 8));
	m->current_cpu = 4;
	assert_null(np_machine_set_cpus(m, 4));
	assert_int_equal(m->current_cpu, 0);
}

/* MC-2: a processor that becomes active takes processor 0's interval, for
 * the last HAL source and the last processor too. */
/* rules: MC-2 */
static void test_machine_set_cpus_new_processors_take_interval(void **state)
{
	np_machine *m = *state;
	np_hal_put_interval(m, 0x00, 0, 1234);
	np_hal_put_interval(m, NP_HAL_SOURCES - 1, 0, 5678);
	assert_null(np_machine_set_cpus(m, NP_MAX_CPUS));
	assert_int_equal(np_hal_interval_on(m, 0x00, NP_MAX_CPUS - 1), 1234);
	assert_int_equal(np_hal_interval_on(m, NP_HAL_SOURCES - 1, 1), 5678);
	assert_int_equal(np_hal_interval_on(m, NP_HAL_SOURCES - 1, NP_MAX_CPUS - 1), 5678);
}

/* MC-4: a 64-bit 6.1 kernel takes 4 groups, from 6.2 20, and 6.0 none;
 * the twin: 5 on 6.2 is fine where 6.1 and 6.0 refuse it. */
/* rules: MC-4 */
static void test_machine_groups_by_version(void **state)
{
	(void)state;
	np_machine *m = calloc(1, sizeof *m);
	assert_non_null(m);
	assert_null(np_machine_init(m, NP_V6_1, NP_X64));
	assert_null(np_machine_set_groups(m, NP_MAX_GROUPS_6_1));
	assert_string_equal(np_machine_set_groups(m, NP_MAX_GROUPS_6_1 + 1),
			    "a 6.1 kernel has at most 4 processor groups (MC-4)");
	assert_int_equal(m->groups, NP_MAX_GROUPS_6_1);
	np_machine_fini(m);
	/* before 6.1 a count above 4 is refused for having no groups at all */
	assert_null(np_machine_init(m, NP_V6_0, NP_X64));
	assert_string_equal(np_machine_set_groups(m, NP_MAX_GROUPS_6_1 + 1),
			    "processor groups exist on x64 from 6.1 (MC-4)");
	np_machine_fini(m);
	assert_null(np_machine_init(m, NP_V6_2, NP_WOW64));
	assert_null(np_machine_set_groups(m, NP_MAX_GROUPS_6_1 + 1));
	assert_null(np_machine_set_groups(m, NP_MAX_GROUPS));
	assert_int_equal(m->groups, NP_MAX_GROUPS);
	machine_free(m);
}

/* MC-4: groups is 1..20 on x64 from 6.2; a caller in the group that stops
 * existing (group == groups) moves to group 0. */
/* rules: MC-4 */
static void test_machine_set_groups_bounds_and_caller(void **state)
{
	np_machine *m = *state;
	assert_non_null(np_machine_set_groups(m, 0));
	assert_null(np_machine_set_groups(m, NP_MAX_GROUPS));
	assert_non_null(np_machine_set_groups(m, NP_MAX_GROUPS + 1));
	assert_int_equal(m->groups, NP_MAX_GROUPS);
	m->current_group = 2;
	assert_null(np_machine_set_groups(m, 3));
	assert_int_equal(m->current_group, 2);
	assert_null(np_machine_set_groups(m, 2));
	assert_int_equal(m->current_group, 0);
}

/* ---- AS-1 ---- */

/* AS-1: MmUserProbeAddress on x86. */
/* rules: AS-1 */
static void test_user_probe_address_x86(void **state)
{
	np_machine *m = *state;
	assert_int_equal(np_user_probe_address(m), 0x7FFF0000u);
}

/* AS-1: MmUserProbeAddress on x64. */
/* rules: AS-1 */
static void test_user_probe_address_x64(void **state)
{
	np_machine *m = *state;
	assert_int_equal(np_user_probe_address(m), 0x7FFFFFFF0000ull);
}

/* AS-1: a WOW64 caller is probed against the 64-bit kernel's limit. */
/* rules: AS-1 */
static void test_user_probe_address_wow64(void **state)
{
	np_machine *m = *state;
	assert_int_equal(np_user_probe_address(m), 0x7FFFFFFF0000ull);
}

/* AS-1, AS-2: on x86, a 4-byte range ending exactly at 0x7FFF0000 passes;
 * one starting there fails even though it is mapped writable. */
/* rules: AS-1 AS-2 */
static void test_probe_x86_range_at_limit(void **state)
{
	np_machine *m = *state;
	map_rw(m, 0x7FFEF000u);
	map_rw(m, 0x7FFF0000u);
	assert_int_equal(probe_via_query(m, 0x7FFEFFFCu), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, 0x7FFEFFFCu), TIME_DEFAULT);
	assert_int_equal(probe_via_query(m, 0x7FFF0000u), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(peek(m, 0x7FFF0000u), POISON);
}

/* AS-1, AS-2: the same boundary on x64 at 0x7FFFFFFF0000. */
/* rules: AS-1 AS-2 */
static void test_probe_x64_range_at_limit(void **state)
{
	np_machine *m = *state;
	map_rw(m, 0x7FFFFFFEF000ull);
	map_rw(m, 0x7FFFFFFF0000ull);
	assert_int_equal(probe_via_query(m, 0x7FFFFFFEFFFCull), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, 0x7FFFFFFEFFFCull), TIME_DEFAULT);
	assert_int_equal(probe_via_query(m, 0x7FFFFFFF0000ull), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(peek(m, 0x7FFFFFFF0000ull), POISON);
}

/* AS-1, AS-2: a mapped x86 kernel address fails a user-mode probe. */
/* rules: AS-1 AS-2 */
static void test_probe_x86_kernel_address_rejected(void **state)
{
	np_machine *m = *state;
	assert_int_equal(probe_via_query(m, KERNEL_X86), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(peek(m, KERNEL_X86), POISON);
}

/* AS-1, AS-2: a mapped x64 kernel address fails a user-mode probe. */
/* rules: AS-1 AS-2 */
static void test_probe_x64_kernel_address_rejected(void **state)
{
	np_machine *m = *state;
	assert_int_equal(probe_via_query(m, KERNEL_X64), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(peek(m, KERNEL_X64), POISON);
}

/* AS-1: for a WOW64 caller 0x80001000 is a user address (below the 64-bit
 * kernel's limit), unlike on x86 (test_probe_x86_kernel_address_rejected). */
/* rules: AS-1 */
static void test_probe_wow64_high_32bit_address_accepted(void **state)
{
	np_machine *m = *state;
	map_rw(m, KERNEL_X86);
	assert_int_equal(probe_via_query(m, KERNEL_X86), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, KERNEL_X86), TIME_DEFAULT);
	assert_int_equal(probe_via_query(m, 0xFFFFF000u), NP_STATUS_ACCESS_VIOLATION);
}

/* AS-2 (K-QI-ALIGN=checked, so that the query probes a 4-byte boundary):
 * alignment is tested first: a misaligned address fails with
 * DATATYPE_MISALIGNMENT whether it is unmapped, read-only or kernel. */
/* rules: AS-2 */
static void test_probe_alignment_checked_first(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_CHECKED;
	assert_int_equal(probe_via_query(m, UNMAPPED + 1), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(probe_via_query(m, RO_PAGE + 2), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(probe_via_query(m, KERNEL_X64 + 3), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(probe_via_query(m, 0xFFFFFFFFFFFFFFFEull),
			 NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(probe_via_query(m, RW_PAGE + 2), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(peek(m, RW_PAGE), POISON);
	assert_int_equal(peek(m, RW_PAGE + 4), POISON);
}

/* AS-2: an aligned range that wraps past the top of the address space fails. */
/* rules: AS-2 */
static void test_probe_wrapping_range_rejected(void **state)
{
	np_machine *m = *state;
	assert_int_equal(probe_via_query(m, 0xFFFFFFFFFFFFFFFCull), NP_STATUS_ACCESS_VIOLATION);
}

/* AS-2: below the limit, every byte must be mapped and writable. */
/* rules: AS-2 */
static void test_probe_unmapped_and_read_only_rejected(void **state)
{
	np_machine *m = *state;
	assert_int_equal(probe_via_query(m, 0), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(probe_via_query(m, UNMAPPED), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(probe_via_query(m, RO_PAGE), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(peek(m, RO_PAGE), POISON);
	assert_int_equal(probe_via_query(m, RW_PAGE + NP_PAGE_SIZE - 4), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, RW_PAGE + NP_PAGE_SIZE - 4), TIME_DEFAULT);
}

/* AS-2 (K-QI-ALIGN=none, so a range can straddle pages): a range whose last
 * bytes fall in an unmapped or read-only page fails, nothing written. */
/* rules: AS-2 */
static void test_probe_every_byte_must_be_writable(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_NONE;
	assert_int_equal(probe_via_query(m, RW_PAGE + NP_PAGE_SIZE - 2),
			 NP_STATUS_ACCESS_VIOLATION);
	map_rw(m, 0x50000u);
	assert_null(np_mem_map(m, 0x51000u, NP_PAGE_SIZE, NP_PROT_READ, 0, 0xCC));
	assert_int_equal(probe_via_query(m, 0x50FFEu), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(peek(m, 0x50FFCu), POISON);
	assert_int_equal(peek(m, 0x51000u), POISON);
	assert_int_equal(probe_via_query(m, 0x50FFBu), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, 0x50FFBu), TIME_DEFAULT);
}

/* AS-2: a kernel-mode request is not probed: a kernel address and a
 * misaligned address are both written. */
/* rules: AS-2 */
static void test_probe_kernel_mode_not_probed(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	assert_int_equal(probe_via_query(m, KERNEL_X64), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, KERNEL_X64), TIME_DEFAULT);
	assert_int_equal(probe_via_query(m, RW_PAGE + 2), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, RW_PAGE + 2), TIME_DEFAULT);
}

/* AS-2: the same on x86: the kernel address written in kernel mode. */
/* rules: AS-2 */
static void test_probe_x86_kernel_mode_not_probed(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	assert_int_equal(probe_via_query(m, KERNEL_X86), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, KERNEL_X86), TIME_DEFAULT);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, teardown)
static const struct CMUnitTest tests[] = {
	T(test_machine_init_defaults_every_pair, setup_blank),
	T(test_machine_init_out_of_table, setup_blank),
	T(test_machine_init_nonexistent_pair_messages, setup_blank),
	T(test_machine_init_nothing_mapped, setup_blank),
	T(test_machine_init_over_a_used_machine, setup_blank),
	T(test_machine_init_default_caller_unprivileged, setup_x64),
	T(test_machine_set_cpus_bounds, setup_x64),
	T(test_machine_set_cpus_64_all_active, setup_x64),
	T(test_machine_set_cpus_2_leaves_processor_2_inactive, setup_x64),
	T(test_machine_set_cpus_shrink_keeps_caller_active, setup_x64),
	T(test_machine_set_cpus_x86_limit, setup_x86),
	T(test_machine_set_cpus_shrink_to_caller_exactly, setup_x64),
	T(test_machine_set_cpus_new_processors_take_interval, setup_x64),
	T(test_machine_set_groups_bounds_and_caller, setup_x64),
	cmocka_unit_test(test_machine_groups_by_version),
	T(test_user_probe_address_x86, setup_x86),
	T(test_user_probe_address_x64, setup_x64),
	T(test_user_probe_address_wow64, setup_wow64),
	T(test_probe_x86_range_at_limit, setup_x86),
	T(test_probe_x64_range_at_limit, setup_x64),
	T(test_probe_x86_kernel_address_rejected, setup_x86),
	T(test_probe_x64_kernel_address_rejected, setup_x64),
	T(test_probe_wow64_high_32bit_address_accepted, setup_wow64),
	T(test_probe_alignment_checked_first, setup_x64),
	T(test_probe_wrapping_range_rejected, setup_x64),
	T(test_probe_unmapped_and_read_only_rejected, setup_x64),
	T(test_probe_every_byte_must_be_writable, setup_x64),
	T(test_probe_kernel_mode_not_probed, setup_x64),
	T(test_probe_x86_kernel_mode_not_probed, setup_x86),
};
#undef T

NP_TEST_MAIN(tests)
