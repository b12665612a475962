/* SPDX-License-Identifier: MIT */
/* SPEC.md TR-11 to TR-18: which classes each Trace* wrapper handles in each
 * version, the refusals of the classes other than 5 and 7, and where the
 * model stops; SY-22a to SY-22c: the class 0x1F sub-classes that depend on
 * the architecture or on late versions, and the PEBS sub-class's refusals.
 * Each sweep runs over every version and architecture of the table. */
#include "np_model_fixture.h"

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/status.h"
#include "ntprof/version.h"
#include "ntprof/version_predicates.h"

#define PAGE    0x10000u   /* the caller's buffer */
#define RETLEN  0x10800u   /* its ReturnLength cell */
#define POISON  0xCCCCCCCCu

static void boot(np_machine *m, np_ver v, np_arch a)
{
	assert_null(np_machine_init(m, v, a));
	assert_null(np_mem_map(m, PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
}

static void assert_win32(np_result r, uint32_t code)
{
	if (r.kind != NP_RESULT_WIN32)
		fail_msg("result kind %d, want WIN32 %u", (int)r.kind, code);
	assert_int_equal(r.code, code);
}

static void assert_na(np_result r)
{
	assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
	assert_non_null(r.why);
}

static np_result set(np_machine *m, uint32_t cls, uint64_t buffer, uint32_t length)
{
	return np_trace_set_information(m, 0, cls, buffer, length);
}

static np_result query(np_machine *m, uint64_t session, uint32_t cls, uint32_t length)
{
	uint32_t poison = POISON;
	assert_true(np_mem_write(m, RETLEN, &poison, 4));
	assert_true(np_mem_write(m, PAGE, &poison, 4));
	assert_true(np_mem_write(m, PAGE + 4, &poison, 4));
	return np_trace_query_information(m, session, cls, PAGE, length, RETLEN);
}

/* TR-11: what the set answers for a class with a length that every handled
 * class refuses (7 bytes): NOT_SUPPORTED exactly where the class is not
 * handled. */
static uint32_t set_refusal(uint32_t cls)
{
	switch (cls) {
	case 4: return NP_ERROR_INVALID_PARAMETER;                 /* TR-14 */
	case 3: case 6: case 8: case 9: return NP_ERROR_INCORRECT_SIZE;  /* TR-13, TR-15 */
	case 5: return NP_ERROR_BAD_LENGTH;                       /* TR-3 */
	default: return NP_ERROR_NOT_SUPPORTED;
	}
}

static bool set_handled(np_ver v, uint32_t cls)
{
	switch (cls) {
	case 3: return v >= NP_V6_1;
	case 4: case 5: case 6: case 8: case 9: return v >= NP_V6_2;
	case 0x0A: return v >= NP_V1507;
	default: return false;
	}
}

/* TR-11: every class from 0 to 0x10, and two far ones, in every version. */
/* rules: TR-11 TR-0 */
static void test_set_class_dispatch_whole_table(void **state)
{
	np_machine *m = *state;
	static const uint32_t far[] = { 0x1C, 0xFFFFFFFFu };
	for (unsigned v = NP_V6_1; v < NP_VERSION_COUNT; v++) {
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			if (!np_arch_exists((np_ver)v, (np_arch)a))
				continue;
			boot(m, (np_ver)v, (np_arch)a);
			for (uint32_t cls = 0; cls <= 0x10 + 2; cls++) {
				uint32_t c = cls <= 0x10 ? cls : far[cls - 0x11];
				np_result r = set(m, c, PAGE, 7);
				if (c == 0x0A && set_handled((np_ver)v, c))
					assert_na(r);                      /* TR-18 */
				else
					assert_win32(r, set_handled((np_ver)v, c) ? set_refusal(c)
										   : NP_ERROR_NOT_SUPPORTED);
			}
			np_machine_fini(m);
		}
	}
}

static bool query_handled(np_ver v, uint32_t cls)
{
	switch (cls) {
	case 4: case 5: case 7: return v >= NP_V6_2;
	case 0x0B: case 0x0E: return v >= NP_V1507;
	default: return false;
	}
}

/* TR-12: NOT_SUPPORTED exactly where the class is not handled, with
 * ReturnLength untouched; the handled ones get past the class test. */
/* rules: TR-12 */
static void test_query_class_dispatch_whole_table(void **state)
{
	np_machine *m = *state;
	for (unsigned v = NP_V6_2; v < NP_VERSION_COUNT; v++) {
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			if (!np_arch_exists((np_ver)v, (np_arch)a))
				continue;
			boot(m, (np_ver)v, (np_arch)a);
			for (uint32_t c = 0; c <= 0x12; c++) {
				np_result r = query(m, 0, c, 3);
				if (!query_handled((np_ver)v, c)) {
					assert_win32(r, NP_ERROR_NOT_SUPPORTED);
					assert_int_equal(rd32(m, RETLEN), POISON);
				} else {
					assert_false(r.kind == NP_RESULT_WIN32 &&
						     r.code == NP_ERROR_NOT_SUPPORTED);
				}
			}
			assert_win32(query(m, 0, 0xFFFFFFFFu, 8), NP_ERROR_NOT_SUPPORTED);
			np_machine_fini(m);
		}
	}
}

/* TR-11, TR-2: the class test comes first, and classes other than 5 do not
 * test SessionHandle. */
/* rules: TR-11 TR-2 */
static void test_set_class_before_session(void **state)
{
	np_machine *m = *state;
	boot(m, NP_V6_1, NP_X64);
	assert_win32(np_trace_set_information(m, 1, 4, PAGE, 8), NP_ERROR_NOT_SUPPORTED);
	assert_win32(np_trace_set_information(m, 1, 3, PAGE, 8), NP_ERROR_INCORRECT_SIZE);
	np_machine_fini(m);
	boot(m, NP_V6_2, NP_X64);
	assert_win32(np_trace_set_information(m, 1, 4, PAGE, 0x24), NP_ERROR_INVALID_PARAMETER);
	assert_na(np_trace_set_information(m, 1, 4, PAGE, 8));
	assert_win32(np_trace_query_information(m, 1, 3, PAGE, 8, RETLEN), NP_ERROR_NOT_SUPPORTED);
	np_machine_fini(m);
}

/* TR-1, TR-11, TR-12: the call's record names why a class was refused: TR-1
 * for the profile classes (5 on 6.1; 7, query-only, to a set anywhere), TR-11
 * for another set class, TR-12 for another query class. */
/* rules: TR-1 TR-11 TR-12 */
static void test_class_refusal_recorded(void **state)
{
	np_machine *m = *state;
	static const struct { np_ver v; bool is_set; uint32_t cls; np_rule rule; } c[] = {
		{ NP_V6_1, true, 5, NP_RULE(TR_1) },    { NP_V6_1, true, 7, NP_RULE(TR_1) },
		{ NP_V1809, true, 7, NP_RULE(TR_1) },   { NP_V6_1, true, 4, NP_RULE(TR_11) },
		{ NP_V1809, false, 3, NP_RULE(TR_12) },
	};
	for (unsigned i = 0; i < sizeof c / sizeof *c; i++) {
		boot(m, c[i].v, NP_X64);
		assert_win32(c[i].is_set ? set(m, c[i].cls, PAGE, 8) : query(m, 0, c[i].cls, 8),
			     NP_ERROR_NOT_SUPPORTED);
		assert_int_equal(m->trail.decided, c[i].rule);
		np_machine_fini(m);
	}
}

/* TR-13: whole CLASSIC_EVENT_IDs, at most 256 (class 3) or 4 (class 8);
 * an empty array needs a NULL address. */
/* rules: TR-13 TR-18 */
static void test_set_event_id_arrays(void **state)
{
	np_machine *m = *state;
	boot(m, NP_V1507, NP_X64);
	assert_win32(set(m, 3, PAGE, 0x17), NP_ERROR_INCORRECT_SIZE);
	assert_win32(set(m, 3, PAGE, 0x19), NP_ERROR_INCORRECT_SIZE);
	assert_na(set(m, 3, PAGE, 0x18));
	assert_na(set(m, 3, PAGE, 256 * 0x18));
	assert_win32(set(m, 3, PAGE, 257 * 0x18), NP_ERROR_INCORRECT_SIZE);
	assert_win32(set(m, 3, PAGE, 0), NP_ERROR_INVALID_PARAMETER);
	assert_na(set(m, 3, 0, 0));
	assert_win32(set(m, 3, 0, 0x17), NP_ERROR_INCORRECT_SIZE);   /* size first */
	assert_na(set(m, 8, PAGE, 4 * 0x18));
	assert_win32(set(m, 8, PAGE, 5 * 0x18), NP_ERROR_INCORRECT_SIZE);
	assert_win32(set(m, 8, PAGE, 0), NP_ERROR_INVALID_PARAMETER);
	assert_na(set(m, 8, 0, 0));
	np_machine_fini(m);
}

/* TR-14: whole 32-bit group masks, at most eight. */
/* rules: TR-14 TR-18 */
static void test_set_group_masks(void **state)
{
	np_machine *m = *state;
	boot(m, NP_V6_2, NP_X86);
	for (uint32_t len = 0; len <= 0x28; len++) {
		np_result r = set(m, 4, PAGE, len);
		if (len % 4 == 0 && len <= 0x20)
			assert_na(r);
		else
			assert_win32(r, NP_ERROR_INVALID_PARAMETER);
	}
	np_machine_fini(m);
}

/* TR-15: one to four 32-bit sources; the size test before the empty and
 * NULL tests. */
/* rules: TR-15 TR-18 */
static void test_set_profile_source_arrays(void **state)
{
	np_machine *m = *state;
	boot(m, NP_V6_3, NP_WOW64);
	static const uint32_t classes[] = { 6, 9 };
	for (size_t i = 0; i < 2; i++) {
		uint32_t c = classes[i];
		for (uint32_t len = 1; len <= 0x14; len++) {
			np_result r = set(m, c, PAGE, len);
			if (len % 4 == 0 && len <= 0x10)
				assert_na(r);
			else
				assert_win32(r, NP_ERROR_INCORRECT_SIZE);
		}
		assert_win32(set(m, c, PAGE, 0), NP_ERROR_INVALID_PARAMETER);
		assert_win32(set(m, c, 0, 0), NP_ERROR_INVALID_PARAMETER);
		assert_win32(set(m, c, 0, 8), NP_ERROR_INVALID_PARAMETER);
		assert_win32(set(m, c, 0, 5), NP_ERROR_INCORRECT_SIZE);
	}
	np_machine_fini(m);
}

/* TR-16: room for a PERFINFO_GROUPMASK; *ReturnLength = 0x20 even on
 * failure with K-TQI-RETLEN=always, only on success with right-length. */
/* rules: TR-16 TR-18 */
static void test_query_enable_flags(void **state)
{
	np_machine *m = *state;
	boot(m, NP_V6_2, NP_X64);
	assert_win32(query(m, 0, 4, 0x1F), NP_ERROR_BAD_LENGTH);
	assert_int_equal(rd32(m, RETLEN), 0x20);
	assert_int_equal(rd32(m, PAGE), POISON);
	assert_na(query(m, 5, 4, 0x20));           /* no SessionHandle test */
	assert_int_equal(rd32(m, RETLEN), 0x20);
	m->knobs.tqi_retlen = NP_RETLEN_RIGHT_LENGTH;
	assert_win32(query(m, 0, 4, 0x1F), NP_ERROR_BAD_LENGTH);
	assert_int_equal(rd32(m, RETLEN), POISON);
	assert_na(query(m, 0, 4, 0x40));
	assert_int_equal(rd32(m, RETLEN), 0x20);
	np_machine_fini(m);
}

/* TR-17: SessionHandle first, then *ReturnLength, then exactly 8 bytes;
 * the answer is version 1 at offset 0 with Reserved left alone. */
/* rules: TR-17 */
static void test_query_version_info(void **state)
{
	np_machine *m = *state;
	boot(m, NP_V1507, NP_X86);
	assert_win32(query(m, 1, 0x0B, 9), NP_ERROR_INVALID_PARAMETER);
	assert_int_equal(rd32(m, RETLEN), POISON);
	assert_win32(query(m, 0, 0x0B, 9), NP_ERROR_BAD_LENGTH);
	assert_int_equal(rd32(m, RETLEN), 8);
	assert_int_equal(rd32(m, PAGE), POISON);
	assert_win32(query(m, 0, 0x0B, 7), NP_ERROR_BAD_LENGTH);
	assert_win32(query(m, 0, 0x0B, 8), NP_ERROR_SUCCESS);
	assert_int_equal(rd32(m, PAGE), 1);
	assert_int_equal(rd32(m, PAGE + 4), POISON);
	assert_int_equal(rd32(m, RETLEN), 8);
	assert_win32(np_trace_query_information(m, 0, 0x0B, PAGE, 8, 0), NP_ERROR_SUCCESS);
	m->knobs.tqi_retlen = NP_RETLEN_RIGHT_LENGTH;
	assert_win32(query(m, 0, 0x0B, 7), NP_ERROR_BAD_LENGTH);
	assert_int_equal(rd32(m, RETLEN), POISON);
	np_machine_fini(m);
}

/* TR-16, TR-17: the wrapper writes *ReturnLength and the answer in user
 * mode, so an address it cannot write faults in the caller, which is no
 * status the model gives: not applicable. UNMAPPED is a page nothing maps;
 * the twins above write through PAGE and RETLEN. */
#define UNMAPPED 0x40000u
/* rules: TR-16 TR-17 */
static void test_query_caller_faults(void **state)
{
	np_machine *m = *state;
	boot(m, NP_V1507, NP_X64);
	assert_na(np_trace_query_information(m, 0, 4, PAGE, 0x20, UNMAPPED));
	assert_na(np_trace_query_information(m, 0, 0x0B, PAGE, 8, UNMAPPED));
	assert_na(np_trace_query_information(m, 0, 0x0B, UNMAPPED, 8, RETLEN));
	assert_int_equal(rd32(m, RETLEN), 8);   /* *ReturnLength came first */
	np_machine_fini(m);
}

/* TR-18: NtTraceControl's classes and the kernel-bound ones stop the model. */
/* rules: TR-18 */
static void test_outside_the_model(void **state)
{
	np_machine *m = *state;
	boot(m, NP_V11_24H2, NP_X64);
	assert_na(set(m, 0x0A, PAGE, 8));
	assert_na(set(m, 0x0A, 0, 0));
	assert_na(query(m, 0, 0x0E, 8));
	assert_int_equal(rd32(m, RETLEN), POISON);
	np_machine_fini(m);
}

/* ---- class 0x1F sub-classes ---- */

static np_result sysinfo(np_machine *m, bool is_set, uint32_t subclass, uint32_t length,
			 uint32_t hook)
{
	uint32_t fields[5] = { subclass, 0, 0, 0, hook };
	assert_true(np_mem_write(m, PAGE, fields, sizeof fields));
	return is_set ? np_nt_set_system_information(m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION, PAGE, length)
		      : np_nt_query_system_information(m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION, PAGE,
						       length, 0);
}

static bool not_implemented(np_result r)
{
	return r.kind == NP_RESULT_STATUS && r.code == NP_STATUS_NOT_IMPLEMENTED;
}

/* SY-22a: 0x05 is missing only from the 32-bit 6.1 kernel. */
/* rules: SY-22a SY-22 */
static void test_spinlock_subclass_whole_table(void **state)
{
	np_machine *m = *state;
	for (unsigned v = NP_V6_0; v < NP_VERSION_COUNT; v++) {
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			if (!np_arch_exists((np_ver)v, (np_arch)a))
				continue;
			boot(m, (np_ver)v, (np_arch)a);
			bool has = v >= NP_V6_2 || (v == NP_V6_1 && a != NP_X86);
			assert_int_equal(np_kernel_traces_spinlocks((np_ver)v, (np_arch)a), has);
			assert_int_equal(not_implemented(sysinfo(m, false, 5, 0x14, 0)), !has);
			assert_int_equal(not_implemented(sysinfo(m, true, 5, 0x14, 0)), !has);
			np_machine_fini(m);
		}
	}
}

/* SY-22b: 0x1A is a set from srv2022, 0x1B from 11-24H2; neither is a query. */
/* rules: SY-22b */
static void test_late_subclasses_whole_table(void **state)
{
	np_machine *m = *state;
	for (unsigned v = NP_V6_0; v < NP_VERSION_COUNT; v++) {
		np_arch a = np_arch_exists((np_ver)v, NP_X64) ? NP_X64 : NP_X86;
		boot(m, (np_ver)v, a);
		assert_int_equal(not_implemented(sysinfo(m, true, 0x1A, 0x20, 0)), v < NP_VSRV2022);
		assert_int_equal(not_implemented(sysinfo(m, true, 0x1B, 0x20, 0)), v < NP_V11_24H2);
		assert_true(not_implemented(sysinfo(m, false, 0x1A, 0x20, 0)));
		assert_true(not_implemented(sysinfo(m, false, 0x1B, 0x20, 0)));
		assert_true(not_implemented(sysinfo(m, true, 0x1C, 0x20, 0)));
		np_machine_fini(m);
	}
}

/* SY-22c: the PEBS sub-class's length, HookId and privilege tests, in that
 * order, on each architecture. */
/* rules: SY-22c */
static void test_pebs_subclass_refusals(void **state)
{
	np_machine *m = *state;
	static const np_arch arches[] = { NP_X86, NP_X64, NP_WOW64 };
	for (size_t i = 0; i < 3; i++) {
		boot(m, NP_V6_2, arches[i]);
		m->profile_privilege = false;
		for (uint32_t len = 4; len < 0x10; len++)
			assert_status(sysinfo(m, true, 0x0B, len, 0x524), NP_STATUS_INFO_LENGTH_MISMATCH);
		for (uint32_t len = 0x11; len <= 0x1C; len++)
			if (len != 0x14)
				assert_status(sysinfo(m, true, 0x0B, len, 0x524), NP_STATUS_INVALID_PARAMETER);
		assert_status(sysinfo(m, true, 0x0B, 0x14, 0x523), NP_STATUS_INVALID_PARAMETER);
		assert_status(sysinfo(m, true, 0x0B, 0x14, 0x524), NP_STATUS_PRIVILEGE_NOT_HELD);
		assert_status(sysinfo(m, true, 0x0B, 0x10, 0), NP_STATUS_PRIVILEGE_NOT_HELD);
		m->profile_privilege = true;
		assert_na(sysinfo(m, true, 0x0B, 0x10, 0));
		assert_na(sysinfo(m, true, 0x0B, 0x14, 0x524));
		assert_status(sysinfo(m, true, 0x0B, 0x14, 0x525), NP_STATUS_INVALID_PARAMETER);
		m->profile_privilege = false;
		m->previous_mode = NP_MODE_KERNEL;
		assert_na(sysinfo(m, true, 0x0B, 0x10, 0));
		np_machine_fini(m);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup_blank, teardown)
static const struct CMUnitTest tests[] = {
	T(test_query_caller_faults),
	T(test_set_class_dispatch_whole_table),
	T(test_query_class_dispatch_whole_table),
	T(test_set_class_before_session),
	T(test_class_refusal_recorded),
	T(test_set_event_id_arrays),
	T(test_set_group_masks),
	T(test_set_profile_source_arrays),
	T(test_query_enable_flags),
	T(test_query_version_info),
	T(test_outside_the_model),
	T(test_spinlock_subclass_whole_table),
	T(test_late_subclasses_whole_table),
	T(test_pebs_subclass_refusals),
};
#undef T

NP_TEST_MAIN(tests)
