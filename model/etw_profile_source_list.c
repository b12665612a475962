/* SPDX-License-Identifier: MIT */
/* The kernel side of ETW's profile-source list: class
 * SystemPerformanceTraceInformation (0x1F), sub-class
 * EventTraceProfileSourceListInformation (0x0D) (SY-24, records per TR-7). */
#include <string.h>

#include "sysinfo.h"

#define DESCRIPTION_MAX 32u   /* the longest HAL name (HL-1) is 24 characters */

/* HL-1, TR-7: the HAL's name for a source, or "Source0xNN" for a source
 * whose name the model does not carry. Returns its length. */
static size_t description_of(const np_hal_source *s, uint32_t source, char out[DESCRIPTION_MAX])
{
	if (s->description) {
		size_t n = strlen(s->description);
		memcpy(out, s->description, n + 1);
		return n;
	}
	static const char hex[] = "0123456789ABCDEF";
	memcpy(out, "Source0x", 8);
	out[8] = hex[(source >> 4) & 0xF];
	out[9] = hex[source & 0xF];
	out[10] = '\0';
	return 10;
}

/* TR-7: fixed part 0x18 bytes, the NUL-terminated UTF-16 description after it,
 * each record rounded up to 8 bytes so the next one's ULONG64 stays aligned. */
static uint32_t record_size(size_t chars)
{
	uint32_t n = NP_PROFILE_SOURCE_INFO_FIXED + (uint32_t)(chars + 1) * 2u;
	return (n + 7u) & ~7u;
}

static uint32_t chain_size(const np_machine *m)
{
	uint32_t total = 0;
	char name[DESCRIPTION_MAX];
	for (uint32_t s = 0; s < NP_HAL_SOURCES; s++)
		if (m->hal.source[s].supported)
			total += record_size(description_of(&m->hal.source[s], s, name));
	return total;
}

/* TR-7: one record per supported source in ascending order; the last one's
 * NextEntryOffset is 0. False when a byte of the buffer cannot be written. */
static bool write_chain(const np_sysinfo *rq)
{
	const np_machine *m = rq->m;
	uint32_t at = NP_EVENT_TRACE_PROFILE_LIST_HEADER;
	char name[DESCRIPTION_MAX];
	for (uint32_t s = 0, left = chain_size(m); s < NP_HAL_SOURCES; s++) {
		/* indexed, not through a pointer first: a bound one too far is an
		 * out-of-bounds index that UBSan reports (make mutants) */
		if (!m->hal.source[s].supported)
			continue;
		const np_hal_source *src = &m->hal.source[s];
		size_t chars = description_of(src, s, name);
		uint32_t size = record_size(chars);
		left -= size;
		uint8_t rec[NP_PROFILE_SOURCE_INFO_FIXED + 2 * DESCRIPTION_MAX + 8];
		memset(rec, 0, sizeof rec);
		uint32_t fixed[4] = { left ? size : 0, s, src->min, src->max };
		memcpy(rec, fixed, sizeof fixed);
		for (size_t i = 0; i < chars; i++)
			rec[NP_PROFILE_SOURCE_INFO_FIXED + 2 * i] = (uint8_t)name[i];
		if (!np_sysinfo_write(rq, at, rec, size))
			return false;
		at += size;
	}
	return true;
}

np_result np_etw_profile_source_list(const np_sysinfo *rq)
{
	/* SY-24: at least an EVENT_TRACE_PROFILE_LIST_INFORMATION (0x28 bytes),
	 * then room for the whole chain after the 8-byte header; either
	 * shortfall reports the size wanted and writes nothing else */
	uint32_t total = NP_EVENT_TRACE_PROFILE_LIST_HEADER + chain_size(rq->m);
	uint32_t wanted = rq->length < NP_EVENT_TRACE_PROFILE_LIST_SIZE ? NP_EVENT_TRACE_PROFILE_LIST_SIZE
									 : total;
	if (rq->length < wanted) {
		if (!np_sysinfo_set_return_length(rq, wanted))
			return np_sysinfo_fault(rq->m);                  /* SY-5 */
		return NP_DECIDE(rq->m, SY_24, np_status(NP_STATUS_INFO_LENGTH_MISMATCH));
	}
	if (!write_chain(rq) || !np_sysinfo_set_return_length(rq, total))
		return np_sysinfo_fault(rq->m);                          /* SY-5 */
	return NP_DECIDE(rq->m, SY_24, np_status(NP_STATUS_SUCCESS));
}
