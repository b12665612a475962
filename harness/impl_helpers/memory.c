/* SPDX-License-Identifier: MIT */
/* The caller's simulated address space (ntprof/impl_helpers.h): regions of
 * sparse pages made when first written with something else than the fill,
 * a bound on what they cost, page protections, user-mode accesses, the
 * kernel's probes (AS-1, AS-2, AS-3) and copies. */
#include <stdlib.h>
#include <string.h>

#include "ntprof/impl_helpers.h"

#define PAGE        4096u
#define LEAF_PAGES  512u         /* the pages of one leaf of a region's table: 2 MiB */
#define GRANULARITY 0x10000ull   /* regions are rounded up to it, with this much unmapped after */
#define FIRST_BASE  0x100000ull  /* the first region's base: nothing is mapped below */
/* The largest buffer a call takes is ULONG-sized: a region of more would
 * only cost its page table. */
#define MAX_REGION  (0x100000000ull + GRANULARITY)

static const char BUDGET_SPENT[] =
	"the simulated caller's memory passed its bound (ntprof_memory.page_budget bytes of pages "
	"written with something else than their fill)";

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
	mem->page_budget = NTPROF_MEMORY_BUDGET;
	return 1;
}

static uint64_t leaves_of(const ntprof_region *r)
{
	return (r->size / PAGE + LEAF_PAGES - 1) / LEAF_PAGES;
}

static void region_free(ntprof_region *r)
{
	for (uint64_t l = 0; l < leaves_of(r); l++) {
		for (unsigned p = 0; r->leaf[l] && p < LEAF_PAGES; p++)
			free(r->leaf[l][p]);
		free(r->leaf[l]);
	}
	free(r->leaf);
}

void ntprof_memory_fini(ntprof_memory *mem)
{
	for (size_t i = 0; i < mem->count; i++)
		region_free(&mem->region[i]);
	free(mem->region);
	free(mem->guard);
	memset(mem, 0, sizeof *mem);
}

/* Room for one more element of an array of *cap (grown by doubling). */
static int room(void **array, size_t count, size_t *cap, size_t size)
{
	if (count < *cap)
		return 1;
	size_t n = *cap ? 2 * *cap : 16;
	void *grown = realloc(*array, n * size);
	if (!grown)
		return 0;
	*array = grown;
	*cap = n;
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
		r.leaf = calloc((size_t)leaves_of(&r), sizeof *r.leaf);
		if (!r.leaf || !room((void **)&mem->region, mem->count, &mem->capacity, sizeof r)) {
			free(r.leaf);
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

/* The page holding addr, NULL when never made (it holds the fill). */
static uint8_t *page_at(const ntprof_region *r, uint64_t addr)
{
	uint64_t p = (addr - r->base) / PAGE;
	uint8_t **leaf = r->leaf[p / LEAF_PAGES];
	return leaf ? leaf[p % LEAF_PAGES] : NULL;
}

/* The protection of the page holding addr in r, and through *end the
 * address up to which it stays so: the last protect() over it decides. */
static unsigned prot_at(const ntprof_memory *mem, const ntprof_region *r, uint64_t addr,
			uint64_t *end)
{
	unsigned prot = r->prot;
	size_t i = mem->guards;
	*end = r->base + r->size;
	while (i-- > 0) {
		const ntprof_guard *g = &mem->guard[i];
		if (addr >= g->base && addr - g->base < g->size) {
			prot = g->prot;
			*end = *end < g->base + g->size ? *end : g->base + g->size;
			break;
		}
		if (g->base > addr && g->base < *end)
			*end = g->base;      /* a later change begins before the run ends */
	}
	return prot;
}

/* What an access needs of each page it passes through. */
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
 * as if they could be. A kernel mapping sees the pages whatever their
 * protection, as a poke does. */
static int accessible(ntprof_memory *mem, uint64_t addr, uint64_t n, access a)
{
	if (addr + n < addr)
		return 0;
	while (n) {
		const ntprof_region *r = region_at(mem, addr);
		if (!r || (r->gone && !a.locked))
			return 0;
		uint64_t end;
		unsigned prot = a.prot ? prot_at(mem, r, addr, &end) : (end = r->base + r->size, 0);
		if ((prot & a.prot) != a.prot)
			return 0;
		uint64_t chunk = end - addr < n ? end - addr : n;
		addr += chunk;
		n -= chunk;
	}
	return 1;
}

/* Calls each(mem, r, addr, buf, chunk) for each piece of [addr, addr + n)
 * within one page, buf advancing with it; stops at the first that returns 0. */
typedef int page_fn(ntprof_memory *mem, ntprof_region *r, uint64_t addr, uint8_t *buf, size_t n);

static int each_page(ntprof_memory *mem, uint64_t addr, uint8_t *buf, size_t n, page_fn *each)
{
	while (n) {
		ntprof_region *r = region_at(mem, addr);
		size_t chunk = PAGE - (size_t)((addr - r->base) % PAGE);
		if (chunk > n)
			chunk = n;
		if (!each(mem, r, addr, buf, chunk))
			return 0;
		addr += chunk;
		buf += chunk;
		n -= chunk;
	}
	return 1;
}

/* A page that does not exist and would still hold only its fill need not be made. */
static int needs_page(const ntprof_region *r, uint64_t addr, const uint8_t *buf, size_t n)
{
	if (page_at(r, addr))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (buf[i] != r->fill)
			return 1;
	return 0;
}

static int count_page(ntprof_memory *mem, ntprof_region *r, uint64_t addr, uint8_t *buf, size_t n)
{
	mem->pending += needs_page(r, addr, buf, n) ? PAGE : 0;
	return 1;
}

static int make_page(ntprof_memory *mem, ntprof_region *r, uint64_t addr, uint8_t *buf, size_t n)
{
	if (!needs_page(r, addr, buf, n))
		return 1;
	uint64_t p = (addr - r->base) / PAGE;
	uint8_t ***leaf = &r->leaf[p / LEAF_PAGES];
	if (!*leaf && !(*leaf = calloc(LEAF_PAGES, sizeof **leaf)))
		return 0;
	uint8_t **page = &(*leaf)[p % LEAF_PAGES];
	if (!(*page = malloc(PAGE)))
		return 0;
	memset(*page, r->fill, PAGE);
	mem->page_bytes += PAGE;
	return 1;
}

static int store(ntprof_memory *mem, ntprof_region *r, uint64_t addr, uint8_t *buf, size_t n)
{
	uint8_t *page = page_at(r, addr);
	(void)mem;
	if (page)
		memcpy(page + (addr - r->base) % PAGE, buf, n);
	return 1;
}

static int load(ntprof_memory *mem, ntprof_region *r, uint64_t addr, uint8_t *buf, size_t n)
{
	const uint8_t *page = page_at(r, addr);
	(void)mem;
	if (page)
		memcpy(buf, page + (addr - r->base) % PAGE, n);
	else
		memset(buf, r->fill, n);
	return 1;
}

static int read_as(ntprof_memory *mem, access a, uint64_t addr, void *out, size_t n)
{
	if (!accessible(mem, addr, n, a))
		return 0;
	return each_page(mem, addr, out, n, load);
}

/* The pages a write needs are counted against the budget and made first,
 * so that it cannot fail half-way; a page made and not then written holds
 * its fill, as before. */
static int write_as(ntprof_memory *mem, access a, uint64_t addr, const void *in, size_t n)
{
	uint8_t *buf = (uint8_t *)(uintptr_t)in;   /* only read by count_page, make_page, store */
	if (!accessible(mem, addr, n, a))
		return 0;
	mem->pending = 0;
	each_page(mem, addr, buf, n, count_page);
	if (mem->pending > mem->page_budget - (mem->page_budget < mem->page_bytes ? mem->page_budget
										       : mem->page_bytes)) {
		mem->error = BUDGET_SPENT;
		return 0;
	}
	if (!each_page(mem, addr, buf, n, make_page)) {
		mem->error = "out of memory for the simulated caller's pages";
		return 0;
	}
	return each_page(mem, addr, buf, n, store);
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

int ntprof_memory_protect(ntprof_memory *mem, uint64_t addr, uint64_t size, unsigned prot)
{
	const ntprof_region *r = region_at(mem, addr);
	if (size == 0 || addr % PAGE || size % PAGE || !r || r->gone ||
	    size > r->base + r->size - addr || (prot & ~(unsigned)(NTPROF_PROT_READ | NTPROF_PROT_WRITE)))
		return 0;
	if (!room((void **)&mem->guard, mem->guards, &mem->guard_capacity, sizeof *mem->guard))
		return 0;
	mem->guard[mem->guards++] = (ntprof_guard){ addr, size, prot };
	return 1;
}

const char *ntprof_memory_error(const ntprof_memory *mem)
{
	return mem->error;
}

/* AS-2, AS-3: alignment first, then the range below the probe limit, then
 * (for a write) every byte writable, which is looked up, never touched: a
 * probe makes no page. The probe passes over vanishing regions, which are
 * gone after it. */
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
