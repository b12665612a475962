/* SPDX-License-Identifier: MIT */
/* The caller's address space (AS-1) and the user-mode probes (AS-2). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_BACKED  (1u << 20)                /* up to here a region is one block */
#define LEAF_PAGES  NP_REGION_LEAF_PAGES      /* above it, pages hang off leaves */
#define MAX_REGION  (0x100000000ull + 0x10000) /* a ULONG-sized buffer, page-rounded */

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
	if (size == 0 || size > MAX_REGION || base + size < base)
		return "a mapped region must be 1 byte to 4 GiB + 64 KiB and must not wrap";
	if (m->mem.count == NP_MAX_REGIONS)
		return "too many mapped regions";
	for (unsigned i = 0; i < m->mem.count; i++) {
		const np_region *r = &m->mem.region[i];
		if (base < r->base + r->size && r->base < base + size)
			return "mapped regions overlap";
	}
	np_region r = { base, size, prot, flags, false, NULL, NULL, fill };
	/* Pages are made when first written: most of the 64 KiB regions a
	 * vector maps are never written, or in one page, and filling each up
	 * front was half of a run (perf: memset). np_region_block turns a
	 * region of up to 1 MiB into one block when that is needed. */
	uint64_t pages = (size + NP_PAGE_SIZE - 1) / NP_PAGE_SIZE;
	r.page = calloc((size_t)((pages + LEAF_PAGES - 1) / LEAF_PAGES), sizeof *r.page);
	if (!r.page)
		return "out of memory"; /* LCOV_EXCL_LINE: calloc of at most 16 KiB */
	m->mem.region[m->mem.count++] = r;
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

static void free_pages(np_region *r)
{
	uint64_t pages = (r->size + NP_PAGE_SIZE - 1) / NP_PAGE_SIZE;
	for (uint64_t l = 0; r->page && l < (pages + LEAF_PAGES - 1) / LEAF_PAGES; l++) {
		/* a leaf's pages past the region's end are never made: the walk stops
		 * at the region's end (a small region's leaf is mostly past it) */
		uint64_t n = pages - l * LEAF_PAGES < LEAF_PAGES ? pages - l * LEAF_PAGES : LEAF_PAGES;
		for (uint64_t i = 0; r->page[l] && i < n; i++)
			free(r->page[l][i]);
		free(r->page[l]);
	}
	free(r->page);
	r->page = NULL;
}

void np_region_free(np_region *r)
{
	free_pages(r);
	free(r->bytes);
	r->bytes = NULL;
}

/* The pages written so far, and the fill elsewhere, gathered into one block
 * that replaces them. */
uint8_t *np_region_block(np_region *r)
{
	if (r->bytes || r->size > MAX_BACKED)
		return r->bytes;
	uint8_t *block = malloc((size_t)r->size);
	if (!block)
		/* Left out of coverage: the host's malloc of at most 1 MiB failing,
		 * which no test can provoke (as for the pages below). */
		NP_MODEL_BUG("out of memory for a region"); /* LCOV_EXCL_LINE */
	np_region_copy_out(r, 0, block, (size_t)r->size);
	free_pages(r);
	r->bytes = block;
	return block;
}

/* The byte at offset off of a region; a page of a region not in one block
 * is created (holding the fill byte) when write is set, else NULL means
 * "the fill". */
static uint8_t *region_byte(np_region *r, uint64_t off, bool write)
{
	if (r->bytes)
		return r->bytes + off;
	uint64_t index = off / NP_PAGE_SIZE;
	uint8_t ***leaf = &r->page[index / LEAF_PAGES];
	if (!*leaf && !write)
		return NULL;
	if (!*leaf && !(*leaf = calloc(LEAF_PAGES, sizeof **leaf)))
		/* Left out of coverage: the host's calloc of one small page table
		 * failing; no test can make the C library's allocator fail (the
		 * simulated kernel's failures are Inject's, a different path). */
		NP_MODEL_BUG("out of memory for a page table"); /* LCOV_EXCL_LINE */
	uint8_t **page = &(*leaf)[index % LEAF_PAGES];
	if (!*page && write) {
		*page = malloc(NP_PAGE_SIZE);
		if (!*page)
			/* Left out of coverage: the host's malloc of one 4 KiB page failing,
			 * which no test can provoke (as for the page table above). */
			NP_MODEL_BUG("out of memory for one page"); /* LCOV_EXCL_LINE */
		memset(*page, r->fill, NP_PAGE_SIZE);
	}
	return *page ? *page + off % NP_PAGE_SIZE : NULL;
}

void np_region_copy_out(np_region *r, uint64_t off, void *out, size_t len)
{
	uint8_t *o = out;
	while (len) {
		size_t chunk = NP_PAGE_SIZE - (size_t)(off % NP_PAGE_SIZE);
		if (chunk > len)
			chunk = len;
		const uint8_t *src = region_byte(r, off, false);
		if (src)
			memcpy(o, src, chunk);
		else
			memset(o, r->fill, chunk);
		o += chunk;
		off += chunk;
		len -= chunk;
	}
}

void np_region_copy_in(np_region *r, uint64_t off, const void *data, size_t len)
{
	const uint8_t *d = data;
	while (len) {
		size_t chunk = NP_PAGE_SIZE - (size_t)(off % NP_PAGE_SIZE);
		if (chunk > len)
			chunk = len;
		memcpy(region_byte(r, off, true), d, chunk);
		d += chunk;
		off += chunk;
		len -= chunk;
	}
}

/* Zeroes [off, off+len) of a region. A page of a large region that was
 * never written and whose fill is zero reads as zeros already and is not
 * made: ST-8 zeroes a whole profile buffer, up to 4 GiB, and made every
 * page of it (conformance/fuzz/fuzz_model.c ran out of memory on 1.5 GiB). */
void np_region_zero(np_region *r, uint64_t off, uint64_t len)
{
	static const uint8_t zeros[NP_PAGE_SIZE];
	while (len) {
		size_t chunk = NP_PAGE_SIZE - (size_t)(off % NP_PAGE_SIZE);
		if (chunk > len)
			chunk = (size_t)len;
		if (r->fill != 0 || region_byte(r, off, false))
			memcpy(region_byte(r, off, true), zeros, chunk);
		off += chunk;
		len -= chunk;
	}
}

/* Walks [addr, addr+len) through consecutive regions, each mapped with the
 * access needed and not revoked; calls each(r, offset, done, chunk) per
 * region. False when any byte is not accessible (nothing is then done). */
static bool walk(np_machine *m, uint64_t addr, uint64_t len, unsigned need,
		 void (*each)(np_region *, uint64_t, uint64_t, uint64_t, void *), void *ctx)
{
	if (addr + len < addr)
		return false;
	for (int pass = 0; pass < 2; pass++) {     /* check everything, then act */
		uint64_t a = addr, left = len, done = 0;
		while (left) {
			np_region *r = np_mem_find(m, a, 1);
			if (!r || r->revoked || (r->prot & need) != need)
				return false;
			uint64_t chunk = r->base + r->size - a < left ? r->base + r->size - a : left;
			if (pass == 1 && each)
				each(r, a - r->base, done, chunk, ctx);
			a += chunk;
			done += chunk;
			left -= chunk;
		}
	}
	return true;
}

static void copy_out(np_region *r, uint64_t off, uint64_t done, uint64_t chunk, void *ctx)
{
	np_region_copy_out(r, off, (uint8_t *)ctx + done, (size_t)chunk);
}

static void copy_in(np_region *r, uint64_t off, uint64_t done, uint64_t chunk, void *ctx)
{
	np_region_copy_in(r, off, (const uint8_t *)ctx + done, (size_t)chunk);
}

static void revoke_vanishing(np_region *r, uint64_t off, uint64_t done, uint64_t chunk, void *ctx)
{
	(void)off, (void)done, (void)chunk, (void)ctx;
	if (r->flags & NP_REGION_VANISHES)
		r->revoked = true;
}

bool np_mem_read(np_machine *m, uint64_t addr, void *out, size_t len)
{
	return walk(m, addr, len, NP_PROT_READ, copy_out, out);
}

bool np_mem_write(np_machine *m, uint64_t addr, const void *data, size_t len)
{
	return walk(m, addr, len, NP_PROT_WRITE, copy_in, (void *)data);
}

bool np_mem_poke(np_machine *m, uint64_t addr, const void *data, size_t len)
{
	return walk(m, addr, len, 0, copy_in, (void *)data);
}

/* AS-1: [addr, addr+len) must not wrap and must end at or below
 * MmUserProbeAddress. */
static bool in_user_range(const np_machine *m, uint64_t addr, uint64_t len)
{
	return addr + len >= addr && addr + len <= np_user_probe_address(m);
}

/* AS-2, AS-3: a user-mode probe: alignment first, then the range below
 * MmUserProbeAddress, then access to every byte (over adjacent regions too).
 * A kernel-mode request is trusted and passes unprobed, but a vanishing page
 * is gone from this point all the same (§Address space). */
static uint32_t probe(np_machine *m, uint64_t addr, uint64_t len, unsigned align, unsigned need,
		      void (*each)(np_region *, uint64_t, uint64_t, uint64_t, void *))
{
	if (m->previous_mode == NP_MODE_KERNEL) {
		walk(m, addr, len, 0, each, NULL);
		return NP_STATUS_SUCCESS;
	}
	if (align > 1 && addr % align != 0)
		return NP_STATUS_DATATYPE_MISALIGNMENT;
	NP_APPLY(m, AS_1);
	if (!in_user_range(m, addr, len))
		return NP_STATUS_ACCESS_VIOLATION;
	return walk(m, addr, len, need, each, NULL) ? NP_STATUS_SUCCESS : NP_STATUS_ACCESS_VIOLATION;
}

/* AS-2: a write probe; a vanishing region passes, and is gone from then on. */
uint32_t np_probe_for_write(np_machine *m, uint64_t addr, uint64_t len, unsigned align)
{
	NP_APPLY(m, AS_2);
	return probe(m, addr, len, align, NP_PROT_WRITE, revoke_vanishing);
}

/* AS-3: the read probe of an input array, with the kernel's copy of it. */
uint32_t np_probe_input_array(np_machine *m, uint64_t addr, uint64_t len, unsigned align)
{
	NP_APPLY(m, AS_3);
	return probe(m, addr, len, align, NP_PROT_READ, NULL);
}

/* SY-1, SY-2: the probe NtSetSystemInformation makes of its buffer, which
 * it only reads: alignment first, then the range. It touches nothing, so an
 * unmapped or read-only buffer passes; a later access may still fault (SY-5). */
uint32_t np_probe_for_read(np_machine *m, uint64_t addr, uint64_t len, unsigned align)
{
	if (m->previous_mode == NP_MODE_USER) {
		if (addr % align != 0)
			return NP_STATUS_DATATYPE_MISALIGNMENT;
		if (!in_user_range(m, addr, len))
			return NP_STATUS_ACCESS_VIOLATION;
	}
	/* a vanishing page is gone from here on, also for a kernel-mode request */
	walk(m, addr, len, 0, revoke_vanishing, NULL);
	return NP_STATUS_SUCCESS;
}
