/* SPDX-License-Identifier: MIT */
/* SPEC.md §QI: NtQueryIntervalProfile(ProfileSource, Interval).
 *
 * Every output cell is poisoned (0xCCCCCCCC) before the call so that "not
 * written" is observable. */
#include "np_model_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define RW_PAGE     0x10000u               /* writable user page */
#define RO_PAGE     0x20000u               /* read-only user page */
#define GONE_PAGE   0x30000u               /* passes the probe, gone at the write (QI-3) */
#define UNMAPPED    0x40000u
#define KERNEL_X64  0xFFFFF80000001000ull
#define KERNEL_X86  0x80001000u
#define POISON      0xCCCCCCCCu

#define TIME_DEFAULT 39063u
#define PMC_DEFAULT  0x10000u

/* ---- fixtures ---- */

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	uint64_t kernel = m->arch == NP_X86 ? KERNEL_X86 : KERNEL_X64;
	return !(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC) ||
		 np_mem_map(m, RO_PAGE, NP_PAGE_SIZE, NP_PROT_READ, 0, 0xCC) ||
		 np_mem_map(m, GONE_PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE,
			    NP_REGION_VANISHES, 0xCC) ||
		 np_mem_map(m, kernel, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
}

static int boot(void **state, np_ver v, np_arch a, np_hal_kind hal)
{
	np_machine *m = machine_new_with(v, a, &hal, lay_out);
	return setup_with(state, m);
}

#define SETUP(name, v, a, hal) \
	static int setup_##name(void **state) { return boot(state, v, a, hal); }
SETUP(x86_3_10, NP_V3_10, NP_X86, NP_HAL_DEFAULT)
SETUP(x86_3_50, NP_V3_50, NP_X86, NP_HAL_DEFAULT)
SETUP(x86_3_51, NP_V3_51, NP_X86, NP_HAL_DEFAULT)
SETUP(x86_6_2, NP_V6_2, NP_X86, NP_HAL_EMON)
SETUP(x64_6_2, NP_V6_2, NP_X64, NP_HAL_EMON)
SETUP(wow64_6_2, NP_V6_2, NP_WOW64, NP_HAL_AMD64)
SETUP(x64_1507, NP_V1507, NP_X64, NP_HAL_DEFAULT)
SETUP(x64_1507_emon, NP_V1507, NP_X64, NP_HAL_EMON)
SETUP(x64_1507_amd64, NP_V1507, NP_X64, NP_HAL_AMD64)
SETUP(x64_11_24h2, NP_V11_24H2, NP_X64, NP_HAL_AMD64)
#undef SETUP

/* ---- helpers ---- */

static void poison(np_machine *m, uint64_t addr)
{
	uint32_t v = POISON;
	assert_true(np_mem_write(m, addr, &v, sizeof v));
}

static uint32_t peek(np_machine *m, uint64_t addr)
{
	uint32_t v = 0;
	assert_true(np_mem_read(m, addr, &v, sizeof v));
	return v;
}

/* Queries into a poisoned RW cell; asserts success; returns the value. */
static uint32_t query_ok(np_machine *m, uint32_t source)
{
	poison(m, RW_PAGE);
	assert_status(np_nt_query_interval_profile(m, source, RW_PAGE), NP_STATUS_SUCCESS);
	return peek(m, RW_PAGE);
}

/* Sets with kernel-mode rights, whatever the caller's privilege. */
static void kernel_set(np_machine *m, uint32_t interval, uint32_t source)
{
	np_mode mode = m->previous_mode;
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(np_nt_set_interval_profile(m, interval, source), NP_STATUS_SUCCESS);
	m->previous_mode = mode;
}

/* Asserts the query at addr ends in code and leaves the page's bytes
 * poisoned (read through the region, so read-only pages work too). */
static void assert_status_no_write(np_machine *m, uint32_t source, uint64_t addr, uint32_t code)
{
	assert_status(np_nt_query_interval_profile(m, source, addr), code);
	np_region *r = np_mem_find(m, addr & ~(uint64_t)(NP_PAGE_SIZE - 1), NP_PAGE_SIZE);
	if (r) {
		for (uint64_t i = 0; i < r->size; i++)
			if (np_region_block(r)[i] != 0xCC)
				fail_msg("byte 0x%llx written after a failed query",
					 (unsigned long long)(r->base + i));
	}
}

/* ---- QI-0 ---- */

static void assert_no_source_argument(np_machine *m)
{
	assert_false(np_has_source_argument(m->version));
	assert_int_equal(query_ok(m, NP_PROFILE_TIME), TIME_DEFAULT);
	static const uint32_t other[] = { 0x01, 0x02, 0x18, 0x19, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
		poison(m, RW_PAGE);
		np_result r = np_nt_query_interval_profile(m, other[i], RW_PAGE);
		assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
		assert_non_null(r.why);
		assert_int_equal(peek(m, RW_PAGE), POISON);
	}
}

/* QI-0: 3.10 has only the Interval argument; ProfileTime is implied. */
/* rules: QI-0 */
static void test_query_interval_3_10_profile_time_only(void **state)
{
	assert_no_source_argument(*state);
}

/* QI-0: 3.50 likewise. */
/* rules: QI-0 */
static void test_query_interval_3_50_profile_time_only(void **state)
{
	assert_no_source_argument(*state);
}

/* QI-0: from 3.51, (ProfileSource, Interval): other sources are queried. */
/* rules: QI-0 */
static void test_query_interval_3_51_takes_source(void **state)
{
	np_machine *m = *state;
	assert_true(np_has_source_argument(m->version));
	assert_int_equal(query_ok(m, NP_PROFILE_ALIGNMENT_FIXUP), 0);
	assert_int_equal(query_ok(m, 0x02), 0);
	assert_int_equal(query_ok(m, NP_PROFILE_TIME), TIME_DEFAULT);
}

/* QI-0, QI-1: exported in every version and architecture, and no privilege
 * is needed in any of them. */
/* rules: QI-0 QI-1 */
static void test_query_interval_exported_everywhere_unprivileged(void **state)
{
	np_machine *m = *state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			if (!np_arch_exists((np_ver)v, (np_arch)a))
				continue;
			assert_null(np_machine_init(m, (np_ver)v, (np_arch)a));
			assert_null(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE,
					       NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
			assert_false(m->profile_privilege);
			assert_int_equal(query_ok(m, NP_PROFILE_TIME), TIME_DEFAULT);
			np_machine_fini(m);
		}
	}
}

/* QI-0: NTDLL exports both spellings in every version; the kernel's
 * ZwQueryIntervalProfile exists from 1607; an Nt spelling in kernel mode is
 * a kernel-mode request of the service. */
/* rules: QI-0 */
static void test_query_interval_export_names(void **state)
{
	(void)state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		assert_true(np_is_exported((np_ver)v, NP_MODE_USER, "NtQueryIntervalProfile"));
		assert_true(np_is_exported((np_ver)v, NP_MODE_USER, "ZwQueryIntervalProfile"));
		assert_true(np_is_exported((np_ver)v, NP_MODE_KERNEL, "NtQueryIntervalProfile"));
		assert_int_equal(np_is_exported((np_ver)v, NP_MODE_KERNEL, "ZwQueryIntervalProfile"),
				 v >= NP_V1607);
	}
}

/* ---- QI-1 ---- */

/* QI-1: NULL is ACCESS_VIOLATION (x64). */
/* rules: QI-1 */
static void test_query_interval_null_x64(void **state)
{
	assert_status_no_write(*state, 0x00, 0, NP_STATUS_ACCESS_VIOLATION);
}

/* QI-1: NULL is ACCESS_VIOLATION (x86). */
/* rules: QI-1 */
static void test_query_interval_null_x86(void **state)
{
	assert_status_no_write(*state, 0x00, 0, NP_STATUS_ACCESS_VIOLATION);
}

/* QI-1: NULL is ACCESS_VIOLATION (WOW64). */
/* rules: QI-1 */
static void test_query_interval_null_wow64(void **state)
{
	assert_status_no_write(*state, 0x00, 0, NP_STATUS_ACCESS_VIOLATION);
}

/* QI-1: a mapped x64 kernel address is refused, nothing written; the same
 * address is written for a kernel-mode caller (no probe). */
/* rules: QI-1 */
static void test_query_interval_kernel_address_x64(void **state)
{
	np_machine *m = *state;
	assert_status_no_write(m, 0x00, KERNEL_X64, NP_STATUS_ACCESS_VIOLATION);
	assert_status_no_write(m, 0x02, KERNEL_X64 + 0x800, NP_STATUS_ACCESS_VIOLATION);
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(np_nt_query_interval_profile(m, 0x00, KERNEL_X64), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, KERNEL_X64), TIME_DEFAULT);
}

/* QI-1: a mapped x86 kernel address is refused; kernel mode writes it. */
/* rules: QI-1 */
static void test_query_interval_kernel_address_x86(void **state)
{
	np_machine *m = *state;
	assert_status_no_write(m, 0x00, KERNEL_X86, NP_STATUS_ACCESS_VIOLATION);
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(np_nt_query_interval_profile(m, 0x00, KERNEL_X86), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, KERNEL_X86), TIME_DEFAULT);
}

/* QI-1: a read-only or unmapped user address is refused, nothing written. */
/* rules: QI-1 */
static void test_query_interval_not_writable(void **state)
{
	np_machine *m = *state;
	assert_status_no_write(m, 0x00, RO_PAGE, NP_STATUS_ACCESS_VIOLATION);
	assert_status_no_write(m, 0x02, RO_PAGE + 0xFFC, NP_STATUS_ACCESS_VIOLATION);
	assert_status_no_write(m, 0x00, UNMAPPED, NP_STATUS_ACCESS_VIOLATION);
}

/* QI-1: the x86 limit: 0x7FFEFFFC is below it, 0x7FFF0000 is not (even mapped). */
/* rules: QI-1 */
static void test_query_interval_x86_user_limit(void **state)
{
	np_machine *m = *state;
	assert_null(np_mem_map(m, 0x7FFEF000u, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
	assert_null(np_mem_map(m, 0x7FFF0000u, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
	assert_status(np_nt_query_interval_profile(m, 0x00, 0x7FFEFFFCu), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, 0x7FFEFFFCu), TIME_DEFAULT);
	assert_status_no_write(m, 0x00, 0x7FFF0000u, NP_STATUS_ACCESS_VIOLATION);
}

/* QI-1: the x64 limit at 0x7FFFFFFF0000. */
/* rules: QI-1 */
static void test_query_interval_x64_user_limit(void **state)
{
	np_machine *m = *state;
	assert_null(np_mem_map(m, 0x7FFFFFFEF000ull, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0,
			       0xCC));
	assert_null(np_mem_map(m, 0x7FFFFFFF0000ull, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0,
			       0xCC));
	assert_status(np_nt_query_interval_profile(m, 0x00, 0x7FFFFFFEFFFCull), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, 0x7FFFFFFEFFFCull), TIME_DEFAULT);
	assert_status_no_write(m, 0x00, 0x7FFFFFFF0000ull, NP_STATUS_ACCESS_VIOLATION);
}

/* QI-1: a WOW64 caller's 0x80001000 is a user address and is written. */
/* rules: QI-1 */
static void test_query_interval_wow64_high_address(void **state)
{
	np_machine *m = *state;
	assert_null(np_mem_map(m, KERNEL_X86, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
	assert_status(np_nt_query_interval_profile(m, 0x02, KERNEL_X86), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, KERNEL_X86), PMC_DEFAULT);
}

/* QI-1: no privilege is needed on 6.2+, where the set demands it (SI-1). */
/* rules: QI-1 SI-1 */
static void test_query_interval_no_privilege_needed_6_2(void **state)
{
	np_machine *m = *state;
	assert_false(m->profile_privilege);
	assert_status(np_nt_set_interval_profile(m, 5000, 0x00), NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
	assert_int_equal(query_ok(m, 0x02), PMC_DEFAULT);
	m->integrity = NP_INTEGRITY_LOW;
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
}

/* ---- QI-2 ---- */

/* QI-2 K-QI-ALIGN=checked: each misalignment is refused, nothing written. */
/* rules: QI-2 */
static void test_query_interval_misaligned_checked(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_CHECKED;
	for (unsigned off = 1; off < 4; off++)
		assert_status_no_write(m, 0x00, RW_PAGE + off, NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(NP_STATUS_DATATYPE_MISALIGNMENT, 0x80000002u);
}

/* QI-2 K-QI-ALIGN=checked, AS-2: misalignment is found before the address
 * (unmapped, read-only, kernel, above the limit). */
/* rules: QI-2 AS-2 */
static void test_query_interval_misaligned_before_address_checks(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_CHECKED;
	assert_status_no_write(m, 0x00, UNMAPPED + 2, NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_status_no_write(m, 0x00, RO_PAGE + 1, NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_status_no_write(m, 0x00, KERNEL_X64 + 2, NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_status_no_write(m, 0x00, 1, NP_STATUS_DATATYPE_MISALIGNMENT);
}

/* QI-2 K-QI-ALIGN=none (default): a misaligned writable pointer is accepted
 * and written. */
/* rules: QI-2 */
static void test_query_interval_misaligned_accepted_when_not_checked(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->knobs.qi_align, NP_QI_ALIGN_NONE);
	for (unsigned off = 1; off < 4; off++) {
		poison(m, RW_PAGE + 0x100 + off);
		assert_status(np_nt_query_interval_profile(m, 0x00, RW_PAGE + 0x100 + off),
			      NP_STATUS_SUCCESS);
		assert_int_equal(peek(m, RW_PAGE + 0x100 + off), TIME_DEFAULT);
	}
}

/* QI-1, QI-2: the call's record names the probe's refusal: QI-2 for a
 * misaligned Interval (K-QI-ALIGN=checked), QI-1 for one outside user space. */
/* rules: QI-1 QI-2 */
static void test_query_interval_refusal_recorded(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_CHECKED;
	assert_status(np_nt_query_interval_profile(m, 0x00, RW_PAGE + 1), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(m->trail.decided, NP_RULE(QI_2));
	assert_status(np_nt_query_interval_profile(m, 0x00, KERNEL_X64), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(m->trail.decided, NP_RULE(QI_1));
}

/* QI-2 K-QI-ALIGN=none, QI-1: the address checks still apply. */
/* rules: QI-2 QI-1 */
static void test_query_interval_misaligned_unchecked_still_probed(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_NONE;
	assert_status_no_write(m, 0x00, UNMAPPED + 2, NP_STATUS_ACCESS_VIOLATION);
	assert_status_no_write(m, 0x00, RO_PAGE + 1, NP_STATUS_ACCESS_VIOLATION);
	assert_status_no_write(m, 0x00, KERNEL_X64 + 2, NP_STATUS_ACCESS_VIOLATION);
	/* straddles the end of the writable page */
	assert_status(np_nt_query_interval_profile(m, 0x00, RW_PAGE + NP_PAGE_SIZE - 2),
		      NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(peek(m, RW_PAGE + NP_PAGE_SIZE - 4), POISON);
}

/* QI-2 (QI-1): a kernel-mode caller is not probed: no alignment test. */
/* rules: QI-2 QI-1 */
static void test_query_interval_misaligned_kernel_mode(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(np_nt_query_interval_profile(m, 0x00, RW_PAGE + 2), NP_STATUS_SUCCESS);
	assert_int_equal(peek(m, RW_PAGE + 2), TIME_DEFAULT);
}

/* ---- QI-3 ---- */

/* QI-3 K-QI-WRITE-FAULT=success (default): the page vanishes after the probe;
 * the call still succeeds and nothing lands in the page. */
/* rules: QI-3 */
static void test_query_interval_write_fault_success(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->knobs.qi_write_fault, NP_QI_FAULT_SUCCESS);
	assert_status_no_write(m, 0x00, GONE_PAGE, NP_STATUS_SUCCESS);
	uint32_t v = 0;
	assert_false(np_mem_read(m, GONE_PAGE, &v, sizeof v));  /* gone now */
}

/* QI-3 K-QI-WRITE-FAULT=exception: the faulting write gives ACCESS_VIOLATION. */
/* rules: QI-3 */
static void test_query_interval_write_fault_exception(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_write_fault = NP_QI_FAULT_EXCEPTION;
	assert_status_no_write(m, 0x02, GONE_PAGE + 8, NP_STATUS_ACCESS_VIOLATION);
}

/* QI-3, QI-2: a probe failure still wins over a vanishing page (the probe
 * fails first, whatever the write-fault knob). */
/* rules: QI-3 QI-2 */
static void test_query_interval_write_fault_after_probe_only(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_CHECKED;
	assert_status_no_write(m, 0x00, GONE_PAGE + 2, NP_STATUS_DATATYPE_MISALIGNMENT);
	m->knobs.qi_write_fault = NP_QI_FAULT_EXCEPTION;
	assert_status_no_write(m, 0x00, GONE_PAGE + 2, NP_STATUS_DATATYPE_MISALIGNMENT);
	/* the failed probe did not consume the page: it is still readable */
	m->knobs.qi_write_fault = NP_QI_FAULT_SUCCESS;
	uint32_t v = POISON;
	assert_true(np_mem_read(m, GONE_PAGE, &v, sizeof v));
}

/* QI-3 K-QI-WRITE-FAULT=exception: a good pointer is unaffected by the knob. */
/* rules: QI-3 */
static void test_query_interval_write_fault_knob_good_pointer(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_write_fault = NP_QI_FAULT_EXCEPTION;
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
}

/* ---- QI-4 ---- */

/* QI-4: AlignmentFixup reads 0 until set, then the last value set. */
/* rules: QI-4 */
static void test_query_interval_alignment_fixup(void **state)
{
	np_machine *m = *state;
	assert_int_equal(query_ok(m, NP_PROFILE_ALIGNMENT_FIXUP), 0);
	kernel_set(m, 0xFFFFFFFFu, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(query_ok(m, NP_PROFILE_ALIGNMENT_FIXUP), 0xFFFFFFFFu);
	kernel_set(m, 7, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(query_ok(m, NP_PROFILE_ALIGNMENT_FIXUP), 7);
	kernel_set(m, 0, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(query_ok(m, NP_PROFILE_ALIGNMENT_FIXUP), 0);
}

/* QI-4: the same answer on every processor (a kernel variable, not the HAL's). */
/* rules: QI-4 */
static void test_query_interval_alignment_fixup_any_cpu(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 3));
	kernel_set(m, 1234, NP_PROFILE_ALIGNMENT_FIXUP);
	m->current_cpu = 2;
	assert_int_equal(query_ok(m, NP_PROFILE_ALIGNMENT_FIXUP), 1234);
}

/* ---- QI-5 ---- */

/* QI-5: Default HAL: only ProfileTime answers; every other source reads 0,
 * still with STATUS_SUCCESS (the poison is replaced by 0). */
/* rules: QI-5 */
static void test_query_interval_unsupported_reads_zero(void **state)
{
	np_machine *m = *state;
	static const uint32_t sources[] = { 0x02, 0x13, 0x18, 0x19, 0xBF, 0xFF, 0x100, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++)
		assert_int_equal(query_ok(m, sources[i]), 0);
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
}

/* QI-5: Emon HAL: its sources report their interval; 0x20 reads 0. */
/* rules: QI-5 */
static void test_query_interval_emon_sources(void **state)
{
	np_machine *m = *state;
	assert_int_equal(query_ok(m, 0x13), PMC_DEFAULT);
	assert_int_equal(query_ok(m, 0x1F), PMC_DEFAULT);
	kernel_set(m, 0x4000, 0x1F);
	assert_int_equal(query_ok(m, 0x1F), 0x4000);
	assert_int_equal(query_ok(m, 0x20), 0);
	assert_int_equal(query_ok(m, 0x08), 0);  /* an Amd64 source, not Emon's */
}

/* QI-5: Amd64 HAL: 0x19..0xBF answer, 0xC0 reads 0. */
/* rules: QI-5 */
static void test_query_interval_amd64_sources(void **state)
{
	np_machine *m = *state;
	assert_int_equal(query_ok(m, 0x08), PMC_DEFAULT);
	assert_int_equal(query_ok(m, 0xBF), PMC_DEFAULT);
	assert_int_equal(query_ok(m, 0xC0), 0);
	assert_int_equal(query_ok(m, 0x0A), 0);  /* an Emon source, not Amd64's */
}

/* QI-5 (HL-5): the answer is the calling processor's. */
/* rules: QI-5 HL-5 */
static void test_query_interval_answers_for_current_cpu(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 2));
	np_hal_put_interval(m, 0x00, 1, 2222);
	m->current_cpu = 1;
	assert_int_equal(query_ok(m, 0x00), 2222);
	m->current_cpu = 0;
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
}

/* IN-7 before QI-0: on a stopped machine nothing runs, not even the
 * refusal of a source argument 3.10 does not have (the order of the two
 * checks is pinned here; no vector can stop a 3.10 machine). */
/* rules: IN-7 QI-0 */
static void test_query_interval_3_10_halted_before_source(void **state)
{
	np_machine *m = *state;
	m->halted = true;
	m->halt_code = 0x1Eu;  /* KMODE_EXCEPTION_NOT_HANDLED */
	np_result r = np_nt_query_interval_profile(m, 0x01, RW_PAGE);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, 0x1Eu);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, setup_##s, teardown)
static const struct CMUnitTest tests[] = {
	T(test_query_interval_3_10_profile_time_only, x86_3_10),
	T(test_query_interval_3_10_halted_before_source, x86_3_10),
	T(test_query_interval_3_50_profile_time_only, x86_3_50),
	T(test_query_interval_3_51_takes_source, x86_3_51),
	T(test_query_interval_export_names, blank),
	T(test_query_interval_exported_everywhere_unprivileged, blank),
	T(test_query_interval_null_x64, x64_6_2),
	T(test_query_interval_null_x86, x86_6_2),
	T(test_query_interval_null_wow64, wow64_6_2),
	T(test_query_interval_kernel_address_x64, x64_6_2),
	T(test_query_interval_kernel_address_x86, x86_6_2),
	T(test_query_interval_not_writable, x64_1507),
	T(test_query_interval_x86_user_limit, x86_6_2),
	T(test_query_interval_x64_user_limit, x64_6_2),
	T(test_query_interval_wow64_high_address, wow64_6_2),
	T(test_query_interval_no_privilege_needed_6_2, x64_6_2),
	T(test_query_interval_misaligned_checked, x64_1507),
	T(test_query_interval_misaligned_before_address_checks, x64_1507),
	T(test_query_interval_misaligned_accepted_when_not_checked, x64_1507),
	T(test_query_interval_refusal_recorded, x64_1507),
	T(test_query_interval_misaligned_unchecked_still_probed, x64_1507),
	T(test_query_interval_misaligned_kernel_mode, x64_1507),
	T(test_query_interval_write_fault_success, x64_1507),
	T(test_query_interval_write_fault_exception, x64_1507_emon),
	T(test_query_interval_write_fault_after_probe_only, x64_1507),
	T(test_query_interval_write_fault_knob_good_pointer, x64_1507),
	T(test_query_interval_alignment_fixup, x64_11_24h2),
	T(test_query_interval_alignment_fixup_any_cpu, x64_1507),
	T(test_query_interval_unsupported_reads_zero, x64_1507),
	T(test_query_interval_emon_sources, x64_1507_emon),
	T(test_query_interval_amd64_sources, x64_1507_amd64),
	T(test_query_interval_answers_for_current_cpu, x64_1507),
};
#undef T

NP_TEST_MAIN(tests)
