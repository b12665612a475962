/* The caller's address space (AS-1) and the user-mode probes (AS-2). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_BACKED (16u << 20) /* the model backs at most 16 MiB per region */

/* AS-1: MmUserProbeAddress. x86: 0x7FFF0000 (2 GB user space). x64 and WOW64
 * callers run on a 64-bit kernel, whose limit is 0x7FFFFFFF0000; a WOW64
 * caller's pointers are 32-bit values zero-extended below it. */
uint64_t np_user_probe_address(const np_machine *m)
{
	return m->arch == NP_X86 ? 0x7FFF0000ull : 0x7FFFFFFF0000ull;
}

np_config_error np_mem_map(np_machine *m, uint64_t base, uint64_t size, unsigned prot,
			   unsigned flags, uint8_t fill)
{
	if (size == 0 || size > MAX_BACKED || base + size < base)
		return "a mapped region must be 1 byte to 16 MiB and must not wrap";
	if (m->mem.count == NP_MAX_REGIONS)
		return "too many mapped regions";
	for (unsigned i = 0; i < m->mem.count; i++) {
		const np_region *r = &m->mem.region[i];
		if (base < r->base + r->size && r->base < base + size)
			return "mapped regions overlap";
	}
	uint8_t *bytes = malloc((size_t)size);
	if (!bytes)
		return "out of memory";
	memset(bytes, fill, (size_t)size);
	m->mem.region[m->mem.count++] = (np_region){ base, size, prot, flags, false, bytes };
	return NULL;
}

np_region *np_mem_find(np_machine *m, uint64_t addr, uint64_t size)
{
	if (addr + size < addr)
		return NULL;
	for (unsigned i = 0; i < m->mem.count; i++) {
		np_region *r = &m->mem.region[i];
		if (addr >= r->base && addr + size <= r->base + r->size)
			return r;
	}
	return NULL;
}

static np_region *accessible(np_machine *m, uint64_t addr, size_t len, unsigned need)
{
	np_region *r = np_mem_find(m, addr, len);
	if (!r || r->revoked || (r->prot & need) != need)
		return NULL;
	return r;
}

bool np_mem_read(np_machine *m, uint64_t addr, void *out, size_t len)
{
	np_region *r = accessible(m, addr, len, NP_PROT_READ);
	if (!r)
		return false;
	memcpy(out, r->bytes + (addr - r->base), len);
	return true;
}

bool np_mem_write(np_machine *m, uint64_t addr, const void *data, size_t len)
{
	np_region *r = accessible(m, addr, len, NP_PROT_WRITE);
	if (!r)
		return false;
	memcpy(r->bytes + (addr - r->base), data, len);
	return true;
}

/* The range test shared by both probes (AS-1): [addr, addr+len) must not
 * wrap and must end at or below MmUserProbeAddress. */
static bool in_user_range(const np_machine *m, uint64_t addr, uint64_t len)
{
	return addr + len >= addr && addr + len <= np_user_probe_address(m);
}

/* A region marked VANISHES passes the probe and is gone afterwards. */
static void probed(np_region *r)
{
	if (r && (r->flags & NP_REGION_VANISHES))
		r->revoked = true;
}

/* AS-2: for a user-mode request, the range must be aligned (tested first),
 * lie below MmUserProbeAddress, and be writable where the probe touches it.
 * A kernel-mode request is trusted and passes unprobed. */
uint32_t np_probe_for_write(np_machine *m, uint64_t addr, uint64_t len, unsigned align)
{
	if (m->previous_mode == NP_MODE_KERNEL)
		return NP_STATUS_SUCCESS;
	if (align > 1 && addr % align != 0)
		return NP_STATUS_DATATYPE_MISALIGNMENT;
	if (!in_user_range(m, addr, len))
		return NP_STATUS_ACCESS_VIOLATION;
	np_region *r = accessible(m, addr, (size_t)len, NP_PROT_WRITE);
	if (!r)
		return NP_STATUS_ACCESS_VIOLATION;
	probed(r);
	return NP_STATUS_SUCCESS;
}

/* SY-1, SY-2: the probe NtSetSystemInformation makes of its buffer, which
 * it only reads: alignment first, then the range. It touches nothing, so an
 * unmapped or read-only buffer passes; a later access may still fault (SY-5). */
uint32_t np_probe_for_read(np_machine *m, uint64_t addr, uint64_t len, unsigned align)
{
	if (m->previous_mode == NP_MODE_KERNEL)
		return NP_STATUS_SUCCESS;
	if (addr % align != 0)
		return NP_STATUS_DATATYPE_MISALIGNMENT;
	if (!in_user_range(m, addr, len))
		return NP_STATUS_ACCESS_VIOLATION;
	probed(np_mem_find(m, addr, len));
	return NP_STATUS_SUCCESS;
}
