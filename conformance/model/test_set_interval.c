/* SPDX-License-Identifier: MIT */
/* SPEC.md §SI: NtSetIntervalProfile(Interval, ProfileSource).
 *
 * What a set did is read back the way a caller would, with
 * NtQueryIntervalProfile (QI-4, QI-5), and through the traced events (SI-6). */
#include "np_model_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define RW_PAGE 0x10000u
#define POISON  0xCCCCCCCCu

#define TIME_DEFAULT 39063u
#define TIME_MIN     1221u
#define TIME_MAX     10000000u
#define PMC_DEFAULT  0x10000u
#define PMC_MIN      0x1000u
#define PMC_MAX      0x7FFFFFFFu

/* ---- fixtures: MC-1 defaults (no privilege, user mode) plus one page ---- */

/* This program's address space (np_layout). */
static bool lay_out(np_machine *m)
{
	return !(np_mem_map(m, RW_PAGE, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0xCC));
}

static int boot(void **state, np_ver v, np_arch a, np_hal_kind hal)
{
	np_machine *m = machine_new_with(v, a, &hal, lay_out);
	return setup_with(state, m);
}

#define SETUP(name, v, a, hal) \
	static int setup_##name(void **state) { return boot(state, v, a, hal); }
SETUP(x86_3_10, NP_V3_10, NP_X86, NP_HAL_DEFAULT)
SETUP(x86_3_50, NP_V3_50, NP_X86, NP_HAL_DEFAULT)
SETUP(x86_3_51, NP_V3_51, NP_X86, NP_HAL_DEFAULT)
SETUP(x86_6_1, NP_V6_1, NP_X86, NP_HAL_DEFAULT)
SETUP(x86_6_2, NP_V6_2, NP_X86, NP_HAL_EMON)
SETUP(x64_6_1, NP_V6_1, NP_X64, NP_HAL_EMON)
SETUP(x64_6_2, NP_V6_2, NP_X64, NP_HAL_EMON)
SETUP(wow64_6_1, NP_V6_1, NP_WOW64, NP_HAL_AMD64)
SETUP(wow64_6_2, NP_V6_2, NP_WOW64, NP_HAL_AMD64)
SETUP(x64_1507, NP_V1507, NP_X64, NP_HAL_EMON)
SETUP(x64_11_24h2, NP_V11_24H2, NP_X64, NP_HAL_AMD64)
#undef SETUP

/* ---- helpers ---- */

static void set_ok(np_machine *m, uint32_t interval, uint32_t source)
{
	assert_status(np_nt_set_interval_profile(m, interval, source), NP_STATUS_SUCCESS);
}

/* What NtQueryIntervalProfile reports (from a poisoned cell). */
static uint32_t query(np_machine *m, uint32_t source)
{
	uint32_t v = POISON;
	assert_true(np_mem_write(m, RW_PAGE, &v, sizeof v));
	assert_status(np_nt_query_interval_profile(m, source, RW_PAGE), NP_STATUS_SUCCESS);
	assert_true(np_mem_read(m, RW_PAGE, &v, sizeof v));
	return v;
}

static void assert_event(const np_machine *m, unsigned i, uint32_t source, uint32_t old,
			 uint32_t new_interval)
{
	assert_true(i < m->event_count);
	assert_int_equal(m->event[i].hook, NP_HOOK_SAMPLED_PROFILE_SET_INTERVAL);
	assert_int_equal(m->event[i].hook, 0x0F48);
	assert_int_equal(m->event[i].source, source);
	assert_int_equal(m->event[i].old_interval, old);
	assert_int_equal(m->event[i].new_interval, new_interval);
}

/* ---- SI-0 ---- */

static void assert_no_source_argument(np_machine *m)
{
	assert_false(np_has_source_argument(m->version));
	set_ok(m, 20000, NP_PROFILE_TIME);
	assert_int_equal(query(m, NP_PROFILE_TIME), 20000);
	static const uint32_t other[] = { 0x01, 0x02, 0x18, 0x19, 0xFFFFFFFFu };
	for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
		np_result r = np_nt_set_interval_profile(m, 30000, other[i]);
		assert_int_equal(r.kind, NP_RESULT_NOT_APPLICABLE);
		assert_non_null(r.why);
	}
	/* nothing changed by the refused vectors */
	assert_int_equal(m->alignment_fixup_interval, 0);
	assert_int_equal(query(m, NP_PROFILE_TIME), 20000);
}

/* SI-0: 3.10 has only the Interval argument; ProfileTime is implied. */
/* rules: SI-0 */
static void test_set_interval_3_10_profile_time_only(void **state)
{
	assert_no_source_argument(*state);
}

/* SI-0: 3.50 likewise. */
/* rules: SI-0 */
static void test_set_interval_3_50_profile_time_only(void **state)
{
	assert_no_source_argument(*state);
}

/* SI-0: from 3.51 the source argument exists: AlignmentFixup can be set. */
/* rules: SI-0 */
static void test_set_interval_3_51_takes_source(void **state)
{
	np_machine *m = *state;
	assert_true(np_has_source_argument(m->version));
	set_ok(m, 7, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(query(m, NP_PROFILE_ALIGNMENT_FIXUP), 7);
	set_ok(m, 20000, NP_PROFILE_TIME);
	assert_int_equal(query(m, NP_PROFILE_TIME), 20000);
}

/* SI-0: the function exists in every version and architecture: never
 * "not exported", whatever the caller. */
/* rules: SI-0 */
static void test_set_interval_exported_everywhere(void **state)
{
	np_machine *m = *state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			if (!np_arch_exists((np_ver)v, (np_arch)a))
				continue;
			assert_null(np_machine_init(m, (np_ver)v, (np_arch)a));
			np_result r = np_nt_set_interval_profile(m, 20000, NP_PROFILE_TIME);
			assert_int_equal(r.kind, NP_RESULT_STATUS);
			assert_int_not_equal(r.kind, NP_RESULT_NOT_EXPORTED);
			np_machine_fini(m);
		}
	}
}

/* SI-0: NTDLL exports both spellings in every version, 3.10 included; the
 * kernel's ZwSetIntervalProfile exists from 1607; an Nt spelling in kernel
 * mode is a kernel-mode request of the service. */
/* rules: SI-0 */
static void test_set_interval_export_names(void **state)
{
	(void)state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		assert_true(np_is_exported((np_ver)v, NP_MODE_USER, "NtSetIntervalProfile"));
		assert_true(np_is_exported((np_ver)v, NP_MODE_USER, "ZwSetIntervalProfile"));
		assert_true(np_is_exported((np_ver)v, NP_MODE_KERNEL, "NtSetIntervalProfile"));
		assert_int_equal(np_is_exported((np_ver)v, NP_MODE_KERNEL, "ZwSetIntervalProfile"),
				 v >= NP_V1607);
	}
}

/* ---- SI-1 ---- */

static void assert_no_check(np_machine *m)
{
	assert_false(np_set_interval_checks_privilege(m->version));
	assert_false(m->profile_privilege);
	set_ok(m, 20000, NP_PROFILE_TIME);
	assert_int_equal(query(m, NP_PROFILE_TIME), 20000);
	set_ok(m, 9, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(query(m, NP_PROFILE_ALIGNMENT_FIXUP), 9);
}

static void assert_check(np_machine *m)
{
	assert_true(np_set_interval_checks_privilege(m->version));
	assert_false(m->profile_privilege);
	m->tracing = NP_TRACING_ON;
	static const uint32_t sources[] = { 0x00, 0x01, 0x02, 0x19, 0xFFFFFFFFu };
	np_hal before;
	memcpy(&before, &m->hal, sizeof before);
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++)
		assert_status(np_nt_set_interval_profile(m, 20000, sources[i]),
			      NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_int_equal(NP_STATUS_PRIVILEGE_NOT_HELD, 0xC0000061u);
	/* nothing changes: HAL, the kernel's AlignmentFixup variable, no event */
	assert_memory_equal(&before, &m->hal, sizeof before);
	assert_int_equal(m->alignment_fixup_interval, 0);
	assert_int_equal(m->event_count, 0);
	assert_int_equal(query(m, NP_PROFILE_TIME), TIME_DEFAULT);
	/* the privilege held: the same call passes */
	m->profile_privilege = true;
	set_ok(m, 20000, NP_PROFILE_TIME);
	assert_int_equal(query(m, NP_PROFILE_TIME), 20000);
	assert_int_equal(m->event_count, 1);
}

/* SI-1: x86 6.1, no privilege: no check. */
/* rules: SI-1 */
static void test_set_interval_x86_6_1_no_privilege_check(void **state) { assert_no_check(*state); }
/* SI-1: x86 6.2, no privilege: PRIVILEGE_NOT_HELD and nothing changes. */
/* rules: SI-1 */
static void test_set_interval_x86_6_2_privilege_not_held(void **state) { assert_check(*state); }
/* SI-1: x64 6.1: no check. */
/* rules: SI-1 */
static void test_set_interval_x64_6_1_no_privilege_check(void **state) { assert_no_check(*state); }
/* SI-1: x64 6.2: checked. */
/* rules: SI-1 */
static void test_set_interval_x64_6_2_privilege_not_held(void **state) { assert_check(*state); }
/* SI-1: WOW64 6.1: no check. */
/* rules: SI-1 */
static void test_set_interval_wow64_6_1_no_privilege_check(void **state)
{
	assert_no_check(*state);
}
/* SI-1: WOW64 6.2: checked. */
/* rules: SI-1 */
static void test_set_interval_wow64_6_2_privilege_not_held(void **state) { assert_check(*state); }
/* SI-1: still checked in the newest version. */
/* rules: SI-1 */
static void test_set_interval_11_24h2_privilege_not_held(void **state) { assert_check(*state); }

/* SI-1: the check is on the privilege, not on integrity. */
/* rules: SI-1 */
static void test_set_interval_high_integrity_without_privilege(void **state)
{
	np_machine *m = *state;
	m->integrity = NP_INTEGRITY_HIGH;
	assert_status(np_nt_set_interval_profile(m, 20000, 0x00), NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_int_equal(query(m, 0x00), TIME_DEFAULT);
}

/* SI-1: a kernel-mode caller passes without the privilege. */
/* rules: SI-1 */
static void test_set_interval_kernel_mode_passes(void **state)
{
	np_machine *m = *state;
	m->previous_mode = NP_MODE_KERNEL;
	set_ok(m, 20000, NP_PROFILE_TIME);
	set_ok(m, 11, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(query(m, NP_PROFILE_TIME), 20000);
	assert_int_equal(query(m, NP_PROFILE_ALIGNMENT_FIXUP), 11);
}

/* SI-1: the version predicate over the whole table: from 6.2 only. */
/* rules: SI-1 */
static void test_set_interval_privilege_threshold_whole_table(void **state)
{
	np_machine *m = *state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		np_arch a = np_arch_exists((np_ver)v, NP_X86) ? NP_X86 : NP_X64;
		assert_null(np_machine_init(m, (np_ver)v, a));
		np_result r = np_nt_set_interval_profile(m, 20000, NP_PROFILE_TIME);
		assert_int_equal(r.kind, NP_RESULT_STATUS);
		assert_int_equal(r.code, v >= NP_V6_2 ? NP_STATUS_PRIVILEGE_NOT_HELD
						      : NP_STATUS_SUCCESS);
		np_machine_fini(m);
	}
}

/* ---- SI-2 ---- */

/* SI-2: past the check, every source and interval succeeds. */
/* rules: SI-2 */
static void test_set_interval_always_succeeds(void **state)
{
	np_machine *m = *state;
	static const uint32_t sources[] = { 0x00, 0x01, 0x02, 0x03, 0x18, 0x19, 0x1F, 0x20,
					    0xFF, 0x100, 0xFFFFFFFFu };
	static const uint32_t intervals[] = { 0, 1, TIME_MIN - 1, TIME_MIN, TIME_MAX,
					      TIME_MAX + 1, PMC_MIN - 1, PMC_MAX, PMC_MAX + 1,
					      0xFFFFFFFFu };
	m->profile_privilege = true;
	for (size_t s = 0; s < sizeof sources / sizeof *sources; s++)
		for (size_t i = 0; i < sizeof intervals / sizeof *intervals; i++)
			set_ok(m, intervals[i], sources[s]);
}

/* SI-2: the same on 6.1 with no privilege at all, and in every HAL-clamp
 * mode (K-HAL-CLAMP does not reach the status). */
/* rules: SI-2 */
static void test_set_interval_always_succeeds_6_1_every_clamp_mode(void **state)
{
	np_machine *m = *state;
	static const np_knob_hal_clamp modes[] = { NP_HAL_CLAMP, NP_HAL_IGNORE, NP_HAL_STORE };
	for (size_t k = 0; k < 3; k++) {
		m->knobs.hal_clamp = modes[k];
		set_ok(m, 0, 0x00);
		set_ok(m, 0xFFFFFFFFu, 0x00);
		set_ok(m, 0, 0x02);
		set_ok(m, 0xFFFFFFFFu, 0xFFFFFFFFu);
	}
}

/* ---- SI-3 ---- */

/* SI-3: AlignmentFixup is kept by the kernel as given: no clamping, no HAL. */
/* rules: SI-3 */
static void test_set_interval_alignment_fixup_stored_as_given(void **state)
{
	np_machine *m = *state;
	static const uint32_t values[] = { 0, 1, TIME_MIN - 1, TIME_MAX + 1, 0x7FFFFFFFu,
					   0xFFFFFFFFu };
	np_hal before;
	m->profile_privilege = true;
	memcpy(&before, &m->hal, sizeof before);
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		set_ok(m, values[i], NP_PROFILE_ALIGNMENT_FIXUP);
		assert_int_equal(query(m, NP_PROFILE_ALIGNMENT_FIXUP), values[i]);
	}
	assert_memory_equal(&before, &m->hal, sizeof before);
}

/* SI-3 (SI-5, K-ERRATA): the errata need is ProfileTime's; AlignmentFixup
 * is stored as given even above it. */
/* rules: SI-3 SI-5 */
static void test_set_interval_alignment_fixup_ignores_errata(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->errata_interval = 2000;
	set_ok(m, 0xFFFFFFFFu, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(query(m, NP_PROFILE_ALIGNMENT_FIXUP), 0xFFFFFFFFu);
}

/* ---- SI-4 ---- */

/* SI-4: the set reaches every active processor; a query from any of them
 * reports the applied (clamped) value. */
/* rules: SI-4 */
static void test_set_interval_every_active_cpu(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_null(np_machine_set_cpus(m, 4));
	set_ok(m, 0, 0x00);           /* clamped to the minimum by the HAL */
	set_ok(m, 0xFFFFFFFFu, 0x13); /* clamped to the maximum */
	for (unsigned c = 0; c < 4; c++) {
		m->current_cpu = c;
		assert_int_equal(query(m, 0x00), TIME_MIN);
		assert_int_equal(query(m, 0x13), PMC_MAX);
	}
}

/* SI-4 (SI-2): the HAL's answer is ignored: an unsupported source still
 * succeeds, and a later query reports 0 for it. */
/* rules: SI-4 SI-2 */
static void test_set_interval_hal_response_ignored(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	set_ok(m, 0x5000, 0x03);  /* not an Emon source */
	assert_int_equal(query(m, 0x03), 0);
	set_ok(m, 0x5000, 0x20);
	assert_int_equal(query(m, 0x20), 0);
}

/* ---- SI-5 ---- */

/* SI-5 K-ERRATA=0 (default): no need, a large ProfileTime interval is kept. */
/* rules: SI-5 */
static void test_set_interval_errata_none(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_int_equal(m->errata_interval, 0);
	set_ok(m, 5000000, 0x00);
	assert_int_equal(query(m, 0x00), 5000000);
	set_ok(m, TIME_MAX, 0x00);
	assert_int_equal(query(m, 0x00), TIME_MAX);
}

/* SI-5 K-ERRATA=20000: E+1 and above are replaced by E; E and below pass. */
/* rules: SI-5 */
static void test_set_interval_errata_caps_profile_time(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->errata_interval = 20000;
	set_ok(m, 20001, 0x00);
	assert_int_equal(query(m, 0x00), 20000);
	set_ok(m, 0xFFFFFFFFu, 0x00);
	assert_int_equal(query(m, 0x00), 20000);
	set_ok(m, 20000, 0x00);
	assert_int_equal(query(m, 0x00), 20000);
	set_ok(m, 19999, 0x00);
	assert_int_equal(query(m, 0x00), 19999);
	set_ok(m, 0, 0x00);                       /* errata only lowers; the HAL clamps */
	assert_int_equal(query(m, 0x00), TIME_MIN);
}

/* SI-5 K-ERRATA: only ProfileTime is capped, not a PMC source. */
/* rules: SI-5 */
static void test_set_interval_errata_only_profile_time(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->errata_interval = 20000;
	set_ok(m, 0x100000, 0x02);
	assert_int_equal(query(m, 0x02), 0x100000);
}

/* SI-5 K-ERRATA (HL-4): E replaces the interval before the HAL: with E below
 * the HAL's minimum the HAL clamps E (K-HAL-CLAMP=clamp) or stores E (store). */
/* rules: SI-5 HL-4 */
static void test_set_interval_errata_before_hal(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->errata_interval = 500;
	set_ok(m, 100000, 0x00);
	assert_int_equal(query(m, 0x00), TIME_MIN);
	m->knobs.hal_clamp = NP_HAL_STORE;
	set_ok(m, 100000, 0x00);
	assert_int_equal(query(m, 0x00), 500);
}

/* ---- SI-6 ---- */

/* SI-6: traced: one 0x0F48 event per set with source, old, new. */
/* rules: SI-6 */
static void test_set_interval_traced_event(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	set_ok(m, 50000, 0x00);
	assert_int_equal(m->event_count, 1);
	assert_event(m, 0, 0x00, TIME_DEFAULT, 50000);
	set_ok(m, 0, 0x00);                       /* new = the clamped value a query reports */
	assert_int_equal(m->event_count, 2);
	assert_event(m, 1, 0x00, 50000, TIME_MIN);
	assert_int_equal(query(m, 0x00), TIME_MIN);
	set_ok(m, 0x2000, 0x13);
	assert_event(m, 2, 0x13, PMC_DEFAULT, 0x2000);
	assert_int_equal(m->event_count, 3);
}

/* SI-6, K-SET-EVENT-SAME=logged (default): a set that leaves the interval
 * as it was is logged like any other. */
/* rules: SI-6 */
static void test_set_interval_event_unchanged_logged(void **state)
{
	np_machine *m = *state;
	assert_int_equal(m->knobs.set_event_same, NP_SET_EVENT_SAME_LOGGED);
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	set_ok(m, TIME_DEFAULT, 0x00);
	assert_int_equal(m->event_count, 1);
	assert_event(m, 0, 0x00, TIME_DEFAULT, TIME_DEFAULT);
	set_ok(m, 0x5000, 0x03);                  /* unsupported: 0 before and after */
	assert_int_equal(m->event_count, 2);
	assert_event(m, 1, 0x03, 0, 0);
}

/* SI-6, K-SET-EVENT-SAME=skipped: no event when the interval read before the
 * set equals the one after it; a change is still logged, and so is a set
 * during which tracing started, whose old interval was not read (SI-7). */
/* rules: SI-6 SI-7 */
static void test_set_interval_event_unchanged_skipped(void **state)
{
	np_machine *m = *state;
	m->knobs.set_event_same = NP_SET_EVENT_SAME_SKIPPED;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	set_ok(m, TIME_DEFAULT, 0x00);
	set_ok(m, 0x5000, 0x03);
	assert_int_equal(m->event_count, 0);
	set_ok(m, 50000, 0x00);
	assert_int_equal(m->event_count, 1);
	assert_event(m, 0, 0x00, TIME_DEFAULT, 50000);
	m->tracing = NP_TRACING_LATE;
	set_ok(m, 0x5000, 0x03);
	assert_int_equal(m->event_count, 2);
	assert_event(m, 1, 0x03, 0, 0);
	assert_int_equal(m->tracing, NP_TRACING_ON);
}

/* SI-6, SI-7: the call's record says which happened: a set while tracing is
 * off applies neither; while it is on, SI-6 (the old interval read); when
 * tracing starts during the set, SI-7 (0 logged as the old one), not SI-6. */
/* rules: SI-6 SI-7 */
static void test_set_interval_tracing_recorded(void **state)
{
	np_machine *m = *state;
	static const struct { np_tracing before; bool si6, si7; } c[] = {
		{ NP_TRACING_OFF, false, false },
		{ NP_TRACING_ON, true, false },
		{ NP_TRACING_LATE, false, true },
	};
	m->profile_privilege = true;
	for (unsigned i = 0; i < sizeof c / sizeof *c; i++) {
		m->tracing = c[i].before;
		set_ok(m, 5000 + i, 0x00);
		assert_int_equal(applied(m, NP_RULE(SI_6)), c[i].si6);
		assert_int_equal(applied(m, NP_RULE(SI_7)), c[i].si7);
	}
}

/* SI-6: the event's source field is the caller's, also for AlignmentFixup,
 * unsupported and out-of-range sources. */
/* rules: SI-6 */
static void test_set_interval_traced_event_any_source(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	set_ok(m, 5, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_event(m, 0, NP_PROFILE_ALIGNMENT_FIXUP, 0, 5);
	set_ok(m, 6, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_event(m, 1, NP_PROFILE_ALIGNMENT_FIXUP, 5, 6);
	set_ok(m, 0x5000, 0x03);
	assert_event(m, 2, 0x03, 0, 0);
	set_ok(m, 0x5000, 0xFFFFFFFFu);
	assert_event(m, 3, 0xFFFFFFFFu, 0, 0);
	assert_int_equal(m->event_count, 4);
}

/* SI-6 (SI-5, K-ERRATA): the event's new value is what a query reports,
 * after the errata cap and the HAL's clamp. */
/* rules: SI-6 SI-5 */
static void test_set_interval_traced_event_after_errata(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_ON;
	m->errata_interval = 20000;
	set_ok(m, 30000, 0x00);
	assert_event(m, 0, 0x00, TIME_DEFAULT, 20000);
}

/* SI-6: not traced: no event (fail-twin). */
/* rules: SI-6 */
static void test_set_interval_untraced_no_event(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_int_equal(m->tracing, NP_TRACING_OFF);
	set_ok(m, 50000, 0x00);
	set_ok(m, 5, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(m->event_count, 0);
	assert_int_equal(m->events_lost, 0);
}

/* SI-6 (SI-1): a refused set logs nothing, even when traced. */
/* rules: SI-6 SI-1 */
static void test_set_interval_refused_set_no_event(void **state)
{
	np_machine *m = *state;
	m->tracing = NP_TRACING_ON;
	assert_status(np_nt_set_interval_profile(m, 50000, 0x00), NP_STATUS_PRIVILEGE_NOT_HELD);
	assert_int_equal(m->event_count, 0);
}

/* ---- SI-7 ---- */

/* SI-7: tracing enabled during the call: the event carries old = 0. */
/* rules: SI-7 */
static void test_set_interval_late_tracing_old_zero(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_LATE;
	set_ok(m, 50000, 0x00);
	assert_int_equal(m->event_count, 1);
	assert_event(m, 0, 0x00, 0, 50000);
	/* tracing is now on: the next set reads the old value */
	assert_int_equal(m->tracing, NP_TRACING_ON);
	set_ok(m, 60000, 0x00);
	assert_event(m, 1, 0x00, 50000, 60000);
}

/* SI-7: the same for a PMC source and for AlignmentFixup. */
/* rules: SI-7 */
static void test_set_interval_late_tracing_other_sources(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	m->tracing = NP_TRACING_LATE;
	set_ok(m, 0x3000, 0x02);
	assert_event(m, 0, 0x02, 0, 0x3000);
	set_ok(m, 77, NP_PROFILE_ALIGNMENT_FIXUP);
	m->tracing = NP_TRACING_LATE;
	set_ok(m, 78, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_event(m, 2, NP_PROFILE_ALIGNMENT_FIXUP, 0, 78);
}

/* ---- SI-8 ---- */

/* SI-8: sets of one source do not change another. */
/* rules: SI-8 */
static void test_set_interval_sources_independent(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	set_ok(m, 0x2000, 0x02);
	set_ok(m, 50000, 0x00);
	set_ok(m, 3, NP_PROFILE_ALIGNMENT_FIXUP);
	assert_int_equal(query(m, 0x02), 0x2000);
	assert_int_equal(query(m, 0x00), 50000);
	assert_int_equal(query(m, NP_PROFILE_ALIGNMENT_FIXUP), 3);
	assert_int_equal(query(m, 0x06), PMC_DEFAULT);
	assert_int_equal(query(m, 0x13), PMC_DEFAULT);
	assert_int_equal(query(m, 0x19), PMC_DEFAULT);
}

/* SI-8: system-global: the value is visible to a later query from another
 * caller (kernel mode, unprivileged, another processor). */
/* rules: SI-8 */
static void test_set_interval_visible_to_every_later_query(void **state)
{
	np_machine *m = *state;
	m->profile_privilege = true;
	assert_null(np_machine_set_cpus(m, 2));
	set_ok(m, 50000, 0x00);
	m->profile_privilege = false;
	assert_int_equal(query(m, 0x00), 50000);
	m->current_cpu = 1;
	assert_int_equal(query(m, 0x00), 50000);
	m->previous_mode = NP_MODE_KERNEL;
	assert_int_equal(query(m, 0x00), 50000);
}

/* IN-7 before SI-0: on a stopped machine nothing runs, not even the
 * refusal of a source argument 3.10 does not have (the order of the two
 * checks is pinned here; no vector can stop a 3.10 machine). */
/* rules: IN-7 SI-0 */
static void test_set_interval_3_10_halted_before_source(void **state)
{
	np_machine *m = *state;
	m->halted = true;
	m->halt_code = 0x1Eu;  /* KMODE_EXCEPTION_NOT_HANDLED */
	np_result r = np_nt_set_interval_profile(m, 5000, 0x01);
	assert_int_equal(r.kind, NP_RESULT_BUGCHECK);
	assert_int_equal(r.code, 0x1Eu);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, setup_##s, teardown)
static const struct CMUnitTest tests[] = {
	T(test_set_interval_3_10_profile_time_only, x86_3_10),
	T(test_set_interval_3_10_halted_before_source, x86_3_10),
	T(test_set_interval_3_50_profile_time_only, x86_3_50),
	T(test_set_interval_3_51_takes_source, x86_3_51),
	T(test_set_interval_export_names, blank),
	T(test_set_interval_exported_everywhere, blank),
	T(test_set_interval_x86_6_1_no_privilege_check, x86_6_1),
	T(test_set_interval_x86_6_2_privilege_not_held, x86_6_2),
	T(test_set_interval_x64_6_1_no_privilege_check, x64_6_1),
	T(test_set_interval_x64_6_2_privilege_not_held, x64_6_2),
	T(test_set_interval_wow64_6_1_no_privilege_check, wow64_6_1),
	T(test_set_interval_wow64_6_2_privilege_not_held, wow64_6_2),
	T(test_set_interval_11_24h2_privilege_not_held, x64_11_24h2),
	T(test_set_interval_high_integrity_without_privilege, x64_6_2),
	T(test_set_interval_kernel_mode_passes, x64_6_2),
	T(test_set_interval_privilege_threshold_whole_table, blank),
	T(test_set_interval_always_succeeds, x64_1507),
	T(test_set_interval_always_succeeds_6_1_every_clamp_mode, x86_6_1),
	T(test_set_interval_alignment_fixup_stored_as_given, x64_1507),
	T(test_set_interval_alignment_fixup_ignores_errata, x64_1507),
	T(test_set_interval_every_active_cpu, x64_1507),
	T(test_set_interval_hal_response_ignored, x64_1507),
	T(test_set_interval_errata_none, x64_1507),
	T(test_set_interval_errata_caps_profile_time, x64_1507),
	T(test_set_interval_errata_only_profile_time, x64_1507),
	T(test_set_interval_errata_before_hal, x64_1507),
	T(test_set_interval_event_unchanged_logged, x64_1507),
	T(test_set_interval_event_unchanged_skipped, x64_1507),
	T(test_set_interval_traced_event, x64_1507),
	T(test_set_interval_traced_event_any_source, x64_1507),
	T(test_set_interval_traced_event_after_errata, x64_1507),
	T(test_set_interval_untraced_no_event, x64_1507),
	T(test_set_interval_refused_set_no_event, x64_1507),
	T(test_set_interval_tracing_recorded, x64_1507),
	T(test_set_interval_late_tracing_old_zero, x64_1507),
	T(test_set_interval_late_tracing_other_sources, x64_1507),
	T(test_set_interval_sources_independent, x64_1507),
	T(test_set_interval_visible_to_every_later_query, x64_1507),
};
#undef T

NP_TEST_MAIN(tests)
