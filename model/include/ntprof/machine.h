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

#include "ntprof/version.h"

#define NP_MAX_CPUS        64u   /* one processor group for now */
#define NP_HAL_SOURCES     256u  /* sources 0x00..0xFF have a HAL table entry (KS-2) */
#define NP_MAX_REGIONS     40u   /* a harness vector maps up to 32, the Trace* functions 1 (SY-25) */
#define NP_MAX_EVENTS      32u
#define NP_PAGE_SIZE       0x1000u

typedef enum np_mode { NP_MODE_USER, NP_MODE_KERNEL } np_mode;
typedef enum np_integrity { NP_INTEGRITY_LOW, NP_INTEGRITY_MEDIUM, NP_INTEGRITY_HIGH } np_integrity;

/* SI-6: whether profile events are traced to an NT Kernel Logger session.
 * LATE: tracing becomes enabled while the call runs, after the old interval
 * would have been read and before the event is written. */
typedef enum np_tracing { NP_TRACING_OFF, NP_TRACING_ON, NP_TRACING_LATE } np_tracing;

/* HL-1: the HAL's profile interface, chosen from the boot processor (KS-3). */
typedef enum np_hal_kind { NP_HAL_DEFAULT, NP_HAL_EMON, NP_HAL_AMD64 } np_hal_kind;

/* ---- Knobs: every unknown of SPEC.md that these calls touch (SPEC.md §K). ---- */

/* K-HAL-CLAMP (HL-4): what the HAL does with an interval outside [min, max]. */
typedef enum np_knob_hal_clamp {
	NP_HAL_CLAMP,   /* default: clamp into [min, max] */
	NP_HAL_IGNORE,  /* silently keep the old interval */
	NP_HAL_STORE    /* store the value as given */
} np_knob_hal_clamp;

/* K-QI-ALIGN (QI-2): does the Interval probe demand 4-byte alignment. */
typedef enum np_knob_qi_align { NP_QI_ALIGN_CHECKED, NP_QI_ALIGN_NONE } np_knob_qi_align;

/* K-QI-WRITE-FAULT (QI-3): status when the final write of *Interval faults. */
typedef enum np_knob_qi_write_fault { NP_QI_FAULT_SUCCESS, NP_QI_FAULT_EXCEPTION } np_knob_qi_write_fault;

/* K-ETW-TIME (TR-4): is the ETW time-profile interval the HAL's ProfileTime interval. */
typedef enum np_knob_etw_time { NP_ETW_TIME_SHARED, NP_ETW_TIME_SEPARATE } np_knob_etw_time;

/* K-ETW-TIME-PRIV (TR-5): privilege for setting the ETW time-profile interval. */
typedef enum np_knob_etw_time_priv { NP_ETW_PRIV_REQUIRED, NP_ETW_PRIV_NONE } np_knob_etw_time_priv;

/* K-SRCLIST-LEN (TR-7): the answer to a too-small source-list buffer. */
typedef enum np_knob_srclist_len { NP_SRCLIST_BAD_LENGTH, NP_SRCLIST_MORE_DATA } np_knob_srclist_len;

/* K-TQI-RETLEN (TR-3): is *ReturnLength written when the length is wrong
 * (always), or only when InformationLength is right (right-length). */
typedef enum np_knob_tqi_retlen { NP_RETLEN_ALWAYS, NP_RETLEN_RIGHT_LENGTH } np_knob_tqi_retlen;

/* K-PEBS-ON-FREE (SY-14): does the PEBS test of SY-11 also guard a free. */
typedef enum np_knob_pebs_on_free { NP_PEBS_FREE_CHECKED, NP_PEBS_FREE_UNCHECKED } np_knob_pebs_on_free;

/* K-PPCA-LENGTH-ORDER (SY-8): is the class 0x81 length tested after the
 * user-mode refusal of SY-7 (mode-first) or before it (length-first). */
typedef enum np_knob_ppca_length_order { NP_PPCA_MODE_FIRST, NP_PPCA_LENGTH_FIRST } np_knob_ppca_length_order;

/* K-PPCA-LENGTH-STATUS (SY-8): the status of a wrong class 0x81 length. */
typedef enum np_knob_ppca_length_status {
	NP_PPCA_INFO_LENGTH_MISMATCH, NP_PPCA_INVALID_PARAMETER
} np_knob_ppca_length_status;

typedef struct np_knobs {
	np_knob_hal_clamp hal_clamp;
	np_knob_qi_align qi_align;
	np_knob_qi_write_fault qi_write_fault;
	np_knob_etw_time etw_time;
	np_knob_etw_time_priv etw_time_priv;
	np_knob_srclist_len srclist_len;
	np_knob_tqi_retlen tqi_retlen;
	np_knob_pebs_on_free pebs_on_free;
	np_knob_ppca_length_order ppca_length_order;
	np_knob_ppca_length_status ppca_length_status;
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
	uint32_t interval[NP_MAX_CPUS];   /* current interval, per processor (SI-4) */
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

typedef struct np_region {
	uint64_t base, size;
	unsigned prot;
	unsigned flags;
	bool revoked;        /* a VANISHES region after its probe */
	uint8_t *bytes;      /* backing store, size bytes */
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

typedef struct np_machine {
	np_ver version;
	np_arch arch;
	unsigned cpus;             /* active processors, 1..NP_MAX_CPUS */
	unsigned current_cpu;      /* the processor the calling thread runs on */
	np_mode previous_mode;     /* user: the request came from user mode */
	np_integrity integrity;
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
	np_knobs knobs;
} np_machine;

/* Why a configuration cannot exist (NULL when it can). */
typedef const char *np_config_error;

/* Fills a machine with the defaults of SPEC.md MC-1 for that version and
 * architecture. Returns an error text when the pair does not exist (VR-3). */
np_config_error np_machine_init(np_machine *m, np_ver v, np_arch a);
void np_machine_fini(np_machine *m);

/* Re-fills the HAL table for a HAL kind (HL-1, HL-2). Fails when the kind
 * cannot exist on the machine's version and architecture (KS-3). */
np_config_error np_machine_set_hal(np_machine *m, np_hal_kind kind);
np_config_error np_machine_set_cpus(np_machine *m, unsigned cpus);

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
/* Copies out of / into mapped memory; false when any byte is not accessible. */
bool np_mem_read(np_machine *m, uint64_t addr, void *out, size_t len);
bool np_mem_write(np_machine *m, uint64_t addr, const void *data, size_t len);

#endif
