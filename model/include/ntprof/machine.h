/* SPDX-License-Identifier: MIT */
/* ntprof: the simulated machine on which calls are evaluated.
 *
 * A machine is plain data: configure it, evaluate calls on it (ntprof/calls.h),
 * inspect it. There is no global state; two machines never interact. The only
 * heap use is the backing store of mapped memory, released by np_machine_fini. */
#ifndef NTPROF_MACHINE_H
#define NTPROF_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ntprof/rule.h"
#include "ntprof/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NP_MAX_CPUS        64u   /* one processor group for now */
#define NP_HAL_SOURCES     256u  /* sources 0x00..0xFF have a HAL table entry (KS-2) */
#define NP_MAX_REGIONS     40u   /* a harness vector maps up to 32, the Trace* functions 1 (SY-25) */
#define NP_MAX_EVENTS      32u
#define NP_PAGE_SIZE       0x1000u
#define NP_MAX_GROUPS      20u   /* processor groups of a 64-bit kernel from 6.2 (MC-4) */
#define NP_MAX_GROUPS_6_1  4u    /* and of a 64-bit 6.1 kernel (MC-4) */
#define NP_MAX_HANDLES     64u
#define NP_MAX_PROFILES    NP_MAX_HANDLES  /* every handle may hold its own profile */

typedef enum np_mode { NP_MODE_USER, NP_MODE_KERNEL } np_mode;
typedef enum np_integrity { NP_INTEGRITY_LOW, NP_INTEGRITY_MEDIUM, NP_INTEGRITY_HIGH } np_integrity;

/* SI-6: whether profile events are traced to an NT Kernel Logger session.
 * LATE: tracing becomes enabled while the call runs, after the old interval
 * would have been read and before the event is written. */
typedef enum np_tracing { NP_TRACING_OFF, NP_TRACING_ON, NP_TRACING_LATE } np_tracing;

/* HL-1: the HAL's profile interface, chosen from the boot processor (KS-3). */
typedef enum np_hal_kind { NP_HAL_DEFAULT, NP_HAL_EMON, NP_HAL_AMD64 } np_hal_kind;

/* ---- Knobs: every unknown of SPEC.md that these calls touch (SPEC.md §K). ----
 * Declared once, in ntprof/knobs.h: from it come an enumeration per knob
 * (np_knob_hal_clamp: NP_HAL_CLAMP, NP_HAL_IGNORE, NP_HAL_STORE, ...) and
 * the fields of np_knobs. */

#define NP_KNOB_VALUE(enumerator, spelling) enumerator,
#define NP_KNOB(name, field, rule, def, values) typedef enum np_knob_##field { values } np_knob_##field;
#define NP_VERSION_KNOB(name, field, rule, def, spelling)
#define NP_RANGE_KNOB(name, field, rule, low, high, spelling)
#include "ntprof/knobs.h"

typedef struct np_knobs {
#define NP_KNOB_VALUE(enumerator, spelling)
#define NP_KNOB(name, field, rule, def, values) np_knob_##field field;
#define NP_VERSION_KNOB(name, field, rule, def, spelling) np_ver field;   /* NP_VERSION_COUNT: never */
#define NP_RANGE_KNOB(name, field, rule, low, high, spelling) np_ver field##_lo, field##_hi; /* lo > hi: never */
#include "ntprof/knobs.h"
} np_knobs;

/* ---- Per-processor state (SY-15, SY-16) ---- */

/* SY-11: the vendor as the kernel records it for each processor. */
typedef enum np_vendor { NP_VENDOR_INTEL, NP_VENDOR_AMD, NP_VENDOR_OTHER } np_vendor;

/* SY-11: the bits of the PEBS test. */
#define NP_MISC_ENABLE_PERFMON_AVAILABLE  (1ull << 7)   /* IA32_MISC_ENABLE bit 7 */
#define NP_MISC_ENABLE_PEBS_UNAVAILABLE   (1ull << 12)  /* IA32_MISC_ENABLE bit 12 */
#define NP_CPUID1_ECX_DTES64              (1u << 2)     /* CPUID leaf 1, ECX bit 2 */

typedef struct np_cpu {
	np_vendor vendor;
	uint64_t misc_enable;      /* MSR IA32_MISC_ENABLE (0x1A0) */
	uint32_t cpuid1_ecx;       /* ECX of CPUID leaf 1 */
	uint64_t control_area;     /* SY-13: its PROCESSOR_PROFILE_CONTROL_AREA, 0 = none */
} np_cpu;

/* ---- The simulated HAL (HL-1..HL-5) ---- */
typedef struct np_hal_source {
	bool supported;
	uint32_t def, min, max;           /* interval limits (HL-2; KS-4 units) */
	/* SI-4: the current interval of every processor but those in `apart`,
	 * whose own interval is in np_machine.hal_interval_apart (see there) */
	uint32_t interval;
	uint64_t apart;                   /* bit c: processor c has its own interval */
	const char *description;          /* TR-7: the HAL's name for the source */
} np_hal_source;

typedef struct np_hal {
	np_hal_kind kind;
	np_hal_source source[NP_HAL_SOURCES];
} np_hal;

/* ---- Address space (for probes and out-parameters) ---- */
#define NP_PROT_READ   1u
#define NP_PROT_WRITE  2u
/* The region passes probes, then every later access faults: a page that
 * another thread decommits between the probe and the final write (QI-3). */
#define NP_REGION_VANISHES 4u

/* Pages of a large region hang off leaves of this many pointers (2 MiB of
 * address space each), so that mapping and freeing a 4 GiB region costs a
 * 16 KiB table, not 8 MiB of pointers (model/memory.c). */
#define NP_REGION_LEAF_PAGES 512u

typedef struct np_region {
	uint64_t base, size;
	unsigned prot;
	unsigned flags;
	bool revoked;        /* a VANISHES region after its probe, or freed (FreeBuffer) */
	uint8_t *bytes;      /* a region of up to 1 MiB as one block, once
			      * np_region_block made it; else NULL */
	uint8_t ***page;     /* until then, and for larger regions: leaves of
			      * NP_REGION_LEAF_PAGES page pointers, each leaf and
			      * page allocated when first written */
	uint8_t fill;        /* what an unwritten page of a large region holds */
} np_region;

typedef struct np_memory {
	np_region region[NP_MAX_REGIONS];
	unsigned count;
} np_memory;

/* ---- ETW events the model emits (SI-6) ---- */
#define NP_HOOK_SAMPLED_PROFILE_SET_INTERVAL 0x0F48u
typedef struct np_event {
	uint32_t hook;
	uint32_t source, old_interval, new_interval;
} np_event;

/* ---- Objects and handles (MC-3) ---- */
typedef enum np_object_type {
	NP_OBJ_NONE, NP_OBJ_PROFILE, NP_OBJ_PROCESS, NP_OBJ_THREAD
} np_object_type;

#define NP_PROCESS_CURRENT   1u   /* the caller's process */
#define NP_PROCESS_OTHER     2u   /* one other process */
#define NP_HANDLE_CURRENT_PROCESS UINT64_MAX        /* NtCurrentProcess(): -1 */
#define NP_HANDLE_CURRENT_THREAD  (UINT64_MAX - 1)  /* NtCurrentThread(): -2 */
#define NP_PROFILE_CONTROL           0x00000001u
#define NP_PROFILE_ALL_ACCESS        0x000F0001u
#define NP_PROCESS_QUERY_INFORMATION 0x00000400u
#define NP_SYNCHRONIZE               0x00100000u

/* Handle value 4 * (index + 1) names entry index; NONE marks a free entry. */
typedef struct np_handle_entry {
	np_object_type type;
	unsigned object;      /* profile index, or NP_PROCESS_* */
	uint32_t access;
} np_handle_entry;

/* The executive profile object (EPROFILE) and, while started, what its
 * kernel profile object (KPROFILE) holds. */
typedef struct np_profile {
	bool exists;
	unsigned handles;             /* open handles; the object dies with the last */
	unsigned process;             /* 0: global; else NP_PROCESS_* */
	uint64_t base, size;          /* ProfileBase (0 in segment mode), ProfileSize */
	uint64_t buffer;              /* the caller's address of the counters */
	uint32_t buffer_size;
	uint32_t bucket_size;         /* log2 of the bucket, possibly computed (CP-6) */
	uint32_t segment;             /* x86 segment mode (CP-6), else 0 */
	uint32_t source;
	uint64_t stored_affinity;     /* before 6.1: as given (CP-18) */
	uint64_t group_mask[NP_MAX_GROUPS]; /* from 6.1: validated (CP-15) */
	bool started;
	uint64_t run_mask[NP_MAX_GROUPS];   /* while started: where it counts (ST-6) */
	uint8_t *mapped;              /* while started: the kernel's mapping of the locked
				       * counters (ST-5), or NULL to reach them through np_mem_find */
} np_profile;

typedef struct np_machine {
	np_ver version;
	np_arch arch;
	unsigned cpus;             /* active processors per group, 1..NP_MAX_CPUS */
	unsigned current_cpu;      /* the processor the calling thread runs on */
	unsigned groups;           /* active processor groups (MC-4) */
	unsigned current_group;    /* the group of the calling thread */
	np_mode previous_mode;     /* user: the request came from user mode */
	np_integrity integrity;
	bool sandboxed;             /* CP-22: the token fails an access check for READ_CONTROL
				    * to an object of medium integrity (a sandboxed token) */
	bool profile_privilege;    /* SeSystemProfilePrivilege held and enabled */
	np_tracing tracing;
	uint32_t errata_interval;  /* SI-5: 0 = no cache-errata need (K-ERRATA default) */
	unsigned alloc_failures;   /* the next N allocations fail (injected) */
	np_hal hal;
	uint32_t alignment_fixup_interval; /* SI-3: kernel variable, 0 at boot */
	uint32_t etw_time_interval;        /* TR-4 with K-ETW-TIME=separate */
	bool etw_time_interval_set;
	np_event event[NP_MAX_EVENTS];
	unsigned event_count, events_lost;
	np_cpu cpu[NP_MAX_CPUS];           /* SY-16: every processor, active or not */
	unsigned pool_allocations;         /* SY-17: non-paged allocations made so far */
	uint64_t library_buffer;           /* SY-25: the Trace* functions' own buffer, 0 = not yet mapped */
	np_memory mem;
	np_handle_entry handle[NP_MAX_HANDLES];
	uint64_t profiles;           /* bit i: profile[i] exists (its entry holds it) */
	uint64_t started_profiles;   /* IN-1: the kernel's lists of started profiles, bit i for profile[i] */
	unsigned started_elsewhere;  /* ST-3: profiles other callers keep started */
	unsigned lock_failures;      /* injected: the next N buffer locks fail (ST-5) */
	unsigned map_failures;       /* injected: the next N mappings fail (ST-5) */
	bool halted;                 /* a bug check stopped the machine (IN-7) */
	uint32_t halt_code;
	np_knobs knobs;
	np_trail trail;              /* the rules the current call applied (ntprof/rule.h) */
	/* Last, and left as they were by np_machine_init, which clears all
	 * before them: clearing these 90 KiB for every fresh machine was most
	 * of a model run. Each is read only where a mask says it was written. */
	np_profile profile[NP_MAX_PROFILES];   /* where `profiles` has bit i */
	/* entry [s][c]: source s's interval on processor c where
	 * hal.source[s].apart has bit c (any processor's may differ, SI-4) */
	uint32_t hal_interval_apart[NP_HAL_SOURCES][NP_MAX_CPUS];
} np_machine;

/* Why a configuration cannot exist (NULL when it can). */
typedef const char *np_config_error;

/* Fills a machine with the defaults of SPEC.md MC-1 for that version and
 * architecture. Returns an error text when the pair does not exist (VR-3). */
np_config_error np_machine_init(np_machine *m, np_ver v, np_arch a);
/* Frees what the mapped regions hold and unmaps them all; nothing else
 * changes, and the machine may map regions again. */
void np_machine_fini(np_machine *m);

/* Re-fills the HAL table for a HAL kind (HL-1, HL-2). Fails when the kind
 * cannot exist on the machine's version and architecture (KS-3). */
np_config_error np_machine_set_hal(np_machine *m, np_hal_kind kind);
/* SI-4: the interval in the HAL's table for a source on one processor
 * (source < NP_HAL_SOURCES, cpu < NP_MAX_CPUS), supported or not; and
 * writing that entry alone, as HL-3 does once it has judged the interval. */
uint32_t np_hal_interval_on(const np_machine *m, uint32_t source, unsigned cpu);
void np_hal_put_interval(np_machine *m, uint32_t source, unsigned cpu, uint32_t interval);
np_config_error np_machine_set_cpus(np_machine *m, unsigned cpus);
/* MC-4: active processor groups; more than one only on x64 from 6.1. */
np_config_error np_machine_set_groups(np_machine *m, unsigned groups);

/* SY-15: moves the calling thread to another active processor between calls. */
np_config_error np_machine_move_thread(np_machine *m, unsigned cpu);

/* SY-16: sets one processor's PEBS state: on = an Intel processor whose
 * IA32_MISC_ENABLE says PEBS is available and whose CPUID has DTES64;
 * off = the same with IA32_MISC_ENABLE bit 12 (PEBS unavailable) set. */
void np_cpu_set_pebs(np_cpu *c, bool on);

/* Highest user-mode address + 1 as the probes test it (AS-1). */
uint64_t np_user_probe_address(const np_machine *m);

/* Maps [base, base+size) with prot; the bytes are filled with fill. */
np_config_error np_mem_map(np_machine *m, uint64_t base, uint64_t size, unsigned prot,
			   unsigned flags, uint8_t fill);
np_region *np_mem_find(np_machine *m, uint64_t addr, uint64_t size);
/* A region of up to 1 MiB as one block of its bytes, made (holding its fill)
 * on first use; NULL for a larger region, which is kept in pages. */
uint8_t *np_region_block(np_region *r);
/* Copies out of / into mapped memory; false when any byte is not accessible. */
bool np_mem_read(np_machine *m, uint64_t addr, void *out, size_t len);
bool np_mem_write(np_machine *m, uint64_t addr, const void *data, size_t len);
/* Writes whatever the protection (what the caller stored before protecting
 * the page); false when the range is not mapped. */
bool np_mem_poke(np_machine *m, uint64_t addr, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
