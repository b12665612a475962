/* SPDX-License-Identifier: MIT */
/* A kernel-style implementation of the interval and profile calls of
 * Windows 10 1809 on x64 (SPEC.md SI-*, QI-*, CP-*, ST-*, SP-*, IN-*),
 * written as kernel code is: against the kernel's service routines
 * (ntprof/kernel_services.h) under try/except, then bound to ntprof's dl:
 * ABI by the glue at the end of this file, the part an existing kernel
 * implementation writes to be checked (docs/kernel-services.md).
 *   cc -std=c99 -shared -fPIC -o impl_kernel.so impl_kernel.c \
 *      $(pkg-config --cflags --libs ntprof_impl_helpers)
 *   ntprof run --backend dl:./impl_kernel.so --target 1809/x64
 * Planted bugs, one per area, each a twin the default fixtures catch:
 *   -DBUG_INTERVAL  the privilege check of NtSetIntervalProfile left out
 *   -DBUG_CREATE    the capacity test off by one bucket
 *   -DBUG_START     a started profile can be started again
 *   -DBUG_COUNT     the region's end counted (RangeBase <= Pc <= RangeLimit) */
#include <stdlib.h>
#include <string.h>

#include <ntprof/kernel_services.h>

/* ======================= the kernel code ======================= */

#define STATUS_SUCCESS                 ((NTSTATUS)0x00000000)
#define STATUS_BUFFER_OVERFLOW         ((NTSTATUS)0x80000005)
#define STATUS_INVALID_PARAMETER       ((NTSTATUS)0xC000000D)
#define STATUS_BUFFER_TOO_SMALL        ((NTSTATUS)0xC0000023)
#define STATUS_ACCESS_DENIED           ((NTSTATUS)0xC0000022)
#define STATUS_PRIVILEGE_NOT_HELD      ((NTSTATUS)0xC0000061)
#define STATUS_INSUFFICIENT_RESOURCES  ((NTSTATUS)0xC000009A)
#define STATUS_PROFILING_NOT_STARTED   ((NTSTATUS)0xC00000B7)
#define STATUS_PROFILING_NOT_STOPPED   ((NTSTATUS)0xC00000B8)
#define STATUS_NOT_SUPPORTED           ((NTSTATUS)0xC00000BB)
#define STATUS_INVALID_PARAMETER_7     ((NTSTATUS)0xC00000F5)
#define PROFILE_CONTROL                0x0001u
#define PROCESS_QUERY_INFORMATION      0x0400u
#define ProfileTime                    0u
#define MM_HIGHEST_USER_ADDRESS        0x7FFFFFFEFFFFull   /* x64 (SPEC.md AS-1) */

static const LUID SystemProfilePrivilege = { NTPROF_SE_SYSTEM_PROFILE_PRIVILEGE, 0 };

typedef struct EPROFILE {
	void *Process;            /* NULL: a global profile */
	uint64_t RangeBase, RangeSize;
	uint64_t Buffer;
	ULONG BufferSize, BucketSize;
	KPROFILE_SOURCE Source;
	KAFFINITY Affinity;
	PMDL Mdl;                 /* while started */
	PVOID Counters;           /* the system mapping of Buffer, while started */
	struct EPROFILE *Next;    /* in the list of started profiles */
} EPROFILE;

static EPROFILE *StartedProfiles;
static OBJECT_TYPE ProfileType;
/* Whether the caller's token is below medium integrity: the kernel's
 * restricted-caller test of 6.3 on (CP-22), which the WDK does not
 * document, so the glue answers it from the caller's integrity level. */
static int CallerIsRestricted;

NTSTATUS NtSetIntervalProfile(ULONG Interval, KPROFILE_SOURCE Source)
{
#ifndef BUG_INTERVAL
	if (!SeSinglePrivilegeCheck(SystemProfilePrivilege, ExGetPreviousMode()))
		return STATUS_PRIVILEGE_NOT_HELD;
#endif
	KeSetIntervalProfile(Interval, Source);
	return STATUS_SUCCESS;
}

NTSTATUS NtQueryIntervalProfile(KPROFILE_SOURCE Source, ULONG *Interval)
{
	volatile NTSTATUS status = STATUS_SUCCESS;
	NTPROF_TRY {
		if (ExGetPreviousMode() != NTPROF_KERNEL_MODE)
			ProbeForWrite(Interval, sizeof *Interval, 1);
	} NTPROF_EXCEPT(code) {
		status = (NTSTATUS)code;
	} NTPROF_END_TRY;
	if (status != STATUS_SUCCESS)
		return status;
	ULONG value = KeQueryIntervalProfile(Source);
	NTPROF_TRY {
		NtprofWriteUser(Interval, &value, sizeof value);
	} NTPROF_EXCEPT(code) {
		/* the write faulted after the probe: still success */
	} NTPROF_END_TRY;
	return STATUS_SUCCESS;
}

static NTSTATUS CheckProfileArguments(uint64_t Base, uint64_t Size, ULONG Bucket, ULONG BufferSize,
				      KPROFILE_SOURCE Source)
{
	if (BufferSize == 0)
		return STATUS_INVALID_PARAMETER_7;
	if (Bucket < 2 || Bucket > 31)
		return STATUS_INVALID_PARAMETER;
	uint64_t buckets = (Size >> Bucket) + ((Size & ((1ull << Bucket) - 1)) != 0);
#ifdef BUG_CREATE
	if (buckets > BufferSize / 4 + 1)
#else
	if (buckets > BufferSize / 4)
#endif
		return STATUS_BUFFER_TOO_SMALL;
	if (Size > UINT64_MAX - Base)
		return STATUS_BUFFER_OVERFLOW;
	if (Source != ProfileTime)     /* the Default HAL has ProfileTime only */
		return STATUS_NOT_SUPPORTED;
	return STATUS_SUCCESS;
}

static NTSTATUS CheckAffinity(KAFFINITY *Affinity)
{
	KAFFINITY active = KeQueryActiveProcessors();
	if (*Affinity == ~(KAFFINITY)0)
		*Affinity = active;
	return *Affinity == 0 || (*Affinity & ~active) ? STATUS_INVALID_PARAMETER : STATUS_SUCCESS;
}

static NTSTATUS ProbeCreateArguments(HANDLE *ProfileHandle, ULONG *Buffer, ULONG BufferSize)
{
	volatile NTSTATUS status = STATUS_SUCCESS;
	NTPROF_TRY {
		ProbeForWrite(ProfileHandle, sizeof(uint64_t), 1);
		ProbeForWrite(Buffer, BufferSize, sizeof(ULONG));
	} NTPROF_EXCEPT(code) {
		status = (NTSTATUS)code;
	} NTPROF_END_TRY;
	return status;
}

static void WriteHandle(HANDLE *ProfileHandle, HANDLE handle)
{
	NTPROF_TRY {
		NtprofWriteUserPointer(ProfileHandle, (uint64_t)(uintptr_t)handle);
	} NTPROF_EXCEPT(code) {
		/* the handle stays open: success all the same */
	} NTPROF_END_TRY;
}

NTSTATUS NtCreateProfile(HANDLE *ProfileHandle, HANDLE Process, PVOID RangeBase, SIZE_T RangeSize,
			 ULONG BucketSize, ULONG *Buffer, ULONG BufferSize, KPROFILE_SOURCE ProfileSource,
			 KAFFINITY Affinity)
{
	int mode = ExGetPreviousMode();
	uint64_t base = (uint64_t)(uintptr_t)RangeBase;
	NTSTATUS status = CheckProfileArguments(base, RangeSize, BucketSize, BufferSize, ProfileSource);
	if (status != STATUS_SUCCESS)
		return status;
	if (mode != NTPROF_KERNEL_MODE && (status = ProbeCreateArguments(ProfileHandle, Buffer, BufferSize)))
		return status;
	if ((status = CheckAffinity(&Affinity)) != STATUS_SUCCESS)
		return status;
	void *process = NULL;
	if (Process) {
		status = ObReferenceObjectByHandle(Process, PROCESS_QUERY_INFORMATION, PsProcessType, mode,
						   &process, NULL);
		if (status != STATUS_SUCCESS)
			return status;
		ObDereferenceObject(process);   /* the process outlives its profiles here */
	} else if (mode != NTPROF_KERNEL_MODE && base <= MM_HIGHEST_USER_ADDRESS &&
		   !SeSinglePrivilegeCheck(SystemProfilePrivilege, mode)) {
		return STATUS_PRIVILEGE_NOT_HELD;
	}
	/* the last check: a restricted caller's region must stay in user space */
	uint64_t last = RangeSize ? base + RangeSize - 1 : base;
	if (mode != NTPROF_KERNEL_MODE && CallerIsRestricted && last > MM_HIGHEST_USER_ADDRESS)
		return STATUS_ACCESS_DENIED;
	EPROFILE *profile;
	if ((status = ObCreateObject(&ProfileType, sizeof *profile, (PVOID *)&profile)) != STATUS_SUCCESS)
		return status;
	*profile = (EPROFILE){ process, base, RangeSize, (uint64_t)(uintptr_t)Buffer, BufferSize, BucketSize,
			       ProfileSource, Affinity, NULL, NULL, NULL };
	HANDLE handle;
	if ((status = ObInsertObject(profile, PROFILE_CONTROL, &handle)) != STATUS_SUCCESS)
		return status;
	WriteHandle(ProfileHandle, handle);
	return STATUS_SUCCESS;
}

static NTSTATUS LockBuffer(PMDL mdl)
{
	volatile NTSTATUS status = STATUS_SUCCESS;
	NTPROF_TRY {
		MmProbeAndLockPages(mdl, ExGetPreviousMode(), NTPROF_IO_WRITE_ACCESS);
	} NTPROF_EXCEPT(code) {
		status = (NTSTATUS)code;
	} NTPROF_END_TRY;
	return status;
}

NTSTATUS NtStartProfile(HANDLE ProfileHandle)
{
	EPROFILE *profile;
	NTSTATUS status = ObReferenceObjectByHandle(ProfileHandle, PROFILE_CONTROL, &ProfileType,
						    ExGetPreviousMode(), (PVOID *)&profile, NULL);
	if (status != STATUS_SUCCESS)
		return status;
#ifndef BUG_START
	if (profile->Mdl) {
		ObDereferenceObject(profile);
		return STATUS_PROFILING_NOT_STOPPED;
	}
#endif
	PVOID kprofile = ExAllocatePoolWithTag(NTPROF_NON_PAGED_POOL, 64, 0x666f7250u);
	PMDL mdl = kprofile ? IoAllocateMdl((PVOID)(uintptr_t)profile->Buffer, profile->BufferSize, 0, 0, NULL)
			    : NULL;
	if (!mdl) {
		ExFreePool(kprofile);
		ObDereferenceObject(profile);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	NTSTATUS locked = LockBuffer(mdl);
	PVOID counters = locked == STATUS_SUCCESS ? MmMapLockedPagesSpecifyCache(mdl, 0, 0, NULL, 0, 0) : NULL;
	ExFreePool(kprofile);   /* this example counts through the EPROFILE itself */
	if (!counters) {
		if (locked == STATUS_SUCCESS)
			MmUnlockPages(mdl);
		IoFreeMdl(mdl);
		ObDereferenceObject(profile);
		return locked != STATUS_SUCCESS ? locked : STATUS_INSUFFICIENT_RESOURCES;
	}
	profile->Mdl = mdl;
	profile->Counters = counters;
	profile->Next = StartedProfiles;
	StartedProfiles = profile;
	ObDereferenceObject(profile);
	return STATUS_SUCCESS;
}

static void StopProfile(EPROFILE *profile)
{
	EPROFILE **link = &StartedProfiles;
	while (*link != profile)
		link = &(*link)->Next;
	*link = profile->Next;
	MmUnmapLockedPages(profile->Counters, profile->Mdl);
	MmUnlockPages(profile->Mdl);
	IoFreeMdl(profile->Mdl);
	profile->Mdl = NULL;
}

NTSTATUS NtStopProfile(HANDLE ProfileHandle)
{
	EPROFILE *profile;
	NTSTATUS status = ObReferenceObjectByHandle(ProfileHandle, PROFILE_CONTROL, &ProfileType,
						    ExGetPreviousMode(), (PVOID *)&profile, NULL);
	if (status != STATUS_SUCCESS)
		return status;
	status = profile->Mdl ? STATUS_SUCCESS : STATUS_PROFILING_NOT_STARTED;
	if (profile->Mdl)
		StopProfile(profile);
	ObDereferenceObject(profile);
	return status;
}

static void DeleteProfile(void *body)
{
	EPROFILE *profile = body;
	if (profile->Mdl)
		StopProfile(profile);
}

/* KeProfileInterruptWithSource, for one interrupt: the profiles of the
 * interrupted process, then the global ones; 0 counted, or -1 when an
 * increment fell outside the mapping. */
static long ProfileInterrupt(void *Process, uint64_t Pc, KPROFILE_SOURCE Source, ULONG Cpu)
{
	long counted = 0;
	for (int global = 0; global < 2; global++) {
		for (EPROFILE *p = StartedProfiles; p; p = p->Next) {
			if ((p->Process == NULL) != global || (global == 0 && p->Process != Process) ||
			    (uint16_t)p->Source != (uint16_t)Source || !(p->Affinity >> Cpu & 1) ||
			    Pc < p->RangeBase)
				continue;
#ifdef BUG_COUNT
			if (Pc - p->RangeBase > p->RangeSize)
#else
			if (Pc - p->RangeBase >= p->RangeSize)
#endif
				continue;
			SIZE_T at = (SIZE_T)((Pc - p->RangeBase) >> p->BucketSize) * 4;
			ULONG value = 0;
			NtprofReadSystem(p->Counters, at, &value, sizeof value);
			value++;
			if (!NtprofWriteSystem(p->Counters, at, &value, sizeof value))
				return -1;
			counted++;
		}
	}
	return counted;
}

/* ======================= the glue: ntprof's dl: ABI ======================= */

typedef struct machine {
	ntprof_kernel k;           /* first: the ntprof_sim_* members find its ntprof_sim */
} machine;

static ntprof_kernel *enter(void *sys)
{
	ntprof_kernel *k = &((machine *)sys)->k;
	ntprof_kernel_enter(k);
	return k;
}

/* The settings a live system takes (privilege, integrity, tracing=off,
 * sandboxed=off) and those `implements` declares (mode, cpus, cpu, alloc). */
static int given(ntprof_kernel *k, const ntprof_setting *g)
{
	const char *key = g->key, *v = g->value;
	int on = strcmp(v, "on") == 0, off = strcmp(v, "off") == 0, number = atoi(v);
	if (strcmp(key, "privilege") == 0 && (on || off))
		k->privileges = on ? 1ull << NTPROF_SE_SYSTEM_PROFILE_PRIVILEGE : 0;
	else if (strcmp(key, "integrity") == 0 &&
		 (!strcmp(v, "low") || !strcmp(v, "medium") || !strcmp(v, "high")))
		CallerIsRestricted = strcmp(v, "low") == 0;
	else if ((strcmp(key, "tracing") == 0 || strcmp(key, "sandboxed") == 0) && off)
		return 1;   /* the code traces no event and knows no sandboxed token */
	else if (strcmp(key, "mode") == 0 && (!strcmp(v, "kernel") || !strcmp(v, "user")))
		k->previous_mode = strcmp(v, "kernel") == 0 ? NTPROF_KERNEL_MODE : NTPROF_USER_MODE;
	else if (strcmp(key, "cpu") == 0 && number >= 0 && (unsigned)number < k->cpus)
		k->current_cpu = (unsigned)number;
	else if (strcmp(key, "cpus") == 0 && number >= 1 && number <= 64)
		k->cpus = (unsigned)number;
	else if (strcmp(key, "alloc") == 0 && (!strcmp(v, "fail") || !strcmp(v, "ok")))
		k->fail_alloc = strcmp(v, "fail") == 0;
	else
		return 0;
	return 1;
}

static void close_system(void *sys)
{
	ntprof_kernel_fini(enter(sys));
	free(sys);
}

static void *open_system(const ntprof_system_spec *spec, const char **why)
{
	machine *s = calloc(1, sizeof *s);
	*why = "out of memory";
	if (!s || !ntprof_kernel_init(&s->k, spec)) {
		free(s);
		return NULL;
	}
	ntprof_kernel *k = enter(s);
	StartedProfiles = NULL;
	CallerIsRestricted = 0;
	ProfileType = (OBJECT_TYPE){ NTPROF_OBJECT_USER, PROFILE_CONTROL, DeleteProfile, "Profile" };
	NtprofDefineObjectType(&ProfileType);
	for (unsigned i = 0; i < spec->ngiven; i++) {
		if (!given(k, &spec->given[i])) {
			*why = "a given setting this example does not declare";
			close_system(s);
			return NULL;
		}
	}
	return s;
}

/* 1809 (CP-0, SI-0, QI-0, ST-0, SP-0): NTDLL exports both spellings of
 * each; a driver binds every Zw stub of these but ZwCreateProfile, and an
 * Nt spelling stands for a kernel-mode request however it got there. */
static int exported(void *sys, const char *function)
{
	int driver = ((machine *)sys)->k.previous_mode == NTPROF_KERNEL_MODE;
	return !driver || strcmp(function, "ZwCreateProfile") != 0;
}

static ntprof_result done(ntprof_kernel *k, NTSTATUS status)
{
	return ntprof_sim_result(&k->sim, (uint32_t)status);
}

static ntprof_result set_interval(void *sys, const char *fn, uint32_t interval, uint32_t source)
{
	(void)fn;
	return done(enter(sys), NtSetIntervalProfile(interval, source));
}

static ntprof_result query_interval(void *sys, const char *fn, uint32_t source, uint64_t interval)
{
	(void)fn;
	return done(enter(sys), NtQueryIntervalProfile(source, (ULONG *)(uintptr_t)interval));
}

static ntprof_result create_profile(void *sys, const char *fn, const ntprof_create_args *a)
{
	(void)fn;
	return done(enter(sys), NtCreateProfile((HANDLE *)(uintptr_t)a->profile_handle,
		(HANDLE)(uintptr_t)a->process, (PVOID)(uintptr_t)a->profile_base, a->profile_size,
		a->bucket_size, (ULONG *)(uintptr_t)a->buffer, a->buffer_size, a->source, a->affinity));
}

static ntprof_result start_profile(void *sys, const char *fn, uint64_t handle)
{
	(void)fn;
	return done(enter(sys), NtStartProfile((HANDLE)(uintptr_t)handle));
}

static ntprof_result stop_profile(void *sys, const char *fn, uint64_t handle)
{
	(void)fn;
	return done(enter(sys), NtStopProfile((HANDLE)(uintptr_t)handle));
}

static ntprof_result close_handle(void *sys, const char *fn, uint64_t handle)
{
	(void)fn;
	return done(enter(sys), NtprofCloseHandle((HANDLE)(uintptr_t)handle));
}

static ntprof_result interrupt(void *sys, const ntprof_interrupt *irq, unsigned *counted)
{
	ntprof_kernel *k = enter(sys);
	if (irq->group != 0)
		return ntprof_result_not_applicable("one processor group here");
	void *process = irq->other_process ? &k->sim.handles.other_process : &k->sim.handles.this_process;
	long n = ProfileInterrupt(process, irq->pc, irq->source, irq->cpu);
	*counted = n < 0 ? 0 : (unsigned)n;
	return (ntprof_result){ n < 0 ? NTPROF_CORRUPTION : NTPROF_NONE, 0, NULL };
}

static ntprof_result inject(void *sys, const char *what)
{
	ntprof_kernel *k = enter(sys);
	unsigned *next = strcmp(what, "alloc") == 0 ? &k->fail_alloc
		       : strcmp(what, "lock") == 0 ? &k->fail_lock : &k->fail_map;
	++*next;
	return (ntprof_result){ NTPROF_NONE, 0, NULL };
}

static ntprof_impl table = {
	.abi = NTPROF_IMPL_ABI,
	.name = "impl-kernel",
	.open = open_system,
	.close = close_system,
	.exported = exported,
	.map = ntprof_sim_map,
	.read = ntprof_sim_read,
	.write = ntprof_sim_write,
	.poke = ntprof_sim_poke,
	.release = ntprof_sim_release,
	.open_process = ntprof_sim_open_process,
	.close_handle = close_handle,
	.duplicate_object = ntprof_sim_duplicate_object,
	.set_interval_profile = set_interval,
	.query_interval_profile = query_interval,
	.create_profile = create_profile,
	.start_profile = start_profile,
	.stop_profile = stop_profile,
	.interrupt = interrupt,
	.inject = inject,
	.implements = (const char *const[]){ "NtSetIntervalProfile", "NtQueryIntervalProfile",
		"NtCreateProfile", "NtStartProfile", "NtStopProfile", "Interrupt", "Inject", "Protect",
		"given:mode", "given:cpus", "given:cpu", "given:alloc", NULL },
	.emulates = "1809/x64",
	.protect = ntprof_sim_protect,
};

const ntprof_impl *ntprof_impl_entry(void)
{
	ntprof_impl_stub_missing(&table);
	return &table;
}
