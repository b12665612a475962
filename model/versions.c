/* SPDX-License-Identifier: MIT */
/* The ordered version table (VR-1) and its parsing (VR-2, VR-3). */
#include <stdint.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "ntprof/names.h"
#include "ntprof/number.h"
#include "ntprof/version.h"

#define KH "GC-KHIST"
#define CK "common knowledge, not from the research sources (unverified)"

/* VR-1: one row per version key, in kernel build order (matches enum np_ver). */
static const np_version_info table[NP_VERSION_COUNT] = {
	[NP_V3_10]    = { "3.10",    "Windows NT 3.1",              3, 10,   511,    0, KH },
	[NP_V3_50]    = { "3.50",    "Windows NT 3.5",              3, 50,   807,    0, KH },
	[NP_V3_51]    = { "3.51",    "Windows NT 3.51",             3, 51,  1025,    0, KH },
	[NP_V4_0]     = { "4.0",     "Windows NT 4.0 (RTM to SP3)", 4,  0,  1381,    0, KH },
	[NP_V4_0SP4]  = { "4.0sp4",  "Windows NT 4.0 SP4 and later",4,  0,  1381,  133, KH },
	[NP_V5_0]     = { "5.0",     "Windows 2000",                5,  0,  2195,    0, KH },
	[NP_V5_1]     = { "5.1",     "Windows XP",                  5,  1,  2600,    0, KH },
	[NP_V5_2]     = { "5.2",     "Windows Server 2003",         5,  2,  3790,    0, KH },
	[NP_V5_2SP1]  = { "5.2sp1",  "Windows Server 2003 SP1",     5,  2,  3790, 1830, KH },
	[NP_V6_0]     = { "6.0",     "Windows Vista",               6,  0,  6000,    0, KH },
	[NP_V6_1]     = { "6.1",     "Windows 7",                   6,  1,  7600,    0, KH },
	[NP_V6_2]     = { "6.2",     "Windows 8",                   6,  2,  9200,    0, KH },
	[NP_V6_3]     = { "6.3",     "Windows 8.1",                 6,  3,  9600,    0, KH },
	[NP_V1507]    = { "1507",    "Windows 10",                 10,  0, 10240,    0, KH },
	[NP_V1511]    = { "1511",    "Windows 10 1511",            10,  0, 10586,    0, KH },
	[NP_V1607]    = { "1607",    "Windows 10 1607",            10,  0, 14393,    0, KH },
	[NP_V1703]    = { "1703",    "Windows 10 1703",            10,  0, 15063,    0, KH },
	[NP_V1709]    = { "1709",    "Windows 10 1709",            10,  0, 16299,    0, KH },
	[NP_V1803]    = { "1803",    "Windows 10 1803",            10,  0, 17134,    0, KH },
	[NP_V1809]    = { "1809",    "Windows 10 1809",            10,  0, 17763,    0, KH },
	[NP_V1903]    = { "1903",    "Windows 10 1903",            10,  0, 18362,    0, KH },
	[NP_V1909]    = { "1909",    "Windows 10 1909",            10,  0, 18363,    0, KH },
	[NP_V2004]    = { "2004",    "Windows 10 2004",            10,  0, 19041,    0, KH },
	[NP_V20H2]    = { "20H2",    "Windows 10 20H2",            10,  0, 19042,    0, CK },
	[NP_V21H1]    = { "21H1",    "Windows 10 21H1",            10,  0, 19043,    0, CK },
	[NP_V21H2]    = { "21H2",    "Windows 10 21H2",            10,  0, 19044,    0, CK },
	[NP_V22H2]    = { "22H2",    "Windows 10 22H2",            10,  0, 19045,    0, CK },
	[NP_VSRV2022] = { "srv2022", "Windows Server 2022",        10,  0, 20348,    0, CK },
	[NP_V11_21H2] = { "11-21H2", "Windows 11 21H2",            10,  0, 22000,    0, CK },
	[NP_V11_22H2] = { "11-22H2", "Windows 11 22H2",            10,  0, 22621,    0, CK },
	[NP_V11_23H2] = { "11-23H2", "Windows 11 23H2",            10,  0, 22631,    0, CK },
	[NP_V11_24H2] = { "11-24H2", "Windows 11 24H2",            10,  0, 26100,    0, CK },
	[NP_V11_25H2] = { "11-25H2", "Windows 11 25H2",            10,  0, 26200,    0, CK },
};

/* Everyday names of releases, each naming one key: a family's first
 * release (nt4 the RTM of 4.0, 10 the first Windows 10, 11 the first
 * Windows 11), and a release that shares another's kernel (srv2025, Windows
 * Server 2025, has 11 24H2's build 26100: VR-1). `ntprof versions` shows them
 * beside their keys. */
static const struct { const char *name; np_ver v; } friendly[] = {
	{ "nt4", NP_V4_0 }, { "2000", NP_V5_0 }, { "xp", NP_V5_1 }, { "2003", NP_V5_2 },
	{ "vista", NP_V6_0 }, { "win7", NP_V6_1 }, { "win8", NP_V6_2 }, { "win8.1", NP_V6_3 },
	{ "10", NP_V1507 }, { "11", NP_V11_21H2 }, { "srv2025", NP_V11_24H2 },
};
#define FRIENDLY_COUNT (sizeof friendly / sizeof *friendly)

static const char *const arch_names[NP_ARCH_COUNT] = { "x86", "x64", "wow64" };

const np_version_info *np_version_info_of(np_ver v)
{
	return (unsigned)v < NP_VERSION_COUNT ? &table[v] : NULL;
}

const char *np_version_key(np_ver v)
{
	return (unsigned)v < NP_VERSION_COUNT ? table[v].key : "?";
}

const char *np_arch_name(np_arch a)
{
	return (unsigned)a < NP_ARCH_COUNT ? arch_names[a] : "?";
}

bool np_arch_parse(const char *text, np_arch *out)
{
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		if (strcasecmp(text, arch_names[a]) == 0) {
			*out = (np_arch)a;
			return true;
		}
	}
	return false;
}

/* Reads "A.B.C" or "A.B.C.D", each part a number (ntprof/number.h), nothing else. */
static bool parse_build(const char *text, unsigned part[4], int *count)
{
	const char *p = text;
	*count = 0;
	while (*count < 4) {
		size_t len = strcspn(p, ".");
		uint64_t n;
		if (!np_number_parse_len(p, len, &n) || n > 0xFFFFFFu)
			return false;
		part[(*count)++] = (unsigned)n;
		if (p[len] == '\0')
			return *count >= 3;
		p += len + 1;
	}
	return false;
}

/* VR-2: the newest release of the same major.minor family at or below the
 * given build (and revision, which separates 4.0 SP4 and 5.2 SP1). */
/* The first letter tells most names apart, before a whole comparison:
 * every machine opened parses its version (perf: strcasecmp). */
static bool same_name(const char *text, const char *name)
{
	return tolower((unsigned char)text[0]) == tolower((unsigned char)name[0]) &&
	       strcasecmp(text, name) == 0;
}

bool np_version_parse(const char *text, np_ver *out)
{
	/* keys first, the spelling every machine is opened with (no friendly
	 * name is a key, so the order decides nothing else) */
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		if (same_name(text, table[v].key)) {
			*out = (np_ver)v;
			return true;
		}
	}
	for (unsigned k = 0; k < FRIENDLY_COUNT; k++) {
		if (same_name(text, friendly[k].name)) {
			*out = friendly[k].v;
			return true;
		}
	}
	unsigned part[4] = { 0, 0, 0, 0 };
	int count;
	if (!parse_build(text, part, &count))
		return false;
	bool found = false;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		const np_version_info *i = &table[v];
		if (i->major != part[0] || i->minor != part[1])
			continue;
		if (i->build < part[2] || (i->build == part[2] && i->revision <= part[3])) {
			*out = (np_ver)v;
			found = true;
		}
	}
	return found;
}

/* The longest low end of "LO..HI" that can name a version; NP_NAME_MAX of
 * the harness, so that its vectors' messages stay what they were. */
#define RANGE_END_MAX 48

/* A version range as vectors and K-INCLUSIVE-END write it (fixtures/README.md,
 * RANGE): "all", "LO..HI", "V", "=V", ">=V", ">V", "<=V", "<V". */
const char *np_parse_range(const char *text, np_applicability *a)
{
	np_ver v, w;
	a->lo = 0;
	a->hi = NP_VERSION_COUNT - 1;
	if (strcmp(text, "all") == 0)
		return NULL;
	const char *dots = strstr(text, "..");
	if (dots) {
		char lo[RANGE_END_MAX];
		size_t n = (size_t)(dots - text);
		if (n >= sizeof lo)
			return "version range too long";
		memcpy(lo, text, n);
		lo[n] = '\0';
		if (!np_version_parse(lo, &v) || !np_version_parse(dots + 2, &w))
			return "unknown version in range (see `ntprof versions`)";
		if (v > w)
			return "version range is empty (low above high)";
		a->lo = v;
		a->hi = w;
		return NULL;
	}
	int op = 0; /* 0 '=', 1 '>=', 2 '>', 3 '<=', 4 '<' */
	if (strncmp(text, ">=", 2) == 0) op = 1, text += 2;
	else if (strncmp(text, "<=", 2) == 0) op = 3, text += 2;
	else if (*text == '>') op = 2, text++;
	else if (*text == '<') op = 4, text++;
	else if (*text == '=') text++;
	if (!np_version_parse(text, &v))
		return "unknown version in range (see `ntprof versions`)";
	switch (op) {
	case 0: a->lo = a->hi = v; break;
	case 1: a->lo = v; break;
	case 2: if (v + 1 >= NP_VERSION_COUNT) return "version range is empty"; a->lo = v + 1; break;
	case 3: a->hi = v; break;
	default: if (v == 0) return "version range is empty"; a->hi = v - 1; break;
	}
	return NULL;
}

/* VR-2: the keys that a service pack separates from the row before them,
 * and the first service pack of each (RtlGetVersion reports the pack, not
 * the kernel's file revision that np_version_parse reads). */
static const struct { np_ver key; unsigned service_pack; } service_pack_keys[] = {
	{ NP_V4_0SP4, 4 },
	{ NP_V5_2SP1, 1 },
};

static unsigned first_service_pack(np_ver v)
{
	for (size_t i = 0; i < sizeof service_pack_keys / sizeof *service_pack_keys; i++)
		if (service_pack_keys[i].key == v)
			return service_pack_keys[i].service_pack;
	return 0;
}

bool np_version_from_build(unsigned major, unsigned minor, unsigned build, unsigned service_pack,
			   np_ver *out)
{
	bool found = false;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		const np_version_info *i = &table[v];
		if (i->major != major || i->minor != minor)
			continue;
		if (i->build < build ||
		    (i->build == build && service_pack >= first_service_pack((np_ver)v))) {
			*out = (np_ver)v;
			found = true;
		}
	}
	return found;
}

bool np_arch_exists(np_ver v, np_arch a)
{
	switch (a) {
	case NP_X86:
		return v <= NP_V22H2;          /* VR-3: no 32-bit Server 2022 or Windows 11 */
	case NP_X64:
	case NP_WOW64:
		return v >= NP_V5_2SP1;        /* VR-3: first x64 Windows */
	default:
		return false;
	}
}

const char *np_version_friendly(np_ver v)
{
	for (unsigned k = 0; k < FRIENDLY_COUNT; k++)
		if (friendly[k].v == v)
			return friendly[k].name;
	return NULL;
}

const char *np_version_nearest(const char *text)
{
	np_nearest n;
	np_nearest_start(&n, text);
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		np_nearest_offer(&n, table[v].key);
	for (unsigned k = 0; k < FRIENDLY_COUNT; k++)
		np_nearest_offer(&n, friendly[k].name);
	return np_nearest_found(&n);
}
