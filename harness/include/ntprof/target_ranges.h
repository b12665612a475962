/* SPDX-License-Identifier: MIT */
/* A set of targets written as runs of versions per architecture, the way
 * `explore` and the text report of `run` name where something happened:
 * "6.2..22H2/x86, 6.2..11-24H2/x64". */
#ifndef NTPROF_TARGET_RANGES_H
#define NTPROF_TARGET_RANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "ntprof/version.h"

/* A set of targets: at[version][arch]. */
typedef struct np_target_grid {
	bool at[NP_VERSION_COUNT][NP_ARCH_COUNT];
} np_target_grid;

/* Room for any set's text: a run of one version per target at worst, each
 * "KEY..KEY/ARCH, " (keys and architecture names are under 10 characters). */
#define NP_TARGET_RANGES_MAX ((size_t)NP_VERSION_COUNT * NP_ARCH_COUNT * 32)

/* Writes the targets of in, architecture by architecture (x86, x64, wow64)
 * and in the version table's order within each, as runs "LO..HI/ARCH" (or
 * "V/ARCH" for a run of one) separated by ", ". ran holds the targets
 * considered: a run ends at a target of ran that is not in in, and a
 * target outside ran (one that was not run) neither ends nor extends a run.
 * "" for an empty set; a text longer than cap is cut there. */
void np_target_ranges(const np_target_grid *in, const np_target_grid *ran, char *buf, size_t cap);

#endif
