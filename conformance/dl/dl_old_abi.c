/* SPDX-License-Identifier: MIT */
/* A shared object whose table declares ABI 1, the first ABI, which ntprof
 * no longer loads: `--backend dl:` must refuse it before running anything,
 * naming the ABI it found (conformance/cli/test_dl.sh). */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = 1;
	return &table;
}
