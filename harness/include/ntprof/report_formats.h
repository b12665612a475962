/* SPDX-License-Identifier: MIT */
/* ntprof: every format of a run's report (`run --format`, `live --format`),
 * declared once. From this table come the enumeration np_format, the
 * parser, the dispatch to the writers (harness/report/report.c), the
 * usage lines and option text of run and live, and their --help notes;
 * conformance/cli/test_man.sh compares man/ntprof.1 with it.
 *
 *   NP_REPORT_FORMATS(FIRST, OTHER): FIRST(...) for the first format, the
 *   default, and OTHER(...) for each of the others, so that a list can be
 *   joined ("text" "|tap" ...); most uses pass one macro twice. Each is
 *   (ID, "name", writer, "what it is, one line"): ID makes NP_FORMAT_ID;
 *   writer is void writer(FILE *out, const np_run *run, bool verbose).
 *
 * Adding a format: a line here, its writer in a file of its own under
 * harness/report/, its entry in man/ntprof.1 and a test (and the golden
 * outputs of the usage text recorded anew: tools/golden.sh). */
#ifndef NTPROF_REPORT_FORMATS_H
#define NTPROF_REPORT_FORMATS_H

#define NP_REPORT_FORMATS(FIRST, OTHER) \
	FIRST(TEXT, "text", np_report_text, "for people: a heading per cause, its vectors under it") \
	OTHER(TAP, "tap", np_report_tap, "TAP version 13, a test per target (Kyua, prove)") \
	OTHER(JUNIT, "junit", np_report_junit, "JUnit XML, a test case per target (CI)") \
	OTHER(JSON, "json", np_report_json_rows, "JSON, a result per target (ntprof compare reads it)")

/* "text|tap|junit|json": the names as usage lines spell them. */
#define NP_FORMAT_NAME_FIRST(ID, name, writer, what) name
#define NP_FORMAT_NAME_OTHER(ID, name, writer, what) "|" name
#define NP_FORMAT_NAMES NP_REPORT_FORMATS(NP_FORMAT_NAME_FIRST, NP_FORMAT_NAME_OTHER)

/* --help's lines on the formats, one string initialiser per format, each
 * followed by a comma. */
#define NP_FORMAT_NOTE_FIRST(ID, name, writer, what) "  " name ": " what " (the default)",
#define NP_FORMAT_NOTE_OTHER(ID, name, writer, what) "  " name ": " what,
#define NP_FORMAT_NOTES NP_REPORT_FORMATS(NP_FORMAT_NOTE_FIRST, NP_FORMAT_NOTE_OTHER)

#endif
