/* SPDX-License-Identifier: MIT */
/* Internal: which TRACE_QUERY_INFO_CLASS each Trace* wrapper handles in each
 * version (TR-11, TR-12), and the classes other than 5 and 7 up to their
 * refusals (TR-13 to TR-18). */
#ifndef NTPROF_MODEL_TRACE_CLASSES_H
#define NTPROF_MODEL_TRACE_CLASSES_H

#include "internal.h"

/* TR-11, TR-12: NULL when the wrapper handles the class in this version,
 * else out, which then holds ERROR_NOT_SUPPORTED. */
const np_result *np_trace_class_gate(np_machine *m, uint32_t info_class, bool is_set,
				     np_result *out);

/* TraceSetInformation with a handled class other than 5 (TR-13 to TR-15, TR-18). */
np_result np_trace_set_other(np_machine *m, uint32_t info_class, uint64_t buffer, uint32_t length);

/* TraceQueryInformation with a handled class other than 5 and 7 (TR-16 to TR-18). */
np_result np_trace_query_other(np_machine *m, uint64_t session, uint32_t info_class, uint64_t buffer,
			       uint32_t length, uint64_t return_length);

#endif
