/* SPDX-License-Identifier: MIT */
/* The implementers' handle table (harness/impl_helpers/handles.c) and the
 * impl.h members over both parts (harness/impl_helpers/sim.c): handle
 * values, pseudo-handles at the caller's width, the reference checks in
 * their order, close and duplicate, objects released with their last
 * handle, the table's members and stubs. */
#include "np_test.h"

#include "ntprof/impl_helpers.h"

#define TAG_PROFILE (NTPROF_OBJECT_USER + 1u)
#define PROFILE_ALL_ACCESS 0x000F0001u

typedef struct releases {
	unsigned count;
	void *last;
} releases;

static void count_release(void *ctx, uint32_t type, void *object)
{
	releases *r = ctx;
	assert_int_equal(type, TAG_PROFILE);
	r->count++;
	r->last = object;
}

static void test_impl_helpers_handles_values(void **state)
{
	(void)state;
	ntprof_handles t;
	int object = 0;
	assert_int_equal(ntprof_handles_init(&t, "arm64"), 0);
	assert_int_equal(ntprof_handles_init(&t, "x64"), 1);
	assert_true(ntprof_handles_open(&t, TAG_PROFILE, &object, 1) == 4);
	assert_true(ntprof_handles_open(&t, TAG_PROFILE, &object, 1) == 8);
	for (uint64_t h = 4; h < 8; h++)
		assert_ptr_equal(ntprof_handles_lookup(&t, h)->object, &object);
	for (uint64_t h = 0; h < 4; h++)
		assert_null(ntprof_handles_lookup(&t, h));
	assert_null(ntprof_handles_lookup(&t, 12));
	assert_null(ntprof_handles_lookup(&t, 0x100000));
	assert_int_equal(ntprof_handles_close(&t, 6), NTPROF_STATUS_SUCCESS);
	assert_null(ntprof_handles_lookup(&t, 4));
	assert_true(ntprof_handles_open(&t, NTPROF_OBJECT_PROCESS, &object, 1) == 4);
	/* the lowest free value first, whatever was freed last */
	assert_true(ntprof_handles_open(&t, TAG_PROFILE, &object, 1) == 12);
	ntprof_handles_close(&t, 4);
	ntprof_handles_close(&t, 8);
	assert_true(ntprof_handles_open(&t, TAG_PROFILE, &object, 1) == 4);
	assert_true(ntprof_handles_open(&t, TAG_PROFILE, &object, 1) == 8);
	assert_true(ntprof_handles_open(&t, TAG_PROFILE, &object, 1) == 16);
	assert_true(ntprof_handles_open(&t, 0, &object, 1) == 0);
	assert_true(ntprof_handles_open(&t, NTPROF_OBJECT_TAGS, &object, 1) == 0);
	ntprof_handles_fini(&t);
}

/* MC-3: -1 and -2 at either width; a 32-bit value sign-extended only for a
 * 32-bit caller. */
static void test_impl_helpers_handles_pseudo_handles(void **state)
{
	(void)state;
	ntprof_handles narrow, wide;
	void *o = NULL;
	ntprof_handles_init(&narrow, "wow64");
	ntprof_handles_init(&wide, "x64");
	assert_int_equal(ntprof_handles_reference(&narrow, 0xFFFFFFFFu, NTPROF_OBJECT_PROCESS, 0x400, 1, &o),
			 NTPROF_STATUS_SUCCESS);
	assert_ptr_equal(o, &narrow.this_process);
	assert_int_equal(narrow.this_process.other, 0);
	assert_int_equal(ntprof_handles_reference(&narrow, 0xFFFFFFFEu, NTPROF_OBJECT_THREAD, 0, 1, &o),
			 NTPROF_STATUS_SUCCESS);
	assert_ptr_equal(o, &narrow.this_thread);
	assert_ptr_equal(narrow.this_thread.process, &narrow.this_process);
	assert_int_equal(ntprof_handles_reference(&narrow, 0xFFFFFFFEu, NTPROF_OBJECT_PROCESS, 0, 1, &o),
			 NTPROF_STATUS_OBJECT_TYPE_MISMATCH);
	assert_int_equal(ntprof_handles_reference(&wide, NTPROF_CURRENT_PROCESS, NTPROF_OBJECT_THREAD, 0, 1, &o),
			 NTPROF_STATUS_OBJECT_TYPE_MISMATCH);
	assert_int_equal(ntprof_handles_reference(&wide, 0xFFFFFFFFu, NTPROF_OBJECT_PROCESS, 0, 1, &o),
			 NTPROF_STATUS_INVALID_HANDLE);
	assert_true(ntprof_handles_widen(&narrow, 0xFFFFFFFCu) == UINT64_C(0xFFFFFFFFFFFFFFFC));
	assert_true(ntprof_handles_widen(&wide, 0xFFFFFFFCu) == 0xFFFFFFFCu);
	/* the pseudo-handles are no table handles */
	assert_int_equal(ntprof_handles_close(&wide, NTPROF_CURRENT_PROCESS), NTPROF_STATUS_INVALID_HANDLE);
	uint64_t dup = 1;
	assert_int_equal(ntprof_handles_duplicate(&narrow, 0xFFFFFFFFu, 0, &dup), NTPROF_STATUS_INVALID_HANDLE);
	assert_true(dup == 0);
	ntprof_handles_fini(&narrow);
	ntprof_handles_fini(&wide);
}

/* MC-3: no entry, then the type, then (user mode only) the access. */
static void test_impl_helpers_handles_reference_checks(void **state)
{
	(void)state;
	ntprof_handles t;
	void *o = NULL;
	ntprof_handles_init(&t, "x86");
	uint64_t other = ntprof_handles_open_process(&t, 1, 0x0400);
	uint64_t self = ntprof_handles_open_process(&t, 0, 0x00100000);
	assert_int_equal(ntprof_handles_reference(&t, other, NTPROF_OBJECT_PROCESS, 0x0400, 1, &o),
			 NTPROF_STATUS_SUCCESS);
	assert_ptr_equal(o, &t.other_process);
	assert_int_equal(t.other_process.other, 1);
	o = NULL;
	assert_int_equal(ntprof_handles_reference(&t, self, NTPROF_OBJECT_PROCESS, 0x0400, 1, &o),
			 NTPROF_STATUS_ACCESS_DENIED);
	assert_null(o);
	assert_int_equal(ntprof_handles_reference(&t, self, NTPROF_OBJECT_PROCESS, 0x0400, 0, &o),
			 NTPROF_STATUS_SUCCESS);
	assert_ptr_equal(o, &t.this_process);
	assert_int_equal(ntprof_handles_reference(&t, self, TAG_PROFILE, 0, 0, &o),
			 NTPROF_STATUS_OBJECT_TYPE_MISMATCH);
	assert_int_equal(ntprof_handles_reference(&t, 1, NTPROF_OBJECT_PROCESS, 0, 0, &o),
			 NTPROF_STATUS_INVALID_HANDLE);
	ntprof_handles_fini(&t);
}

/* MC-5: a duplicate has exactly the access asked, within its type's mask;
 * the object is released once, with its last handle. */
static void test_impl_helpers_handles_duplicate_and_release(void **state)
{
	(void)state;
	ntprof_handles t;
	releases r = { 0, NULL };
	int profile = 0;
	uint64_t dup = 0;
	ntprof_handles_init(&t, "x64");
	assert_int_equal(ntprof_handles_define_type(&t, NTPROF_OBJECT_THREAD, 0, NULL, NULL), 0);
	assert_int_equal(ntprof_handles_define_type(&t, NTPROF_OBJECT_TAGS, 0, NULL, NULL), 0);
	assert_int_equal(ntprof_handles_define_type(&t, TAG_PROFILE, PROFILE_ALL_ACCESS, count_release, &r), 1);
	uint64_t h = ntprof_handles_open(&t, TAG_PROFILE, &profile, 1);
	assert_int_equal(ntprof_handles_duplicate(&t, h, 0xFFFFFFFFu, &dup), NTPROF_STATUS_SUCCESS);
	assert_true(ntprof_handles_lookup(&t, dup)->access == PROFILE_ALL_ACCESS);
	assert_int_equal(ntprof_handles_count(&t, &profile), 2);
	assert_int_equal(ntprof_handles_close(&t, h), NTPROF_STATUS_SUCCESS);
	assert_int_equal(r.count, 0);
	assert_int_equal(ntprof_handles_close(&t, h), NTPROF_STATUS_INVALID_HANDLE);
	assert_int_equal(ntprof_handles_close(&t, dup), NTPROF_STATUS_SUCCESS);
	assert_int_equal(r.count, 1);
	assert_ptr_equal(r.last, &profile);
	/* a process's access is not masked; fini releases what is still open */
	uint64_t p = ntprof_handles_open_process(&t, 0, 0);
	assert_int_equal(ntprof_handles_duplicate(&t, p, 0xFFFFFFFFu, &dup), NTPROF_STATUS_SUCCESS);
	assert_true(ntprof_handles_lookup(&t, dup)->access == 0xFFFFFFFFu);
	ntprof_handles_open(&t, TAG_PROFILE, &profile, 1);
	ntprof_handles_open(&t, TAG_PROFILE, &profile, 1);
	ntprof_handles_fini(&t);
	assert_int_equal(r.count, 2);
	assert_true(t.entry == NULL && t.capacity == 0);
}

static void test_impl_helpers_handles_table_full(void **state)
{
	(void)state;
	ntprof_handles t;
	int object = 0;
	uint64_t h = 0, dup = 1;
	ntprof_handles_init(&t, "x64");
	for (unsigned i = 0; i < NTPROF_HANDLES_MAX; i++)
		h = ntprof_handles_open(&t, TAG_PROFILE, &object, 1);
	assert_true(h == 4ull * NTPROF_HANDLES_MAX);
	assert_true(ntprof_handles_open(&t, TAG_PROFILE, &object, 1) == 0);
	assert_int_equal(ntprof_handles_duplicate(&t, h, 1, &dup), NTPROF_STATUS_INSUFFICIENT_RESOURCES);
	assert_true(dup == 0);
	ntprof_handles_close(&t, 8);
	assert_true(ntprof_handles_open(&t, TAG_PROFILE, &object, 1) == 8);
	ntprof_handles_fini(&t);
}

/* ---- ntprof_sim: impl.h's members over both ---- */

typedef struct my_sys {
	ntprof_sim sim;
	int mine;
} my_sys;

static void test_impl_helpers_sim_init(void **state)
{
	(void)state;
	ntprof_sim sim;
	assert_int_equal(ntprof_sim_init(&sim, "x86"), 1);
	assert_int_equal(sim.pointer_size, 4);
	ntprof_sim_fini(&sim);
	assert_int_equal(ntprof_sim_init(&sim, "wow64"), 1);
	assert_int_equal(sim.pointer_size, 4);
	assert_int_equal(sim.handles.narrow, 1);
	ntprof_sim_fini(&sim);
	assert_int_equal(ntprof_sim_init(&sim, "x64"), 1);
	assert_int_equal(sim.pointer_size, 8);
	ntprof_sim_fini(&sim);
	assert_int_equal(ntprof_sim_init(&sim, "ia64"), 0);
	assert_int_equal(sim.pointer_size, 0);
}

static void test_impl_helpers_sim_members(void **state)
{
	(void)state;
	my_sys s;
	void *sys = &s;
	uint32_t v = 0x01020304, got = 0;
	ntprof_sim_init(&s.sim, "x64");
	uint64_t a = ntprof_sim_map(sys, 4, NTPROF_PROT_READ, 0, 0);
	assert_true(a == 0x100000u);
	assert_int_equal(ntprof_sim_write(sys, a, &v, 4), 0);
	assert_int_equal(ntprof_sim_poke(sys, a, &v, 4), 1);
	assert_int_equal(ntprof_sim_read(sys, a, &got, 4), 1);
	assert_true(got == v);
	assert_int_equal(ntprof_sim_release(sys, a), 1);
	assert_int_equal(ntprof_sim_read(sys, a, &got, 4), 0);
	uint64_t p = ntprof_sim_open_process(sys, 1, 0x0400);
	assert_ptr_equal(ntprof_handles_lookup(&s.sim.handles, p)->object, &s.sim.handles.other_process);
	ntprof_result r = ntprof_sim_close_handle(sys, "NtClose", p);
	assert_true(r.kind == NTPROF_STATUS && r.code == NTPROF_STATUS_SUCCESS);
	r = ntprof_sim_close_handle(sys, "NtClose", p);
	assert_true(r.kind == NTPROF_STATUS && r.code == NTPROF_STATUS_INVALID_HANDLE);
	ntprof_sim_fini(&s.sim);
}

/* The duplicate is written at the caller's width: 4 bytes of a 32-bit
 * caller's 8-byte slot, the rest untouched. */
static void test_impl_helpers_sim_duplicate_writes_handle(void **state)
{
	(void)state;
	my_sys s;
	void *sys = &s;
	uint8_t slot[8];
	ntprof_sim_init(&s.sim, "x86");
	uint64_t out = ntprof_sim_map(sys, 8, NTPROF_PROT_READ | NTPROF_PROT_WRITE, 0, 0xCC);
	uint64_t ro = ntprof_sim_map(sys, 8, NTPROF_PROT_READ, 0, 0xCC);
	uint64_t p = ntprof_sim_open_process(sys, 0, 0x0400);
	ntprof_result r = ntprof_sim_duplicate_object(sys, "NtDuplicateObject", p, 0x0400, out);
	assert_true(r.kind == NTPROF_STATUS && r.code == NTPROF_STATUS_SUCCESS);
	assert_int_equal(ntprof_sim_read(sys, out, slot, 8), 1);
	assert_true(slot[0] == 8 && slot[1] == 0 && slot[3] == 0 && slot[4] == 0xCC);
	/* a faulting write is the caller's loss: the duplicate still succeeded */
	r = ntprof_sim_duplicate_object(sys, "NtDuplicateObject", p, 0x0400, ro);
	assert_true(r.code == NTPROF_STATUS_SUCCESS && ntprof_handles_lookup(&s.sim.handles, 12));
	r = ntprof_sim_duplicate_object(sys, "NtDuplicateObject", 1, 0, out);
	assert_true(r.code == NTPROF_STATUS_INVALID_HANDLE);
	assert_int_equal(ntprof_sim_copy_out_pointer(&s.sim, ro, 1), NTPROF_STATUS_ACCESS_VIOLATION);
	ntprof_sim_fini(&s.sim);
	assert_int_equal(ntprof_sim_init(&s.sim, "x64"), 1);
	out = ntprof_sim_map(sys, 8, NTPROF_PROT_READ | NTPROF_PROT_WRITE, 0, 0xCC);
	assert_int_equal(ntprof_sim_copy_out_pointer(&s.sim, out, UINT64_C(0x1122334455667788)), 0);
	assert_int_equal(ntprof_sim_read(sys, out, slot, 8), 1);
	assert_true(slot[0] == 0x88 && slot[7] == 0x11);
	ntprof_sim_fini(&s.sim);
}

static ntprof_result mine(void *sys, const char *fn, uint64_t handle)
{
	(void)sys, (void)fn, (void)handle;
	return ntprof_result_status(0x1234);
}

/* Every call left NULL answers not-applicable; a call set is kept. */
static void test_impl_helpers_stub_missing(void **state)
{
	(void)state;
	ntprof_impl t = { 0 };
	ntprof_create_args args = { 0 };
	t.start_profile = mine;
	ntprof_impl_stub_missing(&t);
	ntprof_result r[12] = {
		t.set_interval_profile(NULL, "", 0, 0),
		t.query_interval_profile(NULL, "", 0, 0),
		t.create_profile(NULL, "", &args),
		t.create_profile_ex(NULL, "", &args),
		t.start_profile(NULL, "", 0),
		t.stop_profile(NULL, "", 0),
		t.close_handle(NULL, "", 0),
		t.duplicate_object(NULL, "", 0, 0, 0),
		t.set_system_information(NULL, "", 0, 0, 0),
		t.query_system_information(NULL, "", 0, 0, 0, 0),
		t.trace_set_information(NULL, 0, 0, 0, 0),
		t.trace_query_information(NULL, 0, 0, 0, 0, 0),
	};
	for (unsigned i = 0; i < 12; i++) {
		if (i == 4) {
			assert_true(r[i].kind == NTPROF_STATUS && r[i].code == 0x1234);
			continue;
		}
		assert_int_equal(r[i].kind, NTPROF_NOT_APPLICABLE);
		assert_string_equal(r[i].why, "not implemented here");
	}
	assert_null(t.open);
	assert_null(t.map);
	assert_null(t.interrupt);
	ntprof_result na = ntprof_result_not_applicable("why");
	assert_true(na.kind == NTPROF_NOT_APPLICABLE && na.code == 0);
	assert_string_equal(na.why, "why");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_impl_helpers_handles_values),
	cmocka_unit_test(test_impl_helpers_handles_pseudo_handles),
	cmocka_unit_test(test_impl_helpers_handles_reference_checks),
	cmocka_unit_test(test_impl_helpers_handles_duplicate_and_release),
	cmocka_unit_test(test_impl_helpers_handles_table_full),
	cmocka_unit_test(test_impl_helpers_sim_init),
	cmocka_unit_test(test_impl_helpers_sim_members),
	cmocka_unit_test(test_impl_helpers_sim_duplicate_writes_handle),
	cmocka_unit_test(test_impl_helpers_stub_missing),
};

NP_TEST_MAIN(tests)
