/* SPDX-License-Identifier: MIT */
/* The interpreter's pieces (interpreter.c, the dispatch and results;
 * interpreter_args.c, what a typed argument means on a system and how
 * out-values are read back; interpreter_steps.c, one function per kind of
 * step). Not for use outside harness/run/. */
#ifndef NTPROF_INTERPRETER_H
#define NTPROF_INTERPRETER_H

#include <stdbool.h>
#include <stdint.h>

#include "vectors/catalog.h"
#include "ntprof/backend.h"
#include "ntprof/impl.h"

#define NP_POISON       0xCCu
#define NP_POISON32     0xCCCCCCCCu
#define NP_REGION_SIZE  0x10000ull      /* the size of a plain symbolic region */
#define NP_MAX_CAPTURES 16

/* A name a step captured (>NAME): a handle value, or a buffer and its size. */
typedef struct np_capture {
	char name[NP_NAME_MAX];
	bool buffer;
	uint64_t value;
	uint32_t size;
} np_capture;

typedef struct np_native_state {
	const ntprof_impl *impl;
	void *sys;                      /* the open system; NULL between vectors */
	void *spare;                    /* the model's last system, to open again */
	np_arch arch;
	unsigned pointer_size;          /* the caller's pointers: 4 or 8 bytes (SY-9) */
	bool halted;                    /* a step bug-checked: the system is gone */
	uint32_t halt_code;
	const char *lacking;            /* why a symbolic argument could not be made */
	np_capture cap[NP_MAX_CAPTURES];
	unsigned ncap;
} np_native_state;

/* ---- interpreter.c ---- */

/* The implementation's result as the record's outcome (and why). */
void np_native_result(np_native_state *s, np_record *r, ntprof_result res);
/* What a step an implementation cannot take ends in. */
extern const ntprof_result np_lacking_op;
void np_native_not_applicable(np_record *r, const char *why);
/* The symbolic arguments could not all be made: the step is not applicable. */
bool np_native_lacking(np_native_state *s, np_record *r);

/* ---- interpreter_args.c ---- */

/* AS-1: what a pointer argument means on this machine. */
uint64_t np_native_pointer(np_native_state *s, const np_pointer_arg *p);
/* MC-3: what a handle argument means on this machine. */
uint64_t np_native_handle(np_native_state *s, const np_arg *a);
/* A create's counters (NP_PARAM_BUFFER) of size bytes; false when there is
 * no room for a fresh buffer. */
bool np_native_buffer(np_native_state *s, const np_arg *a, uint32_t size, uint64_t *addr);
/* A plain symbolic region, mapped; 0, with why noted, when there is none. */
uint64_t np_native_fresh_region(np_native_state *s, unsigned prot, unsigned flags);
const np_capture *np_native_find_capture(const np_native_state *s, const char *name);
/* Bytes put where the caller's input is, even in a read-only region. */
void np_native_poke(np_native_state *s, uint64_t addr, const void *bytes, size_t n);
/* GROUP_AFFINITY elements in the caller's layout (CP-14). */
void np_native_write_groups(np_native_state *s, uint64_t array, const np_group_element *g, unsigned n);

/* Out-values: a ULONG, a pointer as wide as the caller's, the
 * PROFILE_SOURCE_INFO chain, a handle (captured when the step says >NAME). */
void np_native_out_u32(np_native_state *s, np_record *r, const char *name, uint64_t addr);
void np_native_out_pointer(np_native_state *s, np_record *r, const char *name, uint64_t addr);
void np_native_out_source_list(np_native_state *s, np_record *r, uint64_t addr);
void np_native_out_handle(np_native_state *s, np_record *r, const char *out_name, const np_arg *a,
			  uint64_t addr);

/* ---- interpreter_steps.c: one function per kind of step ---- */

void np_native_set_interval(np_native_state *s, const np_step *st, np_record *r);
void np_native_query_interval(np_native_state *s, const np_step *st, np_record *r);
void np_native_create(np_native_state *s, const np_step *st, np_record *r);
void np_native_interrupt(np_native_state *s, const np_step *st, np_record *r);
void np_native_interrupts(np_native_state *s, const np_step *st, np_record *r);
void np_native_buffer_step(np_native_state *s, const np_step *st, np_record *r);
void np_native_object(np_native_state *s, const np_step *st, np_record *r);
void np_native_inject(np_native_state *s, const np_step *st, np_record *r);
void np_native_trace_set(np_native_state *s, const np_step *st, np_record *r);
void np_native_trace_query(np_native_state *s, const np_step *st, np_record *r);
void np_native_sysinfo(np_native_state *s, const np_step *st, np_record *r);
void np_native_move_thread(np_native_state *s, const np_step *st, np_record *r);
void np_native_read_events(np_native_state *s, np_record *r);

/* ---- interpreter_elsewhere.c: the situation between two calls ---- */

void np_native_elsewhere(np_native_state *s, const np_step *st, np_record *r);
/* AS-4: a fresh buffer's page form, made on it; false (why noted) when it cannot be. */
bool np_native_buffer_pages(np_native_state *s, const np_arg *a, uint64_t addr, uint32_t size);

#endif
