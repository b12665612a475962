/* SPDX-License-Identifier: MIT */
/* The JSON report of a run, format 3 (schema/run-result-v3.schema.json):
 * every value typed, so that a reader needs no second parser: rules as an
 * array, each outcome as an object (kind, name, code as a number and as
 * hex text, out-values by name), null where a value is absent: written
 * from the row's typed answers (ntprof/runner.h), their text and values
 * spelt as every report spells them (harness/report/record_text.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ntprof/coverage.h"
#include "ntprof/known.h"
#include "report/report_json.h"

#ifndef NTPROF_VERSION
#define NTPROF_VERSION "unknown"   /* the Makefile passes its VERSION */
#endif

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* "name":"value" or "name":null for "" */
static void member(FILE *out, const char *name, const char *value, bool comma)
{
	fprintf(out, "\"%s\":", name);
	if (value && value[0])
		json_string(out, value);
	else
		fputs("null", out);
	fputs(comma ? "," : "", out);
}

bool np_report_timestamp(char *buf, size_t cap, char *why, size_t whycap)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t when = time(NULL);
	if (epoch) {
		char *end;
		errno = 0;
		unsigned long long s = strtoull(epoch, &end, 10);
		if (!epoch[0] || *end || epoch[0] < '0' || epoch[0] > '9' || errno || s > 253402300799ull) {
			snprintf(why, whycap, "SOURCE_DATE_EPOCH=%.40s: want a whole number of seconds since "
				 "1970-01-01 UTC (at most 253402300799)", epoch);
			return false;
		}
		when = (time_t)s;
	}
	struct tm *t = gmtime(&when);
	if (!t || strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", t) == 0) {
		snprintf(why, whycap, "the time cannot be written as a date");
		return false;
	}
	return true;
}

/* ---- outcomes: a row's typed answers as objects ---- */

static void out_values(FILE *out, const np_answer *a)
{
	fputs("\"out\":{", out);
	for (unsigned i = 0; a->stage == NP_STAGE_STEP && i < a->nout; i++) {
		char value[NP_TEXT_MAX];
		np_answer_value_text(a, i, value, sizeof value);
		fputs(i ? "," : "", out);
		json_string(out, np_answer_name(a, i));
		fputc(':', out);
		json_string(out, value);
	}
	fputc('}', out);
}

/* An outcome object, or null for none (a step that timed out has none):
 * step, when not negative, is the 0-based step it is of. */
static void outcome(FILE *out, const np_answer *a, int step)
{
	char text[NP_TEXT_MAX * 3];
	if (!a || a->stage == NP_STAGE_TIMEOUT) {
		fputs("null", out);
		return;
	}
	fputc('{', out);
	if (step >= 0)
		fprintf(out, "\"step\":%d,", step + 1);
	const char *kind = a->stage == NP_STAGE_OPEN_TOOK ? "applicable"
			   : a->stage == NP_STAGE_OPEN_REFUSED ? "not-applicable" : np_result_kind_word(a->outcome.kind);
	fprintf(out, "\"kind\":\"%s\",", kind);
	bool with_code = a->stage == NP_STAGE_STEP && np_result_kind_coded(a->outcome.kind);
	member(out, "name", with_code ? np_outcome_name(&a->outcome) : NULL, true);
	if (with_code)
		fprintf(out, "\"code\":%lu,\"hex\":\"0x%08lX\",", (unsigned long)a->outcome.code,
			(unsigned long)a->outcome.code);
	else
		fputs("\"code\":null,\"hex\":null,", out);
	if (a->stage == NP_STAGE_OPEN_REFUSED) {
		fputs("\"why\":", out);
		json_string(out, np_answer_why(a));
		fputc(',', out);
	}
	out_values(out, a);
	np_answer_text(a, text, sizeof text);
	fputs(",\"text\":", out);
	json_string(out, text);
	fputc('}', out);
}

/* ---- the document ---- */

static void known_block(FILE *out, const np_known *k)
{
	fputs("\"known\":{", out);
	member(out, "file", k->path, true);
	fprintf(out, "\"entries\":%u,\"known\":%u,\"unlisted\":%u,\"stale\":%u,\"not-run\":%u,\"stale-entries\":[",
		k->count, k->known, k->unlisted, k->stale, k->not_run);
	bool first = true;
	for (unsigned i = 0; i < k->count; i++) {
		const np_known_entry *e = &k->e[i];
		char target[NP_NAME_MAX * 2];
		if (!e->ran || e->matched)
			continue;   /* not stale */
		snprintf(target, sizeof target, "%s/%s", np_version_key(e->now_target.version),
			 np_arch_name(e->now_target.arch));
		fprintf(out, "%s\n{\"line\":%d,", first ? "" : ",", e->line);
		member(out, "vector", e->vector, true);
		member(out, "scope", e->scope_text, true);
		member(out, "class", np_class_name(e->cls), true);
		fprintf(out, "\"step\":%d,", e->step);
		member(out, "got", e->got, true);
		member(out, "reason", e->reason, true);
		member(out, "now", np_class_name(e->now), true);
		member(out, "now-target", target, false);
		fputc('}', out);
		first = false;
	}
	fputs("]},", out);
}

static void result(FILE *out, const np_run *run, const np_row *r)
{
	const np_vector *v = r->vector;
	fputc('{', out);
	member(out, "vector", v->id, true);
	member(out, "version", np_version_key(r->target.version), true);
	member(out, "arch", np_arch_name(r->target.arch), true);
	member(out, "class", np_class_name(r->cls), true);
	member(out, "observed", np_class_name(np_row_observed(r)), true);
	fputs("\"rules\":[", out);
	for (unsigned i = 0; i < v->nrule; i++) {
		fputs(i ? "," : "", out);
		json_string(out, v->rule[i]);
	}
	fputs("],", out);
	member(out, "file", v->file, true);
	fprintf(out, "\"line\":%d,", r->step >= 0 ? v->step[r->step].line : v->line);
	if (r->step >= 0)
		fprintf(out, "\"step\":%d,", r->step + 1);
	else
		fputs("\"step\":null,", out);
	member(out, "function", r->step >= 0 ? v->step[r->step].function : "", true);
	const np_answer *fixture = np_row_fixture(r);
	const struct { const char *name; const np_answer *a; int step; } parts[] = {
		{ "expected", np_row_expected(r), -1 }, { "got", np_row_got(r), -1 },
		{ "model", np_row_model(r), -1 }, { "fixture", fixture, fixture ? r->detail->fixture_step : -1 },
	};
	for (unsigned i = 0; i < sizeof parts / sizeof *parts; i++) {
		fprintf(out, "\"%s\":", parts[i].name);
		outcome(out, parts[i].a, parts[i].step);
		fputc(',', out);
	}
	if (r->step >= 0 && r->rule != NP_RULE_NONE)
		member(out, "rule", np_rule_id(r->rule), true);
	else
		fputs("\"rule\":null,", out);
	char note[NP_TEXT_MAX * 2];
	np_row_note_text(r, note, sizeof note);
	member(out, "note", note, true);
	if (run->known && r->listed) {
		fputs("\"listed\":{", out);
		member(out, "file", run->known->path, true);
		fprintf(out, "\"line\":%d}", r->listed->line);
	} else {
		fputs("\"listed\":null", out);
	}
	fputc('}', out);
}

void np_report_json(FILE *out, const np_run *run)
{
	char stamp[64] = "", why[160];
	if (!np_report_timestamp(stamp, sizeof stamp, why, sizeof why))
		snprintf(stamp, sizeof stamp, "1970-01-01T00:00:00Z");   /* cli_run_load refused it already */
	fprintf(out, "{\"tool\":\"ntprof\",\"format\":%d,", NP_JSON_FORMAT);
	member(out, "command", run->command ? run->command : "run", true);
	member(out, "backend", run->backend, true);
	member(out, "system", run->system, true);
	fputs("\"environment\":{", out);
	member(out, "ntprof-version", NTPROF_VERSION, true);
	member(out, "timestamp", stamp, run->nenv > 0);
	for (unsigned i = 0; i < run->nenv; i++) {   /* always strings, "" too */
		json_string(out, run->env[i].name);
		fputc(':', out);
		json_string(out, run->env[i].value);
		fputs(i + 1 < run->nenv ? "," : "", out);
	}
	fputs("},\"summary\":{", out);
	for (unsigned c = 0; c < np_run_summary_classes(run); c++)
		fprintf(out, "%s\"%s\":%u", c ? "," : "", np_class_name((np_class)c), run->tally[c]);
	fputs("},", out);
	if (run->under_test) {
		np_coverage cov;
		np_coverage_count(run, &cov);
		np_coverage_json(out, &cov);
		fputc(',', out);
	}
	if (run->known)
		known_block(out, run->known);
	fputs("\"results\":[\n", out);
	for (unsigned i = 0; i < run->count; i++) {
		result(out, run, &run->row[i]);
		fputs(i + 1 < run->count ? ",\n" : "\n", out);
	}
	fputs("]}\n", out);
}
