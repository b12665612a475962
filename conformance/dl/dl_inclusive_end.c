/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_inclusive_end.so`: the
 * model, declaring every capability as dl_faithful.so does, with one
 * counting bug: the profiled region's end is taken as inside it on every
 * version (IN-4 has it so on 6.2..1803 only), so an interrupt at
 * ProfileBase + ProfileSize counts into the ULONG past the last counter.
 * The default fixtures must catch it now that counting vectors are asked of
 * an object that declares Interrupt (conformance/cli/test_dl.sh). */
#include "dl_model_knob.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

/* The model's own knob for IN-4, widened to every version. */
static void *inclusive_open(const ntprof_system_spec *spec, const char **why)
{
	return dl_open_model_with(spec, why, "K-INCLUSIVE-END", "3.10..11-25H2");
}

static const char *const claims[] = {
	"NtSetIntervalProfile", "NtQueryIntervalProfile", "NtCreateProfile", "NtCreateProfileEx",
	"NtStartProfile", "NtStopProfile", "NtSetSystemInformation", "NtQuerySystemInformation",
	"TraceSetInformation", "TraceQueryInformation", "Interrupt", NULL,
};

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = 2;
	table.name = "dl-inclusive-end";
	table.open = inclusive_open;
	table.implements = claims;
	table.emulates = NULL;
	return &table;
}
