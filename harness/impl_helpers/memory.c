/* SPDX-License-Identifier: MIT */
/* The caller's simulated address space (ntprof/impl_helpers.h): regions of
 * pages made when first written, user-mode accesses, the kernel's probes
 * (AS-1, AS-2, AS-3) and copies. */
#include <stdlib.h>
#include <string.h>

#include "ntprof/impl_helpers.h"

#define PAGE        4096u
#define GRANULARITY 0x10000ull   /* regions are rounded up to it, with this much unmapped after */
#define FIRST_BASE  0x100000ull  /* the first region's base: nothing is mapped below */
/* The largest buffer a call takes is ULONG-sized: a region of more would
 * only cost its page table. */
#define MAX_REGION  (0x100000000ull + GRANULARITY)

/* AS-1: the probe limit is the kernel's (x86: 2 GiB user space; a 64-bit
 * kernel's for x64 and WOW64), the top the caller's pointers reach. */
int ntprof_memory_init(ntprof_memory *mem, const char *arch)
{
	memset(mem, 0, sizeof *mem);
	if (strcmp(arch, "x86") == 0)
		mem->probe_limit = mem->top = 0x7FFF0000ull;
	else if (strcmp(arch, "x64") == 0)
		mem->probe_limit = mem->top = 0x7FFFFFFF0000ull;
	else if (strcmp(arch, "wow64") == 0)
		mem->probe_limit = 0x7FFFFFFF0000ull, mem->top = 0x7FFF0000ull;
	else
		return 0;
	mem->next = FIRST_BASE;
	return 1;
}

static void region_free(ntprof_region *r)
{
	for (uint64_t i = 0; i < r->size / PAGE; i++)
		free(r->page[i]);
	free(r->page);
}

void ntprof_memory_fini(ntprof_memory *mem)
{
	for (size_t i = 0; i < mem->count; i++)
		region_free(&mem->region[i]);
	free(mem->region);
	memset(mem, 0, sizeof *mem);
}

static int grow(ntprof_memory *mem)
{
	if (mem->count < mem->capacity)
		return 1;
	size_t cap = mem->capacity ? 2 * mem->capacity : 16;
	ntprof_region *r = realloc(mem->region, cap * sizeof *r);
	if (!r)
		return 0;
	mem->region = r;
	mem->capacity = cap;
	return 1;
}

uint64_t ntprof_memory_map(ntprof_memory *mem, uint64_t size, unsigned prot, unsigned flags,
			   uint8_t fill)
{
	uint64_t base = mem->next;
	if (size == 0)
		size = 1;
	if (size > MAX_REGION || base >= mem->top || size > mem->top - base)
		return 0;
	/* base and top are multiples of the granularity: the rounded size still fits */
	size = (size + GRANULARITY - 1) & ~(GRANULARITY - 1);
	if (!(flags & NTPROF_MAP_FREED)) {
		ntprof_region r = { base, size, prot, (flags & NTPROF_MAP_VANISHING) != 0, 0, fill, NULL };
		r.page = calloc((size_t)(size / PAGE), sizeof *r.page);
		if (!r.page || !grow(mem)) {
			free(r.page);
			return 0;
		}
		mem->region[mem->count++] = r;
	}
	/* a freed region's addresses are taken all the same: nothing is ever mapped there */
	mem->next = base + size + GRANULARITY;
	return base;
}

static ntprof_region *region_at(ntprof_memory *mem, uint64_t addr)
{
	for (size_t i = 0; i < mem->count; i++) {
		ntprof_region *r = &mem->region[i];
		if (addr >= r->base && addr - r->base < r->size)
			return r;
	}
	return NULL;
}

/* What an access needs of each region it passes through. */
typedef struct access {
	unsigned prot;            /* these protection bits */
	int locked;               /* through a kernel mapping: gone regions too */
} access;

static const access USER_READ = { NTPROF_PROT_READ, 0 };
static const access USER_WRITE = { NTPROF_PROT_WRITE, 0 };
static const access POKE = { 0, 0 };
static const access LOCKED = { 0, 1 };

/* Whether [addr, addr + n) lies in regions that grant a. Regions are never
 * adjacent here (the gap after each), but a range is followed across them
 * as if they could be. */
static int accessible(ntprof_memory *mem, uint64_t addr, uint64_t n, access a)
{
	if (addr + n < addr)
		return 0;
	while (n) {
		const ntprof_region *r = region_at(mem, addr);
		if (!r || (r->gone && !a.locked) || (r->prot & a.prot) != a.prot)
			return 0;
		uint64_t chunk = r->base + r->size - addr < n ? r->base + r->size - addr : n;
		addr += chunk;
		n -= chunk;
	}
	return 1;
}

/* Makes the pages of [addr, addr + n) that were never written, holding the
 * fill byte, so that a write cannot then fail half-way. */
static int make_pages(ntprof_memory *mem, uint64_t addr, size_t n)
{
	uint64_t end = addr + n;
	for (addr -= addr % PAGE; addr < end; addr += PAGE) {
		ntprof_region *r = region_at(mem, addr);
		uint8_t **page = &r->page[(addr - r->base) / PAGE];
		if (*page)
			continue;
		if (!(*page = malloc(PAGE)))
			return 0;
		memset(*page, r->fill, PAGE);
	}
	return 1;
}

/* Copies between buf and [addr, addr + n), which accessible() allowed and
 * whose pages exist for a write; a page never written reads as the fill. */
static void copy(ntprof_memory *mem, uint64_t addr, uint8_t *buf, size_t n, int to_region)
{
	while (n) {
		ntprof_region *r = region_at(mem, addr);
		uint64_t off = addr - r->base;
		uint8_t *page = r->page[off / PAGE];
		size_t chunk = PAGE - (size_t)(off % PAGE);
		if (chunk > n)
			chunk = n;
		if (to_region)
			memcpy(page + off % PAGE, buf, chunk);
		else if (page)
			memcpy(buf, page + off % PAGE, chunk);
		else
			memset(buf, r->fill, chunk);
		addr += chunk;
		buf += chunk;
		n -= chunk;
	}
}

static int read_as(ntprof_memory *mem, access a, uint64_t addr, void *out, size_t n)
{
	if (!accessible(mem, addr, n, a))
		return 0;
	copy(mem, addr, out, n, 0);
	return 1;
}

static int write_as(ntprof_memory *mem, access a, uint64_t addr, const void *in, size_t n)
{
	if (!accessible(mem, addr, n, a) || !make_pages(mem, addr, n))
		return 0;
	copy(mem, addr, (uint8_t *)(uintptr_t)in, n, 1);
	return 1;
}

int ntprof_memory_read(ntprof_memory *mem, uint64_t addr, void *out, size_t n)
{
	return read_as(mem, USER_READ, addr, out, n);
}

int ntprof_memory_write(ntprof_memory *mem, uint64_t addr, const void *in, size_t n)
{
	return write_as(mem, USER_WRITE, addr, in, n);
}

int ntprof_memory_poke(ntprof_memory *mem, uint64_t addr, const void *in, size_t n)
{
	return write_as(mem, POKE, addr, in, n);
}

int ntprof_memory_read_locked(ntprof_memory *mem, uint64_t addr, void *out, size_t n)
{
	return read_as(mem, LOCKED, addr, out, n);
}

int ntprof_memory_write_locked(ntprof_memory *mem, uint64_t addr, const void *in, size_t n)
{
	return write_as(mem, LOCKED, addr, in, n);
}

int ntprof_memory_release(ntprof_memory *mem, uint64_t addr)
{
	ntprof_region *r = region_at(mem, addr);
	if (r)
		r->gone = 1;
	return r != NULL;
}

/* AS-2, AS-3: alignment first, then the range below the probe limit, then
 * (for a write) every byte writable. The probe passes over vanishing
 * regions, which are gone after it. */
static uint32_t probe(ntprof_memory *mem, uint64_t addr, uint64_t len, unsigned align, int write)
{
	if (align > 1 && addr % align != 0)
		return NTPROF_STATUS_DATATYPE_MISALIGNMENT;
	if (addr + len < addr || addr + len > mem->probe_limit)
		return NTPROF_STATUS_ACCESS_VIOLATION;
	if (write && !accessible(mem, addr, len, USER_WRITE))
		return NTPROF_STATUS_ACCESS_VIOLATION;
	for (size_t i = 0; i < mem->count; i++) {
		ntprof_region *r = &mem->region[i];
		if (r->vanishing && addr < r->base + r->size && r->base < addr + len)
			r->gone = 1;
	}
	return NTPROF_STATUS_SUCCESS;
}

uint32_t ntprof_memory_probe_write(ntprof_memory *mem, uint64_t addr, uint64_t len, unsigned align)
{
	return probe(mem, addr, len, align, 1);
}

uint32_t ntprof_memory_probe_read(ntprof_memory *mem, uint64_t addr, uint64_t len, unsigned align)
{
	return probe(mem, addr, len, align, 0);
}

uint32_t ntprof_memory_copy_in(ntprof_memory *mem, void *out, uint64_t addr, size_t n)
{
	return ntprof_memory_read(mem, addr, out, n) ? NTPROF_STATUS_SUCCESS
						      : NTPROF_STATUS_ACCESS_VIOLATION;
}

uint32_t ntprof_memory_copy_out(ntprof_memory *mem, uint64_t addr, const void *in, size_t n)
{
	return ntprof_memory_write(mem, addr, in, n) ? NTPROF_STATUS_SUCCESS
						      : NTPROF_STATUS_ACCESS_VIOLATION;
}
