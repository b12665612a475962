/* SPDX-License-Identifier: MIT */
/* SPEC.md, System-call numbers: j00ru's numbers per version key and
 * architecture (ntprof/syscalls.h), where they are unknown, the service
 * packs that split a key, and the cross-check of the table against the
 * exports the model gives each version (CP-0, ST-0, SP-0, SI-0, QI-0,
 * SY-0), with its twins that plant a disagreement. */
#include "np_test.h"

#include <stdio.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/syscalls.h"
#include "ntprof/version_predicates.h"

/* The parts of function on v/a; the array is filled with a stale part
 * first (present, want) so that a lookup that reads a part it did not
 * write is caught. */
static unsigned numbers(const char *function, np_ver v, np_arch a, uint16_t stale,
			np_syscall_part part[NP_SYSCALL_MAX_PARTS])
{
	for (unsigned k = 0; k < NP_SYSCALL_MAX_PARTS; k++)
		part[k] = (np_syscall_part){ true, stale, "stale" };
	return np_syscall_numbers(function, v, a, part);
}

static void assert_one(const char *function, np_ver v, np_arch a, uint16_t want, const char *systems)
{
	np_syscall_part part[NP_SYSCALL_MAX_PARTS];
	unsigned n = numbers(function, v, a, want, part);
	if (n != 1 || !part[0].present || part[0].number != want || strcmp(part[0].systems, systems) != 0)
		fail_msg("%s on %s/%s: %u parts, first %s0x%04X (%s); want 0x%04X (%s)", function,
			 np_version_key(v), np_arch_name(a), n, part[0].present ? "" : "none ", part[0].number,
			 part[0].systems, want, systems);
}

/* The numbers the command line promises (docs/compare-versions.md, man/ntprof.1). */
static void test_syscalls_known_numbers(void **state)
{
	(void)state;
	assert_one("NtCreateProfile", NP_V1809, NP_X64, 0x00B5, "10 1809");
	assert_one("NtCreateProfile", NP_V1809, NP_X86, 0x0167, "10 1809");
	assert_one("NtCreateProfile", NP_V11_25H2, NP_X64, 0x00C2, "11 25H2");
	assert_one("NtCreateProfileEx", NP_V11_24H2, NP_X64, 0x00C3, "11 24H2, Server 2025");
	assert_one("NtCreateProfileEx", NP_VSRV2022, NP_X64, 0x00BF, "Server 2022");
	assert_one("NtQuerySystemInformation", NP_V5_2SP1, NP_X64, 0x0033,
		   "XP x64 SP1, XP x64 SP2, Server 2003 SP0, Server 2003 SP2, Server 2003 R2, "
		   "Server 2003 R2 SP2");
	assert_one("NtSetIntervalProfile", NP_V4_0, NP_X86, 0x00A7, "NT 4.0 SP3 TS, NT 4.0 SP3");
	assert_one("NtStopProfile", NP_V20H2, NP_X86, 0x002B, "10 20H2");
	assert_one("NtCreateProfile", NP_V22H2, NP_X86, 0x0167, "10 22H2");
	assert_one("NtQueryIntervalProfile", NP_V5_2, NP_X86, 0x00A5, "Server 2003 SP0");
}

/* WOW64 callers use the x64 numbers, everywhere. */
static void test_syscalls_wow64_is_x64(void **state)
{
	(void)state;
	for (unsigned f = 0; f < NP_SYSCALL_FUNCTIONS; f++) {
		for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
			np_syscall_part x64[NP_SYSCALL_MAX_PARTS], wow64[NP_SYSCALL_MAX_PARTS];
			const char *fn = np_syscall_function(f);
			unsigned n = numbers(fn, (np_ver)v, NP_X64, 0, x64);
			assert_int_equal(numbers(fn, (np_ver)v, NP_WOW64, 0, wow64), n);
			for (unsigned k = 0; k < n; k++) {
				assert_int_equal(x64[k].present, wow64[k].present);
				assert_int_equal(x64[k].number, wow64[k].number);
				assert_string_equal(x64[k].systems, wow64[k].systems);
			}
		}
	}
}

/* Vista SP1 renumbered the calls: one part per number, each with its systems. */
static void test_syscalls_service_pack_split(void **state)
{
	(void)state;
	np_syscall_part part[NP_SYSCALL_MAX_PARTS];
	assert_int_equal(numbers("NtCreateProfile", NP_V6_0, NP_X64, 0x00A3, part), 2);
	assert_true(part[0].present && part[1].present);
	assert_int_equal(part[0].number, 0x00A3);
	assert_string_equal(part[0].systems, "Vista SP0");
	assert_int_equal(part[1].number, 0x00A1);
	assert_string_equal(part[1].systems, "Vista SP1, Vista SP2");
	assert_int_equal(numbers("NtSetIntervalProfile", NP_V6_0, NP_X86, 0x0134, part), 2);
	assert_int_equal(part[0].number, 0x0138);
	assert_int_equal(part[1].number, 0x0134);
	assert_string_equal(part[1].systems, "Vista SP1, Vista SP2");
	/* the twin: where the service packs agree, one part */
	assert_one("NtCreateProfile", NP_V6_0, NP_X86, 0x004A, "Vista SP0, Vista SP1, Vista SP2");
}

/* Where the tables list no system the number is unknown (0 parts); where
 * they list one without the function, a part that is not present. */
static void test_syscalls_unknown_and_none(void **state)
{
	(void)state;
	np_syscall_part part[NP_SYSCALL_MAX_PARTS];
	static const np_ver unlisted_x86[] = { NP_V3_10, NP_V3_50, NP_V3_51 };
	for (size_t i = 0; i < sizeof unlisted_x86 / sizeof *unlisted_x86; i++)
		assert_int_equal(numbers("NtCreateProfile", unlisted_x86[i], NP_X86, 0x0020, part), 0);
	assert_int_equal(numbers("NtCreateProfile", NP_V5_2, NP_X64, 0x0083, part), 0);   /* no x64 5.2 */
	assert_int_equal(numbers("NtFrobnicate", NP_V1809, NP_X64, 0x00B5, part), 0);
	assert_int_equal(numbers("NtCreateProfileEx", NP_V6_0, NP_X64, 0x00A1, part), 1);
	assert_false(part[0].present);
	assert_string_equal(part[0].systems, "Vista SP0, Vista SP1, Vista SP2");
	assert_int_equal(numbers("NtCreateProfileEx", NP_V6_1, NP_X86, 0x0052, part), 1);
	assert_true(part[0].present);
	assert_int_equal(part[0].number, 0x0052);
}

/* How many of j00ru's systems each key has: every column given to the
 * right key (a column moved to a neighbouring key changes two counts). */
static void test_syscalls_systems_per_key(void **state)
{
	(void)state;
	static const struct { np_ver v; unsigned x86, x64; } expected[] = {
		{ NP_V4_0, 2, 0 }, { NP_V4_0SP4, 3, 0 }, { NP_V5_0, 5, 0 }, { NP_V5_1, 4, 0 },
		{ NP_V5_2, 1, 0 }, { NP_V5_2SP1, 4, 6 }, { NP_V6_0, 3, 3 }, { NP_V6_1, 2, 2 }, { NP_VSRV2022, 0, 1 },
		{ NP_V11_21H2, 0, 1 }, { NP_V11_22H2, 0, 1 }, { NP_V11_23H2, 0, 1 }, { NP_V11_24H2, 0, 2 },
		{ NP_V11_25H2, 0, 1 },
	};
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		/* 6.2 to 22H2: one system each on both; before 4.0: none */
		unsigned want[2] = { v >= NP_V6_2 && v <= NP_V22H2, v >= NP_V6_2 && v <= NP_V22H2 };
		for (size_t i = 0; i < sizeof expected / sizeof *expected; i++)
			if (expected[i].v == v)
				want[0] = expected[i].x86, want[1] = expected[i].x64;
		for (np_arch a = NP_X86; a <= NP_X64; a++) {
			np_syscall_part part[NP_SYSCALL_MAX_PARTS];
			unsigned n = numbers("NtQuerySystemInformation", (np_ver)v, a, 0, part), systems = 0;
			for (unsigned k = 0; k < n; k++)
				for (const char *p = part[k].systems; p; p = strchr(p + 1, ','))
					systems++;
			if (systems != want[a])
				fail_msg("%s/%s: %u systems, want %u", np_version_key((np_ver)v), np_arch_name(a),
					 systems, want[a]);
		}
	}
}

static void test_syscalls_function_names(void **state)
{
	(void)state;
	assert_string_equal(np_syscall_function(0), "NtCreateProfile");
	assert_string_equal(np_syscall_function(NP_SYSCALL_FUNCTIONS - 1), "NtQuerySystemInformation");
	assert_null(np_syscall_function(NP_SYSCALL_FUNCTIONS));
	for (unsigned i = 0; i < NP_SYSCALL_FUNCTIONS; i++)
		assert_true(np_syscall_function_known(np_syscall_function(i)));
	assert_false(np_syscall_function_known("ZwCreateProfile"));
	assert_false(np_syscall_function_known("ntcreateprofile"));
	assert_false(np_syscall_function_known(""));
	assert_string_equal(np_syscall_function_nearest("NtCreateProfil"), "NtCreateProfile");
	assert_string_equal(np_syscall_function_nearest("NtQuerySystemInfromation"), "NtQuerySystemInformation");
	assert_null(np_syscall_function_nearest("Frobnicate"));
}

/* ---- the cross-check: numbers against exports ---- */

typedef bool (*exports_fn)(np_ver v, const char *function);
typedef unsigned (*numbers_fn)(const char *function, np_ver v, np_arch a,
			       np_syscall_part part[NP_SYSCALL_MAX_PARTS]);

/* NTDLL's exports as the model gives them: the profile calls through their
 * export table, the system-information calls by SY-0's predicate. */
static bool model_exports(np_ver v, const char *function)
{
	if (strcmp(function, "NtSetSystemInformation") == 0)
		return np_has_set_system_information(v);
	if (strcmp(function, "NtQuerySystemInformation") == 0)
		return true;
	return np_is_exported(v, NP_MODE_USER, function);
}

/* The (function, version, architecture) where the table and the exports
 * disagree, among those the table lists: a number without the export, or
 * a system without the number where NTDLL exports the function. Each one
 * named in why (the first few); how many. */
static unsigned cross_check(numbers_fn lookup, exports_fn exported, char *why, size_t cap)
{
	unsigned bad = 0;
	why[0] = '\0';
	for (unsigned f = 0; f < NP_SYSCALL_FUNCTIONS; f++) {
		const char *fn = np_syscall_function(f);
		for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
			for (np_arch a = 0; a < NP_ARCH_COUNT; a++) {
				np_syscall_part part[NP_SYSCALL_MAX_PARTS];
				if (!np_arch_exists((np_ver)v, a))
					continue;
				unsigned n = lookup(fn, (np_ver)v, a, part);
				for (unsigned k = 0; k < n; k++) {
					if (part[k].present == exported((np_ver)v, fn))
						continue;
					size_t used = strlen(why);
					snprintf(why + used, cap - used, "%s %s/%s (%s) %s; ", fn,
						 np_version_key((np_ver)v), np_arch_name(a), part[k].systems,
						 part[k].present ? "has a number, not exported" : "exported, no number");
					bad++;
				}
			}
		}
	}
	return bad;
}

/* CP-0, ST-0, SP-0, SI-0, QI-0, SY-0: wherever j00ru's tables list a
 * system, a function has a number there exactly when the model's NTDLL
 * exports it (NtCreateProfileEx from 6.1 on both architectures). */
/* rules: CP-0 ST-0 SP-0 SI-0 QI-0 SY-0 */
static void test_syscalls_agree_with_exports(void **state)
{
	(void)state;
	char why[2048];
	if (cross_check(np_syscall_numbers, model_exports, why, sizeof why))
		fail_msg("the system-call table and the exports disagree: %s", why);
}

/* The twins: a planted disagreement either way is caught and named. */
static bool exports_ex_from_6_0(np_ver v, const char *function)
{
	if (strcmp(function, "NtCreateProfileEx") == 0)
		return v >= NP_V6_0;
	return model_exports(v, function);
}

static unsigned numbers_with_set_on_5_1(const char *function, np_ver v, np_arch a,
					np_syscall_part part[NP_SYSCALL_MAX_PARTS])
{
	unsigned n = np_syscall_numbers(function, v, a, part);
	if (n && v == NP_V5_1 && strcmp(function, "NtSetSystemInformation") == 0)
		part[0].present = false;
	return n;
}

/* rules: CP-0 SY-0 */
static void test_syscalls_cross_check_catches_planted(void **state)
{
	(void)state;
	char why[2048];
	/* an export on 6.0 where Vista has no number: 6.0 x86, x64, wow64 */
	assert_int_equal(cross_check(np_syscall_numbers, exports_ex_from_6_0, why, sizeof why), 3);
	assert_non_null(strstr(why, "NtCreateProfileEx 6.0/x64 (Vista SP0, Vista SP1, Vista SP2) "
				    "exported, no number"));
	/* a number gone where NTDLL exports the function: XP x86 only */
	assert_int_equal(cross_check(numbers_with_set_on_5_1, model_exports, why, sizeof why), 1);
	assert_non_null(strstr(why, "NtSetSystemInformation 5.1/x86"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_syscalls_known_numbers),
	cmocka_unit_test(test_syscalls_wow64_is_x64),
	cmocka_unit_test(test_syscalls_service_pack_split),
	cmocka_unit_test(test_syscalls_unknown_and_none),
	cmocka_unit_test(test_syscalls_systems_per_key),
	cmocka_unit_test(test_syscalls_function_names),
	cmocka_unit_test(test_syscalls_agree_with_exports),
	cmocka_unit_test(test_syscalls_cross_check_catches_planted),
};

NP_TEST_MAIN(tests)
