/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof explore --against dl:dl_stateful.so`: the
 * model, but a process-wide count of the systems it has opened, and from
 * the second one on NtSetIntervalProfile fails with STATUS_UNSUCCESSFUL, as
 * an implementation whose globals outlive a session would. Each combination
 * runs in a child process of its own, so on one target nothing leaks from
 * one combination to the next; on two, the second target of a combination
 * shows it (conformance/cli/test_explore.sh). */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;
static unsigned opened;   /* the state that must not outlive a combination */

static void *counting_open(const ntprof_system_spec *spec, const char **why)
{
	opened++;
	return np_impl_model.open(spec, why);
}

static ntprof_result leaky_set_interval(void *sys, const char *fn, uint32_t interval, uint32_t source)
{
	if (opened > 1)
		return (ntprof_result){ NTPROF_STATUS, 0xC0000001u, NULL };   /* STATUS_UNSUCCESSFUL */
	return np_impl_model.set_interval_profile(sys, fn, interval, source);
}

static const char *const claims[] = { "NtSetIntervalProfile", "NtQueryIntervalProfile", NULL };

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = 2;
	table.name = "dl-stateful";
	table.open = counting_open;
	table.set_interval_profile = leaky_set_interval;
	table.implements = claims;
	return &table;
}
