/* SPDX-License-Identifier: MIT */
/* The implementers' address space (harness/impl_helpers/memory.c): where
 * regions go, what each access may touch, the probes' order of tests and
 * their effect on vanishing regions, the copies' statuses. Every success is
 * checked beside the failure one byte or one flag away. */
#include "np_test.h"

#include "ntprof/impl_helpers.h"

#define RW (NTPROF_PROT_READ | NTPROF_PROT_WRITE)

static void test_impl_helpers_memory_limits_per_arch(void **state)
{
	(void)state;
	ntprof_memory m;
	assert_int_equal(ntprof_memory_init(&m, "x86"), 1);
	assert_true(m.probe_limit == 0x7FFF0000u && m.top == 0x7FFF0000u);
	assert_int_equal(ntprof_memory_init(&m, "x64"), 1);
	assert_true(m.probe_limit == 0x7FFFFFFF0000ull && m.top == 0x7FFFFFFF0000ull);
	assert_int_equal(ntprof_memory_init(&m, "wow64"), 1);
	assert_true(m.probe_limit == 0x7FFFFFFF0000ull && m.top == 0x7FFF0000u);
	m.next = 1;
	assert_int_equal(ntprof_memory_init(&m, "arm64"), 0);
	assert_true(m.next == 0 && m.probe_limit == 0);
	ntprof_memory_fini(&m);
}

static void test_impl_helpers_memory_map_places_regions_with_gaps(void **state)
{
	(void)state;
	ntprof_memory m;
	uint8_t b[2];
	ntprof_memory_init(&m, "x64");
	uint64_t a = ntprof_memory_map(&m, 1, RW, 0, 0xAB);
	uint64_t c = ntprof_memory_map(&m, 0x10001, RW, 0, 0);
	uint64_t d = ntprof_memory_map(&m, 0, RW, 0, 0);
	assert_true(a == 0x100000u && c == 0x120000u && d == 0x150000u);
	/* the whole 64 KiB of the first region, filled; the byte after it is the gap */
	assert_int_equal(ntprof_memory_read(&m, a + 0xFFFE, b, 2), 1);
	assert_true(b[0] == 0xAB && b[1] == 0xAB);
	assert_int_equal(ntprof_memory_read(&m, a + 0xFFFF, b, 2), 0);
	assert_int_equal(ntprof_memory_read(&m, c + 0x1FFFF, b, 1), 1);
	assert_int_equal(ntprof_memory_read(&m, c + 0x20000, b, 1), 0);
	assert_int_equal(ntprof_memory_read(&m, a - 1, b, 1), 0);
	ntprof_memory_fini(&m);
}

static void test_impl_helpers_memory_map_freed_and_full(void **state)
{
	(void)state;
	ntprof_memory m;
	uint8_t b = 1;
	ntprof_memory_init(&m, "x86");
	uint64_t gone = ntprof_memory_map(&m, 16, RW, NTPROF_MAP_FREED, 0);
	uint64_t next = ntprof_memory_map(&m, 16, RW, 0, 0);
	assert_true(gone == 0x100000u && next == 0x120000u);
	assert_int_equal(ntprof_memory_read(&m, gone, &b, 1), 0);
	assert_int_equal(ntprof_memory_poke(&m, gone, &b, 1), 0);
	assert_int_equal(ntprof_memory_read(&m, next, &b, 1), 1);
	/* a 32-bit caller's space ends at 0x7FFF0000: the rest fits, one byte more does not */
	uint64_t room = m.top - m.next;
	assert_true(ntprof_memory_map(&m, room + 1, RW, 0, 0) == 0);
	assert_true(ntprof_memory_map(&m, UINT64_MAX, RW, 0, 0) == 0);
	assert_true(ntprof_memory_map(&m, room, RW, NTPROF_MAP_FREED, 0) != 0);
	assert_true(ntprof_memory_map(&m, 1, RW, 0, 0) == 0);
	ntprof_memory_fini(&m);
}

static void test_impl_helpers_memory_protections(void **state)
{
	(void)state;
	ntprof_memory m;
	uint32_t v = 0x11223344, got = 0;
	ntprof_memory_init(&m, "x64");
	uint64_t ro = ntprof_memory_map(&m, 4, NTPROF_PROT_READ, 0, 0xCC);
	uint64_t wo = ntprof_memory_map(&m, 4, NTPROF_PROT_WRITE, 0, 0);
	uint64_t rw = ntprof_memory_map(&m, 4, RW, 0, 0);
	assert_int_equal(ntprof_memory_write(&m, ro, &v, 4), 0);
	assert_int_equal(ntprof_memory_read(&m, ro, &got, 4), 1);
	assert_true(got == 0xCCCCCCCCu);
	assert_int_equal(ntprof_memory_poke(&m, ro, &v, 4), 1);
	assert_int_equal(ntprof_memory_read(&m, ro, &got, 4), 1);
	assert_true(got == v);
	assert_int_equal(ntprof_memory_write(&m, wo, &v, 4), 1);
	assert_int_equal(ntprof_memory_read(&m, wo, &got, 4), 0);
	assert_int_equal(ntprof_memory_read_locked(&m, wo, &got, 4), 1);
	assert_true(got == v);
	assert_int_equal(ntprof_memory_write(&m, rw, &v, 4), 1);
	/* nothing, or a range that wraps */
	assert_int_equal(ntprof_memory_read(&m, 0, &got, 0), 1);
	assert_int_equal(ntprof_memory_read(&m, UINT64_MAX - 1, &got, 4), 0);
	ntprof_memory_fini(&m);
}

/* A write that fails half-way would leave half of it behind: none does. */
static void test_impl_helpers_memory_failed_write_changes_nothing(void **state)
{
	(void)state;
	ntprof_memory m;
	uint8_t ones[8] = { 1, 1, 1, 1, 1, 1, 1, 1 }, got[4];
	ntprof_memory_init(&m, "x64");
	uint64_t a = ntprof_memory_map(&m, 1, RW, 0, 0);
	assert_int_equal(ntprof_memory_write(&m, a + 0x10000 - 4, ones, 8), 0);
	assert_int_equal(ntprof_memory_read(&m, a + 0x10000 - 4, got, 4), 1);
	assert_true(got[0] == 0 && got[3] == 0);
	ntprof_memory_fini(&m);
}

/* A 4 GiB buffer costs the pages written; the rest reads as the fill. */
static void test_impl_helpers_memory_large_region_is_sparse(void **state)
{
	(void)state;
	ntprof_memory m;
	uint8_t data[6] = { 1, 2, 3, 4, 5, 6 }, got[6];
	ntprof_memory_init(&m, "x64");
	assert_true(ntprof_memory_map(&m, 0x100010001ull, RW, 0, 0) == 0);
	uint64_t a = ntprof_memory_map(&m, 0x100000000ull, RW, 0, 0x5A);
	assert_true(a != 0);
	/* across a page boundary, near the end */
	uint64_t at = a + 0xFFFFFFFDull - 0x1000;
	assert_int_equal(ntprof_memory_write(&m, at, data, 6), 1);
	assert_int_equal(ntprof_memory_read(&m, at, got, 6), 1);
	assert_memory_equal(got, data, 6);
	assert_int_equal(ntprof_memory_read(&m, a + 0x80000000ull, got, 2), 1);
	assert_true(got[0] == 0x5A && got[1] == 0x5A);
	size_t made = 0;
	for (size_t i = 0; i < m.region[0].size / 4096; i++)
		made += m.region[0].page[i] != NULL;
	assert_int_equal(made, 2);
	ntprof_memory_fini(&m);
}

static void test_impl_helpers_memory_release_keeps_locked_pages(void **state)
{
	(void)state;
	ntprof_memory m;
	uint32_t v = 7, got = 0;
	ntprof_memory_init(&m, "x64");
	uint64_t a = ntprof_memory_map(&m, 8, RW, 0, 0);
	assert_int_equal(ntprof_memory_write(&m, a, &v, 4), 1);
	assert_int_equal(ntprof_memory_release(&m, a + 5), 1);
	assert_int_equal(ntprof_memory_read(&m, a, &got, 4), 0);
	assert_int_equal(ntprof_memory_poke(&m, a, &v, 4), 0);
	assert_int_equal(ntprof_memory_read_locked(&m, a, &got, 4), 1);
	assert_true(got == 7);
	v = 9;
	assert_int_equal(ntprof_memory_write_locked(&m, a, &v, 4), 1);
	assert_int_equal(ntprof_memory_read_locked(&m, a, &got, 4), 1);
	assert_true(got == 9);
	assert_int_equal(ntprof_memory_release(&m, a + 0x10000), 0);
	assert_int_equal(ntprof_memory_write_locked(&m, a + 0x10000, &v, 4), 0);
	ntprof_memory_fini(&m);
}

/* AS-2: alignment, then the range, then writable bytes. */
static void test_impl_helpers_memory_probe_write_order(void **state)
{
	(void)state;
	ntprof_memory m;
	ntprof_memory_init(&m, "x86");
	uint64_t rw = ntprof_memory_map(&m, 4, RW, 0, 0);
	uint64_t ro = ntprof_memory_map(&m, 4, NTPROF_PROT_READ, 0, 0);
	assert_int_equal(ntprof_memory_probe_write(&m, rw, 4, 4), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_probe_write(&m, rw + 2, 4, 4), NTPROF_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(ntprof_memory_probe_write(&m, rw + 2, 4, 1), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_probe_write(&m, rw + 2, 4, 0), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_probe_write(&m, ro, 4, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(ntprof_memory_probe_write(&m, 0, 4, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(ntprof_memory_probe_write(&m, rw + 0x10000 - 2, 4, 2), NTPROF_STATUS_ACCESS_VIOLATION);
	/* misaligned above the limit is a misalignment; aligned, a violation */
	assert_int_equal(ntprof_memory_probe_write(&m, 0x80000002u, 4, 4), NTPROF_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(ntprof_memory_probe_write(&m, 0x7FFF0000u, 4, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(ntprof_memory_probe_write(&m, UINT64_MAX - 3, 8, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	ntprof_memory_fini(&m);
}

/* AS-1: the last dword below the limit passes the range test (then needs a
 * mapping); one byte higher fails it; ProbeForRead touches nothing. */
static void test_impl_helpers_memory_probe_read_range_only(void **state)
{
	(void)state;
	ntprof_memory m;
	ntprof_memory_init(&m, "x86");
	assert_int_equal(ntprof_memory_probe_read(&m, 0x7FFEFFFCu, 4, 4), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_probe_read(&m, 0x7FFEFFFDu, 4, 1), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(ntprof_memory_probe_read(&m, 0x7FFEFFFEu, 4, 4), NTPROF_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(ntprof_memory_probe_write(&m, 0x7FFEFFFCu, 4, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	ntprof_memory_fini(&m);
}

/* A vanishing region passes a probe and is gone for every later access. */
static void test_impl_helpers_memory_vanishing_after_probe(void **state)
{
	(void)state;
	ntprof_memory m;
	uint32_t v = 5;
	ntprof_memory_init(&m, "x64");
	uint64_t w = ntprof_memory_map(&m, 4, RW, NTPROF_MAP_VANISHING, 0);
	uint64_t r = ntprof_memory_map(&m, 4, RW, NTPROF_MAP_VANISHING, 0);
	uint64_t kept = ntprof_memory_map(&m, 4, RW, NTPROF_MAP_VANISHING, 0);
	assert_int_equal(ntprof_memory_write(&m, w, &v, 4), 1);
	assert_int_equal(ntprof_memory_probe_write(&m, w, 4, 4), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_write(&m, w, &v, 4), 0);
	assert_int_equal(ntprof_memory_probe_write(&m, w, 4, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(ntprof_memory_probe_read(&m, r, 4, 4), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_read(&m, r, &v, 4), 0);
	/* a failed probe leaves it; so does a probe of nothing */
	assert_int_equal(ntprof_memory_probe_write(&m, kept + 2, 4, 4), NTPROF_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(ntprof_memory_probe_write(&m, kept, 0, 4), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_write(&m, kept, &v, 4), 1);
	ntprof_memory_fini(&m);
}

static void test_impl_helpers_memory_copies_fault_as_user(void **state)
{
	(void)state;
	ntprof_memory m;
	uint32_t v = 3, got = 0;
	ntprof_memory_init(&m, "x64");
	uint64_t rw = ntprof_memory_map(&m, 4, RW, 0, 0);
	uint64_t ro = ntprof_memory_map(&m, 4, NTPROF_PROT_READ, 0, 0);
	assert_int_equal(ntprof_memory_copy_out(&m, rw, &v, 4), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_copy_in(&m, &got, rw, 4), NTPROF_STATUS_SUCCESS);
	assert_true(got == 3);
	assert_int_equal(ntprof_memory_copy_out(&m, ro, &v, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(ntprof_memory_copy_in(&m, &got, 0, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	ntprof_memory_fini(&m);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_impl_helpers_memory_limits_per_arch),
	cmocka_unit_test(test_impl_helpers_memory_map_places_regions_with_gaps),
	cmocka_unit_test(test_impl_helpers_memory_map_freed_and_full),
	cmocka_unit_test(test_impl_helpers_memory_protections),
	cmocka_unit_test(test_impl_helpers_memory_failed_write_changes_nothing),
	cmocka_unit_test(test_impl_helpers_memory_large_region_is_sparse),
	cmocka_unit_test(test_impl_helpers_memory_release_keeps_locked_pages),
	cmocka_unit_test(test_impl_helpers_memory_probe_write_order),
	cmocka_unit_test(test_impl_helpers_memory_probe_read_range_only),
	cmocka_unit_test(test_impl_helpers_memory_vanishing_after_probe),
	cmocka_unit_test(test_impl_helpers_memory_copies_fault_as_user),
};

NP_TEST_MAIN(tests)
