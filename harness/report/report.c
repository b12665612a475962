/* SPDX-License-Identifier: MIT */
/* Reports of a run, in the formats of ntprof/report_formats.h: the table's
 * dispatch, and the writers of text (people), TAP (Kyua, prove) and JUnit
 * XML (CI); JSON's is report_json.c. Every failure line locates itself:
 * file:line, vector, target, rules, step, expected and got. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ntprof/coverage.h"
#include "ntprof/known.h"
#include "ntprof/runner.h"
#include "report/report_groups.h"
#include "report/report_json.h"

/* The table of ntprof/report_formats.h, in np_format's order. */
static const struct {
	const char *name;
	void (*write)(FILE *out, const np_run *run, bool verbose);
} formats[NP_FORMAT_COUNT] = {
#define FORMAT(ID, name, writer, what) { name, writer },
	NP_REPORT_FORMATS(FORMAT, FORMAT)
#undef FORMAT
};

bool np_format_parse(const char *text, np_format *out)
{
	for (unsigned i = 0; i < NP_FORMAT_COUNT; i++)
		if (strcasecmp(text, formats[i].name) == 0)
			return *out = (np_format)i, true;
	return false;
}

void np_report(FILE *out, const np_run *run, np_format fmt, bool verbose)
{
	formats[fmt].write(out, run, verbose);
}

/* JSON has a result per target whatever --verbose says. */
void np_report_json_rows(FILE *out, const np_run *run, bool verbose)
{
	(void)verbose;
	np_report_json(out, run);
}

static int step_line(const np_row *r)
{
	return r->step >= 0 ? r->vector->step[r->step].line : r->vector->line;
}

/* One row's line, its target named: --verbose, and TAP's comment on a failure. */
static void text_row(FILE *out, const np_run *run, const np_row *r)
{
	char tail[NP_ROW_TAIL_MAX];
	np_row_tail(run, r, true, tail, sizeof tail);
	fprintf(out, "%-17s %s on %s/%s%s\n", np_class_name(r->cls), r->vector->id,
		np_version_key(r->target.version), np_arch_name(r->target.arch), tail);
}

static void entry_text(FILE *out, const np_known_entry *e)
{
	char step[NP_NAME_MAX];
	np_known_step_text(e, step, sizeof step);
	fprintf(out, "%s%s%s %s step %s: %s", e->vector, e->scope_text[0] ? " " : "", e->scope_text,
		np_class_name(e->cls), step, e->got);
}

/* A stale entry: the divergence it lists no longer happens. */
static void stale_text(FILE *out, const np_known *k, const np_known_entry *e)
{
	fprintf(out, "%s:%d: ", k->path, e->line);
	entry_text(out, e);
	fprintf(out, ": listed divergence no longer happens (now %s on %s/%s)", np_class_name(e->now),
		np_version_key(e->now_target.version), np_arch_name(e->now_target.arch));
}

static bool is_stale(const np_known_entry *e)
{
	return e->ran && !e->matched;
}

static void known_summary(FILE *out, const np_known *k, const char *prefix)
{
	fprintf(out, "%sknown divergences %s: %u entries, %u rows known, %u unlisted, %u stale, %u not run\n",
		prefix, k->path, k->count, k->known, k->unlisted, k->stale, k->not_run);
}

/* Not run, or not asked: TAP's SKIP, JUnit's skipped. */
static bool skip_class(np_class c)
{
	return c == NP_CLASS_NOT_APPLICABLE || c == NP_CLASS_SKIPPED || c == NP_CLASS_NOT_REQUIRED ||
	       c == NP_CLASS_NOT_IMPLEMENTED;
}

/* The coverage line of an implementation under test (ntprof/coverage.h). */
static void coverage_line(FILE *out, const np_run *run, const char *prefix)
{
	np_coverage c;
	if (!run->under_test)
		return;
	np_coverage_count(run, &c);
	np_coverage_text(out, &c, prefix);
}

static void summary_line(FILE *out, const np_run *run, const char *prefix)
{
	fprintf(out, "%s", prefix);
	for (unsigned c = 0; c < np_run_summary_classes(run); c++)
		fprintf(out, "%s%u %s", c ? ", " : "", run->tally[c], np_class_name((np_class)c));
	fputc('\n', out);
}

void np_report_text(FILE *out, const np_run *run, bool verbose)
{
	const char *grouped = verbose ? "" : "; grouped by cause: function, rule and outcome, "
					     "its vectors under it (--verbose: a line per target)";
	if (run->system[0])   /* a live run: where it ran */
		fprintf(out, "ntprof %s on %s: %u vectors, %u results%s\n", run->command, run->system,
			run->vectors, run->count, grouped);
	else
		fprintf(out, "ntprof run: backend %s, %u vectors, %u targets, %u results%s\n", run->backend,
			run->vectors, run->targets, run->count, grouped);
	for (unsigned i = 0; i < run->nenv; i++)
		fprintf(out, "env %s: %s\n", run->env[i].name, run->env[i].value);
	/* short of memory to group them, the rows shown by default a line each */
	bool grouped_rows = !verbose && np_report_groups(out, run);
	for (unsigned i = 0; !grouped_rows && i < run->count; i++)
		if (verbose || !np_class_is_quiet(run->row[i].cls))
			text_row(out, run, &run->row[i]);
	if (run->known) {
		for (unsigned i = 0; i < run->known->count; i++) {
			const np_known_entry *e = &run->known->e[i];
			if (is_stale(e)) {
				fprintf(out, "%-17s ", "stale");
				stale_text(out, run->known, e);
				fputc('\n', out);
			} else if (verbose && !e->ran) {
				fprintf(out, "%-17s %s:%d: ", "not-run", run->known->path, e->line);
				entry_text(out, e);
				fputc('\n', out);
			}
		}
		known_summary(out, run->known, "");
	}
	summary_line(out, run, "summary: ");
	coverage_line(out, run, "");
}

static unsigned stale_count(const np_run *run)
{
	return run->known ? run->known->stale : 0;
}

/* TAP has a test per target whatever --verbose says. */
void np_report_tap(FILE *out, const np_run *run, bool verbose)
{
	(void)verbose;
	fprintf(out, "TAP version 13\n1..%u\n", run->count + stale_count(run));
	if (run->system[0])
		fprintf(out, "# ntprof %s on %s\n", run->command, run->system);
	for (unsigned i = 0; i < run->nenv; i++)   /* a live run's system, before its results */
		fprintf(out, "# env %s: %s\n", run->env[i].name, run->env[i].value);
	for (unsigned i = 0; i < run->count; i++) {
		const np_row *r = &run->row[i];
		bool bad = np_class_is_failure(r->cls);
		/* a known divergence is TAP's expected failure: not ok, with a TODO directive */
		fprintf(out, "%s %u - %s on %s/%s", bad || r->cls == NP_CLASS_KNOWN ? "not ok" : "ok", i + 1, r->vector->id,
			np_version_key(r->target.version), np_arch_name(r->target.arch));
		char note[NP_TEXT_MAX * 2];
		np_row_note_text(r, note, sizeof note);
		if (skip_class(r->cls))
			fprintf(out, " # SKIP %s: %s", np_class_name(r->cls), note);
		else if (r->cls == NP_CLASS_KNOWN)   /* TAP's expected failure */
			fprintf(out, " # TODO known %s (%s:%d)", np_class_name(r->observed), run->known->path,
				r->listed->line);
		else if (r->cls != NP_CLASS_MATCH)
			fprintf(out, " # %s", np_class_name(r->cls));
		fputc('\n', out);
		if (bad) {
			fprintf(out, "  # ");
			text_row(out, run, r);
		}
	}
	for (unsigned i = 0, n = run->count; run->known && i < run->known->count; i++) {
		if (!is_stale(&run->known->e[i]))
			continue;
		fprintf(out, "not ok %u - stale known divergence ", ++n);
		stale_text(out, run->known, &run->known->e[i]);
		fputc('\n', out);
	}
	if (run->known)
		known_summary(out, run->known, "# ");
	summary_line(out, run, "# ");
	coverage_line(out, run, "# ");
}

static void escape(FILE *out, const char *s, bool xml)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (xml && c == '&') fputs("&amp;", out);
		else if (xml && c == '<') fputs("&lt;", out);
		else if (xml && c == '>') fputs("&gt;", out);
		else if (xml && c == '"') fputs("&quot;", out);
		else if (!xml && (c == '"' || c == '\\')) fprintf(out, "\\%c", c);
		else if (c < 0x20) fprintf(out, xml ? "&#%u;" : "\\u%04x", c);
		else fputc(c, out);
	}
}

/* The coverage of an implementation under test, as JUnit properties:
 * "exercised" and "exercised FUNCTION", each "N of M vector-targets". */
static void junit_coverage(FILE *out, const np_run *run)
{
	np_coverage c;
	if (!run->under_test)
		return;
	np_coverage_count(run, &c);
	fprintf(out, "    <property name=\"exercised\" value=\"%u of %u vector-targets%s\"/>\n", c.exercised,
		c.required, c.exercised ? "" : ": nothing was exercised");
	for (unsigned i = 0; i < c.nfn; i++)
		fprintf(out, "    <property name=\"exercised %s\" value=\"%u of %u vector-targets\"/>\n",
			c.fn[i].name, c.fn[i].exercised, c.fn[i].required);
}

/* JUnit has a test case per target whatever --verbose says. */
void np_report_junit(FILE *out, const np_run *run, bool verbose)
{
	(void)verbose;
	unsigned failures = stale_count(run), skipped = 0;
	for (unsigned i = 0; i < run->count; i++) {
		np_class c = run->row[i].cls;
		failures += np_class_is_failure(c);
		skipped += skip_class(c) || c == NP_CLASS_KNOWN;
	}
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<testsuite name=\"ntprof-");
	escape(out, run->system[0] ? run->command : run->backend, true);
	fprintf(out, "\" tests=\"%u\" failures=\"%u\" skipped=\"%u\">\n", run->count + stale_count(run),
		failures, skipped);
	if (run->nenv || run->under_test) {   /* a live run's system, the coverage: JUnit properties */
		fprintf(out, "  <properties>\n");
		for (unsigned i = 0; i < run->nenv; i++) {
			fprintf(out, "    <property name=\"");
			escape(out, run->env[i].name, true);
			fprintf(out, "\" value=\"");
			escape(out, run->env[i].value, true);
			fprintf(out, "\"/>\n");
		}
		junit_coverage(out, run);
		fprintf(out, "  </properties>\n");
	}
	for (unsigned i = 0; i < run->count; i++) {
		const np_row *r = &run->row[i];
		char text[NP_TEXT_MAX * 3];
		fprintf(out, "  <testcase classname=\"");
		escape(out, r->vector->id, true);
		fprintf(out, "\" name=\"%s/%s\">", np_version_key(r->target.version), np_arch_name(r->target.arch));
		if (np_class_is_failure(r->cls)) {
			fprintf(out, "<failure type=\"%s\" message=\"", np_class_name(r->cls));
			escape(out, r->vector->file, true);
			fprintf(out, ":%d step %d: expected ", step_line(r), r->step + 1);
			np_row_expected_text(r, text, sizeof text);
			escape(out, text, true);
			fprintf(out, ", got ");
			np_row_got_text(r, text, sizeof text);
			escape(out, text, true);
			if (run->known) {
				fprintf(out, " (unlisted in ");
				escape(out, run->known->path, true);
				fputc(')', out);
			}
			fprintf(out, "\"/>");
		} else if (r->cls == NP_CLASS_KNOWN) {
			/* JUnit has no expected failure: a known divergence is skipped, with why */
			fprintf(out, "<skipped message=\"known %s, ", np_class_name(r->observed));
			escape(out, run->known->path, true);
			fprintf(out, ":%d: ", r->listed->line);
			escape(out, r->listed->reason, true);
			fprintf(out, "\"/>");
		} else if (skip_class(r->cls)) {
			fprintf(out, "<skipped message=\"");
			np_row_note_text(r, text, sizeof text);
			escape(out, text, true);
			fprintf(out, "\"/>");
		}
		fprintf(out, "</testcase>\n");
	}
	for (unsigned i = 0; run->known && i < run->known->count; i++) {
		const np_known_entry *e = &run->known->e[i];
		if (!is_stale(e))
			continue;
		fprintf(out, "  <testcase classname=\"known-divergences\" name=\"");
		escape(out, run->known->path, true);
		fprintf(out, ":%d\"><failure type=\"stale\" message=\"", e->line);
		escape(out, e->vector, true);
		char step[NP_NAME_MAX];
		np_known_step_text(e, step, sizeof step);
		fprintf(out, " %s step %s: ", np_class_name(e->cls), step);
		escape(out, e->got, true);
		fprintf(out, ": listed divergence no longer happens (now %s on %s/%s)\"/></testcase>\n",
			np_class_name(e->now), np_version_key(e->now_target.version), np_arch_name(e->now_target.arch));
	}
	fprintf(out, "</testsuite>\n");
}
