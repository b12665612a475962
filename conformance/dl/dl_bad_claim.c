/* SPDX-License-Identifier: MIT */
/* A shared object whose implements list names something that is neither a
 * function nor a capability: `--backend dl:` must refuse it before running
 * anything, naming the entry (conformance/cli/test_dl.sh). */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

static const char *const claims[] = { "NtSetIntervalProfile", "Interupt", NULL };

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = 2;
	table.implements = claims;
	return &table;
}
