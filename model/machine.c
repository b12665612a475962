/* SPDX-License-Identifier: MIT */
/* Machine defaults (MC-1, MC-2) and the model's failure path. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* LCOV_EXCL_START: runs only when the model contradicts itself, which no
 * test can provoke without breaking the model first. */
_Noreturn void np_model_bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "ntprof: model bug at %s:%d: %s\n", file, line, what);
	abort();
}
/* LCOV_EXCL_STOP */

/* MC-1: a fresh machine is a user-mode, medium-integrity caller without the
 * privilege, one active processor, the Default HAL, tracing off, no errata
 * need, knobs at their documented defaults, nothing mapped. */
np_config_error np_machine_init(np_machine *m, np_ver v, np_arch a)
{
	/* all but the tables behind a mask (np_machine.profile on) */
	memset(m, 0, offsetof(np_machine, profile));
	if ((unsigned)v >= NP_VERSION_COUNT || (unsigned)a >= NP_ARCH_COUNT)
		return "no such version or architecture";
	if (!np_arch_exists(v, a))
		return a == NP_X86 ? "Windows 11 has no x86 edition (VR-3)"
				   : "x64 and WOW64 exist from 5.2sp1 (VR-3)";
	m->version = v;
	m->arch = a;
	m->cpus = 1;
	m->groups = 1;
	m->previous_mode = NP_MODE_USER;
	m->integrity = NP_INTEGRITY_MEDIUM;
	m->tracing = NP_TRACING_OFF;
	NP_APPLY(m, VR_1);
	NP_APPLY(m, VR_2);   /* the version, as a key or a build names it (np_version_parse) */
	NP_APPLY(m, VR_3);
	NP_APPLY(m, MC_1);
	m->knobs = (np_knobs){
		/* each knob's DEFAULT in ntprof/knobs.h */
#define NP_KNOB_VALUE(enumerator, spelling)
#define NP_KNOB(name, field, rule, def, values) .field = def,
#define NP_VERSION_KNOB(name, field, rule, def, spelling) .field = def,
#define NP_RANGE_KNOB(name, field, rule, low, high, spelling) .field##_lo = low, .field##_hi = high,
#include "ntprof/knobs.h"
	};
	/* SY-16: every processor is an Intel processor with PEBS and no
	 * control area (memset) */
	for (unsigned c = 0; c < NP_MAX_CPUS; c++)
		np_cpu_set_pebs(&m->cpu[c], true);
	np_hal_init_default(m);
	return NULL;
}

void np_machine_fini(np_machine *m)
{
	for (unsigned i = 0; i < m->mem.count; i++)
		np_region_free(&m->mem.region[i]);
	m->mem.count = 0;
}

/* MC-2: processors are active from 0 to cpus-1; the caller stays on one. */
np_config_error np_machine_set_cpus(np_machine *m, unsigned cpus)
{
	if (cpus < 1 || cpus > NP_MAX_CPUS)
		return "cpus must be 1 to 64 (one processor group)";
	if (m->arch == NP_X86 && cpus > 32)   /* a 32-bit KAFFINITY names 32 processors */
		return "a 32-bit kernel has at most 32 processors (cpus 1 to 32)";
	NP_APPLY(m, MC_2);   /* only on a change made: a refusal leaves the machine as it was */
	m->cpus = cpus;
	if (m->current_cpu >= cpus)
		m->current_cpu = 0;
	/* a processor that becomes active takes the interval its peers have;
	 * an inactive one is never read (SI-4 sets and queries on the caller's
	 * processor, an active one), so only the active ones are written */
	uint64_t joining = np_active_mask(m) & ~1ull;
	/* indexed, not through a pointer to the element: a bound one too far is
	 * then an index UBSan reports, not a write into the next field */
	for (unsigned s = 0; s < NP_HAL_SOURCES; s++) {
		if (!(m->hal.source[s].apart & 1)) {   /* processor 0 has the shared one */
			m->hal.source[s].apart &= ~joining;
			continue;
		}
		for (unsigned c = 1; c < cpus; c++)
			m->hal_interval_apart[s][c] = m->hal_interval_apart[s][0];
		m->hal.source[s].apart |= joining;
	}
	return NULL;
}

/* MC-4: groups exist on 64-bit kernels from 6.1 (one group otherwise);
 * every group has the same active processors; the caller stays in group 0
 * unless told otherwise. */
np_config_error np_machine_set_groups(np_machine *m, unsigned groups)
{
	if (groups < 1 || groups > NP_MAX_GROUPS)
		return "groups must be 1 to 20";
	if (groups > 1 && !np_has_processor_groups(m->version, m->arch))
		return "processor groups exist on x64 from 6.1 (MC-4)";
	if (groups > NP_MAX_GROUPS_6_1 && !np_has_twenty_groups(m->version))
		return "a 6.1 kernel has at most 4 processor groups (MC-4)";
	NP_APPLY(m, MC_4);
	m->groups = groups;
	if (m->current_group >= groups)
		m->current_group = 0;
	return NULL;
}

/* MC-6: an injected failure is used up by the first allocation after it. */
/* SY-15: between calls the scheduler may move the thread to any active
 * processor; a call itself runs on one (MC-2). */
np_config_error np_machine_move_thread(np_machine *m, unsigned cpu)
{
	if (cpu >= m->cpus)
		return "the thread can only move to an active processor (cpu < cpus)";
	m->current_cpu = cpu;
	return NULL;
}

/* SY-16: PEBS on is the state SY-11 accepts on any kernel; off sets
 * IA32_MISC_ENABLE bit 12 (PEBS unavailable) and leaves the rest. */
void np_cpu_set_pebs(np_cpu *c, bool on)
{
	if (on) {
		c->vendor = NP_VENDOR_INTEL;
		c->misc_enable = (c->misc_enable | NP_MISC_ENABLE_PERFMON_AVAILABLE) &
				 ~NP_MISC_ENABLE_PEBS_UNAVAILABLE;
		c->cpuid1_ecx |= NP_CPUID1_ECX_DTES64;
	} else {
		c->misc_enable |= NP_MISC_ENABLE_PEBS_UNAVAILABLE;
	}
}

bool np_allocate(np_machine *m)
{
	if (m->alloc_failures == 0)
		return true;
	NP_APPLY(m, MC_6);
	m->alloc_failures--;
	return false;
}

void np_emit_event(np_machine *m, np_event e)
{
	if (m->event_count < NP_MAX_EVENTS)
		m->event[m->event_count++] = e;
	else
		m->events_lost++;
}
