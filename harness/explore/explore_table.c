/* SPDX-License-Identifier: MIT */
/* The explorer's boundary table. Every argument of an explorable function
 * (harness/vectors/catalog.c) gets its values from here: its plain default first,
 * then the edges SPEC.md names for it, each edge with the rules that make it
 * one. Numeric edges come with their neighbours (edge - 1, edge + 1) where
 * the neighbour falls on the other side of a test. */
#include <string.h>

#include "explore/explore_table.h"

#define LIST(fn, param, arr) { fn, param, arr, sizeof arr / sizeof *arr }
#define T(text, rules) { text, NP_XD_TEXT, 0, rules }

/* ---- kinds of the catalog (np_param_kind) ---- */

/* AS-1..AS-3: what a probe tells apart. The symbols are the catalog's
 * (fixtures/README.md, Pointers); `vanishing` is left out: it is model-only
 * and changes only writes after a probe (QI-3, CP-24, SY-5). */
static const np_xbound pointers[] = {
	T("user", "AS-2"),
	T("null", "AS-2 QI-1 CP-12"),
	T("misaligned", "AS-2 AS-3 QI-2 CP-13 SY-1"),
	T("readonly", "AS-2 AS-3 SY-2"),
	T("unmapped", "AS-2 AS-3 SY-2"),
	T("kernel", "AS-1 AS-2"),
};

/* KS-1, KS-2, HL-1: the public range, its last value, the first
 * processor-specific one, past the Amd64 interface's, past what the HAL
 * table holds, and the largest 32-bit value. */
static const np_xbound sources[] = {
	T("ProfileTime", "KS-1 HL-1"),
	T("ProfileAlignmentFixup", "SI-3 QI-4 CP-11"),
	T("ProfileTotalIssues", "HL-1 CP-11"),
	T("ProfileMaximum", "KS-1 HL-1"),
	T("0x19", "KS-2 HL-1"),
	T("0xC0", "HL-1"),
	T("0x100", "CP-11"),
	T("0xFFFFFFFF", "KS-1 SI-2"),
};

/* CP-15..CP-18: all-ones in the caller's width, none, the first processor,
 * a 32-bit caller's all-ones written out, the highest active processor and
 * the one past it. */
static const np_xbound affinities[] = {
	T("all", "CP-16 CP-17"),
	T("0", "CP-16 ST-6"),
	T("1", "CP-15"),
	T("0xFFFFFFFF", "CP-17"),
	{ "highest-active", NP_XD_CPU_TOP, 0, "CP-15 MC-2" },
	{ "one-past-active", NP_XD_CPU_TOP, 1, "CP-15 MC-2" },
};

/* CP-15: one valid element, an empty mask, the highest active processor
 * and one past it, an inactive group, a Reserved word set, the same group
 * twice (K-GROUPS). */
static const np_xbound groups[] = {
	T("none", "CP-15"),
	T("0:1", "CP-15"),
	T("0:0", "CP-15"),
	{ "0:highest-active", NP_XD_GROUP_TOP, 0, "CP-15 MC-2" },
	{ "0:one-past-active", NP_XD_GROUP_TOP, 1, "CP-15 MC-2" },
	T("1:1", "CP-15 MC-4"),
	T("0:1:1", "CP-15"),
	T("0:1,0:1", "CP-15"),
};

/* MC-3, CP-19: each kind of handle the object manager tells apart. */
static const np_xbound processes[] = {
	T("current", "MC-3 CP-19"),
	T("null", "CP-20 CP-21"),
	T("thread", "MC-3 CP-19"),
	T("invalid", "MC-3 CP-19"),
	T("other", "MC-3 CP-19"),
	T("noquery", "CP-19"),
};

/* ST-1, SP-1: the profile the prelude made (h), then the same kinds. */
static const np_xbound profile_handles[] = {
	T("h", "ST-1 SP-1"),
	T("null", "ST-1 SP-1"),
	T("current", "ST-1 SP-1"),
	T("thread", "ST-1 SP-1"),
	T("invalid", "MC-3 ST-1 SP-1"),
	T("other", "ST-1 SP-1"),
	T("noquery", "ST-1 SP-1"),
};

/* ---- NtCreateProfile and NtCreateProfileEx (CP) ---- */

/* CP-3 (segment selectors below 0x10000), AS-1 (the last user byte and the
 * limit of a 32-bit and of a 64-bit address space), CP-21 and CP-22 (user
 * or kernel space), CP-10 (the top of each kernel word). */
static const np_xbound profile_bases[] = {
	T("0x10000000", "CP-3"),
	T("0", "CP-3 CP-20"),
	T("0xFFFF", "CP-3"),
	T("0x10000", "CP-3"),
	T("0x7FFEFFFF", "AS-1 CP-21 CP-22"),
	T("0x7FFF0000", "AS-1 CP-21 CP-22"),
	T("0x80000000", "CP-21 CP-22"),
	T("0xFFFFFFFF", "CP-10"),
	T("0x7FFFFFFEFFFF", "AS-1 CP-21"),
	T("0x7FFFFFFF0000", "AS-1 CP-21"),
	T("0xFFFFFFFFFFFFFFFF", "CP-10"),
};

/* CP-9 (nothing to count, one bucket and a byte more), CP-8 (a region one
 * byte past the counters), CP-10 (the sums just below and at 2^32 and 2^64
 * for this ProfileBase), and the widest 32-bit and the narrowest 64-bit size. */
static const np_xbound profile_sizes[] = {
	T("0x1000", "CP-8 CP-9"),
	T("0", "CP-9 CP-22"),
	T("1", "CP-9"),
	T("4", "CP-9"),
	T("5", "CP-8 CP-9"),
	T("0x1001", "CP-8 CP-9"),
	{ "wrap32-1", NP_XD_WRAP32, -1, "CP-10" },
	{ "wrap32", NP_XD_WRAP32, 0, "CP-10" },
	{ "wrap64-1", NP_XD_WRAP64, -1, "CP-10" },
	{ "wrap64", NP_XD_WRAP64, 0, "CP-10" },
	T("0xFFFFFFFF", "CP-10"),
	T("0x100000000", "CP-10"),
};

/* CP-7: 2 to 31 and one either side; 0 is segment mode on x86 (CP-3, CP-6). */
static const np_xbound bucket_sizes[] = {
	T("2", "CP-7"),
	T("0", "CP-3 CP-6 CP-7"),
	T("1", "CP-7"),
	T("3", "CP-7"),
	T("30", "CP-7"),
	T("31", "CP-7"),
	T("32", "CP-7"),
	T("0xFFFFFFFF", "CP-7"),
};

/* CP-2 (0), CP-4 and CP-5 (below 4), CP-6 (one counter), then each side of
 * the capacity tests of CP-8 and CP-9 for this ProfileSize and BucketSize,
 * and a buffer no address space holds (CP-13). */
static const np_xbound buffer_sizes[] = {
	T("0x1000", "CP-8 CP-9"),
	T("0", "CP-2 CP-5"),
	T("1", "CP-4 CP-5"),
	T("3", "CP-4 CP-5"),
	T("4", "CP-4 CP-6"),
	T("5", "CP-9"),
	{ "cp8-1", NP_XD_CP8, -1, "CP-8" },
	{ "cp8", NP_XD_CP8, 0, "CP-8" },
	{ "cp8+1", NP_XD_CP8, 1, "CP-8" },
	{ "cp9-1", NP_XD_CP9, -1, "CP-9" },
	{ "cp9", NP_XD_CP9, 0, "CP-9" },
	{ "cp9+1", NP_XD_CP9, 1, "CP-9" },
	T("0xFFFFFFFF", "CP-13"),
};

/* CP-14, CP-15: the count from Groups, none, one, two, the largest USHORT,
 * and one more (which a USHORT drops to 0). */
static const np_xbound group_counts[] = {
	T("auto", "CP-15"),
	T("0", "CP-15"),
	T("1", "CP-14"),
	T("2", "CP-14"),
	T("0xFFFF", "CP-14"),
	T("0x10000", "CP-14 CP-15"),
};

/* ---- the interval calls (SI, QI, HL) ---- */

/* HL-2 and HL-4: each side of ProfileTime's limits and of every other
 * source's, 0, and the ends of a ULONG (SI-2). */
static const np_xbound intervals[] = {
	T("39063", "HL-2"),
	T("0", "SI-2 HL-4"),
	T("1", "HL-4"),
	T("1220", "HL-2 HL-4"),
	T("1221", "HL-2"),
	T("0xFFF", "HL-2 HL-4"),
	T("0x1000", "HL-2"),
	T("10000000", "HL-2"),
	T("10000001", "HL-2 HL-4"),
	T("0x7FFFFFFF", "HL-2"),
	T("0x80000000", "HL-4"),
	T("0xFFFFFFFF", "SI-2 HL-4"),
};

/* ---- the Trace* functions (TR) ---- */

static const np_xbound trace_intervals[] = {
	T("0", "TR-4"),
	T("1221", "HL-2 TR-4"),
	T("0xFFFFFFFF", "SI-2 HL-4"),
};

/* TR-2: only 0 passes. */
static const np_xbound session_handles[] = {
	T("0", "TR-2"),
	T("1", "TR-2"),
	T("0xFFFFFFFF", "TR-2"),
	T("0xFFFFFFFFFFFFFFFF", "TR-2"),
};

/* TR-1, TR-11, TR-12: the two classes and their neighbours. */
static const np_xbound trace_classes[] = {
	T("5", "TR-1"),
	T("4", "TR-11 TR-12"),
	T("6", "TR-11"),
	T("7", "TR-1 TR-7"),
	T("8", "TR-11"),
};

/* TR-3: exactly 8. */
static const np_xbound trace_set_lengths[] = {
	T("8", "TR-3"),
	T("0", "TR-3"),
	T("7", "TR-3"),
	T("9", "TR-3"),
	T("0xFFFFFFFF", "TR-3"),
};

/* TR-3 for class 5; TR-7 for class 7 (0x28 bytes for the Default HAL). */
static const np_xbound trace_query_lengths[] = {
	T("auto", "TR-3 TR-7"),
	T("0", "TR-3 TR-7"),
	T("7", "TR-3"),
	T("8", "TR-3"),
	T("9", "TR-3"),
	T("0x27", "TR-7"),
	T("0x28", "TR-7"),
	T("0x29", "TR-7"),
	T("0xFFFFFFFF", "TR-7"),
};

/* ---- NtSetSystemInformation and NtQuerySystemInformation (SY) ---- */

/* SY-4: the two modelled classes and the neighbours of 0x81. */
static const np_xbound sysinfo_classes[] = {
	T("0x81", "SY-6 SY-7"),
	T("0x1F", "SY-20"),
	T("0x80", "SY-4"),
	T("0x82", "SY-4"),
};

/* SY-10 (allocate), SY-14 (free), SY-9 (only the byte is read). */
static const np_xbound allocates[] = {
	T("1", "SY-10"),
	T("0", "SY-14"),
	T("2", "SY-9"),
	T("255", "SY-9"),
};

/* SY-21..SY-24: each side of the modelled sub-classes, ones accepted from a
 * later version (0x12 from 1607, 0x19 from 1803), and all ones. */
static const np_xbound event_trace_classes[] = {
	T("3", "SY-23"),
	T("0", "SY-22"),
	T("2", "SY-22"),
	T("4", "SY-22"),
	T("0x0D", "SY-22 SY-24"),
	T("0x12", "SY-22"),
	T("0x19", "SY-22"),
	T("0xFFFFFFFF", "SY-21 SY-22"),
};

static const np_xbound profile_intervals[] = {
	T("0", "SY-23"),
	T("1221", "HL-2 SY-23"),
	T("0xFFFFFFFF", "HL-4 SY-23"),
};

/* SY-1 (0: no buffer), SY-21 (below 4), SY-8 (exactly 8 or 16), SY-23 (8). */
static const np_xbound set_sysinfo_lengths[] = {
	T("auto", "SY-8 SY-23"),
	T("0", "SY-1 SY-21"),
	T("3", "SY-21"),
	T("4", "SY-21"),
	T("7", "SY-8 SY-23"),
	T("8", "SY-8 SY-23"),
	T("9", "SY-8 SY-23"),
	T("15", "SY-8"),
	T("16", "SY-8"),
	T("17", "SY-8"),
};

/* As for the set, and SY-24's 0x28 bytes. */
static const np_xbound query_sysinfo_lengths[] = {
	T("auto", "SY-23 SY-24"),
	T("0", "SY-1 SY-21"),
	T("3", "SY-21"),
	T("4", "SY-21"),
	T("7", "SY-23"),
	T("8", "SY-23"),
	T("9", "SY-23"),
	T("0x27", "SY-24"),
	T("0x28", "SY-24"),
	T("0x29", "SY-24"),
};

/* Function-specific lists first, then lists by parameter name. */
static const np_xlist lists[] = {
	LIST("NtStartProfile", "ProfileHandle", profile_handles),
	LIST("NtStopProfile", "ProfileHandle", profile_handles),
	LIST("NtSetIntervalProfile", "Interval", intervals),
	LIST("TraceSetInformation", "Interval", trace_intervals),
	LIST("TraceSetInformation", "InformationClass", trace_classes),
	LIST("TraceQueryInformation", "InformationClass", trace_classes),
	LIST("TraceSetInformation", "InformationLength", trace_set_lengths),
	LIST("TraceQueryInformation", "InformationLength", trace_query_lengths),
	LIST("NtSetSystemInformation", "SystemInformationLength", set_sysinfo_lengths),
	LIST("NtQuerySystemInformation", "SystemInformationLength", query_sysinfo_lengths),
	LIST(NULL, "Process", processes),
	LIST(NULL, "ProfileBase", profile_bases),
	LIST(NULL, "ProfileSize", profile_sizes),
	LIST(NULL, "BucketSize", bucket_sizes),
	LIST(NULL, "BufferSize", buffer_sizes),
	LIST(NULL, "GroupCount", group_counts),
	LIST(NULL, "SessionHandle", session_handles),
	LIST(NULL, "InformationClass", sysinfo_classes),
	LIST(NULL, "Allocate", allocates),
	LIST(NULL, "EventTraceClass", event_trace_classes),
	LIST(NULL, "ProfileInterval", profile_intervals),
};

static const np_xlist by_kind[] = {
	LIST(NULL, "(pointer)", pointers),
	LIST(NULL, "(source)", sources),
	LIST(NULL, "(affinity)", affinities),
	LIST(NULL, "(groups)", groups),
};

const np_xlist *np_xbounds_param(const np_function *f, const np_param *p)
{
	for (unsigned pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
			const np_xlist *l = &lists[i];
			bool fn_ok = pass == 0 ? l->function && strcmp(l->function, f->name) == 0
					       : l->function == NULL;
			if (fn_ok && strcmp(l->name, p->name) == 0)
				return l;
		}
	switch (p->kind) {
	case NP_PARAM_POINTER:
	case NP_PARAM_OUT_HANDLE:
	case NP_PARAM_BUFFER:
		return &by_kind[0];
	case NP_PARAM_SOURCE:
		return &by_kind[1];
	case NP_PARAM_AFFINITY:
		return &by_kind[2];
	case NP_PARAM_GROUPS:
		return &by_kind[3];
	default:
		return NULL;
	}
}

/* ---- machine states (given keys, fixtures/README.md) ---- */

static const np_xbound privileges[] = {
	T("off", "MC-1"),
	T("on", "SI-1 CP-21 TR-5"),
};

static const np_xbound modes[] = {
	T("user", "MC-1"),
	T("kernel", "AS-2 CP-19 SY-7 TR-10"),
};

/* MC-2: one processor, two, all of a 32-bit KAFFINITY, all of a 64-bit one. */
static const np_xbound cpu_counts[] = {
	T("1", "MC-1 MC-2"),
	T("2", "MC-2 CP-15"),
	T("32", "MC-2 CP-17"),
	T("64", "MC-2 MC-4"),
};

static const np_xbound integrities[] = {
	T("medium", "MC-1"),
	T("low", "CP-22"),
};

static const np_xlist givens[] = {
	LIST(NULL, "privilege", privileges),
	LIST(NULL, "mode", modes),
	LIST(NULL, "cpus", cpu_counts),
	LIST(NULL, "integrity", integrities),
};

const np_xlist *np_xbounds_given(unsigned *count)
{
	*count = sizeof givens / sizeof *givens;
	return givens;
}

/* A plain profile of the caller's own process, for the handle calls. */
#define PRELUDE_CREATE "NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 " \
		       "ProfileSize=0x1000 BucketSize=2 BufferSize=0x1000"
static const char *const start_prelude[] = { PRELUDE_CREATE, NULL };
static const char *const stop_prelude[] = { PRELUDE_CREATE, "NtStartProfile ProfileHandle=h", NULL };

const char *const *np_xprelude(const np_function *f)
{
	if (f->id == NP_FN_START_PROFILE)
		return start_prelude;
	if (f->id == NP_FN_STOP_PROFILE)
		return stop_prelude;
	return NULL;
}

bool np_xexplorable(const np_function *f)
{
	return f->kind == NP_KIND_NATIVE || f->kind == NP_KIND_WIN32 || f->kind == NP_KIND_SYSINFO;
}

/* ---- sequences ---- */

/* Calls that only show a bug through what a later call sees: the interval
 * set, then read back (SI-3, SI-4, QI-5: a query that ignores the set); a
 * profile made with the explored arguments, then started (ST-1); a profile
 * started, stopped and started again (ST-2, SP-2: a stop that does not
 * undo the start). `$Source` takes the explored call's Source. */
static const char *const query_after_set[] = { "NtQueryIntervalProfile Source=$Source", NULL };
static const char *const start_after_create[] = { "NtStartProfile ProfileHandle=h", NULL };
static const char *const stop_then_start[] = { "NtStopProfile ProfileHandle=h", "NtStartProfile ProfileHandle=h",
					       NULL };

static const np_xsequence sequences[] = {
	{ "set-query", "NtSetIntervalProfile", NULL, query_after_set },
	{ "create-start", "NtCreateProfile", "ProfileHandle=>h", start_after_create },
	{ "start-stop-start", "NtStartProfile", NULL, stop_then_start },
};

const np_xsequence *np_xsequences(unsigned *count)
{
	*count = sizeof sequences / sizeof *sequences;
	return sequences;
}
