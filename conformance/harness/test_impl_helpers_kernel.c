/* SPDX-License-Identifier: MIT */
/* The kernel services (harness/impl_helpers/kernel.c): try/except and
 * raises, probes that raise, objects and their references, pool failures,
 * the MDL limit of each version and what a lock and a mapping reach,
 * privileges, processors and the HAL's interval. Each success is checked
 * beside the failure one argument away. */
#include <string.h>

#include "np_test.h"

#include "ntprof/kernel_services.h"

#define RW (NTPROF_PROT_READ | NTPROF_PROT_WRITE)

static ntprof_kernel *kernel(const char *version, const char *arch)
{
	static ntprof_kernel k;
	ntprof_system_spec spec = { version, arch, NULL, 0 };
	assert_int_equal(ntprof_kernel_init(&k, &spec), 1);
	ntprof_kernel_enter(&k);
	return &k;
}

static PVOID user(uint64_t addr)
{
	return (PVOID)(uintptr_t)addr;
}

/* What a probe raises, or 0. */
static uint32_t probe_write(uint64_t addr, SIZE_T len, ULONG align)
{
	volatile uint32_t raised = 0;
	NTPROF_TRY {
		ProbeForWrite(user(addr), len, align);
	} NTPROF_EXCEPT(code) {
		raised = code;
	} NTPROF_END_TRY;
	return raised;
}

/* A raise reaches the innermost try; after it the outer one is innermost again. */
static void test_impl_helpers_kernel_nested_try(void **state)
{
	(void)state;
	ntprof_kernel *k = kernel("1809", "x64");
	volatile int inner = 0, outer = 0, after = 0;
	NTPROF_TRY {
		NTPROF_TRY {
			ExRaiseStatus(0x1234);
			after = 1;
		} NTPROF_EXCEPT(code) {
			inner = (int)code;
		} NTPROF_END_TRY;
		ExRaiseStatus(0x5678);
	} NTPROF_EXCEPT(code) {
		outer = (int)code;
	} NTPROF_END_TRY;
	assert_int_equal(inner, 0x1234);
	assert_int_equal(outer, 0x5678);
	assert_int_equal(after, 0);
	assert_null(k->frame);
	NTPROF_TRY {
		after = 2;
	} NTPROF_EXCEPT(code) {
		after = 3;
	} NTPROF_END_TRY;
	assert_int_equal(after, 2);
	assert_null(k->frame);
	ntprof_kernel_fini(k);
}

/* ProbeForWrite raises what AS-2 says; length 0 tests nothing; copies raise. */
static void test_impl_helpers_kernel_probes_raise(void **state)
{
	(void)state;
	ntprof_kernel *k = kernel("1809", "x64");
	uint64_t a = ntprof_memory_map(&k->sim.memory, 8, RW, 0, 0);
	uint64_t ro = ntprof_memory_map(&k->sim.memory, 8, NTPROF_PROT_READ, 0, 0);
	assert_int_equal(probe_write(a, 8, 4), 0);
	assert_int_equal(probe_write(a + 2, 8, 4), NTPROF_STATUS_DATATYPE_MISALIGNMENT);
	assert_int_equal(probe_write(ro, 4, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(probe_write(0, 4, 4), NTPROF_STATUS_ACCESS_VIOLATION);
	assert_int_equal(probe_write(0, 0, 4), 0);
	volatile uint32_t raised = 0;
	uint32_t v = 7;
	NTPROF_TRY {
		NtprofWriteUser(user(a), &v, 4);
		NtprofWriteUser(user(ro), &v, 4);
	} NTPROF_EXCEPT(code) {
		raised = code;
	} NTPROF_END_TRY;
	assert_int_equal(raised, NTPROF_STATUS_ACCESS_VIOLATION);
	NtprofReadUser(&v, user(a), 4);
	assert_int_equal(v, 7);
	ntprof_kernel_fini(k);
}

/* IoAllocateMdl's remarks and ReactOS's figure: the last length each version takes. */
static void test_impl_helpers_kernel_mdl_limits(void **state)
{
	(void)state;
	assert_true(ntprof_kernel_mdl_limit("5.2", 4) == 0x3FF8FFFu);
	assert_true(ntprof_kernel_mdl_limit("5.2", 8) == 0x1FF9FFFu);
	assert_true(ntprof_kernel_mdl_limit("4.0sp4", 4) == 0x3FF8FFFu);
	assert_true(ntprof_kernel_mdl_limit("6.0", 8) == 0x7FFFF000u);
	assert_true(ntprof_kernel_mdl_limit("6.1", 8) == 0xFFFFF000u);
	assert_true(ntprof_kernel_mdl_limit("1809", 4) == 0xFFFFF000u);
	ntprof_kernel *k = kernel("5.2", "x86");
	PMDL mdl = IoAllocateMdl(user(0x100000), 0x3FF8FFF, 0, 0, NULL);
	assert_non_null(mdl);
	IoFreeMdl(mdl);
	assert_null(IoAllocateMdl(user(0x100000), 0x3FF9000, 0, 0, NULL));
	ntprof_kernel_fini(k);
	k = kernel("5.2", "wow64");
	assert_null(IoAllocateMdl(user(0x100000), 0x1FFA000, 0, 0, NULL));
	assert_int_equal(k->pool_blocks, 0);
	ntprof_kernel_fini(k);
}

/* Lock, map, write through the mapping (also after the caller released
 * the region), and the injected failures of each step. */
static void test_impl_helpers_kernel_mdl_lock_map(void **state)
{
	(void)state;
	ntprof_kernel *k = kernel("1809", "x64");
	uint64_t a = ntprof_memory_map(&k->sim.memory, 8, RW, 0, 0);
	uint64_t ro = ntprof_memory_map(&k->sim.memory, 8, NTPROF_PROT_READ, 0, 0);
	PMDL mdl = IoAllocateMdl(user(a), 8, 0, 0, NULL), bad = IoAllocateMdl(user(ro), 8, 0, 0, NULL);
	volatile uint32_t raised = 0;
	NTPROF_TRY {
		MmProbeAndLockPages(mdl, NTPROF_USER_MODE, NTPROF_IO_WRITE_ACCESS);
		MmProbeAndLockPages(bad, NTPROF_USER_MODE, NTPROF_IO_WRITE_ACCESS);
	} NTPROF_EXCEPT(code) {
		raised = code;
	} NTPROF_END_TRY;
	assert_int_equal(raised, NTPROF_STATUS_ACCESS_VIOLATION);
	assert_true(mdl->locked && !bad->locked);
	assert_null(MmMapLockedPagesSpecifyCache(bad, 0, 0, NULL, 0, 0));
	k->fail_map = 1;
	assert_null(MmMapLockedPagesSpecifyCache(mdl, 0, 0, NULL, 0, 0));
	PVOID sys = MmMapLockedPagesSpecifyCache(mdl, 0, 0, NULL, 0, 0);
	assert_non_null(sys);
	uint32_t v = 5, got = 0;
	ntprof_memory_release(&k->sim.memory, a);
	assert_int_equal(NtprofWriteSystem(sys, 4, &v, 4), 1);
	assert_int_equal(NtprofReadSystem(sys, 4, &got, 4), 1);
	assert_int_equal(got, 5);
	assert_int_equal(NtprofReadSystem(sys, 5, &got, 4), 0);
	/* a write reaches to the end of the last page, no further */
	assert_int_equal(NtprofWriteSystem(sys, 0xFFC, &v, 4), 1);
	assert_int_equal(NtprofWriteSystem(sys, 0xFFD, &v, 4), 0);
	k->fail_lock = 1;
	raised = 0;
	NTPROF_TRY {
		MmProbeAndLockPages(mdl, NTPROF_KERNEL_MODE, NTPROF_IO_READ_ACCESS);
	} NTPROF_EXCEPT(code) {
		raised = code;
	} NTPROF_END_TRY;
	assert_int_equal(raised, NTPROF_STATUS_ACCESS_VIOLATION);
	MmUnmapLockedPages(sys, mdl);
	MmUnlockPages(mdl);
	IoFreeMdl(mdl);
	IoFreeMdl(bad);
	ntprof_kernel_fini(k);
}

static int deleted;
static void count_delete(void *body)
{
	(void)body;
	deleted++;
}

/* An object lives while a handle or a reference holds it; its delete
 * procedure runs once, after the last. References check type and access. */
static void test_impl_helpers_kernel_objects(void **state)
{
	(void)state;
	ntprof_kernel *k = kernel("1809", "x64");
	OBJECT_TYPE type = { NTPROF_OBJECT_USER, 1, count_delete, "Test" };
	assert_int_equal(NtprofDefineObjectType(&type), 1);
	PVOID body, got = NULL;
	HANDLE h;
	deleted = 0;
	assert_int_equal(ObCreateObject(&type, 16, &body), 0);
	assert_int_equal(ObInsertObject(body, 1, &h), 0);
	assert_true((uintptr_t)h == 4);
	assert_int_equal(ObReferenceObjectByHandle(h, 1, &type, NTPROF_USER_MODE, &got, NULL), 0);
	assert_ptr_equal(got, body);
	assert_int_equal(ObReferenceObjectByHandle(h, 2, &type, NTPROF_USER_MODE, &got, NULL),
			 (NTSTATUS)NTPROF_STATUS_ACCESS_DENIED);
	assert_int_equal(ObReferenceObjectByHandle(h, 1, PsProcessType, NTPROF_KERNEL_MODE, &got, NULL),
			 (NTSTATUS)NTPROF_STATUS_OBJECT_TYPE_MISMATCH);
	assert_int_equal(NtprofCloseHandle(h), 0);
	assert_int_equal(deleted, 0);          /* the reference still holds it */
	ObDereferenceObject(body);
	assert_int_equal(deleted, 1);
	assert_int_equal(ObReferenceObjectByHandle(h, 1, &type, NTPROF_USER_MODE, &got, NULL),
			 (NTSTATUS)NTPROF_STATUS_INVALID_HANDLE);
	assert_int_equal(ObReferenceObjectByHandle(user(UINT64_MAX), 0x400, PsProcessType, NTPROF_USER_MODE,
						   &got, NULL), 0);
	ObDereferenceObject(got);
	/* an object whose handle is never closed goes with the kernel */
	assert_int_equal(ObCreateObject(&type, 16, &body), 0);
	assert_int_equal(ObInsertObject(body, 1, &h), 0);
	ntprof_kernel_fini(k);
	assert_int_equal(deleted, 2);
	assert_int_equal(k->pool_blocks, 0);
}

/* Pool: an injected failure is one allocation's; ExAllocatePool2 zeroes. */
static void test_impl_helpers_kernel_pool(void **state)
{
	(void)state;
	ntprof_kernel *k = kernel("1809", "x64");
	PVOID body;
	k->fail_alloc = 1;
	assert_int_equal(ObCreateObject(PsProcessType, 8, &body), (NTSTATUS)NTPROF_STATUS_INSUFFICIENT_RESOURCES);
	uint8_t *p = ExAllocatePool2(NTPROF_POOL_FLAG_NON_PAGED, 32, 1);
	assert_non_null(p);
	assert_int_equal(p[0] | p[31], 0);
	assert_int_equal(k->pool_blocks, 1);
	ExFreePoolWithTag(p, 1);
	assert_int_equal(k->pool_blocks, 0);
	ntprof_kernel_fini(k);
}

/* Privileges by mode; processors; the HAL's clamp and the kernel's own source. */
static void test_impl_helpers_kernel_privilege_processors_interval(void **state)
{
	(void)state;
	ntprof_kernel *k = kernel("1809", "x64");
	LUID profile = { NTPROF_SE_SYSTEM_PROFILE_PRIVILEGE, 0 }, other = { 12, 0 };
	assert_int_equal(SeSinglePrivilegeCheck(profile, NTPROF_USER_MODE), 0);
	assert_int_equal(SeSinglePrivilegeCheck(profile, NTPROF_KERNEL_MODE), 1);
	k->privileges = 1ull << NTPROF_SE_SYSTEM_PROFILE_PRIVILEGE;
	assert_int_equal(SeSinglePrivilegeCheck(profile, NTPROF_USER_MODE), 1);
	assert_int_equal(SeSinglePrivilegeCheck(other, NTPROF_USER_MODE), 0);
	KAFFINITY active = 0;
	k->cpus = 3;
	k->current_cpu = 2;
	PROCESSOR_NUMBER pn;
	assert_int_equal(KeQueryActiveProcessorCount(&active), 3);
	assert_true(active == 7);
	assert_int_equal(KeGetCurrentProcessorNumberEx(&pn), 2);
	assert_true(pn.Group == 0 && pn.Number == 2);
	k->cpus = 64;
	assert_true(KeQueryActiveProcessors() == ~(KAFFINITY)0);
	assert_int_equal(KeQueryIntervalProfile(0), 39063);
	KeSetIntervalProfile(1220, 0);
	assert_int_equal(KeQueryIntervalProfile(0), 1221);
	KeSetIntervalProfile(10000001, 0);
	assert_int_equal(KeQueryIntervalProfile(0), 10000000);
	KeSetIntervalProfile(5, 1);
	assert_int_equal(KeQueryIntervalProfile(1), 5);
	KeSetIntervalProfile(5, 2);
	assert_int_equal(KeQueryIntervalProfile(2), 0);
	ntprof_kernel_fini(k);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_impl_helpers_kernel_nested_try),
	cmocka_unit_test(test_impl_helpers_kernel_probes_raise),
	cmocka_unit_test(test_impl_helpers_kernel_mdl_limits),
	cmocka_unit_test(test_impl_helpers_kernel_mdl_lock_map),
	cmocka_unit_test(test_impl_helpers_kernel_objects),
	cmocka_unit_test(test_impl_helpers_kernel_pool),
	cmocka_unit_test(test_impl_helpers_kernel_privilege_processors_interval),
};

NP_TEST_MAIN(tests)
