/* SPDX-License-Identifier: MIT */
/* The functions a step can call: their parameters and out-values. One table
 * serves the parser, `ntprof call` and every backend. */
#ifndef NTPROF_CATALOG_H
#define NTPROF_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ntprof/number.h"   /* np_number_parse, for every numeric argument */
#include "ntprof/vector.h"

typedef struct np_param {
	const char *name;
	const char *alias;        /* another accepted spelling, or NULL */
	np_param_kind kind;
	const char *fallback;     /* value when the step omits it; NULL = required */
	const char *choices;      /* NP_PARAM_CHOICE: "a|b|c" */
} np_param;

typedef enum np_function_id {
	NP_FN_SET_INTERVAL, NP_FN_QUERY_INTERVAL, NP_FN_TRACE_SET, NP_FN_TRACE_QUERY,
	NP_FN_READ_EVENTS, NP_FN_CREATE_PROFILE, NP_FN_CREATE_PROFILE_EX, NP_FN_START_PROFILE,
	NP_FN_STOP_PROFILE, NP_FN_CLOSE, NP_FN_DUPLICATE_OBJECT, NP_FN_INTERRUPT,
	NP_FN_READ_BUFFER, NP_FN_WRITE_BUFFER, NP_FN_FREE_BUFFER, NP_FN_INJECT,
	NP_FN_SET_SYSINFO, NP_FN_QUERY_SYSINFO, NP_FN_MOVE_THREAD, NP_FN_INTERRUPTS,
	NP_FN_SET_CPUS, NP_FN_SET_INTERVAL_ELSEWHERE, NP_FN_PROTECT
} np_function_id;

typedef enum np_function_kind {
	NP_KIND_NATIVE,   /* an NTDLL/kernel entry point (exports: np_is_exported) */
	NP_KIND_WIN32,    /* a documented API returning a Win32 error */
	NP_KIND_PSEUDO,   /* a step that acts on the machine or reads it; no status */
	NP_KIND_MODEL,    /* a pseudo-step only a model can take (Interrupt, Interrupts, Inject, ReadEvents) */
	NP_KIND_SYSINFO   /* a native call whose exports the model decides (SY-0) */
} np_function_kind;

#define NP_MAX_PARAMS 12

typedef struct np_function {
	np_function_id id;
	const char *name;
	const char *alias;        /* the Zw spelling */
	np_param param[NP_MAX_PARAMS];
	np_function_kind kind;
} np_function;

const np_function *np_function_find(const char *name);
/* The i-th function of the catalog, in its order; NULL past the end. */
const np_function *np_function_at(unsigned i);
/* Whether f is a call of the system (Nt, Zw, Trace): what an implementation
 * lists in its `implements` (ntprof/impl.h); false for the steps that act on
 * the caller's memory or only a simulation takes. */
bool np_function_is_call(const np_function *f);
const np_param *np_param_find(const np_function *f, const char *name);

/* Pointer symbols (fixtures/README.md): user null misaligned readonly unmapped kernel vanishing. */
bool np_pointer_parse(const char *text, np_pointer_kind *kind, uint64_t *number);

/* Process and profile handle symbols (fixtures/README.md). */
np_handle_kind np_handle_parse(const char *text, uint64_t *number);

/* A capture name: a lower-case word that is no pointer or handle symbol. */
bool np_capture_name_ok(const char *name);

/* A GROUP_AFFINITY list "G:MASK[:RESERVED],...": up to 8 elements. */
bool np_groups_parse(const char *text, np_group_element *out, unsigned *count);

/* Checks a step's use of captured names against the steps before it:
 * every NAME used was captured earlier (as the same kind), no NAME is
 * captured twice. Returns NULL or an error text. */
const char *np_captures_check(const np_step *prior, unsigned nprior, const np_step *step);

/* The most interrupts one Interrupts step delivers (its Count). */
#define NP_MAX_RUN 0x10000u

/* Counter lists as ReadBuffer reports them: "0,1,0*5,7" (V*N is a run of
 * N values V; runs of three or more are always written so), "none" for no
 * counter, "N-counters" when the list is too long for one value. */
#define NP_MAX_COUNTERS 4096u
void np_counters_format(const uint32_t *c, unsigned n, char *buf, size_t cap);
bool np_counters_parse(const char *text, uint32_t *out, unsigned max, unsigned *n);

#endif
