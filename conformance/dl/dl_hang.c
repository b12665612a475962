/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_hang.so`: the model, but
 * NtQueryIntervalProfile never returns for the source ProfileAlignmentFixup.
 * The run must go on: each vector that asks for it ends in `timeout` at
 * that step once the step timeout passes, and every other vector has its
 * own result (conformance/cli/test_dl.sh runs it with NTPROF_STEP_TIMEOUT=0.3). */
#include <unistd.h>

#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

#define PROFILE_ALIGNMENT_FIXUP 1u

static ntprof_impl table;

static ntprof_result hang_query(void *sys, const char *fn, uint32_t source, uint64_t interval)
{
	while (source == PROFILE_ALIGNMENT_FIXUP)
		pause();   /* no signal comes: it waits for ever */
	return np_impl_model.query_interval_profile(sys, fn, source, interval);
}

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.name = "dl-hang";
	table.query_interval_profile = hang_query;
	return &table;
}
