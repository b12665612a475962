/* SPDX-License-Identifier: MIT */
/* SPEC.md MC-7, MC-8, AS-4: what changes between two calls of the caller
 * (model/elsewhere.c): the active processors, another privileged process's
 * interval, the protection of pages of a counters buffer. Each check comes
 * with the case beside it that ends otherwise, so a model that ignored the
 * change would fail one of the two. */
#include "np_test.h"
#include "np_model_fixture.h"

#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/elsewhere.h"
#include "ntprof/machine.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define HCELL   0x10000u        /* RW page of handle cells */
#define BUF     0x100000u       /* RW, 3 pages, zero */
#define BUF_LEN 0x3000u
#define IVAL    0x20000u        /* RW page for a queried interval */
#define REGION  0x10000000u

static bool lay_out(np_machine *m)
{
	return !(np_mem_map(m, HCELL, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC) ||
		 np_mem_map(m, BUF, BUF_LEN, NP_PROT_READ | NP_PROT_WRITE, 0, 0) ||
		 np_mem_map(m, IVAL, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
}

#define SETUP(name, v, a) \
	static int setup_##name(void **state) \
	{ \
		return setup_with(state, machine_new_with(v, a, NULL, lay_out)); \
	}
SETUP(x86_4_0sp4, NP_V4_0SP4, NP_X86)
SETUP(x64_6_0, NP_V6_0, NP_X64)
SETUP(x64_6_1, NP_V6_1, NP_X64)
SETUP(x86_6_2, NP_V6_2, NP_X86)
SETUP(x64_1507, NP_V1507, NP_X64)
#undef SETUP

static void assert_none(np_result r)
{
	assert_int_equal(r.kind, NP_RESULT_NONE);
}

static void assert_not_applicable(np_result r)
{
	assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
	assert_non_null(r.why);
}

/* A profile of the caller's process over REGION..+0x100 in 16-byte buckets,
 * counters at BUF (buffer_size bytes), on the processors of affinity. */
static np_result create(np_machine *m, uint32_t buffer_size, uint64_t affinity, uint64_t *h)
{
	np_create_profile_args a = {
		.profile_handle = HCELL, .process = NP_HANDLE_CURRENT_PROCESS, .profile_base = REGION,
		.profile_size = 0x100, .bucket_size = 4, .buffer = BUF, .buffer_size = buffer_size,
		.source = NP_PROFILE_TIME, .affinity = affinity,
	};
	np_result r = np_nt_create_profile(m, &a);
	*h = 0;
	np_mem_read(m, HCELL, h, m->arch == NP_X64 ? 8 : 4);
	return r;
}

static unsigned counted_on(np_machine *m, unsigned cpu)
{
	np_interrupt i = { .source = NP_PROFILE_TIME, .cpu = cpu, .pc = REGION,
			   .process = NP_PROCESS_CURRENT };
	unsigned counted = 99;
	assert_none(np_profile_interrupt(m, &i, &counted));
	return counted;
}

/* MC-7, ST-6: processor 1 goes away between the create and the start and
 * comes back; before 6.1 the start read the mask without it (4.0sp4 to 6.0:
 * no active processor in the mask means all of them), from 6.1 the create
 * fixed it. The twin: the same profile started while processor 1 is active
 * counts there in every version. */
/* rules: MC-7 ST-6 */
static void test_elsewhere_cpus_read_at_start(void **state)
{
	np_machine *m = *state;
	bool from_6_1 = m->version >= NP_V6_1;
	uint64_t h;
	assert_none(np_elsewhere_set_cpus(m, 2));
	assert_status(create(m, 0x40, 2, &h), NP_STATUS_SUCCESS);
	assert_none(np_elsewhere_set_cpus(m, 1));
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_none(np_elsewhere_set_cpus(m, 2));
	assert_int_equal(counted_on(m, 1), from_6_1 ? 1 : 0);
	assert_int_equal(counted_on(m, 0), from_6_1 ? 0 : 1);
	/* the twin: a restart with processor 1 active */
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_int_equal(counted_on(m, 1), 1);
	assert_int_equal(counted_on(m, 0), 0);
}

/* MC-7: the step cannot make a machine MC-2 forbids; the caller whose
 * processor goes away runs on processor 0, and a processor that comes back
 * takes its peers' interval. */
/* rules: MC-7 MC-2 */
static void test_elsewhere_cpus_limits(void **state)
{
	np_machine *m = *state;
	assert_not_applicable(np_elsewhere_set_cpus(m, 33));
	assert_not_applicable(np_elsewhere_set_cpus(m, 0));
	assert_int_equal(m->cpus, 1);
	assert_none(np_elsewhere_set_cpus(m, 32));
	assert_int_equal(m->cpus, 32);
	assert_null(np_machine_move_thread(m, 5));
	assert_none(np_elsewhere_set_cpus(m, 4));
	assert_int_equal(m->current_cpu, 0);
	assert_none(np_elsewhere_set_cpus(m, 8));
	assert_int_equal(np_hal_interval_on(m, NP_PROFILE_TIME, 7),
			 np_hal_interval_on(m, NP_PROFILE_TIME, 0));
}

static uint32_t query(np_machine *m)
{
	uint32_t v = 0;
	assert_status(np_nt_query_interval_profile(m, NP_PROFILE_TIME, IVAL), NP_STATUS_SUCCESS);
	assert_true(np_mem_read(m, IVAL, &v, sizeof v));
	return v;
}

/* MC-8, SI-8: the other process holds the privilege this caller lacks; its
 * set is what the caller reads, and the caller's own set is still refused
 * from 6.2 (the twin: it succeeds before 6.2 and is then what it reads). */
/* rules: MC-8 SI-8 SI-1 */
static void test_elsewhere_interval(void **state)
{
	np_machine *m = *state;
	bool privileged_set = m->version >= NP_V6_2;
	m->profile_privilege = false;
	assert_status(np_elsewhere_set_interval(m, 20000, NP_PROFILE_TIME), NP_STATUS_SUCCESS);
	assert_int_equal(query(m), 20000);
	assert_false(m->profile_privilege);
	assert_int_equal(m->previous_mode, NP_MODE_USER);
	assert_status(np_nt_set_interval_profile(m, 30000, NP_PROFILE_TIME),
		      privileged_set ? NP_STATUS_PRIVILEGE_NOT_HELD : NP_STATUS_SUCCESS);
	assert_int_equal(query(m), privileged_set ? 20000 : 30000);
}

/* MC-8: a kernel-mode caller stays one after the other's user-mode set. */
/* rules: MC-8 */
static void test_elsewhere_interval_keeps_mode(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(np_elsewhere_set_interval(m, 20000, NP_PROFILE_TIME), NP_STATUS_SUCCESS);
	assert_int_equal(m->previous_mode, NP_MODE_KERNEL);
	assert_int_equal(query(m), 20000);
}

/* AS-4: one page of the buffer made read-only or unmapped; the bytes of the
 * rest stay what they were, and the pages around it are still writable. */
/* rules: AS-4 */
static void test_elsewhere_protect_split(void **state)
{
	np_machine *m = *state;
	uint32_t one = 1, two = 2, v = 0;
	assert_true(np_mem_write(m, BUF, &one, sizeof one));
	assert_true(np_mem_write(m, BUF + 0x2000, &two, sizeof two));
	assert_none(np_elsewhere_protect(m, BUF + 0x1000, 0x1000, NP_PROT_READ));
	assert_true(np_mem_read(m, BUF, &v, sizeof v));
	assert_int_equal(v, 1);
	assert_true(np_mem_read(m, BUF + 0x2000, &v, sizeof v));
	assert_int_equal(v, 2);
	assert_true(np_mem_read(m, BUF + 0x1000, &v, sizeof v));
	assert_false(np_mem_write(m, BUF + 0x1000, &one, sizeof one));
	assert_true(np_mem_write(m, BUF + 0xFFC, &one, sizeof one));
	assert_true(np_mem_write(m, BUF + 0x2000, &one, sizeof one));
	assert_none(np_elsewhere_protect(m, BUF + 0x1000, 0x1000, 0));
	assert_false(np_mem_read(m, BUF + 0x1000, &v, sizeof v));
	assert_true(np_mem_read(m, BUF + 0x2000, &v, sizeof v));
}

/* AS-4: a freed buffer stays freed in every piece; the twin: a live one
 * keeps its bytes. */
/* rules: AS-4 */
static void test_elsewhere_protect_keeps_freed(void **state)
{
	np_machine *m = *state;
	uint32_t v = 0;
	np_mem_find(m, BUF, 1)->revoked = true;          /* FreeBuffer */
	assert_none(np_elsewhere_protect(m, BUF + 0x1000, 0x1000, NP_PROT_READ));
	assert_false(np_mem_read(m, BUF, &v, sizeof v));
	assert_false(np_mem_read(m, BUF + 0x1000, &v, sizeof v));
	assert_false(np_mem_read(m, BUF + 0x2000, &v, sizeof v));
	assert_true(np_mem_read(m, HCELL, &v, sizeof v));
}

/* AS-4: what cannot be changed: part of a page, a range beyond one region,
 * a buffer a started profile holds locked (the twin: once stopped, it can). */
/* rules: AS-4 */
static void test_elsewhere_protect_refused(void **state)
{
	np_machine *m = *state;
	uint64_t h;
	assert_not_applicable(np_elsewhere_protect(m, BUF + 0x800, 0x1000, 0));
	assert_not_applicable(np_elsewhere_protect(m, BUF, 0, 0));
	assert_not_applicable(np_elsewhere_protect(m, BUF + 0x2000, 0x2000, 0));
	assert_status(create(m, BUF_LEN, NP_AFFINITY_ALL, &h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_not_applicable(np_elsewhere_protect(m, BUF + 0x1000, 0x1000, 0));
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_none(np_elsewhere_protect(m, BUF + 0x1000, 0x1000, 0));
}

/* AS-4, CP-13, ST-5: a user-mode create's probe meets the page; a
 * kernel-mode create is not probed and the start's lock meets it. The twin:
 * the same buffer whole succeeds in both. */
/* rules: AS-4 CP-13 ST-5 */
static void test_elsewhere_protect_create_and_start(void **state)
{
	np_machine *m = *state;
	uint64_t h;
	assert_status(create(m, BUF_LEN, NP_AFFINITY_ALL, &h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_none(np_elsewhere_protect(m, BUF + 0x2000, 0x1000, NP_PROT_READ));
	assert_status(np_nt_start_profile(m, h), NP_STATUS_ACCESS_VIOLATION);
	assert_status(create(m, BUF_LEN, NP_AFFINITY_ALL, &h), NP_STATUS_ACCESS_VIOLATION);
	assert_status(create(m, 0x2000, NP_AFFINITY_ALL, &h), NP_STATUS_SUCCESS);
	m->previous_mode = NP_MODE_KERNEL;
	assert_status(create(m, BUF_LEN, NP_AFFINITY_ALL, &h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_ACCESS_VIOLATION);
}


/* AS-4, ST-5: the started profile in the last of the NP_MAX_PROFILES slots
 * holds its buffer locked as one in the first does; the twin: stopped, the
 * same buffer can be changed. */
/* rules: AS-4 ST-5 */
static void test_elsewhere_protect_locked_by_last_slot(void **state)
{
	np_machine *m = *state;
	uint64_t h = 0;
	for (unsigned i = 0; i < NP_MAX_PROFILES; i++)
		assert_status(create(m, BUF_LEN, NP_AFFINITY_ALL, &h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_true(m->profile[NP_MAX_PROFILES - 1].started);
	assert_not_applicable(np_elsewhere_protect(m, BUF + 0x1000, 0x1000, 0));
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	assert_none(np_elsewhere_protect(m, BUF + 0x1000, 0x1000, 0));
}

/* AS-4: a started profile locks only its own region: the page mapped right
 * before its buffer ends where the buffer starts and can still be changed
 * (the twin: the buffer's own page cannot); a range in no region is refused
 * whatever profile is started. */
/* rules: AS-4 */
static void test_elsewhere_protect_next_to_locked(void **state)
{
	np_machine *m = *state;
	uint64_t h;
	uint32_t one = 1;
	assert_null(np_mem_map(m, BUF - NP_PAGE_SIZE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0));
	assert_status(create(m, BUF_LEN, NP_AFFINITY_ALL, &h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	assert_none(np_elsewhere_protect(m, BUF - NP_PAGE_SIZE, NP_PAGE_SIZE, NP_PROT_READ));
	assert_false(np_mem_write(m, BUF - NP_PAGE_SIZE, &one, sizeof one));
	assert_not_applicable(np_elsewhere_protect(m, BUF, NP_PAGE_SIZE, NP_PROT_READ));
	assert_true(np_mem_write(m, BUF, &one, sizeof one));
	assert_not_applicable(np_elsewhere_protect(m, 0x5000000, NP_PAGE_SIZE, 0));
}

/* Maps 16-byte regions, out of everyone's way, until count are mapped. */
static void map_until(np_machine *m, unsigned count)
{
	while (m->mem.count < count)
		assert_null(np_mem_map(m, 0x40000000ull + 0x10000ull * m->mem.count, 16,
				       NP_PROT_READ | NP_PROT_WRITE, 0, 0));
}

/* AS-4: a split of one region into three needs two more of the
 * NP_MAX_REGIONS slots: with one free it is refused and the region is left
 * whole (its middle page still writable, its last bytes kept). */
/* rules: AS-4 */
static void test_elsewhere_protect_one_slot_free(void **state)
{
	np_machine *m = *state;
	uint32_t one = 1, two = 2, v = 0;
	assert_true(np_mem_write(m, BUF + 0x2FFC, &two, sizeof two));
	map_until(m, NP_MAX_REGIONS - 1);
	np_result r = np_elsewhere_protect(m, BUF + 0x1000, 0x1000, NP_PROT_READ);
	assert_not_applicable(r);
	assert_string_equal(r.why, "too many mapped regions");
	assert_int_equal(m->mem.count, NP_MAX_REGIONS - 1);
	assert_true(np_mem_write(m, BUF + 0x1000, &one, sizeof one));
	assert_true(np_mem_read(m, BUF + 0x2FFC, &v, sizeof v));
	assert_int_equal(v, 2);
}

/* AS-4: the twin of the above: with exactly two slots free the split
 * succeeds and keeps every piece, the bytes after the page where they were. */
/* rules: AS-4 */
static void test_elsewhere_protect_two_slots_free(void **state)
{
	np_machine *m = *state;
	uint32_t one = 1, two = 2, v = 0;
	assert_true(np_mem_write(m, BUF + 0x2FFC, &two, sizeof two));
	map_until(m, NP_MAX_REGIONS - 2);
	assert_none(np_elsewhere_protect(m, BUF + 0x1000, 0x1000, NP_PROT_READ));
	assert_int_equal(m->mem.count, NP_MAX_REGIONS);
	assert_true(np_mem_write(m, BUF, &one, sizeof one));
	assert_false(np_mem_write(m, BUF + 0x1000, &one, sizeof one));
	assert_true(np_mem_read(m, BUF + 0x2FFC, &v, sizeof v));
	assert_int_equal(v, 2);
	assert_true(np_mem_write(m, BUF + 0x2FFC, &one, sizeof one));
}

/* AS-4: a region both locked by a started profile and without two free
 * slots is named refused for the lock, which no freed slot would lift;
 * the twin: stopped, the same change is refused for the slots. */
/* rules: AS-4 ST-5 */
static void test_elsewhere_protect_locked_reason(void **state)
{
	np_machine *m = *state;
	uint64_t h;
	assert_status(create(m, BUF_LEN, NP_AFFINITY_ALL, &h), NP_STATUS_SUCCESS);
	assert_status(np_nt_start_profile(m, h), NP_STATUS_SUCCESS);
	map_until(m, NP_MAX_REGIONS - 1);
	np_result r = np_elsewhere_protect(m, BUF + 0x1000, 0x1000, 0);
	assert_not_applicable(r);
	assert_non_null(strstr(r.why, "started profile"));
	assert_status(np_nt_stop_profile(m, h), NP_STATUS_SUCCESS);
	r = np_elsewhere_protect(m, BUF + 0x1000, 0x1000, 0);
	assert_not_applicable(r);
	assert_string_equal(r.why, "too many mapped regions");
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, setup_##s, teardown)
static const struct CMUnitTest tests[] = {
	T(test_elsewhere_cpus_read_at_start, x86_4_0sp4),
	T(test_elsewhere_cpus_read_at_start, x64_6_0),
	T(test_elsewhere_cpus_read_at_start, x64_6_1),
	T(test_elsewhere_cpus_limits, x86_6_2),
	T(test_elsewhere_interval, x86_6_2),
	T(test_elsewhere_interval, x64_6_0),
	T(test_elsewhere_interval_keeps_mode, x64_1507),
	T(test_elsewhere_protect_split, x64_1507),
	T(test_elsewhere_protect_refused, x86_6_2),
	T(test_elsewhere_protect_keeps_freed, x64_6_0),
	T(test_elsewhere_protect_create_and_start, x64_1507),
	T(test_elsewhere_protect_create_and_start, x86_4_0sp4),
	T(test_elsewhere_protect_locked_by_last_slot, x64_1507),
	T(test_elsewhere_protect_next_to_locked, x86_6_2),
	T(test_elsewhere_protect_one_slot_free, x64_6_0),
	T(test_elsewhere_protect_two_slots_free, x64_6_0),
	T(test_elsewhere_protect_locked_reason, x64_1507),
};

NP_TEST_MAIN(tests)
