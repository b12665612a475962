/* SPDX-License-Identifier: MIT */
/* TraceSetInformation and TraceQueryInformation, classes 0x05 and 0x07
 * (SPEC.md §TR). These are user-mode functions (ADVAPI32, later SECHOST) that
 * repackage the native calls: NtSetIntervalProfile and NtQueryIntervalProfile,
 * and NtSetSystemInformation and NtQuerySystemInformation with class
 * SystemPerformanceTraceInformation (0x1F) (SY-25). */
#include <string.h>

#include "internal.h"
#include "trace_classes.h"

#define TRACE_PROFILE_INTERVAL_SIZE 8u

/* SY-25: the functions' own buffers (locals and the double buffer of class
 * 7) live in the caller's process. The model maps one region for them, at a
 * user address that vectors and tests leave alone, the first time one is
 * needed: the kernel's probes of them pass. */
#define LIBRARY_BUFFER      0x7FF00000ull
#define LIBRARY_BUFFER_SIZE 0x10000u
#define LIBRARY_RETLEN      0x00u   /* a ULONG that receives ReturnLength */
#define LIBRARY_INFO        0x10u   /* the information buffer passed to the kernel */

static const char kernel_caller[] =
	"Trace* functions are user-mode library functions; there is no kernel-mode caller (TR-10)";
static const char unreadable_buffer[] =
	"the caller's TraceInformation buffer must be readable: a bad buffer faults in the caller, which the model does not simulate";
static const char no_room[] =
	"the caller's address space has no room at 0x7FF00000 for the Trace* functions' own buffers (SY-25)";

/* TR-9: the kernel's status, translated; the rule that decided it stays
 * the deciding one. */
static np_result win32_of(np_machine *m, np_result r)
{
	if (r.kind == NP_RESULT_STATUS) {
		NP_APPLY(m, TR_9);
		r = np_win32(np_status_to_win32(r.code));
	}
	return r;
}

static bool write_u32(np_machine *m, uint64_t at, uint32_t v) { return np_mem_write(m, at, &v, 4); }

/* The base of the functions' own buffers, mapped on first use; 0 when the
 * caller's address space has something else there. */
static uint64_t library_buffer(np_machine *m)
{
	if (m->library_buffer == 0 &&
	    np_mem_map(m, LIBRARY_BUFFER, LIBRARY_BUFFER_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0) == NULL)
		m->library_buffer = LIBRARY_BUFFER;
	return m->library_buffer;
}

/* TR-4, SY-25: an EVENT_TRACE_TIME_PROFILE_INFORMATION in the functions'
 * own buffer; returns its address (0: no room). */
static uint64_t time_profile_request(np_machine *m, uint32_t interval)
{
	NP_APPLY(m, SY_25);
	uint64_t lib = library_buffer(m);
	if (lib == 0)
		return 0;
	uint32_t request[2] = { NP_EVENT_TRACE_TIME_PROFILE_INFORMATION, interval };
	np_mem_write(m, lib + LIBRARY_INFO, request, sizeof request);
	return lib + LIBRARY_INFO;
}

np_result np_trace_set_information(np_machine *m, uint64_t session, uint32_t info_class,
				   uint64_t buffer, uint32_t length)
{
	np_trail_clear(m);
	if (!np_has_trace_set_information(m->version))
		return NP_DECIDE(m, TR_0, np_not_exported());
	if (m->previous_mode == NP_MODE_KERNEL)
		return NP_DECIDE(m, TR_10, np_not_applicable(kernel_caller));
	np_result gated;
	if (np_trace_class_gate(m, info_class, true, &gated))
		return gated;                                       /* TR-1, TR-11 */
	if (info_class != NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO)
		return np_trace_set_other(m, info_class, buffer, length);
	if (session != 0)
		return NP_DECIDE(m, TR_2, np_win32(NP_ERROR_INVALID_PARAMETER));
	if (length != TRACE_PROFILE_INTERVAL_SIZE)
		return NP_DECIDE(m, TR_3, np_win32(NP_ERROR_BAD_LENGTH));
	uint32_t field[2];
	if (!np_mem_read(m, buffer, field, sizeof field))
		return NP_DECIDE(m, TR_4, np_not_applicable(unreadable_buffer));
	if (field[0] != NP_PROFILE_TIME)                           /* TR-6 */
		return NP_APPLY(m, TR_6), win32_of(m, np_set_interval_profile_within(m, field[1], field[0]));
	NP_APPLY(m, TR_4);
	uint64_t request = time_profile_request(m, field[1]);      /* TR-4, SY-25 */
	if (request == 0)
		return NP_DECIDE(m, TR_4, np_not_applicable(no_room));
	return win32_of(m, np_set_system_information_within(m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION, request,
						     NP_EVENT_TRACE_TIME_PROFILE_SIZE));
}

/* ---- class 5 ---- */

static np_result query_interval(np_machine *m, uint64_t buffer, uint32_t length,
				uint64_t return_length)
{
	bool right = length == TRACE_PROFILE_INTERVAL_SIZE;
	if (return_length && (right || m->knobs.tqi_retlen == NP_RETLEN_ALWAYS) &&
	    !write_u32(m, return_length, TRACE_PROFILE_INTERVAL_SIZE))
		return NP_DECIDE(m, TR_3, np_not_applicable(unreadable_buffer));       /* TR-3, K-TQI-RETLEN */
	if (!right)
		return NP_DECIDE(m, TR_3, np_win32(NP_ERROR_BAD_LENGTH));
	uint32_t source;
	if (!np_mem_read(m, buffer, &source, sizeof source))
		return NP_DECIDE(m, TR_6, np_not_applicable(unreadable_buffer));
	if (source != NP_PROFILE_TIME)                             /* TR-6 */
		return NP_APPLY(m, TR_6), win32_of(m, np_query_interval_profile_within(m, source, buffer + 4));
	NP_APPLY(m, TR_4);
	uint64_t request = time_profile_request(m, 0);             /* TR-4, SY-25 */
	if (request == 0)
		return NP_DECIDE(m, TR_4, np_not_applicable(no_room));
	/* a well-formed request from the functions' own buffer: the kernel
	 * answers STATUS_SUCCESS (SY-23) */
	np_result r = np_query_system_information_within(m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION, request,
						     NP_EVENT_TRACE_TIME_PROFILE_SIZE, 0);
	uint32_t interval = 0;
	np_mem_read(m, request + 4, &interval, sizeof interval);
	if (!write_u32(m, buffer + 4, interval))
		return NP_DECIDE(m, TR_4, np_not_applicable(unreadable_buffer));
	return win32_of(m, r);
}

/* ---- class 7: the chain of PROFILE_SOURCE_INFO records (TR-7, TR-8, SY-24) ---- */

/* Copies n bytes of the functions' own buffer to the caller's. */
static bool copy_out(np_machine *m, uint64_t to, uint64_t from, uint32_t n)
{
	uint8_t chunk[256];
	while (n > 0) {
		uint32_t k = n < sizeof chunk ? n : (uint32_t)sizeof chunk;
		np_mem_read(m, from, chunk, k);
		if (!np_mem_write(m, to, chunk, k))
			return false;
		to += k;
		from += k;
		n -= k;
	}
	return true;
}

/* SY-25: asks the kernel for the list (sub-class 0x0D) in the functions'
 * own buffer, of length bytes; *total receives the kernel's return length. */
static np_result kernel_source_list(np_machine *m, uint64_t lib, uint32_t length, uint32_t *total)
{
	uint32_t request[2] = { NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION, 0 };
	np_mem_write(m, lib + LIBRARY_INFO, request, sizeof request);
	np_result r = np_query_system_information_within(m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION,
						     lib + LIBRARY_INFO, length, lib + LIBRARY_RETLEN);
	np_mem_read(m, lib + LIBRARY_RETLEN, total, sizeof *total);
	return r;
}

static np_result query_source_list(np_machine *m, uint64_t buffer, uint32_t length,
				   uint64_t return_length)
{
	uint64_t lib = library_buffer(m);
	if (lib == 0)
		return NP_DECIDE(m, SY_25, np_not_applicable(no_room));
	/* SY-25: a first query with a header-sized buffer learns the size */
	uint32_t total = 0;
	kernel_source_list(m, lib, NP_EVENT_TRACE_PROFILE_LIST_SIZE, &total);
	uint32_t needed = total - NP_EVENT_TRACE_PROFILE_LIST_HEADER;
	if (buffer == 0 || length < needed) {                  /* TR-7, K-SRCLIST-LEN */
		if (return_length && !write_u32(m, return_length, needed))
			return NP_DECIDE(m, TR_7, np_not_applicable(unreadable_buffer));
		return NP_DECIDE(m, TR_7, np_win32(m->knobs.srclist_len == NP_SRCLIST_MORE_DATA ? NP_ERROR_MORE_DATA
									     : NP_ERROR_BAD_LENGTH));
	}
	if (!np_allocate(m))
		return NP_DECIDE(m, TR_8, np_win32(NP_ERROR_OUTOFMEMORY));
	/* SY-25: the double buffer holds the header and the whole chain */
	uint32_t own = total < NP_EVENT_TRACE_PROFILE_LIST_SIZE ? NP_EVENT_TRACE_PROFILE_LIST_SIZE : total;
	kernel_source_list(m, lib, own, &total);   /* room for it all: STATUS_SUCCESS (SY-24) */
	if (!copy_out(m, buffer, lib + LIBRARY_INFO + NP_EVENT_TRACE_PROFILE_LIST_HEADER, needed))
		return NP_DECIDE(m, TR_7, np_not_applicable(unreadable_buffer));
	if (return_length && !write_u32(m, return_length, needed))
		return NP_DECIDE(m, TR_7, np_not_applicable(unreadable_buffer));
	return NP_DECIDE(m, TR_7, np_win32(NP_ERROR_SUCCESS));
}

np_result np_trace_query_information(np_machine *m, uint64_t session, uint32_t info_class,
				     uint64_t buffer, uint32_t length, uint64_t return_length)
{
	np_trail_clear(m);
	if (!np_has_trace_query_information(m->version))
		return NP_DECIDE(m, TR_0, np_not_exported());
	if (m->previous_mode == NP_MODE_KERNEL)
		return NP_DECIDE(m, TR_10, np_not_applicable(kernel_caller));
	np_result gated;
	if (np_trace_class_gate(m, info_class, false, &gated))
		return gated;                                       /* TR-1, TR-12 */
	if (info_class != NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO &&
	    info_class != NP_TRACE_PROFILE_SOURCE_LIST_INFO)
		return np_trace_query_other(m, session, info_class, buffer, length, return_length);
	if (session != 0)
		return NP_DECIDE(m, TR_2, np_win32(NP_ERROR_INVALID_PARAMETER));
	if (info_class == NP_TRACE_PROFILE_SOURCE_LIST_INFO)
		return query_source_list(m, buffer, length, return_length);
	return query_interval(m, buffer, length, return_length);
}
