/* SPDX-License-Identifier: MIT */
/* The implementers' address space (harness/impl_helpers/memory.c): where
 * regions go, what each access may touch, the probes' order of tests and
 * their effect on vanishing regions, the copies' statuses. Every success is
 * checked beside the failure one byte or one flag away. */
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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
	assert_true(m.page_bytes == 2 * 4096);
	size_t leaves = 0;
	for (size_t l = 0; l < m.region[0].size / 4096 / 512; l++)
		leaves += m.region[0].leaf[l] != NULL;
	assert_int_equal(leaves, 1);
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

/* Writing a page's fill back (how kernel code touches each page of a
 * buffer) makes no page; one byte of anything else makes its page, and the
 * fill written into a page made stays. */
static void test_impl_helpers_memory_fill_writes_make_no_page(void **state)
{
	(void)state;
	ntprof_memory m;
	uint8_t fill[5000], got = 0, one = 1;
	memset(fill, 0x5A, sizeof fill);
	ntprof_memory_init(&m, "x64");
	uint64_t a = ntprof_memory_map(&m, 0x40000, RW, 0, 0x5A);
	assert_int_equal(ntprof_memory_write(&m, a + 100, fill, sizeof fill), 1);
	assert_true(m.page_bytes == 0);
	assert_int_equal(ntprof_memory_write(&m, a + 0x2001, &one, 1), 1);
	assert_true(m.page_bytes == 4096);
	assert_int_equal(ntprof_memory_write(&m, a + 0x2000, fill, 4), 1);
	assert_true(m.page_bytes == 4096);
	assert_int_equal(ntprof_memory_read(&m, a + 0x2001, &got, 1), 1);
	assert_int_equal(got, 0x5A);
	ntprof_memory_fini(&m);
}

/* The budget: a write that would pass it fails whole and says why; one that
 * fits, or that makes no page, still succeeds. */
static void test_impl_helpers_memory_budget_fails_whole_with_why(void **state)
{
	(void)state;
	ntprof_memory m;
	uint8_t ones[8192], got[8192];
	memset(ones, 1, sizeof ones);
	ntprof_memory_init(&m, "x64");
	assert_true(m.page_budget == NTPROF_MEMORY_BUDGET);
	m.page_budget = 3 * 4096;
	uint64_t a = ntprof_memory_map(&m, 0x100000, RW, 0, 0);
	assert_int_equal(ntprof_memory_write(&m, a, ones, 8192), 1);
	assert_null(ntprof_memory_error(&m));
	assert_int_equal(ntprof_memory_write(&m, a + 0x10000 - 1, ones, 2), 0);
	assert_non_null(strstr(ntprof_memory_error(&m), "passed its bound"));
	assert_int_equal(ntprof_memory_read(&m, a + 0x10000 - 1, got, 2), 1);
	assert_true(got[0] == 0 && got[1] == 0 && m.page_bytes == 8192);
	assert_int_equal(ntprof_memory_write(&m, a + 0x10000, ones, 1), 1);
	assert_int_equal(ntprof_memory_poke(&m, a + 0x20000, ones, 1), 0);
	assert_int_equal(ntprof_memory_write(&m, a + 0x20000, got, 2), 1);
	ntprof_memory_fini(&m);
}

/* The table's members: protect answers NONE or not-applicable with why; a
 * call's status becomes not-applicable, saying why, once the caller's
 * memory ran out, and stays the status before. */
static void test_impl_helpers_memory_sim_protect_and_result(void **state)
{
	(void)state;
	ntprof_sim sim;
	uint8_t one = 1;
	assert_int_equal(ntprof_sim_init(&sim, "x64"), 1);
	uint64_t a = ntprof_sim_map(&sim, 0x20000, RW, 0, 0);
	ntprof_result r = ntprof_sim_protect(&sim, a + 0x1000, 0x1000, NTPROF_PROT_READ);
	assert_int_equal(r.kind, NTPROF_NONE);
	assert_int_equal(ntprof_sim_write(&sim, a + 0x1000, &one, 1), 0);
	r = ntprof_sim_protect(&sim, a + 0x1001, 0x1000, 0);
	assert_int_equal(r.kind, NTPROF_NOT_APPLICABLE);
	assert_non_null(strstr(r.why, "whole pages"));
	r = ntprof_sim_result(&sim, NTPROF_STATUS_ACCESS_DENIED);
	assert_true(r.kind == NTPROF_STATUS && r.code == NTPROF_STATUS_ACCESS_DENIED);
	sim.memory.page_budget = 0;
	assert_int_equal(ntprof_sim_write(&sim, a, &one, 1), 0);
	r = ntprof_sim_result(&sim, NTPROF_STATUS_SUCCESS);
	assert_int_equal(r.kind, NTPROF_NOT_APPLICABLE);
	assert_non_null(strstr(r.why, "passed its bound"));
	ntprof_sim_fini(&sim);
}

/* AS-4: whole pages of one region change; the latest change over a page
 * decides; probes, reads and writes obey it, pokes and locked access not. */
static void test_impl_helpers_memory_protect_pages(void **state)
{
	(void)state;
	ntprof_memory m;
	uint32_t v = 9, got = 0;
	ntprof_memory_init(&m, "x86");
	uint64_t a = ntprof_memory_map(&m, 0x4000, RW, 0, 0);
	assert_int_equal(ntprof_memory_protect(&m, a + 1, 0x1000, 0), 0);
	assert_int_equal(ntprof_memory_protect(&m, a, 0x800, 0), 0);
	assert_int_equal(ntprof_memory_protect(&m, a + 0xF000, 0x2000, 0), 0);
	assert_int_equal(ntprof_memory_protect(&m, a + 0x10000, 0x1000, 0), 0);
	assert_int_equal(ntprof_memory_protect(&m, a + 0x1000, 0x2000, NTPROF_PROT_READ), 1);
	assert_int_equal(ntprof_memory_protect(&m, a + 0x2000, 0x1000, 0), 1);
	assert_int_equal(ntprof_memory_write(&m, a + 0xFFC, &v, 4), 1);
	assert_int_equal(ntprof_memory_write(&m, a + 0xFFE, &v, 4), 0);
	assert_int_equal(ntprof_memory_read(&m, a + 0x1FFE, &got, 2), 1);
	assert_int_equal(ntprof_memory_read(&m, a + 0x1FFE, &got, 4), 0);
	assert_int_equal(ntprof_memory_read(&m, a + 0x3000, &got, 4), 1);
	assert_int_equal(ntprof_memory_write(&m, a + 0x3000, &v, 4), 1);
	assert_int_equal(ntprof_memory_probe_write(&m, a, 0x1000, 4), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_probe_write(&m, a, 0x1001, 1), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(ntprof_memory_probe_write(&m, a + 0x3000, 4, 4), NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_memory_poke(&m, a + 0x2000, &v, 4), 1);
	assert_int_equal(ntprof_memory_read_locked(&m, a + 0x2000, &got, 4), 1);
	assert_true(got == 9);
	/* a later change gives back what an earlier one took */
	assert_int_equal(ntprof_memory_protect(&m, a + 0x1000, 0x1000, RW), 1);
	assert_int_equal(ntprof_memory_write(&m, a + 0x1000, &v, 4), 1);
	ntprof_memory_fini(&m);
}

/* The growth of the peak RSS of a child that runs body, in KiB (-1 when
 * no child could be had). */
static long child_rss_growth_kib(void (*body)(void))
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		struct rusage before, after;
		getrusage(RUSAGE_SELF, &before);
		body();
		getrusage(RUSAGE_SELF, &after);
		long grown = after.ru_maxrss - before.ru_maxrss;
		_exit(write(fd[1], &grown, sizeof grown) == sizeof grown ? 0 : 1);
	}
	long grown = -1;
	close(fd[1]);
	if (pid < 0 || read(fd[0], &grown, sizeof grown) != sizeof grown)
		grown = -1;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return grown;
}

#define TWO_GIB 0x80000000ull

/* A 2 GiB region probed for writing, and each of its pages touched as
 * kernel code touches them (the fill read and written back). */
static void probe_two_gib(void)
{
	ntprof_memory m;
	ntprof_memory_init(&m, "x64");
	uint64_t a = ntprof_memory_map(&m, TWO_GIB, RW, 0, 0);
	int ok = a && ntprof_memory_probe_write(&m, a, TWO_GIB, 4) == NTPROF_STATUS_SUCCESS;
	for (uint64_t p = 0; ok && p < TWO_GIB; p += 4096) {
		uint8_t b;
		ok = ntprof_memory_read(&m, a + p, &b, 1) && ntprof_memory_write(&m, a + p, &b, 1);
	}
	ntprof_memory_fini(&m);
	if (!ok)
		_exit(3);
}

/* The twin: 16 MiB of those pages written with something else than the fill. */
static void write_16_mib(void)
{
	ntprof_memory m;
	uint8_t one = 1;
	ntprof_memory_init(&m, "x64");
	uint64_t a = ntprof_memory_map(&m, TWO_GIB, RW, 0, 0);
	for (uint64_t p = 0; a && p < (16u << 20); p += 4096)
		ntprof_memory_write(&m, a + p, &one, 1);
	ntprof_memory_fini(&m);
}

/* Memory goes with what is written, not with the size of the region: a
 * probe over 2 GiB (and a touch of every page) grows the peak RSS by less
 * than 10 MB, where writing 16 MiB of it grows it by more. */
static void test_impl_helpers_memory_probe_of_2gib_stays_small(void **state)
{
	(void)state;
	long probe = child_rss_growth_kib(probe_two_gib);
	long twin = child_rss_growth_kib(write_16_mib);
	print_message("# peak RSS growth: probe of 2 GiB %ld KiB, 16 MiB written %ld KiB\n", probe, twin);
	assert_true(probe >= 0 && probe < 10 * 1000);
	assert_true(twin > 10 * 1000);
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
	cmocka_unit_test(test_impl_helpers_memory_fill_writes_make_no_page),
	cmocka_unit_test(test_impl_helpers_memory_budget_fails_whole_with_why),
	cmocka_unit_test(test_impl_helpers_memory_protect_pages),
	cmocka_unit_test(test_impl_helpers_memory_sim_protect_and_result),
	cmocka_unit_test(test_impl_helpers_memory_probe_of_2gib_stays_small),
};

NP_TEST_MAIN(tests)
