/* SPDX-License-Identifier: MIT */
/* SPEC.md §IN and MC-4: counting at profile interrupts, over processor
 * groups.
 *
 * Each test starts profiles through the calls (create + start), raises
 * interrupts with np_profile_interrupt and reads the caller's buffer back
 * with np_mem_read. Expectations come from the rules, not the model. */
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
#define AFF        0x50000u        /* RW page for GROUP_AFFINITY arrays */
#define BUF        0x100000u       /* RW, 4 pages, zero */
#define BUF_LEN    0x4000u
#define BUF2       0x200000u       /* RW, 1 page, zero */
#define REGION     0x10000000u
#define POISON     0xCCu

#define BUGCHECK_IRQL_NOT_LESS_OR_EQUAL 0x0Au

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	return !(np_mem_map(m, HCELL, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, POISON) ||
		 np_mem_map(m, AFF, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0) ||
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
SETUP(x86_3_50, NP_V3_50, NP_X86)
SETUP(x86_3_51, NP_V3_51, NP_X86)
SETUP(x86_6_1, NP_V6_1, NP_X86)
SETUP(x64_6_1, NP_V6_1, NP_X64)
SETUP(x64_6_2, NP_V6_2, NP_X64)
#undef SETUP

/* ---- helpers ---- */

static void wr32(np_machine *m, uint64_t addr, uint32_t v)
{
	assert_true(np_mem_write(m, addr, &v, sizeof v));
}

/* The caller's all-ones Affinity, or processor 0 for a WOW64 caller from
 * 6.1 (whose all-ones is invalid on fewer than 32 processors, CP-17). */
static uint64_t all_cpus(const np_machine *m)
{
	return m->arch == NP_WOW64 && np_has_group_affinity(m->version) ? 1 : NP_AFFINITY_ALL;
}

typedef struct spec {
	uint64_t process, base, size, buffer;
	uint32_t bucket, buffer_size, source;
	uint64_t affinity;
} spec;

/* Creates and starts a profile; returns its handle. */
static uint64_t start(np_machine *m, spec s)
{
	np_create_profile_args a = {
		.profile_handle = HCELL, .process = s.process, .profile_base = s.base,
		.profile_size = s.size, .bucket_size = s.bucket, .buffer = s.buffer,
		.buffer_size = s.buffer_size, .source = s.source, .affinity = s.affinity,
	};
	uint64_t h = 0;
	assert_status(np_nt_create_profile(m, &a), NP_STATUS_SUCCESS);
	assert_true(np_mem_read(m, HCELL, &h, m->arch == NP_X64 ? 8 : 4));
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	return h;
}

/* 16 counters of 16-byte buckets over REGION..REGION+0x100 at buffer. */
static spec simple(const np_machine *m, uint64_t buffer)
{
	return (spec){ .process = NP_HANDLE_CURRENT_PROCESS, .base = REGION, .size = 0x100,
		       .buffer = buffer, .bucket = 4, .buffer_size = 0x40,
		       .source = NP_PROFILE_TIME, .affinity = all_cpus(m) };
}

static np_result raise_irq(np_machine *m, uint32_t source, uint64_t pc, unsigned cpu, unsigned group,
		       unsigned process, unsigned *counted)
{
	np_interrupt i = { .source = source, .cpu = cpu, .group = group, .pc = pc, .process = process };
	*counted = 99;
	return np_profile_interrupt(m, &i, counted);
}

/* A plain interrupt (outcome NONE); returns Counted. */
static unsigned irq_full(np_machine *m, uint32_t source, uint64_t pc, unsigned cpu, unsigned group,
			 unsigned process)
{
	unsigned counted;
	np_result r = raise_irq(m, source, pc, cpu, group, process, &counted);
	assert_int_equal(r.kind, NP_RESULT_NONE);
	return counted;
}

static unsigned irq(np_machine *m, uint64_t pc)
{
	return irq_full(m, NP_PROFILE_TIME, pc, 0, 0, NP_PROCESS_CURRENT);
}

/* ==== IN-1 ==== */

/* IN-1, IN-2: the interrupted process's profiles, then the global ones; a
 * profile of another process does not count. */
/* rules: IN-1 IN-2 */
static void test_in1_process_and_global_lists(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	uint64_t other = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, 0x001FFFFFu);
	spec g = simple(m, BUF);
	g.process = 0;
	start(m, g);
	start(m, simple(m, BUF + 0x1000));
	spec o = simple(m, BUF + 0x2000);
	o.process = other;
	start(m, o);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION + 0x10, 0, 0, NP_PROCESS_CURRENT), 2);
	assert_int_equal(rd32(m, BUF + 4), 1);
	assert_int_equal(rd32(m, BUF + 0x1004), 1);
	assert_int_equal(rd32(m, BUF + 0x2004), 0);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION + 0x10, 0, 0, NP_PROCESS_OTHER), 2);
	assert_int_equal(rd32(m, BUF + 4), 2);
	assert_int_equal(rd32(m, BUF + 0x1004), 1);
	assert_int_equal(rd32(m, BUF + 0x2004), 1);
}

/* IN-1, IN-7: the process list comes first: when a process profile's
 * increment bug-checks, the global profile created before it never counts. */
/* rules: IN-1 IN-7 */
static void test_in1_process_list_first(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	spec g = simple(m, BUF2);
	g.process = 0;
	g.size = 0x200;
	g.buffer_size = 0x80;
	start(m, g);
	spec p = simple(m, BUF + 0x1000 - 0x40);     /* counters end at a page end */
	p.size = 0x103;                              /* CP-8 slack: one counter past them */
	start(m, p);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION + 0x100, 0, 0, NP_PROCESS_OTHER), 1);
	assert_int_equal(rd32(m, BUF2 + 0x40), 1);
	unsigned counted;
	np_result r = raise_irq(m, NP_PROFILE_TIME, REGION + 0x100, 0, 0, NP_PROCESS_CURRENT, &counted);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, BUGCHECK_IRQL_NOT_LESS_OR_EQUAL);
	assert_int_equal(rd32(m, BUF2 + 0x40), 1);
	assert_int_equal(rd32(m, BUF + 0x1000), 0);
}

/* ==== IN-2 ==== */

/* IN-2: the interrupt's source must equal the profile's, in all 32 bits
 * with K-SRC16=full. */
/* rules: IN-2 */
static void test_in2_source(void **state)
{
	np_machine *m = *state;
	m->knobs.src16 = NP_SRC_FULL;
	spec s = simple(m, BUF);
	start(m, s);
	s.buffer = BUF + 0x1000;
	s.source = 0x02;
	start(m, s);
	s.buffer = BUF + 0x2000;
	s.source = 0x10002;                          /* kept as given before 6.2 (CP-11) */
	start(m, s);
	assert_int_equal(irq_full(m, 0x00, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, 0x02, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, 0x10002, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, 0x01, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(irq_full(m, 0x10000, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(rd32(m, BUF), 1);
	assert_int_equal(rd32(m, BUF + 0x1000), 1);
	assert_int_equal(rd32(m, BUF + 0x2000), 1);
}

/* IN-2: by default (K-SRC16=low16) the profile keeps 16 bits of its source:
 * on 6.1, 0x10000 counts ProfileTime interrupts and 0x10002 ProfileTotalIssues
 * ones; with all 32 bits compared (full) neither counts them. */
/* rules: IN-2 */
static void test_in2_src16_default(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->knobs.src16, NP_SRC_LOW16);
	spec s = simple(m, BUF);
	s.source = 0x10000;
	start(m, s);
	s.buffer = BUF + 0x1000;
	s.source = 0x10002;
	start(m, s);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, 0x02, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(rd32(m, BUF), 1);
	assert_int_equal(rd32(m, BUF + 0x1000), 1);
	m->knobs.src16 = NP_SRC_FULL;                /* the twin: the other reading */
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(irq_full(m, 0x02, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(rd32(m, BUF), 1);
	assert_int_equal(rd32(m, BUF + 0x1000), 1);
}

/* IN-2: K-SRC16=low16 compares the low 16 bits only. */
/* rules: IN-2 */
static void test_in2_src16_knob(void **state)
{
	np_machine *m = *state;
	m->knobs.src16 = NP_SRC_LOW16;
	spec s = simple(m, BUF);
	s.source = 0x10002;
	start(m, s);
	s.buffer = BUF + 0x1000;
	s.source = 0x10000;
	start(m, s);
	assert_int_equal(irq_full(m, 0x02, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, 0x20002, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, 0x00, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, 0x03, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(rd32(m, BUF), 2);
	assert_int_equal(rd32(m, BUF + 0x1000), 1);
	m->knobs.src16 = NP_SRC_FULL;
	assert_int_equal(irq_full(m, 0x02, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(irq_full(m, 0x00, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
}

/* IN-2: the interrupted processor must be one of the profile's (ST-6). An
 * interrupt on a processor that is not active cannot happen. */
/* rules: IN-2 ST-6 */
static void test_in2_processor(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	spec s = simple(m, BUF);
	s.affinity = 0x2;
	start(m, s);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 1, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 3, 0, NP_PROCESS_CURRENT), 0);
	unsigned counted;
	np_result r = raise_irq(m, NP_PROFILE_TIME, REGION, 4, 0, NP_PROCESS_CURRENT, &counted);
	assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
	assert_non_null(r.why);
	assert_int_equal(counted, 0);
	assert_int_equal(rd32(m, BUF), 1);
}

/* IN-2, MC-4, CP-15: a profile counts only in the groups it was created
 * for; GroupCount 0 covers every active group. */
/* rules: IN-2 MC-4 CP-15 */
static void test_in2_groups(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 2));
	assert_null(np_machine_set_groups(m, 3));
	uint8_t el[16] = { 0x2 };                  /* Mask 0x2, Group 1, x64 layout */
	el[8] = 1;
	assert_true(np_mem_write(m, AFF, el, sizeof el));
	np_create_profile_args a = {
		.profile_handle = HCELL, .process = NP_HANDLE_CURRENT_PROCESS, .profile_base = REGION,
		.profile_size = 0x100, .bucket_size = 4, .buffer = BUF, .buffer_size = 0x40,
		.source = NP_PROFILE_TIME, .group_count = 1, .affinity_array = AFF,
	};
	assert_status(np_nt_create_profile_ex(m, &a), NP_STATUS_SUCCESS);
	uint64_t one = 0;
	assert_true(np_mem_read(m, HCELL, &one, 8));
	assert_status(np_nt_start_profile(m, one), NP_STATUS_SUCCESS);
	a.group_count = 0;
	a.buffer = BUF + 0x1000;
	assert_status(np_nt_create_profile_ex(m, &a), NP_STATUS_SUCCESS);
	uint64_t every = 0;
	assert_true(np_mem_read(m, HCELL, &every, 8));
	assert_status(np_nt_start_profile(m, every), NP_STATUS_SUCCESS);

	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 1, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 0, 1, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 1, 1, NP_PROCESS_CURRENT), 2);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 1, 2, NP_PROCESS_CURRENT), 1);
	assert_int_equal(rd32(m, BUF), 1);
	assert_int_equal(rd32(m, BUF + 0x1000), 4);
	unsigned counted;
	np_result r = raise_irq(m, NP_PROFILE_TIME, REGION, 0, 3, NP_PROCESS_CURRENT, &counted);
	assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(counted, 0);
}

/* IN-2: 3.10 and 3.50 know only ProfileTime and test no processor. */
static void assert_no_qualification(np_machine *m)
{
	assert_null(np_machine_set_cpus(m, 2));
	start(m, simple(m, BUF));
	unsigned counted;
	static const uint32_t others[] = { 0x01, 0x02, 0x18 };
	for (size_t i = 0; i < 3; i++) {
		np_result r = raise_irq(m, others[i], REGION, 0, 0, NP_PROCESS_CURRENT, &counted);
		assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
		assert_non_null(r.why);
		assert_int_equal(counted, 0);
	}
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 1, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(rd32(m, BUF), 2);
}

/* IN-2: 3.10. */
/* rules: IN-2 */
static void test_in2_3_10_no_qualification(void **state) { assert_no_qualification(*state); }

/* IN-2: 3.10 tests no processor at all, so a processor that becomes active
 * after the start (MC-2) counts too; from 3.51 a start selects the
 * processors active then (ST-6), so the same sequence counts nothing there. */
static void test_in2_3_10_processor_added_after_start(void **state)
{
	np_machine *m = *state;
	start(m, simple(m, BUF));
	assert_null(np_machine_set_cpus(m, 2));
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 1, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(rd32(m, BUF), 1);
	np_machine *later = boot(NP_V3_51, NP_X86);
	start(later, simple(later, BUF));
	assert_null(np_machine_set_cpus(later, 2));
	assert_int_equal(irq_full(later, NP_PROFILE_TIME, REGION, 1, 0, NP_PROCESS_CURRENT), 0);
	machine_free(later);
}

/* IN-2: 3.50. */
/* rules: IN-2 */
static void test_in2_3_50_no_qualification(void **state) { assert_no_qualification(*state); }

/* IN-2: from 3.51 sources exist: an AlignmentFixup profile counts only
 * AlignmentFixup interrupts. */
/* rules: IN-2 */
static void test_in2_3_51_sources(void **state)
{
	np_machine *m = *state;
	spec s = simple(m, BUF);
	s.source = NP_PROFILE_ALIGNMENT_FIXUP;
	start(m, s);
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, 0, 0, NP_PROCESS_CURRENT), 0);
	assert_int_equal(irq_full(m, NP_PROFILE_ALIGNMENT_FIXUP, REGION, 0, 0, NP_PROCESS_CURRENT), 1);
	assert_int_equal(rd32(m, BUF), 1);
}

/* ==== IN-3, IN-4 ==== */

/* Counts at the edges of REGION..REGION+0x100 with a spare counter 16. */
static void assert_edges(np_machine *m, bool inclusive)
{
	spec s = simple(m, BUF);
	s.buffer_size = 0x44;                        /* 17 counters */
	start(m, s);
	assert_int_equal(irq(m, REGION - 1), 0);
	assert_int_equal(irq(m, REGION), 1);
	assert_int_equal(irq(m, REGION + 0xFF), 1);
	assert_int_equal(irq(m, REGION + 0x100), inclusive ? 1 : 0);
	assert_int_equal(irq(m, REGION + 0x101), 0);
	assert_int_equal(irq(m, REGION + 0x10F), 0);
	assert_int_equal(rd32(m, BUF), 1);
	assert_int_equal(rd32(m, BUF + 0x3C), 1);
	assert_int_equal(rd32(m, BUF + 0x40), inclusive ? 1 : 0);
	uint32_t rest[15];
	assert_true(np_mem_read(m, BUF + 4, rest, sizeof rest));
	for (size_t i = 0; i < 14; i++)
		assert_int_equal(rest[i], 0);
}

/* IN-3: before 6.2 and from 1809 Pc must be below RangeLimit. */
/* rules: IN-3 */
static void test_in3_end_excluded(void **state)
{
	(void)state;
	static const struct { np_ver v; np_arch a; } rows[] = {
		{ NP_V3_51, NP_X86 }, { NP_V4_0, NP_X86 }, { NP_V6_1, NP_X86 }, { NP_V6_1, NP_X64 },
		{ NP_V6_1, NP_WOW64 }, { NP_V1809, NP_X64 }, { NP_V1809, NP_X86 },
		{ NP_V1903, NP_WOW64 }, { NP_V11_24H2, NP_X64 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		np_machine *m = boot(rows[i].v, rows[i].a);
		assert_false(np_region_end_inclusive(m));
		assert_edges(m, false);
		machine_free(m);
	}
}

/* IN-4: 6.2 to 1803 count Pc == RangeLimit too. */
/* rules: IN-4 */
static void test_in4_end_included(void **state)
{
	(void)state;
	static const struct { np_ver v; np_arch a; } rows[] = {
		{ NP_V6_2, NP_X86 }, { NP_V6_2, NP_X64 }, { NP_V6_3, NP_WOW64 }, { NP_V1507, NP_X64 },
		{ NP_V1703, NP_X86 }, { NP_V1803, NP_X64 }, { NP_V1803, NP_WOW64 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		np_machine *m = boot(rows[i].v, rows[i].a);
		assert_true(np_region_end_inclusive(m));
		assert_edges(m, true);
		machine_free(m);
	}
}

/* IN-3, IN-4: a region of size 0 counts its base only where the end is
 * included. */
/* rules: IN-3 IN-4 */
static void test_in4_zero_size_region(void **state)
{
	(void)state;
	static const struct { np_ver v; bool counted; } rows[] = {
		{ NP_V6_1, false }, { NP_V6_2, true }, { NP_V1803, true }, { NP_V1809, false },
	};
	for (size_t i = 0; i < 4; i++) {
		np_machine *m = boot(rows[i].v, NP_X64);
		spec s = simple(m, BUF);
		s.size = 0;
		start(m, s);
		assert_int_equal(irq(m, REGION), rows[i].counted ? 1 : 0);
		assert_int_equal(irq(m, REGION + 1), 0);
		assert_int_equal(rd32(m, BUF), rows[i].counted ? 1 : 0);
		machine_free(m);
	}
}

/* IN-3, IN-4: K-INCLUSIVE-END moves the range, or removes it (never). */
/* rules: IN-3 IN-4 */
static void test_in4_inclusive_end_knob(void **state)
{
	(void)state;
	static const struct { np_ver v, lo, hi; bool inclusive; } rows[] = {
		{ NP_V6_2, NP_V1809, NP_V6_2, false },       /* lo > hi: never */
		{ NP_V1803, NP_V11_24H2, NP_V3_10, false },
		{ NP_V6_1, NP_V6_1, NP_V6_1, true },
		{ NP_V1809, NP_V6_2, NP_V1809, true },
		{ NP_V1803, NP_V6_2, NP_V1709, false },
		{ NP_V6_2, NP_V6_3, NP_V1803, false },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		np_machine *m = boot(rows[i].v, NP_X64);
		m->knobs.inclusive_lo = rows[i].lo;
		m->knobs.inclusive_hi = rows[i].hi;
		assert_int_equal(np_region_end_inclusive(m), rows[i].inclusive);
		assert_edges(m, rows[i].inclusive);
		machine_free(m);
	}
}

/* ==== IN-5, IN-6 ==== */

/* IN-5: the counter is the ULONG at index (Pc - RangeBase) >> BucketSize. */
/* rules: IN-5 */
static void test_in5_counter_index(void **state)
{
	np_machine *m = *state;
	start(m, simple(m, BUF));                             /* bucket 4 */
	static const struct { uint64_t off; unsigned index; } hits[] = {
		{ 0x0, 0 }, { 0xF, 0 }, { 0x10, 1 }, { 0x1F, 1 }, { 0x20, 2 }, { 0xA7, 10 }, { 0xF0, 15 },
	};
	for (size_t i = 0; i < sizeof hits / sizeof *hits; i++)
		assert_int_equal(irq(m, REGION + hits[i].off), 1);
	static const uint32_t want[16] = { 2, 2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(rd32(m, BUF + 4 * i), want[i]);

	spec s = simple(m, BUF + 0x1000);                     /* bucket 2: one counter per 4 bytes */
	s.bucket = 2;
	s.buffer_size = 0x100;
	start(m, s);
	assert_int_equal(irq(m, REGION + 0x7), 2);
	assert_int_equal(rd32(m, BUF + 0x1000 + 4), 1);
	assert_int_equal(rd32(m, BUF + 0x1000), 0);

	s = simple(m, BUF + 0x2000);                          /* bucket 31 from address 0 */
	s.base = 0;
	s.size = 0x100000000ull;
	s.bucket = 31;
	s.buffer_size = 8;
	start(m, s);
	assert_int_equal(irq(m, 0x7FFFFFFF), 1);
	assert_int_equal(irq(m, 0x80000000u), 1);
	assert_int_equal(irq(m, 0xFFFFFFFFu), 1);
	assert_int_equal(rd32(m, BUF + 0x2000), 1);
	assert_int_equal(rd32(m, BUF + 0x2004), 2);

	s = simple(m, BUF + 0x3000);                          /* a kernel-space region */
	s.base = 0xFFFFF80000000000ull;
	s.size = 0x1000;
	s.bucket = 8;
	start(m, s);
	assert_int_equal(irq(m, 0xFFFFF80000000100ull), 1);
	assert_int_equal(irq(m, 0xFFFFF80000000FFFull), 1);
	assert_int_equal(rd32(m, BUF + 0x3004), 1);
	assert_int_equal(rd32(m, BUF + 0x303C), 1);
}

/* The profile slot a handle names (MC-3: handle 4 * (i + 1) is entry i). */
static unsigned slot_of(const np_machine *m, uint64_t h)
{
	assert_true(h >= 4 && h / 4 <= NP_MAX_HANDLES);
	assert_int_equal(m->handle[h / 4 - 1].type, NP_OBJ_PROFILE);
	return m->handle[h / 4 - 1].object;
}

/* IN-5, ST-5: counters in a large region, whose pages the model backs only
 * once written, are counted without the one-block mapping of the start. */
/* rules: IN-5 ST-5 */
static void test_in5_sparse_buffer(void **state)
{
	np_machine *m = *state;
	const uint64_t big = 0x40000000u, size = 32u << 20;   /* past the 16 MiB kept as one block */
	assert_null(np_mem_map(m, big, size, NP_PROT_READ | NP_PROT_WRITE, 0, 0));
	uint64_t h = start(m, simple(m, big + size - 0x1000));
	np_profile *p = &m->profile[slot_of(m, h)];
	assert_null(p->mapped);
	assert_int_equal(irq(m, REGION + 0x10), 1);
	assert_int_equal(irq(m, REGION + 0x1F), 1);
	assert_int_equal(rd32(m, big + size - 0x1000 + 4), 2);
	/* a buffer in a block-backed region is counted through the start's mapping */
	h = start(m, simple(m, BUF));
	assert_non_null(m->profile[slot_of(m, h)].mapped);
	assert_int_equal(irq(m, REGION + 0x10), 2);
	assert_int_equal(rd32(m, BUF + 4), 1);
	assert_int_equal(rd32(m, big + size - 0x1000 + 4), 3);
}

/* IN-1, ST-7, SP-3, SP-5: the lists hold the started profiles, and only
 * them, through every start, stop and deleting close; a profile that
 * reuses a deleted started one's slot does not count until started. */
/* rules: IN-1 ST-7 SP-3 SP-5 */
static void test_in1_lists_follow_start_stop_close(void **state)
{
	np_machine *m = *state;
	uint64_t a = start(m, simple(m, BUF));
	unsigned slot = slot_of(m, a);
	assert_int_equal(m->started_profiles, 1ull << slot);
	assert_status(np_nt_close(m, a), NP_STATUS_SUCCESS);     /* SP-5: deleted, stops */
	assert_int_equal(m->started_profiles, 0);
	np_create_profile_args args = {
		.profile_handle = HCELL, .process = NP_HANDLE_CURRENT_PROCESS, .profile_base = REGION,
		.profile_size = 0x100, .bucket_size = 4, .buffer = BUF2, .buffer_size = 0x40,
		.source = NP_PROFILE_TIME, .affinity = all_cpus(m),
	};
	uint64_t b = 0;
	assert_status(np_nt_create_profile(m, &args), NP_STATUS_SUCCESS);
	assert_true(np_mem_read(m, HCELL, &b, 8));
	assert_int_equal(slot_of(m, b), slot);                   /* the same slot */
	assert_int_equal(irq(m, REGION), 0);
	assert_status(np_nt_start_profile(m, b), NP_STATUS_SUCCESS);
	assert_int_equal(irq(m, REGION), 1);
	assert_status(np_nt_stop_profile(m, b), NP_STATUS_SUCCESS);
	assert_int_equal(m->started_profiles, 0);
	assert_null(m->profile[slot].mapped);
	assert_int_equal(irq(m, REGION), 0);
	assert_int_equal(rd32(m, BUF2), 1);
	assert_int_equal(rd32(m, BUF), 0);
}

/* IN-6: counters are 32-bit and wrap to 0, touching nothing else. */
/* rules: IN-6 */
static void test_in6_counters_wrap(void **state)
{
	np_machine *m = *state;
	start(m, simple(m, BUF));
	wr32(m, BUF + 4, 0xFFFFFFFFu);
	wr32(m, BUF + 8, 0xFFFFFFFEu);
	wr32(m, BUF + 12, 0x12345678u);
	assert_int_equal(irq(m, REGION + 0x10), 1);
	assert_int_equal(irq(m, REGION + 0x20), 1);
	assert_int_equal(rd32(m, BUF + 4), 0);
	assert_int_equal(rd32(m, BUF + 8), 0xFFFFFFFFu);
	assert_int_equal(rd32(m, BUF), 0);
	assert_int_equal(rd32(m, BUF + 12), 0x12345678u);
	assert_int_equal(irq(m, REGION + 0x20), 1);
	assert_int_equal(rd32(m, BUF + 8), 0);
	assert_int_equal(irq(m, REGION + 0x10), 1);
	assert_int_equal(rd32(m, BUF + 4), 1);
}

/* ==== IN-7 ==== */

static unsigned oob(np_machine *m, uint64_t pc, np_result_kind kind)
{
	unsigned counted;
	np_result r = raise_irq(m, NP_PROFILE_TIME, pc, 0, 0, NP_PROCESS_CURRENT, &counted);
	assert_int_equal(r.kind, kind);
	if (kind == NP_RESULT_BUGCHECK)
		assert_int_equal(r.code, BUGCHECK_IRQL_NOT_LESS_OR_EQUAL);
	return counted;
}

/* IN-7, CP-8: K-OOB-POLICY=page: the CP-8 slack puts a counter just after
 * the buffer, inside its last page: outcome corruption, and the memory
 * after the buffer changes; a counter partly inside the buffer too. */
/* rules: IN-7 CP-8 */
static void test_in7_slack_corruption(void **state)
{
	np_machine *m = *state;
	spec s = simple(m, BUF);
	s.size = 0x103;
	start(m, s);
	wr32(m, BUF + 0x40, 0x11111111u);
	assert_int_equal(oob(m, REGION + 0x100, NP_RESULT_CORRUPTION), 1);
	assert_int_equal(rd32(m, BUF + 0x40), 0x11111112u);
	assert_int_equal(oob(m, REGION + 0x102, NP_RESULT_CORRUPTION), 1);
	assert_int_equal(rd32(m, BUF + 0x40), 0x11111113u);
	assert_int_equal(rd32(m, BUF + 0x3C), 0);
	assert_false(m->halted);
	assert_int_equal(irq(m, REGION + 0xFF), 1);               /* the last real counter */
	assert_int_equal(rd32(m, BUF + 0x3C), 1);

	/* BufferSize 0x42: the counter at 0x40 is half inside the buffer */
	s = simple(m, BUF + 0x1800);
	s.buffer_size = 0x42;
	s.size = 0x10B;                                           /* 0x10B >> 2 = 0x42 */
	s.base = REGION + 0x10000;
	start(m, s);
	assert_int_equal(oob(m, REGION + 0x10100, NP_RESULT_CORRUPTION), 1);
	assert_int_equal(rd32(m, BUF + 0x1840), 1);
	assert_int_equal(oob(m, REGION + 0x1010A, NP_RESULT_CORRUPTION), 1);
	assert_int_equal(rd32(m, BUF + 0x1840), 2);
	/* the corruption of one profile does not hide another's plain count */
	assert_int_equal(rd32(m, BUF + 0x40), 0x11111113u);
}

/* IN-7: past the buffer's last page the increment is bug check 0x0A; the
 * machine stops, and every later call ends in the same bug check. */
/* rules: IN-7 */
static void test_in7_past_page_bugcheck(void **state)
{
	np_machine *m = *state;
	spec s = simple(m, BUF + 0x1000 - 0x40);
	s.size = 0x103;
	uint64_t h = start(m, s);
	assert_int_equal(irq(m, REGION + 0xFF), 1);
	assert_int_equal(oob(m, REGION + 0x100, NP_RESULT_BUGCHECK), 1);
	assert_true(m->halted);
	assert_int_equal(m->halt_code, BUGCHECK_IRQL_NOT_LESS_OR_EQUAL);
	assert_int_equal(rd32(m, BUF + 0x1000), 0);               /* the next page is mapped, untouched */

	oob(m, REGION, NP_RESULT_BUGCHECK);
	oob(m, REGION + 0x100, NP_RESULT_BUGCHECK);
	np_result r[7];
	np_create_profile_args a = {
		.profile_handle = HCELL, .process = NP_HANDLE_CURRENT_PROCESS, .profile_base = REGION,
		.profile_size = 0x100, .bucket_size = 4, .buffer = BUF2, .buffer_size = 0x40,
		.source = NP_PROFILE_TIME, .affinity = NP_AFFINITY_ALL,
	};
	uint64_t d = 1;
	r[0] = np_nt_create_profile(m, &a);
	r[1] = np_nt_create_profile_ex(m, &a);
	r[2] = np_nt_stop_profile(m, h);
	r[3] = np_nt_start_profile(m, h);
	r[4] = np_nt_duplicate_object(m, h, NP_PROFILE_CONTROL, &d);
	r[5] = np_nt_close(m, h);
	r[6] = np_nt_close(m, 0);
	for (size_t i = 0; i < 7; i++) {
		assert_int_equal(r[i].kind, NP_RESULT_BUGCHECK);
		assert_int_equal(r[i].code, BUGCHECK_IRQL_NOT_LESS_OR_EQUAL);
	}
	assert_int_equal(rd32(m, BUF + 0xFFC), 1);
	assert_true(m->profile[0].exists);
}

/* IN-4, IN-7: the inclusive end reaches one counter past exactly-sized
 * counters: corruption inside the page, bug check at a page end. */
/* rules: IN-4 IN-7 */
static void test_in7_inclusive_end_overrun(void **state)
{
	np_machine *m = *state;
	assert_true(np_region_end_inclusive(m));
	start(m, simple(m, BUF));                                 /* exactly 16 counters */
	assert_int_equal(oob(m, REGION + 0x100, NP_RESULT_CORRUPTION), 1);
	assert_int_equal(rd32(m, BUF + 0x40), 1);
	spec s = simple(m, BUF2 + 0x1000 - 0x40);
	s.base = REGION + 0x1000;
	start(m, s);
	assert_int_equal(oob(m, REGION + 0x1100, NP_RESULT_BUGCHECK), 1);
	assert_true(m->halted);
}

/* IN-7: K-OOB-POLICY=bugcheck, corruption and ignore. */
/* rules: IN-7 */
static void test_in7_oob_knobs(void **state)
{
	(void)state;
	/* bugcheck: even inside the page */
	np_machine *m = boot(NP_V6_1, NP_X64);
	m->knobs.oob = NP_OOB_BUGCHECK;
	spec s = simple(m, BUF);
	s.size = 0x103;
	start(m, s);
	assert_int_equal(irq(m, REGION), 1);
	assert_int_equal(oob(m, REGION + 0x100, NP_RESULT_BUGCHECK), 1);
	assert_true(m->halted);
	assert_int_equal(rd32(m, BUF + 0x40), 0);
	machine_free(m);

	/* corruption: even past the page (here the region's next page) */
	m = boot(NP_V6_1, NP_X64);
	m->knobs.oob = NP_OOB_CORRUPTION;
	s = simple(m, BUF + 0x1000 - 0x40);
	s.size = 0x103;
	start(m, s);
	assert_int_equal(oob(m, REGION + 0x100, NP_RESULT_CORRUPTION), 1);
	assert_int_equal(rd32(m, BUF + 0x1000), 1);
	assert_false(m->halted);
	machine_free(m);

	/* ignore: the increment is skipped and not counted */
	m = boot(NP_V6_1, NP_X64);
	m->knobs.oob = NP_OOB_IGNORE;
	s = simple(m, BUF + 0x1000 - 0x40);
	s.size = 0x103;
	start(m, s);
	s = simple(m, BUF2);
	s.size = 0x103;
	start(m, s);
	assert_int_equal(oob(m, REGION + 0x100, NP_RESULT_NONE), 0);
	assert_int_equal(rd32(m, BUF + 0x1000), 0);
	assert_int_equal(rd32(m, BUF2 + 0x40), 0);
	assert_false(m->halted);
	assert_int_equal(irq(m, REGION + 0x10), 2);
	machine_free(m);
}

/* IN-7: the interval calls on a stopped machine. */
/* rules: IN-7 */
static void test_in7_halted_interval_calls(void **state)
{
	np_machine *m = *state;
	spec s = simple(m, BUF + 0x1000 - 0x40);
	s.size = 0x103;
	start(m, s);
	oob(m, REGION + 0x100, NP_RESULT_BUGCHECK);
	np_result r = np_nt_set_interval_profile(m, 20000, NP_PROFILE_TIME);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, BUGCHECK_IRQL_NOT_LESS_OR_EQUAL);
	r = np_nt_query_interval_profile(m, NP_PROFILE_TIME, HCELL);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, BUGCHECK_IRQL_NOT_LESS_OR_EQUAL);
}

/* ==== IN-8 ==== */

/* IN-8, CP-6: an x86 segment-mode profile (segment not 0) in a walked list
 * makes the interrupt not applicable, before any source, processor or
 * region test; a segment-0 profile counts like any other. */
/* rules: IN-8 CP-6 */
static void test_in8_segment_profiles(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	spec z = simple(m, BUF);
	z.process = 0;
	z.base = 0;                                  /* segment 0 */
	z.bucket = 0;
	z.size = 0x400;
	z.buffer_size = 0x100;                       /* n = 64, q = 16: bucket 4 */
	start(m, z);
	assert_int_equal(irq(m, 0x10), 1);
	assert_int_equal(rd32(m, BUF + 4), 1);

	spec seg = z;
	seg.process = NP_HANDLE_CURRENT_PROCESS;
	seg.base = 0x1B;
	seg.buffer = BUF + 0x1000;
	start(m, seg);
	/* another process's interrupt does not walk the segment's list */
	assert_int_equal(irq_full(m, NP_PROFILE_TIME, 0x10, 0, 0, NP_PROCESS_OTHER), 1);
	assert_int_equal(rd32(m, BUF + 4), 2);
	static const uint64_t pcs[] = { 0x10, 0x5000, REGION };
	static const uint32_t sources[] = { NP_PROFILE_TIME, 0x02 };
	for (size_t i = 0; i < 3; i++) {
		for (size_t k = 0; k < 2; k++) {
			unsigned counted;
			np_result r = raise_irq(m, sources[k], pcs[i], 0, 0, NP_PROCESS_CURRENT, &counted);
			assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
			assert_non_null(r.why);
		}
	}
	uint32_t seg_counters[64];
	assert_true(np_mem_read(m, BUF + 0x1000, seg_counters, sizeof seg_counters));
	for (size_t i = 0; i < 64; i++)
		assert_int_equal(seg_counters[i], 0);
	assert_false(m->halted);
}

/* ==== MC-4 ==== */

/* MC-4: more than one group only for a 64-bit kernel (x64 and WOW64
 * callers) from 6.1, at most 4 in 6.1 (20 from 6.2: test_machine.c); the
 * caller's group is reset when it no longer exists. */
/* rules: MC-4 */
static void test_mc4_groups(void **state)
{
	(void)state;
	static const struct { np_ver v; np_arch a; bool groups; } rows[] = {
		{ NP_V6_0, NP_X64, false }, { NP_V6_1, NP_X64, true }, { NP_V6_0, NP_WOW64, false },
		{ NP_V6_1, NP_WOW64, true }, { NP_V6_1, NP_X86, false }, { NP_V1703, NP_X86, false },
		{ NP_V11_24H2, NP_X64, true }, { NP_V5_2SP1, NP_X64, false },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		np_machine *m = boot(rows[i].v, rows[i].a);
		assert_int_equal(m->groups, 1);
		assert_int_equal(m->current_group, 0);
		assert_int_equal(np_has_processor_groups(rows[i].v, rows[i].a), rows[i].groups);
		assert_null(np_machine_set_groups(m, 1));
		assert_non_null(np_machine_set_groups(m, 0));
		assert_non_null(np_machine_set_groups(m, rows[i].v == NP_V6_1 || !rows[i].groups ? 5 : 21));
		for (unsigned g = 2; g <= 4; g++) {
			if (rows[i].groups) {
				assert_null(np_machine_set_groups(m, g));
				assert_int_equal(m->groups, g);
			} else {
				assert_non_null(np_machine_set_groups(m, g));
				assert_int_equal(m->groups, 1);
			}
		}
		if (rows[i].groups) {
			m->current_group = 3;
			assert_null(np_machine_set_groups(m, 2));
			assert_int_equal(m->current_group, 0);
			m->current_group = 1;
			assert_null(np_machine_set_groups(m, 2));
			assert_int_equal(m->current_group, 1);
		}
		machine_free(m);
	}
}

/* MC-4, IN-2, CP-16: each group has the same active processors; a
 * profile made by NtCreateProfile counts in the caller's group only. */
/* rules: MC-4 IN-2 CP-16 */
static void test_mc4_current_group_profile(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 3));
	assert_null(np_machine_set_groups(m, 4));
	m->current_group = 3;
	start(m, simple(m, BUF));
	for (unsigned g = 0; g < 4; g++)
		for (unsigned c = 0; c < 3; c++)
			assert_int_equal(irq_full(m, NP_PROFILE_TIME, REGION, c, g, NP_PROCESS_CURRENT),
					 g == 3 ? 1 : 0);
	assert_int_equal(rd32(m, BUF), 3);
}

/* ==== np_profile_interrupts: a run of pcs, as that many single interrupts ==== */

/* Twin machines given the same profiles; one takes the pcs one at a time,
 * the other as a run: counters, Counted, result and halt must agree. */
typedef struct twin_case {
	np_ver v;
	np_arch a;
	unsigned profiles;          /* 0, 1 (the fast loop) or 2 (the general path) */
	uint32_t bucket, buffer_size;
	uint64_t size;
	unsigned oob;               /* np_knob_oob */
	uint32_t source;
} twin_case;

static void run_twins(const twin_case *tc, const uint64_t *pcs, size_t n)
{
	np_machine *one = boot(tc->v, tc->a), *run = boot(tc->v, tc->a);
	np_machine *both[2] = { one, run };
	for (unsigned k = 0; k < 2; k++) {
		both[k]->knobs.oob = (np_knob_oob)tc->oob;
		for (unsigned p = 0; p < tc->profiles; p++) {
			spec s = simple(both[k], p ? BUF2 : BUF);
			s.bucket = tc->bucket;
			s.buffer_size = tc->buffer_size;
			s.size = tc->size;
			start(both[k], s);
		}
	}
	np_interrupt irq = { .source = tc->source, .cpu = 0, .group = 0, .process = NP_PROCESS_CURRENT };
	uint64_t singles = 0, total = 0;
	np_result worst = { NP_RESULT_NONE, 0, NULL }, r;
	for (size_t i = 0; i < n; i++) {
		unsigned c;
		irq.pc = pcs[i];
		r = np_profile_interrupt(one, &irq, &c);
		singles += c;
		if (r.kind != NP_RESULT_NONE)
			worst = r;
		if (r.kind == NP_RESULT_BUGCHECK || r.kind == NP_RESULT_NOT_APPLICABLE)
			break;
	}
	r = np_profile_interrupts(run, &irq, pcs, n, &total);
	assert_int_equal(r.kind, worst.kind);
	assert_int_equal(r.code, worst.code);
	assert_int_equal(total, singles);
	assert_int_equal(run->halted, one->halted);
	uint8_t a[BUF_LEN], b[BUF_LEN];
	assert_true(np_mem_read(one, BUF, a, sizeof a) && np_mem_read(run, BUF, b, sizeof b));
	assert_memory_equal(a, b, sizeof a);
	assert_true(np_mem_read(one, BUF2, a, NP_PAGE_SIZE) && np_mem_read(run, BUF2, b, NP_PAGE_SIZE));
	assert_memory_equal(a, b, NP_PAGE_SIZE);
	machine_free(one);
	machine_free(run);
}

/* IN-3..IN-7 through the run: pcs below, inside, at the end of and past the
 * region, odd buffer sizes (the last counter partly outside), every
 * out-of-bounds policy, the inclusive end of 6.2..1803, two profiles, none,
 * a source no profile has, and a 3.10 machine. */
/* rules: IN-3 IN-7 */
static void test_in_runs_equal_single_interrupts(void **state)
{
	(void)state;
	uint64_t pcs[512], x = 0x9E3779B97F4A7C15ull;
	for (size_t i = 0; i < 512; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;        /* xorshift: fixed, no rand() */
		pcs[i] = REGION - 0x20 + x % 0x160;             /* below, in and past 0x100 */
	}
	pcs[7] = REGION + 0x100;                                /* the region's end itself */
	const twin_case cases[] = {
		{ NP_V1809, NP_X64, 1, 4, 0x40, 0x100, NP_OOB_PAGE, NP_PROFILE_TIME },
		{ NP_V1803, NP_X64, 1, 4, 0x40, 0x100, NP_OOB_PAGE, NP_PROFILE_TIME },     /* IN-4 */
		{ NP_V1607, NP_X64, 1, 4, 0x40, 0x103, NP_OOB_CORRUPTION, NP_PROFILE_TIME },/* CP-8 slack */
		{ NP_V1607, NP_X64, 1, 4, 0x40, 0x103, NP_OOB_IGNORE, NP_PROFILE_TIME },
		{ NP_V1607, NP_X64, 1, 4, 0x40, 0x103, NP_OOB_PAGE, NP_PROFILE_TIME },
		{ NP_V1607, NP_X64, 1, 4, 0x40, 0x103, NP_OOB_BUGCHECK, NP_PROFILE_TIME },
		{ NP_V1607, NP_X64, 1, 4, 0x42, 0x103, NP_OOB_PAGE, NP_PROFILE_TIME },     /* a partial counter */
		{ NP_V1809, NP_X64, 2, 4, 0x40, 0x100, NP_OOB_PAGE, NP_PROFILE_TIME },
		{ NP_V1809, NP_X64, 0, 4, 0x40, 0x100, NP_OOB_PAGE, NP_PROFILE_TIME },
		{ NP_V1809, NP_X64, 1, 4, 0x40, 0x100, NP_OOB_PAGE, NP_PROFILE_ALIGNMENT_FIXUP },
		{ NP_V6_1, NP_WOW64, 1, 4, 0x40, 0x100, NP_OOB_PAGE, NP_PROFILE_TIME },
		{ NP_V3_10, NP_X86, 1, 4, 0x40, 0x100, NP_OOB_PAGE, NP_PROFILE_TIME },
		{ NP_V3_10, NP_X86, 1, 4, 0x40, 0x100, NP_OOB_PAGE, NP_PROFILE_ALIGNMENT_FIXUP },
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
		run_twins(&cases[c], pcs, 512);
}

/* A halted machine, and an interrupt on a processor that does not exist,
 * end the run at once, as they end a single interrupt. */
static void test_in_runs_halted_and_bad_processor(void **state)
{
	np_machine *m = *state;
	uint64_t pcs[2] = { REGION, REGION + 4 }, counted = 7;
	start(m, simple(m, BUF));
	np_interrupt irq = { .source = NP_PROFILE_TIME, .cpu = 5, .process = NP_PROCESS_CURRENT };
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 2, &counted).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(counted, 0);
	m->halted = true;
	m->halt_code = BUGCHECK_IRQL_NOT_LESS_OR_EQUAL;
	irq.cpu = 0;
	np_result r = np_profile_interrupts(m, &irq, pcs, 2, &counted);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(counted, 0);
}

/* IN-7, K-OOB-POLICY=page: a counter that ends exactly at the end of the
 * buffer's last page is in the slack (corruption), not past it. */
/* rules: IN-7 */
static void test_in7_slack_ends_at_page_end(void **state)
{
	np_machine *m = *state;
	spec s = simple(m, BUF2 + 0xFC0);
	s.buffer_size = 0x3E;                       /* counter 15 (0x3C..0x40) is half outside */
	s.size = 0xF8;                              /* CP-8: 0xF8 >> 2 = 0x3E */
	start(m, s);
	assert_int_equal(oob(m, REGION + 0xF0, NP_RESULT_CORRUPTION), 1);
	assert_false(m->halted);
	assert_int_equal(rd32(m, BUF2 + 0xFFC), 1);
}

/* IN-7, K-OOB-POLICY=corruption: an increment that lands on memory nothing
 * backs changes nothing and is still a corruption. */
/* rules: IN-7 */
static void test_in7_corruption_of_unmapped_memory(void **state)
{
	np_machine *m = *state;
	m->knobs.oob = NP_OOB_CORRUPTION;
	spec s = simple(m, BUF2 + 0xFC0);           /* the buffer ends where the mapping ends */
	s.size = 0x103;                             /* CP-8 slack: a 17th counter past it */
	start(m, s);
	assert_int_equal(oob(m, REGION + 0x100, NP_RESULT_CORRUPTION), 1);
	assert_false(m->halted);
}

/* The run's fast path holds only when one started profile can count: a
 * profile of the process beside a global one, and a profile of another
 * process alone, take the general path and count as single interrupts do. */
static void test_in_runs_process_and_global_lists(void **state)
{
	(void)state;
	uint64_t pcs[4] = { REGION, REGION + 0x10, REGION + 0x10, REGION + 0xFF };
	for (unsigned layout = 0; layout < 2; layout++) {
		np_machine *m = boot(NP_V1809, NP_X64);
		m->profile_privilege = true;
		spec a = simple(m, BUF);
		if (layout == 1)
			a.process = np_handle_open(m, NP_OBJ_PROCESS, NP_PROCESS_OTHER, 0x001FFFFFu);
		start(m, a);
		if (layout == 0) {
			spec g = simple(m, BUF2);
			g.process = 0;
			start(m, g);
		}
		np_interrupt irq = { .source = NP_PROFILE_TIME, .process = NP_PROCESS_CURRENT };
		uint64_t counted = 99;
		assert_int_equal(np_profile_interrupts(m, &irq, pcs, 4, &counted).kind, NP_RESULT_NONE);
		assert_int_equal(counted, layout == 0 ? 8 : 0);
		assert_int_equal(rd32(m, BUF + 4), layout == 0 ? 2 : 0);
		if (layout == 0)
			assert_int_equal(rd32(m, BUF2 + 4), 2);
		machine_free(m);
	}
}

/* The general path keeps a corruption as the run's outcome even when later
 * interrupts count normally. */
static void test_in_runs_corruption_kept(void **state)
{
	np_machine *m = *state;
	m->knobs.oob = NP_OOB_CORRUPTION;
	spec s = simple(m, BUF);
	s.size = 0x103;
	start(m, s);
	start(m, simple(m, BUF2));                  /* two profiles: the general path */
	uint64_t pcs[2] = { REGION + 0x100, REGION }, counted = 0;
	np_interrupt irq = { .source = NP_PROFILE_TIME, .process = NP_PROCESS_CURRENT };
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 2, &counted).kind, NP_RESULT_CORRUPTION);
	assert_int_equal(counted, 3);
}

/* IN-8 in a run: the interrupt that meets a segment-mode profile ends the
 * run, after what it counted before it; a segment-mode profile (segment 1)
 * alone never takes the fast path. */
/* rules: IN-8 */
static void test_in_runs_segment_profile(void **state)
{
	np_machine *m = *state;
	start(m, simple(m, BUF));                   /* slot 0: counts first */
	spec seg = simple(m, BUF + 0x1000);
	seg.base = 0x1B;                            /* x86 segment mode (CP-3) */
	seg.bucket = 0;
	seg.size = 0x400;
	seg.buffer_size = 0x100;
	start(m, seg);
	uint64_t pcs[2] = { REGION, REGION + 4 }, counted = 0;
	np_interrupt irq = { .source = NP_PROFILE_TIME, .process = NP_PROCESS_CURRENT };
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 2, &counted).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(counted, 1);
	assert_int_equal(rd32(m, BUF), 1);

	np_machine *m1 = boot(NP_V6_1, NP_X86);
	seg = simple(m1, BUF);
	seg.base = 1;                               /* segment 1 */
	seg.bucket = 0;
	seg.size = 0x400;
	seg.buffer_size = 0x100;
	start(m1, seg);
	uint64_t low[2] = { 0x10, 0x20 };
	assert_int_equal(np_profile_interrupts(m1, &irq, low, 2, &counted).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(counted, 0);
	machine_free(m1);
}

/* A run on the processor or group just past the last active one is not
 * applicable, on a machine of 64 processors and 4 groups too. */
static void test_in_runs_processor_just_past(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 64));
	assert_null(np_machine_set_groups(m, NP_MAX_GROUPS_6_1));
	start(m, simple(m, BUF));
	uint64_t pcs[1] = { REGION }, counted = 7;
	np_interrupt irq = { .source = NP_PROFILE_TIME, .cpu = 64, .process = NP_PROCESS_CURRENT };
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 1, &counted).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(counted, 0);
	irq.cpu = 0;
	irq.group = NP_MAX_GROUPS_6_1;
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 1, &counted).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(counted, 0);
}

/* MC-4: the same past the last of the 20 groups of a 64-bit kernel from
 * 6.2, where no group has room for a processor mask; the twin: group 19
 * exists, and a profile on group 0's processors does not count there. */
/* rules: MC-4 */
static void test_in_runs_group_past_twenty(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_groups(m, NP_MAX_GROUPS));
	start(m, simple(m, BUF));
	uint64_t pcs[1] = { REGION }, counted = 7;
	np_interrupt irq = { .source = NP_PROFILE_TIME, .group = NP_MAX_GROUPS,
			     .process = NP_PROCESS_CURRENT };
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 1, &counted).kind, NP_RESULT_NOT_APPLICABLE);
	assert_int_equal(counted, 0);
	irq.group = NP_MAX_GROUPS - 1;
	counted = 7;
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 1, &counted).kind, NP_RESULT_NONE);
	assert_int_equal(counted, 0);
	irq.group = 0;
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 1, &counted).kind, NP_RESULT_NONE);
	assert_int_equal(counted, 1);
}

/* IN-7 first, then the processor, then IN-2's 3.10 source: which check
 * answers when several fail at once. */
/* rules: IN-7 IN-2 */
static void test_in_order_of_refusals(void **state)
{
	np_machine *m = *state;                     /* 3.10 */
	unsigned c = 7;
	np_result r = raise_irq(m, 0x02, REGION, 5, 0, NP_PROCESS_CURRENT, &c);
	assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
	assert_string_equal(r.why, "no such active processor");
	m->halted = true;
	m->halt_code = BUGCHECK_IRQL_NOT_LESS_OR_EQUAL;
	r = raise_irq(m, 0x02, REGION, 5, 0, NP_PROCESS_CURRENT, &c);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(c, 0);
}

/* A run reads exactly n pcs, on the fast path and on the general one: the
 * pcs live in an allocation of that size, so that ASan (make mutants, the
 * sanitizer tree) reports a read past it. */
static void test_in_runs_read_n_pcs(void **state)
{
	np_machine *m = *state;
	start(m, simple(m, BUF));
	uint64_t *pcs = malloc(2 * sizeof *pcs), counted = 0;
	assert_non_null(pcs);
	pcs[0] = REGION;
	pcs[1] = REGION + 4;
	np_interrupt irq = { .source = NP_PROFILE_TIME, .process = NP_PROCESS_CURRENT };
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 2, &counted).kind, NP_RESULT_NONE);
	assert_int_equal(counted, 2);
	start(m, simple(m, BUF2));                  /* two profiles: the general path */
	assert_int_equal(np_profile_interrupts(m, &irq, pcs, 2, &counted).kind, NP_RESULT_NONE);
	assert_int_equal(counted, 4);
	free(pcs);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, setup_##s, teardown)
static const struct CMUnitTest tests[] = {
	T(test_in1_process_and_global_lists, x64_6_1),
	T(test_in1_process_list_first, x64_6_1),
	T(test_in2_source, x64_6_1),
	T(test_in2_src16_knob, x64_6_1),
	T(test_in2_src16_default, x64_6_1),
	T(test_in2_processor, x64_6_1),
	T(test_in2_groups, x64_6_1),
	T(test_in2_3_10_no_qualification, x86_3_10),
	T(test_in2_3_10_processor_added_after_start, x86_3_10),
	T(test_in2_3_50_no_qualification, x86_3_50),
	T(test_in2_3_51_sources, x86_3_51),
	T(test_in3_end_excluded, bare),
	T(test_in4_end_included, bare),
	T(test_in4_zero_size_region, bare),
	T(test_in4_inclusive_end_knob, bare),
	T(test_in5_counter_index, x64_6_1),
	T(test_in5_sparse_buffer, x64_6_1),
	T(test_in1_lists_follow_start_stop_close, x64_6_1),
	T(test_in6_counters_wrap, x64_6_1),
	T(test_in7_slack_corruption, x64_6_1),
	T(test_in7_past_page_bugcheck, x64_6_1),
	T(test_in7_inclusive_end_overrun, x64_6_2),
	T(test_in7_oob_knobs, bare),
	T(test_in7_halted_interval_calls, x64_6_1),
	T(test_in8_segment_profiles, x86_6_1),
	T(test_mc4_groups, bare),
	T(test_mc4_current_group_profile, x64_6_1),
	T(test_in_runs_equal_single_interrupts, bare),
	T(test_in_runs_halted_and_bad_processor, x64_6_1),
	T(test_in7_slack_ends_at_page_end, x64_6_1),
	T(test_in7_corruption_of_unmapped_memory, x64_6_1),
	T(test_in_runs_process_and_global_lists, bare),
	T(test_in_runs_corruption_kept, x64_6_1),
	T(test_in_runs_segment_profile, x86_6_1),
	T(test_in_runs_processor_just_past, x64_6_1),
	T(test_in_runs_group_past_twenty, x64_6_2),
	T(test_in_order_of_refusals, x86_3_10),
	T(test_in_runs_read_n_pcs, x64_6_1),
};
#undef T

NP_TEST_MAIN(tests)
