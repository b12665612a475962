/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_faithful.so`: every
 * operation forwards to the model. Through the dl: interface it must match
 * every vector the model matches (conformance/cli/test_dl.sh), which proves the
 * interface carries everything a vector needs. An ABI 2 table that names
 * every function it implements and every target (emulates NULL). */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

/* Every function, and every capability (ntprof/capability.h): the model
 * takes every pseudo-step and honours every `given` key. */
static const char *const every_function[] = {
	"NtSetIntervalProfile", "NtQueryIntervalProfile", "NtCreateProfile", "NtCreateProfileEx",
	"NtStartProfile", "NtStopProfile", "NtSetSystemInformation", "NtQuerySystemInformation",
	"TraceSetInformation", "TraceQueryInformation",
	"Interrupt", "Inject", "ReadEvents", "MoveThread", "SetCpus", "SetIntervalElsewhere", "Protect",
	"given:mode", "given:tracing", "given:sandboxed", "given:cpus", "given:cpu", "given:groups",
	"given:group", "given:hal", "given:K-ERRATA", "given:alloc", "given:pebs", "given:vendor",
	"given:misc_enable", "given:cpuid1_ecx", "given:started-elsewhere", "pointer:vanishing",
	/* every knob the model has, each with every value */
#define NP_KNOB(NAME, field, RULE, DEFAULT, VALUES) "given:" NAME,
#define NP_VERSION_KNOB(NAME, field, RULE, DEFAULT, TEXT) "given:" NAME,
#define NP_RANGE_KNOB(NAME, field, RULE, LO, HI, TEXT) "given:" NAME,
#define NP_KNOB_VALUE(ENUMERATOR, TEXT)
#include "ntprof/knobs.h"
	NULL,
};

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = 2;
	table.name = "dl-faithful";
	table.implements = every_function;
	table.emulates = NULL;
	return &table;
}
