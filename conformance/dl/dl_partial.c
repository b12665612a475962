/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_partial.so`: an ABI 2
 * table that claims only some of the work. It implements the interval and
 * trace calls (the vectors of any other function are "not-implemented")
 * and emulates two targets (a run without --target runs those; one with
 * another --target is refused). It claims TraceQueryInformation but answers
 * it NOT_APPLICABLE: those vectors are "unanswered" and fail the run unless
 * --allow-not-applicable (conformance/cli/test_dl.sh). */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

static const char *const implemented[] = {
	"NtSetIntervalProfile", "NtQueryIntervalProfile", "TraceSetInformation", "TraceQueryInformation",
	NULL,
};

static ntprof_result unanswered_trace_query(void *sys, uint64_t session, uint32_t info_class,
					    uint64_t buffer, uint32_t length, uint64_t return_length)
{
	(void)sys, (void)session, (void)info_class, (void)buffer, (void)length, (void)return_length;
	return (ntprof_result){ NTPROF_NOT_APPLICABLE, 0, "not written yet" };
}

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = 2;
	table.name = "dl-partial";
	table.implements = implemented;
	table.emulates = "1809/x64,6.1/x86";
	table.trace_query_information = unanswered_trace_query;
	return &table;
}
