/* SPDX-License-Identifier: MIT */
/* Edges of the model that the per-section tests do not reach: status names
 * (SPEC.md status table, TR-9), the address-space API's refusals (AS-1),
 * unreadable Trace* buffers (TR-3, TR-7), the bounded event log (SI-6), and
 * defensive answers to values outside the enumerations (KS-3, VR-2), and the
 * one rule for numbers written as text (ntprof/number.h). */
#include "np_test.h"

#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/names.h"
#include "ntprof/number.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define RW   0x10000ull
#define RO   0x20000ull

static int setup(void **state)
{
	static np_machine m;
	assert_null(np_machine_init(&m, NP_V1809, NP_X64));
	assert_null(np_mem_map(&m, RW, 0x1000, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
	assert_null(np_mem_map(&m, RO, 0x1000, NP_PROT_READ, 0, 0xCC));
	*state = &m;
	return 0;
}

static int teardown(void **state)
{
	np_machine_fini(*state);
	return 0;
}

/* TR-9: names and numbers of statuses and errors, both directions. */
/* rules: TR-9 */
static void test_status_names_roundtrip(void **state)
{
	(void)state;
	uint32_t v;
	assert_string_equal(np_status_name(NP_STATUS_PRIVILEGE_NOT_HELD), "STATUS_PRIVILEGE_NOT_HELD");
	assert_string_equal(np_status_name(NP_STATUS_INVALID_PARAMETER_7), "STATUS_INVALID_PARAMETER_7");
	assert_null(np_status_name(0xC0001234u));
	assert_string_equal(np_win32_name(NP_ERROR_BAD_LENGTH), "ERROR_BAD_LENGTH");
	assert_null(np_win32_name(99999u));
	assert_true(np_status_parse("STATUS_ACCESS_VIOLATION", &v));
	assert_int_equal(v, 0xC0000005u);
	assert_true(np_status_parse("0xC0000061", &v));
	assert_int_equal(v, NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_false(np_status_parse("STATUS_NOPE", &v));
	assert_false(np_status_parse("0x1FFFFFFFF", &v));
	assert_false(np_status_parse("12x", &v));
	/* a number is digits from the first character, up to 0xFFFFFFFF */
	assert_true(np_status_parse("0xFFFFFFFF", &v));
	assert_int_equal(v, 0xFFFFFFFFu);
	assert_false(np_status_parse("0x100000000", &v));
	assert_true(np_status_parse("9", &v));
	assert_int_equal(v, 9);
	assert_false(np_status_parse(" 5", &v));
	assert_false(np_status_parse("+5", &v));
	assert_false(np_status_parse(":", &v));
	assert_true(np_win32_parse("ERROR_MORE_DATA", &v));
	assert_int_equal(v, 234);
	assert_false(np_win32_parse("ERROR_NOPE", &v));
	/* bug checks: the names the model and the vectors use, or a number */
	assert_string_equal(np_bugcheck_name(0x0A), "IRQL_NOT_LESS_OR_EQUAL");
	assert_string_equal(np_bugcheck_name(NP_BUGCHECK_KMODE_EXCEPTION_NOT_HANDLED), "KMODE_EXCEPTION_NOT_HANDLED");
	assert_string_equal(np_bugcheck_name(0xAC), "HAL_MEMORY_ALLOCATION");
	assert_null(np_bugcheck_name(0x50));
	assert_true(np_bugcheck_parse("HAL_MEMORY_ALLOCATION", &v));
	assert_int_equal(v, NP_BUGCHECK_HAL_MEMORY_ALLOCATION);
	assert_true(np_bugcheck_parse("0x50", &v));
	assert_int_equal(v, 0x50);
	assert_false(np_bugcheck_parse("PAGE_FAULT_IN_NONPAGED_AREA", &v));
	assert_false(np_bugcheck_parse("0x100000000", &v));
}

/* "Did you mean" for status and Win32 error names offers each table's
 * names, the last ones too. */
static void test_status_nearest(void **state)
{
	(void)state;
	assert_string_equal(np_status_nearest("STATUS_SUCESS"), "STATUS_SUCCESS");
	assert_string_equal(np_status_nearest("STATUS_ADDRESS_ALREADY_EXIST"), "STATUS_ADDRESS_ALREADY_EXISTS");
	assert_string_equal(np_win32_nearest("ERROR_INCORECT_SIZE"), "ERROR_INCORRECT_SIZE");
	assert_null(np_status_nearest("STATUS_NOTHING_OF_THE_KIND"));
	assert_null(np_win32_nearest("ERROR_NOTHING_OF_THE_KIND"));
}

/* The distance behind "did you mean" (ntprof/names.h): edits counted case
 * blind, a swap of neighbours one edit; a word of 64 characters or more is
 * as far as the limit from anything, so it is never anyone's guess. */
static void test_edit_distance(void **state)
{
	(void)state;
	char longer[80];
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	assert_int_equal(np_edit_distance("Interval", "interval"), 0);
	assert_int_equal(np_edit_distance("Intervl", "Interval"), 1);
	assert_int_equal(np_edit_distance("Itnerval", "Interval"), 1);
	assert_int_equal(np_edit_distance("", "abc"), 3);
	assert_int_equal(np_edit_distance(longer, "a"), 64);
	assert_int_equal(np_edit_distance("a", longer), 64);
}

/* The limit is by length, on either side: 63 characters are still measured,
 * 64 and 65 are as far as the limit. */
static void test_edit_distance_length_limit(void **state)
{
	(void)state;
	char w[66];
	for (size_t len = 63; len <= 65; len++) {
		memset(w, 'a', len);
		w[len] = '\0';
		assert_int_equal(np_edit_distance(w, w), len < 64 ? 0 : 64);
		assert_int_equal(np_edit_distance(w, "a"), len < 64 ? len - 1 : 64);
		assert_int_equal(np_edit_distance("a", w), len < 64 ? len - 1 : 64);
	}
}

static char *heap_copy(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	assert_non_null(p);
	memcpy(p, s, n);
	return p;
}

/* A swap of neighbours is one edit from the first two letters on. It looks
 * back one letter on each side, never before the first: the words are heap
 * copies, so a look before either start is an overflow a sanitizer reports. */
static void test_edit_distance_swaps(void **state)
{
	(void)state;
	assert_int_equal(np_edit_distance("ab", "ba"), 1);
	assert_int_equal(np_edit_distance("xab", "xba"), 1);
	assert_int_equal(np_edit_distance("abc", "acb"), 1);
	assert_int_equal(np_edit_distance("abc", "bca"), 2);
	char *a = heap_copy("ab"), *b = heap_copy("ab"), *c = heap_copy("ba");
	assert_int_equal(np_edit_distance(a, b), 0);
	assert_int_equal(np_edit_distance(a, c), 1);
	assert_int_equal(np_edit_distance(c, a), 1);
	free(a);
	free(b);
	free(c);
}

/* A word is guessed within a third of its length, one at least and three at
 * most, and of equally near candidates the first offered wins. */
static void test_nearest_limit_and_ties(void **state)
{
	(void)state;
	static const struct { size_t len; unsigned limit; } rows[] = {
		{ 0, 1 }, { 2, 1 }, { 3, 1 }, { 5, 1 }, { 6, 2 }, { 8, 2 },
		{ 9, 3 }, { 11, 3 }, { 12, 3 }, { 14, 3 }, { 20, 3 },
	};
	char word[24], near[24], far[24];
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
		size_t len = rows[r].len, lim = rows[r].limit;
		memset(word, 'a', len);
		word[len] = '\0';
		/* as far as the limit, then one more: substitutions only */
		memset(near, 'a', len > lim ? len : lim);
		memset(near, 'b', lim);
		near[len > lim ? len : lim] = '\0';
		memset(far, 'a', len > lim + 1 ? len : lim + 1);
		memset(far, 'b', lim + 1);
		far[len > lim + 1 ? len : lim + 1] = '\0';
		np_nearest n;
		np_nearest_start(&n, word);
		assert_null(np_nearest_found(&n));
		np_nearest_offer(&n, far);
		assert_int_equal(n.distance, lim + 1);
		if (np_nearest_found(&n))
			fail_msg("length %zu: distance %zu found, limit %zu", len, lim + 1, lim);
		np_nearest_offer(&n, near);
		assert_int_equal(n.distance, lim);
		assert_ptr_equal(np_nearest_found(&n), near);
	}
	static const char first[] = "abd", second[] = "abe";
	np_nearest n;
	np_nearest_start(&n, "abc");
	np_nearest_offer(&n, first);
	np_nearest_offer(&n, second);
	assert_ptr_equal(np_nearest_found(&n), first);
}

/* Every source name is a candidate, the last (ProfileMaximum) too. */
static void test_source_nearest(void **state)
{
	(void)state;
	assert_string_equal(np_source_nearest("ProfileMaximun"), "ProfileMaximum");
	assert_string_equal(np_source_nearest("ProfileMaximum"), "ProfileMaximum");
	assert_string_equal(np_source_nearest("profiletime"), "ProfileTime");
	assert_string_equal(np_source_nearest("ProfileLoadLinkedIsues"), "ProfileLoadLinkedIssues");
	assert_null(np_source_nearest("Bogus"));
}

/* The one number rule (ntprof/number.h): decimal or 0x hex, leading zeros
 * decimal, 64 bits at most, nothing around the digits. */
static void test_number_rule(void **state)
{
	(void)state;
	uint64_t n = 7;
	assert_true(np_number_parse("0", &n));
	assert_int_equal(n, 0);
	assert_true(np_number_parse("1234567890", &n));
	assert_int_equal(n, 1234567890u);
	assert_true(np_number_parse("0x19", &n));
	assert_int_equal(n, 0x19);
	assert_true(np_number_parse("0XaBcDeF", &n));
	assert_int_equal(n, 0xABCDEF);
	assert_true(np_number_parse("0xabcdef", &n));   /* every letter, in either case */
	assert_int_equal(n, 0xABCDEF);
	assert_true(np_number_parse("0XABCDEF", &n));
	assert_int_equal(n, 0xABCDEF);
	/* leading zeros are decimal, never octal */
	assert_true(np_number_parse("010", &n));
	assert_int_equal(n, 10);
	assert_true(np_number_parse("08", &n));
	assert_int_equal(n, 8);
	assert_true(np_number_parse("0x0010", &n));
	assert_int_equal(n, 0x10);
	/* 64 bits, and not one more */
	assert_true(np_number_parse("18446744073709551615", &n));
	assert_true(n == UINT64_MAX);
	assert_true(np_number_parse("0xFFFFFFFFFFFFFFFF", &n));
	assert_true(n == UINT64_MAX);
	assert_true(np_number_parse("0x00000000000000000001", &n));
	assert_int_equal(n, 1);
	n = 7;
	static const char *const refused[] = {
		"", "+1", "-1", " 1", "1 ", "0x", "0X", "x1", "1x", "0x1g", "12a", "0b1", "1.5",
		"18446744073709551616", "99999999999999999999", "0x10000000000000000",
		"0x1FFFFFFFFFFFFFFFF", ":", "/", "0x1@", "0x1`", "0x1G", "0x1:",
	};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		if (np_number_parse(refused[i], &n))
			fail_msg("\"%s\" read as a number", refused[i]);
		assert_int_equal(n, 7);   /* untouched */
	}
	/* a part of a longer text: only the first len characters count */
	assert_true(np_number_parse_len("15063.1", 5, &n));
	assert_int_equal(n, 15063);
	assert_true(np_number_parse_len("0x1F.2", 4, &n));
	assert_int_equal(n, 0x1F);
	assert_false(np_number_parse_len("0x1F", 2, &n));
	assert_false(np_number_parse_len("12", 0, &n));
	/* the same rule in the name parsers that take a number */
	uint32_t v;
	assert_true(np_source_parse("010", &v));
	assert_int_equal(v, 10);
	assert_true(np_status_parse("010", &v));
	assert_int_equal(v, 10);
	assert_true(np_win32_parse("0x7A", &v));
	assert_int_equal(v, 122);
	np_ver ver;
	assert_true(np_version_parse("10.0.015063", &ver));
	assert_int_equal(ver, NP_V1703);
	assert_false(np_version_parse("10.0.+15063", &ver));
	assert_false(np_version_parse("10.0.0x", &ver));
}

/* TR-9: a status outside the translation table becomes ERROR_INVALID_FUNCTION. */
/* rules: TR-9 */
static void test_status_unmapped_translation(void **state)
{
	(void)state;
	assert_int_equal(np_status_to_win32(NP_STATUS_BUFFER_TOO_SMALL), NP_ERROR_INVALID_FUNCTION);
	assert_int_equal(np_status_to_win32(NP_STATUS_ACCESS_DENIED), NP_ERROR_ACCESS_DENIED);
}

/* AS-1: the address-space API refuses empty, huge, wrapping and overlapping
 * regions, and more regions than it holds. */
/* rules: AS-1 */
static void test_memory_map_refusals(void **state)
{
	np_machine *m = *state;
	assert_non_null(np_mem_map(m, 0x40000, 0, NP_PROT_READ, 0, 0));
	assert_non_null(np_mem_map(m, 0x40000, 0x100010001ull, NP_PROT_READ, 0, 0));
	assert_non_null(np_mem_map(m, UINT64_MAX - 0xFFF, 0x2000, NP_PROT_READ, 0, 0));
	assert_non_null(np_mem_map(m, RW + 0x800, 0x1000, NP_PROT_READ, 0, 0));
	unsigned mapped = m->mem.count;
	for (uint64_t base = 0x100000; mapped < NP_MAX_REGIONS; base += 0x10000, mapped++)
		assert_null(np_mem_map(m, base, 0x10, NP_PROT_READ, 0, 0));
	assert_string_equal(np_mem_map(m, 0x7000000, 0x10, NP_PROT_READ, 0, 0), "too many mapped regions");
	assert_null(np_mem_find(m, UINT64_MAX, 2));
}

/* TR-3: a Trace* buffer or ReturnLength the model cannot read or write is
 * outside the model: not applicable, never a guess. */
/* rules: TR-3 */
static void test_trace_unusable_buffers(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_int_equal(np_trace_set_information(m, 0, 5, 0x90000, 8).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(np_trace_query_information(m, 0, 5, RW, 8, RO).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(np_trace_query_information(m, 0, 5, 0x90000, 8, RW + 0x100).kind,
			 NP_RESULT_NOT_APPLICABLE);
	uint32_t zero = 0;
	assert_true(np_mem_write(m, RW, &zero, 4));
	/* Source 0: the Interval field must be writable */
	assert_int_equal(np_trace_query_information(m, 0, 5, RO, 8, 0).kind, NP_RESULT_WIN32);
}

/* TR-7: the source list needs a writable buffer and ReturnLength. */
/* rules: TR-7 */
static void test_trace_source_list_unusable_buffers(void **state)
{
	np_machine *m = *state;
	assert_int_equal(np_trace_query_information(m, 0, 7, RO, 0x1000, 0).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(np_trace_query_information(m, 0, 7, RW, 0x1000, RO).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(np_trace_query_information(m, 0, 7, 0, 0, RO).kind, NP_RESULT_NOT_APPLICABLE);
	/* a chain that runs off the end of the mapping */
	assert_int_equal(np_trace_query_information(m, 0, 7, RW + 0x1000 - 8, 0x1000, 0).kind,
			 NP_RESULT_NOT_APPLICABLE);
}

/* SI-6: the model's event log is bounded; what does not fit is counted. */
/* rules: SI-6 */
static void test_event_log_overflow_counted(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	for (unsigned i = 0; i < NP_MAX_EVENTS + 3; i++)
		assert_int_equal(np_nt_set_interval_profile(m, 2000 + i, 0).code, NP_STATUS_SUCCESS);
	assert_int_equal(m->event_count, NP_MAX_EVENTS);
	assert_int_equal(m->events_lost, 3);
}

/* KS-3, VR-2, VR-3: values outside the enumerations are answered, not trusted. */
/* rules: KS-3 VR-2 VR-3 */
static void test_out_of_range_enumerations(void **state)
{
	(void)state;
	np_ver v;
	np_machine scratch;
	assert_false(np_hal_kind_exists(NP_V1809, NP_X64, (np_hal_kind)7));
	assert_false(np_arch_exists(NP_V1809, (np_arch)7));
	assert_non_null(np_machine_init(&scratch, NP_VERSION_COUNT, NP_X64));
	assert_null(np_version_info_of(NP_VERSION_COUNT));
	assert_string_equal(np_version_key(NP_VERSION_COUNT), "?");
	assert_string_equal(np_arch_name(NP_ARCH_COUNT), "?");
	assert_false(np_version_parse("10.0.99999999999", &v));
	assert_false(np_version_parse("10.0", &v));
	assert_false(np_version_parse("10.0.1.2.3", &v));
	assert_false(np_version_parse("10.0.x", &v));
	assert_false(np_version_parse("10..1", &v));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_status_names_roundtrip),
	cmocka_unit_test(test_status_unmapped_translation),
	cmocka_unit_test(test_status_nearest),
	cmocka_unit_test(test_edit_distance),
	cmocka_unit_test(test_edit_distance_length_limit),
	cmocka_unit_test(test_edit_distance_swaps),
	cmocka_unit_test(test_nearest_limit_and_ties),
	cmocka_unit_test(test_source_nearest),
	cmocka_unit_test(test_number_rule),
	cmocka_unit_test_setup_teardown(test_memory_map_refusals, setup, teardown),
	cmocka_unit_test_setup_teardown(test_trace_unusable_buffers, setup, teardown),
	cmocka_unit_test_setup_teardown(test_trace_source_list_unusable_buffers, setup, teardown),
	cmocka_unit_test_setup_teardown(test_event_log_overflow_counted, setup, teardown),
	cmocka_unit_test(test_out_of_range_enumerations),
};

NP_TEST_MAIN(tests)
