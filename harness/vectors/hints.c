/* SPDX-License-Identifier: MIT */
/* Messages that help: what a step or an expectation got wrong, said with
 * the word at fault and, when a name is near it, "did you mean X?" (the
 * model's edit distance, ntprof/names.h). The parser's own messages stay
 * short and fixed (tests compare them); these wrap them where a person
 * reads them: a vector file's file:line, `ntprof call`. Also the out-values
 * each function reports, so that an `expect` naming one it lacks fails as
 * the file is read. */
#include <stdio.h>
#include <string.h>

#include "ntprof/configure.h"
#include "ntprof/names.h"
#include "ntprof/status.h"
#include "vectors/arg_value.h"
#include "vectors/catalog.h"
#include "vectors/hints.h"
#include "vectors/parse_internal.h"

/* The out-values a function's record can carry (run/interpreter_steps.c
 * writes them); a function missing here is not checked. */
static const struct {
	const char *function;
	const char *outs;   /* space-separated; "" for none */
} out_table[] = {
	{ "NtSetIntervalProfile", "" },
	{ "NtQueryIntervalProfile", "Interval" },
	{ "TraceSetInformation", "" },
	{ "TraceQueryInformation", "Interval ReturnLength Sources Limits" },
	{ "ReadEvents", "Events" },
	{ "NtCreateProfile", "ProfileHandle" },
	{ "NtCreateProfileEx", "ProfileHandle" },
	{ "NtStartProfile", "" },
	{ "NtStopProfile", "" },
	{ "NtClose", "" },
	{ "NtDuplicateObject", "TargetHandle" },
	{ "Interrupt", "Counted" },
	{ "ReadBuffer", "Buffer" },
	{ "WriteBuffer", "" },
	{ "FreeBuffer", "" },
	{ "NtSetSystemInformation", "ProcessorProfileControlArea" },
	{ "NtQuerySystemInformation", "ProfileInterval ReturnLength Sources Limits ProcessorProfileControlArea" },
	{ "MoveThread", "Cpu" },
	{ "SetCpus", "" },
	{ "SetIntervalElsewhere", "" },
	{ "Protect", "" },
};

static const char *outs_of(const np_function *f)
{
	for (size_t i = 0; i < sizeof out_table / sizeof *out_table; i++)
		if (strcmp(out_table[i].function, f->name) == 0)
			return out_table[i].outs;
	return NULL;
}

static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p += len;
		p += *p == ' ';
	}
	return false;
}

const char *np_out_check(const np_step *step, const char *name, char *buf, size_t cap)
{
	const np_function *f = step->catalog ? step->catalog : np_function_find(step->function);
	const char *outs = f ? outs_of(f) : NULL;
	if (!outs || word_in(outs, name))
		return NULL;
	snprintf(buf, cap, "%s has no out-value %s (%s%s)", f->name, name, *outs ? "it reports: " : "it reports none",
		 outs);
	return buf;
}

/* " (did you mean X?)" when there is an X, else "". */
static const char *did_you_mean(const char *near, char *buf, size_t cap)
{
	if (!near)
		return "";
	snprintf(buf, cap, " (did you mean %s?)", near);
	return buf;
}

static const char *nearest_function(const char *name)
{
	np_nearest n;
	np_nearest_start(&n, name);
	for (unsigned i = 0; np_function_at(i); i++) {
		np_nearest_offer(&n, np_function_at(i)->name);
		if (np_function_at(i)->alias)
			np_nearest_offer(&n, np_function_at(i)->alias);
	}
	return np_nearest_found(&n);
}

/* "A, B, C": the parameters of f; only the required ones when required. */
static void param_list(const np_function *f, bool required, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	for (const np_param *p = f->param; p->name && used < cap; p++)
		if (!required || !p->fallback)
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", p->name);
}

/* The near value of a parameter's kind, for the kinds that have names. */
static const char *nearest_value(const np_param *p, const char *value)
{
	if (p->kind == NP_PARAM_SOURCE)
		return np_source_nearest(value);
	if (p->kind != NP_PARAM_CHOICE || !p->choices)
		return NULL;
	static const char sep[] = "|";
	char words[NP_TEXT_MAX];
	np_nearest n;
	np_nearest_start(&n, value);
	if (!np_copy_text(words, sizeof words, p->choices))
		return NULL;
	for (char *save = NULL, *w = strtok_r(words, sep, &save); w; w = strtok_r(NULL, sep, &save))
		np_nearest_offer(&n, w);
	/* the word points into words: find it again in the catalog's own text */
	const char *found = np_nearest_found(&n);
	return found ? strstr(p->choices, found) : NULL;
}

/* The argument at fault in a step that failed with error; false when none is. */
static bool explain_args(const np_function *f, char **tok, unsigned n, const char *error, char *buf,
			 size_t cap)
{
	char hint[NP_NAME_MAX + 24], list[400];
	for (unsigned i = 1; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		if (!eq)
			continue;
		*eq = '\0';
		const np_param *p = np_param_find(f, tok[i]);
		if (!p) {
			np_nearest near;
			np_nearest_start(&near, tok[i]);
			for (const np_param *q = f->param; q->name; q++)
				np_nearest_offer(&near, q->name);
			param_list(f, false, list, sizeof list);
			snprintf(buf, cap, "%s: `%s`%s; %s takes %s", error, tok[i],
				 did_you_mean(np_nearest_found(&near), hint, sizeof hint), f->name,
				 *list ? list : "none");
			return true;
		}
		np_arg typed;
		if (np_arg_parse(p, eq + 1, &typed)) {
			const char *near = nearest_value(p, eq + 1);
			char word[NP_NAME_MAX];
			if (near && p->kind == NP_PARAM_CHOICE) {
				snprintf(word, sizeof word, "%.*s", (int)strcspn(near, "|"), near);
				near = word;
			}
			snprintf(buf, cap, "%s: %s=%s%s%s%s", error, tok[i], eq + 1,
				 did_you_mean(near, hint, sizeof hint), p->choices ? " (one of " : "",
				 p->choices ? p->choices : "");
			if (p->choices)
				strncat(buf, ")", cap - strlen(buf) - 1);
			return true;
		}
		*eq = '=';
	}
	return false;
}

const char *np_step_explain(const char *line, const char *error, char *buf, size_t cap)
{
	char text[NP_LINE_MAX], hint[NP_NAME_MAX + 24], list[400];
	char *tok[NP_TOKENS_MAX];
	if (!np_copy_text(text, sizeof text, line))
		return error;
	unsigned n = np_tokenize(text, tok, NP_TOKENS_MAX);
	if (n == 0)
		return error;
	const np_function *f = np_function_find(tok[0]);
	if (!f) {
		snprintf(buf, cap, "%s: `%s`%s", error, tok[0], did_you_mean(nearest_function(tok[0]), hint, sizeof hint));
		return buf;
	}
	if (strcmp(error, "a required argument is missing") == 0) {
		param_list(f, true, list, sizeof list);
		snprintf(buf, cap, "%s: %s needs %s", error, f->name, list);
		return buf;
	}
	return explain_args(f, tok, n, error, buf, cap) ? buf : error;
}

const char *np_outcome_explain(const char *token, const char *error, char *buf, size_t cap)
{
	char hint[NP_NAME_MAX + 24];
	const char *near = strncmp(token, "ERROR_", 6) == 0 ? np_win32_nearest(token) : np_status_nearest(token);
	snprintf(buf, cap, "%s `%s`%s", error, token, did_you_mean(near, hint, sizeof hint));
	return buf;
}

const char *np_given_explain(const char *token, const char *error, char *buf, size_t cap)
{
	char key[NP_NAME_MAX], hint[NP_NAME_MAX + 24];
	size_t n = strcspn(token, "=");
	snprintf(key, sizeof key, "%.*s", (int)(n < sizeof key ? n : sizeof key - 1), token);
	if (strcmp(error, "unknown given key") != 0)
		return error;
	snprintf(buf, cap, "%s `%s`%s", error, key, did_you_mean(np_config_nearest(key), hint, sizeof hint));
	return buf;
}
