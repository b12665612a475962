/* SPDX-License-Identifier: MIT */
/* Configuring a machine with `given` settings (ntprof/configure.h): a
 * malformed setting against a state the machine cannot take, the knobs'
 * declared defaults (MC-1) and every value of every knob, each machine key,
 * HAL rows (HL-2), processor properties (SY-16), and the order in which
 * np_machine_configure_all applies a vector's settings. */
#include "np_test.h"

#include <string.h>

#include "np_model_fixture.h"
#include "ntprof/configure.h"

static np_machine *fresh(void **state, np_ver v, np_arch a)
{
	np_machine *m = *state;
	np_machine_fini(m);
	assert_null(np_machine_init(m, v, a));
	return m;
}

/* Applies key=value, which must be well formed, and returns the message. */
static const char *apply(np_machine *m, const char *key, const char *value)
{
	bool malformed = true;
	const char *e = np_machine_configure(m, key, value, &malformed);
	if (malformed)
		fail_msg("%s=%s: malformed: %s", key, value, e ? e : "(no message)");
	return e;
}

static void assert_malformed(np_machine *m, const char *key, const char *value, const char *want)
{
	bool malformed = false;
	np_machine before;
	memcpy(&before, m, sizeof before);
	const char *e = np_machine_configure(m, key, value, &malformed);
	if (!e || strcmp(e, want) != 0)
		fail_msg("%s=%s: got \"%s\", want \"%s\"", key, value, e ? e : "NULL", want);
	assert_true(malformed);
	assert_string_equal(np_config_check(key, value), want);
	assert_memory_equal(&before, m, sizeof before);   /* nothing applied */
}

/* Well formed, but not a state this machine can be in: the machine is left
 * as it was, and the spelling check alone finds nothing wrong. */
static void assert_impossible(np_machine *m, const char *key, const char *value, const char *want)
{
	np_machine before;
	memcpy(&before, m, sizeof before);
	const char *e = apply(m, key, value);
	if (!e || strcmp(e, want) != 0)
		fail_msg("%s=%s: got \"%s\", want \"%s\"", key, value, e ? e : "NULL", want);
	assert_null(np_config_check(key, value));
	assert_memory_equal(&before, m, sizeof before);
}

/* rules: KS-3 MC-4 */
static void test_configure_malformed_and_impossible(void **state)
{
	np_machine *m = fresh(state, NP_V5_1, NP_X86);
	assert_malformed(m, "hal", "arm", "hal takes default, emon or amd64");
	assert_malformed(m, "colour", "red", "unknown given key");
	assert_malformed(m, "cpus", "0", "cpus takes a number from 1 to 64");
	assert_malformed(m, "cpu", "64", "cpu takes a number from 0 to 63");
	assert_malformed(m, "K-NOPE", "1", "unknown knob (see SPEC.md, Knobs)");
	assert_malformed(m, "cpu5.colour", "red", "a processor property is pebs, vendor, misc_enable or cpuid1_ecx");
	assert_impossible(m, "hal", "emon", "that HAL profile interface does not exist on this version and "
			  "architecture (KS-3)");
	assert_impossible(m, "cpus", "33", "a 32-bit kernel has at most 32 processors (cpus 1 to 32)");
	assert_impossible(m, "groups", "2", "processor groups exist on x64 from 6.1 (MC-4)");
	assert_impossible(m, "cpu", "1", "the caller's processor must be active (cpu < cpus)");
	assert_impossible(m, "group", "1", "the caller's group must be active (group < groups)");
	assert_impossible(m, "cpu1.pebs", "off", "cpuN names an inactive processor (N < cpus)");
	/* the flag is optional */
	assert_string_equal(np_machine_configure(m, "hal", "arm", NULL), "hal takes default, emon or amd64");
	assert_string_equal(np_machine_configure(m, "cpu", "1", NULL),
			    "the caller's processor must be active (cpu < cpus)");
	bool malformed = true;
	assert_null(np_machine_configure(m, "cpus", "2", &malformed));
	assert_false(malformed);
	assert_null(np_machine_configure(m, "cpu1.pebs", "off", NULL));
}

/* MC-1: a fresh machine holds every knob at the default its entry declares. */
/* rules: MC-1 */
static void test_configure_knob_defaults_are_the_declared_ones(void **state)
{
	unsigned n = 0;
	const np_knob_info *k = np_knob_table(&n);
	assert_true(n >= 28);
	for (np_ver v = 0; v < NP_VERSION_COUNT; v++) {
		np_machine *m = fresh(state, v, np_arch_exists(v, NP_X86) ? NP_X86 : NP_X64);
		for (unsigned i = 0; i < n; i++) {
			assert_true(k[i].def < NP_KNOB_MAX_VALUES);
			assert_non_null(k[i].values[k[i].def]);
			if (np_knob_value(m, i) != (int)k[i].def)
				fail_msg("%s on %s: %d, not its default %s", k[i].name, np_version_key(v),
					 np_knob_value(m, i), k[i].values[k[i].def]);
		}
	}
	np_machine *m = *state;
	assert_int_equal(m->knobs.hal_clamp, NP_HAL_CLAMP);
	assert_int_equal(m->knobs.zero_on_start, NP_ZERO_ON_START_NO);
	assert_int_equal(m->knobs.fixed_capacity_from, NP_V1703);
	assert_int_equal(m->knobs.inclusive_lo, NP_V6_2);
	assert_int_equal(m->knobs.inclusive_hi, NP_V1803);
	assert_int_equal(np_knob_value(m, n), -1);   /* no such knob */
}

/* Every knob's every value applies, and reads back as the same index. */
static void test_configure_every_knob_value_reads_back(void **state)
{
	unsigned n = 0;
	const np_knob_info *k = np_knob_table(&n);
	np_machine *m = fresh(state, NP_V1809, NP_X64);
	for (unsigned i = 0; i < n; i++) {
		assert_true(strncmp(k[i].name, "K-", 2) == 0);
		assert_non_null(k[i].rule);
		unsigned count = 0;
		for (unsigned v = 0; v < NP_KNOB_MAX_VALUES && k[i].values[v]; v++, count++) {
			assert_null(apply(m, k[i].name, k[i].values[v]));
			if (np_knob_value(m, i) != (int)v)
				fail_msg("%s=%s reads back as %d", k[i].name, k[i].values[v], np_knob_value(m, i));
		}
		assert_true(count >= 2);
		assert_malformed(m, k[i].name, "no-such-value", strncmp(k[i].name, "K-FIX", 5) == 0
				 ? "K-FIX-1703 takes a version key or never"
				 : strcmp(k[i].name, "K-PPCA-WIDE-FROM") == 0
				 ? "K-PPCA-WIDE-FROM takes a version key or never"
				 : strcmp(k[i].name, "K-SANDBOX-CHECK") == 0
				 ? "K-SANDBOX-CHECK takes a version key or never"
				 : strcmp(k[i].name, "K-INCLUSIVE-END") == 0
				 ? "K-INCLUSIVE-END takes a version range (6.2..1803) or never"
				 : "not a value of that knob (see SPEC.md, Knobs)");
	}
	/* the spellings name the enumerators the model tests */
	assert_null(apply(m, "K-HAL-CLAMP", "store"));
	assert_int_equal(m->knobs.hal_clamp, NP_HAL_STORE);
	assert_null(apply(m, "K-OOB-POLICY", "ignore"));
	assert_int_equal(m->knobs.oob, NP_OOB_IGNORE);
	assert_null(apply(m, "K-LOCK-FAIL", "working-set-quota"));
	assert_int_equal(m->knobs.lock_fail, NP_LOCK_FAIL_QUOTA);
	assert_null(apply(m, "K-ZERO-ON-START", "yes"));
	assert_int_equal(m->knobs.zero_on_start, NP_ZERO_ON_START_YES);
	assert_null(apply(m, "K-PPCA-LENGTH-STATUS", "invalid-parameter"));
	assert_int_equal(m->knobs.ppca_length_status, NP_PPCA_INVALID_PARAMETER);
}

/* CP-22: `sandboxed` and K-SANDBOX-CHECK set what restricted_caller reads;
 * off and the default version are a fresh machine's. */
/* rules: CP-22 */
static void test_configure_sandboxed(void **state)
{
	np_machine *m = fresh(state, NP_V1809, NP_X64);
	assert_false(m->sandboxed);
	assert_int_equal(m->knobs.sandbox_check, NP_V1507);
	assert_null(apply(m, "sandboxed", "on"));
	assert_true(m->sandboxed);
	assert_null(apply(m, "sandboxed", "off"));
	assert_false(m->sandboxed);
	assert_malformed(m, "sandboxed", "yes", "sandboxed takes on or off");
	assert_null(apply(m, "K-SANDBOX-CHECK", "1809"));
	assert_int_equal(m->knobs.sandbox_check, NP_V1809);
	assert_null(apply(m, "K-SANDBOX-CHECK", "never"));
	assert_int_equal(m->knobs.sandbox_check, NP_VERSION_COUNT);
}

/* K-FIX-1703 takes any version key, K-INCLUSIVE-END any range; never is
 * NP_VERSION_COUNT for the one and an empty range for the other. */
static void test_configure_version_knobs(void **state)
{
	unsigned n = 0, fix = 0, end = 0;
	const np_knob_info *k = np_knob_table(&n);
	for (unsigned i = 0; i < n; i++) {
		fix = strcmp(k[i].name, "K-FIX-1703") == 0 ? i : fix;
		end = strcmp(k[i].name, "K-INCLUSIVE-END") == 0 ? i : end;
	}
	np_machine *m = fresh(state, NP_V1809, NP_X64);
	assert_null(apply(m, "K-FIX-1703", "1709"));
	assert_int_equal(m->knobs.fixed_capacity_from, NP_V1709);
	assert_int_equal(np_knob_value(m, fix), -1);
	assert_null(apply(m, "K-FIX-1703", "never"));
	assert_int_equal(m->knobs.fixed_capacity_from, NP_VERSION_COUNT);
	assert_int_equal(np_knob_value(m, fix), 1);
	assert_null(apply(m, "K-FIX-1703", "10.0.15063"));
	assert_int_equal(np_knob_value(m, fix), 0);
	/* K-PPCA-WIDE-FROM: 2004 by default, any version key or never */
	assert_int_equal(m->knobs.ppca_wide_from, NP_V2004);
	assert_null(apply(m, "K-PPCA-WIDE-FROM", "1903"));
	assert_int_equal(m->knobs.ppca_wide_from, NP_V1903);
	assert_null(apply(m, "K-PPCA-WIDE-FROM", "never"));
	assert_int_equal(m->knobs.ppca_wide_from, NP_VERSION_COUNT);
	assert_null(apply(m, "K-INCLUSIVE-END", "6.2..1709"));
	assert_int_equal(m->knobs.inclusive_lo, NP_V6_2);
	assert_int_equal(m->knobs.inclusive_hi, NP_V1709);
	assert_int_equal(np_knob_value(m, end), -1);
	assert_null(apply(m, "K-INCLUSIVE-END", "5.0..1803"));
	assert_int_equal(np_knob_value(m, end), -1);
	assert_null(apply(m, "K-INCLUSIVE-END", "1809"));      /* one version: lo == hi, not never */
	assert_int_equal(np_knob_value(m, end), -1);
	assert_null(apply(m, "K-INCLUSIVE-END", "never"));
	assert_true(m->knobs.inclusive_lo > m->knobs.inclusive_hi);
	assert_int_equal(np_knob_value(m, end), 1);
	assert_null(apply(m, "K-INCLUSIVE-END", "all"));
	assert_int_equal(m->knobs.inclusive_lo, NP_V3_10);
	assert_int_equal(m->knobs.inclusive_hi, NP_V11_25H2);
	assert_null(apply(m, "K-INCLUSIVE-END", ">=6.2"));
	assert_null(apply(m, "K-INCLUSIVE-END", "<=1803"));
	assert_int_equal(m->knobs.inclusive_lo, NP_V3_10);
	assert_null(apply(m, "K-INCLUSIVE-END", "6.2..1803"));
	assert_int_equal(np_knob_value(m, end), 0);
	assert_malformed(m, "K-INCLUSIVE-END", "1809..6.2", "K-INCLUSIVE-END takes a version range (6.2..1803) or never");
	assert_malformed(m, "K-FIX-1703", "1703..1809", "K-FIX-1703 takes a version key or never");
}

/* The machine's own keys, each to a value other than its default. */
static void test_configure_machine_keys(void **state)
{
	np_machine *m = fresh(state, NP_V6_1, NP_X64);
	assert_null(apply(m, "privilege", "on"));
	assert_true(m->profile_privilege);
	assert_null(apply(m, "privilege", "off"));
	assert_false(m->profile_privilege);
	assert_null(apply(m, "tracing", "late"));
	assert_int_equal(m->tracing, NP_TRACING_LATE);
	assert_null(apply(m, "tracing", "on"));
	assert_int_equal(m->tracing, NP_TRACING_ON);
	assert_null(apply(m, "mode", "kernel"));
	assert_int_equal(m->previous_mode, NP_MODE_KERNEL);
	assert_null(apply(m, "integrity", "high"));
	assert_int_equal(m->integrity, NP_INTEGRITY_HIGH);
	assert_null(apply(m, "integrity", "low"));
	assert_int_equal(m->integrity, NP_INTEGRITY_LOW);
	assert_null(apply(m, "alloc", "fail"));
	assert_int_equal(m->alloc_failures, 1);
	assert_null(apply(m, "alloc", "ok"));
	assert_int_equal(m->alloc_failures, 0);
	assert_null(apply(m, "K-ERRATA", "0x10000"));
	assert_int_equal(m->errata_interval, 0x10000);
	assert_null(apply(m, "started-elsewhere", "4294967295"));
	assert_int_equal(m->started_elsewhere, 0xFFFFFFFFu);
	assert_null(apply(m, "cpus", "64"));
	assert_int_equal(m->cpus, 64);
	assert_null(apply(m, "cpu", "63"));
	assert_int_equal(m->current_cpu, 63);
	assert_null(apply(m, "groups", "4"));
	assert_int_equal(m->groups, 4);
	assert_null(apply(m, "group", "3"));
	assert_int_equal(m->current_group, 3);
	assert_null(apply(m, "hal", "AMD64"));   /* HAL kinds in any case */
	assert_int_equal(m->hal.kind, NP_HAL_AMD64);
	assert_malformed(m, "K-ERRATA", "0x100000000", "K-ERRATA takes a 32-bit interval (0 = none)");
	assert_malformed(m, "started-elsewhere", "-1", "started-elsewhere takes a number of profiles");
	assert_malformed(m, "groups", "21", "groups takes a number from 1 to 20");
	assert_malformed(m, "group", "20", "group takes a number from 0 to 19");
	assert_malformed(m, "tracing", "On", "tracing takes on, off or late");
	assert_malformed(m, "mode", "system", "mode takes user or kernel");
	assert_malformed(m, "integrity", "system", "integrity takes low, medium or high");
	assert_malformed(m, "alloc", "maybe", "alloc takes fail or ok");
}

/* HL-2: a row of the simulated HAL, by source name or number. */
/* rules: HL-2 */
static void test_configure_hal_rows(void **state)
{
	np_machine *m = fresh(state, NP_V1809, NP_X64);
	assert_null(apply(m, "cpus", "2"));
	assert_null(apply(m, "hal.ProfileTime.min", "100"));
	assert_null(apply(m, "hal.0.max", "0x200"));
	assert_null(apply(m, "hal.ProfileTime.default", "150"));
	assert_int_equal(m->hal.source[0].min, 100);
	assert_int_equal(m->hal.source[0].max, 0x200);
	assert_int_equal(m->hal.source[0].def, 150);
	assert_int_equal(np_hal_interval_on(m, 0, 0), 150);
	assert_int_equal(np_hal_interval_on(m, 0, NP_MAX_CPUS - 1), 150);
	assert_null(apply(m, "hal.ProfileTime.supported", "off"));
	assert_false(m->hal.source[0].supported);
	assert_null(apply(m, "hal.0xFF.supported", "on"));
	assert_true(m->hal.source[0xFF].supported);
	assert_null(apply(m, "hal.010.supported", "on"));   /* decimal: source 10 */
	assert_true(m->hal.source[10].supported);
	assert_false(m->hal.source[8].supported);
	assert_malformed(m, "hal.ProfileTime", "1", "expected hal.SOURCE.FIELD=VALUE");
	assert_malformed(m, "hal.ProfileTimeProfileTimeProfileTimeProfileTimeProf.min", "1",
			 "expected hal.SOURCE.FIELD=VALUE");
	assert_malformed(m, "hal.0x100.min", "1", "hal.SOURCE needs a source name or a number below 0x100");
	assert_malformed(m, "hal.Time.min", "1", "hal.SOURCE needs a source name or a number below 0x100");
	assert_malformed(m, "hal.ProfileTime.supported", "yes", "hal.SOURCE.supported takes on or off");
	assert_malformed(m, "hal.ProfileTime.min", "0x100000000", "hal.SOURCE.min/max/default take a 32-bit number");
	assert_null(apply(m, "hal.ProfileTime.max", "0xFFFFFFFF"));   /* the largest 32-bit number is one */
	assert_int_equal(m->hal.source[0].max, 0xFFFFFFFFu);
	assert_malformed(m, "hal.ProfileTime.colour", "x", "hal.SOURCE.min/max/default take a 32-bit number");
	assert_malformed(m, "hal.ProfileTime.colour", "1", "hal.SOURCE.FIELD: FIELD is supported, min, max or default");
}

/* SY-16: a property of every processor, or of one active processor. */
/* rules: SY-16 */
static void test_configure_processor_properties(void **state)
{
	np_machine *m = fresh(state, NP_V1809, NP_X64);
	assert_null(apply(m, "cpus", "4"));
	assert_null(apply(m, "vendor", "amd"));
	for (unsigned c = 0; c < NP_MAX_CPUS; c++)
		assert_int_equal(m->cpu[c].vendor, NP_VENDOR_AMD);
	assert_null(apply(m, "cpu3.vendor", "other"));
	assert_int_equal(m->cpu[3].vendor, NP_VENDOR_OTHER);
	assert_int_equal(m->cpu[2].vendor, NP_VENDOR_AMD);
	assert_null(apply(m, "cpu00.vendor", "intel"));   /* decimal, leading zero */
	assert_int_equal(m->cpu[0].vendor, NP_VENDOR_INTEL);
	assert_null(apply(m, "misc_enable", "0xFFFFFFFFFFFFFFFF"));
	assert_true(m->cpu[NP_MAX_CPUS - 1].misc_enable == UINT64_MAX);
	assert_null(apply(m, "cpu1.misc_enable", "0"));
	assert_true(m->cpu[1].misc_enable == 0);
	assert_null(apply(m, "cpuid1_ecx", "0xFFFFFFFF"));
	assert_int_equal(m->cpu[5].cpuid1_ecx, 0xFFFFFFFFu);
	assert_null(apply(m, "cpu2.cpuid1_ecx", "4"));
	assert_int_equal(m->cpu[2].cpuid1_ecx, 4);
	assert_null(apply(m, "pebs", "off"));
	for (unsigned c = 0; c < NP_MAX_CPUS; c++)
		assert_true(m->cpu[c].misc_enable & NP_MISC_ENABLE_PEBS_UNAVAILABLE);
	assert_null(apply(m, "cpu3.pebs", "on"));
	assert_false(m->cpu[3].misc_enable & NP_MISC_ENABLE_PEBS_UNAVAILABLE);
	assert_int_equal(m->cpu[3].vendor, NP_VENDOR_INTEL);
	assert_malformed(m, "cpu.pebs", "on", "expected cpuN.FIELD=VALUE with N from 0 to 63");
	assert_malformed(m, "cpu64.pebs", "on", "expected cpuN.FIELD=VALUE with N from 0 to 63");
	assert_null(np_config_check("cpu63.pebs", "on"));   /* the last processor is well formed */
	assert_malformed(m, "cpux.pebs", "on", "expected cpuN.FIELD=VALUE with N from 0 to 63");
	assert_malformed(m, "cpu00000001.pebs", "on", "expected cpuN.FIELD=VALUE with N from 0 to 63");
	assert_null(apply(m, "cpu0000001.pebs", "off"));   /* seven digits are still a processor */
	assert_malformed(m, "pebs", "maybe", "pebs takes on or off");
	assert_malformed(m, "cpu1.vendor", "via", "vendor takes intel, amd or other");
	assert_malformed(m, "misc_enable", "0x10000000000000000", "misc_enable takes a 64-bit number (IA32_MISC_ENABLE)");
	assert_malformed(m, "cpuid1_ecx", "0x100000000", "cpuid1_ecx takes a 32-bit number (CPUID leaf 1, ECX)");
}

/* Every hal= first (it resets the HAL table), then every cpus=, then the
 * rest in order; the first setting that fails ends it. */
static void test_configure_all_order(void **state)
{
	np_machine *m = fresh(state, NP_V1809, NP_X64);
	const np_setting ordered[] = {
		{ "hal.ProfileTotalIssues.min", "0x2000" }, { "cpu", "3" }, { "cpu3.vendor", "amd" },
		{ "hal", "emon" }, { "cpus", "2" }, { "cpus", "4" }, { "hal", "amd64" },
	};
	assert_null(np_machine_configure_all(m, ordered, sizeof ordered / sizeof *ordered));
	assert_int_equal(m->hal.kind, NP_HAL_AMD64);                /* the last hal= */
	assert_int_equal(m->hal.source[2].min, 0x2000);             /* after it */
	assert_int_equal(m->cpus, 4);
	assert_int_equal(m->current_cpu, 3);
	assert_int_equal(m->cpu[3].vendor, NP_VENDOR_AMD);
	m = fresh(state, NP_V1809, NP_X64);
	const np_setting failing[] = {
		{ "privilege", "on" }, { "cpu", "2" }, { "mode", "kernel" }, { "cpus", "2" },
	};
	assert_string_equal(np_machine_configure_all(m, failing, 4), "the caller's processor must be active (cpu < cpus)");
	assert_true(m->profile_privilege);                          /* before the failure */
	assert_int_equal(m->previous_mode, NP_MODE_USER);           /* after it: not applied */
	m = fresh(state, NP_V5_1, NP_X86);
	const np_setting early_failure[] = { { "privilege", "on" }, { "hal", "amd64" } };
	assert_non_null(np_machine_configure_all(m, early_failure, 2));
	assert_false(m->profile_privilege);                         /* hal= went first */
	const np_setting malformed[] = { { "colour", "red" } };
	assert_string_equal(np_machine_configure_all(m, malformed, 1), "unknown given key");
	assert_null(np_machine_configure_all(m, NULL, 0));
}

/* HL-2: no HAL reports a minimum above its maximum, so a setting that leaves
 * a supported row so is a state the machine cannot take, alone or among a
 * vector's settings; a vector's min= and max= may come in either order. HL-4's
 * clamp relies on it: an interval equal to the minimum is never out of range. */
static void test_configure_hal_min_above_max_is_impossible(void **state)
{
	static const char want[] = "a supported HAL row has min above max, which no HAL reports (HL-2)";
	np_machine *m = fresh(state, NP_V1809, NP_X64);
	assert_impossible(m, "hal.ProfileTime.min", "10000001", want);   /* max is 10000000 */
	assert_impossible(m, "hal.ProfileTime.max", "1220", want);       /* min is 1221 */
	assert_null(apply(m, "hal.ProfileTime.min", "10000000"));       /* min == max is a HAL */
	assert_int_equal(m->hal.source[0].min, 10000000);
	assert_null(apply(m, "hal.0x30.min", "5"));   /* an unsupported row's limits are never used */
	assert_impossible(m, "hal.0x30.supported", "on", want);
	assert_null(apply(m, "hal.0x30.max", "5"));
	assert_null(apply(m, "hal.0x30.supported", "on"));

	m = fresh(state, NP_V1809, NP_X64);
	const np_setting reversed[] = { { "hal.ProfileTime.min", "5000" }, { "hal.ProfileTime.max", "1000" } };
	assert_string_equal(np_machine_configure_all(m, reversed, 2), want);
	m = fresh(state, NP_V1809, NP_X64);
	const np_setting after_reset[] = { { "hal.ProfileTime.max", "1000" }, { "hal", "default" } };
	assert_string_equal(np_machine_configure_all(m, after_reset, 2), want);   /* hal= goes first */
	m = fresh(state, NP_V1809, NP_X64);
	const np_setting off[] = { { "hal.ProfileTime.supported", "off" }, { "hal.ProfileTime.max", "1000" } };
	assert_null(np_machine_configure_all(m, off, 2));
	m = fresh(state, NP_V1809, NP_X64);
	const np_setting raised[] = { { "hal.ProfileTime.min", "20000000" }, { "hal.ProfileTime.max", "30000000" } };
	assert_null(np_machine_configure_all(m, raised, 2));   /* above the old max, in passing */
	assert_int_equal(m->hal.source[0].min, 20000000);
	assert_int_equal(m->hal.source[0].max, 30000000);
	m = fresh(state, NP_V1809, NP_X64);
	const np_setting last_row[] = {   /* the last source is judged too */
		{ "hal.0xFF.supported", "on" }, { "hal.0xFF.max", "1" }, { "hal.0xFF.min", "5" },
	};
	assert_string_equal(np_machine_configure_all(m, last_row, 3), want);
}

/* "Did you mean" offers every key: the last machine key, the last processor
 * property and the last knob are found as they are and when mistyped. */
static void test_configure_nearest_offers_every_key(void **state)
{
	(void)state;
	unsigned count;
	const np_knob_info *knobs = np_knob_table(&count);
	const char *last = knobs[count - 1].name;
	assert_string_equal(np_config_nearest(last), last);
	char typo[64];
	snprintf(typo, sizeof typo, "%s", last);
	typo[strlen(typo) - 1] = '?';
	assert_string_equal(np_config_nearest(typo), last);
	assert_string_equal(np_config_nearest("cpuid1_ecx"), "cpuid1_ecx");
	assert_string_equal(np_config_nearest("cpuid1_ecz"), "cpuid1_ecx");
	assert_string_equal(np_config_nearest("alloc"), "alloc");
	assert_string_equal(np_config_nearest("aloc"), "alloc");
	assert_null(np_config_nearest("nothing-like-a-key"));
}

/* Every knob of SPEC.md's table of knobs is set by its name there, with the
 * value the table marks as its default ("**VALUE**", its first word), as
 * a vector's `given` would; K-SEGMENT-MATCH, whose only value is
 * not-modelled, is the one no vector sets (SPEC.md says so). The twins: a
 * row of a knob the model lacks, and K-ERRATA's old machine key, errata,
 * are refused. */
static bool spec_knob_row(const char *line, char *name, size_t ncap, char *value, size_t vcap)
{
	if (strncmp(line, "| K-", 4) != 0)
		return false;
	const char *bold = strstr(line, "| **");
	size_t n = strcspn(line + 2, " |");
	if (!bold || n >= ncap)
		return false;
	memcpy(name, line + 2, n);
	name[n] = '\0';
	size_t v = strcspn(bold + 4, " *");
	if (v >= vcap)
		return false;
	memcpy(value, bold + 4, v);
	value[v] = '\0';
	return true;
}

static const char *set_spec_knob(np_machine *m, const char *line)
{
	char name[64], value[64];
	if (!spec_knob_row(line, name, sizeof name, value, sizeof value))
		return "not a row of the table";
	bool malformed = false;
	return np_machine_configure(m, name, value, &malformed);
}

static void test_configure_every_spec_knob_by_its_name(void **state)
{
	np_machine *m = fresh(state, NP_V1809, NP_X64);
	FILE *spec = fopen(NTPROF_SOURCE_ROOT "/SPEC.md", "r");
	assert_non_null(spec);
	char line[2048];
	unsigned rows = 0;
	while (fgets(line, sizeof line, spec)) {
		if (strncmp(line, "| K-", 4) != 0 || strncmp(line, "| K-SEGMENT-MATCH |", 19) == 0)
			continue;
		rows++;
		const char *e = set_spec_knob(m, line);
		if (e)
			fail_msg("%.60s...: %s", line, e);
	}
	fclose(spec);
	unsigned count = 0;
	np_knob_table(&count);
	assert_int_equal(rows, count + 1);   /* the table's knobs and K-ERRATA, a number */
	assert_int_equal(m->errata_interval, 0);
	assert_null(set_spec_knob(m, "| K-ERRATA | ? | **2000** (default), N | SI-5 | |"));
	assert_int_equal(m->errata_interval, 2000);
	/* the twins */
	assert_non_null(set_spec_knob(m, "| K-NO-SUCH-KNOB | ? | **on** (default), off | SI-1 | |"));
	assert_malformed(m, "errata", "5", "unknown given key");
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup_blank, teardown)
static const struct CMUnitTest tests[] = {
	T(test_configure_malformed_and_impossible),
	T(test_configure_knob_defaults_are_the_declared_ones),
	T(test_configure_every_knob_value_reads_back),
	T(test_configure_every_spec_knob_by_its_name),
	T(test_configure_version_knobs),
	T(test_configure_sandboxed),
	T(test_configure_machine_keys),
	T(test_configure_hal_rows),
	T(test_configure_processor_properties),
	T(test_configure_all_order),
	T(test_configure_hal_min_above_max_is_impossible),
	cmocka_unit_test(test_configure_nearest_offers_every_key),
};
#undef T

NP_TEST_MAIN(tests)
