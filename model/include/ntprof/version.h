/* SPDX-License-Identifier: MIT */
/* ntprof: the ordered table of Windows versions and the architectures.
 *
 * Versions are data (SPEC.md VR-1..VR-3): every behaviour change is a named
 * predicate over this one ordered enumeration (see ntprof/version_predicates.h), never a
 * comparison of build numbers scattered through the model. */
#ifndef NTPROF_VERSION_H
#define NTPROF_VERSION_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In kernel build order, which is release order but for Server 2022: build
 * 20348 sits by its build, between Windows 10 22H2 and Windows 11 21H2
 * (SPEC.md VR-1). The numeric order of the enumerators IS the version order. */
typedef enum np_ver {
	NP_V3_10, NP_V3_50, NP_V3_51, NP_V4_0, NP_V4_0SP4, NP_V5_0, NP_V5_1,
	NP_V5_2, NP_V5_2SP1, NP_V6_0, NP_V6_1, NP_V6_2, NP_V6_3,
	NP_V1507, NP_V1511, NP_V1607, NP_V1703, NP_V1709, NP_V1803, NP_V1809,
	NP_V1903, NP_V1909, NP_V2004, NP_V20H2, NP_V21H1, NP_V21H2, NP_V22H2, NP_VSRV2022,
	NP_V11_21H2, NP_V11_22H2, NP_V11_23H2, NP_V11_24H2, NP_V11_25H2,
	NP_VERSION_COUNT
} np_ver;

typedef enum np_arch { NP_X86, NP_X64, NP_WOW64, NP_ARCH_COUNT } np_arch;

typedef struct np_version_info {
	const char *key;      /* stable spelling, e.g. "4.0sp4", "1809", "11-24H2" */
	const char *product;  /* human name */
	unsigned major, minor, build, revision; /* kernel file version; revision 0 = any */
	const char *source;   /* where the build number comes from */
} np_version_info;

const np_version_info *np_version_info_of(np_ver v);
const char *np_version_key(np_ver v);
const char *np_arch_name(np_arch a);

/* Parses a key ("6.2", "1809", "11-24H2"), an everyday name ("xp", "win7",
 * "10", "srv2025") or a build ("10.0.15063",
 * "4.0.1381.133"). A build between two releases of the same family maps to
 * the newest release at or below it (VR-2). Returns false when unknown. */
bool np_version_parse(const char *text, np_ver *out);
/* The everyday name of a key ("xp" for 5.1), which np_version_parse also
 * reads, or NULL; and the key or everyday name nearest a mistyped one, or NULL. */
const char *np_version_friendly(np_ver v);
const char *np_version_nearest(const char *text);
/* The key of a live system as RtlGetVersion describes it: major, minor,
 * build and service pack. The newest row of the family at or below the
 * build; the service pack separates 4.0sp4 (SP4 on) and 5.2sp1 (SP1 on).
 * False when the family is unknown or the build below its first (VR-2). */
bool np_version_from_build(unsigned major, unsigned minor, unsigned build, unsigned service_pack,
			   np_ver *out);
bool np_arch_parse(const char *text, np_arch *out);

/* An inclusive range of versions plus a set of architectures: where a
 * vector or an expectation applies (the harness), where K-INCLUSIVE-END
 * holds (the model). */
typedef struct np_applicability {
	np_ver lo, hi;
	bool arch[NP_ARCH_COUNT];
} np_applicability;

/* Reads a version range into a->lo and a->hi (a->arch is left alone):
 * "all", "LO..HI" (inclusive), "V" or "=V", ">=V", ">V", "<=V", "<V", each
 * V a key or a build as np_version_parse reads it. Returns NULL, or why the
 * text is no range (an unknown version, an empty range). */
const char *np_parse_range(const char *text, np_applicability *a);

/* VR-3: x64 and WOW64 exist from 5.2 SP1; x86 ends with Windows 10 22H2
 * (neither Server 2022 nor Windows 11 has an x86 edition). */
bool np_arch_exists(np_ver v, np_arch a);

#ifdef __cplusplus
}
#endif

#endif
