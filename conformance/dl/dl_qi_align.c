/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof explore --against dl:dl_qi_align.so`: the
 * model with the other reading of K-QI-ALIGN (QI-2): NtQueryIntervalProfile
 * refuses a misaligned Interval with STATUS_DATATYPE_MISALIGNMENT, which
 * query-interval/misaligned-pointer accepts (`accept` with its flag). explore
 * must take that line as run does: counted, not reported
 * (conformance/cli/test_explore.sh). */
#include "dl_model_knob.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

/* The model's own knob, set to the alternative its vector accepts. */
static void *aligned_open(const ntprof_system_spec *spec, const char **why)
{
	return dl_open_model_with(spec, why, "K-QI-ALIGN", "checked");
}

static const char *const claims[] = {
	"NtSetIntervalProfile", "NtQueryIntervalProfile", "NtCreateProfile", "NtCreateProfileEx",
	"NtStartProfile", "NtStopProfile", "NtSetSystemInformation", "NtQuerySystemInformation",
	"TraceSetInformation", "TraceQueryInformation", NULL,
};

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = 2;
	table.name = "dl-qi-align";
	table.open = aligned_open;
	table.implements = claims;
	table.emulates = NULL;
	return &table;
}
