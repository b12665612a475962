/* SPDX-License-Identifier: MIT */
/* ntprof: the interface an implementation of the profiling calls offers the
 * harness (ABI version 2).
 *
 * One interpreter (harness/run/interpreter.c) turns a vector's steps into
 * calls through this table. Three kinds of implementation fill it in:
 *   - the model (harness/impl_model.c), the reference;
 *   - a live Windows or Wine system (harness/win/impl_windows.c), which
 *     calls ntdll and sechost through GetProcAddress;
 *   - any other implementation, built as a shared object that exports
 *     `ntprof_impl_entry` and is loaded with `ntprof run --backend dl:PATH.so`
 *     (conformance/dl/dl_*.c are two examples).
 *
 * This header is self-contained C99: an implementation needs nothing else of
 * ntprof. Addresses are the caller's (the simulated user process's) as
 * 64-bit numbers; a 32-bit caller's fit in the low 32 bits. Handles are the
 * caller's handle values, widened to 64 bits; the pseudo-handles are
 * all-ones (NtCurrentProcess, -1) and all-ones less one (NtCurrentThread, -2)
 * whatever the width.
 *
 * Lifetime: the harness calls open() once per vector with the state the
 * vector asks for, then the steps' operations in order, then close(). An
 * implementation must undo in close() whatever the steps left behind:
 * profiles started, handles opened, memory mapped. Nothing is shared between
 * two open systems.
 *
 * ABI 2 (NTPROF_IMPL_ABI) added `implements` and `emulates` at the end of
 * the table, and made `interrupts` one an object is read for. The harness
 * loads only a table of ABI 2: `--backend dl:` refuses another, naming the
 * ABI it found. A function left out of `implements` is not run at all: its
 * vectors are
 * reported "not-implemented". Every other function must answer every
 * vector it applies to: NOT_APPLICABLE where the vector expects a result
 * fails the run (`ntprof run --allow-not-applicable` lets it pass). */
#ifndef NTPROF_IMPL_H
#define NTPROF_IMPL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NTPROF_IMPL_ABI 2u

/* What an operation ended in. The values are published with the ABI and
 * never change; the harness's own result kinds (the model's np_result_kind)
 * are these same numbers. */
enum ntprof_result_kind {
	NTPROF_STATUS = 0,        /* the call returned the NTSTATUS code */
	NTPROF_WIN32 = 1,         /* the call returned the Win32 error code */
	NTPROF_FAULT = 2,         /* the caller got the exception code raised at it */
	NTPROF_BUGCHECK = 3,      /* the system stopped with bug check code */
	NTPROF_NOT_EXPORTED = 4,  /* the function does not exist here */
	NTPROF_NOT_APPLICABLE = 5,/* the request cannot be made here: why says so */
	NTPROF_NONE = 6,          /* a step that has no status (Interrupt, Inject, ...) */
	NTPROF_CORRUPTION = 7,    /* an increment landed outside the counters (SPEC IN-7) */
	NTPROF_STUB = 8,          /* the function is an "unimplemented" trap (Wine 0x80000100) */
	NTPROF_CRASHED = 9        /* the call raised an unexpected exception (code) */
};

typedef struct ntprof_result {
	uint32_t kind;            /* enum ntprof_result_kind */
	uint32_t code;
	const char *why;          /* NOT_APPLICABLE, STUB, CRASHED: a static sentence or NULL */
} ntprof_result;

/* One `given KEY=VALUE` of a vector (fixtures/README.md lists the keys). */
typedef struct ntprof_setting {
	const char *key;
	const char *value;
} ntprof_setting;

/* The system a vector wants. */
typedef struct ntprof_system_spec {
	const char *version;      /* a version key of `ntprof versions`: "4.0sp4", "6.1", "1809" */
	const char *arch;         /* "x86", "x64" or "wow64" (a 32-bit caller on x64) */
	const ntprof_setting *given;
	unsigned ngiven;
} ntprof_system_spec;

/* Memory protections and flags of map(). */
#define NTPROF_PROT_READ   1u
#define NTPROF_PROT_WRITE  2u
#define NTPROF_MAP_VANISHING 4u  /* pages that go away once the kernel has probed them (AS-2) */
#define NTPROF_MAP_FREED     8u  /* map, then free: the address of a region that is gone */

/* NtCreateProfile / NtCreateProfileEx arguments, as the caller passes them. */
typedef struct ntprof_create_args {
	uint64_t profile_handle;  /* HANDLE *: where the new handle goes */
	uint64_t process;         /* HANDLE; 0 = a global profile */
	uint64_t profile_base;
	uint64_t profile_size;    /* SIZE_T */
	uint32_t bucket_size;     /* log2 of the bucket size in bytes */
	uint64_t buffer;          /* ULONG *: the counters */
	uint32_t buffer_size;     /* bytes */
	uint32_t source;          /* KPROFILE_SOURCE */
	uint64_t affinity;        /* NtCreateProfile: KAFFINITY */
	uint16_t group_count;     /* NtCreateProfileEx */
	uint64_t affinity_array;  /* NtCreateProfileEx: GROUP_AFFINITY * in the caller's layout */
} ntprof_create_args;

/* One simulated profile interrupt (a model-only step). */
typedef struct ntprof_interrupt {
	uint32_t source;
	unsigned cpu, group;
	uint64_t pc;
	int other_process;        /* nonzero: another process was running */
} ntprof_interrupt;

typedef struct ntprof_impl {
	uint32_t abi;             /* NTPROF_IMPL_ABI */
	const char *name;         /* shown in reports */

	/* A fresh system as spec describes, or NULL with *why saying why it
	 * cannot take that state (the vector is then "not applicable"). */
	void *(*open)(const ntprof_system_spec *spec, const char **why);
	void (*close)(void *sys);

	/* Whether the caller can bind this entry point (Nt or Zw spelling). */
	int (*exported)(void *sys, const char *function);

	/* The caller's memory. map() returns the base of a new region of at
	 * least size bytes, every byte set to fill, or 0 when there is no room.
	 * read() and write() act as the caller would (write fails on a
	 * read-only page); poke() sets the bytes even there (the input as it was
	 * before the call). All three return nonzero on success. release() frees
	 * a region the caller mapped (its pages may stay locked by a profile). */
	uint64_t (*map)(void *sys, uint64_t size, unsigned prot, unsigned flags, uint8_t fill);
	int (*read)(void *sys, uint64_t addr, void *out, size_t n);
	int (*write)(void *sys, uint64_t addr, const void *in, size_t n);
	int (*poke)(void *sys, uint64_t addr, const void *in, size_t n);
	int (*release)(void *sys, uint64_t addr);

	/* A new handle to a process: this one (other == 0) or another, with the
	 * access asked; 0 when it cannot be had. */
	uint64_t (*open_process)(void *sys, int other, uint32_t access);

	/* The calls. `function` is the spelling the vector uses (NtX or ZwX):
	 * a live implementation calls that export. */
	ntprof_result (*set_interval_profile)(void *sys, const char *function, uint32_t interval,
					      uint32_t source);
	ntprof_result (*query_interval_profile)(void *sys, const char *function, uint32_t source,
						uint64_t interval);
	ntprof_result (*create_profile)(void *sys, const char *function, const ntprof_create_args *a);
	ntprof_result (*create_profile_ex)(void *sys, const char *function,
					   const ntprof_create_args *a);
	ntprof_result (*start_profile)(void *sys, const char *function, uint64_t handle);
	ntprof_result (*stop_profile)(void *sys, const char *function, uint64_t handle);
	ntprof_result (*close_handle)(void *sys, const char *function, uint64_t handle);
	/* NtDuplicateObject within the current process; the new handle is
	 * written to target_handle (a HANDLE * of the caller's width). */
	ntprof_result (*duplicate_object)(void *sys, const char *function, uint64_t handle,
					  uint32_t access, uint64_t target_handle);
	ntprof_result (*set_system_information)(void *sys, const char *function, uint32_t info_class,
						uint64_t buffer, uint32_t length);
	ntprof_result (*query_system_information)(void *sys, const char *function,
						  uint32_t info_class, uint64_t buffer,
						  uint32_t length, uint64_t return_length);
	ntprof_result (*trace_set_information)(void *sys, uint64_t session, uint32_t info_class,
					       uint64_t buffer, uint32_t length);
	ntprof_result (*trace_query_information)(void *sys, uint64_t session, uint32_t info_class,
						 uint64_t buffer, uint32_t length,
						 uint64_t return_length);

	/* Steps only a simulation can take; NULL makes them not applicable. */
	ntprof_result (*interrupt)(void *sys, const ntprof_interrupt *irq, unsigned *counted);
	/* what: "alloc", "lock" or "map": the next such allocation fails */
	ntprof_result (*inject)(void *sys, const char *what);
	/* The interval-change events so far, "hook:source:old:new,..." or "none". */
	ntprof_result (*read_events)(void *sys, char *text, size_t cap);
	/* Moves the calling thread to processor cpu; *now is where it runs. */
	ntprof_result (*move_thread)(void *sys, unsigned cpu, unsigned *now);

	/* A run of n interrupts alike but for their pcs (irq->pc is not read):
	 * what interrupt() does once for each pc[i], in order, stopping at the
	 * first result that is neither NONE nor CORRUPTION; *counted is the
	 * run's total, and the result that last one, else CORRUPTION when any
	 * increment corrupted, else NONE. NULL: the harness calls interrupt()
	 * once per pc. */
	ntprof_result (*interrupts)(void *sys, const ntprof_interrupt *irq, const uint64_t *pc, size_t n,
				    uint64_t *counted);

	/* ABI 2: what the implementation claims, so that a run asks of it only
	 * that. */
	const char *const *implements; /* NULL-terminated list of the functions implemented, by name as the
	                                  catalog spells them ("NtSetIntervalProfile", "TraceSetInformation"),
	                                  and of the capabilities declared, each of whose vectors is then
	                                  required: pseudo-steps ("Interrupt", "Inject", "ReadEvents",
	                                  "MoveThread", "SetCpus", "SetIntervalElsewhere", "Protect"; the
	                                  member must be set too), `given` keys honoured ("given:hal",
	                                  "given:mode=kernel", "given:K-OOB-POLICY"), "pointer:vanishing"
	                                  (docs/capabilities.md); an older ntprof ignores the capabilities.
	                                  NULL: every function and every capability */
	const char *emulates;          /* the targets emulated, in --target syntax (e.g. "1809/x64", or a
	                                  comma list of what --target accepts); NULL: every target */

	/* ABI 2 too: situations between two calls (SPEC.md MC-7, MC-8, AS-4).
	 * NULL makes a step that needs one not applicable. set_cpus: processors 0 to cpus - 1 of each group are
	 * active from now on. set_interval_elsewhere: another process holding
	 * SeSystemProfilePrivilege calls NtSetIntervalProfile; the result is
	 * that call's. protect: whole pages [addr, addr + size) of one region
	 * the caller mapped become read-only (prot NTPROF_PROT_READ) or
	 * inaccessible (prot 0): NONE, or NOT_APPLICABLE with why. */
	ntprof_result (*set_cpus)(void *sys, unsigned cpus);
	ntprof_result (*set_interval_elsewhere)(void *sys, uint32_t interval, uint32_t source);
	ntprof_result (*protect)(void *sys, uint64_t addr, uint64_t size, unsigned prot);
} ntprof_impl;

/* What a shared object for `--backend dl:PATH.so` exports. */
typedef const ntprof_impl *ntprof_impl_entry_fn(void);
#define NTPROF_IMPL_ENTRY "ntprof_impl_entry"

#ifdef __cplusplus
}
#endif

#endif
