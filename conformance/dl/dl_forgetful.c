/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof explore --against dl:dl_forgetful.so`: the
 * model, but NtSetIntervalProfile answers as the model does and keeps
 * nothing, so a later NtQueryIntervalProfile reads the interval as it was
 * (SI-3, SI-4, QI-5). Each call alone matches the model; only a set then a
 * query shows the bug, which explore's sequences must catch and its single
 * calls cannot (conformance/cli/test_explore.sh). */
#include <string.h>

#include "run/impl_model.h"
#include "internal.h"
#include "ntprof/calls.h"
#include "ntprof/machine.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

/* Every interval a set may change, put back after the model's call. */
static ntprof_result forgetful_set_interval(void *sys, const char *fn, uint32_t interval, uint32_t source)
{
	np_machine *m = np_impl_model_machine(sys);
	np_hal hal = m->hal;
	uint32_t fixup = m->alignment_fixup_interval, etw = m->etw_time_interval;
	bool etw_set = m->etw_time_interval_set;
	ntprof_result r = np_impl_model.set_interval_profile(sys, fn, interval, source);
	m->hal = hal;
	m->alignment_fixup_interval = fixup;
	m->etw_time_interval = etw;
	m->etw_time_interval_set = etw_set;
	return r;
}

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.name = "dl-forgetful";
	table.set_interval_profile = forgetful_set_interval;
	return &table;
}
