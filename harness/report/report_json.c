/* SPDX-License-Identifier: MIT */
/* The JSON report of a run, format 3 (schema/run-result-v3.schema.json):
 * every value typed, so that a reader needs no second parser: rules as an
 * array, each outcome as an object (kind, name, code as a number and as
 * hex text, out-values by name), null where a value is absent. A row keeps
 * its outcomes as canonical text (harness/report/record_text.c); this file
 * takes that text apart again along the grammar record_text.c writes. */
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

/* ---- outcomes: the canonical text taken apart ---- */

/* The words record_text.c writes for the kinds that carry no code. */
static const char *const plain_kinds[][2] = {
	{ "not-exported", "not-exported" }, { "not-applicable", "not-applicable" }, { "stub", "stub" },
	{ "crashed", "crashed" }, { "corruption", "corruption" }, { "done", "none" },
	{ "applicable", "applicable" },   /* the model's word when it takes the vector (runner.c) */
};

/* Skips the word at *p; returns its length. */
static size_t word_at(const char **p, char *buf, size_t cap)
{
	size_t n = strcspn(*p, " ");
	snprintf(buf, cap, "%.*s", (int)n, *p);
	*p += n;
	while (**p == ' ')
		(*p)++;
	return n;
}

/* "NAME (0x0000ABCD)", "NAME (87)": the name, and the code when there is
 * one; *hex tells which of the two the parentheses held. */
static bool named_code(const char **p, char *name, size_t cap, unsigned long *code, bool *hex)
{
	word_at(p, name, cap);
	if ((*p)[0] != '(')
		return false;
	char *end;
	*hex = (*p)[1] == '0' && (*p)[2] == 'x';
	*code = strtoul(*p + 1, &end, *hex ? 16 : 10);
	if (*end != ')')
		return false;
	*p = end + 1;
	while (**p == ' ')
		(*p)++;
	return true;
}

static void out_values(FILE *out, const char *p)
{
	fputs("\"out\":{", out);
	for (bool first = true; *p; first = false) {
		char pair[NP_TEXT_MAX * 2];
		word_at(&p, pair, sizeof pair);
		char *eq = strchr(pair, '=');
		if (!eq)
			continue;
		*eq = '\0';
		fputs(first ? "" : ",", out);
		json_string(out, pair);
		fputc(':', out);
		json_string(out, eq + 1);
	}
	fputc('}', out);
}

/* The kind, name and code of the text at *p (moved past them). */
static void kind_name_code(FILE *out, const char **p)
{
	char name[NP_TEXT_MAX * 2];
	const char *kind = NULL;
	for (unsigned i = 0; i < sizeof plain_kinds / sizeof *plain_kinds && !kind; i++) {
		size_t n = strlen(plain_kinds[i][0]);
		if (strncmp(*p, plain_kinds[i][0], n) == 0 && ((*p)[n] == ' ' || !(*p)[n])) {
			kind = plain_kinds[i][1];
			*p += n + ((*p)[n] == ' ');
		}
	}
	if (kind) {
		fprintf(out, "\"kind\":\"%s\",\"name\":null,\"code\":null,\"hex\":null,", kind);
		return;
	}
	if (strncmp(*p, "fault ", 6) == 0 || strncmp(*p, "bugcheck ", 9) == 0)
		kind = (*p)[0] == 'f' ? "fault" : "bugcheck", *p += (*p)[0] == 'f' ? 6 : 9;
	unsigned long code = 0;
	bool hex = true, coded = named_code(p, name, sizeof name, &code, &hex);
	fprintf(out, "\"kind\":\"%s\",", kind ? kind : hex ? "status" : "win32");
	member(out, "name", strchr(name, '?') ? "" : name, true);
	if (coded)
		fprintf(out, "\"code\":%lu,\"hex\":\"0x%08lX\",", code, code);
	else
		fputs("\"code\":null,\"hex\":null,", out);
}

/* An outcome object, or null for "". The model's "not applicable (why)"
 * and a fixture's " (step N)" become "why" and "step". */
static void outcome(FILE *out, const char *text, bool with_step)
{
	char buf[NP_TEXT_MAX * 3];
	if (!text[0]) {
		fputs("null", out);
		return;
	}
	snprintf(buf, sizeof buf, "%s", text);
	fputc('{', out);
	char *tail = with_step ? strstr(buf, " (step ") : NULL;
	if (tail) {
		fprintf(out, "\"step\":%d,", atoi(tail + 7));
		*tail = '\0';
	}
	if (strncmp(buf, "not applicable (", 16) == 0 && buf[strlen(buf) - 1] == ')') {
		buf[strlen(buf) - 1] = '\0';
		fputs("\"kind\":\"not-applicable\",\"name\":null,\"code\":null,\"hex\":null,\"why\":", out);
		json_string(out, buf + 16);
		fputs(",\"out\":{}", out);
	} else {
		const char *p = buf;
		kind_name_code(out, &p);
		out_values(out, p);
	}
	fputs(",\"text\":", out);
	json_string(out, buf);
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
	const char *parts[] = { "expected", r->expected, "got", r->got, "model", r->model, "fixture", r->fixture };
	for (unsigned i = 0; i < 8; i += 2) {
		fprintf(out, "\"%s\":", parts[i]);
		outcome(out, parts[i + 1], i == 6);
		fputc(',', out);
	}
	if (r->step >= 0 && r->rule != NP_RULE_NONE)
		member(out, "rule", np_rule_id(r->rule), true);
	else
		fputs("\"rule\":null,", out);
	member(out, "note", r->note, true);
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
