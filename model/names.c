/* SPDX-License-Identifier: MIT */
/* Names of profile sources (KS-1) and HAL kinds (HL-1). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "ntprof/calls.h"
#include "ntprof/names.h"
#include "ntprof/number.h"

/* KS-1: the public enumeration, unchanged since the 3.51 DDK. */
static const char *const public_sources[NP_PROFILE_MAXIMUM + 1] = {
	"ProfileTime", "ProfileAlignmentFixup", "ProfileTotalIssues", "ProfilePipelineDry",
	"ProfileLoadInstructions", "ProfilePipelineFrozen", "ProfileBranchInstructions",
	"ProfileTotalNonissues", "ProfileDcacheMisses", "ProfileIcacheMisses",
	"ProfileCacheMisses", "ProfileBranchMispredictions", "ProfileStoreInstructions",
	"ProfileFpInstructions", "ProfileIntegerInstructions", "Profile2Issue",
	"Profile3Issue", "Profile4Issue", "ProfileSpecialInstructions", "ProfileTotalCycles",
	"ProfileIcacheIssues", "ProfileDcacheAccesses", "ProfileMemoryBarrierCycles",
	"ProfileLoadLinkedIssues", "ProfileMaximum",
};

static const char *const hal_kinds[] = { "default", "emon", "amd64" };

const char *np_source_name(uint32_t source)
{
	return source <= NP_PROFILE_MAXIMUM ? public_sources[source] : NULL;
}

bool np_source_parse(const char *text, uint32_t *out)
{
	for (uint32_t s = 0; s <= NP_PROFILE_MAXIMUM; s++) {
		if (strcmp(text, public_sources[s]) == 0) {
			*out = s;
			return true;
		}
	}
	uint64_t v;
	if (!np_number_parse(text, &v) || v > 0xFFFFFFFFu)
		return false;
	*out = (uint32_t)v;
	return true;
}

const char *np_hal_kind_name(np_hal_kind k)
{
	return (unsigned)k < sizeof hal_kinds / sizeof *hal_kinds ? hal_kinds[k] : "?";
}

bool np_hal_kind_parse(const char *text, np_hal_kind *out)
{
	for (unsigned k = 0; k < sizeof hal_kinds / sizeof *hal_kinds; k++) {
		if (strcasecmp(text, hal_kinds[k]) == 0) {
			*out = (np_hal_kind)k;
			return true;
		}
	}
	return false;
}

/* Optimal string alignment distance, case ignored: two rows and the one
 * before them, for the swap of neighbours. */
unsigned np_edit_distance(const char *a, const char *b)
{
	enum { MAX = 64 };
	size_t la = strlen(a), lb = strlen(b);
	if (la >= MAX || lb >= MAX)
		return MAX;
	unsigned row[3][MAX + 1];
	for (size_t j = 0; j <= lb; j++)
		row[1][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *cur = row[(i + 1) % 3], *up = row[i % 3], *up2 = row[(i + 2) % 3];
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			unsigned d = up[j - 1] + (ca != cb);
			if (up[j] + 1 < d)
				d = up[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && up2[j - 2] + 1 < d)
				d = up2[j - 2] + 1;
			cur[j] = d;
		}
	}
	return row[(la + 1) % 3][lb];
}

void np_nearest_start(np_nearest *n, const char *word)
{
	n->word = word;
	n->best = NULL;
	n->distance = ~0u;
}

void np_nearest_offer(np_nearest *n, const char *candidate)
{
	unsigned d = np_edit_distance(n->word, candidate);
	if (d < n->distance) {
		n->distance = d;
		n->best = candidate;
	}
}

const char *np_nearest_found(const np_nearest *n)
{
	size_t limit = strlen(n->word) / 3;
	limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
	return n->best && n->distance <= limit ? n->best : NULL;
}

const char *np_source_nearest(const char *text)
{
	np_nearest n;
	np_nearest_start(&n, text);
	for (uint32_t s = 0; s <= NP_PROFILE_MAXIMUM; s++)
		np_nearest_offer(&n, public_sources[s]);
	return np_nearest_found(&n);
}
