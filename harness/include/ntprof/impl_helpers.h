/* SPDX-License-Identifier: MIT */
/* ntprof: helpers for an implementation of ntprof/impl.h, so that it writes
 * only the calls it is about (libntprof_impl_helpers.a, pkg-config
 * ntprof_impl_helpers; examples/impl_minimal.c shows them in use).
 *
 * The harness asks every implementation for a caller's address space and
 * process handles (map, read, write, poke, release, open_process,
 * close_handle, duplicate_object). These helpers are that simulation, with
 * what an implementation of the calls needs on its side: the probes a
 * kernel makes of a user-mode pointer, copies to and from the caller that
 * fail as a user-mode access does, a handle table on which it hangs its own
 * objects (profiles) under a type tag.
 *
 * Like impl.h this is self-contained C99 and needs nothing of the model or
 * the harness. Nothing is global: each open system embeds one ntprof_sim
 * (or an ntprof_memory and an ntprof_handles of its own). The ntprof_sim_*
 * functions with impl.h's signatures take the `sys` pointer the harness
 * passes back; they require that the implementation's system struct begins
 * with its ntprof_sim:
 *
 *     typedef struct my_sys { ntprof_sim sim; ... } my_sys;
 *
 * Ownership: an init function fills a struct the caller provides, and the
 * matching fini frees everything the helpers allocated into it (regions,
 * pages, the handle array); nothing else is ever freed by the helpers
 * except through an object type's release callback. Functions that return
 * int return nonzero on success; those that return uint32_t return an
 * NTSTATUS (NTPROF_STATUS_SUCCESS, or the status the call would fail with).
 * No function keeps a pointer it was given, except the object a handle is
 * opened to and the release context of ntprof_handles_define_type. The
 * statuses are the SPEC.md rules' (AS-1, AS-2, AS-3 for memory, MC-3 and
 * MC-5 for handles).
 *
 * A static library rather than a header of inline functions: one copy,
 * tested once, whose symbols stay hidden in the dl: object that links it,
 * and a header that reads as the reference. */
#ifndef NTPROF_IMPL_HELPERS_H
#define NTPROF_IMPL_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NTSTATUS codes the helpers return, and the one a privilege check needs. */
#define NTPROF_STATUS_SUCCESS                0x00000000u
#define NTPROF_STATUS_DATATYPE_MISALIGNMENT  0x80000002u
#define NTPROF_STATUS_ACCESS_VIOLATION       0xC0000005u
#define NTPROF_STATUS_INVALID_HANDLE         0xC0000008u
#define NTPROF_STATUS_ACCESS_DENIED          0xC0000022u
#define NTPROF_STATUS_OBJECT_TYPE_MISMATCH   0xC0000024u
#define NTPROF_STATUS_PRIVILEGE_NOT_HELD     0xC0000061u
#define NTPROF_STATUS_INSUFFICIENT_RESOURCES 0xC000009Au

/* ---- The caller's address space ------------------------------------------
 * Regions are placed one after another from 1 MiB up, each rounded up to
 * 64 KiB (the allocation granularity) and followed by 64 KiB where nothing
 * is mapped, so that an overrun meets unmapped memory as on Windows. A
 * region's bytes live in 4 KiB pages, in a two-level table (a leaf of 512
 * page pointers per 2 MiB, made when first needed). A page is made only
 * when a write puts something else than the fill byte in it: a page never
 * made reads as the fill, and writing the fill back (a probe's "touch" of
 * each page) makes nothing. A 4 GiB region costs 16 KiB of table, and the
 * pages written; a probe, read or protect makes no page at all.
 *
 * The pages made count against page_budget (NTPROF_MEMORY_BUDGET from
 * init; set it after init to change it): a write that would pass it fails
 * as a whole and leaves the sentence of ntprof_memory_error(), so that an
 * implementation reports "not applicable: <that>" (ntprof_sim_result)
 * rather than a wrong status. */

#define NTPROF_MEMORY_BUDGET (UINT64_C(256) << 20)   /* bytes of pages made, per address space */

typedef struct ntprof_region {
	uint64_t base;
	uint64_t size;           /* bytes, a multiple of 64 KiB */
	unsigned prot;           /* NTPROF_PROT_READ | NTPROF_PROT_WRITE, as mapped */
	int vanishing;           /* mapped with NTPROF_MAP_VANISHING */
	int gone;                /* released, or vanished after a probe: user accesses fault */
	uint8_t fill;            /* what a page never made holds */
	uint8_t ***leaf;         /* one per 512 pages (the last may cover fewer): NULL, or 512 page
	                            pointers, each NULL until made */
} ntprof_region;

/* A protection change (ntprof_memory_protect): the latest over a page decides. */
typedef struct ntprof_guard {
	uint64_t base, size;
	unsigned prot;
} ntprof_guard;

typedef struct ntprof_memory {
	uint64_t probe_limit;    /* AS-1: MmUserProbeAddress, the first address a probe refuses */
	uint64_t top;            /* regions end at or below this (the caller's pointers reach it) */
	uint64_t next;           /* where the next region goes */
	ntprof_region *region;   /* count of them, in address order */
	size_t count, capacity;
	ntprof_guard *guard;     /* guards of them, oldest first */
	size_t guards, guard_capacity;
	uint64_t page_bytes;     /* bytes of pages made so far */
	uint64_t page_budget;    /* a write that would make page_bytes pass it fails */
	uint64_t pending;        /* (the pages the write under way needs) */
	const char *error;       /* NULL, or why a write failed for want of memory (kept) */
} ntprof_memory;


/* arch is impl.h's: "x86" (probe limit and top 0x7FFF0000), "x64" (both
 * 0x7FFFFFFF0000) or "wow64" (a 64-bit kernel's limit, 0x7FFFFFFF0000, and
 * a 32-bit caller's top, 0x7FFF0000). 0 for any other arch, *mem then
 * cleared; nothing is allocated until the first map. */
int ntprof_memory_init(ntprof_memory *mem, const char *arch);
/* Frees every region and page; *mem is cleared (init it again to reuse). */
void ntprof_memory_fini(ntprof_memory *mem);

/* impl.h's map(): the base of a new region of at least size bytes (0 is
 * taken as 1, at most 4 GiB + 64 KiB), every byte fill, with prot; NTPROF_MAP_VANISHING makes it
 * vanish once a probe passed over it; NTPROF_MAP_FREED returns the address
 * of a region that was mapped and freed (nothing is mapped there). 0 when
 * the caller's address space has no room left or memory runs out. */
uint64_t ntprof_memory_map(ntprof_memory *mem, uint64_t size, unsigned prot, unsigned flags,
			   uint8_t fill);
/* impl.h's read() and write(): n bytes at addr as the caller accesses them.
 * Every byte must lie in regions not gone, readable (read) or writable
 * (write); else 0 and nothing is copied. n == 0 succeeds. */
int ntprof_memory_read(ntprof_memory *mem, uint64_t addr, void *out, size_t n);
int ntprof_memory_write(ntprof_memory *mem, uint64_t addr, const void *in, size_t n);
/* impl.h's poke(): as write, even into a read-only region (the caller's
 * input as it was before the call); a gone region still takes nothing. */
int ntprof_memory_poke(ntprof_memory *mem, uint64_t addr, const void *in, size_t n);
/* impl.h's release(): the region holding addr is gone for the caller; its
 * bytes stay for the _locked accessors (pages a profile locked). 0 when no
 * region holds addr. */
int ntprof_memory_release(ntprof_memory *mem, uint64_t addr);
/* impl.h's protect() (AS-4): whole pages [addr, addr + size) of one region
 * not gone become prot (NTPROF_PROT_READ: read-only; 0: inaccessible; the
 * write bit too is taken) for the caller's accesses and probes; pokes and
 * the _locked accessors still reach them. 0, changing nothing, for a range
 * of no whole pages, not in one region, or out of memory. */
int ntprof_memory_protect(ntprof_memory *mem, uint64_t addr, uint64_t size, unsigned prot);
/* Why the last write that failed for want of memory failed (the budget, or
 * malloc), a static sentence; NULL when none has. */
const char *ntprof_memory_error(const ntprof_memory *mem);

/* The kernel's side. A user-mode probe of len bytes at addr (AS-2, AS-3):
 * addr must be a multiple of align (align 0 or 1: no test), else
 * DATATYPE_MISALIGNMENT; then addr + len must neither wrap nor pass
 * probe_limit, else ACCESS_VIOLATION. probe_write also needs every byte
 * mapped writable and not gone (ACCESS_VIOLATION); probe_read, like
 * ProbeForRead, touches nothing, so an unmapped buffer below the limit
 * passes and the copy faults later. Either probe makes a vanishing region it
 * passed over gone. A kernel-mode request is not probed: do not call them. */
uint32_t ntprof_memory_probe_write(ntprof_memory *mem, uint64_t addr, uint64_t len, unsigned align);
uint32_t ntprof_memory_probe_read(ntprof_memory *mem, uint64_t addr, uint64_t len, unsigned align);
/* The kernel's copies from and to the caller's memory, which fault as a
 * user-mode access does: SUCCESS, or ACCESS_VIOLATION (the exception a
 * __try around the access catches) with nothing copied. */
uint32_t ntprof_memory_copy_in(ntprof_memory *mem, void *out, uint64_t addr, size_t n);
uint32_t ntprof_memory_copy_out(ntprof_memory *mem, uint64_t addr, const void *in, size_t n);
/* Through pages the kernel locked and mapped for itself (a profile's
 * counters, ST-5): any region ever mapped, gone or not, whatever its
 * protection. 0 when a byte lies outside every region. */
int ntprof_memory_read_locked(ntprof_memory *mem, uint64_t addr, void *out, size_t n);
int ntprof_memory_write_locked(ntprof_memory *mem, uint64_t addr, const void *in, size_t n);

/* ---- The caller's handles -------------------------------------------------
 * MC-3: entries have the handle values 4, 8, 12, ...; the low two bits of a
 * value are ignored, 0 to 3 name nothing. A 32-bit caller's value is
 * sign-extended first, so its 0xFFFFFFFF and 0xFFFFFFFE are the pseudo-
 * handles: NtCurrentProcess (all access) and NtCurrentThread. Each entry
 * holds a type tag, the access granted and the object. */

#define NTPROF_CURRENT_PROCESS UINT64_C(0xFFFFFFFFFFFFFFFF)
#define NTPROF_CURRENT_THREAD  UINT64_C(0xFFFFFFFFFFFFFFFE)

#define NTPROF_OBJECT_PROCESS 1u   /* object: an ntprof_process of the table */
#define NTPROF_OBJECT_THREAD  2u   /* object: the table's ntprof_thread */
#define NTPROF_OBJECT_USER    8u   /* the first tag for the implementation's own objects */
#define NTPROF_OBJECT_TAGS    32u  /* tags are 1 to NTPROF_OBJECT_TAGS - 1 */
#define NTPROF_HANDLES_MAX    65536u /* entries a table grows to, at most */

typedef struct ntprof_process {
	int other;               /* 0: the caller's own process; 1: another one */
} ntprof_process;

typedef struct ntprof_thread {
	ntprof_process *process; /* the caller's thread, in this_process */
} ntprof_thread;

/* Called when the last handle to an object of a defined type is closed
 * (by ntprof_handles_close or ntprof_handles_fini): the implementation
 * frees or stops it there. It must not open or close handles of the table. */
typedef void ntprof_object_release_fn(void *ctx, uint32_t type, void *object);

typedef struct ntprof_object_type {
	uint32_t valid_access;   /* a duplicate's access is masked to this (0: kept as asked) */
	ntprof_object_release_fn *release;
	void *ctx;
} ntprof_object_type;

typedef struct ntprof_handle_entry {
	uint32_t type;           /* 0: a free entry */
	uint32_t access;
	void *object;
} ntprof_handle_entry;

typedef struct ntprof_handles {
	int narrow;              /* a 32-bit caller (x86, WOW64): handle values sign-extended */
	ntprof_process this_process, other_process;
	ntprof_thread this_thread;
	ntprof_handle_entry *entry;   /* capacity of them; entry i is handle 4 * (i + 1) */
	size_t capacity;
	size_t first_free;       /* every entry below this one is in use */
	ntprof_object_type type[NTPROF_OBJECT_TAGS];
} ntprof_handles;

/* arch as for ntprof_memory_init; 0 for another, *t then cleared. Keep *t
 * where it is once opened: objects point into it. */
int ntprof_handles_init(ntprof_handles *t, const char *arch);
/* Closes every handle (each object's release once), frees the table. */
void ntprof_handles_fini(ntprof_handles *t);
/* Declares an implementation tag (NTPROF_OBJECT_USER .. TAGS - 1): the
 * access mask of its duplicates and what releases its objects (release may
 * be NULL). 0 for a tag out of that range. */
int ntprof_handles_define_type(ntprof_handles *t, uint32_t type, uint32_t valid_access,
			       ntprof_object_release_fn *release, void *ctx);
/* The value as the kernel sees it: sign-extended from 32 bits for a 32-bit
 * caller, as it is for a 64-bit one. */
uint64_t ntprof_handles_widen(const ntprof_handles *t, uint64_t handle);

/* A new handle to object, of tag type (1 .. TAGS - 1) with access: the
 * lowest free value, or 0 when the table is full (NTPROF_HANDLES_MAX), out
 * of memory or type is no tag. The object stays the implementation's. */
uint64_t ntprof_handles_open(ntprof_handles *t, uint32_t type, void *object, uint32_t access);
/* impl.h's open_process(): a handle to this process or another one. */
uint64_t ntprof_handles_open_process(ntprof_handles *t, int other, uint32_t access);
/* The entry a table handle names, NULL for a free one, a pseudo-handle or
 * a value out of the table. Valid until the table next changes. */
const ntprof_handle_entry *ntprof_handles_lookup(const ntprof_handles *t, uint64_t handle);
/* What ObReferenceObjectByHandle does (MC-3): *object is the object a
 * handle of tag type names. The pseudo-handles name this process and the
 * caller's thread; otherwise INVALID_HANDLE (no such entry),
 * OBJECT_TYPE_MISMATCH (another tag), or, when check_access (a user-mode
 * request), ACCESS_DENIED unless the entry grants every bit of access.
 * *object is untouched on failure. */
uint32_t ntprof_handles_reference(const ntprof_handles *t, uint64_t handle, uint32_t type,
				  uint32_t access, int check_access, void **object);
/* MC-5: NtClose: SUCCESS, or INVALID_HANDLE for anything but a table
 * handle (the pseudo-handles too). The object's release runs when this was
 * its last handle. */
uint32_t ntprof_handles_close(ntprof_handles *t, uint64_t handle);
/* MC-5: NtDuplicateObject within the caller's process: *duplicate is a new
 * handle to the same object granted access (masked by its type's
 * valid_access). INVALID_HANDLE for anything but a table handle,
 * INSUFFICIENT_RESOURCES when the table is full; *duplicate is 0 then. */
uint32_t ntprof_handles_duplicate(ntprof_handles *t, uint64_t handle, uint32_t access,
				  uint64_t *duplicate);
/* How many open handles name object. */
size_t ntprof_handles_count(const ntprof_handles *t, const void *object);

/* ---- Both, behind impl.h's table ------------------------------------------ */

typedef struct ntprof_sim {
	ntprof_memory memory;
	ntprof_handles handles;
	unsigned pointer_size;   /* the caller's: 4 (x86, WOW64) or 8 (x64) */
} ntprof_sim;

/* Both parts for arch; 0 (and *sim cleared) for an arch impl.h lacks. */
int ntprof_sim_init(ntprof_sim *sim, const char *arch);
/* Handles first (their release callbacks may still read memory), then memory. */
void ntprof_sim_fini(ntprof_sim *sim);
/* Writes a pointer-sized value (a HANDLE, a pointer) to the caller at its
 * width, as ntprof_memory_copy_out does. */
uint32_t ntprof_sim_copy_out_pointer(ntprof_sim *sim, uint64_t addr, uint64_t value);

/* impl.h's members, for the table as they are: sys must begin with an
 * ntprof_sim (see the top of this file). */
uint64_t ntprof_sim_map(void *sys, uint64_t size, unsigned prot, unsigned flags, uint8_t fill);
int ntprof_sim_read(void *sys, uint64_t addr, void *out, size_t n);
int ntprof_sim_write(void *sys, uint64_t addr, const void *in, size_t n);
int ntprof_sim_poke(void *sys, uint64_t addr, const void *in, size_t n);
int ntprof_sim_release(void *sys, uint64_t addr);
/* As ntprof_memory_protect: NONE, or NOT_APPLICABLE saying why. */
ntprof_result ntprof_sim_protect(void *sys, uint64_t addr, uint64_t size, unsigned prot);
uint64_t ntprof_sim_open_process(void *sys, int other, uint32_t access);
/* NtClose (MC-5) as ntprof_handles_close. */
ntprof_result ntprof_sim_close_handle(void *sys, const char *function, uint64_t handle);
/* NtDuplicateObject (MC-5) as ntprof_handles_duplicate; a new handle is
 * written to target_handle as the caller would (a write that faults is
 * ignored: the status stays the duplicate's). */
ntprof_result ntprof_sim_duplicate_object(void *sys, const char *function, uint64_t handle,
					  uint32_t access, uint64_t target_handle);

/* ---- The rest of an implementation's table ------------------------------- */

/* Results: an NTSTATUS, and a request the implementation cannot make (why:
 * a static sentence). */
ntprof_result ntprof_result_status(uint32_t status);
ntprof_result ntprof_result_not_applicable(const char *why);
/* A call's result: the status, unless the caller's memory ran out on the
 * way (ntprof_memory_error): then NOT_APPLICABLE with that sentence, since
 * the status would say something of the simulation, not of the call. */
ntprof_result ntprof_sim_result(const ntprof_sim *sim, uint32_t status);
/* Fills every call member of *table that is NULL (set_interval_profile to
 * trace_query_information) with a stub that answers not-applicable, "not
 * implemented here": ABI 1 needs them all. Other members are untouched. */
void ntprof_impl_stub_missing(ntprof_impl *table);

#ifdef __cplusplus
}
#endif

#endif
