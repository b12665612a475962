/* SPDX-License-Identifier: MIT */
/* SPEC.md §AS: the simulated address space (AS-1), the user-mode write
 * probe (AS-2) and the read probe of an input array (AS-3), plus the
 * machine's memory: large sparse regions, writes that ignore protection
 * (np_mem_poke), and a 2 GiB profile buffer used end to end. */
#include "np_test.h"
#include "np_model_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#include "internal.h"   /* np_probe_input_array, np_probe_for_write (AS-2, AS-3) */

#define RW_PAGE    0x10000u
#define RO_PAGE    0x20000u
#define GONE_PAGE  0x30000u
#define UNMAPPED   0x40000u
#define BIG        0x200000000ull           /* a 2 GiB region (x64 caller) */
#define BIG_LEN    0x80000000ull
#define KERNEL_X64 0xFFFFF80000001000ull
#define X64_LIMIT  0x7FFFFFFF0000ull
#define X86_LIMIT  0x7FFF0000u
#define RW         (NP_PROT_READ | NP_PROT_WRITE)

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	return !(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE, RW, 0, 0xCC) ||
		 np_mem_map(m, RO_PAGE, NP_PAGE_SIZE, NP_PROT_READ, 0, 0xCC) ||
		 np_mem_map(m, GONE_PAGE, NP_PAGE_SIZE, RW, NP_REGION_VANISHES, 0xCC));
}

static int setup_x64(void **state)
{
	return setup_with(state, machine_new_with(NP_V6_1, NP_X64, NULL, lay_out));
}

static int setup_x86(void **state)
{
	return setup_with(state, machine_new_with(NP_V6_1, NP_X86, NULL, lay_out));
}

static int setup_wow64(void **state)
{
	return setup_with(state, machine_new_with(NP_V6_1, NP_WOW64, NULL, lay_out));
}


/* AS-1: the probe limit is 0x7FFF0000 on x86 and 0x7FFFFFFF0000 for x64
 * and WOW64 callers (a 64-bit kernel). */
/* rules: AS-1 */
static void test_as1_user_probe_address(void **state)
{
	(void)state;
	np_machine m;
	assert_null(np_machine_init(&m, NP_V6_1, NP_X86));
	assert_int_equal(np_user_probe_address(&m), X86_LIMIT);
	assert_null(np_machine_init(&m, NP_V3_10, NP_X86));
	assert_int_equal(np_user_probe_address(&m), X86_LIMIT);
	assert_null(np_machine_init(&m, NP_V6_1, NP_X64));
	assert_int_equal(np_user_probe_address(&m), X64_LIMIT);
	assert_null(np_machine_init(&m, NP_V5_2SP1, NP_WOW64));
	assert_int_equal(np_user_probe_address(&m), X64_LIMIT);
	np_machine_fini(&m);
}

/* The address space AS-2 and AS-3 probe (no rule of its own): regions
 * larger than 1 MiB keep only the pages written; reads of the rest give
 * the fill; the end of the region is exact. */
static void test_memory_large_sparse_region(void **state)
{
	np_machine *m = *state;
	assert_null(np_mem_map(m, BIG, BIG_LEN, RW, 0, 0xEE));
	np_region *r = np_mem_find(m, BIG, BIG_LEN);
	assert_non_null(r);
	assert_null(r->bytes);
	assert_non_null(r->page);
	assert_int_equal(rd32(m, BIG), 0xEEEEEEEEu);
	assert_int_equal(rd32(m, BIG + BIG_LEN - 4), 0xEEEEEEEEu);
	uint32_t v = 0x12345678u;
	assert_true(np_mem_write(m, BIG + BIG_LEN - 4, &v, 4));
	assert_int_equal(rd32(m, BIG + BIG_LEN - 4), 0x12345678u);
	assert_int_equal(rd32(m, BIG + BIG_LEN - 8), 0xEEEEEEEEu);
	assert_false(np_mem_read(m, BIG + BIG_LEN - 2, &v, 4));
	assert_false(np_mem_write(m, BIG + BIG_LEN, &v, 4));
	/* a write across a page boundary lands in two pages */
	uint8_t bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, back[8];
	assert_true(np_mem_write(m, BIG + 0x40000FFCull, bytes, 8));
	assert_true(np_mem_read(m, BIG + 0x40000FFCull, back, 8));
	assert_memory_equal(bytes, back, 8);
	assert_int_equal(rd32(m, BIG + 0x40000FF8ull), 0xEEEEEEEEu);
	assert_int_equal(rd32(m, BIG + 0x40001004ull), 0xEEEEEEEEu);
	/* only two pages of the middle were made, plus the last one */
	size_t made = 0, leaves = 0;
	for (uint64_t l = 0; l < BIG_LEN / NP_PAGE_SIZE / NP_REGION_LEAF_PAGES; l++) {
		leaves += r->page[l] != NULL;
		for (unsigned p = 0; r->page[l] && p < NP_REGION_LEAF_PAGES; p++)
			made += r->page[l][p] != NULL;
	}
	assert_int_equal(made, 3);
	assert_int_equal(leaves, 2);   /* the middle's leaf and the last one */
}

/* The address space AS-2 and AS-3 probe (no rule of its own): np_mem_map
 * takes 1 byte to 4 GiB + 64 KiB, no wrap, no overlap, 32 regions. */
static void test_memory_map_limits(void **state)
{
	np_machine *m = *state;
	assert_non_null(np_mem_map(m, BIG, 0, RW, 0, 0));
	assert_non_null(np_mem_map(m, BIG, 0x100010001ull, RW, 0, 0));
	assert_null(np_mem_map(m, BIG, 0x100010000ull, RW, 0, 0));
	assert_int_equal(rd32(m, BIG + 0x10000FFFCull), 0);
	assert_non_null(np_mem_map(m, UINT64_MAX - 0xFFF, 0x2000, RW, 0, 0));
	assert_non_null(np_mem_map(m, RW_PAGE + 0xFFF, 1, RW, 0, 0));     /* overlap */
	assert_non_null(np_mem_map(m, RW_PAGE - 1, 2, RW, 0, 0));
	assert_null(np_mem_map(m, RW_PAGE + NP_PAGE_SIZE, 1, RW, 0, 0));  /* adjacent is fine */
	assert_null(np_mem_map(m, RW_PAGE - 0x10, 0x10, RW, 0, 0));       /* below it too */
	while (m->mem.count < NP_MAX_REGIONS)
		assert_null(np_mem_map(m, 0x1000000ull * (m->mem.count + 1), 16, RW, 0, 0));
	assert_string_equal(np_mem_map(m, 0x7000000000ull, 16, RW, 0, 0), "too many mapped regions");
	/* a bad size is named as such even when the table is full */
	assert_string_equal(np_mem_map(m, 0x7000000000ull, 0, RW, 0, 0),
			    "a mapped region must be 1 byte to 4 GiB + 64 KiB and must not wrap");
}

/* The address space: a zero-length range is inside any region that holds its
 * address, and reading, writing or probing zero bytes touches nothing, so it
 * succeeds wherever the range stays in user space (AS-2). */
/* rules: AS-2 */
static void test_memory_zero_length(void **state)
{
	np_machine *m = *state;
	uint8_t b = 0xAB;
	assert_non_null(np_mem_find(m, RW_PAGE, 0));
	assert_non_null(np_mem_find(m, RW_PAGE + NP_PAGE_SIZE - 1, 0));
	assert_null(np_mem_find(m, 0, 0));           /* nothing is mapped at 0 */
	assert_true(np_mem_read(m, UNMAPPED, &b, 0));
	assert_true(np_mem_write(m, RO_PAGE, &b, 0));
	assert_int_equal(b, 0xAB);
	assert_int_equal(np_probe_for_write(m, RW_PAGE, 0, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_for_write(m, UNMAPPED, 0, 1), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_input_array(m, UNMAPPED, 0, 4), NP_STATUS_SUCCESS);
}

/* AS-2, AS-3: np_mem_poke writes whatever the protection, but only mapped
 * bytes; the page stays read-only for the probes. */
/* rules: AS-2 AS-3 */
static void test_memory_poke_read_only(void **state)
{
	np_machine *m = *state;
	uint32_t v = 0xA1B2C3D4u;
	assert_false(np_mem_write(m, RO_PAGE, &v, 4));
	assert_int_equal(rd32(m, RO_PAGE), 0xCCCCCCCCu);
	assert_true(np_mem_poke(m, RO_PAGE, &v, 4));
	assert_int_equal(rd32(m, RO_PAGE), 0xA1B2C3D4u);
	assert_true(np_mem_poke(m, RO_PAGE + NP_PAGE_SIZE - 4, &v, 4));
	assert_false(np_mem_poke(m, RO_PAGE + NP_PAGE_SIZE - 2, &v, 4));
	assert_false(np_mem_poke(m, UNMAPPED, &v, 4));
	assert_int_equal(np_probe_for_write(m, RO_PAGE, 4, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(np_probe_input_array(m, RO_PAGE, 4, 4), NP_STATUS_SUCCESS);
	/* a sparse read-only region too */
	assert_null(np_mem_map(m, BIG, BIG_LEN, NP_PROT_READ, 0, 0x11));
	assert_false(np_mem_write(m, BIG + BIG_LEN - 4, &v, 4));
	assert_true(np_mem_poke(m, BIG + BIG_LEN - 4, &v, 4));
	assert_int_equal(rd32(m, BIG + BIG_LEN - 4), 0xA1B2C3D4u);
	assert_int_equal(rd32(m, BIG + BIG_LEN - 8), 0x11111111u);
}

/* AS-2: alignment first, then range (no wrap, below the limit), then
 * writability; a vanishing page passes once and faults afterwards; kernel
 * mode is not probed. */
/* rules: AS-2 */
static void test_as2_write_probe(void **state)
{
	np_machine *m = *state;
	assert_int_equal(np_probe_for_write(m, RW_PAGE, NP_PAGE_SIZE, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_for_write(m, RW_PAGE + 2, 4, 4), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(np_probe_for_write(m, RW_PAGE + 2, 4, 1), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_for_write(m, UNMAPPED + 2, 4, 4), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(np_probe_for_write(m, UNMAPPED, 4, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(np_probe_for_write(m, RW_PAGE + NP_PAGE_SIZE - 4, 8, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(np_probe_for_write(m, UINT64_MAX - 3, 8, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_null(np_mem_map(m, KERNEL_X64, NP_PAGE_SIZE, RW, 0, 0));
	assert_int_equal(np_probe_for_write(m, KERNEL_X64, 4, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_null(np_mem_map(m, X64_LIMIT - NP_PAGE_SIZE, 2 * NP_PAGE_SIZE, RW, 0, 0));
	assert_int_equal(np_probe_for_write(m, X64_LIMIT - 8, 8, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_for_write(m, X64_LIMIT - 4, 8, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(np_probe_for_write(m, GONE_PAGE, 4, 4), NP_STATUS_SUCCESS);
	uint32_t v = 1;
	assert_false(np_mem_write(m, GONE_PAGE, &v, 4));
	assert_int_equal(np_probe_for_write(m, GONE_PAGE, 4, 4), NP_STATUS_ACCESS_VIOLATION);
	m->previous_mode = NP_MODE_KERNEL;
	assert_int_equal(np_probe_for_write(m, 0, 4, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_for_write(m, UNMAPPED + 1, 4, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_for_write(m, KERNEL_X64, 4, 4), NP_STATUS_SUCCESS);
}

/* AS-2 (§Address space), SY-2: a kernel-mode request is not probed, but a
 * vanishing page is gone from the point of the probe all the same, for the
 * write probe and for NtSetSystemInformation's; a page that does not vanish
 * stays writable. */
/* rules: AS-2 SY-2 */
static void test_as2_kernel_vanishing(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	uint32_t v = 1;
	assert_int_equal(np_probe_for_write(m, RW_PAGE, 4, 4), NP_STATUS_SUCCESS);
	assert_true(np_mem_write(m, RW_PAGE, &v, 4));
	assert_true(np_mem_write(m, GONE_PAGE, &v, 4));
	assert_int_equal(np_probe_for_read(m, GONE_PAGE, 4, 4), NP_STATUS_SUCCESS);
	assert_false(np_mem_write(m, GONE_PAGE, &v, 4));
	assert_false(np_mem_read(m, GONE_PAGE, &v, 4));
	assert_int_equal(np_probe_for_write(m, GONE_PAGE, 4, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_for_read(m, RW_PAGE, 4, 4), NP_STATUS_SUCCESS);
	assert_true(np_mem_write(m, RW_PAGE, &v, 4));
}

/* AS-3: alignment first, then wholly below the limit, then readable;
 * read-only is fine; kernel mode is not probed. */
/* rules: AS-3 */
static void test_as3_read_probe(void **state)
{
	np_machine *m = *state;
	assert_int_equal(np_probe_input_array(m, RW_PAGE, 16, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_input_array(m, RO_PAGE + 4, 16, 4), NP_STATUS_SUCCESS);
	for (uint64_t off = 1; off < 4; off++) {
		assert_int_equal(np_probe_input_array(m, RO_PAGE + off, 16, 4), NP_STATUS_DATATYPE_MISALIGNMENT);
		assert_int_equal(np_probe_input_array(m, UNMAPPED + off, 16, 4), NP_STATUS_DATATYPE_MISALIGNMENT);
		assert_int_equal(np_probe_input_array(m, RO_PAGE + off, 16, 1), NP_STATUS_SUCCESS);
	}
	assert_int_equal(np_probe_input_array(m, RW_PAGE + 4, 16, 8), NP_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(np_probe_input_array(m, 0, 16, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(np_probe_input_array(m, UNMAPPED, 16, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(np_probe_input_array(m, RO_PAGE + NP_PAGE_SIZE - 12, 16, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_int_equal(np_probe_input_array(m, RO_PAGE + NP_PAGE_SIZE - 16, 16, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_input_array(m, UINT64_MAX - 7, 16, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_null(np_mem_map(m, KERNEL_X64, NP_PAGE_SIZE, RW, 0, 0));
	assert_int_equal(np_probe_input_array(m, KERNEL_X64, 16, 4), NP_STATUS_ACCESS_VIOLATION);
	assert_null(np_mem_map(m, X64_LIMIT - NP_PAGE_SIZE, 2 * NP_PAGE_SIZE, NP_PROT_READ, 0, 0));
	assert_int_equal(np_probe_input_array(m, X64_LIMIT - 16, 16, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_input_array(m, X64_LIMIT - 12, 16, 4), NP_STATUS_ACCESS_VIOLATION);
	/* a write-only region is not readable */
	assert_null(np_mem_map(m, UNMAPPED + 0x10000, NP_PAGE_SIZE, NP_PROT_WRITE, 0, 0));
	assert_int_equal(np_probe_input_array(m, UNMAPPED + 0x10000, 16, 4), NP_STATUS_ACCESS_VIOLATION);
	/* a page freed by the caller (FreeBuffer) is not readable */
	np_mem_find(m, RW_PAGE, 1)->revoked = true;
	assert_int_equal(np_probe_input_array(m, RW_PAGE, 16, 4), NP_STATUS_ACCESS_VIOLATION);
	m->previous_mode = NP_MODE_KERNEL;
	assert_int_equal(np_probe_input_array(m, 0, 16, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_input_array(m, UNMAPPED + 2, 16, 4), NP_STATUS_SUCCESS);
}

/* AS-1, AS-3: x86 limit 0x7FFF0000; WOW64 pointers (32-bit) are all user
 * space of the 64-bit kernel. */
static void assert_32bit_limits(np_machine *m)
{
	uint64_t limit = np_user_probe_address(m);
	assert_null(np_mem_map(m, 0x7FFEF000u, 0x2000, NP_PROT_READ, 0, 0));
	assert_null(np_mem_map(m, 0x80000000u, NP_PAGE_SIZE, NP_PROT_READ, 0, 0));
	assert_int_equal(np_probe_input_array(m, 0x7FFEFFF4u, 12, 4), NP_STATUS_SUCCESS);
	uint32_t want = m->arch == NP_X86 ? NP_STATUS_ACCESS_VIOLATION : NP_STATUS_SUCCESS;
	assert_int_equal(np_probe_input_array(m, 0x7FFEFFF8u, 12, 4), want);
	assert_int_equal(np_probe_input_array(m, 0x80000000u, 12, 4), want);
	assert_int_equal(np_probe_for_write(m, 0x80000000u, 4, 4), NP_STATUS_ACCESS_VIOLATION); /* read-only */
	assert_int_equal(limit, m->arch == NP_X86 ? X86_LIMIT : X64_LIMIT);
}

/* AS-1, AS-3: x86. */
/* rules: AS-1 AS-3 */
static void test_as3_read_probe_x86_limit(void **state) { assert_32bit_limits(*state); }

/* AS-1, AS-3: WOW64. */
/* rules: AS-1 AS-3 */
static void test_as3_read_probe_wow64_limit(void **state) { assert_32bit_limits(*state); }

/* CP-13, ST-5, IN-5, AS-2: a 2 GiB buffer in a sparse region: probed,
 * locked, and its last counter incremented. */
/* rules: CP-13 ST-5 IN-5 AS-2 */
static void test_memory_two_gib_profile_buffer(void **state)
{
	np_machine *m = *state;
	assert_null(np_mem_map(m, BIG, BIG_LEN, RW, 0, 0));
	np_create_profile_args a = {
		.profile_handle = RW_PAGE, .process = NP_HANDLE_CURRENT_PROCESS,
		.profile_base = 0x10000000u, .profile_size = BIG_LEN, .bucket_size = 2,
		.buffer = BIG, .buffer_size = (uint32_t)BIG_LEN, .source = NP_PROFILE_TIME,
		.affinity = NP_AFFINITY_ALL,
	};
	assert_int_equal(np_nt_create_profile(m, &a).code, NP_STATUS_SUCCESS);
	uint64_t h = 0;
	assert_true(np_mem_read(m, RW_PAGE, &h, 8));
	assert_int_equal(h, 4);
	np_result r = np_nt_start_profile(m, h);
	assert_int_equal(r.kind, NP_RESULT_STATUS);
	assert_int_equal(r.code, NP_STATUS_SUCCESS);
	np_interrupt irq = { .source = NP_PROFILE_TIME, .pc = 0x10000000u + BIG_LEN - 1,
			     .process = NP_PROCESS_CURRENT };
	unsigned counted = 0;
	assert_int_equal(np_profile_interrupt(m, &irq, &counted).kind, NP_RESULT_NONE);
	assert_int_equal(counted, 1);
	assert_int_equal(rd32(m, BIG + BIG_LEN - 4), 1);
	assert_int_equal(rd32(m, BIG + BIG_LEN - 8), 0);
	irq.pc = 0x10000000u;
	assert_int_equal(np_profile_interrupt(m, &irq, &counted).kind, NP_RESULT_NONE);
	assert_int_equal(rd32(m, BIG), 1);
	/* one byte more than the region: the probe fails */
	a.buffer = BIG + 4;
	a.profile_size = BIG_LEN - 4;
	assert_int_equal(np_nt_create_profile(m, &a).code, NP_STATUS_ACCESS_VIOLATION);
}

/* ST-8 zeroing (np_region_zero): a large region's pages never written stay
 * unmade when its fill is zero, written ones and a non-zero fill's are
 * zeroed, and so is a small region. Found by conformance/fuzz/fuzz_model.c: a
 * started 1.5 GiB buffer made every page. */
static size_t pages_made(const np_region *r)
{
	size_t made = 0;
	for (uint64_t l = 0; l < (r->size + NP_PAGE_SIZE - 1) / NP_PAGE_SIZE / NP_REGION_LEAF_PAGES; l++)
		for (unsigned p = 0; r->page[l] && p < NP_REGION_LEAF_PAGES; p++)
			made += r->page[l][p] != NULL;
	return made;
}

static void test_memory_zero_large_region(void **state)
{
	np_machine *m = *state;
	uint32_t v = 7;
	assert_null(np_mem_map(m, BIG, BIG_LEN, RW, 0, 0));
	np_region *r = np_mem_find(m, BIG, BIG_LEN);
	assert_true(np_mem_write(m, BIG + 0x1000, &v, 4));
	np_region_zero(r, 0, BIG_LEN);
	assert_int_equal(pages_made(r), 1);             /* the written page only */
	assert_int_equal(rd32(m, BIG + 0x1000), 0);
	assert_int_equal(rd32(m, BIG + BIG_LEN - 4), 0);
	/* a non-zero fill: the pages zeroed are made */
	assert_null(np_mem_map(m, BIG + BIG_LEN, 0x200000, RW, 0, 0xEE));
	r = np_mem_find(m, BIG + BIG_LEN, 0x200000);
	np_region_zero(r, 0x1002, 0x2000);
	assert_int_equal(pages_made(r), 3);
	assert_int_equal(rd32(m, BIG + BIG_LEN + 0x1000), 0xEEEEu);
	assert_int_equal(rd32(m, BIG + BIG_LEN + 0x1004), 0);
	assert_int_equal(rd32(m, BIG + BIG_LEN + 0x2FFC), 0);
	assert_int_equal(rd32(m, BIG + BIG_LEN + 0x3000), 0xEEEE0000u);
	assert_int_equal(rd32(m, BIG + BIG_LEN + 0x3004), 0xEEEEEEEEu);
	/* a small region holds its bytes in one block */
	np_region_zero(np_mem_find(m, RW_PAGE, 8), 0, 8);
	assert_int_equal(rd32(m, RW_PAGE + 4), 0);
	assert_int_equal(rd32(m, RW_PAGE + 8), 0xCCCCCCCCu);
}

/* AS-2, AS-3: a range over two adjacent mapped regions. */
/* rules: AS-2 AS-3 */
static void test_as2_adjacent_regions(void **state)
{
	np_machine *m = *state;
	assert_null(np_mem_map(m, RW_PAGE + NP_PAGE_SIZE, NP_PAGE_SIZE, RW, 0, 0));
	assert_int_equal(np_probe_for_write(m, RW_PAGE + NP_PAGE_SIZE - 4, 8, 4), NP_STATUS_SUCCESS);
	assert_int_equal(np_probe_input_array(m, RW_PAGE + NP_PAGE_SIZE - 4, 8, 4), NP_STATUS_SUCCESS);
}

/* np_machine_fini with a full region table: it frees the regions the table
 * holds and nothing past them. What follows the table in np_machine is the
 * handle table, which open handles fill with non-zero words, so a fini that
 * also freed the entry after the last would free those words as pointers. */
static void test_memory_fini_full_table_with_handles(void **state)
{
	np_machine *m = *state;
	while (m->mem.count < NP_MAX_REGIONS)
		assert_null(np_mem_map(m, 0x1000000ull * (m->mem.count + 1), 16, RW, 0, 0));
	for (unsigned h = 0; h < 4; h++)
		assert_int_not_equal(np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_CURRENT,
						    NP_PROCESS_QUERY_INFORMATION | NP_SYNCHRONIZE), 0);
	np_machine_fini(m);
	assert_int_equal(m->mem.count, 0);
	assert_int_equal(m->handle[3].type, NP_OBJ_PROCESS);   /* fini leaves the handles alone */
}

/* After np_machine_fini nothing is mapped (ntprof/machine.h): the regions it
 * freed are not in the way of a new mapping at the same addresses. */
static void test_memory_map_again_after_fini(void **state)
{
	np_machine *m = *state;
	np_machine_fini(m);
	assert_null(np_mem_find(m, RW_PAGE, 1));
	assert_null(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE, RW, 0, 0x11));
	assert_null(np_mem_map(m, RO_PAGE, NP_PAGE_SIZE, NP_PROT_READ, 0, 0x22));
	assert_int_equal(rd32(m, RW_PAGE), 0x11111111u);
	assert_int_equal(rd32(m, RO_PAGE), 0x22222222u);
}

/* How a region is stored (ntprof/machine.h, np_region): in pages made when
 * first written; up to 1 MiB it becomes one block when asked (np_region_block). */
#define ONE_BLOCK_MAX (1u << 20)
static void test_memory_one_block_up_to_1_mib(void **state)
{
	np_machine *m = *state;
	assert_null(np_mem_map(m, BIG, ONE_BLOCK_MAX, RW, 0, 0x5A));
	np_region *r = np_mem_find(m, BIG, 1);
	assert_non_null(r);
	/* in pages made when first written until it is asked for as one block */
	assert_null(r->bytes);
	assert_int_equal(rd32(m, BIG + ONE_BLOCK_MAX - 4), 0x5A5A5A5Au);
	uint32_t v = 0x01020304u;
	assert_true(np_mem_write(m, BIG + 8, &v, sizeof v));
	assert_null(r->bytes);
	assert_non_null(r->page);
	assert_non_null(r->page[0]);
	assert_non_null(r->page[0][0]);
	assert_null(r->page[0][1]);
	uint8_t *block = np_region_block(r);
	assert_ptr_equal(block, r->bytes);
	assert_null(r->page);
	assert_ptr_equal(np_region_block(r), block);
	assert_memory_equal(block + 8, &v, sizeof v);
	assert_int_equal(block[ONE_BLOCK_MAX - 1], 0x5A);
	assert_int_equal(rd32(m, BIG + 8), 0x01020304u);
	assert_int_equal(rd32(m, BIG + 4), 0x5A5A5A5Au);
	assert_int_equal(rd32(m, BIG + ONE_BLOCK_MAX - 4), 0x5A5A5A5Au);
	assert_null(np_mem_map(m, BIG + 0x10000000ull, ONE_BLOCK_MAX + 1, RW, 0, 0x5A));
	r = np_mem_find(m, BIG + 0x10000000ull, 1);
	assert_non_null(r);
	assert_null(r->bytes);
	assert_non_null(r->page);
	assert_int_equal(rd32(m, BIG + 0x10000000ull + ONE_BLOCK_MAX - 3), 0x5A5A5A5Au);
	/* one byte over: never one block, asked or not */
	assert_null(np_region_block(r));
	assert_null(r->bytes);
	assert_non_null(r->page);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, setup_##s, teardown)
static const struct CMUnitTest tests[] = {
	T(test_as1_user_probe_address, x64),
	T(test_memory_large_sparse_region, x64),
	T(test_memory_map_limits, x64),
	T(test_memory_zero_length, x64),
	T(test_memory_poke_read_only, x64),
	T(test_as2_kernel_vanishing, x64),
	T(test_as2_write_probe, x64),
	T(test_as3_read_probe, x64),
	T(test_as3_read_probe_x86_limit, x86),
	T(test_as3_read_probe_wow64_limit, wow64),
	T(test_memory_two_gib_profile_buffer, x64),
	T(test_as2_adjacent_regions, x64),
	T(test_memory_zero_large_region, x64),
	T(test_memory_fini_full_table_with_handles, x64),
	T(test_memory_map_again_after_fini, x64),
	T(test_memory_one_block_up_to_1_mib, x64),
};
#undef T

NP_TEST_MAIN(tests)
