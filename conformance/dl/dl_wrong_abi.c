/* SPDX-License-Identifier: MIT */
/* A shared object whose table speaks another ABI version: `--backend dl:`
 * must refuse it before running anything (conformance/cli/test_dl.sh). */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = NTPROF_IMPL_ABI + 1;
	return &table;
}
