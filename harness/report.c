/* Reports of a run: text (people), TAP (Kyua, prove), JUnit XML (CI), JSON
 * (machines; `ntprof compare` merges these). Every failure line locates
 * itself: file:line, vector, target, rules, step, expected and got. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ntprof/runner.h"

bool np_format_parse(const char *text, np_format *out)
{
	static const char *const names[] = { "text", "tap", "junit", "json" };
	for (unsigned i = 0; i < 4; i++)
		if (strcasecmp(text, names[i]) == 0)
			return *out = (np_format)i, true;
	return false;
}

static void rules_of(const np_vector *v, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < v->nrule && used < cap; i++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? "," : "", v->rule[i]);
}

static int step_line(const np_row *r)
{
	return r->step >= 0 ? r->vector->step[r->step].line : r->vector->line;
}

static void text_row(FILE *out, const np_row *r)
{
	char rules[256];
	rules_of(r->vector, rules, sizeof rules);
	fprintf(out, "%-17s %s on %s/%s [%s] %s:%d", np_class_name(r->cls), r->vector->id,
		np_version_key(r->target.version), np_arch_name(r->target.arch), rules,
		r->vector->file, step_line(r));
	if (r->step >= 0)
		fprintf(out, " step %d %s: expected %s, got %s", r->step + 1,
			r->vector->step[r->step].function, r->expected, r->got);
	if (r->note[0])
		fprintf(out, " (%s)", r->note);
	if (r->model[0])
		fprintf(out, " [model: %s]", r->model);
	if (r->fixture[0])
		fprintf(out, " [fixture: %s]", r->fixture);
	fputc('\n', out);
}

static void summary_line(FILE *out, const np_run *run, const char *prefix)
{
	fprintf(out, "%s", prefix);
	for (unsigned c = 0; c < NP_CLASS_COUNT; c++)
		fprintf(out, "%s%u %s", c ? ", " : "", run->tally[c], np_class_name((np_class)c));
	fputc('\n', out);
}

static void report_text(FILE *out, const np_run *run, bool verbose)
{
	fprintf(out, "ntprof run: backend %s, %u vectors, %u targets, %u results\n", run->backend,
		run->vectors, run->targets, run->count);
	for (unsigned i = 0; i < run->nenv; i++)
		fprintf(out, "env %s: %s\n", run->env[i].name, run->env[i].value);
	for (unsigned i = 0; i < run->count; i++) {
		const np_row *r = &run->row[i];
		if (verbose || (r->cls != NP_CLASS_MATCH && r->cls != NP_CLASS_NOT_APPLICABLE))
			text_row(out, r);
	}
	summary_line(out, run, "summary: ");
}

static void report_tap(FILE *out, const np_run *run)
{
	fprintf(out, "TAP version 13\n1..%u\n", run->count);
	for (unsigned i = 0; i < run->count; i++) {
		const np_row *r = &run->row[i];
		bool bad = np_class_is_failure(r->cls);
		fprintf(out, "%s %u - %s on %s/%s", bad ? "not ok" : "ok", i + 1, r->vector->id,
			np_version_key(r->target.version), np_arch_name(r->target.arch));
		if (r->cls == NP_CLASS_NOT_APPLICABLE || r->cls == NP_CLASS_SKIPPED)
			fprintf(out, " # SKIP %s: %s", np_class_name(r->cls), r->note);
		else if (r->cls != NP_CLASS_MATCH)
			fprintf(out, " # %s", np_class_name(r->cls));
		fputc('\n', out);
		if (bad) {
			fprintf(out, "  # ");
			text_row(out, r);
		}
	}
	summary_line(out, run, "# ");
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

static void report_junit(FILE *out, const np_run *run)
{
	unsigned failures = 0, skipped = 0;
	for (unsigned i = 0; i < run->count; i++) {
		failures += np_class_is_failure(run->row[i].cls);
		skipped += run->row[i].cls == NP_CLASS_NOT_APPLICABLE || run->row[i].cls == NP_CLASS_SKIPPED;
	}
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<testsuite name=\"ntprof-");
	escape(out, run->backend, true);
	fprintf(out, "\" tests=\"%u\" failures=\"%u\" skipped=\"%u\">\n", run->count, failures, skipped);
	for (unsigned i = 0; i < run->count; i++) {
		const np_row *r = &run->row[i];
		fprintf(out, "  <testcase classname=\"");
		escape(out, r->vector->id, true);
		fprintf(out, "\" name=\"%s/%s\">", np_version_key(r->target.version), np_arch_name(r->target.arch));
		if (np_class_is_failure(r->cls)) {
			fprintf(out, "<failure type=\"%s\" message=\"", np_class_name(r->cls));
			escape(out, r->vector->file, true);
			fprintf(out, ":%d step %d: expected ", step_line(r), r->step + 1);
			escape(out, r->expected, true);
			fprintf(out, ", got ");
			escape(out, r->got, true);
			fprintf(out, "\"/>");
		} else if (r->cls == NP_CLASS_NOT_APPLICABLE || r->cls == NP_CLASS_SKIPPED) {
			fprintf(out, "<skipped message=\"");
			escape(out, r->note, true);
			fprintf(out, "\"/>");
		}
		fprintf(out, "</testcase>\n");
	}
	fprintf(out, "</testsuite>\n");
}

static void json_field(FILE *out, const char *name, const char *value, bool comma)
{
	fprintf(out, "\"%s\":\"", name);
	escape(out, value, false);
	fprintf(out, "\"%s", comma ? "," : "");
}

static void report_json(FILE *out, const np_run *run)
{
	fprintf(out, "{\"tool\":\"ntprof\",\"format\":1,");
	json_field(out, "backend", run->backend, true);
	fprintf(out, "\"environment\":{");
	for (unsigned i = 0; i < run->nenv; i++)
		json_field(out, run->env[i].name, run->env[i].value, i + 1 < run->nenv);
	fprintf(out, "},\"summary\":{");
	for (unsigned c = 0; c < NP_CLASS_COUNT; c++)
		fprintf(out, "%s\"%s\":%u", c ? "," : "", np_class_name((np_class)c), run->tally[c]);
	fprintf(out, "},\"results\":[\n");
	for (unsigned i = 0; i < run->count; i++) {
		const np_row *r = &run->row[i];
		char rules[256];
		rules_of(r->vector, rules, sizeof rules);
		fprintf(out, "{");
		json_field(out, "vector", r->vector->id, true);
		json_field(out, "version", np_version_key(r->target.version), true);
		json_field(out, "arch", np_arch_name(r->target.arch), true);
		json_field(out, "class", np_class_name(r->cls), true);
		json_field(out, "rules", rules, true);
		json_field(out, "file", r->vector->file, true);
		fprintf(out, "\"line\":%d,\"step\":%d,", step_line(r), r->step + 1);
		json_field(out, "expected", r->expected, true);
		json_field(out, "got", r->got, true);
		json_field(out, "model", r->model, true);
		json_field(out, "fixture", r->fixture, true);
		json_field(out, "note", r->note, false);
		fprintf(out, "}%s\n", i + 1 < run->count ? "," : "");
	}
	fprintf(out, "]}\n");
}

void np_report(FILE *out, const np_run *run, np_format fmt, bool verbose)
{
	switch (fmt) {
	case NP_FORMAT_TEXT:  report_text(out, run, verbose); break;
	case NP_FORMAT_TAP:   report_tap(out, run); break;
	case NP_FORMAT_JUNIT: report_junit(out, run); break;
	case NP_FORMAT_JSON:  report_json(out, run); break;
	}
}
