/* The explorer's boundary table. Every argument of an explorable function
 * (harness/vectors/catalog.c) gets its values from here: its plain default first,
 * then the edges SPEC.md names for it, each edge with the rules that make it
 * one. Numeric edges come with their neighbours (edge - 1, edge + 1) where
 * the neighbour falls on the other side of a test. */
#include <string.h>

#include "explore/explore_table.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"

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

/* TR-1: the two classes and their neighbours. */
static const np_xbound trace_classes[] = {
	T("5", "TR-1"),
	T("4", "TR-1"),
	T("6", "TR-1"),
	T("7", "TR-1 TR-7"),
	T("8", "TR-1"),
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

/* ---- SPEC.md "Order of checks": the rules behind each outcome ---- */

#define ANY_CODE 0xFFFFFFFFu
#define FN(id) (1u << (id))
#define CREATE (FN(NP_FN_CREATE_PROFILE) | FN(NP_FN_CREATE_PROFILE_EX))
#define SYSINFO (FN(NP_FN_SET_SYSINFO) | FN(NP_FN_QUERY_SYSINFO))
#define TRACE (FN(NP_FN_TRACE_SET) | FN(NP_FN_TRACE_QUERY))

typedef struct outcome_rules {
	unsigned functions;
	np_outcome_kind kind;
	uint32_t code;        /* ANY_CODE: every code of that kind */
	const char *rules;
} outcome_rules;

static const outcome_rules outcome_table[] = {
	/* NtSetIntervalProfile */
	{ FN(NP_FN_SET_INTERVAL), NP_OUT_NOT_EXPORTED, 0, "SI-0" },
	{ FN(NP_FN_SET_INTERVAL), NP_OUT_NOT_APPLICABLE, 0, "SI-0" },
	{ FN(NP_FN_SET_INTERVAL), NP_OUT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD, "SI-1" },
	{ FN(NP_FN_SET_INTERVAL), NP_OUT_STATUS, NP_STATUS_SUCCESS, "SI-2" },
	/* NtQueryIntervalProfile */
	{ FN(NP_FN_QUERY_INTERVAL), NP_OUT_NOT_EXPORTED, 0, "QI-0" },
	{ FN(NP_FN_QUERY_INTERVAL), NP_OUT_NOT_APPLICABLE, 0, "QI-0" },
	{ FN(NP_FN_QUERY_INTERVAL), NP_OUT_STATUS, NP_STATUS_DATATYPE_MISALIGNMENT, "QI-2" },
	{ FN(NP_FN_QUERY_INTERVAL), NP_OUT_STATUS, NP_STATUS_ACCESS_VIOLATION, "QI-1 QI-3" },
	{ FN(NP_FN_QUERY_INTERVAL), NP_OUT_STATUS, NP_STATUS_SUCCESS, "QI-3 QI-4 QI-5" },
	/* TraceSetInformation, TraceQueryInformation */
	{ TRACE, NP_OUT_NOT_EXPORTED, 0, "TR-0" },
	{ TRACE, NP_OUT_NOT_APPLICABLE, 0, "TR-1 TR-10" },
	{ TRACE, NP_OUT_WIN32, NP_ERROR_NOT_SUPPORTED, "TR-1" },
	{ TRACE, NP_OUT_WIN32, NP_ERROR_INVALID_PARAMETER, "TR-2" },
	{ TRACE, NP_OUT_WIN32, NP_ERROR_BAD_LENGTH, "TR-3 TR-7" },
	{ TRACE, NP_OUT_WIN32, NP_ERROR_MORE_DATA, "TR-7" },
	{ TRACE, NP_OUT_WIN32, NP_ERROR_OUTOFMEMORY, "TR-8" },
	{ TRACE, NP_OUT_WIN32, NP_ERROR_PRIVILEGE_NOT_HELD, "TR-5 TR-6 TR-9" },
	{ TRACE, NP_OUT_WIN32, NP_ERROR_NOACCESS, "TR-6 TR-9" },
	{ TRACE, NP_OUT_WIN32, NP_ERROR_SUCCESS, "TR-4 TR-6 TR-7" },
	{ TRACE, NP_OUT_WIN32, ANY_CODE, "TR-9" },
	/* NtCreateProfile, NtCreateProfileEx */
	{ CREATE, NP_OUT_NOT_EXPORTED, 0, "CP-0" },
	{ CREATE, NP_OUT_NOT_APPLICABLE, 0, "CP-0" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_INVALID_PARAMETER_7, "CP-2 CP-4" },
	{ CREATE, NP_OUT_FAULT, ANY_CODE, "CP-5" },
	{ CREATE, NP_OUT_BUGCHECK, ANY_CODE, "CP-5" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_INVALID_PARAMETER, "CP-6 CP-7 CP-15 CP-16 CP-17 CP-20" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_BUFFER_TOO_SMALL, "CP-8 CP-9" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_BUFFER_OVERFLOW, "CP-10" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_NOT_SUPPORTED, "CP-11" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_ACCESS_VIOLATION, "CP-12 CP-13 CP-14" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_DATATYPE_MISALIGNMENT, "CP-13 CP-14" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_INVALID_HANDLE, "CP-19" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_OBJECT_TYPE_MISMATCH, "CP-19" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_ACCESS_DENIED, "CP-19 CP-22" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD, "CP-21" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_INSUFFICIENT_RESOURCES, "CP-23" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_QUOTA_EXCEEDED, "CP-23" },
	{ CREATE, NP_OUT_STATUS, NP_STATUS_SUCCESS, "CP-23 CP-24" },
	/* NtStartProfile */
	{ FN(NP_FN_START_PROFILE), NP_OUT_NOT_EXPORTED, 0, "ST-0" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_INVALID_HANDLE, "ST-1" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_OBJECT_TYPE_MISMATCH, "ST-1" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_ACCESS_DENIED, "ST-1" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_PROFILING_NOT_STOPPED, "ST-2" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_PROFILING_AT_LIMIT, "ST-3" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_INSUFFICIENT_RESOURCES, "ST-4 ST-5" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_ACCESS_VIOLATION, "ST-5" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_WORKING_SET_QUOTA, "ST-5" },
	{ FN(NP_FN_START_PROFILE), NP_OUT_STATUS, NP_STATUS_SUCCESS, "ST-6 ST-7" },
	/* NtStopProfile */
	{ FN(NP_FN_STOP_PROFILE), NP_OUT_NOT_EXPORTED, 0, "SP-0" },
	{ FN(NP_FN_STOP_PROFILE), NP_OUT_STATUS, NP_STATUS_INVALID_HANDLE, "SP-1" },
	{ FN(NP_FN_STOP_PROFILE), NP_OUT_STATUS, NP_STATUS_OBJECT_TYPE_MISMATCH, "SP-1" },
	{ FN(NP_FN_STOP_PROFILE), NP_OUT_STATUS, NP_STATUS_ACCESS_DENIED, "SP-1" },
	{ FN(NP_FN_STOP_PROFILE), NP_OUT_STATUS, NP_STATUS_PROFILING_NOT_STARTED, "SP-2" },
	{ FN(NP_FN_STOP_PROFILE), NP_OUT_STATUS, NP_STATUS_SUCCESS, "SP-3" },
	/* NtSetSystemInformation, NtQuerySystemInformation */
	{ SYSINFO, NP_OUT_NOT_EXPORTED, 0, "SY-0" },
	{ SYSINFO, NP_OUT_NOT_APPLICABLE, 0, "SY-4 SY-22" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_DATATYPE_MISALIGNMENT, "SY-1" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_ACCESS_VIOLATION, "SY-2 SY-3 SY-5" },
	{ SYSINFO, NP_OUT_FAULT, ANY_CODE, "SY-5" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_INVALID_INFO_CLASS, "SY-6 SY-20" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_ACCESS_DENIED, "SY-7" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_INFO_LENGTH_MISMATCH, "SY-8 SY-23 SY-24" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_INVALID_PARAMETER, "SY-8 SY-21" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_INSUFFICIENT_RESOURCES, "SY-10" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_NOT_SUPPORTED, "SY-11 SY-14" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_ADDRESS_ALREADY_EXISTS, "SY-12" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_MEMORY_NOT_ALLOCATED, "SY-14" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_NOT_IMPLEMENTED, "SY-20 SY-22" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_PRIVILEGE_NOT_HELD, "SY-23 TR-5" },
	{ SYSINFO, NP_OUT_STATUS, NP_STATUS_SUCCESS, "SY-13 SY-14 SY-23 SY-24" },
};

/* The signature rule of each function: what a step no table row names falls back to. */
static const char *signature_rule(np_function_id id)
{
	switch (id) {
	case NP_FN_SET_INTERVAL:      return "SI-0";
	case NP_FN_QUERY_INTERVAL:    return "QI-0";
	case NP_FN_TRACE_SET:
	case NP_FN_TRACE_QUERY:       return "TR-0";
	case NP_FN_START_PROFILE:     return "ST-0";
	case NP_FN_STOP_PROFILE:      return "SP-0";
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:     return "SY-0";
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX:
	default:                      return "CP-0";
	}
}

const char *np_xoutcome_rules(const np_function *f, const np_outcome *o)
{
	for (size_t i = 0; i < sizeof outcome_table / sizeof *outcome_table; i++) {
		const outcome_rules *r = &outcome_table[i];
		if ((r->functions & FN(f->id)) && r->kind == o->kind &&
		    (r->code == ANY_CODE || r->code == o->code))
			return r->rules;
	}
	return signature_rule(f->id);
}

bool np_xrule_fits(const np_function *f, const char *rule)
{
	static const char *const shared[] = { "VR", "MC", "AS", "KS", "HL" };
	const char *own;
	switch (f->id) {
	case NP_FN_SET_INTERVAL:   own = "SI"; break;
	case NP_FN_QUERY_INTERVAL: own = "QI"; break;
	case NP_FN_TRACE_SET:
	case NP_FN_TRACE_QUERY:    own = "TR SI QI SY"; break;
	case NP_FN_START_PROFILE:  own = "ST CP"; break;   /* the prelude creates the profile */
	case NP_FN_STOP_PROFILE:   own = "SP ST CP"; break;
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:  own = "SY TR"; break;   /* TR-5 guards a sub-class 3 set */
	default:                   own = "CP"; break;
	}
	size_t n = strcspn(rule, "-");
	if (n < 2 || n > 4 || rule[n] != '-')
		return false;
	for (size_t i = 0; i < sizeof shared / sizeof *shared; i++)
		if (strlen(shared[i]) == n && strncmp(shared[i], rule, n) == 0)
			return true;
	for (const char *c = own; *c;) {
		size_t m = strcspn(c, " ");
		if (m == n && strncmp(c, rule, n) == 0)
			return true;
		c += m;
		while (*c == ' ')
			c++;
	}
	return false;
}

/* ---- version thresholds: the predicates of ntprof/version_predicates.h ---- */

static bool source_argument(const np_machine *m) { return np_has_source_argument(m->version); }
static bool kernel_zw(const np_machine *m) { return np_kernel_exports_zw_profile(m->version); }
static bool sp4_fixes(const np_machine *m) { return np_has_sp4_profile_fixes(m->version); }
static bool group_affinity(const np_machine *m) { return np_has_group_affinity(m->version); }
static bool capacity_fixed(const np_machine *m) { return np_capacity_check_fixed(m); }
static bool create_source(const np_machine *m) { return np_create_checks_source(m->version); }
static bool restricted(const np_machine *m) { return np_checks_restricted_callers(m->version); }
static bool start_limit(const np_machine *m) { return np_has_started_profile_limit(m->version); }
static bool set_privilege(const np_machine *m) { return np_set_interval_checks_privilege(m->version); }
static bool trace_set(const np_machine *m) { return np_has_trace_set_information(m->version); }
static bool trace_query(const np_machine *m) { return np_has_trace_query_information(m->version); }
static bool trace_classes_ok(const np_machine *m) { return np_trace_handles_profile_classes(m->version); }
static bool set_sysinfo(const np_machine *m) { return np_has_set_system_information(m->version); }
static bool ppca(const np_machine *m) { return np_has_processor_profile_control_area(m->version); }
static bool perf_trace(const np_machine *m) { return np_has_performance_trace_information(m->version); }
static bool event_ids(const np_machine *m) { return np_has_event_ids_information(m->version); }

static const np_xpredicate predicates[] = {
	{ "np_has_source_argument", source_argument, "SI-0 QI-0 CP-0",
	  FN(NP_FN_SET_INTERVAL) | FN(NP_FN_QUERY_INTERVAL) | CREATE | TRACE },
	{ "np_kernel_exports_zw_profile", kernel_zw, "CP-0 ST-0 SP-0 SI-0",
	  CREATE | FN(NP_FN_START_PROFILE) | FN(NP_FN_STOP_PROFILE) | FN(NP_FN_SET_INTERVAL) },
	{ "np_has_sp4_profile_fixes", sp4_fixes, "CP-2 CP-4 CP-5 ST-6", CREATE | FN(NP_FN_START_PROFILE) },
	{ "np_has_group_affinity", group_affinity, "CP-0 CP-1 CP-15 CP-16 CP-17 CP-18",
	  CREATE | FN(NP_FN_START_PROFILE) | FN(NP_FN_STOP_PROFILE) },
	{ "np_capacity_check_fixed", capacity_fixed, "CP-8 CP-9", CREATE },
	{ "np_create_checks_source", create_source, "CP-11", CREATE },
	{ "np_checks_restricted_callers", restricted, "CP-22", CREATE },
	{ "np_has_started_profile_limit", start_limit, "ST-3", FN(NP_FN_START_PROFILE) },
	{ "np_set_interval_checks_privilege", set_privilege, "SI-1",
	  FN(NP_FN_SET_INTERVAL) | FN(NP_FN_TRACE_SET) },
	{ "np_has_trace_set_information", trace_set, "TR-0", FN(NP_FN_TRACE_SET) },
	{ "np_has_trace_query_information", trace_query, "TR-0", FN(NP_FN_TRACE_QUERY) },
	{ "np_trace_handles_profile_classes", trace_classes_ok, "TR-1", TRACE },
	{ "np_has_set_system_information", set_sysinfo, "SY-0", FN(NP_FN_SET_SYSINFO) },
	{ "np_has_processor_profile_control_area", ppca, "SY-6", SYSINFO },
	{ "np_has_performance_trace_information", perf_trace, "SY-20", SYSINFO | TRACE },
	{ "np_has_event_ids_information", event_ids, "SY-20", FN(NP_FN_QUERY_SYSINFO) },
};

const np_xpredicate *np_xpredicates(unsigned *count)
{
	*count = sizeof predicates / sizeof *predicates;
	return predicates;
}
