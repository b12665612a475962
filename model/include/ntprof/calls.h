/* SPDX-License-Identifier: MIT */
/* ntprof: the calls, evaluated on a simulated machine.
 *
 * Each function is the behaviour of one Windows entry point as SPEC.md states
 * it. Pointer arguments are addresses in the machine's address space; what a
 * call writes lands there and is read back by the caller (np_mem_read). */
#ifndef NTPROF_CALLS_H
#define NTPROF_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "ntprof/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a call ends in. Outcomes are behaviour, compared like any other
 * (a Windows status, a Win32 error, a kernel fault); an inconsistency of the
 * model itself is never an outcome: it aborts (np_model_bug).
 *
 * One list for the model, the harness's records and reports, and the ABI an
 * implementation returns (harness/include/ntprof/impl.h): the numbers are the
 * ABI's, published with it, so they never change. The model itself never
 * ends in STUB or CRASHED; only a live system does. */
typedef enum np_result_kind {
	NP_RESULT_STATUS = 0,         /* returned an NTSTATUS (code) */
	NP_RESULT_WIN32 = 1,          /* returned a Win32 error (code) */
	NP_RESULT_FAULT = 2,          /* unhandled kernel-mode exception (code = exception) */
	NP_RESULT_BUGCHECK = 3,       /* the system stops (code = bug check) */
	NP_RESULT_NOT_EXPORTED = 4,   /* the function does not exist on that version */
	NP_RESULT_NOT_APPLICABLE = 5, /* the request cannot be expressed there (why) */
	NP_RESULT_NONE = 6,           /* a step with no status of its own (Interrupt) */
	NP_RESULT_CORRUPTION = 7,     /* IN-7: an increment landed outside the counters */
	NP_RESULT_STUB = 8,           /* live only: an "unimplemented" trap (Wine 0x80000100) */
	NP_RESULT_CRASHED = 9         /* live only: the call raised an unexpected exception (code) */
} np_result_kind;
#define NP_RESULT_LAST NP_RESULT_CRASHED

typedef struct np_result {
	np_result_kind kind;
	uint32_t code;
	const char *why; /* NOT_APPLICABLE: a static sentence */
} np_result;

/* KPROFILE_SOURCE values the model names (KS-1). */
#define NP_PROFILE_TIME             0x00u
#define NP_PROFILE_ALIGNMENT_FIXUP  0x01u
#define NP_PROFILE_MAXIMUM          0x18u

/* TRACE_QUERY_INFO_CLASS values: 5 and 7 are modelled (TR-1); the others
 * the wrappers handle are modelled up to their refusals (TR-11 to TR-18). */
#define NP_TRACE_STACK_TRACING_INFO             0x03u
#define NP_TRACE_SYSTEM_TRACE_ENABLE_FLAGS_INFO 0x04u
#define NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO  0x05u
#define NP_TRACE_PROFILE_SOURCE_CONFIG_INFO     0x06u
#define NP_TRACE_PROFILE_SOURCE_LIST_INFO       0x07u
#define NP_TRACE_PMC_EVENT_LIST_INFO            0x08u
#define NP_TRACE_PMC_COUNTER_LIST_INFO          0x09u
#define NP_TRACE_SET_DISALLOW_LIST              0x0Au
#define NP_TRACE_VERSION_INFO                   0x0Bu
#define NP_TRACE_DISALLOW_LIST_QUERY            0x0Eu

/* NtSetIntervalProfile(Interval, ProfileSource) (SI-*). On 3.10/3.50 the
 * function has no source argument: pass NP_PROFILE_TIME (SI-0). */
np_result np_nt_set_interval_profile(np_machine *m, uint32_t interval, uint32_t source);

/* NtQueryIntervalProfile(ProfileSource, Interval) (QI-*). */
np_result np_nt_query_interval_profile(np_machine *m, uint32_t source, uint64_t interval_ptr);

/* TraceSetInformation(SessionHandle, InformationClass, TraceInformation,
 * InformationLength) (TR-*). The buffer is read from machine memory. */
np_result np_trace_set_information(np_machine *m, uint64_t session, uint32_t info_class,
				   uint64_t buffer, uint32_t length);

/* TraceQueryInformation(SessionHandle, InformationClass, TraceInformation,
 * InformationLength, ReturnLength) (TR-*). return_length may be 0 (NULL). */
np_result np_trace_query_information(np_machine *m, uint64_t session, uint32_t info_class,
				     uint64_t buffer, uint32_t length, uint64_t return_length);

/* ---- Profile objects (CP, ST, SP, IN) ---- */

/* Which entry points exist for a caller in a given mode (CP-0, ST-0, SP-0,
 * SI-0, QI-0): NTDLL's exports for user mode, the kernel's for kernel mode.
 * name is the exported spelling (Nt or Zw). Unknown names are not exported. */
bool np_is_exported(np_ver v, np_mode caller, const char *name);
/* The signature rule that says whether name is exported (CP-0, ...), and
 * where the model applies it; NP_RULE_NONE for a name the table lacks. */
np_applied np_export_applied(const char *name);

/* Starts a new record of the rules a call applies (ntprof/rule.h, the
 * machine's trail). Every call above starts one itself; a caller that
 * reads the record after a step that is no call of the model clears it
 * first. */
void np_trail_clear(np_machine *m);

/* Arguments of NtCreateProfile and NtCreateProfileEx as the caller passes
 * them: pointers, handles and SIZE_T values in the caller's width. */
typedef struct np_create_profile_args {
	uint64_t profile_handle;   /* HANDLE *: where the new handle goes */
	uint64_t process;          /* HANDLE; 0 profiles globally */
	uint64_t profile_base;
	uint64_t profile_size;
	uint32_t bucket_size;      /* log2 of the bucket in bytes */
	uint64_t buffer;           /* ULONG *: the counters */
	uint32_t buffer_size;      /* in bytes */
	uint32_t source;           /* KPROFILE_SOURCE (3.51 and later) */
	uint64_t affinity;         /* NtCreateProfile: KAFFINITY (3.51 and later) */
	uint16_t group_count;      /* NtCreateProfileEx */
	uint64_t affinity_array;   /* NtCreateProfileEx: GROUP_AFFINITY * */
} np_create_profile_args;

/* An all-ones KAFFINITY in the caller's width: (KAFFINITY)-1. */
#define NP_AFFINITY_ALL UINT64_MAX

/* GROUP_AFFINITY as a 32-bit caller (x86, WOW64) and an x64 caller lay it out. */
#define NP_GROUP_AFFINITY_SIZE_32 12u
#define NP_GROUP_AFFINITY_SIZE_64 16u

np_result np_nt_create_profile(np_machine *m, const np_create_profile_args *a);
np_result np_nt_create_profile_ex(np_machine *m, const np_create_profile_args *a);
np_result np_nt_start_profile(np_machine *m, uint64_t profile_handle);
np_result np_nt_stop_profile(np_machine *m, uint64_t profile_handle);

/* MC-5: the object-manager calls vectors need around profiles. */
np_result np_nt_close(np_machine *m, uint64_t handle);
np_result np_nt_duplicate_object(np_machine *m, uint64_t handle, uint32_t access,
				 uint64_t *duplicate);
/* Opens a handle in the caller's table (MC-3); 0 when the table is full. */
uint64_t np_handle_open(np_machine *m, np_object_type type, unsigned object, uint32_t access);

/* One profile interrupt (IN-1..IN-8). counted receives the number of
 * profiles that counted it. Outcome NONE, CORRUPTION, BUGCHECK (the machine
 * halts) or NOT_APPLICABLE. */
typedef struct np_interrupt {
	uint32_t source;
	unsigned cpu, group;       /* the interrupted processor */
	uint64_t pc;               /* the interrupted instruction pointer */
	unsigned process;          /* NP_PROCESS_* running at the time */
} np_interrupt;
np_result np_profile_interrupt(np_machine *m, const np_interrupt *irq, unsigned *counted);

/* A run of interrupts that differ only in pc: a sample trace replayed.
 * Exactly what np_profile_interrupt does once per pc, in order, stopping at
 * a bug check; counted receives the total, and the result is the worst of
 * the run (bugcheck, then corruption, then none). One started profile
 * whose counters the kernel has mapped takes a loop of its own, about as
 * fast as a bare buf[(pc - base) >> shift]++. */
np_result np_profile_interrupts(np_machine *m, const np_interrupt *irq, const uint64_t *pc, size_t n,
				uint64_t *counted);

/* Sizes of the source-list records (TR-7), for callers that parse the chain. */
#define NP_PROFILE_SOURCE_INFO_FIXED 0x18u

/* SYSTEM_INFORMATION_CLASS values modelled (SY-*). */
#define NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION   0x1Fu
#define NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA  0x81u

/* EVENT_TRACE_INFORMATION_CLASS values modelled: the first dword of a
 * class 0x1F buffer (SY-21). */
#define NP_EVENT_TRACE_TIME_PROFILE_INFORMATION         0x03u
#define NP_EVENT_TRACE_SPINLOCK_INFORMATION             0x05u   /* SY-22a */
#define NP_EVENT_TRACE_PEBS_TRACING_INFORMATION         0x0Bu   /* SY-22c */
#define NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION  0x0Du
#define NP_EVENT_TRACE_UNIFIED_STACK_CACHING_INFORMATION 0x1Au  /* SY-22b */
#define NP_EVENT_TRACE_CONTEXT_REGISTER_INFORMATION     0x1Bu   /* SY-22b */

/* SY-23: EVENT_TRACE_TIME_PROFILE_INFORMATION {class, ProfileInterval}. */
#define NP_EVENT_TRACE_TIME_PROFILE_SIZE  8u
/* SY-24: EVENT_TRACE_PROFILE_LIST_INFORMATION: the class at 0, the chain of
 * PROFILE_SOURCE_INFO records from 8; its declared size is 0x28. */
#define NP_EVENT_TRACE_PROFILE_LIST_HEADER  8u
#define NP_EVENT_TRACE_PROFILE_LIST_SIZE    0x28u

/* SY-9: SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA is a pointer (output) and a
 * BOOLEAN Allocate (input) after it: 8 bytes for a 32-bit caller, 16 for a
 * 64-bit one. A user-mode WOW64 caller is 32-bit; kernel-mode code on a
 * 64-bit kernel is 64-bit. */
static inline unsigned np_caller_pointer_size(const np_machine *m)
{
	return m->arch == NP_X86 || (m->arch == NP_WOW64 && m->previous_mode == NP_MODE_USER) ? 4u : 8u;
}

/* NtSetSystemInformation(SystemInformationClass, SystemInformation,
 * SystemInformationLength) (SY-*). Classes 0x1F and 0x81 are modelled. */
np_result np_nt_set_system_information(np_machine *m, uint32_t info_class, uint64_t buffer,
				       uint32_t length);

/* NtQuerySystemInformation(SystemInformationClass, SystemInformation,
 * SystemInformationLength, ReturnLength) (SY-*). return_length may be 0 (NULL). */
np_result np_nt_query_system_information(np_machine *m, uint32_t info_class, uint64_t buffer,
					 uint32_t length, uint64_t return_length);

#ifdef __cplusplus
}
#endif

#endif
