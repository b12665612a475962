/* SPDX-License-Identifier: MIT */
/* SPEC.md §VR: the ordered version table (VR-1), build-number lookup (VR-2)
 * and which architectures exist where (VR-3). */
#include "np_test.h"
#include "np_model_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "ntprof/machine.h"
#include "ntprof/version.h"

/* VR-1 as SPEC.md states it: key and kernel file version, in order. */
static const struct {
	np_ver v;
	const char *key;
	unsigned major, minor, build, revision;
} expected_table[] = {
	{ NP_V3_10, "3.10", 3, 10, 511, 0 },
	{ NP_V3_50, "3.50", 3, 50, 807, 0 },
	{ NP_V3_51, "3.51", 3, 51, 1025, 0 },
	{ NP_V4_0, "4.0", 4, 0, 1381, 0 },
	{ NP_V4_0SP4, "4.0sp4", 4, 0, 1381, 133 },
	{ NP_V5_0, "5.0", 5, 0, 2195, 0 },
	{ NP_V5_1, "5.1", 5, 1, 2600, 0 },
	{ NP_V5_2, "5.2", 5, 2, 3790, 0 },
	{ NP_V5_2SP1, "5.2sp1", 5, 2, 3790, 1830 },
	{ NP_V6_0, "6.0", 6, 0, 6000, 0 },
	{ NP_V6_1, "6.1", 6, 1, 7600, 0 },
	{ NP_V6_2, "6.2", 6, 2, 9200, 0 },
	{ NP_V6_3, "6.3", 6, 3, 9600, 0 },
	{ NP_V1507, "1507", 10, 0, 10240, 0 },
	{ NP_V1511, "1511", 10, 0, 10586, 0 },
	{ NP_V1607, "1607", 10, 0, 14393, 0 },
	{ NP_V1703, "1703", 10, 0, 15063, 0 },
	{ NP_V1709, "1709", 10, 0, 16299, 0 },
	{ NP_V1803, "1803", 10, 0, 17134, 0 },
	{ NP_V1809, "1809", 10, 0, 17763, 0 },
	{ NP_V1903, "1903", 10, 0, 18362, 0 },
	{ NP_V1909, "1909", 10, 0, 18363, 0 },
	{ NP_V2004, "2004", 10, 0, 19041, 0 },
	{ NP_V20H2, "20H2", 10, 0, 19042, 0 },
	{ NP_V21H1, "21H1", 10, 0, 19043, 0 },
	{ NP_V21H2, "21H2", 10, 0, 19044, 0 },
	{ NP_V22H2, "22H2", 10, 0, 19045, 0 },
	{ NP_VSRV2022, "srv2022", 10, 0, 20348, 0 },
	{ NP_V11_21H2, "11-21H2", 10, 0, 22000, 0 },
	{ NP_V11_22H2, "11-22H2", 10, 0, 22621, 0 },
	{ NP_V11_23H2, "11-23H2", 10, 0, 22631, 0 },
	{ NP_V11_24H2, "11-24H2", 10, 0, 26100, 0 },
	{ NP_V11_25H2, "11-25H2", 10, 0, 26200, 0 },
};
#define EXPECTED_COUNT (sizeof expected_table / sizeof *expected_table)

/* Parses text and asserts it names want. */
static void assert_parses_to(const char *text, np_ver want)
{
	np_ver got = NP_VERSION_COUNT;
	if (!np_version_parse(text, &got))
		fail_msg("\"%s\" did not parse (want %s)", text, np_version_key(want));
	if (got != want)
		fail_msg("\"%s\" parsed to %s, want %s", text, np_version_key(got),
			 np_version_key(want));
}

static void assert_rejected(const char *text)
{
	np_ver got = NP_VERSION_COUNT;
	if (np_version_parse(text, &got))
		fail_msg("\"%s\" parsed to %s, want an error", text, np_version_key(got));
}

/* ---- VR-1 ---- */

/* VR-1 */
/* rules: VR-1 */
static void test_version_table_has_every_key_with_its_build(void **state)
{
	(void)state;
	assert_int_equal(NP_VERSION_COUNT, EXPECTED_COUNT);
	for (size_t i = 0; i < EXPECTED_COUNT; i++) {
		const np_version_info *info = np_version_info_of(expected_table[i].v);
		assert_non_null(info);
		assert_string_equal(info->key, expected_table[i].key);
		assert_string_equal(np_version_key(expected_table[i].v), expected_table[i].key);
		assert_int_equal(info->major, expected_table[i].major);
		assert_int_equal(info->minor, expected_table[i].minor);
		assert_int_equal(info->build, expected_table[i].build);
		assert_int_equal(info->revision, expected_table[i].revision);
		assert_non_null(info->product);
		assert_non_null(info->source);
	}
}

/* VR-1: the enumeration order is the kernel build order (strictly rising builds). */
/* rules: VR-1 */
static void test_version_table_in_build_order(void **state)
{
	(void)state;
	for (unsigned v = 1; v < NP_VERSION_COUNT; v++) {
		const np_version_info *a = np_version_info_of((np_ver)(v - 1));
		const np_version_info *b = np_version_info_of((np_ver)v);
		assert_non_null(a);
		assert_non_null(b);
		assert_true(a->build < b->build ||
			    (a->build == b->build && a->revision < b->revision));
		assert_true(a->major < b->major ||
			    (a->major == b->major && a->minor <= b->minor));
	}
}

/* VR-1: the table has no row past the last key (fail-twin of the lookups). */
/* rules: VR-1 */
static void test_version_info_out_of_range_is_null(void **state)
{
	(void)state;
	assert_null(np_version_info_of(NP_VERSION_COUNT));
	assert_null(np_version_info_of((np_ver)-1));
	assert_string_equal(np_version_key(NP_VERSION_COUNT), "?");
}

/* ---- VR-2 ---- */

/* VR-2: every key parses to itself. */
/* rules: VR-2 */
static void test_version_parse_every_key(void **state)
{
	(void)state;
	for (size_t i = 0; i < EXPECTED_COUNT; i++)
		assert_parses_to(expected_table[i].key, expected_table[i].v);
}

/* VR-2: keys are matched case-insensitively. */
/* rules: VR-2 */
static void test_version_parse_key_case_insensitive(void **state)
{
	(void)state;
	assert_parses_to("4.0SP4", NP_V4_0SP4);
	assert_parses_to("5.2Sp1", NP_V5_2SP1);
	assert_parses_to("20h2", NP_V20H2);
	assert_parses_to("11-24h2", NP_V11_24H2);
	assert_parses_to("11-21H2", NP_V11_21H2);
}

/* VR-2: each release's own build names that release. */
/* rules: VR-2 */
static void test_version_parse_every_exact_build(void **state)
{
	(void)state;
	char text[64];
	for (size_t i = 0; i < EXPECTED_COUNT; i++) {
		if (expected_table[i].revision)
			snprintf(text, sizeof text, "%u.%u.%u.%u", expected_table[i].major,
				 expected_table[i].minor, expected_table[i].build,
				 expected_table[i].revision);
		else
			snprintf(text, sizeof text, "%u.%u.%u", expected_table[i].major,
				 expected_table[i].minor, expected_table[i].build);
		assert_parses_to(text, expected_table[i].v);
	}
}

/* VR-2: a build between two releases names the newest one at or below it. */
/* rules: VR-2 */
static void test_version_parse_build_between_releases(void **state)
{
	(void)state;
	assert_parses_to("10.0.15062", NP_V1607);
	assert_parses_to("10.0.15064", NP_V1703);
	assert_parses_to("10.0.19044.3803", NP_V21H2);
	assert_parses_to("10.0.22630", NP_V11_22H2);
	assert_parses_to("10.0.20347", NP_V22H2);
	assert_parses_to("10.0.20348.2227", NP_VSRV2022);
	assert_parses_to("10.0.21999", NP_VSRV2022);
	assert_parses_to("10.0.26099", NP_V11_23H2);
	assert_parses_to("10.0.26199", NP_V11_24H2);
	assert_parses_to("10.0.99999", NP_V11_25H2);
	assert_parses_to("6.1.7601", NP_V6_1);
	assert_parses_to("6.1.7601.17514", NP_V6_1);
	assert_parses_to("6.3.9600.17031", NP_V6_3);
	assert_parses_to("3.51.1057", NP_V3_51);
}

/* VR-2: the revision separates 4.0 from 4.0sp4 and 5.2 from 5.2sp1, on each
 * side of the threshold. */
/* rules: VR-2 */
static void test_version_parse_revision_threshold(void **state)
{
	(void)state;
	assert_parses_to("4.0.1381", NP_V4_0);
	assert_parses_to("4.0.1381.0", NP_V4_0);
	assert_parses_to("4.0.1381.132", NP_V4_0);
	assert_parses_to("4.0.1381.133", NP_V4_0SP4);
	assert_parses_to("4.0.1381.134", NP_V4_0SP4);
	assert_parses_to("4.0.1382", NP_V4_0SP4);
	assert_parses_to("5.2.3790", NP_V5_2);
	assert_parses_to("5.2.3790.1829", NP_V5_2);
	assert_parses_to("5.2.3790.1830", NP_V5_2SP1);
	assert_parses_to("5.2.3790.3959", NP_V5_2SP1);
}

static void assert_live_is(unsigned major, unsigned minor, unsigned build, unsigned sp, np_ver want)
{
	np_ver got = NP_VERSION_COUNT;
	if (!np_version_from_build(major, minor, build, sp, &got))
		fail_msg("%u.%u.%u SP%u: no key, want %s", major, minor, build, sp, np_version_key(want));
	if (got != want)
		fail_msg("%u.%u.%u SP%u: %s, want %s", major, minor, build, sp, np_version_key(got),
			 np_version_key(want));
}

/* VR-2: a live system's RtlGetVersion numbers (the service pack, not the
 * revision, separates 4.0sp4 and 5.2sp1); what Wine 8.0 reports as
 * Windows 7 and as Windows 10. */
/* rules: VR-2 */
static void test_version_from_live_build(void **state)
{
	(void)state;
	assert_live_is(4, 0, 1381, 3, NP_V4_0);
	assert_live_is(4, 0, 1381, 4, NP_V4_0SP4);
	assert_live_is(4, 0, 1381, 6, NP_V4_0SP4);
	assert_live_is(5, 2, 3790, 0, NP_V5_2);
	assert_live_is(5, 2, 3790, 1, NP_V5_2SP1);
	assert_live_is(5, 2, 3790, 2, NP_V5_2SP1);
	assert_live_is(6, 1, 7600, 0, NP_V6_1);
	assert_live_is(6, 1, 7601, 1, NP_V6_1);          /* Wine's win7 */
	assert_live_is(10, 0, 18362, 0, NP_V1903);       /* Wine's win10 */
	assert_live_is(10, 0, 19045, 0, NP_V22H2);
	assert_live_is(10, 0, 20348, 0, NP_VSRV2022);
	assert_live_is(10, 0, 26100, 0, NP_V11_24H2);    /* also Server 2025 (VR-1) */
	assert_live_is(10, 0, 26300, 0, NP_V11_25H2);    /* newer than the table: its newest */
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		const np_version_info *i = np_version_info_of((np_ver)v);
		unsigned sp = (np_ver)v == NP_V4_0SP4 ? 4 : (np_ver)v == NP_V5_2SP1 ? 1 : 0;
		assert_live_is(i->major, i->minor, i->build, sp, (np_ver)v);
	}
	np_ver got;
	assert_false(np_version_from_build(6, 2, 9199, 0, &got));
	assert_false(np_version_from_build(6, 4, 9841, 0, &got));
	assert_false(np_version_from_build(0, 0, 0, 0, &got));
}

/* VR-2: below the family's first build is an error (fail-twin of the above). */
/* rules: VR-2 */
static void test_version_parse_below_first_build_rejected(void **state)
{
	(void)state;
	assert_rejected("3.10.510");
	assert_rejected("4.0.1380");
	assert_rejected("4.0.1380.999");
	assert_rejected("6.2.9199");
	assert_rejected("10.0.10239");
	assert_rejected("10.0.0");
	assert_parses_to("10.0.10240", NP_V1507);
}

/* VR-2: an unknown family, or text that is neither key nor build, is an error. */
/* rules: VR-2 */
static void test_version_parse_unknown_family_rejected(void **state)
{
	(void)state;
	assert_rejected("7.0.7600");
	assert_rejected("6.4.9841");
	assert_rejected("10.1.10240");
	assert_rejected("5.3.3790");
	assert_rejected("");
	assert_rejected("6.2.9200x");
	assert_rejected("6.2.9200.1.2");
	assert_rejected("6.20");
	assert_rejected("Windows 8");
	assert_rejected("12-24H2");
	/* a part of a build is at most 0xFFFFFF (7 decimal digits and a bit) */
	assert_parses_to("10.0.16777215", NP_V11_25H2);
	assert_rejected("10.0.16777216");
	/* each part is digits only, and parts are separated by dots only */
	assert_rejected("10.0. 10240");
	assert_rejected("10.0.+10240");
	assert_rejected("6.2x9200");
}

/* ---- VR-3 ---- */

/* VR-3: x64 and WOW64 exist from 5.2sp1, on each side of the threshold. */
/* rules: VR-3 */
static void test_arch_x64_and_wow64_from_5_2sp1(void **state)
{
	(void)state;
	for (np_arch a = NP_X64; a <= NP_WOW64; a++) {
		assert_false(np_arch_exists(NP_V3_10, a));
		assert_false(np_arch_exists(NP_V5_1, a));
		assert_false(np_arch_exists(NP_V5_2, a));
		assert_true(np_arch_exists(NP_V5_2SP1, a));
		assert_true(np_arch_exists(NP_V6_0, a));
		assert_true(np_arch_exists(NP_V11_24H2, a));
	}
}

/* VR-3: x86 exists from 3.10 up to 22H2; neither srv2022 (after 22H2 by its
 * build) nor 11-21H2 has an x86 edition. */
/* rules: VR-3 */
static void test_arch_x86_up_to_22h2(void **state)
{
	(void)state;
	assert_true(np_arch_exists(NP_V3_10, NP_X86));
	assert_true(np_arch_exists(NP_V5_2, NP_X86));
	assert_true(np_arch_exists(NP_V21H2, NP_X86));
	assert_true(np_arch_exists(NP_V22H2, NP_X86));
	assert_false(np_arch_exists(NP_VSRV2022, NP_X86));
	assert_true(np_arch_exists(NP_VSRV2022, NP_X64));
	assert_false(np_arch_exists(NP_V11_21H2, NP_X86));
	assert_false(np_arch_exists(NP_V11_24H2, NP_X86));
}

/* VR-3: np_arch_exists over the whole table agrees with the two thresholds. */
/* rules: VR-3 */
static void test_arch_exists_whole_table(void **state)
{
	(void)state;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		assert_int_equal(np_arch_exists((np_ver)v, NP_X86), v <= NP_V22H2);
		assert_int_equal(np_arch_exists((np_ver)v, NP_X64), v >= NP_V5_2SP1);
		assert_int_equal(np_arch_exists((np_ver)v, NP_WOW64), v >= NP_V5_2SP1);
	}
}

/* VR-3: a machine on 22H2 x86 can be built; on 11-21H2 x86 it cannot. */
/* rules: VR-3 */
static void test_machine_init_x86_22h2_vs_11_21h2(void **state)
{
	np_machine *m = *state;
	assert_null(np_machine_init(m, NP_V22H2, NP_X86));
	assert_int_equal(m->version, NP_V22H2);
	assert_int_equal(m->arch, NP_X86);
	np_machine_fini(m);
	assert_non_null(np_machine_init(m, NP_VSRV2022, NP_X86));
	assert_non_null(np_machine_init(m, NP_V11_21H2, NP_X86));
	assert_non_null(np_machine_init(m, NP_V11_24H2, NP_X86));
}

/* VR-3: a machine on 5.2sp1 x64/WOW64 can be built; on 5.2 it cannot. */
/* rules: VR-3 */
static void test_machine_init_x64_wow64_5_2_vs_5_2sp1(void **state)
{
	np_machine *m = *state;
	assert_non_null(np_machine_init(m, NP_V5_2, NP_X64));
	assert_non_null(np_machine_init(m, NP_V5_2, NP_WOW64));
	assert_null(np_machine_init(m, NP_V5_2SP1, NP_X64));
	assert_int_equal(m->arch, NP_X64);
	np_machine_fini(m);
	assert_null(np_machine_init(m, NP_V5_2SP1, NP_WOW64));
	assert_int_equal(m->arch, NP_WOW64);
	assert_int_equal(m->version, NP_V5_2SP1);
}

/* VR-3: versions and architectures outside the tables are refused. */
/* rules: VR-3 */
static void test_machine_init_out_of_range_rejected(void **state)
{
	np_machine *m = *state;
	assert_non_null(np_machine_init(m, NP_VERSION_COUNT, NP_X64));
	assert_non_null(np_machine_init(m, NP_V1507, NP_ARCH_COUNT));
	assert_false(np_arch_exists(NP_V1507, NP_ARCH_COUNT));
}

/* VR-3: the three architecture names, case-insensitively. */
/* rules: VR-3 */
static void test_arch_names_parse(void **state)
{
	(void)state;
	np_arch a = NP_ARCH_COUNT;
	assert_true(np_arch_parse("x86", &a));
	assert_int_equal(a, NP_X86);
	assert_true(np_arch_parse("X64", &a));
	assert_int_equal(a, NP_X64);
	assert_true(np_arch_parse("WoW64", &a));
	assert_int_equal(a, NP_WOW64);
	assert_false(np_arch_parse("arm64", &a));
	assert_false(np_arch_parse("", &a));
	assert_string_equal(np_arch_name(NP_X86), "x86");
	assert_string_equal(np_arch_name(NP_X64), "x64");
	assert_string_equal(np_arch_name(NP_WOW64), "wow64");
}

/* The version ranges of vectors and K-INCLUSIVE-END (np_parse_range): the
 * ends of the table, a one-version range, and a low end too long to read. */
static void test_version_range_edges(void **state)
{
	(void)state;
	np_applicability a;
	char text[128];
	const np_ver last = NP_VERSION_COUNT - 1;
	assert_null(np_parse_range("all", &a));
	assert_int_equal(a.lo, 0);
	assert_int_equal(a.hi, last);
	assert_null(np_parse_range("1703..1703", &a));   /* one version */
	assert_int_equal(a.lo, NP_V1703);
	assert_int_equal(a.hi, NP_V1703);
	assert_string_equal(np_parse_range("1709..1703", &a), "version range is empty (low above high)");
	snprintf(text, sizeof text, ">%s", np_version_key(last));
	assert_string_equal(np_parse_range(text, &a), "version range is empty");
	snprintf(text, sizeof text, ">%s", np_version_key(last - 1));
	assert_null(np_parse_range(text, &a));
	assert_int_equal(a.lo, last);
	assert_int_equal(a.hi, last);
	snprintf(text, sizeof text, "<%s", np_version_key(0));
	assert_string_equal(np_parse_range(text, &a), "version range is empty");
	snprintf(text, sizeof text, "<%s", np_version_key(1));
	assert_null(np_parse_range(text, &a));
	assert_int_equal(a.lo, 0);
	assert_int_equal(a.hi, 0);
	/* a low end of 47 characters is read (and is no version), 48 is too long */
	snprintf(text, sizeof text, "%047d..1703", 1);
	assert_string_equal(np_parse_range(text, &a), "unknown version in range (see `ntprof versions`)");
	snprintf(text, sizeof text, "%048d..1703", 1);
	assert_string_equal(np_parse_range(text, &a), "version range too long");
	snprintf(text, sizeof text, "%080d..1703", 1);
	assert_string_equal(np_parse_range(text, &a), "version range too long");
}

/* The everyday names (VR-2's friendly table) read as their keys and back; a
 * key without one has none; "did you mean" offers the last key and the last
 * everyday name too. */
static void test_version_friendly_and_nearest(void **state)
{
	(void)state;
	np_ver v;
	assert_true(np_version_parse("11", &v));
	assert_int_equal(v, NP_V11_21H2);
	assert_string_equal(np_version_friendly(NP_V11_21H2), "11");
	assert_string_equal(np_version_friendly(NP_V5_0), "2000");
	assert_null(np_version_friendly(NP_V11_25H2));
	/* Windows Server 2025 has 11 24H2's kernel: its name reads as that key (VR-1) */
	assert_true(np_version_parse("srv2025", &v));
	assert_int_equal(v, NP_V11_24H2);
	assert_true(np_version_parse("SRV2025", &v));
	assert_int_equal(v, NP_V11_24H2);
	assert_string_equal(np_version_friendly(NP_V11_24H2), "srv2025");
	assert_null(np_version_friendly(NP_VSRV2022));
	/* every everyday name reads as its own version, whatever order the
	 * names and the keys are tried in: none is a key */
	for (unsigned f = 0; f < NP_VERSION_COUNT; f++) {
		const char *name = np_version_friendly((np_ver)f);
		for (unsigned k = 0; name && k < NP_VERSION_COUNT; k++)
			if (strcasecmp(name, np_version_key((np_ver)k)) == 0)
				fail_msg("the everyday name %s is also a key", name);
		assert_true(!name || (np_version_parse(name, &v) && v == (np_ver)f));
	}
	assert_string_equal(np_version_nearest("svr2025"), "srv2025");
	assert_null(np_version_friendly(NP_VERSION_COUNT));
	const char *last = np_version_key(NP_VERSION_COUNT - 1);
	assert_string_equal(np_version_nearest(last), last);
	assert_string_equal(np_version_nearest("11-24H3"), "11-24H2");
	assert_string_equal(np_version_nearest("11"), "11");
	assert_string_equal(np_version_nearest("win8.2"), "win8.1");
	assert_null(np_version_nearest("nothing-like-a-version"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_version_table_has_every_key_with_its_build),
	cmocka_unit_test(test_version_table_in_build_order),
	cmocka_unit_test(test_version_info_out_of_range_is_null),
	cmocka_unit_test(test_version_parse_every_key),
	cmocka_unit_test(test_version_parse_key_case_insensitive),
	cmocka_unit_test(test_version_parse_every_exact_build),
	cmocka_unit_test(test_version_parse_build_between_releases),
	cmocka_unit_test(test_version_parse_revision_threshold),
	cmocka_unit_test(test_version_from_live_build),
	cmocka_unit_test(test_version_parse_below_first_build_rejected),
	cmocka_unit_test(test_version_parse_unknown_family_rejected),
	cmocka_unit_test(test_arch_x64_and_wow64_from_5_2sp1),
	cmocka_unit_test(test_arch_x86_up_to_22h2),
	cmocka_unit_test(test_arch_exists_whole_table),
	cmocka_unit_test_setup_teardown(test_machine_init_x86_22h2_vs_11_21h2, setup_blank,
					teardown),
	cmocka_unit_test_setup_teardown(test_machine_init_x64_wow64_5_2_vs_5_2sp1, setup_blank,
					teardown),
	cmocka_unit_test_setup_teardown(test_machine_init_out_of_range_rejected, setup_blank,
					teardown),
	cmocka_unit_test(test_arch_names_parse),
	cmocka_unit_test(test_version_range_edges),
	cmocka_unit_test(test_version_friendly_and_nearest),
};

NP_TEST_MAIN(tests)
