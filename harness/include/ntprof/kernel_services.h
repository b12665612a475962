/* SPDX-License-Identifier: MIT */
/* ntprof: the kernel's service routines, for an implementation of the
 * profiling calls written as kernel code (libntprof_impl_helpers.a,
 * pkg-config ntprof_impl_helpers; docs/kernel-services.md is the guide and
 * examples/impl_kernel.c the example).
 *
 * Each routine does what Microsoft's public WDK documentation says of the
 * routine of the same name, on the simulated caller of impl_helpers.h: an
 * object referenced by handle, user buffers probed (raising on a bad one),
 * pool, an MDL built, locked and mapped (with the size limit of the
 * version), privilege checks, the processors, and the HAL's profile
 * interval. Kernel code calls them as it calls the kernel's; what it must
 * change is only where it touches the caller's memory: through
 * NtprofReadUser / NtprofWriteUser (which raise as a faulting access does)
 * and a mapped buffer through NtprofReadSystem / NtprofWriteSystem.
 *
 * The WDK routines take no context, so one kernel is current at a time:
 * ntprof_kernel_enter() at the top of each entry point (impl.h's members
 * get `sys`; kernel code gets nothing). No routine keeps state elsewhere.
 *
 * Exceptions: NTPROF_TRY / NTPROF_EXCEPT / NTPROF_END_TRY are __try and
 * __except(EXCEPTION_EXECUTE_HANDLER) in C, on setjmp/longjmp. As with
 * setjmp, a local changed inside the try block and read in the except block
 * must be volatile, and nothing may leave a try block but its end (no
 * return, goto or break out of it; set a status and fall through, as SEH
 * code does with __leave). A raise with no try around it is an exception
 * the kernel does not handle: bug check KMODE_EXCEPTION_NOT_HANDLED, which
 * ends the process here (the harness reports it crashed).
 *
 * The types carry the WDK's names where an implementation spells them;
 * define NTPROF_KERNEL_NO_WDK_TYPES to keep your own. C99, like the rest. */
#ifndef NTPROF_KERNEL_SERVICES_H
#define NTPROF_KERNEL_SERVICES_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "impl_helpers.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NTPROF_KERNEL_NO_WDK_TYPES
typedef int32_t NTSTATUS;
typedef uint8_t BOOLEAN;
typedef uint32_t ULONG;
typedef uint32_t ACCESS_MASK;
typedef uint64_t KAFFINITY;
typedef void *PVOID;
typedef void *HANDLE;            /* a handle value of the caller, widened (impl.h) */
typedef size_t SIZE_T;
typedef uint32_t KPROFILE_SOURCE;
typedef struct LUID { ULONG LowPart; int32_t HighPart; } LUID;
typedef struct PROCESSOR_NUMBER { uint16_t Group; uint8_t Number, Reserved; } PROCESSOR_NUMBER;
#endif

/* KPROCESSOR_MODE, LOCK_OPERATION, MEMORY_CACHING_TYPE and the pool types
 * as numbers: the values are the WDK's. */
#define NTPROF_KERNEL_MODE 0
#define NTPROF_USER_MODE   1
#define NTPROF_IO_READ_ACCESS   0
#define NTPROF_IO_WRITE_ACCESS  1
#define NTPROF_NON_PAGED_POOL   0
#define NTPROF_POOL_FLAG_NON_PAGED UINT64_C(0x40)
#define NTPROF_SE_SYSTEM_PROFILE_PRIVILEGE 11   /* the privilege constant's LUID low part */

/* ---- The kernel ----------------------------------------------------------- */

typedef struct ntprof_k_frame {
	jmp_buf env;
	struct ntprof_k_frame *outer;
	volatile uint32_t code;  /* the status raised */
} ntprof_k_frame;

typedef struct ntprof_kernel {
	ntprof_sim sim;          /* first: impl_helpers.h's ntprof_sim_* members find it there */
	int previous_mode;       /* NTPROF_USER_MODE (init) or NTPROF_KERNEL_MODE: the caller's */
	uint64_t privileges;     /* bit n: privilege LUID n held (and enabled) by the caller */
	unsigned cpus;           /* active processors of group 0 (init: 1), at most 64 */
	unsigned current_cpu;    /* the processor the calling thread runs on */
	unsigned fail_alloc, fail_lock, fail_map; /* that many of the next ones fail (MC-6) */
	uint64_t mdl_limit;      /* the most bytes one MDL describes on this version */
	unsigned kernel_width;   /* the kernel's pointer size: 4 (x86) or 8 (x64, WOW64) */
	ntprof_k_frame *frame;   /* the innermost NTPROF_TRY */
	/* The HAL's profile interval (HalSetProfileInterval): ProfileTime's, in 100 ns. */
	uint32_t hal_interval, hal_min, hal_max;
	uint32_t alignment_fixup;/* the kernel's own ProfileAlignmentFixup interval */
	size_t pool_blocks;      /* blocks of pool not yet freed (a leak check for tests) */
} ntprof_kernel;

/* A kernel for spec's version and arch: the simulated caller (ntprof_sim),
 * user mode, no privilege, one processor, the Default HAL's ProfileTime
 * interval (39063, within [1221, 10000000]: SPEC.md HL-2), the MDL limit of
 * spec->version. 0 (and *k cleared) for an arch impl.h lacks. The
 * implementation reads spec->given itself and sets the fields. */
int ntprof_kernel_init(ntprof_kernel *k, const ntprof_system_spec *spec);
void ntprof_kernel_fini(ntprof_kernel *k);
/* Makes k the kernel the WDK-named routines act on (each entry point). */
void ntprof_kernel_enter(ntprof_kernel *k);
ntprof_kernel *ntprof_kernel_current(void);

/* The most bytes one MDL describes (IoAllocateMdl's remarks): on 5.2 and
 * earlier the MDL's 16-bit size bounds its page numbers: (65535 -
 * sizeof(MDL)) / sizeof(PFN_NUMBER) pages and a page less one byte, with
 * the kernel's pointer width (0x3FF8FFF on x86, 0x1FF9FFF on x64), the
 * figure ReactOS's NtCreateProfile test names for 2003 (the WDK's formula,
 * PAGE_SIZE * (65535 - sizeof(MDL)) / sizeof(ULONG_PTR), is within a page
 * of it); on 6.0, 2 GB less a page; from 6.1, 4 GB less a page. width: the
 * kernel's pointer size. */
uint64_t ntprof_kernel_mdl_limit(const char *version, unsigned width);

/* ---- Exceptions ------------------------------------------------------------ */

void ntprof_k_push(ntprof_k_frame *f);
void ntprof_k_pop(ntprof_k_frame *f);

#define NTPROF_TRY \
	do { ntprof_k_frame ntprof_frame_; ntprof_k_push(&ntprof_frame_); \
	     if (setjmp(ntprof_frame_.env) == 0) {
#define NTPROF_EXCEPT(code) \
		ntprof_k_pop(&ntprof_frame_); \
	     } else { uint32_t code = ntprof_frame_.code; (void)code;
#define NTPROF_END_TRY \
	     } } while (0)

/* ExRaiseStatus: the innermost try's except block runs with status. */
void ExRaiseStatus(NTSTATUS status);

/* ---- The caller's memory ---------------------------------------------------- */

/* ProbeForRead / ProbeForWrite: Length 0 tests nothing; else Address must
 * be a multiple of Alignment (raise DATATYPE_MISALIGNMENT), and the range
 * lie below MmUserProbeAddress (raise ACCESS_VIOLATION); ProbeForWrite
 * also needs it writable (ACCESS_VIOLATION). Nothing is touched. */
void ProbeForRead(const volatile void *Address, SIZE_T Length, ULONG Alignment);
void ProbeForWrite(volatile void *Address, SIZE_T Length, ULONG Alignment);
/* What `*dst = *src` does on the caller's memory: raise ACCESS_VIOLATION
 * where a user-mode access faults. For a kernel-mode caller the same. */
void NtprofReadUser(void *out, const volatile void *user, SIZE_T n);
void NtprofWriteUser(volatile void *user, const void *in, SIZE_T n);
/* A handle or pointer written at the caller's width. */
void NtprofWriteUserPointer(volatile void *user, uint64_t value);

/* ---- Objects ------------------------------------------------------------------ */

typedef struct ntprof_object_type_k {
	uint32_t tag;            /* the handle table's tag (NTPROF_OBJECT_USER ..) */
	ACCESS_MASK valid_access;
	void (*delete_procedure)(void *body);   /* the last reference went */
	const char *name;
} OBJECT_TYPE, *POBJECT_TYPE;

extern POBJECT_TYPE PsProcessType;   /* the caller's processes (handles of open_process) */

/* Declares type in the current kernel (before any object of it). */
int NtprofDefineObjectType(POBJECT_TYPE type);
/* ObCreateObject (reduced): a zeroed body of size bytes, one reference;
 * INSUFFICIENT_RESOURCES when the pool fails. */
NTSTATUS ObCreateObject(POBJECT_TYPE type, SIZE_T size, PVOID *object);
/* ObInsertObject: a handle granting access in the caller's table, which
 * holds a reference; the object's own reference goes to the handle, as the
 * WDK says. INSUFFICIENT_RESOURCES when the table is full (the object is
 * then dereferenced). */
NTSTATUS ObInsertObject(PVOID object, ACCESS_MASK access, HANDLE *handle);
/* ObReferenceObjectByHandle: for UserMode the access is checked;
 * INVALID_HANDLE, OBJECT_TYPE_MISMATCH, ACCESS_DENIED as impl_helpers.h
 * says. A process's object is not reference-counted (it outlives the call). */
NTSTATUS ObReferenceObjectByHandle(HANDLE handle, ACCESS_MASK access, POBJECT_TYPE type,
				   int mode, PVOID *object, void *handle_information);
void ObReferenceObject(PVOID object);
void ObDereferenceObject(PVOID object);
/* NtClose of the caller's handle. */
NTSTATUS NtprofCloseHandle(HANDLE handle);

/* ---- Pool --------------------------------------------------------------------- */

PVOID ExAllocatePoolWithTag(int pool_type, SIZE_T size, ULONG tag);
PVOID ExAllocatePool2(uint64_t flags, SIZE_T size, ULONG tag);   /* zeroed */
void ExFreePoolWithTag(PVOID p, ULONG tag);
void ExFreePool(PVOID p);

/* ---- MDLs ----------------------------------------------------------------------- */

typedef struct MDL {
	uint64_t start;          /* the caller's address it describes */
	ULONG byte_count;
	int locked, mapped;
} MDL, *PMDL;

/* IoAllocateMdl: NULL past the version's limit or when the pool fails. */
PMDL IoAllocateMdl(PVOID VirtualAddress, ULONG Length, BOOLEAN SecondaryBuffer, BOOLEAN ChargeQuota,
		   void *Irp);
void IoFreeMdl(PMDL mdl);
/* MmProbeAndLockPages: for UserMode the pages must be the caller's, below
 * the probe limit, and readable (IoReadAccess) or writable (IoWriteAccess);
 * else, or on an injected lock failure, raise ACCESS_VIOLATION. */
void MmProbeAndLockPages(PMDL mdl, int mode, int operation);
void MmUnlockPages(PMDL mdl);
/* MmMapLockedPagesSpecifyCache: the system address of the locked pages
 * (read and written through NtprofReadSystem / NtprofWriteSystem), or NULL
 * on an injected mapping failure (BugCheckOnFailure FALSE). */
PVOID MmMapLockedPagesSpecifyCache(PMDL mdl, int mode, int cache_type, PVOID requested,
				   ULONG bug_check_on_failure, ULONG priority);
void MmUnmapLockedPages(PVOID base, PMDL mdl);
/* Through a system mapping: whatever becomes of the caller's pages since
 * (released, protected). 0 when the range is outside every region. */
int NtprofReadSystem(PVOID system, SIZE_T offset, void *out, SIZE_T n);
int NtprofWriteSystem(PVOID system, SIZE_T offset, const void *in, SIZE_T n);

/* ---- Privileges and processors ------------------------------------------------------ */

/* SeSinglePrivilegeCheck: TRUE for a KernelMode request, else whether the
 * caller holds the privilege. */
BOOLEAN SeSinglePrivilegeCheck(LUID privilege, int mode);
/* ExGetPreviousMode: the caller's mode. */
int ExGetPreviousMode(void);
/* KeQueryActiveProcessorCount: the active processors; *active their mask. */
ULONG KeQueryActiveProcessorCount(KAFFINITY *active);
KAFFINITY KeQueryActiveProcessors(void);
/* KeGetCurrentProcessorNumberEx: the system-wide number; *number its group form. */
ULONG KeGetCurrentProcessorNumberEx(PROCESSOR_NUMBER *number);

/* ---- The profile interval --------------------------------------------------------- */

/* HalSetProfileInterval: ProfileTime's interval clamped into [hal_min,
 * hal_max] (HL-4); the interval now in force. */
ULONG HalSetProfileInterval(ULONG interval);
/* KeSetIntervalProfile / KeQueryIntervalProfile: ProfileTime goes to the
 * HAL, ProfileAlignmentFixup is the kernel's own; another source has no
 * interval here (set: nothing; query: 0). */
void KeSetIntervalProfile(ULONG interval, KPROFILE_SOURCE source);
ULONG KeQueryIntervalProfile(KPROFILE_SOURCE source);

#ifdef __cplusplus
}
#endif

#endif
