/* SPDX-License-Identifier: MIT */
/* The explorer's report (harness/explore/explore_report.c): each class of
 * the explorer, sorted, with its representative written as a vector. */
#ifndef NTPROF_EXPLORE_REPORT_H
#define NTPROF_EXPLORE_REPORT_H

#include <stdio.h>

#include "explore/explore_classes.h"

/* Without --against: the classes of version difference. False only when
 * memory runs out. */
bool np_xreport_versions(explorer *x, FILE *out);

/* With --against: the kinds of divergence, each where it shows. False
 * only when memory runs out. */
bool np_xreport_divergences(explorer *x, FILE *out);

#endif
