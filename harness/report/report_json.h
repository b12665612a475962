/* SPDX-License-Identifier: MIT */
/* The JSON report of a run (format 3, schema/run-result-v3.schema.json):
 * what `ntprof run --format json` and `ntprof live --format json` write and
 * `ntprof compare` reads back (harness/report/compare_read.c). */
#ifndef NTPROF_REPORT_JSON_H
#define NTPROF_REPORT_JSON_H

#include <stdio.h>

#include "ntprof/runner.h"

/* The format's number: a reader refuses a format it does not know. */
#define NP_JSON_FORMAT 3

void np_report_json(FILE *out, const np_run *run);

/* The report's timestamp, UTC ISO 8601 ("2026-01-31T12:00:00Z"): the
 * seconds SOURCE_DATE_EPOCH names when it is set (reproducible outputs),
 * else now. False, with why, when SOURCE_DATE_EPOCH is set but is not a
 * whole number of seconds from 0 to 253402300799 (the end of year 9999). */
bool np_report_timestamp(char *buf, size_t cap, char *why, size_t whycap);

#endif
