/* SPDX-License-Identifier: MIT */
/* The kernel's service routines (ntprof/kernel_services.h) on the simulated
 * caller: exceptions, probes and copies, objects and handles, pool, MDLs,
 * privileges, processors and the HAL's profile interval. Each does what the
 * WDK documentation of its namesake says, no more. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/kernel_services.h"

#define PAGE 4096u

/* The WDK routines take no context: the kernel entered last is theirs. */
static ntprof_kernel *current;

static uint64_t addr_of(const volatile void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* A version key of `ntprof versions` is "3.10" .. "6.3", or a Windows 10
 * release number ("1507", "1809", ...), all after 6.3. */
static int version_at_most(const char *version, unsigned major, unsigned minor)
{
	unsigned a = 0, b = 0;
	if (sscanf(version, "%u.%u", &a, &b) < 2 || a >= 1000)
		return 0;
	return a < major || (a == major && b <= minor);
}

uint64_t ntprof_kernel_mdl_limit(const char *version, unsigned width)
{
	if (version_at_most(version, 5, 2)) {
		uint64_t mdl = 5u * width + 2u * 4u;   /* Next, Size+Flags, Process, two VAs, ByteCount, ByteOffset */
		return (65535u - mdl) / width * PAGE + PAGE - 1;
	}
	if (version_at_most(version, 6, 0))
		return 0x80000000ull - PAGE;
	return 0x100000000ull - PAGE;
}

int ntprof_kernel_init(ntprof_kernel *k, const ntprof_system_spec *spec)
{
	memset(k, 0, sizeof *k);
	if (!ntprof_sim_init(&k->sim, spec->arch))
		return 0;
	k->previous_mode = NTPROF_USER_MODE;
	k->cpus = 1;
	k->kernel_width = strcmp(spec->arch, "x86") == 0 ? 4u : 8u;
	k->mdl_limit = ntprof_kernel_mdl_limit(spec->version, k->kernel_width);
	k->hal_interval = 39063;
	k->hal_min = 1221;
	k->hal_max = 10000000;
	return 1;
}

void ntprof_kernel_fini(ntprof_kernel *k)
{
	ntprof_kernel *was = current;
	current = k;                 /* the objects' delete procedures run in it */
	ntprof_sim_fini(&k->sim);
	current = was == k ? NULL : was;
}

void ntprof_kernel_enter(ntprof_kernel *k)
{
	current = k;
}

ntprof_kernel *ntprof_kernel_current(void)
{
	return current;
}

/* ---- Exceptions ---- */

void ntprof_k_push(ntprof_k_frame *f)
{
	f->outer = current->frame;
	f->code = 0;
	current->frame = f;
}

void ntprof_k_pop(ntprof_k_frame *f)
{
	current->frame = f->outer;
}

void ExRaiseStatus(NTSTATUS status)
{
	ntprof_k_frame *f = current ? current->frame : NULL;
	if (!f) {
		fprintf(stderr, "ntprof kernel services: status 0x%08X raised with no NTPROF_TRY around it: "
			"bug check KMODE_EXCEPTION_NOT_HANDLED (0x1E)\n", (unsigned)status);
		abort();
	}
	current->frame = f->outer;
	f->code = (uint32_t)status;
	longjmp(f->env, 1);
}

static void raise_if(uint32_t status)
{
	if (status != NTPROF_STATUS_SUCCESS)
		ExRaiseStatus((NTSTATUS)status);
}

/* ---- The caller's memory ---- */

void ProbeForRead(const volatile void *Address, SIZE_T Length, ULONG Alignment)
{
	if (Length)
		raise_if(ntprof_memory_probe_read(&current->sim.memory, addr_of(Address), Length, Alignment));
}

void ProbeForWrite(volatile void *Address, SIZE_T Length, ULONG Alignment)
{
	if (Length)
		raise_if(ntprof_memory_probe_write(&current->sim.memory, addr_of(Address), Length, Alignment));
}

void NtprofReadUser(void *out, const volatile void *user, SIZE_T n)
{
	raise_if(ntprof_memory_copy_in(&current->sim.memory, out, addr_of(user), n));
}

void NtprofWriteUser(volatile void *user, const void *in, SIZE_T n)
{
	raise_if(ntprof_memory_copy_out(&current->sim.memory, addr_of(user), in, n));
}

void NtprofWriteUserPointer(volatile void *user, uint64_t value)
{
	raise_if(ntprof_sim_copy_out_pointer(&current->sim, addr_of(user), value));
}

/* ---- Pool ---- */

PVOID ExAllocatePoolWithTag(int pool_type, SIZE_T size, ULONG tag)
{
	(void)pool_type, (void)tag;
	if (current->fail_alloc) {
		current->fail_alloc--;
		return NULL;
	}
	void *p = malloc(size ? size : 1);
	current->pool_blocks += p != NULL;
	return p;
}

PVOID ExAllocatePool2(uint64_t flags, SIZE_T size, ULONG tag)
{
	(void)flags;
	void *p = ExAllocatePoolWithTag(NTPROF_NON_PAGED_POOL, size, tag);
	if (p)
		memset(p, 0, size);
	return p;
}

void ExFreePoolWithTag(PVOID p, ULONG tag)
{
	(void)tag;
	if (p)
		current->pool_blocks--;
	free(p);
}

void ExFreePool(PVOID p)
{
	ExFreePoolWithTag(p, 0);
}

/* ---- Objects: a header before each body, counting references ---- */

typedef struct object_header {
	POBJECT_TYPE type;
	size_t refs;
	uint64_t align;          /* the body after it is 8-aligned whatever the host */
} object_header;

static object_header *header_of(PVOID body)
{
	return (object_header *)body - 1;
}

static int is_process(PVOID object)
{
	return object == &current->sim.handles.this_process || object == &current->sim.handles.other_process;
}

static OBJECT_TYPE process_type = { NTPROF_OBJECT_PROCESS, 0, NULL, "Process" };
POBJECT_TYPE PsProcessType = &process_type;

static void release_handle(void *ctx, uint32_t type, void *object)
{
	(void)ctx, (void)type;
	ObDereferenceObject(object);
}

int NtprofDefineObjectType(POBJECT_TYPE type)
{
	return ntprof_handles_define_type(&current->sim.handles, type->tag, type->valid_access, release_handle,
					  NULL);
}

NTSTATUS ObCreateObject(POBJECT_TYPE type, SIZE_T size, PVOID *object)
{
	object_header *h = ExAllocatePool2(NTPROF_POOL_FLAG_NON_PAGED, sizeof *h + size, 0);
	if (!h)
		return (NTSTATUS)NTPROF_STATUS_INSUFFICIENT_RESOURCES;
	h->type = type;
	h->refs = 1;
	*object = h + 1;
	return 0;
}

NTSTATUS ObInsertObject(PVOID object, ACCESS_MASK access, HANDLE *handle)
{
	uint64_t value = ntprof_handles_open(&current->sim.handles, header_of(object)->type->tag, object, access);
	if (!value) {
		ObDereferenceObject(object);
		return (NTSTATUS)NTPROF_STATUS_INSUFFICIENT_RESOURCES;
	}
	*handle = (HANDLE)(uintptr_t)value;
	return 0;
}

NTSTATUS ObReferenceObjectByHandle(HANDLE handle, ACCESS_MASK access, POBJECT_TYPE type, int mode,
				   PVOID *object, void *handle_information)
{
	(void)handle_information;
	void *found = NULL;
	uint32_t status = ntprof_handles_reference(&current->sim.handles, addr_of(handle), type->tag, access,
						   mode == NTPROF_USER_MODE, &found);
	if (status == NTPROF_STATUS_SUCCESS) {
		ObReferenceObject(found);
		*object = found;
	}
	return (NTSTATUS)status;
}

void ObReferenceObject(PVOID object)
{
	if (!is_process(object))
		header_of(object)->refs++;
}

void ObDereferenceObject(PVOID object)
{
	if (is_process(object))
		return;
	object_header *h = header_of(object);
	if (--h->refs)
		return;
	if (h->type->delete_procedure)
		h->type->delete_procedure(object);
	ExFreePool(h);
}

NTSTATUS NtprofCloseHandle(HANDLE handle)
{
	return (NTSTATUS)ntprof_handles_close(&current->sim.handles, addr_of(handle));
}

/* ---- MDLs ---- */

PMDL IoAllocateMdl(PVOID VirtualAddress, ULONG Length, BOOLEAN SecondaryBuffer, BOOLEAN ChargeQuota,
		   void *Irp)
{
	(void)SecondaryBuffer, (void)ChargeQuota, (void)Irp;
	uint64_t va = addr_of(VirtualAddress);
	if (Length > current->mdl_limit)
		return NULL;
	PMDL mdl = ExAllocatePoolWithTag(NTPROF_NON_PAGED_POOL, sizeof *mdl, 0);
	if (mdl)
		*mdl = (MDL){ va, Length, 0, 0 };
	return mdl;
}

void IoFreeMdl(PMDL mdl)
{
	ExFreePool(mdl);
}

void MmProbeAndLockPages(PMDL mdl, int mode, int operation)
{
	ntprof_memory *mem = &current->sim.memory;
	uint8_t byte;
	if (current->fail_lock) {
		current->fail_lock--;
		ExRaiseStatus((NTSTATUS)NTPROF_STATUS_ACCESS_VIOLATION);
	}
	if (mode == NTPROF_USER_MODE)
		raise_if(ntprof_memory_probe_read(mem, mdl->start, mdl->byte_count, 1));
	/* every page present, and writable for a write lock: a probe of each */
	uint32_t status = operation == NTPROF_IO_WRITE_ACCESS
		? ntprof_memory_probe_write(mem, mdl->start, mdl->byte_count, 1)
		: (mdl->byte_count && !ntprof_memory_read(mem, mdl->start, &byte, 1)
			? NTPROF_STATUS_ACCESS_VIOLATION : NTPROF_STATUS_SUCCESS);
	raise_if(status);
	mdl->locked = 1;
}

void MmUnlockPages(PMDL mdl)
{
	mdl->locked = 0;
}

PVOID MmMapLockedPagesSpecifyCache(PMDL mdl, int mode, int cache_type, PVOID requested,
				   ULONG bug_check_on_failure, ULONG priority)
{
	(void)mode, (void)cache_type, (void)requested, (void)bug_check_on_failure, (void)priority;
	if (!mdl->locked || current->fail_map) {
		current->fail_map -= current->fail_map > 0;
		return NULL;
	}
	mdl->mapped = 1;
	/* the system address is the MDL: the pages are reached through it */
	return mdl;
}

void MmUnmapLockedPages(PVOID base, PMDL mdl)
{
	(void)base;
	mdl->mapped = 0;
}

int NtprofReadSystem(PVOID system, SIZE_T offset, void *out, SIZE_T n)
{
	const MDL *mdl = system;
	return offset <= mdl->byte_count && n <= mdl->byte_count - offset &&
	       ntprof_memory_read_locked(&current->sim.memory, mdl->start + offset, out, n);
}

int NtprofWriteSystem(PVOID system, SIZE_T offset, const void *in, SIZE_T n)
{
	const MDL *mdl = system;
	/* past the bytes described, as far as the last page goes: what the
	 * mapping of whole pages lets kernel code corrupt (SPEC.md IN-7) */
	uint64_t mapped = (mdl->start % PAGE + mdl->byte_count + PAGE - 1) / PAGE * PAGE - mdl->start % PAGE;
	return offset <= mapped && n <= mapped - offset &&
	       ntprof_memory_write_locked(&current->sim.memory, mdl->start + offset, in, n);
}

/* ---- Privileges and processors ---- */

BOOLEAN SeSinglePrivilegeCheck(LUID privilege, int mode)
{
	if (mode == NTPROF_KERNEL_MODE)
		return 1;
	return privilege.HighPart == 0 && privilege.LowPart < 64 && (current->privileges >> privilege.LowPart & 1);
}

int ExGetPreviousMode(void)
{
	return current->previous_mode;
}

KAFFINITY KeQueryActiveProcessors(void)
{
	return current->cpus >= 64 ? ~(KAFFINITY)0 : ((KAFFINITY)1 << current->cpus) - 1;
}

ULONG KeQueryActiveProcessorCount(KAFFINITY *active)
{
	if (active)
		*active = KeQueryActiveProcessors();
	return current->cpus;
}

ULONG KeGetCurrentProcessorNumberEx(PROCESSOR_NUMBER *number)
{
	if (number)
		*number = (PROCESSOR_NUMBER){ 0, (uint8_t)current->current_cpu, 0 };
	return current->current_cpu;
}

/* ---- The profile interval ---- */

ULONG HalSetProfileInterval(ULONG interval)
{
	current->hal_interval = interval < current->hal_min ? current->hal_min
			      : interval > current->hal_max ? current->hal_max : interval;
	return current->hal_interval;
}

#define PROFILE_TIME            0u
#define PROFILE_ALIGNMENT_FIXUP 1u

void KeSetIntervalProfile(ULONG interval, KPROFILE_SOURCE source)
{
	if (source == PROFILE_ALIGNMENT_FIXUP)
		current->alignment_fixup = interval;
	else if (source == PROFILE_TIME)
		HalSetProfileInterval(interval);
}

ULONG KeQueryIntervalProfile(KPROFILE_SOURCE source)
{
	return source == PROFILE_ALIGNMENT_FIXUP ? current->alignment_fixup
	       : source == PROFILE_TIME ? current->hal_interval : 0;
}
