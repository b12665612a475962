/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_crash.so`: the model,
 * but NtStartProfile dereferences a null pointer. The run must go on: each
 * vector that starts a profile is `crashed`, naming the signal and the
 * step, and every other vector has its own result (conformance/cli/test_dl.sh). */
#include <signal.h>

#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

static ntprof_result crash_start(void *sys, const char *fn, uint64_t handle)
{
	(void)sys, (void)fn, (void)handle;
	raise(SIGSEGV);   /* what a null dereference ends in, without the compiler's say */
	return (ntprof_result){ NTPROF_STATUS, 0, NULL };
}

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.name = "dl-crash";
	table.start_profile = crash_start;
	return &table;
}
