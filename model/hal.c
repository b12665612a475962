/* SPDX-License-Identifier: MIT */
/* The simulated HAL: which sources each profile interface supports (HL-1),
 * their limits (HL-2), and what set and query do (HL-3..HL-5). */
#include <string.h>

#include "internal.h"

/* HL-2: machine parameters, not Windows rules. ProfileTime's default and
 * minimum are the Vista x64 observations of GC-DEMO; PMC defaults and
 * minimum are GC-DEMO's too. No source states a maximum: these are the
 * model's choice, configurable per machine (given hal.S.max=N). */
#define TIME_DEFAULT 39063u     /* 0x9897, about 3.9 ms in 100 ns units */
#define TIME_MIN     1221u      /* 0x4C5, about 122 us */
#define TIME_MAX     10000000u  /* 1 s: model choice */
#define PMC_DEFAULT  0x10000u
#define PMC_MIN      0x1000u
#define PMC_MAX      0x7FFFFFFFu /* model choice */

typedef struct { uint32_t source; const char *description; } listed;

/* HL-1 (KS-2, KS-3): the sources each interface supports on the 1507 HAL,
 * with the HAL's description (the KPROFILE_SOURCE name less "Profile"). */
static const listed emon_sources[] = {
	{ 0x02, "TotalIssues" }, { 0x06, "BranchInstructions" }, { 0x0A, "CacheMisses" },
	{ 0x0B, "BranchMispredictions" }, { 0x13, "TotalCycles" },
	{ 0x19, "UnhaltedCoreCycles" }, { 0x1A, "InstructionRetired" },
	{ 0x1B, "UnhaltedReferenceCycles" }, { 0x1C, "LLCReference" }, { 0x1D, "LLCMisses" },
	{ 0x1E, "BranchInstructionRetired" }, { 0x1F, "BranchMispredictsRetired" },
};
static const listed amd64_sources[] = {
	{ 0x02, "TotalIssues" }, { 0x06, "BranchInstructions" }, { 0x08, "DcacheMisses" },
	{ 0x09, "IcacheMisses" }, { 0x0B, "BranchMispredictions" }, { 0x0D, "FpInstructions" },
	{ 0x14, "IcacheIssues" }, { 0x15, "DcacheAccesses" },
};
/* HL-1: the Amd64 interface also has processor-specific sources 0x19..0xBF. Their
 * 167 names are on GC-HWPERF; the model does not carry them (description NULL,
 * shown as "Source0xNN"). */
#define AMD64_SPECIFIC_FIRST 0x19u
#define AMD64_SPECIFIC_LAST  0xBFu

static void support(np_hal_source *s, uint32_t def, uint32_t min, uint32_t max, const char *d)
{
	s->supported = true;
	s->def = def;
	s->min = min;
	s->max = max;
	s->description = d;
	s->interval = def;   /* every processor's (SI-4): apart is 0 */
}

static void support_list(np_hal *h, const listed *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		support(&h->source[l[i].source], PMC_DEFAULT, PMC_MIN, PMC_MAX, l[i].description);
}

/* The table of a HAL of this kind, written into one all zero. */
static void fill(np_hal *h, np_hal_kind kind)
{
	h->kind = kind;
	/* HL-1: every interface supports ProfileTime; ProfileAlignmentFixup is never a HAL source. */
	support(&h->source[NP_PROFILE_TIME], TIME_DEFAULT, TIME_MIN, TIME_MAX, "Time");
	if (kind == NP_HAL_EMON)
		support_list(h, emon_sources, sizeof emon_sources / sizeof *emon_sources);
	if (kind == NP_HAL_AMD64) {
		support_list(h, amd64_sources, sizeof amd64_sources / sizeof *amd64_sources);
		for (uint32_t s = AMD64_SPECIFIC_FIRST; s <= AMD64_SPECIFIC_LAST; s++)
			support(&h->source[s], PMC_DEFAULT, PMC_MIN, PMC_MAX, NULL);
	}
}

np_config_error np_machine_set_hal(np_machine *m, np_hal_kind kind)
{
	if (!np_hal_kind_exists(m->version, m->arch, kind))
		return "that HAL profile interface does not exist on this version and architecture (KS-3)";
	NP_APPLY(m, KS_3);
	NP_APPLY(m, HL_1);
	NP_APPLY(m, HL_2);
	memset(&m->hal, 0, sizeof m->hal);
	fill(&m->hal, kind);
	return NULL;
}

/* HL-4, K-HAL-RATE=power-of-two: the period, in 100 ns, of the rate of
 * 2 to 8192 Hz (the RTC's periodic rates) nearest the interval asked, the
 * longer one on a tie. */
static uint32_t power_of_two_period(uint32_t interval)
{
	uint32_t best = 5000000;                 /* 2 Hz */
	for (uint32_t hz = 4; hz <= 8192; hz *= 2) {
		uint32_t period = (10000000u + hz / 2) / hz;
		uint32_t d = period > interval ? period - interval : interval - period;
		uint32_t bd = best > interval ? best - interval : interval - best;
		if (d < bd)
			best = period;
	}
	return best;
}

/* A fresh machine's table is already zero: clearing it again, most of the
 * machine, was a large part of opening one (perf: memset). */
void np_hal_init_default(np_machine *m)
{
	NP_APPLY(m, KS_3);
	NP_APPLY(m, HL_1);
	NP_APPLY(m, HL_2);
	fill(&m->hal, NP_HAL_DEFAULT);   /* every version has it (KS-3) */
}

/* HL-3: HalSetSystemInformation(HalProfileSourceInterval) on one processor.
 * An unsupported source is ignored; an out-of-range interval is handled as
 * K-HAL-CLAMP says (HL-4). */
void np_hal_set_interval(np_machine *m, unsigned cpu, uint32_t source, uint32_t interval)
{
	NP_APPLY_R(m, source <= NP_PROFILE_MAXIMUM ? NP_RULE(KS_1) : NP_RULE(KS_2));
	NP_APPLY(m, HL_3);
	if (source >= NP_HAL_SOURCES || !m->hal.source[source].supported)
		return;
	np_hal_source *s = &m->hal.source[source];
	if (interval < s->min || interval > s->max) {
		NP_APPLY(m, HL_4);
		switch (m->knobs.hal_clamp) {
		case NP_HAL_CLAMP:
			interval = interval < s->min ? s->min : s->max;
			break;
		case NP_HAL_IGNORE:
			return;
		case NP_HAL_STORE:
			break;
		}
	}
	if (source == NP_PROFILE_TIME && np_kernel_is_32bit(m->arch) &&          /* K-HAL-RATE */
	    m->knobs.hal_rate == NP_HAL_RATE_POWER_OF_TWO && interval >= s->min && interval <= s->max)
		interval = power_of_two_period(interval);
	np_hal_put_interval(m, source, cpu, interval);
}

/* SI-4: a processor's entry is its own once written; until then the
 * source's shared one stands for it (np_machine.hal_interval_apart). */
void np_hal_put_interval(np_machine *m, uint32_t source, unsigned cpu, uint32_t interval)
{
	m->hal_interval_apart[source][cpu] = interval;
	m->hal.source[source].apart |= 1ull << cpu;
}

uint32_t np_hal_interval_on(const np_machine *m, uint32_t source, unsigned cpu)
{
	const np_hal_source *s = &m->hal.source[source];
	return s->apart >> cpu & 1 ? m->hal_interval_apart[source][cpu] : s->interval;
}

/* HL-5: HalQuerySystemInformation(HalProfileSourceInformation) answers for
 * the processor it runs on: Supported, and the interval that was applied. */
bool np_hal_query_interval(const np_machine *m, unsigned cpu, uint32_t source, uint32_t *interval)
{
	if (source >= NP_HAL_SOURCES || !m->hal.source[source].supported)
		return false;
	*interval = np_hal_interval_on(m, source, cpu);
	return true;
}
