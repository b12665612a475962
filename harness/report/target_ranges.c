/* SPDX-License-Identifier: MIT */
/* Sets of targets as runs of versions per architecture (ntprof/target_ranges.h). */
#include <stdio.h>

#include "ntprof/target_ranges.h"

/* Appends one run to buf; used is what buf holds so far. */
static size_t run_text(char *buf, size_t cap, size_t used, np_ver lo, np_ver hi, np_arch a)
{
	if (used >= cap)
		return used;
	int n = lo == hi ? snprintf(buf + used, cap - used, "%s%s/%s", used ? ", " : "", np_version_key(lo),
				    np_arch_name(a))
			 : snprintf(buf + used, cap - used, "%s%s..%s/%s", used ? ", " : "", np_version_key(lo),
				    np_version_key(hi), np_arch_name(a));
	return used + (size_t)n;
}

void np_target_ranges(const np_target_grid *in, const np_target_grid *ran, char *buf, size_t cap)
{
	size_t used = 0;
	if (cap)
		buf[0] = '\0';
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		int lo = -1, hi = -1;
		for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
			if (in->at[v][a]) {
				if (lo < 0)
					lo = (int)v;
				hi = (int)v;
			} else if (ran->at[v][a] && lo >= 0) {
				used = run_text(buf, cap, used, (np_ver)lo, (np_ver)hi, (np_arch)a);
				lo = hi = -1;
			}
		}
		if (lo >= 0)
			used = run_text(buf, cap, used, (np_ver)lo, (np_ver)hi, (np_arch)a);
	}
}
