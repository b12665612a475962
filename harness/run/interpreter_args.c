/* SPDX-License-Identifier: MIT */
/* What a step's typed arguments mean on an implementation's system
 * (symbolic pointers become regions of its address space, filled with the
 * poison byte so that "not written" can be observed; handle symbols become
 * handles; captures are kept by name), and the out-values read back. */
#include <stdio.h>
#include <string.h>

#include "run/interpreter.h"
#include "ntprof/calls.h"

#define PROCESS_ALL_ACCESS 0x001FFFFFu

static uint64_t map_region(np_native_state *s, uint64_t size, unsigned prot, unsigned flags,
			   uint8_t fill)
{
	return s->impl->map(s->sys, size, prot, flags, fill);
}

uint64_t np_native_fresh_region(np_native_state *s, unsigned prot, unsigned flags)
{
	uint64_t base = map_region(s, NP_REGION_SIZE, prot, flags, NP_POISON);
	if (!base && !s->lacking)
		s->lacking = flags & NTPROF_MAP_VANISHING ? "the system cannot make vanishing memory"
							  : "the system has no memory to map";
	return base;
}

const np_capture *np_native_find_capture(const np_native_state *s, const char *name)
{
	for (unsigned i = 0; i < s->ncap; i++)
		if (strcmp(s->cap[i].name, name) == 0)
			return &s->cap[i];
	return NULL;
}

static void add_capture(np_native_state *s, const char *name, bool buffer, uint64_t value, uint32_t size)
{
	if (s->ncap == NP_MAX_CAPTURES)
		return;
	np_capture *c = &s->cap[s->ncap++];
	/* kept cut to the table's width, as it always was: a longer NAME never
	 * matches a later use, which compares it whole */
	size_t n = strnlen(name, sizeof c->name - 1);
	memcpy(c->name, name, n);
	c->name[n] = '\0';
	c->buffer = buffer;
	c->value = value;
	c->size = size;
}

uint64_t np_native_pointer(np_native_state *s, const np_pointer_arg *p)
{
	switch (p->symbol) {
	case NP_PTR_USER:       return np_native_fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0);
	case NP_PTR_NULL:       return 0;
	case NP_PTR_MISALIGNED: return np_native_fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0) + 2;
	case NP_PTR_READONLY:   return np_native_fresh_region(s, NP_PROT_READ, 0);
	case NP_PTR_UNMAPPED:   return np_native_fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, NTPROF_MAP_FREED);
	case NP_PTR_VANISHING:  return np_native_fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, NTPROF_MAP_VANISHING);
	case NP_PTR_KERNEL:
		/* a WOW64 caller can only pass 32 bits: an upper-half 32-bit address */
		return s->arch == NP_X64 ? 0xFFFFF80000001000ull : 0x80001000ull;
	case NP_PTR_NUMBER:
	default:
		return p->number;
	}
}

/* MC-3: a process handle the system could not make (OpenProcess or the
 * spawn of another process failed) is no handle at all: passed on as 0 it
 * would be NtCreateProfile's "no process", a global profile, and the vector
 * would test what it does not say. The step is not applicable instead. */
static uint64_t process_handle(np_native_state *s, int other, uint32_t access)
{
	uint64_t h = s->impl->open_process(s->sys, other, access);
	if (!h && !s->lacking)
		s->lacking = other ? "the system cannot make a handle to another process (Process=other)"
				   : "the system cannot open this process with SYNCHRONIZE only (noquery)";
	return h;
}

uint64_t np_native_handle(np_native_state *s, const np_arg *a)
{
	const np_capture *c;
	switch (a->handle.symbol) {
	case NP_HANDLE_NULL:    return 0;
	case NP_HANDLE_CURRENT: return NP_HANDLE_CURRENT_PROCESS;
	case NP_HANDLE_THREAD:  return NP_HANDLE_CURRENT_THREAD;
	case NP_HANDLE_INVALID: return 1;   /* names entry 0, which never exists */
	case NP_HANDLE_OTHER:
		return process_handle(s, 1, PROCESS_ALL_ACCESS);
	case NP_HANDLE_NOQUERY:
		return process_handle(s, 0, NP_SYNCHRONIZE);
	case NP_HANDLE_NAME:
		c = np_native_find_capture(s, a->handle.name);
		return c ? c->value : 1;
	case NP_HANDLE_NUMBER:
	default:
		return a->handle.number;
	}
}

/* `user` or >NAME is a fresh zero-filled buffer of size bytes (as fresh
 * pages are), a NAME reuses a captured one: a null address when the step
 * that captures it did not make it. */
bool np_native_buffer(np_native_state *s, const np_arg *a, uint32_t size, uint64_t *addr)
{
	const np_capture *c;
	switch (a->buffer.form) {
	case NP_BUFFER_FRESH:
		*addr = map_region(s, size ? size : 1, NP_PROT_READ | NP_PROT_WRITE, 0, 0);
		if (!*addr)
			return false;
		np_native_buffer_pages(s, a, *addr, size);   /* AS-4: why noted when it cannot */
		if (a->buffer.name[0])
			add_capture(s, a->buffer.name, true, *addr, size);
		return true;
	case NP_BUFFER_CAPTURED:
		c = np_native_find_capture(s, a->buffer.name);
		*addr = c ? c->value : 0;
		return true;
	case NP_BUFFER_POINTER:
	default:
		*addr = np_native_pointer(s, &a->buffer.where);
		return true;
	}
}

/* A handle written to *addr: "-" when nothing was written; the capture
 * name (or "written") otherwise. */
void np_native_out_handle(np_native_state *s, np_record *r, const char *out_name, const np_arg *a,
			  uint64_t addr)
{
	const char *capture = a->out_handle.capture;
	uint64_t value = 0;
	unsigned width = s->arch == NP_X64 ? 8u : 4u;
	bool written = addr && s->impl->read(s->sys, addr, &value, width) &&
		       (uint32_t)value != NP_POISON32;
	if (capture[0])
		add_capture(s, capture, false, written ? value : 0, 0);
	np_record_out(r, out_name, !written ? "-" : capture[0] ? capture : "written");
}

/* Reads back a ULONG out-parameter: its value, or "-" when unwritten. */
void np_native_out_u32(np_native_state *s, np_record *r, const char *name, uint64_t addr)
{
	uint32_t v;
	if (addr == 0 || !s->impl->read(s->sys, addr, &v, sizeof v) || v == NP_POISON32)
		np_record_out(r, name, "-");
	else
		np_record_out_u32(r, name, v);
}

/* TR-7, SY-24: the PROFILE_SOURCE_INFO chain as Sources="id,id,..." and
 * Limits="id:min:max,..." ("N-records" when that is too long for one value). */
void np_native_out_source_list(np_native_state *s, np_record *r, uint64_t addr)
{
	char ids[NP_TEXT_MAX] = "", limits[NP_TEXT_MAX] = "";
	size_t nids = 0, nlim = 0;
	bool limits_fit = true;
	unsigned count = 0;
	uint32_t head[4];
	if (addr == 0 || !s->impl->read(s->sys, addr, head, sizeof head) || head[0] == NP_POISON32) {
		np_record_out(r, "Sources", "-");
		np_record_out(r, "Limits", "-");
		return;
	}
	for (;;) {
		count++;
		int n = snprintf(ids + nids, sizeof ids - nids, "%s%u", nids ? "," : "", head[1]);
		if (n > 0 && (size_t)n < sizeof ids - nids)
			nids += (size_t)n;
		n = snprintf(limits + nlim, sizeof limits - nlim, "%s%u:%u:%u", nlim ? "," : "",
			     head[1], head[2], head[3]);
		if (n > 0 && (size_t)n < sizeof limits - nlim)
			nlim += (size_t)n;
		else
			limits_fit = false;
		if (head[0] == 0 || count >= 4096)
			break;
		addr += head[0];
		if (!s->impl->read(s->sys, addr, head, sizeof head))
			break;
	}
	if (!limits_fit)
		snprintf(limits, sizeof limits, "%u-records", count);
	np_record_out(r, "Sources", ids);
	np_record_out(r, "Limits", limits);
}

/* Writes bytes into whatever region holds [addr, addr+n), even a read-only
 * one: the caller's input as it was before the call. An address with no
 * region behind it (null, unmapped, kernel) has no input to hold. */
void np_native_poke(np_native_state *s, uint64_t addr, const void *bytes, size_t n)
{
	if (addr != 0)
		s->impl->poke(s->sys, addr, bytes, n);
}

/* SY-9: reads back the ProcessorProfileControlArea pointer, as wide as the
 * caller's pointers: its value, or "-" when unwritten (still poison). */
void np_native_out_pointer(np_native_state *s, np_record *r, const char *name, uint64_t addr)
{
	unsigned size = s->pointer_size;
	uint8_t b[8];
	uint64_t v = 0;
	bool poisoned = true;
	if (addr == 0 || !s->impl->read(s->sys, addr, b, size)) {
		np_record_out(r, name, "-");
		return;
	}
	for (unsigned i = 0; i < size; i++) {
		v |= (uint64_t)b[i] << (8 * i);
		poisoned = poisoned && b[i] == NP_POISON;
	}
	char text[24];
	snprintf(text, sizeof text, "0x%llX", (unsigned long long)v);
	np_record_out(r, name, poisoned ? "-" : text);
}

void np_native_write_groups(np_native_state *s, uint64_t array, const np_group_element *g, unsigned n)
{
	bool narrow = s->arch != NP_X64;
	unsigned size = narrow ? NP_GROUP_AFFINITY_SIZE_32 : NP_GROUP_AFFINITY_SIZE_64;
	unsigned at = narrow ? 4u : 8u;
	for (unsigned i = 0; i < n; i++) {
		uint8_t e[NP_GROUP_AFFINITY_SIZE_64] = { 0 };
		uint16_t words[4] = { g[i].group, g[i].reserved, g[i].reserved, g[i].reserved };
		memcpy(e, &g[i].mask, at);
		memcpy(e + at, words, sizeof words);
		np_native_poke(s, array + (uint64_t)i * size, e, size);
	}
}
