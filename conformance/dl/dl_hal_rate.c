/* SPDX-License-Identifier: MIT */
/* A shared object implementing the other reading of K-HAL-RATE (HL-4): the
 * model, with a 32-bit x86 HAL that keeps of an in-range ProfileTime
 * interval the period of the nearest power-of-two rate. It declares that
 * reading (reading:K-HAL-RATE=power-of-two), so that the vectors resting
 * on the knob are judged against the model under it
 * (conformance/cli/test_dl.sh). Its twins include this file:
 * dl_hal_rate_unclaimed.c, the same without the claim (the default
 * fixtures fail it), and dl_hal_rate_false.c, the claim over the default
 * reading (caught). */
#include "dl_model_knob.h"

#define EXPORT __attribute__((visibility("default")))

#ifndef HAL_RATE_READING
#define HAL_RATE_READING "power-of-two"   /* what it does */
#endif
#ifndef HAL_RATE_CLAIM
#define HAL_RATE_CLAIM "reading:K-HAL-RATE=power-of-two",   /* what it says it does */
#endif

static ntprof_impl table;

/* The model with its own knob set to the reading it implements, ahead of
 * the vector's settings (a vector giving the knob has its own way). */
static void *rate_open(const ntprof_system_spec *spec, const char **why)
{
	return dl_open_model_with(spec, why, "K-HAL-RATE", HAL_RATE_READING);
}

static const char *const claims[] = {
	"NtSetIntervalProfile", "NtQueryIntervalProfile", "NtCreateProfile", "NtCreateProfileEx",
	"NtStartProfile", "NtStopProfile", "NtSetSystemInformation", "NtQuerySystemInformation",
	"TraceSetInformation", "TraceQueryInformation", HAL_RATE_CLAIM NULL,
};

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.abi = 2;
	table.name = "dl-hal-rate";
	table.open = rate_open;
	table.implements = claims;
	table.emulates = NULL;
	return &table;
}
