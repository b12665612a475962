/* SPDX-License-Identifier: MIT */
/* SPEC.md §TR: TraceSetInformation / TraceQueryInformation, classes 5
 * (TraceSampledProfileIntervalInfo) and 7 (TraceProfileSourceListInfo).
 *
 * Buffers live in machine memory, poisoned with 0xCC before each call; the
 * class 7 answer is parsed back as a PROFILE_SOURCE_INFO chain. */
#include "np_model_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/configure.h"
#include "ntprof/machine.h"
#include "ntprof/names.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define RW_PAGE   0x10000u     /* TRACE_PROFILE_INTERVAL buffer */
#define RETLEN    0x10800u     /* ReturnLength cell, same page */
#define RO_PAGE   0x20000u     /* read-only page */
#define LIST      0x100000u    /* source-list buffer */
#define LIST_SIZE 0x4000u
#define POISON    0xCCCCCCCCu
#define LIBRARY_BUFFER 0x7FF00000u   /* the Trace* functions' own buffers (SY-25) */

#define CLASS_INTERVAL NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO
#define CLASS_LIST     NP_TRACE_PROFILE_SOURCE_LIST_INFO

#define TIME_DEFAULT 39063u
#define TIME_MIN     1221u
#define TIME_MAX     10000000u
#define PMC_DEFAULT  0x10000u
#define PMC_MIN      0x1000u
#define PMC_MAX      0x7FFFFFFFu

/* ---- fixtures ---- */

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	return !(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC) ||
		 np_mem_map(m, RO_PAGE, NP_PAGE_SIZE, NP_PROT_READ, 0, 0xCC) ||
		 np_mem_map(m, LIST, LIST_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
}

static int boot(void **state, np_ver v, np_arch a, np_hal_kind hal)
{
	np_machine *m = machine_new_with(v, a, &hal, lay_out);
	return setup_with(state, m);
}

#define SETUP(name, v, a, hal) \
	static int setup_##name(void **state) { return boot(state, v, a, hal); }
SETUP(x86_6_0, NP_V6_0, NP_X86, NP_HAL_DEFAULT)
SETUP(x64_6_0, NP_V6_0, NP_X64, NP_HAL_DEFAULT)
SETUP(x86_6_1, NP_V6_1, NP_X86, NP_HAL_DEFAULT)
SETUP(x64_6_1, NP_V6_1, NP_X64, NP_HAL_EMON)
SETUP(wow64_6_1, NP_V6_1, NP_WOW64, NP_HAL_AMD64)
SETUP(x86_6_2, NP_V6_2, NP_X86, NP_HAL_DEFAULT)
SETUP(x86_6_2_emon, NP_V6_2, NP_X86, NP_HAL_EMON)
SETUP(x64_6_2, NP_V6_2, NP_X64, NP_HAL_DEFAULT)
SETUP(x64_6_2_emon, NP_V6_2, NP_X64, NP_HAL_EMON)
SETUP(wow64_6_2_amd64, NP_V6_2, NP_WOW64, NP_HAL_AMD64)
SETUP(x64_1507, NP_V1507, NP_X64, NP_HAL_DEFAULT)
SETUP(x64_1507_emon, NP_V1507, NP_X64, NP_HAL_EMON)
SETUP(x64_1507_amd64, NP_V1507, NP_X64, NP_HAL_AMD64)
#undef SETUP

/* ---- helpers ---- */

static void poke(np_machine *m, uint64_t addr, uint32_t v)
{
	assert_true(np_mem_write(m, addr, &v, sizeof v));
}

static uint32_t peek(np_machine *m, uint64_t addr)
{
	uint32_t v = 0;
	assert_true(np_mem_read(m, addr, &v, sizeof v));
	return v;
}

static void assert_win32(np_result r, uint32_t code)
{
	if (r.kind != NP_RESULT_WIN32)
		fail_msg("result kind %d, want WIN32 %u", (int)r.kind, code);
	assert_int_equal(r.code, code);
}

static void assert_kind(np_result r, np_result_kind kind)
{
	assert_int_equal(r.kind, kind);
	if (kind == NP_RESULT_NOT_APPLICABLE)
		assert_non_null(r.why);
}

/* TraceSetInformation(0, class 5, {source, interval}, 8). */
static np_result tsi(np_machine *m, uint32_t source, uint32_t interval)
{
	poke(m, RW_PAGE, source);
	poke(m, RW_PAGE + 4, interval);
	return np_trace_set_information(m, 0, CLASS_INTERVAL, RW_PAGE, 8);
}

/* TraceQueryInformation(0, class 5, {source, poison}, length, &retlen);
 * the ReturnLength cell is poisoned first. */
static np_result tqi_len(np_machine *m, uint32_t source, uint32_t length)
{
	poke(m, RW_PAGE, source);
	poke(m, RW_PAGE + 4, POISON);
	poke(m, RETLEN, POISON);
	return np_trace_query_information(m, 0, CLASS_INTERVAL, RW_PAGE, length, RETLEN);
}

/* A successful class 5 query: the interval it reports. */
static uint32_t tqi_ok(np_machine *m, uint32_t source)
{
	assert_win32(tqi_len(m, source, 8), NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RETLEN), 8);
	assert_int_equal(peek(m, RW_PAGE), source);
	return peek(m, RW_PAGE + 4);
}

/* NtQueryIntervalProfile, as a second opinion on what a set did. */
static uint32_t nt_query(np_machine *m, uint32_t source)
{
	poke(m, RW_PAGE + 0x100, POISON);
	np_result r = np_nt_query_interval_profile(m, source, RW_PAGE + 0x100);
	assert_int_equal(r.kind, NP_RESULT_STATUS);
	assert_int_equal(r.code, NP_STATUS_SUCCESS);
	return peek(m, RW_PAGE + 0x100);
}

static void kernel_set(np_machine *m, uint32_t interval, uint32_t source)
{
	np_mode mode = m->previous_mode;
	m->previous_mode = NP_MODE_KERNEL;
	np_result r = np_nt_set_interval_profile(m, interval, source);
	assert_int_equal(r.code, NP_STATUS_SUCCESS);
	m->previous_mode = mode;
}

/* Every byte of [addr, addr+len) still 0xCC. */
static void assert_poisoned(np_machine *m, uint64_t addr, size_t len)
{
	uint8_t b;
	for (size_t i = 0; i < len; i++) {
		assert_true(np_mem_read(m, addr + i, &b, 1));
		if (b != 0xCC)
			fail_msg("byte at 0x%llx written (0x%02X)", (unsigned long long)(addr + i), b);
	}
}

static void repoison_list(np_machine *m)
{
	np_region *r = np_mem_find(m, LIST, LIST_SIZE);
	assert_non_null(r);
	memset(np_region_block(r), 0xCC, LIST_SIZE);
	poke(m, RETLEN, POISON);
}

/* ---- class 7: what the chain must hold (HL-1, HL-2) and its parser ---- */

typedef struct {
	uint32_t source, min, max;
	char description[32];
} want_t;

static uint32_t round8(uint32_t n) { return (n + 7u) & ~7u; }

/* TR-7: a record is 0x18 bytes plus the UTF-16 description and its NUL,
 * rounded up to 8. */
static uint32_t record_size(const char *description)
{
	return round8(0x18u + 2u * ((uint32_t)strlen(description) + 1u));
}

static size_t expected_list(np_hal_kind kind, want_t *out)
{
	static const uint32_t emon[] = { 0x00, 0x02, 0x06, 0x0A, 0x0B, 0x13 };
	static const uint32_t amd64[] = { 0x00, 0x02, 0x06, 0x08, 0x09, 0x0B, 0x0D, 0x14, 0x15 };
	static const char *const emon_specific[] = {
		"UnhaltedCoreCycles", "InstructionRetired", "UnhaltedReferenceCycles",
		"LLCReference", "LLCMisses", "BranchInstructionRetired", "BranchMispredictsRetired",
	};
	const uint32_t *pub = kind == NP_HAL_EMON ? emon : amd64;
	size_t npub = kind == NP_HAL_DEFAULT ? 1 : kind == NP_HAL_EMON ? 6 : 9;
	size_t n = 0;
	for (size_t i = 0; i < npub; i++, n++) {
		out[n].source = pub[i];
		out[n].min = pub[i] ? PMC_MIN : TIME_MIN;
		out[n].max = pub[i] ? PMC_MAX : TIME_MAX;
		snprintf(out[n].description, sizeof out[n].description, "%s",
			 np_source_name(pub[i]) + 7);   /* the name less "Profile" */
	}
	uint32_t last = kind == NP_HAL_EMON ? 0x1F : kind == NP_HAL_AMD64 ? 0xBF : 0x18;
	for (uint32_t s = 0x19; s <= last; s++, n++) {
		out[n].source = s;
		out[n].min = PMC_MIN;
		out[n].max = PMC_MAX;
		if (kind == NP_HAL_EMON)
			snprintf(out[n].description, sizeof out[n].description, "%s",
				 emon_specific[s - 0x19]);
		else
			snprintf(out[n].description, sizeof out[n].description, "Source0x%02X", s);
	}
	return n;
}

static uint32_t expected_size(const want_t *w, size_t n)
{
	uint32_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += record_size(w[i].description);
	return total;
}

/* Walks the chain at buf (len bytes valid) and checks it record by record
 * against want[0..n): fields, Reserved 0, the description, NextEntryOffset =
 * the rounded record size and 0 on the last, 8-byte alignment; returns the
 * bytes the chain spans. */
static uint32_t check_chain(np_machine *m, uint64_t buf, uint32_t len, const want_t *want, size_t n)
{
	uint32_t at = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t fixed[4];
		uint64_t reserved;
		assert_true(at % 8 == 0);
		assert_true(at + 0x18 <= len);
		assert_true(np_mem_read(m, buf + at, fixed, sizeof fixed));
		assert_true(np_mem_read(m, buf + at + 0x10, &reserved, sizeof reserved));
		if (fixed[1] != want[i].source)
			fail_msg("record %zu: Source 0x%X, want 0x%X", i, fixed[1], want[i].source);
		assert_int_equal(fixed[2], want[i].min);
		assert_int_equal(fixed[3], want[i].max);
		assert_int_equal(reserved, 0);
		size_t chars = strlen(want[i].description);
		for (size_t c = 0; c <= chars; c++) {
			uint16_t wc;
			assert_true(np_mem_read(m, buf + at + 0x18 + 2 * c, &wc, sizeof wc));
			uint16_t expect = c < chars ? (uint8_t)want[i].description[c] : 0;
			if (wc != expect)
				fail_msg("record %zu (0x%X) description char %zu: 0x%04X, want 0x%04X",
					 i, want[i].source, c, wc, expect);
		}
		uint32_t size = record_size(want[i].description);
		if (i + 1 < n) {
			if (fixed[0] != size)
				fail_msg("record %zu: NextEntryOffset 0x%X, want 0x%X", i, fixed[0], size);
		} else {
			assert_int_equal(fixed[0], 0);   /* the last record ends the chain */
		}
		at += size;
	}
	return at;
}

/* ---- TR-0 ---- */

/* TR-0: on 6.0 neither function exists (x86 and x64). */
/* rules: TR-0 */
static void test_trace_6_0_not_exported(void **state)
{
	np_machine *m = *state;
	assert_kind(tsi(m, 0, 50000), NP_RESULT_NOT_EXPORTED);
	assert_kind(tqi_len(m, 0, 8), NP_RESULT_NOT_EXPORTED);
	assert_int_equal(peek(m, RETLEN), POISON);
	assert_int_equal(peek(m, RW_PAGE + 4), POISON);
	assert_int_equal(nt_query(m, 0), TIME_DEFAULT);
}

/* TR-0, TR-1: on 6.1 TraceSetInformation exists (and answers NOT_SUPPORTED
 * for class 5); TraceQueryInformation does not. */
/* rules: TR-0 TR-1 */
static void test_trace_6_1_set_only(void **state)
{
	np_machine *m = *state;
	assert_win32(tsi(m, 0, 50000), NP_ERROR_NOT_SUPPORTED);
	assert_kind(tqi_len(m, 0, 8), NP_RESULT_NOT_EXPORTED);
	assert_int_equal(peek(m, RETLEN), POISON);
}

/* TR-0: on 6.2 both exist. */
/* rules: TR-0 */
static void test_trace_6_2_both_exported(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_win32(tsi(m, 0, 50000), NP_ERROR_SUCCESS);
	assert_int_equal(tqi_ok(m, 0), 50000);
}

/* TR-0: the thresholds over the whole table, every architecture. */
/* rules: TR-0 */
static void test_trace_exports_whole_table(void **state)
{
	np_machine *m = *state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			if (!np_arch_exists((np_ver)v, (np_arch)a))
				continue;
			assert_null(np_machine_init(m, (np_ver)v, (np_arch)a));
			assert_null(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE,
					       NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
			m->profile_privilege = true;
			np_result s = tsi(m, 0, 50000);
			np_result q = tqi_len(m, 0, 8);
			assert_int_equal(s.kind == NP_RESULT_NOT_EXPORTED, v < NP_V6_1);
			assert_int_equal(q.kind == NP_RESULT_NOT_EXPORTED, v < NP_V6_2);
			assert_int_equal(np_has_trace_set_information((np_ver)v), v >= NP_V6_1);
			assert_int_equal(np_has_trace_query_information((np_ver)v), v >= NP_V6_2);
			if (v >= NP_V6_2) {
				assert_win32(s, NP_ERROR_SUCCESS);
				assert_win32(q, NP_ERROR_SUCCESS);
			}
			np_machine_fini(m);
		}
	}
}

/* ---- TR-1 ---- */

/* TR-1: 6.1 answers NOT_SUPPORTED for classes 5 and 7 and changes nothing. */
/* rules: TR-1 */
static void test_trace_6_1_classes_not_supported(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_win32(tsi(m, 0, 50000), NP_ERROR_NOT_SUPPORTED);
	assert_win32(tsi(m, 0x02, 0x2000), NP_ERROR_NOT_SUPPORTED);  /* Emon and Amd64 */
	assert_win32(np_trace_set_information(m, 0, CLASS_LIST, RW_PAGE, 8),
		     NP_ERROR_NOT_SUPPORTED);
	assert_int_equal(nt_query(m, 0), TIME_DEFAULT);
	assert_int_equal(nt_query(m, 0x02), PMC_DEFAULT);
}

/* TR-1: from 6.2 class 7 is query-only: setting it is NOT_SUPPORTED. */
/* rules: TR-1 */
static void test_trace_class_7_set_not_supported(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_true(np_trace_handles_profile_classes(m->version));
	assert_win32(np_trace_set_information(m, 0, CLASS_LIST, LIST, LIST_SIZE),
		     NP_ERROR_NOT_SUPPORTED);
	assert_win32(np_trace_set_information(m, 0, CLASS_LIST, RW_PAGE, 8),
		     NP_ERROR_NOT_SUPPORTED);
	assert_poisoned(m, LIST, 0x100);
	assert_win32(tsi(m, 0, 50000), NP_ERROR_SUCCESS);
}

/* ---- TR-2 ---- */

/* TR-2: a non-zero SessionHandle is INVALID_PARAMETER; nothing is set. */
/* rules: TR-2 */
static void test_trace_session_must_be_zero(void **state)
{
	np_machine *m = *state;
	static const uint64_t sessions[] = { 1, 0xFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull };
	m->profile_privilege = true;
	poke(m, RW_PAGE, 0);
	poke(m, RW_PAGE + 4, 50000);
	for (size_t i = 0; i < 3; i++) {
		assert_win32(np_trace_set_information(m, sessions[i], CLASS_INTERVAL, RW_PAGE, 8),
			     NP_ERROR_INVALID_PARAMETER);
		assert_win32(np_trace_query_information(m, sessions[i], CLASS_INTERVAL, RW_PAGE, 8,
							RETLEN),
			     NP_ERROR_INVALID_PARAMETER);
		assert_win32(np_trace_query_information(m, sessions[i], CLASS_LIST, LIST,
							LIST_SIZE, RETLEN),
			     NP_ERROR_INVALID_PARAMETER);
	}
	assert_int_equal(nt_query(m, 0), TIME_DEFAULT);
	assert_poisoned(m, LIST, 0x100);
	assert_int_equal(NP_ERROR_INVALID_PARAMETER, 87);
}

/* TR-2: the session is checked before the length (two faults: 87, not 24). */
/* rules: TR-2 */
static void test_trace_session_checked_before_length(void **state)
{
	np_machine *m = *state;
	assert_win32(np_trace_set_information(m, 1, CLASS_INTERVAL, RW_PAGE, 7),
		     NP_ERROR_INVALID_PARAMETER);
	assert_win32(np_trace_query_information(m, 1, CLASS_INTERVAL, RW_PAGE, 9, RETLEN),
		     NP_ERROR_INVALID_PARAMETER);
	assert_win32(np_trace_query_information(m, 1, CLASS_LIST, 0, 0, RETLEN),
		     NP_ERROR_INVALID_PARAMETER);
	/* the same vectors with session 0: the length error (fail-twin) */
	assert_win32(np_trace_set_information(m, 0, CLASS_INTERVAL, RW_PAGE, 7),
		     NP_ERROR_BAD_LENGTH);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, 0, 0, RETLEN),
		     NP_ERROR_BAD_LENGTH);
}

/* ---- TR-3 ---- */

/* TR-3: TraceSetInformation class 5 wants exactly 8 bytes. */
/* rules: TR-3 */
static void test_trace_set_length_exactly_8(void **state)
{
	np_machine *m = *state;
	static const uint32_t bad[] = { 0, 4, 7, 9, 16, 0xFFFFFFFFu };
	m->profile_privilege = true;
	poke(m, RW_PAGE, 0);
	poke(m, RW_PAGE + 4, 50000);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_win32(np_trace_set_information(m, 0, CLASS_INTERVAL, RW_PAGE, bad[i]),
			     NP_ERROR_BAD_LENGTH);
	assert_int_equal(nt_query(m, 0), TIME_DEFAULT);
	assert_win32(np_trace_set_information(m, 0, CLASS_INTERVAL, RW_PAGE, 8), NP_ERROR_SUCCESS);
	assert_int_equal(nt_query(m, 0), 50000);
	assert_int_equal(NP_ERROR_BAD_LENGTH, 24);
}

/* TR-3 K-TQI-RETLEN=always (default): a wrong length is BAD_LENGTH, the
 * interval is not written, *ReturnLength = 8 all the same. */
/* rules: TR-3 */
static void test_trace_query_length_retlen_always(void **state)
{
	np_machine *m = *state;
	static const uint32_t bad[] = { 0, 4, 7, 9, 0xFFFFFFFFu };
	assert_int_equal(m->knobs.tqi_retlen, NP_RETLEN_ALWAYS);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_win32(tqi_len(m, 0, bad[i]), NP_ERROR_BAD_LENGTH);
		assert_int_equal(peek(m, RETLEN), 8);
		assert_int_equal(peek(m, RW_PAGE + 4), POISON);
	}
	assert_int_equal(tqi_ok(m, 0), TIME_DEFAULT);
}

/* TR-3 K-TQI-RETLEN=right-length: a wrong length leaves *ReturnLength alone;
 * the right length writes it. */
/* rules: TR-3 */
static void test_trace_query_length_retlen_on_success(void **state)
{
	np_machine *m = *state;
	m->knobs.tqi_retlen = NP_RETLEN_RIGHT_LENGTH;
	assert_win32(tqi_len(m, 0, 7), NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek(m, RETLEN), POISON);
	assert_int_equal(peek(m, RW_PAGE + 4), POISON);
	assert_win32(tqi_len(m, 0, 9), NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek(m, RETLEN), POISON);
	assert_int_equal(tqi_ok(m, 0), TIME_DEFAULT);
}

/* TR-3: ReturnLength is optional: NULL works with the right length and
 * with the wrong one. */
/* rules: TR-3 */
static void test_trace_query_retlen_null(void **state)
{
	np_machine *m = *state;
	poke(m, RW_PAGE, 0);
	poke(m, RW_PAGE + 4, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_INTERVAL, RW_PAGE, 8, 0),
		     NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RW_PAGE + 4), TIME_DEFAULT);
	assert_win32(np_trace_query_information(m, 0, CLASS_INTERVAL, RW_PAGE, 7, 0),
		     NP_ERROR_BAD_LENGTH);
}

/* TR-3 K-TQI-RETLEN=always, TR-6: a right length whose kernel query then
 * fails still reports *ReturnLength = 8. */
/* rules: TR-3 TR-6 */
static void test_trace_query_retlen_always_when_kernel_fails(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_CHECKED;   /* a kernel query that fails */
	poke(m, RETLEN, POISON);
	poke(m, RW_PAGE + 0x202, 0x13);   /* TRACE_PROFILE_INTERVAL at a misaligned address */
	assert_win32(np_trace_query_information(m, 0, CLASS_INTERVAL, RW_PAGE + 0x202, 8, RETLEN),
		     NP_ERROR_NOACCESS);
	assert_int_equal(peek(m, RETLEN), 8);
}

/* TR-3 K-TQI-RETLEN=right-length, TR-6: *ReturnLength depends on the length
 * only: with a right length it is written even when the kernel query then
 * fails (misaligned Interval, DATATYPE_MISALIGNMENT -> 998). */
/* rules: TR-3 TR-6 */
static void test_trace_query_retlen_right_length_when_kernel_fails(void **state)
{
	np_machine *m = *state;
	m->knobs.tqi_retlen = NP_RETLEN_RIGHT_LENGTH;
	m->knobs.qi_align = NP_QI_ALIGN_CHECKED;   /* a kernel query that fails */
	poke(m, RETLEN, POISON);
	poke(m, RW_PAGE + 0x202, 0x13);
	assert_win32(np_trace_query_information(m, 0, CLASS_INTERVAL, RW_PAGE + 0x202, 8, RETLEN),
		     NP_ERROR_NOACCESS);
	/* the length was right, so *ReturnLength is written before the kernel call fails */
	assert_int_equal(peek(m, RETLEN), 8);
}

/* ---- TR-4 ---- */

/* TR-4 K-ETW-TIME=shared (default): source 0 is the HAL's ProfileTime
 * interval, set through the kernel path with clamping, and logs no 0x0F48
 * event even when traced. */
/* rules: TR-4 */
static void test_trace_time_shared(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	assert_int_equal(m->knobs.etw_time, NP_ETW_TIME_SHARED);
	assert_win32(tsi(m, 0, 50000), NP_ERROR_SUCCESS);
	assert_int_equal(nt_query(m, 0), 50000);
	assert_int_equal(tqi_ok(m, 0), 50000);
	assert_win32(tsi(m, 0, 0), NP_ERROR_SUCCESS);
	assert_int_equal(nt_query(m, 0), TIME_MIN);
	assert_win32(tsi(m, 0, 0xFFFFFFFFu), NP_ERROR_SUCCESS);
	assert_int_equal(tqi_ok(m, 0), TIME_MAX);
	assert_int_equal(m->event_count, 0);
	/* and the other direction: a native set is what the Trace query reports */
	kernel_set(m, 7777, 0);
	assert_int_equal(tqi_ok(m, 0), 7777);
}

/* TR-4 K-ETW-TIME=shared (SI-4, SI-5 K-ERRATA): the kernel path applies the
 * errata cap and reaches every active processor. */
/* rules: TR-4 SI-4 SI-5 */
static void test_trace_time_shared_kernel_path(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->errata_interval = 20000;
	assert_null(np_machine_set_cpus(m, 2));
	assert_win32(tsi(m, 0, 30000), NP_ERROR_SUCCESS);
	m->current_cpu = 1;
	assert_int_equal(nt_query(m, 0), 20000);
	assert_int_equal(tqi_ok(m, 0), 20000);
}

/* TR-4 K-ETW-TIME=separate: its own variable; the HAL's interval stays, and
 * native sets do not reach it; no event. */
/* rules: TR-4 */
static void test_trace_time_separate(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	m->knobs.etw_time = NP_ETW_TIME_SEPARATE;
	assert_win32(tsi(m, 0, 50000), NP_ERROR_SUCCESS);
	assert_int_equal(nt_query(m, 0), TIME_DEFAULT);
	assert_int_equal(tqi_ok(m, 0), 50000);
	assert_int_equal(m->event_count, 0);
	kernel_set(m, 7777, 0);
	assert_int_equal(tqi_ok(m, 0), 50000);
	assert_int_equal(nt_query(m, 0), 7777);
}

/* TR-4 K-ETW-TIME=separate: never set, it reads as the HAL's ProfileTime
 * default, not its current interval. */
/* rules: TR-4 */
static void test_trace_time_separate_never_set(void **state)
{
	np_machine *m = *state;
	m->knobs.etw_time = NP_ETW_TIME_SEPARATE;
	kernel_set(m, 7777, 0);
	assert_int_equal(tqi_ok(m, 0), TIME_DEFAULT);
}

/* ---- TR-5 ---- */

/* TR-5 K-ETW-TIME-PRIV=required (default): no privilege -> 1314, unchanged;
 * held -> success. */
/* rules: TR-5 */
static void test_trace_time_privilege_required(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->knobs.etw_time_priv, NP_ETW_PRIV_REQUIRED);
	assert_false(m->profile_privilege);
	assert_win32(tsi(m, 0, 50000), NP_ERROR_PRIVILEGE_NOT_HELD);
	assert_int_equal(nt_query(m, 0), TIME_DEFAULT);
	assert_int_equal(tqi_ok(m, 0), TIME_DEFAULT);
	m->profile_privilege = true;
	assert_win32(tsi(m, 0, 50000), NP_ERROR_SUCCESS);
	assert_int_equal(nt_query(m, 0), 50000);
	assert_int_equal(NP_ERROR_PRIVILEGE_NOT_HELD, 1314);
}

/* TR-5 K-ETW-TIME-PRIV=required, K-ETW-TIME=separate: the separate variable
 * is guarded too. */
/* rules: TR-5 */
static void test_trace_time_privilege_required_separate(void **state)
{
	np_machine *m = *state;
	m->knobs.etw_time = NP_ETW_TIME_SEPARATE;
	assert_win32(tsi(m, 0, 50000), NP_ERROR_PRIVILEGE_NOT_HELD);
	assert_int_equal(tqi_ok(m, 0), TIME_DEFAULT);
}

/* TR-5 K-ETW-TIME-PRIV=none: an unprivileged caller sets it. */
/* rules: TR-5 */
static void test_trace_time_privilege_none(void **state)
{
	np_machine *m = *state;
	m->knobs.etw_time_priv = NP_ETW_PRIV_NONE;
	assert_false(m->profile_privilege);
	assert_win32(tsi(m, 0, 50000), NP_ERROR_SUCCESS);
	assert_int_equal(nt_query(m, 0), 50000);
	assert_int_equal(tqi_ok(m, 0), 50000);
}

/* TR-5: querying needs nothing: unprivileged, low integrity. */
/* rules: TR-5 */
static void test_trace_time_query_needs_nothing(void **state)
{
	np_machine *m = *state;
	m->integrity = NP_INTEGRITY_LOW;
	assert_false(m->profile_privilege);
	assert_int_equal(tqi_ok(m, 0), TIME_DEFAULT);
	m->knobs.etw_time = NP_ETW_TIME_SEPARATE;
	assert_int_equal(tqi_ok(m, 0), TIME_DEFAULT);
}

/* ---- TR-6 ---- */

/* TR-6 (SI-6): source != 0 goes through NtSetIntervalProfile: applied, and
 * traced with the 0x0F48 event. */
/* rules: TR-6 SI-6 */
static void test_trace_pmc_set_via_native_call(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	assert_win32(tsi(m, 0x13, 0x2000), NP_ERROR_SUCCESS);
	assert_int_equal(nt_query(m, 0x13), 0x2000);
	assert_int_equal(tqi_ok(m, 0x13), 0x2000);
	assert_int_equal(m->event_count, 1);
	assert_int_equal(m->event[0].hook, NP_HOOK_SAMPLED_PROFILE_SET_INTERVAL);
	assert_int_equal(m->event[0].source, 0x13);
	assert_int_equal(m->event[0].old_interval, PMC_DEFAULT);
	assert_int_equal(m->event[0].new_interval, 0x2000);
	assert_win32(tsi(m, 0x13, 0), NP_ERROR_SUCCESS);
	assert_int_equal(m->event[1].new_interval, PMC_MIN);
}

/* TR-6, TR-9: on 6.2+ without the privilege the native status becomes
 * ERROR_PRIVILEGE_NOT_HELD, for PMC sources and AlignmentFixup alike. */
/* rules: TR-6 TR-9 */
static void test_trace_pmc_set_privilege_not_held(void **state)
{
	np_machine *m = *state;
	m->tracing = NP_TRACING_ON;
	assert_win32(tsi(m, 0x13, 0x2000), NP_ERROR_PRIVILEGE_NOT_HELD);
	assert_win32(tsi(m, NP_PROFILE_ALIGNMENT_FIXUP, 5), NP_ERROR_PRIVILEGE_NOT_HELD);
	assert_win32(tsi(m, 0xFFFFFFFFu, 5), NP_ERROR_PRIVILEGE_NOT_HELD);
	assert_int_equal(nt_query(m, 0x13), PMC_DEFAULT);
	assert_int_equal(nt_query(m, NP_PROFILE_ALIGNMENT_FIXUP), 0);
	assert_int_equal(m->event_count, 0);
}

/* TR-6 (SI-2, SI-3, QI-4, QI-5): the native answers pass through: any source
 * succeeds; AlignmentFixup is kept as given; unsupported reads 0. */
/* rules: TR-6 SI-2 SI-3 QI-4 QI-5 */
static void test_trace_other_sources_pass_through(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_win32(tsi(m, NP_PROFILE_ALIGNMENT_FIXUP, 0xFFFFFFFFu), NP_ERROR_SUCCESS);
	assert_int_equal(tqi_ok(m, NP_PROFILE_ALIGNMENT_FIXUP), 0xFFFFFFFFu);
	assert_win32(tsi(m, 0x02, 0x3000), NP_ERROR_SUCCESS);
	assert_int_equal(tqi_ok(m, 0x02), 0);           /* Default HAL: unsupported */
	assert_win32(tsi(m, 0xFFFFFFFFu, 1), NP_ERROR_SUCCESS);
	assert_int_equal(tqi_ok(m, 0xFFFFFFFFu), 0);
	m->profile_privilege = false;                   /* queries need no privilege */
	assert_int_equal(tqi_ok(m, NP_PROFILE_ALIGNMENT_FIXUP), 0xFFFFFFFFu);
}

/* TR-6, TR-9: a read-only TRACE_PROFILE_INTERVAL: NtQueryIntervalProfile's
 * ACCESS_VIOLATION becomes ERROR_NOACCESS, nothing written. */
/* rules: TR-6 TR-9 */
static void test_trace_pmc_query_read_only_buffer(void **state)
{
	np_machine *m = *state;
	np_region *r = np_mem_find(m, RO_PAGE, 8);
	assert_non_null(r);
	const uint32_t source = 0x13;
	memcpy(np_region_block(r), &source, sizeof source);  /* the caller filled it before protecting it */
	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_INTERVAL, RO_PAGE, 8, RETLEN),
		     NP_ERROR_NOACCESS);
	assert_int_equal(peek(m, RO_PAGE + 4), POISON);
	assert_int_equal(NP_ERROR_NOACCESS, 998);
}

/* TR-6, TR-9: a misaligned buffer, with K-QI-ALIGN=checked:
 * DATATYPE_MISALIGNMENT becomes NOACCESS; the same buffer with source 0 (no
 * native call, TR-4) succeeds. */
/* rules: TR-6 TR-9 TR-4 */
static void test_trace_pmc_query_misaligned_buffer(void **state)
{
	np_machine *m = *state;
	m->knobs.qi_align = NP_QI_ALIGN_CHECKED;
	poke(m, RW_PAGE + 0x302, 0x13);
	poke(m, RW_PAGE + 0x306, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_INTERVAL, RW_PAGE + 0x302, 8, 0),
		     NP_ERROR_NOACCESS);
	assert_int_equal(peek(m, RW_PAGE + 0x306), POISON);
	poke(m, RW_PAGE + 0x302, 0);
	assert_win32(np_trace_query_information(m, 0, CLASS_INTERVAL, RW_PAGE + 0x302, 8, 0),
		     NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RW_PAGE + 0x306), TIME_DEFAULT);
}

/* ---- TR-7 ---- */

/* TR-7: Default HAL: one record, 40 bytes: NULL buffer and too small give
 * BAD_LENGTH with the size; exactly 40 gives the chain. */
/* rules: TR-7 */
static void test_trace_source_list_default_hal(void **state)
{
	np_machine *m = *state;
	want_t want[1];
	assert_int_equal(expected_list(NP_HAL_DEFAULT, want), 1);
	uint32_t needed = expected_size(want, 1);
	assert_int_equal(needed, 40);

	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, 0, 0, RETLEN),
		     NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek(m, RETLEN), needed);

	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, 0, LIST_SIZE, RETLEN),
		     NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek(m, RETLEN), needed);

	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, needed - 1, RETLEN),
		     NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek(m, RETLEN), needed);
	assert_poisoned(m, LIST, LIST_SIZE);

	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, needed, RETLEN),
		     NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RETLEN), needed);
	assert_int_equal(check_chain(m, LIST, needed, want, 1), needed);
	assert_poisoned(m, LIST + needed, 64);
}

/* TR-7: the same record on a 32-bit kernel (the layout is the same). */
/* rules: TR-7 */
static void test_trace_source_list_x86(void **state)
{
	np_machine *m = *state;
	want_t want[1];
	expected_list(NP_HAL_DEFAULT, want);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, LIST_SIZE, RETLEN),
		     NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RETLEN), 40);
	assert_int_equal(check_chain(m, LIST, 40, want, 1), 40);
}

/* Runs the size/too-small/exact/larger sequence for the machine's HAL. */
static void check_full_list(np_machine *m, np_hal_kind kind)
{
	want_t want[256];
	size_t n = expected_list(kind, want);
	uint32_t needed = expected_size(want, n);
	assert_true(needed <= LIST_SIZE);

	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, 0, 0, RETLEN),
		     NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek(m, RETLEN), needed);

	repoison_list(m);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, needed - 1, RETLEN),
		     NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek(m, RETLEN), needed);
	assert_poisoned(m, LIST, LIST_SIZE);

	repoison_list(m);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, needed, RETLEN),
		     NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RETLEN), needed);
	assert_int_equal(check_chain(m, LIST, needed, want, n), needed);

	repoison_list(m);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, LIST_SIZE, RETLEN),
		     NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RETLEN), needed);
	assert_int_equal(check_chain(m, LIST, needed, want, n), needed);
	assert_poisoned(m, LIST + needed, LIST_SIZE - needed);
}

/* TR-7 (HL-1, HL-2): Emon: 13 records in ascending order with names, limits
 * and rounded offsets. */
/* rules: TR-7 HL-1 HL-2 */
static void test_trace_source_list_emon(void **state)
{
	check_full_list(*state, NP_HAL_EMON);
}

/* TR-7 (HL-1): the Emon chain from a 32-bit 6.2 kernel. */
/* rules: TR-7 HL-1 */
static void test_trace_source_list_emon_x86(void **state)
{
	check_full_list(*state, NP_HAL_EMON);
}

/* TR-7 (HL-1): Amd64: 176 records, 0x19..0xBF described "Source0xNN". */
/* rules: TR-7 HL-1 */
static void test_trace_source_list_amd64(void **state)
{
	want_t want[256];
	assert_int_equal(expected_list(NP_HAL_AMD64, want), 9 + 0xBF - 0x19 + 1);
	check_full_list(*state, NP_HAL_AMD64);
}

/* TR-7 (HL-1): the Amd64 chain for a WOW64 caller. */
/* rules: TR-7 HL-1 */
static void test_trace_source_list_amd64_wow64(void **state)
{
	check_full_list(*state, NP_HAL_AMD64);
}

/* TR-7, KS-2: the last source of the HAL's table (0xFF) is listed when the
 * HAL supports it (no HAL of HL-1 does; the chain must still reach it). */
/* rules: TR-7 KS-2 */
static void test_trace_source_list_last_source(void **state)
{
	np_machine *m = *state;
	want_t want[2];
	expected_list(NP_HAL_DEFAULT, want);
	np_hal_source *last = &m->hal.source[NP_HAL_SOURCES - 1];
	last->supported = true;
	last->min = PMC_MIN;
	last->max = PMC_MAX;
	want[1].source = NP_HAL_SOURCES - 1;
	want[1].min = PMC_MIN;
	want[1].max = PMC_MAX;
	snprintf(want[1].description, sizeof want[1].description, "Source0xFF");
	uint32_t needed = expected_size(want, 2);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, LIST_SIZE, RETLEN),
		     NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RETLEN), needed);
	assert_int_equal(check_chain(m, LIST, needed, want, 2), needed);
}

/* TR-7 (HL-2): MinInterval/MaxInterval are the HAL's current limits. */
/* rules: TR-7 HL-2 */
static void test_trace_source_list_reports_hal_limits(void **state)
{
	np_machine *m = *state;
	want_t want[1];
	expected_list(NP_HAL_DEFAULT, want);
	m->hal.source[0x00].min = 2000;
	m->hal.source[0x00].max = 50000;
	want[0].min = 2000;
	want[0].max = 50000;
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, 40, RETLEN),
		     NP_ERROR_SUCCESS);
	assert_int_equal(check_chain(m, LIST, 40, want, 1), 40);
}

/* TR-7: ReturnLength is optional in both outcomes. */
/* rules: TR-7 */
static void test_trace_source_list_retlen_null(void **state)
{
	np_machine *m = *state;
	want_t want[1];
	expected_list(NP_HAL_DEFAULT, want);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, 39, 0),
		     NP_ERROR_BAD_LENGTH);
	assert_poisoned(m, LIST, 64);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, 40, 0), NP_ERROR_SUCCESS);
	assert_int_equal(check_chain(m, LIST, 40, want, 1), 40);
}

/* TR-7 K-SRCLIST-LEN=more-data: NULL and too small give ERROR_MORE_DATA with
 * the needed size; exact still succeeds. */
/* rules: TR-7 */
static void test_trace_source_list_more_data(void **state)
{
	np_machine *m = *state;
	want_t want[32];
	size_t n = expected_list(NP_HAL_EMON, want);
	uint32_t needed = expected_size(want, n);
	m->knobs.srclist_len = NP_SRCLIST_MORE_DATA;
	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, 0, 0, RETLEN), NP_ERROR_MORE_DATA);
	assert_int_equal(peek(m, RETLEN), needed);
	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, needed - 8, RETLEN),
		     NP_ERROR_MORE_DATA);
	assert_int_equal(peek(m, RETLEN), needed);
	assert_poisoned(m, LIST, LIST_SIZE);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, needed, RETLEN),
		     NP_ERROR_SUCCESS);
	assert_int_equal(check_chain(m, LIST, needed, want, n), needed);
	assert_int_equal(NP_ERROR_MORE_DATA, 234);
}

/* TR-7 K-SRCLIST-LEN=bad-length (default), K-TQI-RETLEN=right-length: class 7
 * always reports the needed size (the class 5 knob does not apply). */
/* rules: TR-7 */
static void test_trace_source_list_bad_length_retlen(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->knobs.srclist_len, NP_SRCLIST_BAD_LENGTH);
	m->knobs.tqi_retlen = NP_RETLEN_RIGHT_LENGTH;
	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, 0, RETLEN),
		     NP_ERROR_BAD_LENGTH);
	assert_int_equal(peek(m, RETLEN), 40);
}

/* ---- TR-8 ---- */

/* TR-8: the double buffer's allocation fails -> ERROR_OUTOFMEMORY; the
 * caller's buffer is untouched; the next call succeeds. */
/* rules: TR-8 */
static void test_trace_source_list_out_of_memory(void **state)
{
	np_machine *m = *state;
	want_t want[1];
	expected_list(NP_HAL_DEFAULT, want);
	m->alloc_failures = 1;
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, 40, RETLEN),
		     NP_ERROR_OUTOFMEMORY);
	assert_poisoned(m, LIST, 64);
	assert_int_equal(m->alloc_failures, 0);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, 40, RETLEN),
		     NP_ERROR_SUCCESS);
	assert_int_equal(check_chain(m, LIST, 40, want, 1), 40);
	assert_int_equal(NP_ERROR_OUTOFMEMORY, 14);
}

/* TR-8: the allocation comes after the size check: a NULL or short buffer
 * gets BAD_LENGTH and consumes no allocation. */
/* rules: TR-8 */
static void test_trace_source_list_allocates_after_size_check(void **state)
{
	np_machine *m = *state;
	m->alloc_failures = 1;
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, 0, 0, RETLEN),
		     NP_ERROR_BAD_LENGTH);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, 39, RETLEN),
		     NP_ERROR_BAD_LENGTH);
	assert_int_equal(m->alloc_failures, 1);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, 40, RETLEN),
		     NP_ERROR_OUTOFMEMORY);
	assert_int_equal(m->alloc_failures, 0);
}

/* TR-8: class 5 does not allocate: an injected failure does not reach it. */
/* rules: TR-8 */
static void test_trace_interval_class_does_not_allocate(void **state)
{
	np_machine *m = *state;
	m->alloc_failures = 1;
	assert_int_equal(tqi_ok(m, 0), TIME_DEFAULT);
	assert_int_equal(m->alloc_failures, 1);
}

/* ---- TR-9 ---- */

/* TR-9: the RtlNtStatusToDosError translations of the family. */
/* rules: TR-9 */
static void test_trace_status_translation_table(void **state)
{
	(void)state;
	static const struct { uint32_t status, error; } map[] = {
		{ NP_STATUS_SUCCESS, 0 },
		{ NP_STATUS_PRIVILEGE_NOT_HELD, 1314 },
		{ NP_STATUS_ACCESS_VIOLATION, 998 },
		{ NP_STATUS_DATATYPE_MISALIGNMENT, 998 },
		{ NP_STATUS_INVALID_PARAMETER, 87 },
		{ NP_STATUS_NOT_IMPLEMENTED, 1 },
		{ NP_STATUS_INFO_LENGTH_MISMATCH, 24 },
		{ NP_STATUS_INSUFFICIENT_RESOURCES, 1450 },
		{ NP_STATUS_NO_MEMORY, 8 },
		{ NP_STATUS_NOT_SUPPORTED, 50 },
		{ NP_STATUS_ACCESS_DENIED, 5 },
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (np_status_to_win32(map[i].status) != map[i].error)
			fail_msg("status 0x%08X -> %u, want %u", map[i].status,
				 np_status_to_win32(map[i].status), map[i].error);
}

/* TR-9: the translations seen through the Trace* calls: success, privilege,
 * access violation (TR-6 gives the misalignment case). */
/* rules: TR-9 */
static void test_trace_status_translation_through_calls(void **state)
{
	np_machine *m = *state;
	assert_win32(tsi(m, 0x02, 0x3000), NP_ERROR_PRIVILEGE_NOT_HELD);
	m->profile_privilege = true;
	assert_win32(tsi(m, 0x02, 0x3000), NP_ERROR_SUCCESS);
	np_region *r = np_mem_find(m, RO_PAGE, 8);
	assert_non_null(r);
	const uint32_t source = 0x02;          /* not 0: goes to the native query (TR-6) */
	memcpy(np_region_block(r), &source, sizeof source);
	assert_win32(np_trace_query_information(m, 0, CLASS_INTERVAL, RO_PAGE, 8, 0),
		     NP_ERROR_NOACCESS);
}

/* ---- TR-10 ---- */

/* TR-10: a kernel-mode caller is not applicable to either function; nothing
 * changes and nothing is written. */
/* rules: TR-10 */
static void test_trace_kernel_caller_not_applicable(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	assert_kind(tsi(m, 0, 50000), NP_RESULT_NOT_APPLICABLE);
	assert_kind(tsi(m, 0x13, 0x2000), NP_RESULT_NOT_APPLICABLE);
	assert_kind(tqi_len(m, 0, 8), NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(peek(m, RETLEN), POISON);
	assert_int_equal(peek(m, RW_PAGE + 4), POISON);
	assert_kind(np_trace_query_information(m, 0, CLASS_LIST, LIST, LIST_SIZE, RETLEN),
		    NP_RESULT_NOT_APPLICABLE);
	assert_poisoned(m, LIST, 0x100);
	assert_int_equal(nt_query(m, 0), TIME_DEFAULT);
	assert_int_equal(nt_query(m, 0x13), PMC_DEFAULT);
	/* the same calls from user mode work (fail-twin) */
	m->previous_mode = NP_MODE_USER;
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, LIST_SIZE, RETLEN),
		     NP_ERROR_SUCCESS);
}

/* TR-10: also where TraceSetInformation exists but the classes are not
 * handled (6.1). */
/* rules: TR-10 */
static void test_trace_kernel_caller_6_1(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	assert_kind(tsi(m, 0, 50000), NP_RESULT_NOT_APPLICABLE);
}

/* TR-0 before TR-10: on 6.0 a kernel-mode caller finds no TraceSetInformation
 * either: the outcome is not exported, as for any caller. */
/* rules: TR-0 TR-10 */
static void test_trace_not_exported_before_kernel_caller(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	assert_int_equal(np_trace_set_information(m, 0, 5, 0, 8).kind, NP_RESULT_NOT_EXPORTED);
	assert_int_equal(np_trace_query_information(m, 0, 5, 0, 8, 0).kind, NP_RESULT_NOT_EXPORTED);
}

/* TR-11 before TR-2: the class dispatch comes first, and class 3 (handled
 * from 6.1) does not test SessionHandle. */
/* rules: TR-11 TR-2 */
static void test_trace_other_class_before_session(void **state)
{
	np_machine *m = *state;
	assert_win32(np_trace_set_information(m, 1, 3, 0, 8), NP_ERROR_INCORRECT_SIZE);
	assert_win32(np_trace_query_information(m, 1, 3, 0, 8, 0), NP_ERROR_NOT_SUPPORTED);
}

/* TR-7 (the order of SPEC.md's class 7 steps): the chain is copied, then
 * *ReturnLength is written. A copy into a read-only buffer faults in the
 * caller's process, which is not applicable, and *ReturnLength, not yet
 * reached, still holds what it held (a later step can read it). */
static void test_trace_source_list_copy_before_retlen(void **state)
{
	np_machine *m = *state;
	poke(m, RETLEN, POISON);
	assert_kind(np_trace_query_information(m, 0, CLASS_LIST, RO_PAGE, NP_PAGE_SIZE, RETLEN),
		    NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(peek(m, RETLEN), POISON);
	assert_int_equal(peek(m, RO_PAGE), 0xCCCCCCCCu);   /* the fill of the read-only page */
}

/* SY-25: the second query of sub-class 0x0D gets the chain's size plus 8,
 * but 0x28 bytes at least. With no source supported the chain is empty:
 * the first query returned 8, and a second one of 0x28 bytes succeeds and
 * returns 8 again into the functions' own buffer, which is the caller's
 * memory at 0x7FF00000 (a ULONG at its start). A shorter second query
 * would fail there and leave 0x28. */
static void test_trace_source_list_empty_second_query(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_configure(m, "hal.ProfileTime.supported", "off", NULL));
	poke(m, RETLEN, POISON);
	assert_win32(np_trace_query_information(m, 0, CLASS_LIST, LIST, LIST_SIZE, RETLEN), NP_ERROR_SUCCESS);
	assert_int_equal(peek(m, RETLEN), 0);
	assert_int_equal(peek(m, LIBRARY_BUFFER), 8);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, setup_##s, teardown)
/* one function run on several machines: the name says which */
#define TV(f, s) { #f "_on_" #s, f, setup_##s, teardown, NULL }
static const struct CMUnitTest tests[] = {
	TV(test_trace_6_0_not_exported, x86_6_0),
	TV(test_trace_6_0_not_exported, x64_6_0),
	TV(test_trace_6_1_set_only, x86_6_1),
	TV(test_trace_6_1_set_only, x64_6_1),
	TV(test_trace_6_1_set_only, wow64_6_1),
	TV(test_trace_6_2_both_exported, x86_6_2),
	TV(test_trace_6_2_both_exported, x64_6_2),
	T(test_trace_exports_whole_table, blank),
	TV(test_trace_6_1_classes_not_supported, x64_6_1),
	TV(test_trace_6_1_classes_not_supported, wow64_6_1),
	T(test_trace_class_7_set_not_supported, x64_6_2),
	T(test_trace_session_must_be_zero, x64_6_2),
	T(test_trace_session_checked_before_length, x64_6_2),
	T(test_trace_set_length_exactly_8, x64_6_2),
	T(test_trace_query_length_retlen_always, x64_6_2),
	T(test_trace_query_length_retlen_on_success, x64_6_2),
	T(test_trace_query_retlen_null, x64_6_2),
	T(test_trace_query_retlen_always_when_kernel_fails, x64_6_2),
	T(test_trace_query_retlen_right_length_when_kernel_fails, x64_6_2),
	T(test_trace_time_shared, x64_6_2),
	T(test_trace_time_shared_kernel_path, x64_1507),
	T(test_trace_time_separate, x64_6_2),
	T(test_trace_time_separate_never_set, x64_6_2),
	TV(test_trace_time_privilege_required, x64_6_2),
	TV(test_trace_time_privilege_required, x86_6_2),
	T(test_trace_time_privilege_required_separate, x64_6_2),
	T(test_trace_time_privilege_none, x64_6_2),
	T(test_trace_time_query_needs_nothing, x64_1507),
	TV(test_trace_pmc_set_via_native_call, x64_6_2_emon),
	TV(test_trace_pmc_set_via_native_call, x86_6_2_emon),
	T(test_trace_pmc_set_privilege_not_held, x64_6_2_emon),
	T(test_trace_other_sources_pass_through, x64_1507),
	T(test_trace_pmc_query_read_only_buffer, x64_1507_emon),
	T(test_trace_pmc_query_misaligned_buffer, x64_1507_emon),
	T(test_trace_source_list_default_hal, x64_6_2),
	T(test_trace_source_list_x86, x86_6_2),
	T(test_trace_source_list_emon, x64_1507_emon),
	T(test_trace_source_list_emon_x86, x86_6_2_emon),
	T(test_trace_source_list_amd64, x64_1507_amd64),
	T(test_trace_source_list_amd64_wow64, wow64_6_2_amd64),
	T(test_trace_source_list_reports_hal_limits, x64_1507),
	T(test_trace_source_list_last_source, x64_1507),
	T(test_trace_not_exported_before_kernel_caller, x64_6_0),
	T(test_trace_other_class_before_session, x64_6_2),
	T(test_trace_source_list_retlen_null, x64_1507),
	T(test_trace_source_list_more_data, x64_1507_emon),
	T(test_trace_source_list_bad_length_retlen, x64_1507),
	T(test_trace_source_list_copy_before_retlen, x64_1507),
	T(test_trace_source_list_empty_second_query, x64_1507),
	T(test_trace_source_list_out_of_memory, x64_1507),
	T(test_trace_source_list_allocates_after_size_check, x64_1507),
	T(test_trace_interval_class_does_not_allocate, x64_1507),
	cmocka_unit_test(test_trace_status_translation_table),
	T(test_trace_status_translation_through_calls, x64_6_2),
	TV(test_trace_kernel_caller_not_applicable, x64_6_2_emon),
	TV(test_trace_kernel_caller_not_applicable, x64_1507_emon),
	T(test_trace_kernel_caller_6_1, x64_6_1),
};
#undef TV
#undef T

NP_TEST_MAIN(tests)
