/* The functions a step can call: their parameters and out-values. One table
 * serves the parser, `ntprof call` and every backend. */
#ifndef NTPROF_CATALOG_H
#define NTPROF_CATALOG_H

#include <stdbool.h>
#include <stdint.h>

#include "ntprof/vector.h"

typedef enum np_param_kind {
	NP_PARAM_U32,     /* a ULONG */
	NP_PARAM_U64,     /* a 64-bit handle value */
	NP_PARAM_BYTE,    /* a BOOLEAN or UCHAR: 0 to 255 */
	NP_PARAM_SOURCE,  /* a KPROFILE_SOURCE: name or number */
	NP_PARAM_POINTER  /* symbolic pointer (user, null, misaligned, ...) or number */
} np_param_kind;

typedef struct np_param {
	const char *name;
	const char *alias;        /* another accepted spelling, or NULL */
	np_param_kind kind;
	const char *fallback;     /* value when the step omits it; NULL = required */
} np_param;

typedef enum np_function_id {
	NP_FN_SET_INTERVAL, NP_FN_QUERY_INTERVAL, NP_FN_TRACE_SET, NP_FN_TRACE_QUERY,
	NP_FN_READ_EVENTS, NP_FN_SET_SYSINFO, NP_FN_QUERY_SYSINFO, NP_FN_MOVE_THREAD
} np_function_id;

typedef struct np_function {
	np_function_id id;
	const char *name;
	const char *alias;        /* the Zw spelling */
	np_param param[8];
	bool win32;               /* returns a Win32 error */
} np_function;

const np_function *np_function_find(const char *name);
const np_param *np_param_find(const np_function *f, const char *name);

/* Pointer symbols (fixtures/README.md): user null misaligned readonly unmapped kernel vanishing. */
typedef enum np_pointer_kind {
	NP_PTR_USER, NP_PTR_NULL, NP_PTR_MISALIGNED, NP_PTR_READONLY, NP_PTR_UNMAPPED,
	NP_PTR_KERNEL, NP_PTR_VANISHING, NP_PTR_NUMBER
} np_pointer_kind;
bool np_pointer_parse(const char *text, np_pointer_kind *kind, uint64_t *number);

/* Reads a number: decimal or 0x hex, up to 64 bits. */
bool np_number_parse(const char *text, uint64_t *out);

/* The value of a parameter in a step (its fallback when omitted). */
const char *np_step_arg(const np_step *s, const np_param *p);

#endif
