/* SPDX-License-Identifier: MIT */
/* SPEC.md §KS (profile sources) and §HL (the simulated HAL).
 *
 * HAL behaviour is observed through the calls that reach it, as a user of the
 * API would: NtSetIntervalProfile then NtQueryIntervalProfile (SI-4, QI-5),
 * plus the HAL table the machine exposes in ntprof/machine.h. */
#include "np_test.h"
#include "np_model_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/names.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define RW_PAGE 0x10000u
#define POISON  0xCCCCCCCCu

/* HL-2: the per-source limits SPEC.md gives. */
#define TIME_DEFAULT 39063u
#define TIME_MIN     1221u
#define TIME_MAX     10000000u
#define PMC_DEFAULT  0x10000u
#define PMC_MIN      0x1000u
#define PMC_MAX      0x7FFFFFFFu

/* HL-1: supported sources per interface. */
static const uint32_t emon_listed[] = { 0x00, 0x02, 0x06, 0x0A, 0x0B, 0x13 };
static const uint32_t amd64_listed[] = { 0x00, 0x02, 0x06, 0x08, 0x09, 0x0B, 0x0D, 0x14, 0x15 };

/* ---- fixtures ---- */

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	return !np_mem_map(m, RW_PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC);
}

static int boot(void **state, np_ver v, np_arch a, np_hal_kind hal)
{
	np_machine *m = machine_new_with(v, a, &hal, lay_out);
	/* the privilege is held so that 6.2+ sets pass SI-1: these tests are about the HAL */
	if (m)
		m->profile_privilege = true;
	return setup_with(state, m);
}

static int setup_default(void **state) { return boot(state, NP_V1507, NP_X64, NP_HAL_DEFAULT); }
static int setup_emon(void **state) { return boot(state, NP_V1507, NP_X64, NP_HAL_EMON); }
static int setup_amd64(void **state) { return boot(state, NP_V1507, NP_X64, NP_HAL_AMD64); }
static int setup_x86_emon(void **state) { return boot(state, NP_V6_2, NP_X86, NP_HAL_EMON); }

/* ---- helpers ---- */

static void set_ok(np_machine *m, uint32_t interval, uint32_t source)
{
	np_result r = np_nt_set_interval_profile(m, interval, source);
	assert_int_equal(r.kind, NP_RESULT_STATUS);
	assert_int_equal(r.code, NP_STATUS_SUCCESS);
}

/* NtQueryIntervalProfile into a poisoned cell; returns what was written. */
static uint32_t query_ok(np_machine *m, uint32_t source)
{
	uint32_t v = POISON;
	assert_true(np_mem_write(m, RW_PAGE, &v, sizeof v));
	np_result r = np_nt_query_interval_profile(m, source, RW_PAGE);
	assert_int_equal(r.kind, NP_RESULT_STATUS);
	assert_int_equal(r.code, NP_STATUS_SUCCESS);
	assert_true(np_mem_read(m, RW_PAGE, &v, sizeof v));
	return v;
}

static bool listed_in(const uint32_t *list, size_t n, uint32_t s)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == s)
			return true;
	return false;
}

static void reboot(np_machine *m, np_ver v, np_arch a)
{
	np_machine_fini(m);
	assert_null(np_machine_init(m, v, a));
}

/* ---- KS-1 ---- */

/* KS-1: the public names 0x00..0x18, ProfileTime .. ProfileMaximum. */
/* rules: KS-1 */
static void test_source_names_public_range(void **state)
{
	(void)state;
	static const char *const names[] = {
		"ProfileTime", "ProfileAlignmentFixup", "ProfileTotalIssues",
		"ProfilePipelineDry", "ProfileLoadInstructions", "ProfilePipelineFrozen",
		"ProfileBranchInstructions", "ProfileTotalNonissues", "ProfileDcacheMisses",
		"ProfileIcacheMisses", "ProfileCacheMisses", "ProfileBranchMispredictions",
		"ProfileStoreInstructions", "ProfileFpInstructions", "ProfileIntegerInstructions",
		"Profile2Issue", "Profile3Issue", "Profile4Issue", "ProfileSpecialInstructions",
		"ProfileTotalCycles", "ProfileIcacheIssues", "ProfileDcacheAccesses",
		"ProfileMemoryBarrierCycles", "ProfileLoadLinkedIssues", "ProfileMaximum",
	};
	assert_int_equal(sizeof names / sizeof *names, NP_PROFILE_MAXIMUM + 1);
	for (uint32_t s = 0; s <= NP_PROFILE_MAXIMUM; s++) {
		assert_non_null(np_source_name(s));
		assert_string_equal(np_source_name(s), names[s]);
		uint32_t back = POISON;
		assert_true(np_source_parse(names[s], &back));
		assert_int_equal(back, s);
	}
	assert_int_equal(NP_PROFILE_TIME, 0x00);
	assert_int_equal(NP_PROFILE_ALIGNMENT_FIXUP, 0x01);
	assert_int_equal(NP_PROFILE_MAXIMUM, 0x18);
}

/* KS-1, KS-2: nothing past ProfileMaximum has a public name. */
/* rules: KS-1 KS-2 */
static void test_source_names_end_at_maximum(void **state)
{
	(void)state;
	assert_null(np_source_name(0x19));
	assert_null(np_source_name(0xBF));
	assert_null(np_source_name(0xFFFFFFFFu));
}

/* KS-1: any 32-bit value may be named by number; wider values may not. */
/* rules: KS-1 */
static void test_source_parse_any_32bit_value(void **state)
{
	(void)state;
	uint32_t s = 0;
	assert_true(np_source_parse("0", &s));
	assert_int_equal(s, 0x00);
	assert_true(np_source_parse("0x19", &s));
	assert_int_equal(s, 0x19);
	assert_true(np_source_parse("0xFFFFFFFF", &s));
	assert_int_equal(s, 0xFFFFFFFFu);
	assert_true(np_source_parse("4294967295", &s));
	assert_int_equal(s, 0xFFFFFFFFu);
	assert_true(np_source_parse("9", &s));          /* the digits' ends: 0 above, 9 here */
	assert_int_equal(s, 9);
	s = POISON;
	assert_false(np_source_parse(":", &s));         /* the characters around the digits */
	assert_false(np_source_parse("/", &s));
	assert_false(np_source_parse("0x100000000", &s));
	assert_false(np_source_parse("Time", &s));
	assert_false(np_source_parse("profiletime", &s));
	assert_false(np_source_parse("", &s));
	assert_int_equal(s, POISON);
}

/* KS-1 (SI-2, QI-5): the calls accept every 32-bit source value. */
/* rules: KS-1 SI-2 QI-5 */
static void test_source_any_value_accepted_by_calls(void **state)
{
	np_machine *m = *state;
	static const uint32_t sources[] = { 0x00, 0x01, 0x18, 0x19, 0xFF, 0x100, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
		set_ok(m, 5000, sources[i]);
		(void)query_ok(m, sources[i]);
	}
}

/* ---- KS-2 ---- */

/* KS-2: 0x19 and up depend on the HAL: none on the Default interface. */
/* rules: KS-2 */
static void test_source_processor_specific_default_hal(void **state)
{
	np_machine *m = *state;
	for (uint32_t s = 0x19; s < NP_HAL_SOURCES; s++)
		assert_false(m->hal.source[s].supported);
	set_ok(m, 0x2000, 0x19);
	assert_int_equal(query_ok(m, 0x19), 0);
}

/* KS-2: the Emon interface defines 0x19..0x1F, not 0x20. */
/* rules: KS-2 */
static void test_source_processor_specific_emon(void **state)
{
	np_machine *m = *state;
	assert_int_equal(query_ok(m, 0x19), PMC_DEFAULT);
	assert_int_equal(query_ok(m, 0x1F), PMC_DEFAULT);
	assert_int_equal(query_ok(m, 0x20), 0);
	assert_int_equal(query_ok(m, 0xFFFFFFFFu), 0);
}

/* KS-2: the Amd64 interface defines 0x19..0xBF, not 0xC0. */
/* rules: KS-2 */
static void test_source_processor_specific_amd64(void **state)
{
	np_machine *m = *state;
	assert_int_equal(query_ok(m, 0x18), 0);
	assert_int_equal(query_ok(m, 0x19), PMC_DEFAULT);
	assert_int_equal(query_ok(m, 0xBF), PMC_DEFAULT);
	assert_int_equal(query_ok(m, 0xC0), 0);
	assert_int_equal(query_ok(m, 0xFF), 0);
	assert_int_equal(query_ok(m, 0x119), 0);
	assert_int_equal(query_ok(m, 0xFFFFFFFFu), 0);
}

/* ---- KS-3 ---- */

static void assert_kinds(np_machine *m, np_ver v, np_arch a, bool amd64, bool emon)
{
	reboot(m, v, a);
	assert_true(np_hal_kind_exists(v, a, NP_HAL_DEFAULT));
	assert_int_equal(np_hal_kind_exists(v, a, NP_HAL_AMD64), amd64);
	assert_int_equal(np_hal_kind_exists(v, a, NP_HAL_EMON), emon);
	assert_null(np_machine_set_hal(m, NP_HAL_DEFAULT));
	assert_int_equal(np_machine_set_hal(m, NP_HAL_AMD64) == NULL, amd64);
	assert_int_equal(np_machine_set_hal(m, NP_HAL_EMON) == NULL, emon);
}

/* KS-3: x86 offers only ProfileTime on 5.2 and 5.2sp1 alike. */
/* rules: KS-3 */
static void test_hal_kind_x86_5_2_vs_5_2sp1(void **state)
{
	np_machine *m = *state;
	assert_kinds(m, NP_V5_2, NP_X86, false, false);
	assert_kinds(m, NP_V5_2SP1, NP_X86, false, false);
}

/* KS-3: x86 gains Amd64 and Emon at 6.2, not before (6.0, 6.1). */
/* rules: KS-3 */
static void test_hal_kind_x86_6_0_6_1_vs_6_2(void **state)
{
	np_machine *m = *state;
	assert_kinds(m, NP_V3_10, NP_X86, false, false);
	assert_kinds(m, NP_V6_0, NP_X86, false, false);
	assert_kinds(m, NP_V6_1, NP_X86, false, false);
	assert_kinds(m, NP_V6_2, NP_X86, true, true);
	assert_kinds(m, NP_V22H2, NP_X86, true, true);
}

/* KS-3: 64-bit kernels: Amd64 from 5.2sp1, Emon from 6.0. */
/* rules: KS-3 */
static void test_hal_kind_x64_5_2sp1_vs_6_0(void **state)
{
	np_machine *m = *state;
	assert_kinds(m, NP_V5_2SP1, NP_X64, true, false);
	assert_kinds(m, NP_V6_0, NP_X64, true, true);
	assert_kinds(m, NP_V11_24H2, NP_X64, true, true);
}

/* KS-3: a WOW64 caller has the 64-bit kernel's HAL. */
/* rules: KS-3 */
static void test_hal_kind_wow64_5_2sp1_vs_6_0(void **state)
{
	np_machine *m = *state;
	assert_kinds(m, NP_V5_2SP1, NP_WOW64, true, false);
	assert_kinds(m, NP_V6_0, NP_WOW64, true, true);
	assert_kinds(m, NP_V11_24H2, NP_WOW64, true, true);
}

/* KS-3: a refused HAL kind changes nothing (fail-twin of set_hal). */
/* rules: KS-3 */
static void test_hal_kind_refused_leaves_hal_alone(void **state)
{
	np_machine *m = *state;
	reboot(m, NP_V6_1, NP_X86);
	assert_null(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
	set_ok(m, 5000, 0x00);
	assert_non_null(np_machine_set_hal(m, NP_HAL_EMON));
	assert_int_equal(m->hal.kind, NP_HAL_DEFAULT);
	assert_int_equal(query_ok(m, 0x00), 5000);
	assert_int_equal(query_ok(m, 0x02), 0);
}

/* ---- KS-4 ---- */

/* KS-4: ProfileTime is in 100 ns units (39063 = 3.9063 ms, 1221 = 122.1 us;
 * 10000 = 1 ms is kept as given); PMC sources count events (0x10000). */
/* rules: KS-4 */
static void test_source_units_time_vs_events(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->hal.source[0x00].def, TIME_DEFAULT);
	assert_int_equal(m->hal.source[0x00].min, TIME_MIN);
	assert_int_equal(m->hal.source[0x13].def, PMC_DEFAULT);
	set_ok(m, 10000, 0x00);
	assert_int_equal(query_ok(m, 0x00), 10000);
	set_ok(m, 10000, 0x13);
	assert_int_equal(query_ok(m, 0x13), 10000);
}

/* ---- HL-1 ---- */

/* HL-1: the Default interface supports ProfileTime only, described "Time". */
/* rules: HL-1 */
static void test_hal_default_supports_time_only(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->hal.kind, NP_HAL_DEFAULT);
	for (uint32_t s = 0; s < NP_HAL_SOURCES; s++)
		assert_int_equal(m->hal.source[s].supported, s == 0x00);
	assert_string_equal(m->hal.source[0x00].description, "Time");
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
	assert_int_equal(query_ok(m, 0x02), 0);
}

/* HL-1: Emon: 0x00,0x02,0x06,0x0A,0x0B,0x13 and 0x19..0x1F, nothing else. */
/* rules: HL-1 */
static void test_hal_emon_supported_sources(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->hal.kind, NP_HAL_EMON);
	for (uint32_t s = 0; s < NP_HAL_SOURCES; s++) {
		bool want = listed_in(emon_listed, sizeof emon_listed / sizeof *emon_listed, s) ||
			    (s >= 0x19 && s <= 0x1F);
		if (m->hal.source[s].supported != want)
			fail_msg("Emon source 0x%02X: supported=%d, want %d", s,
				 m->hal.source[s].supported, want);
		assert_int_equal(query_ok(m, s), want ? (s ? PMC_DEFAULT : TIME_DEFAULT) : 0);
	}
}

/* HL-1: the same Emon set on a 32-bit 6.2 kernel. */
/* rules: HL-1 */
static void test_hal_emon_supported_sources_x86(void **state)
{
	np_machine *m = *state;
	for (uint32_t s = 0; s < NP_HAL_SOURCES; s++) {
		bool want = listed_in(emon_listed, sizeof emon_listed / sizeof *emon_listed, s) ||
			    (s >= 0x19 && s <= 0x1F);
		assert_int_equal(m->hal.source[s].supported, want);
	}
}

/* HL-1: Amd64: 0x00,0x02,0x06,0x08,0x09,0x0B,0x0D,0x14,0x15 and 0x19..0xBF. */
/* rules: HL-1 */
static void test_hal_amd64_supported_sources(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->hal.kind, NP_HAL_AMD64);
	for (uint32_t s = 0; s < NP_HAL_SOURCES; s++) {
		bool want = listed_in(amd64_listed, sizeof amd64_listed / sizeof *amd64_listed, s) ||
			    (s >= 0x19 && s <= 0xBF);
		if (m->hal.source[s].supported != want)
			fail_msg("Amd64 source 0x%02X: supported=%d, want %d", s,
				 m->hal.source[s].supported, want);
	}
}

/* HL-1: ProfileAlignmentFixup is never a HAL source, whatever the interface. */
/* rules: HL-1 */
static void test_hal_alignment_fixup_never_supported(void **state)
{
	np_machine *m = *state;
	static const np_hal_kind kinds[] = { NP_HAL_DEFAULT, NP_HAL_EMON, NP_HAL_AMD64 };
	for (size_t i = 0; i < 3; i++) {
		assert_null(np_machine_set_hal(m, kinds[i]));
		assert_false(m->hal.source[NP_PROFILE_ALIGNMENT_FIXUP].supported);
	}
}

/* HL-1: descriptions are the KPROFILE_SOURCE name less "Profile"; Emon's
 * 0x19..0x1F carry their GC-HWPERF names; Amd64's 0x19..0xBF carry none. */
/* rules: HL-1 */
static void test_hal_descriptions(void **state)
{
	np_machine *m = *state;
	static const char *const emon_specific[] = {
		"UnhaltedCoreCycles", "InstructionRetired", "UnhaltedReferenceCycles",
		"LLCReference", "LLCMisses", "BranchInstructionRetired", "BranchMispredictsRetired",
	};
	assert_null(np_machine_set_hal(m, NP_HAL_EMON));
	for (uint32_t s = 0; s <= NP_PROFILE_MAXIMUM; s++) {
		if (!m->hal.source[s].supported)
			continue;
		assert_non_null(m->hal.source[s].description);
		assert_string_equal(m->hal.source[s].description, np_source_name(s) + 7);
	}
	for (uint32_t s = 0x19; s <= 0x1F; s++)
		assert_string_equal(m->hal.source[s].description, emon_specific[s - 0x19]);
	assert_null(np_machine_set_hal(m, NP_HAL_AMD64));
	for (uint32_t s = 0; s <= NP_PROFILE_MAXIMUM; s++)
		if (m->hal.source[s].supported)
			assert_string_equal(m->hal.source[s].description, np_source_name(s) + 7);
	for (uint32_t s = 0x19; s <= 0xBF; s++)
		assert_null(m->hal.source[s].description);
}

/* HL-1: the HAL kind names. */
/* rules: HL-1 */
static void test_hal_kind_names(void **state)
{
	(void)state;
	np_hal_kind k = NP_HAL_DEFAULT;
	assert_string_equal(np_hal_kind_name(NP_HAL_DEFAULT), "default");
	assert_string_equal(np_hal_kind_name(NP_HAL_EMON), "emon");
	assert_string_equal(np_hal_kind_name(NP_HAL_AMD64), "amd64");
	assert_string_equal(np_hal_kind_name((np_hal_kind)(NP_HAL_AMD64 + 1)), "?");  /* just past */
	assert_true(np_hal_kind_parse("Amd64", &k));
	assert_int_equal(k, NP_HAL_AMD64);
	assert_false(np_hal_kind_parse("intel", &k));
	assert_int_equal(k, NP_HAL_AMD64);
}

/* ---- HL-2 ---- */

/* HL-2: ProfileTime default 39063, min 1221, max 10,000,000; every
 * processor starts at the default. */
/* rules: HL-2 */
static void test_hal_time_limits(void **state)
{
	np_machine *m = *state;
	const np_hal_source *t = &m->hal.source[0x00];
	assert_int_equal(t->def, TIME_DEFAULT);
	assert_int_equal(t->min, TIME_MIN);
	assert_int_equal(t->max, TIME_MAX);
	for (unsigned c = 0; c < NP_MAX_CPUS; c++)
		assert_int_equal(np_hal_interval_on(m, 0x00, c), TIME_DEFAULT);
}

/* HL-2: PMC sources default 0x10000, min 0x1000, max 0x7FFFFFFF, on every
 * processor, for both PMC interfaces. */
/* rules: HL-2 */
static void test_hal_pmc_limits(void **state)
{
	np_machine *m = *state;
	static const np_hal_kind kinds[] = { NP_HAL_EMON, NP_HAL_AMD64 };
	for (size_t k = 0; k < 2; k++) {
		assert_null(np_machine_set_hal(m, kinds[k]));
		assert_int_equal(m->hal.source[0x00].def, TIME_DEFAULT);
		for (uint32_t s = 1; s < NP_HAL_SOURCES; s++) {
			const np_hal_source *p = &m->hal.source[s];
			if (!p->supported)
				continue;
			assert_int_equal(p->def, PMC_DEFAULT);
			assert_int_equal(p->min, PMC_MIN);
			assert_int_equal(p->max, PMC_MAX);
			for (unsigned c = 0; c < NP_MAX_CPUS; c++)
				assert_int_equal(np_hal_interval_on(m, s, c), PMC_DEFAULT);
		}
	}
}

/* HL-2 (K-HAL-CLAMP=clamp): the limits are machine parameters: a lowered
 * maximum is what clamping uses. */
/* rules: HL-2 */
static void test_hal_limits_configurable(void **state)
{
	np_machine *m = *state;
	m->hal.source[0x00].max = 50000;
	m->hal.source[0x00].min = 2000;
	set_ok(m, 60000, 0x00);
	assert_int_equal(query_ok(m, 0x00), 50000);
	set_ok(m, 1999, 0x00);
	assert_int_equal(query_ok(m, 0x00), 2000);
	set_ok(m, 50000, 0x00);
	assert_int_equal(query_ok(m, 0x00), 50000);
}

/* ---- HL-3 ---- */

/* HL-3: setting an unsupported source does nothing: its entry and every
 * other source stay as they were. */
/* rules: HL-3 */
static void test_hal_set_unsupported_source_does_nothing(void **state)
{
	np_machine *m = *state;
	np_hal before;
	memcpy(&before, &m->hal, sizeof before);
	set_ok(m, 5000, 0x02);
	set_ok(m, 5000, 0x20);
	set_ok(m, 5000, 0xC0);
	set_ok(m, 5000, 0xFFFFFFFFu);
	assert_memory_equal(&before, &m->hal, sizeof before);
	assert_int_equal(query_ok(m, 0x02), 0);
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
}

/* HL-3: on the Emon interface, 0x20 (just past its set) is ignored too,
 * while 0x1F (the last supported) is applied (fail-twin). */
/* rules: HL-3 */
static void test_hal_set_emon_edge_sources(void **state)
{
	np_machine *m = *state;
	set_ok(m, 0x2000, 0x20);
	assert_false(m->hal.source[0x20].supported);
	assert_int_equal(np_hal_interval_on(m, 0x20, 0), 0);
	assert_int_equal(query_ok(m, 0x20), 0);
	set_ok(m, 0x2000, 0x1F);
	assert_int_equal(query_ok(m, 0x1F), 0x2000);
}

/* ---- HL-4 ---- */

typedef struct { uint32_t given, applied; } case_t;

static void run_cases(np_machine *m, uint32_t source, const case_t *c, size_t n, uint32_t start)
{
	for (size_t i = 0; i < n; i++) {
		set_ok(m, start, source);
		set_ok(m, c[i].given, source);
		uint32_t got = query_ok(m, source);
		if (got != c[i].applied)
			fail_msg("source 0x%X: set 0x%X, query 0x%X, want 0x%X", source,
				 c[i].given, got, c[i].applied);
	}
}

/* HL-4 K-HAL-CLAMP=clamp (default): ProfileTime at and around its limits. */
/* rules: HL-4 */
static void test_hal_clamp_time(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = {
		{ TIME_MIN - 1, TIME_MIN }, { TIME_MIN, TIME_MIN }, { TIME_MIN + 1, TIME_MIN + 1 },
		{ TIME_MAX - 1, TIME_MAX - 1 }, { TIME_MAX, TIME_MAX }, { TIME_MAX + 1, TIME_MAX },
		{ 0, TIME_MIN }, { 0xFFFFFFFFu, TIME_MAX },
	};
	assert_int_equal(m->knobs.hal_clamp, NP_HAL_CLAMP);
	run_cases(m, 0x00, c, sizeof c / sizeof *c, 5000);
}

/* HL-4 K-HAL-CLAMP=clamp (default): a PMC source at and around its limits. */
/* rules: HL-4 */
static void test_hal_clamp_pmc(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = {
		{ PMC_MIN - 1, PMC_MIN }, { PMC_MIN, PMC_MIN }, { PMC_MAX, PMC_MAX },
		{ PMC_MAX + 1, PMC_MAX }, { 0, PMC_MIN }, { 0xFFFFFFFFu, PMC_MAX },
	};
	run_cases(m, 0x02, c, sizeof c / sizeof *c, 0x5000);
	run_cases(m, 0x19, c, sizeof c / sizeof *c, 0x5000);
}

/* HL-4 K-HAL-CLAMP=ignore: out of range keeps the old value; in range applies. */
/* rules: HL-4 */
static void test_hal_ignore_time(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = {
		{ TIME_MIN - 1, 5000 }, { TIME_MIN, TIME_MIN }, { TIME_MAX, TIME_MAX },
		{ TIME_MAX + 1, 5000 }, { 0, 5000 }, { 0xFFFFFFFFu, 5000 },
	};
	m->knobs.hal_clamp = NP_HAL_IGNORE;
	run_cases(m, 0x00, c, sizeof c / sizeof *c, 5000);
}

/* HL-4 K-HAL-CLAMP=ignore on a PMC source; the first out-of-range set on a
 * fresh machine keeps the default. */
/* rules: HL-4 */
static void test_hal_ignore_pmc(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = {
		{ PMC_MIN - 1, 0x5000 }, { PMC_MIN, PMC_MIN }, { PMC_MAX, PMC_MAX },
		{ PMC_MAX + 1, 0x5000 }, { 0, 0x5000 }, { 0xFFFFFFFFu, 0x5000 },
	};
	m->knobs.hal_clamp = NP_HAL_IGNORE;
	set_ok(m, 0, 0x13);
	assert_int_equal(query_ok(m, 0x13), PMC_DEFAULT);
	run_cases(m, 0x13, c, sizeof c / sizeof *c, 0x5000);
}

/* HL-4 K-HAL-CLAMP=store: every value is stored as given. */
/* rules: HL-4 */
static void test_hal_store_time(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = {
		{ TIME_MIN - 1, TIME_MIN - 1 }, { TIME_MIN, TIME_MIN }, { TIME_MAX, TIME_MAX },
		{ TIME_MAX + 1, TIME_MAX + 1 }, { 0, 0 }, { 0xFFFFFFFFu, 0xFFFFFFFFu },
	};
	m->knobs.hal_clamp = NP_HAL_STORE;
	run_cases(m, 0x00, c, sizeof c / sizeof *c, 5000);
}

/* HL-4 K-HAL-CLAMP=store on a PMC source. */
/* rules: HL-4 */
static void test_hal_store_pmc(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = {
		{ PMC_MIN - 1, PMC_MIN - 1 }, { PMC_MIN, PMC_MIN }, { PMC_MAX, PMC_MAX },
		{ PMC_MAX + 1, PMC_MAX + 1 }, { 0, 0 }, { 0xFFFFFFFFu, 0xFFFFFFFFu },
	};
	m->knobs.hal_clamp = NP_HAL_STORE;
	run_cases(m, 0x0A, c, sizeof c / sizeof *c, 0x5000);
}

/* HL-4 (HL-3): no knob value makes an unsupported source store anything. */
/* rules: HL-4 HL-3 */
static void test_hal_store_unsupported_still_ignored(void **state)
{
	np_machine *m = *state;
	m->knobs.hal_clamp = NP_HAL_STORE;
	set_ok(m, 0x1234, 0x02);
	assert_int_equal(query_ok(m, 0x02), 0);
	assert_int_equal(np_hal_interval_on(m, 0x02, 0), 0);
}

/* ---- HL-5 ---- */

/* HL-5: the query answers for the processor the caller runs on. */
/* rules: HL-5 */
static void test_hal_query_answers_for_current_cpu(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 4));
	np_hal_put_interval(m, 0x00, 2, 4321);  /* processor 2 alone differs */
	m->current_cpu = 2;
	assert_int_equal(query_ok(m, 0x00), 4321);
	m->current_cpu = 1;
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
	m->current_cpu = 3;
	assert_int_equal(query_ok(m, 0x00), TIME_DEFAULT);
}

/* HL-5 (QI-5): the supported flag decides: unsupported reads as 0 on every
 * processor, whatever its table entry holds. */
/* rules: HL-5 QI-5 */
static void test_hal_query_unsupported_reads_zero(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_set_cpus(m, 2));
	np_hal_put_interval(m, 0x02, 1, 777);  /* stale value behind supported=false */
	m->current_cpu = 1;
	assert_int_equal(query_ok(m, 0x02), 0);
	m->hal.source[0x02].supported = true;
	assert_int_equal(query_ok(m, 0x02), 777);
}

/* HL-3, HL-5, KS-2: the table's last source (0xFF) is set and queried like
 * any other once the HAL supports it (no HAL of HL-1 does); 0x100 has no
 * entry: the set is ignored and the query reads 0 (QI-5). */
/* rules: HL-3 HL-5 KS-2 QI-5 */
static void test_hal_last_source_of_table(void **state)
{
	np_machine *m = *state;
	np_hal_source *last = &m->hal.source[NP_HAL_SOURCES - 1];
	last->supported = true;
	last->min = PMC_MIN;
	last->max = PMC_MAX;
	assert_int_equal(np_nt_set_interval_profile(m, 0x2345, NP_HAL_SOURCES - 1).code, NP_STATUS_SUCCESS);
	assert_int_equal(np_hal_interval_on(m, NP_HAL_SOURCES - 1, 0), 0x2345);
	uint32_t v = POISON;
	assert_int_equal(np_nt_query_interval_profile(m, NP_HAL_SOURCES - 1, RW_PAGE).code, NP_STATUS_SUCCESS);
	assert_true(np_mem_read(m, RW_PAGE, &v, sizeof v));
	assert_int_equal(v, 0x2345);
	assert_int_equal(np_nt_set_interval_profile(m, 0x2345, NP_HAL_SOURCES).code, NP_STATUS_SUCCESS);
	assert_int_equal(np_nt_query_interval_profile(m, NP_HAL_SOURCES, RW_PAGE).code, NP_STATUS_SUCCESS);
	assert_true(np_mem_read(m, RW_PAGE, &v, sizeof v));
	assert_int_equal(v, 0);
}

/* KS-1, KS-2: ProfileMaximum (0x18) is the last public value; 0x19 is the
 * first processor-specific one, as the call's record of rules says. */
/* rules: KS-1 KS-2 */
static void test_source_kind_recorded_at_maximum(void **state)
{
	np_machine *m = *state;
	static const struct { uint32_t source; np_rule is, not; } c[] = {
		{ NP_PROFILE_MAXIMUM, NP_RULE(KS_1), NP_RULE(KS_2) },
		{ NP_PROFILE_MAXIMUM + 1, NP_RULE(KS_2), NP_RULE(KS_1) },
	};
	for (unsigned i = 0; i < sizeof c / sizeof *c; i++) {
		set_ok(m, 5000, c[i].source);
		assert_true(applied(m, c[i].is));
		assert_false(applied(m, c[i].not));
	}
}

/* HL-4 K-HAL-RATE=exact (default): an x86 kernel's HAL keeps an in-range
 * ProfileTime interval as given. */
/* rules: HL-4 */
static void test_hal_rate_exact_keeps_interval(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = { { 5000, 5000 }, { 3000, 3000 }, { 20000, 20000 }, { TIME_MIN, TIME_MIN } };
	assert_int_equal(m->knobs.hal_rate, NP_HAL_RATE_EXACT);
	run_cases(m, 0x00, c, sizeof c / sizeof *c, 39063);
}

/* HL-4 K-HAL-RATE=power-of-two: the nearest period of 2 to 8192 Hz, the
 * longer on a tie (3662 lies halfway between 2441 and 4883), after the
 * clamp; another source is kept as given. */
/* rules: HL-4 HL-2 */
static void test_hal_rate_power_of_two_x86(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = {
		{ 5000, 4883 }, { 3000, 2441 }, { 20000, 19531 }, { 39063, 39063 }, { 39000, 39063 },
		{ TIME_MIN, TIME_MIN }, { TIME_MIN - 1, TIME_MIN }, { 3661, 2441 }, { 3662, 4883 },
		{ TIME_MAX, 5000000 }, { 0xFFFFFFFFu, 5000000 }, { 2600000, 2500000 },
	};
	static const case_t pmc[] = { { 0x5001, 0x5001 } };
	m->knobs.hal_rate = NP_HAL_RATE_POWER_OF_TWO;
	run_cases(m, 0x00, c, sizeof c / sizeof *c, 39063);
	run_cases(m, 0x02, pmc, 1, 0x5000);
}

/* HL-4 K-HAL-RATE=power-of-two rounds what lies in [min, max], limits
 * included, as the machine has them: a lowered minimum is rounded to the
 * nearest period, and with K-HAL-CLAMP=store a value outside is kept. */
/* rules: HL-4 HL-2 */
static void test_hal_rate_power_of_two_in_range_only(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = { { 1000, 1221 }, { 999, 999 }, { 10000001, 10000001 } };
	m->knobs.hal_rate = NP_HAL_RATE_POWER_OF_TWO;
	m->knobs.hal_clamp = NP_HAL_STORE;
	m->hal.source[0].min = 1000;
	run_cases(m, 0x00, c, sizeof c / sizeof *c, 39063);
}

/* HL-4 K-HAL-RATE=power-of-two reaches only a 32-bit kernel's HAL. */
/* rules: HL-4 */
static void test_hal_rate_power_of_two_not_x64(void **state)
{
	np_machine *m = *state;
	static const case_t c[] = { { 5000, 5000 } };
	m->knobs.hal_rate = NP_HAL_RATE_POWER_OF_TWO;
	run_cases(m, 0x00, c, 1, 39063);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, teardown)
static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_source_names_public_range),
	cmocka_unit_test(test_source_names_end_at_maximum),
	cmocka_unit_test(test_source_parse_any_32bit_value),
	T(test_source_any_value_accepted_by_calls, setup_amd64),
	T(test_hal_last_source_of_table, setup_default),
	T(test_source_kind_recorded_at_maximum, setup_default),
	T(test_source_processor_specific_default_hal, setup_default),
	T(test_source_processor_specific_emon, setup_emon),
	T(test_source_processor_specific_amd64, setup_amd64),
	T(test_hal_kind_x86_5_2_vs_5_2sp1, setup_blank),
	T(test_hal_kind_x86_6_0_6_1_vs_6_2, setup_blank),
	T(test_hal_kind_x64_5_2sp1_vs_6_0, setup_blank),
	T(test_hal_kind_wow64_5_2sp1_vs_6_0, setup_blank),
	T(test_hal_kind_refused_leaves_hal_alone, setup_blank),
	T(test_source_units_time_vs_events, setup_emon),
	T(test_hal_default_supports_time_only, setup_default),
	T(test_hal_emon_supported_sources, setup_emon),
	T(test_hal_emon_supported_sources_x86, setup_x86_emon),
	T(test_hal_amd64_supported_sources, setup_amd64),
	T(test_hal_alignment_fixup_never_supported, setup_default),
	T(test_hal_descriptions, setup_default),
	cmocka_unit_test(test_hal_kind_names),
	T(test_hal_time_limits, setup_default),
	T(test_hal_pmc_limits, setup_default),
	T(test_hal_limits_configurable, setup_default),
	T(test_hal_set_unsupported_source_does_nothing, setup_default),
	T(test_hal_set_emon_edge_sources, setup_emon),
	T(test_hal_clamp_time, setup_default),
	T(test_hal_clamp_pmc, setup_amd64),
	T(test_hal_ignore_time, setup_default),
	T(test_hal_ignore_pmc, setup_emon),
	T(test_hal_store_time, setup_default),
	T(test_hal_store_pmc, setup_emon),
	T(test_hal_store_unsupported_still_ignored, setup_default),
	T(test_hal_query_answers_for_current_cpu, setup_default),
	T(test_hal_query_unsupported_reads_zero, setup_default),
	T(test_hal_rate_exact_keeps_interval, setup_x86_emon),
	T(test_hal_rate_power_of_two_x86, setup_x86_emon),
	T(test_hal_rate_power_of_two_not_x64, setup_default),
	T(test_hal_rate_power_of_two_in_range_only, setup_x86_emon),
};
#undef T

NP_TEST_MAIN(tests)
