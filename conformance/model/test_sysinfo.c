/* SPDX-License-Identifier: MIT */
/* SPEC.md §SY: NtSetSystemInformation and NtQuerySystemInformation, class
 * 0x81 (SystemProcessorProfileControlArea) and class 0x1F
 * (SystemPerformanceTraceInformation), and the Trace* path through 0x1F.
 *
 * Buffers live in machine memory and are poisoned with 0xCC before each
 * call, so "not written" is a byte that is still 0xCC. */
#include "np_test.h"

#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define RW          0x10000ull              /* writable user page */
#define RO          0x20000ull              /* read-only user page */
#define VANISH      0x30000ull              /* passes a probe, then gone */
#define UNMAPPED    0x40000ull              /* user address, nothing mapped */
#define BIG         0x100000ull             /* a larger writable buffer */
#define BIG_SIZE    0x4000u
#define KERNEL_X86  0x80001000ull           /* x86 kernel space; user space for WOW64 */
#define KERNEL_X64  0xFFFFF80000001000ull
#define LIBRARY     0x7FF00000ull           /* SY-25: the Trace* functions' own buffers */

#define PPCA        NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA
#define PERF        NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION
#define TIME_SUB    NP_EVENT_TRACE_TIME_PROFILE_INFORMATION
#define LIST_SUB    NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION

#define POOL_X86    0x8A100000ull           /* SY-17 */
#define POOL_X64    0xFFFFA00000100000ull
#define TIME_DEFAULT 39063u                 /* HL-2 */
#define TIME_MIN     1221u

/* ---- fixtures ---- */

static np_config_error make(np_machine *m, np_ver v, np_arch a, np_mode mode)
{
	np_config_error e = np_machine_init(m, v, a);
	if (!e)
		e = np_mem_map(m, RW, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC);
	if (!e)
		e = np_mem_map(m, RO, NP_PAGE_SIZE, NP_PROT_READ, 0, 0xCC);
	if (!e)
		e = np_mem_map(m, VANISH, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, NP_REGION_VANISHES, 0xCC);
	if (!e)
		e = np_mem_map(m, BIG, BIG_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC);
	m->previous_mode = mode;
	return e;
}

static int boot(void **state, np_ver v, np_arch a, np_mode mode)
{
	np_machine *m = calloc(1, sizeof *m);
	if (!m)
		return -1;
	if (make(m, v, a, mode)) {
		np_machine_fini(m);
		free(m);
		return -1;
	}
	*state = m;
	return 0;
}

/* Re-creates the machine of a test for another version or architecture. */
static void remake(np_machine *m, np_ver v, np_arch a, np_mode mode)
{
	np_machine_fini(m);
	assert_null(make(m, v, a, mode));
}

#define SETUP(name, v, a, mode) \
	static int setup_##name(void **state) { return boot(state, v, a, mode); }
SETUP(user_x86_3_10, NP_V3_10, NP_X86, NP_MODE_USER)
SETUP(user_x86_6_1, NP_V6_1, NP_X86, NP_MODE_USER)
SETUP(user_x86_6_2, NP_V6_2, NP_X86, NP_MODE_USER)
SETUP(user_x64_6_2, NP_V6_2, NP_X64, NP_MODE_USER)
SETUP(user_wow64_6_2, NP_V6_2, NP_WOW64, NP_MODE_USER)
SETUP(user_x64_1507, NP_V1507, NP_X64, NP_MODE_USER)
SETUP(user_x64_6_0, NP_V6_0, NP_X64, NP_MODE_USER)
SETUP(kernel_x86_6_1, NP_V6_1, NP_X86, NP_MODE_KERNEL)
SETUP(kernel_x86_6_2, NP_V6_2, NP_X86, NP_MODE_KERNEL)
SETUP(kernel_x64_6_2, NP_V6_2, NP_X64, NP_MODE_KERNEL)
SETUP(kernel_wow64_6_2, NP_V6_2, NP_WOW64, NP_MODE_KERNEL)
SETUP(kernel_x64_1507, NP_V1507, NP_X64, NP_MODE_KERNEL)
SETUP(kernel_x86_11, NP_V22H2, NP_X86, NP_MODE_KERNEL)
SETUP(kernel_x64_11, NP_V11_24H2, NP_X64, NP_MODE_KERNEL)
#undef SETUP

static int teardown(void **state)
{
	np_machine *m = *state;
	np_machine_fini(m);
	free(m);
	return 0;
}

/* ---- helpers ---- */

/* Writes into whatever region holds the bytes, read-only or not: the
 * caller's input as it was before the call. */
static void poke(np_machine *m, uint64_t addr, const void *bytes, size_t n)
{
	np_region *r = np_mem_find(m, addr, n);
	assert_non_null(r);
	memcpy(np_region_block(r) + (addr - r->base), bytes, n);
}

static void poke32(np_machine *m, uint64_t addr, uint32_t v) { poke(m, addr, &v, sizeof v); }

static void poison(np_machine *m, uint64_t addr, size_t n)
{
	np_region *r = np_mem_find(m, addr, n);
	assert_non_null(r);
	memset(np_region_block(r) + (addr - r->base), 0xCC, n);
}

static bool untouched(np_machine *m, uint64_t addr, size_t n)
{
	np_region *r = np_mem_find(m, addr, n);
	assert_non_null(r);
	for (size_t i = 0; i < n; i++)
		if (np_region_block(r)[addr - r->base + i] != 0xCC)
			return false;
	return true;
}

static uint32_t peek32(np_machine *m, uint64_t addr)
{
	np_region *r = np_mem_find(m, addr, 4);
	assert_non_null(r);
	uint32_t v;
	memcpy(&v, np_region_block(r) + (addr - r->base), 4);
	return v;
}

/* A pointer of size bytes, little-endian, as the kernel wrote it. */
static uint64_t peek_pointer(np_machine *m, uint64_t addr, unsigned size)
{
	np_region *r = np_mem_find(m, addr, size);
	assert_non_null(r);
	uint64_t v = 0;
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)np_region_block(r)[addr - r->base + i] << (8 * i);
	return v;
}

static void assert_status(np_result r, uint32_t code)
{
	if (r.kind != NP_RESULT_STATUS)
		fail_msg("result kind %d, want STATUS 0x%08X", (int)r.kind, code);
	if (r.code != code)
		fail_msg("status 0x%08X, want 0x%08X", r.code, code);
}

static void assert_fault(np_result r)
{
	assert_int_equal(r.kind, NP_RESULT_FAULT);
	assert_int_equal(r.code, NP_STATUS_ACCESS_VIOLATION);
}

static void assert_not_applicable(np_result r)
{
	assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
	assert_non_null(r.why);
}

/* SY-8: the kernel's pointer size; the structure is twice that. */
static unsigned kernel_pointer(const np_machine *m) { return np_kernel_is_32bit(m->arch) ? 4u : 8u; }

/* SY-17: the k-th area of this machine. */
static uint64_t area(const np_machine *m, unsigned k)
{
	return (np_kernel_is_32bit(m->arch) ? POOL_X86 : POOL_X64) + 0x80ull * k;
}

/* Class 0x81 with the structure at buf, Allocate as given, and a length. */
static np_result ppca_len(np_machine *m, uint64_t buf, uint8_t allocate, uint32_t length)
{
	poison(m, buf, 16);
	poke(m, buf + kernel_pointer(m), &allocate, 1);
	return np_nt_set_system_information(m, PPCA, buf, length);
}

static np_result ppca(np_machine *m, uint8_t allocate)
{
	return ppca_len(m, RW, allocate, 2 * kernel_pointer(m));
}

/* The output field after a class 0x81 call at RW. */
static uint64_t output(np_machine *m) { return peek_pointer(m, RW, kernel_pointer(m)); }
static bool output_untouched(np_machine *m) { return untouched(m, RW, kernel_pointer(m)); }

/* Class 0x1F, sub-class 3, set: {3, interval} at buf. */
static np_result tp_set_len(np_machine *m, uint64_t buf, uint32_t interval, uint32_t length)
{
	uint32_t in[2] = { TIME_SUB, interval };
	poke(m, buf, in, sizeof in);
	return np_nt_set_system_information(m, PERF, buf, length);
}

static np_result tp_set(np_machine *m, uint32_t interval) { return tp_set_len(m, RW, interval, 8); }

/* Class 0x1F, sub-class 3, query: {3, poison} at buf, *ret poisoned. */
static np_result tp_query_len(np_machine *m, uint64_t buf, uint32_t length, uint64_t ret)
{
	poison(m, buf, 8);
	poke32(m, buf, TIME_SUB);
	if (ret)
		poison(m, ret, 4);
	return np_nt_query_system_information(m, PERF, buf, length, ret);
}

/* A successful time-profile query: the interval. */
static uint32_t tp_interval(np_machine *m)
{
	assert_status(tp_query_len(m, RW, 8, RW + 0x100), NP_STATUS_SUCCESS);
	assert_int_equal(peek32(m, RW + 0x100), 8);
	return peek32(m, RW + 4);
}

/* Class 0x1F, sub-class 0x0D, query into BIG. */
static np_result list_query(np_machine *m, uint32_t length, uint64_t ret)
{
	poison(m, BIG, BIG_SIZE);
	poke32(m, BIG, LIST_SUB);
	if (ret)
		poison(m, ret, 4);
	return np_nt_query_system_information(m, PERF, BIG, length, ret);
}

/* ---- SY-0: exports ---- */

/* SY-0: NtSetSystemInformation is not exported on 3.10; the query is. */
/* rules: SY-0 */
static void test_sysinfo_set_not_exported_on_3_10(void **state)
{
	np_machine *m = *state;
	assert_int_equal(np_nt_set_system_information(m, PPCA, RW, 8).kind, NP_RESULT_NOT_EXPORTED);
	assert_int_equal(np_nt_set_system_information(m, PERF, RW, 8).kind, NP_RESULT_NOT_EXPORTED);
	/* SY-0 before SY-4: not exported, whatever the class */
	assert_int_equal(np_nt_set_system_information(m, 0x05, RW, 8).kind, NP_RESULT_NOT_EXPORTED);
	assert_status(np_nt_query_system_information(m, PPCA, RW, 8, 0), NP_STATUS_INVALID_INFO_CLASS);
	assert_status(np_nt_query_system_information(m, PERF, RW, 8, 0), NP_STATUS_INVALID_INFO_CLASS);
}

/* SY-0: NTDLL exports both names of the query in every version and of the
 * set from 3.50; in kernel mode the Zw names are the kernel's exports,
 * ZwSetSystemInformation from 3.50 and ZwQuerySystemInformation from 4.0,
 * while an Nt spelling is a kernel-mode request in every version. */
/* rules: SY-0 */
static void test_sysinfo_exports_by_version(void **state)
{
	(void)state;
	for (int v = 0; v < NP_VERSION_COUNT; v++) {
		bool set = v >= NP_V3_50, kzw_query = v >= NP_V4_0;
		assert_true(np_is_exported(v, NP_MODE_USER, "NtQuerySystemInformation"));
		assert_true(np_is_exported(v, NP_MODE_USER, "ZwQuerySystemInformation"));
		assert_int_equal(np_is_exported(v, NP_MODE_USER, "NtSetSystemInformation"), set);
		assert_int_equal(np_is_exported(v, NP_MODE_USER, "ZwSetSystemInformation"), set);
		assert_true(np_is_exported(v, NP_MODE_KERNEL, "NtQuerySystemInformation"));
		assert_int_equal(np_is_exported(v, NP_MODE_KERNEL, "ZwQuerySystemInformation"), kzw_query);
		assert_int_equal(np_is_exported(v, NP_MODE_KERNEL, "NtSetSystemInformation"), set);
		assert_int_equal(np_is_exported(v, NP_MODE_KERNEL, "ZwSetSystemInformation"), set);
	}
	assert_false(np_is_exported(NP_V3_51, NP_MODE_KERNEL, "ZwQuerySystemInformation"));
	assert_true(np_is_exported(NP_V4_0, NP_MODE_KERNEL, "ZwQuerySystemInformation"));
}

/* SY-0, SY-6, SY-20: the thresholds over the whole table, every architecture. */
/* rules: SY-0 SY-6 SY-20 */
static void test_sysinfo_versions_whole_table(void **state)
{
	np_machine *m = *state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			if (!np_arch_exists((np_ver)v, (np_arch)a))
				continue;
			remake(m, (np_ver)v, (np_arch)a, NP_MODE_USER);
			m->profile_privilege = true;
			np_result set81 = ppca(m, 1);
			np_result set1f = tp_set(m, 5000);
			np_result query1f = tp_query_len(m, RW, 8, 0);
			assert_int_equal(np_has_set_system_information((np_ver)v), v >= NP_V3_50);
			assert_int_equal(np_has_processor_profile_control_area((np_ver)v), v >= NP_V6_2);
			assert_int_equal(np_has_performance_trace_information((np_ver)v), v >= NP_V6_0);
			assert_int_equal(np_has_event_ids_information((np_ver)v),
					 v >= NP_V3_50 && v <= NP_V4_0SP4);
			if (v < NP_V3_50) {
				assert_int_equal(set81.kind, NP_RESULT_NOT_EXPORTED);
				assert_int_equal(set1f.kind, NP_RESULT_NOT_EXPORTED);
			} else {
				assert_status(set81, v >= NP_V6_2 ? NP_STATUS_ACCESS_DENIED
								  : NP_STATUS_INVALID_INFO_CLASS);
				assert_status(set1f, v >= NP_V6_0 ? NP_STATUS_SUCCESS
								  : NP_STATUS_INVALID_INFO_CLASS);
			}
			if (v >= NP_V6_0)
				assert_status(query1f, NP_STATUS_SUCCESS);
			else if (v >= NP_V3_50 && v <= NP_V4_0SP4)
				assert_status(query1f, NP_STATUS_NOT_IMPLEMENTED);
			else
				assert_status(query1f, NP_STATUS_INVALID_INFO_CLASS);
		}
	}
}

/* ---- SY-1: alignment ---- */

/* SY-1: a user-mode set buffer must be dword-aligned when the length is not 0. */
/* rules: SY-1 */
static void test_sysinfo_set_alignment(void **state)
{
	np_machine *m = *state;
	for (unsigned off = 1; off < 4; off++) {
		assert_status(np_nt_set_system_information(m, PPCA, RW + off, 8),
			      NP_STATUS_DATATYPE_MISALIGNMENT);
		assert_status(np_nt_set_system_information(m, PERF, RW + off, 8),
			      NP_STATUS_DATATYPE_MISALIGNMENT);
		assert_status(np_nt_set_system_information(m, PPCA, RW + off, 1),
			      NP_STATUS_DATATYPE_MISALIGNMENT);
	}
	assert_status(np_nt_set_system_information(m, PPCA, RW + 4, 1), NP_STATUS_ACCESS_DENIED);
	/* a length of 0 gives no buffer: nothing about it is tested */
	assert_status(np_nt_set_system_information(m, PPCA, RW + 1, 0), NP_STATUS_ACCESS_DENIED);
	assert_status(np_nt_set_system_information(m, PPCA, KERNEL_X86 + 3, 0), NP_STATUS_ACCESS_DENIED);
}

/* SY-1: the query's buffer likewise; ReturnLength has no alignment (SY-3). */
/* rules: SY-1 SY-3 */
static void test_sysinfo_query_alignment(void **state)
{
	np_machine *m = *state;
	for (unsigned off = 1; off < 4; off++) {
		assert_status(np_nt_query_system_information(m, PPCA, RW + off, 8, 0),
			      NP_STATUS_DATATYPE_MISALIGNMENT);
		assert_status(np_nt_query_system_information(m, PERF, RW + off, 8, 0),
			      NP_STATUS_DATATYPE_MISALIGNMENT);
	}
	assert_status(np_nt_query_system_information(m, PPCA, RW + 1, 0, 0), NP_STATUS_INVALID_INFO_CLASS);
	assert_status(np_nt_query_system_information(m, PPCA, RW, 8, RW + 0x101), NP_STATUS_INVALID_INFO_CLASS);
	assert_status(tp_query_len(m, RW, 8, RW + 0x103), NP_STATUS_SUCCESS);
	assert_int_equal(peek32(m, RW + 0x103), 8);
}

/* SY-1, SY-2: the call's record names the probe that refused the buffer, in
 * a set and in a query: SY-1 for a misaligned one, SY-2 for one past the limit. */
/* rules: SY-1 SY-2 */
static void test_sysinfo_refusal_recorded(void **state)
{
	np_machine *m = *state;
	assert_status(np_nt_set_system_information(m, PPCA, RW + 2, 8), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(m->trail.decided, NP_RULE(SY_1));
	assert_status(np_nt_set_system_information(m, PPCA, KERNEL_X86, 8), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(m->trail.decided, NP_RULE(SY_2));
	assert_status(np_nt_query_system_information(m, PPCA, RW + 2, 8, 0), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(m->trail.decided, NP_RULE(SY_1));
	assert_status(np_nt_query_system_information(m, PPCA, KERNEL_X86, 8, 0), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(m->trail.decided, NP_RULE(SY_2));
}

/* SY-1, SY-2: a kernel-mode request is neither aligned nor range-tested. */
/* rules: SY-1 SY-2 */
static void test_sysinfo_kernel_not_probed(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = false;
	assert_status(tp_set_len(m, RW + 2, 5000, 8), NP_STATUS_SUCCESS);
	assert_status(tp_query_len(m, RW + 1, 8, RW + 0x102), NP_STATUS_SUCCESS);
	assert_int_equal(peek32(m, RW + 1 + 4), 5000);
	assert_int_equal(peek32(m, RW + 0x102), 8);
	assert_status(ppca_len(m, RW + 1, 1, 2 * kernel_pointer(m)), NP_STATUS_SUCCESS);
	assert_int_equal(peek_pointer(m, RW + 1, kernel_pointer(m)), area(m, 0));
}

/* ---- SY-2: range ---- */

/* SY-2, AS-1: x86 set buffers must end at or below 0x7FFF0000. */
/* rules: SY-2 AS-1 */
static void test_sysinfo_set_range_x86(void **state)
{
	np_machine *m = *state;
	assert_status(np_nt_set_system_information(m, PPCA, 0x7FFEFFF8, 8), NP_STATUS_ACCESS_DENIED);
	assert_status(np_nt_set_system_information(m, PPCA, 0x7FFEFFF8, 9), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_set_system_information(m, PPCA, KERNEL_X86, 8), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_set_system_information(m, PERF, KERNEL_X86, 8), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_set_system_information(m, PPCA, 0xFFFFFFFCull, 8), NP_STATUS_ACCESS_VIOLATION);
}

/* SY-2, AS-1: 64-bit kernel limit 0x7FFFFFFF0000; a wrap is out of range. */
/* rules: SY-2 AS-1 */
static void test_sysinfo_set_range_x64(void **state)
{
	np_machine *m = *state;
	assert_status(np_nt_set_system_information(m, PPCA, 0x7FFFFFFEFFF0ull, 16), NP_STATUS_ACCESS_DENIED);
	assert_status(np_nt_set_system_information(m, PPCA, 0x7FFFFFFEFFF0ull, 17), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_set_system_information(m, PPCA, KERNEL_X64, 16), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_set_system_information(m, PPCA, 0xFFFFFFFFFFFFFFF8ull, 16),
		      NP_STATUS_ACCESS_VIOLATION);
}

/* SY-2: a WOW64 caller's upper-half 32-bit address is user space to its kernel. */
/* rules: SY-2 */
static void test_sysinfo_set_range_wow64(void **state)
{
	np_machine *m = *state;
	assert_status(np_nt_set_system_information(m, PPCA, KERNEL_X86, 8), NP_STATUS_ACCESS_DENIED);
	assert_status(np_nt_set_system_information(m, PPCA, 0xFFFFFFFCull, 8), NP_STATUS_ACCESS_DENIED);
	/* the set probe reads nothing: the unmapped buffer faults only when read (SY-5) */
	assert_status(np_nt_set_system_information(m, PERF, KERNEL_X86, 8), NP_STATUS_ACCESS_VIOLATION);
}

/* SY-2: the set probe touches nothing; the query probe needs writable memory. */
/* rules: SY-2 */
static void test_sysinfo_probe_set_versus_query(void **state)
{
	np_machine *m = *state;
	static const uint64_t set_passes[] = { UNMAPPED, RO, 0 };
	for (size_t i = 0; i < sizeof set_passes / sizeof *set_passes; i++) {
		assert_status(np_nt_set_system_information(m, PPCA, set_passes[i], 16), NP_STATUS_ACCESS_DENIED);
		assert_status(np_nt_query_system_information(m, PPCA, set_passes[i], 16, 0),
			      NP_STATUS_ACCESS_VIOLATION);
	}
	assert_true(untouched(m, RO, 16));
	/* the query probe covers every byte: one past the page is unmapped */
	assert_status(np_nt_query_system_information(m, PPCA, RW + NP_PAGE_SIZE - 8, 12, 0),
		      NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_query_system_information(m, PPCA, RW + NP_PAGE_SIZE - 8, 8, 0),
		      NP_STATUS_INVALID_INFO_CLASS);
	assert_status(np_nt_query_system_information(m, PPCA, KERNEL_X64, 16, 0), NP_STATUS_ACCESS_VIOLATION);
}

/* ---- SY-3: ReturnLength ---- */

/* SY-3: ReturnLength must be writable user memory, tested after the buffer. */
/* rules: SY-3 */
static void test_sysinfo_return_length_probe(void **state)
{
	np_machine *m = *state;
	assert_status(np_nt_query_system_information(m, PPCA, RW, 16, RO), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_query_system_information(m, PPCA, RW, 16, UNMAPPED), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_query_system_information(m, PPCA, RW, 16, KERNEL_X64), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_query_system_information(m, PPCA, RW, 16, RW + NP_PAGE_SIZE - 2),
		      NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_query_system_information(m, PPCA, RW, 16, RW + NP_PAGE_SIZE - 4),
		      NP_STATUS_INVALID_INFO_CLASS);
	/* order: the buffer's alignment and range come first */
	assert_status(np_nt_query_system_information(m, PPCA, RW + 2, 16, RO), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_status(np_nt_query_system_information(m, PPCA, RO, 16, UNMAPPED), NP_STATUS_ACCESS_VIOLATION);
	/* with no buffer, ReturnLength is still probed */
	assert_status(np_nt_query_system_information(m, PPCA, 0, 0, RO), NP_STATUS_ACCESS_VIOLATION);
	assert_true(untouched(m, RW, 16));
}

/* ---- SY-4: the defences come first; other classes ---- */

/* SY-4: a bad buffer is reported even for a class the version lacks. */
/* rules: SY-4 */
static void test_sysinfo_defences_before_class(void **state)
{
	np_machine *m = *state;   /* 6.1: class 0x81 does not exist */
	assert_status(np_nt_set_system_information(m, PPCA, RW + 2, 8), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_status(np_nt_set_system_information(m, PPCA, KERNEL_X86, 8), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_set_system_information(m, PPCA, RW, 8), NP_STATUS_INVALID_INFO_CLASS);
	assert_status(np_nt_query_system_information(m, PPCA, RO, 8, 0), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_query_system_information(m, PPCA, RW, 8, 0), NP_STATUS_INVALID_INFO_CLASS);
}

/* SY-4: every class but 0x1F and 0x81 is outside the model, defences or not. */
/* rules: SY-4 */
static void test_sysinfo_other_classes_not_applicable(void **state)
{
	np_machine *m = *state;
	static const uint32_t others[] = { 0x00, 0x1E, 0x20, 0x23, 0x80, 0x82, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
		assert_not_applicable(np_nt_set_system_information(m, others[i], RW + 1, 8));
		assert_not_applicable(np_nt_query_system_information(m, others[i], RO, 8, RO));
	}
}

/* ---- SY-5: faults after the defences ---- */

/* SY-5: a user-mode request whose access faults returns the exception code. */
/* rules: SY-5 */
static void test_sysinfo_user_fault_is_status(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_status(np_nt_set_system_information(m, PERF, UNMAPPED, 8), NP_STATUS_ACCESS_VIOLATION);
	assert_status(np_nt_set_system_information(m, PERF, 0, 4), NP_STATUS_ACCESS_VIOLATION);
	/* a vanishing buffer passes the probe and is gone when read */
	assert_status(tp_set_len(m, VANISH, 5000, 8), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(tp_interval(m), TIME_DEFAULT);
}

/* SY-5: in a query, the buffer or ReturnLength vanishing after the probe. */
/* rules: SY-5 */
static void test_sysinfo_user_fault_in_query(void **state)
{
	np_machine *m = *state;
	np_region *v = np_mem_find(m, VANISH, 4);
	poison(m, VANISH, 8);
	poke32(m, VANISH, TIME_SUB);
	assert_status(np_nt_query_system_information(m, PERF, VANISH, 8, RW + 0x100),
		      NP_STATUS_ACCESS_VIOLATION);
	assert_true(v->revoked);
	v->revoked = false;
	/* ReturnLength gone: the interval is written, the length is not */
	assert_status(tp_query_len(m, RW, 8, VANISH), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(peek32(m, RW + 4), TIME_DEFAULT);
	assert_true(untouched(m, VANISH, 4));
	/* a length mismatch whose ReturnLength is gone */
	v->revoked = false;
	assert_status(tp_query_len(m, RW, 9, VANISH), NP_STATUS_ACCESS_VIOLATION);
	/* the source list whose ReturnLength is gone, on each path */
	v->revoked = false;
	assert_status(list_query(m, 0x10, VANISH), NP_STATUS_ACCESS_VIOLATION);
	v->revoked = false;
	assert_status(list_query(m, BIG_SIZE, VANISH), NP_STATUS_ACCESS_VIOLATION);
}

/* SY-5: in a kernel-mode request a fault is an unhandled kernel exception. */
/* rules: SY-5 */
static void test_sysinfo_kernel_fault(void **state)
{
	np_machine *m = *state;
	unsigned p = kernel_pointer(m);
	assert_fault(np_nt_set_system_information(m, PPCA, 0, 2 * p));             /* Allocate read */
	assert_fault(ppca_len(m, RO, 1, 2 * p));                                      /* output write */
	assert_int_equal(m->cpu[0].control_area, area(m, 0));                         /* attached first */
	assert_true(untouched(m, RO, p));
	assert_fault(ppca_len(m, RO, 1, 2 * p));                                      /* exists: write */
	assert_fault(ppca_len(m, RO, 0, 2 * p));                                      /* free: write */
	assert_int_equal(m->cpu[0].control_area, area(m, 0));                         /* not freed */
	m->alloc_failures = 1;
	assert_fault(ppca_len(m, RO, 1, 2 * p));                                      /* NULL write */
	assert_fault(np_nt_set_system_information(m, PERF, UNMAPPED, 8));            /* sub-class read */
	poke32(m, RW + NP_PAGE_SIZE - 4, TIME_SUB);                                  /* the page's last dword */
	assert_fault(np_nt_set_system_information(m, PERF, RW + NP_PAGE_SIZE - 4, 8)); /* interval read */
	poke32(m, RO, TIME_SUB);
	assert_fault(np_nt_query_system_information(m, PERF, RO, 8, 0));             /* interval write */
	poke32(m, RW, TIME_SUB);
	assert_fault(np_nt_query_system_information(m, PERF, RW, 8, RO));            /* ReturnLength */
	assert_fault(np_nt_query_system_information(m, PERF, RW, 7, RO));            /* on mismatch */
	poke32(m, RO, LIST_SUB);
	assert_fault(np_nt_query_system_information(m, PERF, RO, 0x400, 0));         /* the chain */
	assert_fault(np_nt_query_system_information(m, PERF, RO, 0x28, RO));         /* mismatch length */
}

/* ---- SY-6: class 0x81 exists for the set only, from 6.2 ---- */

/* SY-6: before 6.2 the set class is invalid, for kernel mode too. */
/* rules: SY-6 */
static void test_sysinfo_ppca_invalid_before_6_2(void **state)
{
	np_machine *m = *state;
	assert_status(ppca(m, 1), NP_STATUS_INVALID_INFO_CLASS);
	assert_status(ppca(m, 0), NP_STATUS_INVALID_INFO_CLASS);
	assert_true(output_untouched(m));
	assert_int_equal(m->pool_allocations, 0);
}

/* SY-6: no version lets class 0x81 be queried, from either mode. */
/* rules: SY-6 */
static void test_sysinfo_ppca_query_invalid(void **state)
{
	np_machine *m = *state;
	poison(m, RW, 16);
	poison(m, RW + 0x100, 4);
	assert_status(np_nt_query_system_information(m, PPCA, RW, 16, RW + 0x100), NP_STATUS_INVALID_INFO_CLASS);
	assert_true(untouched(m, RW, 16));
	assert_true(untouched(m, RW + 0x100, 4));
	m->previous_mode = NP_MODE_USER;
	assert_status(np_nt_query_system_information(m, PPCA, RW, 16, 0), NP_STATUS_INVALID_INFO_CLASS);
}

/* ---- SY-7: user mode is refused ---- */

/* SY-7: a user-mode caller gets ACCESS_DENIED; nothing is read, allocated or written. */
/* rules: SY-7 */
static void test_sysinfo_ppca_user_mode_denied(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->integrity = NP_INTEGRITY_HIGH;
	m->alloc_failures = 1;
	assert_status(ppca(m, 1), NP_STATUS_ACCESS_DENIED);
	assert_status(ppca(m, 0), NP_STATUS_ACCESS_DENIED);
	assert_true(output_untouched(m));
	assert_int_equal(m->alloc_failures, 1);
	assert_int_equal(m->pool_allocations, 0);
	assert_int_equal(m->cpu[0].control_area, 0);
	/* mode-first (the default): a wrong length is denied for the mode */
	assert_status(ppca_len(m, RW, 1, 7), NP_STATUS_ACCESS_DENIED);
	assert_status(ppca_len(m, RW, 1, 0), NP_STATUS_ACCESS_DENIED);
}

/* ---- SY-8: the length ---- */

/* SY-8: on a 32-bit kernel exactly 8 bytes. */
/* rules: SY-8 */
static void test_sysinfo_ppca_length_x86(void **state)
{
	np_machine *m = *state;
	static const uint32_t wrong[] = { 0, 4, 7, 9, 16 };
	for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
		assert_status(ppca_len(m, RW, 1, wrong[i]), NP_STATUS_INFO_LENGTH_MISMATCH);
		assert_true(output_untouched(m));
	}
	assert_int_equal(m->pool_allocations, 0);
	assert_status(ppca_len(m, RW, 1, 8), NP_STATUS_SUCCESS);
}

/* SY-8: on a 64-bit kernel exactly 16 bytes, for a WOW64 target too. */
/* rules: SY-8 */
static void test_sysinfo_ppca_length_x64(void **state)
{
	np_machine *m = *state;
	static const uint32_t wrong[] = { 0, 8, 15, 17, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++)
		assert_status(ppca_len(m, BIG, 1, wrong[i]), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_status(ppca_len(m, RW, 1, 16), NP_STATUS_SUCCESS);
}

/* SY-8 K-PPCA-LENGTH-STATUS=invalid-parameter. */
/* rules: SY-8 */
static void test_sysinfo_ppca_length_status_knob(void **state)
{
	np_machine *m = *state;
	m->knobs.ppca_length_status = NP_PPCA_INVALID_PARAMETER;
	assert_status(ppca_len(m, RW, 1, 7), NP_STATUS_INVALID_PARAMETER);
	assert_status(ppca_len(m, RW, 1, 2 * kernel_pointer(m)), NP_STATUS_SUCCESS);
}

/* SY-8 K-PPCA-LENGTH-ORDER=length-first: the length beats the mode, and a
 * WOW64 caller's own 8 bytes are the wrong length (model choice). */
/* rules: SY-8 */
static void test_sysinfo_ppca_length_first(void **state)
{
	np_machine *m = *state;
	m->knobs.ppca_length_order = NP_PPCA_LENGTH_FIRST;
	assert_status(ppca_len(m, RW, 1, 7), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_status(ppca_len(m, RW, 1, 8), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_status(ppca_len(m, RW, 1, 16), NP_STATUS_ACCESS_DENIED);
	m->knobs.ppca_length_status = NP_PPCA_INVALID_PARAMETER;
	assert_status(ppca_len(m, RW, 1, 8), NP_STATUS_INVALID_PARAMETER);
	assert_true(output_untouched(m));
}

/* SY-8 length-first on x86: 8 is right, so the mode decides. */
/* rules: SY-8 */
static void test_sysinfo_ppca_length_first_x86(void **state)
{
	np_machine *m = *state;
	m->knobs.ppca_length_order = NP_PPCA_LENGTH_FIRST;
	assert_status(ppca_len(m, RW, 1, 8), NP_STATUS_ACCESS_DENIED);
	assert_status(ppca_len(m, RW, 1, 16), NP_STATUS_INFO_LENGTH_MISMATCH);
}

/* ---- SY-9: layout ---- */

/* SY-9: x86: Allocate at 4, a 4-byte output; bytes after Allocate are ignored. */
/* rules: SY-9 */
static void test_sysinfo_ppca_layout_x86(void **state)
{
	np_machine *m = *state;
	poison(m, RW, 16);
	uint8_t allocate = 1;
	poke(m, RW + 4, &allocate, 1);
	assert_status(np_nt_set_system_information(m, PPCA, RW, 8), NP_STATUS_SUCCESS);
	assert_int_equal(peek32(m, RW), (uint32_t)POOL_X86);
	assert_int_equal(peek32(m, RW + 4), 0xCCCCCC01u);       /* Allocate and padding untouched */
	assert_true(untouched(m, RW + 8, 8));
	/* Allocate = 0 with non-zero padding frees: only the byte counts */
	poison(m, RW, 16);
	allocate = 0;
	poke(m, RW + 4, &allocate, 1);
	assert_status(np_nt_set_system_information(m, PPCA, RW, 8), NP_STATUS_SUCCESS);
	assert_int_equal(peek32(m, RW), 0);
	assert_int_equal(m->cpu[0].control_area, 0);
}

/* SY-9: x64: Allocate at 8, an 8-byte output. */
/* rules: SY-9 */
static void test_sysinfo_ppca_layout_x64(void **state)
{
	np_machine *m = *state;
	poison(m, RW, 16);
	uint8_t allocate = 0x80;
	poke(m, RW + 8, &allocate, 1);
	assert_status(np_nt_set_system_information(m, PPCA, RW, 16), NP_STATUS_SUCCESS);
	assert_int_equal(peek_pointer(m, RW, 8), POOL_X64);
	assert_int_equal(peek32(m, RW + 8), 0xCCCCCC80u);
	/* a non-zero byte at 4 (inside the pointer) is not Allocate */
	poison(m, RW, 16);
	allocate = 0;
	poke(m, RW + 8, &allocate, 1);
	assert_status(np_nt_set_system_information(m, PPCA, RW, 16), NP_STATUS_SUCCESS);
	assert_int_equal(peek_pointer(m, RW, 8), 0);
	/* the caller's pointer size: 8 for kernel code on a 64-bit kernel */
	assert_int_equal(np_caller_pointer_size(m), 8);
}

/* SY-9: a 32-bit caller's pointers are 4 bytes, a 64-bit caller's 8. */
/* rules: SY-9 */
static void test_sysinfo_caller_pointer_size(void **state)
{
	np_machine *m = *state;
	static const struct { np_arch a; np_mode mode; unsigned size; } cases[] = {
		{ NP_X86, NP_MODE_USER, 4 }, { NP_X86, NP_MODE_KERNEL, 4 },
		{ NP_X64, NP_MODE_USER, 8 }, { NP_X64, NP_MODE_KERNEL, 8 },
		{ NP_WOW64, NP_MODE_USER, 4 }, { NP_WOW64, NP_MODE_KERNEL, 8 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		remake(m, NP_V6_2, cases[i].a, cases[i].mode);
		assert_int_equal(np_caller_pointer_size(m), cases[i].size);
	}
}

/* ---- SY-10: allocation first ---- */

/* SY-10: a failed allocation writes NULL and reports no resources. */
/* rules: SY-10 */
static void test_sysinfo_ppca_allocation_failure(void **state)
{
	np_machine *m = *state;
	m->alloc_failures = 1;
	assert_status(ppca(m, 1), NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(output(m), 0);
	assert_int_equal(m->alloc_failures, 0);
	assert_int_equal(m->pool_allocations, 0);
	assert_int_equal(m->cpu[0].control_area, 0);
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(output(m), area(m, 0));
}

/* SY-10, SY-11: without PEBS, a failed allocation still wins. */
/* rules: SY-10 SY-11 */
static void test_sysinfo_ppca_allocation_before_pebs(void **state)
{
	np_machine *m = *state;
	np_cpu_set_pebs(&m->cpu[0], false);
	m->alloc_failures = 1;
	assert_status(ppca(m, 1), NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(output(m), 0);
	assert_status(ppca(m, 1), NP_STATUS_NOT_SUPPORTED);
	assert_true(output_untouched(m));
	assert_int_equal(m->pool_allocations, 1);                /* allocated, then freed */
}

/* SY-10: a free allocates nothing, so an injected failure is left alone. */
/* rules: SY-10 */
static void test_sysinfo_ppca_free_does_not_allocate(void **state)
{
	np_machine *m = *state;
	m->alloc_failures = 1;
	assert_status(ppca(m, 0), NP_STATUS_MEMORY_NOT_ALLOCATED);
	assert_int_equal(m->alloc_failures, 1);
	assert_int_equal(m->pool_allocations, 0);
}

/* ---- SY-11: PEBS support ---- */

/* SY-11: each condition alone denies PEBS; the output is left alone. */
/* rules: SY-11 */
static void test_sysinfo_ppca_pebs_conditions(void **state)
{
	np_machine *m = *state;
	np_cpu good = m->cpu[0];
	np_cpu bad[4] = { good, good, good, good };
	bad[0].vendor = NP_VENDOR_AMD;
	bad[1].vendor = NP_VENDOR_OTHER;
	bad[2].misc_enable &= ~NP_MISC_ENABLE_PERFMON_AVAILABLE;
	bad[3].misc_enable |= NP_MISC_ENABLE_PEBS_UNAVAILABLE;
	for (unsigned i = 0; i < 4; i++) {
		m->cpu[0] = bad[i];
		assert_status(ppca(m, 1), NP_STATUS_NOT_SUPPORTED);
		assert_true(output_untouched(m));
		assert_int_equal(m->cpu[0].control_area, 0);
	}
	assert_int_equal(m->pool_allocations, 4);
	m->cpu[0] = good;
	m->cpu[0].misc_enable = ~NP_MISC_ENABLE_PEBS_UNAVAILABLE;   /* every other bit set */
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(output(m), area(m, 4));
}

/* SY-11: DTES64 (CPUID leaf 1 ECX bit 2) matters on a 32-bit kernel only. */
/* rules: SY-11 */
static void test_sysinfo_ppca_dtes64(void **state)
{
	np_machine *m = *state;
	bool kernel32 = np_kernel_is_32bit(m->arch);
	m->cpu[0].cpuid1_ecx = ~NP_CPUID1_ECX_DTES64;
	assert_status(ppca(m, 1), kernel32 ? NP_STATUS_NOT_SUPPORTED : NP_STATUS_SUCCESS);
	m->cpu[0].cpuid1_ecx = NP_CPUID1_ECX_DTES64;
	assert_status(ppca(m, 1), kernel32 ? NP_STATUS_SUCCESS : NP_STATUS_ADDRESS_ALREADY_EXISTS);
	assert_int_equal(output(m), area(m, kernel32 ? 1 : 0));
}

/* ---- SY-12, SY-13: existing and new areas ---- */

/* SY-13, SY-12: the first area is attached; a second allocate reports it. */
/* SY-5, SY-9: a vanishing buffer vanishes for a kernel-mode request too,
 * though nothing probes it: the read of Allocate faults, unhandled, and no
 * area is attached; the same request into a buffer that stays mapped
 * succeeds. */
/* rules: SY-5 SY-9 */
static void test_sysinfo_ppca_kernel_vanishing_faults(void **state)
{
	np_machine *m = *state;
	poison(m, VANISH, 16);
	assert_fault(np_nt_set_system_information(m, PPCA, VANISH, 2 * kernel_pointer(m)));
	assert_int_equal(m->cpu[0].control_area, 0);
	assert_int_equal(m->pool_allocations, 0);
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(m->cpu[0].control_area, area(m, 0));
}

/* rules: SY-13 SY-12 */
static void test_sysinfo_ppca_attach_then_exists(void **state)
{
	np_machine *m = *state;
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(output(m), area(m, 0));
	assert_int_equal(m->cpu[0].control_area, area(m, 0));
	assert_status(ppca(m, 1), NP_STATUS_ADDRESS_ALREADY_EXISTS);
	assert_int_equal(output(m), area(m, 0));
	assert_int_equal(m->cpu[0].control_area, area(m, 0));
	assert_int_equal(m->pool_allocations, 2);                 /* the second was made and freed */
	m->alloc_failures = 1;                                    /* SY-10 still comes first */
	assert_status(ppca(m, 1), NP_STATUS_INSUFFICIENT_RESOURCES);
	assert_int_equal(output(m), 0);
	assert_int_equal(m->cpu[0].control_area, area(m, 0));
}

/* ---- SY-14: freeing ---- */

/* SY-14: free detaches and clears; a second free finds nothing. */
/* rules: SY-14 */
static void test_sysinfo_ppca_free(void **state)
{
	np_machine *m = *state;
	assert_status(ppca(m, 0), NP_STATUS_MEMORY_NOT_ALLOCATED);
	assert_int_equal(output(m), 0);
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_status(ppca(m, 0), NP_STATUS_SUCCESS);
	assert_int_equal(output(m), 0);
	assert_int_equal(m->cpu[0].control_area, 0);
	assert_status(ppca(m, 0), NP_STATUS_MEMORY_NOT_ALLOCATED);
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(output(m), area(m, 1));
}

/* SY-14 K-PEBS-ON-FREE=checked (default): no PEBS, no free, output untouched. */
/* rules: SY-14 */
static void test_sysinfo_ppca_free_pebs_checked(void **state)
{
	np_machine *m = *state;
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	np_cpu_set_pebs(&m->cpu[0], false);
	assert_status(ppca(m, 0), NP_STATUS_NOT_SUPPORTED);
	assert_true(output_untouched(m));
	assert_int_equal(m->cpu[0].control_area, area(m, 0));
}

/* SY-14 K-PEBS-ON-FREE=unchecked: the free goes ahead without PEBS. */
/* rules: SY-14 */
static void test_sysinfo_ppca_free_pebs_unchecked(void **state)
{
	np_machine *m = *state;
	m->knobs.pebs_on_free = NP_PEBS_FREE_UNCHECKED;
	np_cpu_set_pebs(&m->cpu[0], false);
	assert_status(ppca(m, 0), NP_STATUS_MEMORY_NOT_ALLOCATED);
	assert_int_equal(output(m), 0);
	m->cpu[0].control_area = area(m, 7);   /* an area from when PEBS was on */
	assert_status(ppca(m, 0), NP_STATUS_SUCCESS);
	assert_int_equal(m->cpu[0].control_area, 0);
}

/* ---- SY-15: the current processor ---- */

/* SY-15: areas belong to processors; a moved thread finds another's state. */
/* rules: SY-15 */
static void test_sysinfo_ppca_moved_thread(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 2));
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_null(np_machine_move_thread(m, 1));
	assert_int_equal(m->current_cpu, 1);
	assert_status(ppca(m, 0), NP_STATUS_MEMORY_NOT_ALLOCATED);
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(output(m), area(m, 1));
	assert_int_equal(m->cpu[0].control_area, area(m, 0));
	assert_int_equal(m->cpu[1].control_area, area(m, 1));
	assert_null(np_machine_move_thread(m, 0));
	assert_status(ppca(m, 0), NP_STATUS_SUCCESS);
	assert_int_equal(m->cpu[0].control_area, 0);
	assert_int_equal(m->cpu[1].control_area, area(m, 1));
}

/* SY-15: the thread moves only to an active processor. */
/* rules: SY-15 */
static void test_sysinfo_move_thread_inactive(void **state)
{
	np_machine *m = *state;
	assert_non_null(np_machine_move_thread(m, 1));
	assert_int_equal(m->current_cpu, 0);
	assert_null(np_machine_set_cpus(m, NP_MAX_CPUS));
	assert_null(np_machine_move_thread(m, NP_MAX_CPUS - 1));
	assert_non_null(np_machine_move_thread(m, NP_MAX_CPUS));
	assert_int_equal(m->current_cpu, NP_MAX_CPUS - 1);
}

/* SY-15, SY-11: a processor without PEBS next to one with it. */
/* rules: SY-15 SY-11 */
static void test_sysinfo_ppca_heterogeneous(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 2));
	np_cpu_set_pebs(&m->cpu[1], false);
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_null(np_machine_move_thread(m, 1));
	assert_status(ppca(m, 1), NP_STATUS_NOT_SUPPORTED);
	assert_status(ppca(m, 0), NP_STATUS_NOT_SUPPORTED);
	assert_null(np_machine_move_thread(m, 0));
	assert_status(ppca(m, 0), NP_STATUS_SUCCESS);
}

/* ---- SY-16: per-processor state ---- */

/* SY-16: every processor starts as an Intel processor with PEBS and no area. */
/* rules: SY-16 */
static void test_sysinfo_cpu_defaults(void **state)
{
	np_machine *m = *state;
	for (unsigned c = 0; c < NP_MAX_CPUS; c++) {
		assert_int_equal(m->cpu[c].vendor, NP_VENDOR_INTEL);
		assert_int_equal(m->cpu[c].misc_enable & NP_MISC_ENABLE_PERFMON_AVAILABLE,
				 NP_MISC_ENABLE_PERFMON_AVAILABLE);
		assert_int_equal(m->cpu[c].misc_enable & NP_MISC_ENABLE_PEBS_UNAVAILABLE, 0);
		assert_int_equal(m->cpu[c].cpuid1_ecx & NP_CPUID1_ECX_DTES64, NP_CPUID1_ECX_DTES64);
		assert_int_equal(m->cpu[c].control_area, 0);
	}
	assert_int_equal(m->pool_allocations, 0);
	assert_int_equal(m->knobs.pebs_on_free, NP_PEBS_FREE_CHECKED);
	assert_int_equal(m->knobs.ppca_length_order, NP_PPCA_MODE_FIRST);
	assert_int_equal(m->knobs.ppca_length_status, NP_PPCA_INFO_LENGTH_MISMATCH);
}

/* SY-16: pebs off sets bit 12 only; on restores what SY-11 needs and keeps the rest. */
/* rules: SY-16 SY-11 */
static void test_sysinfo_cpu_set_pebs(void **state)
{
	(void)state;
	np_cpu c = { NP_VENDOR_AMD, 0x1000000000ull, 0x80000000u, 0x1234 };
	np_cpu_set_pebs(&c, false);
	assert_int_equal(c.vendor, NP_VENDOR_AMD);
	assert_int_equal(c.misc_enable, 0x1000000000ull | NP_MISC_ENABLE_PEBS_UNAVAILABLE);
	np_cpu_set_pebs(&c, true);
	assert_int_equal(c.vendor, NP_VENDOR_INTEL);
	assert_int_equal(c.misc_enable, 0x1000000000ull | NP_MISC_ENABLE_PERFMON_AVAILABLE);
	assert_int_equal(c.cpuid1_ecx, 0x80000000u | NP_CPUID1_ECX_DTES64);
	assert_int_equal(c.control_area, 0x1234);
}

/* ---- SY-17: addresses ---- */

/* SY-9: the area is 0x60 bytes before K-PPCA-WIDE-FROM (2004) and 0xA0 from
 * it, so the cache-aligned areas lie 0x80 apart on 1909 and 0xC0 on 2004;
 * with the knob at never they stay 0x80 apart. */
/* rules: SY-9 SY-17 */
static void test_sysinfo_ppca_size_by_version(void **state)
{
	np_machine *m = *state;
	static const struct { np_ver v; uint64_t stride; } rows[] = {
		{ NP_V1909, 0x80 }, { NP_V2004, 0xC0 }, { NP_V22H2, 0xC0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		remake(m, rows[i].v, m->arch, NP_MODE_KERNEL);
		uint64_t base = np_kernel_is_32bit(m->arch) ? POOL_X86 : POOL_X64;
		for (unsigned k = 0; k < 2; k++) {
			assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
			assert_int_equal(output(m), base + rows[i].stride * k);
			assert_status(ppca(m, 0), NP_STATUS_SUCCESS);
		}
	}
	m->knobs.ppca_wide_from = NP_VERSION_COUNT;             /* the twin: never */
	assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(output(m), (np_kernel_is_32bit(m->arch) ? POOL_X86 : POOL_X64) + 0x80 * 2);
}

/* SY-17: kernel addresses, 0x80 apart before 2004, counted per machine, never reused. */
/* rules: SY-17 */
static void test_sysinfo_ppca_addresses(void **state)
{
	np_machine *m = *state;
	uint64_t base = np_kernel_is_32bit(m->arch) ? POOL_X86 : POOL_X64;
	for (unsigned k = 0; k < 3; k++) {
		assert_status(ppca(m, 1), NP_STATUS_SUCCESS);
		assert_int_equal(output(m), base + 0x80ull * k);
		assert_int_equal(output(m) % 64, 0);                      /* cache-aligned */
		assert_true(output(m) >= np_user_probe_address(m));       /* kernel space */
		assert_status(ppca(m, 0), NP_STATUS_SUCCESS);
	}
	assert_int_equal(m->pool_allocations, 3);
}

/* ---- SY-20: class 0x1F by version ---- */

/* SY-20: 6.1 has class 0x1F; 32-bit kernel-mode callers too. */
/* rules: SY-20 */
static void test_sysinfo_perf_on_6_1(void **state)
{
	np_machine *m = *state;
	assert_status(tp_set(m, 5000), NP_STATUS_SUCCESS);
	assert_int_equal(tp_interval(m), 5000);
}

/* ---- SY-21: the sub-class dword ---- */

/* SY-21: fewer than 4 bytes is an invalid parameter, and nothing is read. */
/* rules: SY-21 */
static void test_sysinfo_perf_short_buffer(void **state)
{
	np_machine *m = *state;
	for (uint32_t len = 0; len < 4; len++) {
		assert_status(np_nt_set_system_information(m, PERF, UNMAPPED, len), NP_STATUS_INVALID_PARAMETER);
		assert_status(np_nt_query_system_information(m, PERF, RW, len, RW + 0x100),
			      NP_STATUS_INVALID_PARAMETER);
	}
	assert_status(tp_query_len(m, RW, 4, RW + 0x100), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_status(tp_set_len(m, RW, 1, 4), NP_STATUS_INFO_LENGTH_MISMATCH);
}

/* SY-21: the kernel-mode path is the same (no fault for an unread NULL). */
/* rules: SY-21 */
static void test_sysinfo_perf_short_buffer_kernel(void **state)
{
	np_machine *m = *state;
	assert_status(np_nt_set_system_information(m, PERF, 0, 3), NP_STATUS_INVALID_PARAMETER);
	assert_status(np_nt_query_system_information(m, PERF, 0, 0, 0), NP_STATUS_INVALID_PARAMETER);
}

/* ---- SY-22: which sub-classes each version accepts ---- */

typedef struct { uint32_t first, last; np_ver since; } span;

/* SY-22's lists, as SPEC.md states them. */
static const span query_spans[] = {
	{ 0x00, 0x04, NP_V6_0 }, { 0x05, 0x0A, NP_V6_1 }, { 0x0D, 0x0D, NP_V6_2 },
	{ 0x12, 0x12, NP_V1607 }, { 0x19, 0x19, NP_V1803 },
};
static const span set_spans[] = {
	{ 0x03, 0x03, NP_V6_0 }, { 0x05, 0x07, NP_V6_1 }, { 0x0A, 0x0A, NP_V6_1 },
	{ 0x01, 0x01, NP_V6_2 }, { 0x0B, 0x0C, NP_V6_2 }, { 0x0E, 0x11, NP_V6_2 },
	{ 0x12, 0x12, NP_V1607 }, { 0x13, 0x14, NP_V1709 }, { 0x15, 0x19, NP_V1803 },
	{ 0x1A, 0x1A, NP_VSRV2022 }, { 0x1B, 0x1B, NP_V11_24H2 },   /* SY-22b */
};

static bool in_spans(const span *s, size_t n, uint32_t sub, np_ver v)
{
	for (size_t i = 0; i < n; i++)
		if (sub >= s[i].first && sub <= s[i].last)
			return v >= s[i].since;
	return false;
}

/* SY-22: over every version from 6.0 and sub-classes 0 to 0x20 (and the
 * extremes), an unaccepted one is NOT_IMPLEMENTED and only it. */
/* rules: SY-22 */
static void test_sysinfo_perf_subclass_table(void **state)
{
	np_machine *m = *state;
	static const uint32_t extra[] = { 0x1A, 0x7FFFFFFFu, 0xFFFFFFFFu };
	for (unsigned v = NP_V6_0; v < NP_VERSION_COUNT; v++) {
		remake(m, (np_ver)v, NP_X64, NP_MODE_KERNEL);
		for (uint32_t i = 0; i < 0x21 + 3; i++) {
			uint32_t sub = i < 0x21 ? i : extra[i - 0x21];
			for (int query = 0; query < 2; query++) {
				bool accepted = query ? in_spans(query_spans, 5, sub, (np_ver)v)
						      : in_spans(set_spans, 11, sub, (np_ver)v);
				uint32_t in[2] = { sub, 5000 };
				poke(m, RW, in, sizeof in);
				np_result r = query ? np_nt_query_system_information(m, PERF, RW, 8, 0)
						    : np_nt_set_system_information(m, PERF, RW, 8);
				bool not_impl = r.kind == NP_RESULT_STATUS && r.code == NP_STATUS_NOT_IMPLEMENTED;
				if (not_impl == accepted)
					fail_msg("%s sub-class 0x%X on %s: kind %d status 0x%08X",
						 query ? "query" : "set", sub, np_version_key((np_ver)v),
						 (int)r.kind, r.code);
				bool modelled = sub == TIME_SUB || (sub == LIST_SUB && query) ||
					(sub == 0x0B && !query);   /* SY-22c: 8 bytes are too few */
				if (accepted && !modelled)
					assert_not_applicable(r);
			}
		}
	}
}

/* ---- SY-23: the time-profile interval ---- */

/* SY-23: exactly 8 bytes; a query stores 8 in *ReturnLength even so. */
/* rules: SY-23 */
static void test_sysinfo_time_profile_length(void **state)
{
	np_machine *m = *state;
	static const uint32_t wrong[] = { 4, 7, 9, 16, 0x1000 };
	m->profile_privilege = true;
	for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
		assert_status(tp_query_len(m, RW, wrong[i], RW + 0x100), NP_STATUS_INFO_LENGTH_MISMATCH);
		assert_int_equal(peek32(m, RW + 0x100), 8);
		assert_true(untouched(m, RW + 4, 4));
		assert_status(tp_set_len(m, RW, 5000, wrong[i]), NP_STATUS_INFO_LENGTH_MISMATCH);
	}
	assert_status(tp_query_len(m, RW, 7, 0), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_int_equal(tp_interval(m), TIME_DEFAULT);
}

/* SY-23 K-ETW-TIME=shared: the set goes through the HAL (HL-4 clamps) and is
 * what NtQueryIntervalProfile reports; no 0x0F48 event. */
/* rules: SY-23 HL-4 */
static void test_sysinfo_time_profile_shared(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	assert_status(tp_set(m, 5000), NP_STATUS_SUCCESS);
	assert_int_equal(tp_interval(m), 5000);
	assert_int_equal(np_hal_interval_on(m, 0, 0), 5000);
	assert_int_equal(m->event_count, 0);
	assert_status(tp_set(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(tp_interval(m), TIME_MIN);
	assert_status(np_nt_set_interval_profile(m, 7000, 0), NP_STATUS_SUCCESS);
	assert_int_equal(tp_interval(m), 7000);
}

/* SY-23 K-ETW-TIME=separate: its own variable, the HAL default until set. */
/* rules: SY-23 */
static void test_sysinfo_time_profile_separate(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->knobs.etw_time = NP_ETW_TIME_SEPARATE;
	m->hal.source[0].def = 4321;
	assert_int_equal(tp_interval(m), 4321);
	assert_status(tp_set(m, 1), NP_STATUS_SUCCESS);
	assert_int_equal(tp_interval(m), 1);
	assert_int_equal(np_hal_interval_on(m, 0, 0), TIME_DEFAULT);
}

/* SY-23, TR-5: a user-mode set needs the privilege, after the length test. */
/* rules: SY-23 TR-5 */
static void test_sysinfo_time_profile_privilege(void **state)
{
	np_machine *m = *state;
	assert_status(tp_set(m, 5000), NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_status(tp_set_len(m, RW, 5000, 7), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_int_equal(tp_interval(m), TIME_DEFAULT);
	m->knobs.etw_time_priv = NP_ETW_PRIV_NONE;
	assert_status(tp_set(m, 5000), NP_STATUS_SUCCESS);
	assert_int_equal(tp_interval(m), 5000);
	m->knobs.etw_time_priv = NP_ETW_PRIV_REQUIRED;
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(tp_set(m, 6000), NP_STATUS_SUCCESS);
	assert_int_equal(tp_interval(m), 6000);
}

/* ---- SY-24: the profile-source list ---- */

/* SY-24: at least 0x28 bytes, then room for header and chain. */
/* rules: SY-24 */
static void test_sysinfo_source_list_sizes(void **state)
{
	np_machine *m = *state;
	uint64_t ret = RW + 0x100;
	assert_status(list_query(m, 0x27, ret), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_int_equal(peek32(m, ret), 0x28);
	assert_status(list_query(m, 4, ret), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_int_equal(peek32(m, ret), 0x28);
	assert_status(list_query(m, 0x28, ret), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_int_equal(peek32(m, ret), 0x30);
	assert_status(list_query(m, 0x2F, ret), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_int_equal(peek32(m, ret), 0x30);
	assert_true(untouched(m, BIG + 4, BIG_SIZE - 4));            /* nothing else written */
	assert_status(list_query(m, 0x2F, 0), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_status(list_query(m, 0x30, ret), NP_STATUS_SUCCESS);
	assert_int_equal(peek32(m, ret), 0x30);
}

/* SY-24, TR-7: the Default HAL's chain at offset 8, the header untouched. */
/* rules: SY-24 TR-7 */
static void test_sysinfo_source_list_layout(void **state)
{
	np_machine *m = *state;
	assert_status(list_query(m, BIG_SIZE, 0), NP_STATUS_SUCCESS);
	assert_int_equal(peek32(m, BIG), LIST_SUB);
	assert_int_equal(peek32(m, BIG + 4), 0xCCCCCCCCu);          /* bytes 4..7: left as they are */
	uint64_t rec = BIG + 8;
	assert_int_equal(peek32(m, rec), 0);                         /* the only record */
	assert_int_equal(peek32(m, rec + 4), 0);                     /* ProfileTime */
	assert_int_equal(peek32(m, rec + 8), TIME_MIN);
	assert_int_equal(peek32(m, rec + 12), 10000000u);
	assert_int_equal(peek_pointer(m, rec + 16, 8), 0);           /* Reserved */
	static const char name[] = "Time";
	for (unsigned i = 0; i <= 4; i++)
		assert_int_equal(peek_pointer(m, rec + 0x18 + 2 * i, 2), (uint8_t)name[i]);
	assert_int_equal(peek_pointer(m, rec + 0x22, 6), 0);         /* padding to 0x28 */
	assert_true(untouched(m, BIG + 0x30, 16));
}

/* SY-24: the Emon chain: offsets add up to the return length less 8. */
/* rules: SY-24 */
static void test_sysinfo_source_list_emon(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_hal(m, NP_HAL_EMON));
	uint64_t ret = RW + 0x100;
	assert_status(list_query(m, BIG_SIZE, ret), NP_STATUS_SUCCESS);
	uint32_t total = peek32(m, ret);
	assert_int_equal(total, 792);
	static const uint32_t sources[] = { 0x00, 0x02, 0x06, 0x0A, 0x0B, 0x13,
					    0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F };
	uint64_t at = BIG + 8;
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
		assert_int_equal(peek32(m, at + 4), sources[i]);
		uint32_t next = peek32(m, at);
		if (i + 1 == sizeof sources / sizeof *sources) {
			assert_int_equal(next, 0);
			break;
		}
		assert_int_equal(next % 8, 0);
		at += next;
	}
	assert_status(list_query(m, total - 1, ret), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_int_equal(peek32(m, ret), 792);
}

/* SY-24: with no supported source, the header alone; 0x28 still needed. */
/* rules: SY-24 */
static void test_sysinfo_source_list_empty(void **state)
{
	np_machine *m = *state;
	m->hal.source[0].supported = false;
	uint64_t ret = RW + 0x100;
	assert_status(list_query(m, 0x28, ret), NP_STATUS_SUCCESS);
	assert_int_equal(peek32(m, ret), 8);
	assert_true(untouched(m, BIG + 4, 0x24));
	assert_status(list_query(m, 8, ret), NP_STATUS_INFO_LENGTH_MISMATCH);
	assert_int_equal(peek32(m, ret), 0x28);
}

/* SY-24, HL-1: Amd64 sources past 0x18 are named "Source0xNN". */
/* rules: SY-24 HL-1 */
static void test_sysinfo_source_list_amd64_names(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_hal(m, NP_HAL_AMD64));
	assert_status(list_query(m, BIG_SIZE, 0), NP_STATUS_SUCCESS);
	uint64_t at = BIG + 8;
	while (peek32(m, at + 4) != 0xBF)
		at += peek32(m, at);
	static const char name[] = "Source0xBF";
	for (unsigned i = 0; i < sizeof name; i++)
		assert_int_equal(peek_pointer(m, at + 0x18 + 2 * i, 2), (uint8_t)name[i]);
	assert_int_equal(peek32(m, at), 0);
}

/* ---- SY-25: the Trace* functions go through class 0x1F ---- */

/* SY-25: the Trace* functions' own buffer appears at 0x7FF00000 on first use. */
/* rules: SY-25 */
static void test_sysinfo_trace_library_buffer(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_int_equal(m->library_buffer, 0);
	poke32(m, RW, 0);
	poke32(m, RW + 4, 5000);
	assert_int_equal(np_trace_set_information(m, 0, 5, RW, 8).code, NP_ERROR_SUCCESS);
	assert_int_equal(m->library_buffer, LIBRARY);
	assert_non_null(np_mem_find(m, LIBRARY, 0x10000));
	unsigned regions = m->mem.count;
	assert_int_equal(tp_interval(m), 5000);                      /* the kernel got it */
	assert_int_equal(np_trace_set_information(m, 0, 5, RW, 8).code, NP_ERROR_SUCCESS);
	assert_int_equal(m->mem.count, regions);                     /* mapped once */
}

/* SY-25: if the caller's address space has something at 0x7FF00000, the
 * request cannot be expressed. */
/* rules: SY-25 */
static void test_sysinfo_trace_no_room(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_null(np_mem_map(m, LIBRARY + 0x8000, 0x10, NP_PROT_READ, 0, 0));
	poke32(m, RW, 0);
	poke32(m, RW + 4, 5000);
	assert_not_applicable(np_trace_set_information(m, 0, 5, RW, 8));
	poke32(m, RW, 0);
	assert_not_applicable(np_trace_query_information(m, 0, 5, RW, 8, 0));
	assert_not_applicable(np_trace_query_information(m, 0, 7, BIG, BIG_SIZE, 0));
	/* a source other than ProfileTime needs no buffer of the library's own */
	poke32(m, RW, 2);
	assert_int_equal(np_trace_query_information(m, 0, 5, RW, 8, 0).code, NP_ERROR_SUCCESS);
	assert_int_equal(m->library_buffer, 0);
}

/* SY-25, TR-4: a Trace* set of ProfileTime is the kernel's sub-class 3 set,
 * so TR-5 and TR-9 apply through it. */
/* rules: SY-25 TR-4 TR-5 TR-9 */
static void test_sysinfo_trace_time_through_kernel(void **state)
{
	np_machine *m = *state;
	poke32(m, RW, 0);
	poke32(m, RW + 4, 5000);
	assert_int_equal(np_trace_set_information(m, 0, 5, RW, 8).code, NP_ERROR_PRIVILEGE_NOT_HELD);
	m->profile_privilege = true;
	assert_int_equal(np_trace_set_information(m, 0, 5, RW, 8).code, NP_ERROR_SUCCESS);
	uint32_t in[2] = { TIME_SUB, 7000 };
	poke(m, BIG, in, sizeof in);
	assert_status(np_nt_set_system_information(m, PERF, BIG, 8), NP_STATUS_SUCCESS);
	poke32(m, RW, 0);
	poke32(m, RW + 4, 0xCCCCCCCCu);
	assert_int_equal(np_trace_query_information(m, 0, 5, RW, 8, 0).code, NP_ERROR_SUCCESS);
	assert_int_equal(peek32(m, RW + 4), 7000);
}

/* SY-25: the kernel answered, but the function's own write of Interval
 * into the caller's buffer faults in the caller: outside the model. */
/* rules: SY-25 */
static void test_sysinfo_trace_interval_write_faults(void **state)
{
	np_machine *m = *state;
	uint64_t last = RW + NP_PAGE_SIZE - 4;      /* Source readable, Interval off the page */
	poke32(m, last, 0);
	assert_not_applicable(np_trace_query_information(m, 0, 5, last, 8, 0));
	assert_int_equal(m->library_buffer, LIBRARY);
}

/* SY-25, TR-7, TR-8: class 7 is the kernel's chain without its header; the
 * allocation comes after the size test. */
/* rules: SY-25 TR-7 TR-8 */
static void test_sysinfo_trace_source_list_through_kernel(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_hal(m, NP_HAL_EMON));
	uint64_t ret = RW + 0x100;
	assert_status(list_query(m, BIG_SIZE, ret), NP_STATUS_SUCCESS);
	uint8_t kernel_chain[784];
	assert_true(np_mem_read(m, BIG + 8, kernel_chain, sizeof kernel_chain));
	poison(m, BIG, BIG_SIZE);
	m->alloc_failures = 1;
	assert_int_equal(np_trace_query_information(m, 0, 7, BIG, 783, ret).code, NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek32(m, ret), 784);
	assert_int_equal(m->alloc_failures, 1);
	assert_int_equal(np_trace_query_information(m, 0, 7, BIG, 784, ret).code, NP_ERROR_OUTOFMEMORY);
	assert_true(untouched(m, BIG, BIG_SIZE));
	assert_int_equal(np_trace_query_information(m, 0, 7, BIG, 784, ret).code, NP_ERROR_SUCCESS);
	assert_memory_equal(kernel_chain, np_region_block(np_mem_find(m, BIG, 784)), sizeof kernel_chain);
	assert_true(untouched(m, BIG + 784, 16));
}

/* SY-25, TR-7: with no supported source the chain is empty: needed size 0. */
/* rules: SY-25 TR-7 */
static void test_sysinfo_trace_source_list_empty(void **state)
{
	np_machine *m = *state;
	m->hal.source[0].supported = false;
	poison(m, RW + 0x100, 4);
	assert_int_equal(np_trace_query_information(m, 0, 7, BIG, 0, RW + 0x100).code, NP_ERROR_SUCCESS);
	assert_int_equal(peek32(m, RW + 0x100), 0);
	assert_true(untouched(m, BIG, 16));
	assert_int_equal(np_trace_query_information(m, 0, 7, 0, 0, RW + 0x100).code, NP_ERROR_BAD_LENGTH);
}

#define T(test, setup) cmocka_unit_test_setup_teardown(test, setup_##setup, teardown)
static const struct CMUnitTest tests[] = {
	T(test_sysinfo_set_not_exported_on_3_10, user_x86_3_10),
	T(test_sysinfo_exports_by_version, user_x64_6_2),
	T(test_sysinfo_versions_whole_table, user_x86_6_2),
	T(test_sysinfo_set_alignment, user_x86_6_2),
	T(test_sysinfo_set_alignment, user_x64_1507),
	T(test_sysinfo_query_alignment, user_x64_6_2),
	T(test_sysinfo_query_alignment, user_wow64_6_2),
	T(test_sysinfo_refusal_recorded, user_x86_6_2),
	T(test_sysinfo_kernel_not_probed, kernel_x86_6_2),
	T(test_sysinfo_kernel_not_probed, kernel_x64_6_2),
	T(test_sysinfo_set_range_x86, user_x86_6_2),
	T(test_sysinfo_set_range_x64, user_x64_6_2),
	T(test_sysinfo_set_range_wow64, user_wow64_6_2),
	T(test_sysinfo_probe_set_versus_query, user_x64_6_2),
	T(test_sysinfo_return_length_probe, user_x64_6_2),
	T(test_sysinfo_return_length_probe, user_wow64_6_2),
	T(test_sysinfo_defences_before_class, user_x86_6_1),
	T(test_sysinfo_other_classes_not_applicable, user_x64_1507),
	T(test_sysinfo_other_classes_not_applicable, kernel_x64_1507),
	T(test_sysinfo_user_fault_is_status, user_x64_6_2),
	T(test_sysinfo_user_fault_in_query, user_x86_6_2),
	T(test_sysinfo_kernel_fault, kernel_x86_6_2),
	T(test_sysinfo_kernel_fault, kernel_x64_6_2),
	T(test_sysinfo_ppca_invalid_before_6_2, kernel_x86_6_1),
	T(test_sysinfo_ppca_query_invalid, kernel_x64_1507),
	T(test_sysinfo_ppca_user_mode_denied, user_x86_6_2),
	T(test_sysinfo_ppca_user_mode_denied, user_x64_6_2),
	T(test_sysinfo_ppca_user_mode_denied, user_wow64_6_2),
	T(test_sysinfo_ppca_length_x86, kernel_x86_6_2),
	T(test_sysinfo_ppca_length_x86, kernel_x86_11),
	T(test_sysinfo_ppca_length_x64, kernel_x64_6_2),
	T(test_sysinfo_ppca_length_x64, kernel_wow64_6_2),
	T(test_sysinfo_ppca_length_status_knob, kernel_x86_6_2),
	T(test_sysinfo_ppca_length_status_knob, kernel_x64_11),
	T(test_sysinfo_ppca_length_first, user_wow64_6_2),
	T(test_sysinfo_ppca_length_first, user_x64_6_2),
	T(test_sysinfo_ppca_length_first_x86, user_x86_6_2),
	T(test_sysinfo_ppca_layout_x86, kernel_x86_6_2),
	T(test_sysinfo_ppca_layout_x64, kernel_x64_6_2),
	T(test_sysinfo_ppca_layout_x64, kernel_wow64_6_2),
	T(test_sysinfo_caller_pointer_size, user_x86_6_2),
	T(test_sysinfo_ppca_allocation_failure, kernel_x86_6_2),
	T(test_sysinfo_ppca_allocation_failure, kernel_x64_11),
	T(test_sysinfo_ppca_allocation_before_pebs, kernel_x64_6_2),
	T(test_sysinfo_ppca_kernel_vanishing_faults, kernel_x64_6_2),
	T(test_sysinfo_ppca_kernel_vanishing_faults, kernel_x86_6_2),
	T(test_sysinfo_ppca_free_does_not_allocate, kernel_x86_6_2),
	T(test_sysinfo_ppca_pebs_conditions, kernel_x86_6_2),
	T(test_sysinfo_ppca_pebs_conditions, kernel_x64_1507),
	T(test_sysinfo_ppca_dtes64, kernel_x86_6_2),
	T(test_sysinfo_ppca_dtes64, kernel_x64_6_2),
	T(test_sysinfo_ppca_dtes64, kernel_wow64_6_2),
	T(test_sysinfo_ppca_attach_then_exists, kernel_x86_6_2),
	T(test_sysinfo_ppca_attach_then_exists, kernel_x64_6_2),
	T(test_sysinfo_ppca_free, kernel_x64_1507),
	T(test_sysinfo_ppca_free_pebs_checked, kernel_x86_6_2),
	T(test_sysinfo_ppca_free_pebs_unchecked, kernel_x64_6_2),
	T(test_sysinfo_ppca_moved_thread, kernel_x64_6_2),
	T(test_sysinfo_ppca_moved_thread, kernel_x86_6_2),
	T(test_sysinfo_move_thread_inactive, kernel_x64_6_2),
	T(test_sysinfo_ppca_heterogeneous, kernel_x64_1507),
	T(test_sysinfo_cpu_defaults, user_x86_6_2),
	T(test_sysinfo_cpu_set_pebs, user_x86_6_2),
	T(test_sysinfo_ppca_addresses, kernel_x86_6_2),
	T(test_sysinfo_ppca_size_by_version, kernel_x86_6_2),
	T(test_sysinfo_ppca_size_by_version, kernel_x64_6_2),
	T(test_sysinfo_ppca_addresses, kernel_wow64_6_2),
	T(test_sysinfo_perf_on_6_1, kernel_x86_6_1),
	T(test_sysinfo_perf_short_buffer, user_x64_6_0),
	T(test_sysinfo_perf_short_buffer_kernel, kernel_x64_6_2),
	T(test_sysinfo_perf_subclass_table, kernel_x64_6_2),
	T(test_sysinfo_time_profile_length, user_x64_6_0),
	T(test_sysinfo_time_profile_shared, user_x64_6_2),
	T(test_sysinfo_time_profile_separate, user_x86_6_2),
	T(test_sysinfo_time_profile_privilege, user_x64_1507),
	T(test_sysinfo_source_list_sizes, user_x86_6_2),
	T(test_sysinfo_source_list_sizes, user_wow64_6_2),
	T(test_sysinfo_source_list_layout, user_x64_6_2),
	T(test_sysinfo_source_list_emon, kernel_x86_6_2),
	T(test_sysinfo_source_list_emon, user_x64_1507),
	T(test_sysinfo_source_list_empty, user_x64_6_2),
	T(test_sysinfo_source_list_amd64_names, user_wow64_6_2),
	T(test_sysinfo_trace_library_buffer, user_x86_6_2),
	T(test_sysinfo_trace_no_room, user_x64_6_2),
	T(test_sysinfo_trace_time_through_kernel, user_wow64_6_2),
	T(test_sysinfo_trace_source_list_through_kernel, user_x64_1507),
	T(test_sysinfo_trace_interval_write_faults, user_x86_6_2),
	T(test_sysinfo_trace_source_list_empty, user_x86_6_2),
};

NP_TEST_MAIN(tests)
