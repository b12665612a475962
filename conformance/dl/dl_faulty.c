/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_faulty.so`: the model with
 * four bugs of the kind a reimplementation makes. The harness must report
 * each one, vector by vector, with no vector written for it
 * (conformance/cli/test_dl.sh names the vectors that catch each bug).
 *
 *   1. Check order (CP order of checks, CP-12): the ProfileHandle pointer is
 *      probed before the arguments are validated, so a bad pointer with a bad
 *      BucketSize gives STATUS_ACCESS_VIOLATION, not STATUS_INVALID_PARAMETER.
 *   2. Old capacity formula on a new version (CP-8, CP-9): the buffer is
 *      checked with the pre-1703 formula on every version.
 *   3. Privilege not checked (SI-1): NtSetIntervalProfile lets a caller
 *      without SeSystemProfilePrivilege set the interval.
 *   4. WOW64 -1 (CP-16): a 32-bit caller's Affinity of 0xFFFFFFFF is taken
 *      as every processor instead of being zero-extended.
 *
 * It claims everything the model does (implements NULL). */
#include <string.h>

#include "run/impl_model.h"
#include "internal.h"
#include "ntprof/calls.h"
#include "ntprof/machine.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

/* Bug 2: K-FIX-1703=never is the model's own way to say "the old formula". */
static void *faulty_open(const ntprof_system_spec *spec, const char **why)
{
	ntprof_setting given[64];
	ntprof_system_spec bent = *spec;
	if (spec->ngiven + 1 > sizeof given / sizeof *given) {
		*why = "too many given settings";
		return NULL;
	}
	given[0] = (ntprof_setting){ "K-FIX-1703", "never" };
	memcpy(given + 1, spec->given, spec->ngiven * sizeof *given);
	bent.given = given;
	bent.ngiven = spec->ngiven + 1;
	return np_impl_model.open(&bent, why);
}

static int caller_can_write(np_machine *m, uint64_t addr, unsigned width)
{
	np_region *r = np_mem_find(m, addr, width);
	return addr && r && (r->prot & NP_PROT_WRITE) && !r->revoked;
}

static ntprof_result faulty_create(void *sys, const char *fn, const ntprof_create_args *a)
{
	np_machine *m = np_impl_model_machine(sys);
	ntprof_create_args bent = *a;
	unsigned width = m->arch == NP_X64 ? 8u : 4u;
	/* bug 1: the probe first */
	if (m->previous_mode == NP_MODE_USER && !caller_can_write(m, a->profile_handle, width))
		return (ntprof_result){ NTPROF_STATUS, 0xC0000005u, NULL };
	/* bug 4: the 32-bit -1 read as "every processor" rather than zero-extended */
	if (m->arch == NP_WOW64 && a->affinity == 0xFFFFFFFFull)
		bent.affinity = np_active_mask(m);
	return np_impl_model.create_profile(sys, fn, &bent);
}

/* Bug 3: the privilege is taken as held for the call. */
static ntprof_result faulty_set_interval(void *sys, const char *fn, uint32_t interval,
					 uint32_t source)
{
	np_machine *m = np_impl_model_machine(sys);
	bool held = m->profile_privilege;
	m->profile_privilege = true;
	ntprof_result r = np_impl_model.set_interval_profile(sys, fn, interval, source);
	m->profile_privilege = held;
	return r;
}

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;
	table.name = "dl-faulty";
	table.open = faulty_open;
	table.create_profile = faulty_create;
	table.set_interval_profile = faulty_set_interval;
	return &table;
}
