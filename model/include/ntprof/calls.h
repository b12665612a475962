/* ntprof: the calls, evaluated on a simulated machine.
 *
 * Each function is the behaviour of one Windows entry point as SPEC.md states
 * it. Pointer arguments are addresses in the machine's address space; what a
 * call writes lands there and is read back by the caller (np_mem_read). */
#ifndef NTPROF_CALLS_H
#define NTPROF_CALLS_H

#include <stdint.h>

#include "ntprof/machine.h"

/* What a call ends in. Outcomes are behaviour, compared like any other
 * (a Windows status, a Win32 error, a kernel fault); an inconsistency of the
 * model itself is never an outcome: it aborts (np_model_bug). */
typedef enum np_result_kind {
	NP_RESULT_STATUS,        /* returned an NTSTATUS (code) */
	NP_RESULT_WIN32,         /* returned a Win32 error (code) */
	NP_RESULT_FAULT,         /* unhandled kernel-mode exception (code = exception) */
	NP_RESULT_BUGCHECK,      /* the system stops (code = bug check) */
	NP_RESULT_NOT_EXPORTED,  /* the function does not exist on that version */
	NP_RESULT_NOT_APPLICABLE /* the request cannot be expressed there (why) */
} np_result_kind;

typedef struct np_result {
	np_result_kind kind;
	uint32_t code;
	const char *why; /* NOT_APPLICABLE: a static sentence */
} np_result;

/* KPROFILE_SOURCE values the model names (KS-1). */
#define NP_PROFILE_TIME             0x00u
#define NP_PROFILE_ALIGNMENT_FIXUP  0x01u
#define NP_PROFILE_MAXIMUM          0x18u

/* TRACE_QUERY_INFO_CLASS values modelled (TR-1). */
#define NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO 0x05u
#define NP_TRACE_PROFILE_SOURCE_LIST_INFO      0x07u

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

/* Sizes of the source-list records (TR-7), for callers that parse the chain. */
#define NP_PROFILE_SOURCE_INFO_FIXED 0x18u

#endif
