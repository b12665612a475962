/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_faithful.so`: every
 * operation forwards to the model. Through the dl: interface it must match
 * every vector the model matches (conformance/cli/test_dl.sh), which proves the
 * interface carries everything a vector needs. An ABI 2 table that names
 * every function it implements and every target (emulates NULL). */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

static const char *const every_function[] = {
	"NtSetIntervalProfile", "NtQueryIntervalProfile", "NtCreateProfile", "NtCreateProfileEx",
	"NtStartProfile", "NtStopProfile", "NtSetSystemInformation", "NtQuerySystemInformation",
	"TraceSetInformation", "TraceQueryInformation", NULL,
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
