/* Names of profile sources (KS-1) and HAL kinds (HL-1). */
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
