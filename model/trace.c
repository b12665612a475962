/* TraceSetInformation and TraceQueryInformation, classes 0x05 and 0x07
 * (SPEC.md §TR). These are user-mode functions (ADVAPI32, later SECHOST) that
 * repackage the native calls. */
#include <string.h>

#include "etw_time_profile.h"
#include "internal.h"

#define TRACE_PROFILE_INTERVAL_SIZE 8u

static const char kernel_caller[] =
	"Trace* functions are user-mode library functions; there is no kernel-mode caller (TR-10)";
static const char other_class[] =
	"only information classes 5 and 7 are modelled (TR-1)";
static const char unreadable_buffer[] =
	"the caller's TraceInformation buffer must be readable: a bad buffer faults in the caller, which the model does not simulate";

static np_result win32_of(np_result r)
{
	if (r.kind == NP_RESULT_STATUS)
		r = np_win32(np_status_to_win32(r.code));   /* TR-9 */
	return r;
}

/* TR-1: the class gate shared by both functions; NULL means "handle it". */
static const np_result *class_gate(const np_machine *m, uint32_t info_class, bool is_set,
				   np_result *out)
{
	if (info_class != NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO &&
	    info_class != NP_TRACE_PROFILE_SOURCE_LIST_INFO) {
		*out = np_not_applicable(other_class);
		return out;
	}
	if (!np_trace_handles_profile_classes(m->version) ||
	    (is_set && info_class == NP_TRACE_PROFILE_SOURCE_LIST_INFO)) {
		*out = np_win32(NP_ERROR_NOT_SUPPORTED);
		return out;
	}
	return NULL;
}

np_result np_trace_set_information(np_machine *m, uint64_t session, uint32_t info_class,
				   uint64_t buffer, uint32_t length)
{
	if (!np_has_trace_set_information(m->version))
		return np_not_exported();                           /* TR-0 */
	if (m->previous_mode == NP_MODE_KERNEL)
		return np_not_applicable(kernel_caller);            /* TR-10 */
	np_result gated;
	if (class_gate(m, info_class, true, &gated))
		return gated;                                       /* TR-1 */
	if (session != 0)
		return np_win32(NP_ERROR_INVALID_PARAMETER);        /* TR-2 */
	if (length != TRACE_PROFILE_INTERVAL_SIZE)
		return np_win32(NP_ERROR_BAD_LENGTH);               /* TR-3 */
	uint32_t field[2];
	if (!np_mem_read(m, buffer, field, sizeof field))
		return np_not_applicable(unreadable_buffer);
	if (field[0] == NP_PROFILE_TIME)                           /* TR-4 */
		return np_win32(np_status_to_win32(np_etw_time_profile_set(m, field[1])));
	return win32_of(np_nt_set_interval_profile(m, field[1], field[0])); /* TR-6 */
}

/* ---- class 7: the chain of PROFILE_SOURCE_INFO records (TR-7) ---- */

static size_t description_of(const np_hal_source *s, uint32_t source, char *out, size_t cap)
{
	if (s->description) {
		size_t n = strlen(s->description);
		memcpy(out, s->description, n + 1);
		return n;
	}
	static const char hex[] = "0123456789ABCDEF";
	/* HL-1: a source whose HAL name the model does not carry */
	memcpy(out, "Source0x", 8);
	out[8] = hex[(source >> 4) & 0xF];
	out[9] = hex[source & 0xF];
	out[10] = '\0';
	(void)cap;
	return 10;
}

/* TR-7: fixed part 0x18 bytes, the NUL-terminated UTF-16 description after it,
 * each record rounded up to 8 bytes so the next one's ULONG64 stays aligned. */
static uint32_t record_size(size_t chars)
{
	uint32_t n = NP_PROFILE_SOURCE_INFO_FIXED + (uint32_t)(chars + 1) * 2u;
	return (n + 7u) & ~7u;
}

static uint32_t source_list_size(const np_machine *m)
{
	uint32_t total = 0;
	char name[64];
	for (uint32_t s = 0; s < NP_HAL_SOURCES; s++)
		if (m->hal.source[s].supported)
			total += record_size(description_of(&m->hal.source[s], s, name, sizeof name));
	return total;
}

static bool write_u32(np_machine *m, uint64_t at, uint32_t v) { return np_mem_write(m, at, &v, 4); }

/* Writes the chain; false when a byte of the caller's buffer is not writable. */
static bool write_source_list(np_machine *m, uint64_t buffer)
{
	uint64_t at = buffer;
	uint64_t last = 0;
	char name[64];
	for (uint32_t s = 0; s < NP_HAL_SOURCES; s++) {
		const np_hal_source *src = &m->hal.source[s];
		if (!src->supported)
			continue;
		size_t chars = description_of(src, s, name, sizeof name);
		uint32_t size = record_size(chars);
		uint8_t rec[NP_PROFILE_SOURCE_INFO_FIXED + 2 * 64 + 8];
		memset(rec, 0, sizeof rec);
		uint32_t fixed[4] = { size, s, src->min, src->max };
		memcpy(rec, fixed, sizeof fixed);
		for (size_t i = 0; i < chars; i++)
			rec[NP_PROFILE_SOURCE_INFO_FIXED + 2 * i] = (uint8_t)name[i];
		if (!np_mem_write(m, at, rec, size))
			return false;
		last = at;
		at += size;
	}
	return last == 0 || write_u32(m, last, 0);   /* TR-7: the last record ends the chain */
}

static np_result query_source_list(np_machine *m, uint64_t buffer, uint32_t length,
				   uint64_t return_length)
{
	uint32_t needed = source_list_size(m);
	if (buffer == 0 || length < needed) {                  /* TR-7, K-SRCLIST-LEN */
		if (return_length && !write_u32(m, return_length, needed))
			return np_not_applicable(unreadable_buffer);
		return np_win32(m->knobs.srclist_len == NP_SRCLIST_MORE_DATA ? NP_ERROR_MORE_DATA
									     : NP_ERROR_BAD_LENGTH);
	}
	if (!np_allocate(m))
		return np_win32(NP_ERROR_OUTOFMEMORY);              /* TR-8 */
	if (!write_source_list(m, buffer))
		return np_not_applicable(unreadable_buffer);
	if (return_length && !write_u32(m, return_length, needed))
		return np_not_applicable(unreadable_buffer);
	return np_win32(NP_ERROR_SUCCESS);
}

static np_result query_interval(np_machine *m, uint64_t buffer, uint32_t length,
				uint64_t return_length)
{
	bool right = length == TRACE_PROFILE_INTERVAL_SIZE;
	if (return_length && (right || m->knobs.tqi_retlen == NP_RETLEN_ALWAYS) &&
	    !write_u32(m, return_length, TRACE_PROFILE_INTERVAL_SIZE))
		return np_not_applicable(unreadable_buffer);       /* TR-3, K-TQI-RETLEN */
	if (!right)
		return np_win32(NP_ERROR_BAD_LENGTH);               /* TR-3 */
	uint32_t source;
	if (!np_mem_read(m, buffer, &source, sizeof source))
		return np_not_applicable(unreadable_buffer);
	if (source == NP_PROFILE_TIME) {                         /* TR-4 */
		if (!write_u32(m, buffer + 4, np_etw_time_profile_query(m)))
			return np_not_applicable(unreadable_buffer);
		return np_win32(NP_ERROR_SUCCESS);
	}
	return win32_of(np_nt_query_interval_profile(m, source, buffer + 4)); /* TR-6 */
}

np_result np_trace_query_information(np_machine *m, uint64_t session, uint32_t info_class,
				     uint64_t buffer, uint32_t length, uint64_t return_length)
{
	if (!np_has_trace_query_information(m->version))
		return np_not_exported();                           /* TR-0 */
	if (m->previous_mode == NP_MODE_KERNEL)
		return np_not_applicable(kernel_caller);            /* TR-10 */
	np_result gated;
	if (class_gate(m, info_class, false, &gated))
		return gated;                                       /* TR-1 */
	if (session != 0)
		return np_win32(NP_ERROR_INVALID_PARAMETER);        /* TR-2 */
	if (info_class == NP_TRACE_PROFILE_SOURCE_LIST_INFO)
		return query_source_list(m, buffer, length, return_length);
	return query_interval(m, buffer, length, return_length);
}
