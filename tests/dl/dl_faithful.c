/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_faithful.so`: every
 * operation forwards to the model. Through the dl: interface it must match
 * every vector the model matches (tests/cli/test_dl.sh), which proves the
 * interface carries everything a vector needs. */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.name = "dl-faithful";
	return &table;
}
