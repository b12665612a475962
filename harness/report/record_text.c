/* SPDX-License-Identifier: MIT */
/* Canonical text of outcomes and records (the `ntprof call` line format),
 * and the typed results a run's rows keep, printed in one spelling. */
#include <stdio.h>
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/number.h"
#include "ntprof/runner.h"
#include "ntprof/status.h"

void np_format_outcome(const np_outcome *o, char *buf, size_t cap)
{
	const char *name;
	switch (o->kind) {
	case NP_RESULT_STATUS:
		name = np_status_name(o->code);
		snprintf(buf, cap, "%s (0x%08X)", name ? name : "STATUS_?", o->code);
		break;
	case NP_RESULT_WIN32:
		name = np_win32_name(o->code);
		snprintf(buf, cap, "%s (%u)", name ? name : "ERROR_?", o->code);
		break;
	case NP_RESULT_FAULT:
		name = np_status_name(o->code);
		snprintf(buf, cap, "fault %s (0x%08X)", name ? name : "STATUS_?", o->code);
		break;
	case NP_RESULT_BUGCHECK:
		name = np_bugcheck_name(o->code);
		snprintf(buf, cap, "bugcheck %s (0x%08X)", name ? name : "?", o->code);
		break;
	case NP_RESULT_NOT_EXPORTED:   snprintf(buf, cap, "not-exported"); break;
	case NP_RESULT_NOT_APPLICABLE: snprintf(buf, cap, "not-applicable"); break;
	case NP_RESULT_STUB:           snprintf(buf, cap, "stub"); break;
	case NP_RESULT_CRASHED:        snprintf(buf, cap, "crashed"); break;
	case NP_RESULT_NONE:           snprintf(buf, cap, "done"); break;
	case NP_RESULT_CORRUPTION:     snprintf(buf, cap, "corruption"); break;
	}
}

void np_format_record(const char *function, const np_record *r, char *buf, size_t cap)
{
	char outcome[96];
	np_format_outcome(&r->outcome, outcome, sizeof outcome);
	size_t used = r->outcome.kind == NP_RESULT_NONE  /* a pseudo-step: out-values only */
			      ? (size_t)snprintf(buf, cap, "%s ->", function)
			      : (size_t)snprintf(buf, cap, "%s -> %s", function, outcome);
	if (r->why[0] && used < cap)
		used += (size_t)snprintf(buf + used, cap - used, " (%s)", r->why);
	for (unsigned i = 0; i < r->nout && used < cap; i++)
		used += (size_t)snprintf(buf + used, cap - used, " %s=%s", r->out[i].name, r->out[i].value);
}

/* ---- results: outcomes and out-values as rows keep them ---- */

/* Copies text into the result's text; its offset, or the offset of "" when
 * there is no room left (the value then reads as empty). */
static uint16_t keep_text(np_answer *res, const char *text)
{
	size_t n = strlen(text) + 1;
	if (n > sizeof res->text - res->used)
		return 0;
	memcpy(res->text + res->used, text, n);
	res->used = (uint16_t)(res->used + n);
	return (uint16_t)(res->used - n);
}

/* An outcome as an answer keeps it: a kind that prints no code (a stub,
 * a crash) keeps none, so that answers equal in every report are equal. */
static np_outcome kept_outcome(np_outcome o)
{
	if (!np_result_kind_coded(o.kind))
		o.code = 0;
	return o;
}

static void result_start(np_answer *out, np_stage stage)
{
	out->stage = (uint8_t)stage;
	out->nout = 0;
	out->text[0] = '\0';   /* offset 0: the empty text */
	out->used = 1;
	out->why = 0;
	out->outcome = (np_outcome){ NP_RESULT_NONE, 0 };
}

/* Buffer= values are counter lists however their runs are spelt: kept in
 * the one spelling np_counters_format writes. */
static bool counters_text(const char *name, const char *value, char *buf, size_t cap)
{
	static uint32_t c[NP_MAX_COUNTERS];
	unsigned n;
	if (strcmp(name, "Buffer") != 0 || !np_counters_parse(value, c, NP_MAX_COUNTERS, &n))
		return false;
	np_counters_format(c, n, buf, cap);
	return true;
}

void np_answer_add(np_answer *res, const char *name, const char *value)
{
	char list[NP_TEXT_MAX];
	uint64_t number;
	if (res->nout == NP_MAX_OUTS)
		return;
	np_value *v = &res->out[res->nout++];
	memset(v, 0, sizeof *v);
	v->name = keep_text(res, name);
	if (strcmp(value, "-") == 0) {
		v->form = NP_VALUE_ABSENT;
	} else if (counters_text(name, value, list, sizeof list)) {
		v->form = NP_VALUE_TEXT;
		v->text = keep_text(res, list);
	} else if (np_number_parse(value, &number)) {
		v->form = NP_VALUE_NUMBER;
		v->number = number;
	} else {
		v->form = NP_VALUE_TEXT;
		v->text = keep_text(res, value);
	}
}

void np_answer_from_record(const np_record *rec, np_answer *out)
{
	result_start(out, NP_STAGE_STEP);
	out->outcome = kept_outcome(rec->outcome);
	for (unsigned i = 0; i < rec->nout; i++)
		np_answer_add(out, rec->out[i].name, rec->out[i].value);
}

void np_answer_from_expect(const np_expect *e, np_answer *out)
{
	result_start(out, NP_STAGE_STEP);
	out->outcome = kept_outcome(e->outcome);
	for (unsigned i = 0; i < e->nout; i++)
		np_answer_add(out, e->out[i].name, e->out[i].value);
}

void np_answer_open(np_answer *out, const char *why)
{
	result_start(out, why ? NP_STAGE_OPEN_REFUSED : NP_STAGE_OPEN_TOOK);
	if (why)
		out->why = keep_text(out, why);
}

void np_answer_outcome(np_answer *out, np_outcome o)
{
	result_start(out, NP_STAGE_STEP);
	out->outcome = kept_outcome(o);
}

void np_answer_timeout(np_answer *out)
{
	result_start(out, NP_STAGE_TIMEOUT);
}

const char *np_answer_name(const np_answer *res, unsigned i)
{
	return res->text + res->out[i].name;
}

const char *np_answer_why(const np_answer *res)
{
	return res->stage == NP_STAGE_OPEN_REFUSED ? res->text + res->why : "";
}

/* The out-values printed in hex: addresses. */
static bool spelt_in_hex(const char *name)
{
	return strcmp(name, "ProcessorProfileControlArea") == 0;
}

void np_answer_value_text(const np_answer *res, unsigned i, char *buf, size_t cap)
{
	const np_value *v = &res->out[i];
	if (v->form == NP_VALUE_ABSENT)
		snprintf(buf, cap, "-");
	else if (v->form == NP_VALUE_TEXT)
		snprintf(buf, cap, "%s", res->text + v->text);
	else if (spelt_in_hex(np_answer_name(res, i)))
		snprintf(buf, cap, "0x%llX", (unsigned long long)v->number);
	else
		snprintf(buf, cap, "%llu", (unsigned long long)v->number);
}

void np_answer_text(const np_answer *res, char *buf, size_t cap)
{
	switch (res->stage) {
	case NP_STAGE_NONE:         snprintf(buf, cap, "%s", ""); return;
	case NP_STAGE_OPEN_TOOK:    snprintf(buf, cap, "applicable"); return;
	case NP_STAGE_OPEN_REFUSED: snprintf(buf, cap, "not applicable (%s)", np_answer_why(res)); return;
	case NP_STAGE_TIMEOUT:      snprintf(buf, cap, "timeout"); return;
	default:                    break;
	}
	np_format_outcome(&res->outcome, buf, cap);
	size_t used = strlen(buf);
	for (unsigned i = 0; i < res->nout && used < cap; i++) {
		char value[NP_TEXT_MAX];
		np_answer_value_text(res, i, value, sizeof value);
		used += (size_t)snprintf(buf + used, cap - used, " %s=%s", np_answer_name(res, i), value);
	}
}

static bool same_value(const np_answer *a, const np_value *x, const np_answer *b, const np_value *y)
{
	if (x->form != y->form)
		return false;
	if (x->form == NP_VALUE_NUMBER)
		return x->number == y->number;
	return x->form == NP_VALUE_ABSENT || strcmp(a->text + x->text, b->text + y->text) == 0;
}

bool np_answer_equal(const np_answer *a, const np_answer *b)
{
	if (a->stage != b->stage || a->nout != b->nout)
		return false;
	if (a->stage == NP_STAGE_OPEN_REFUSED)
		return strcmp(np_answer_why(a), np_answer_why(b)) == 0;
	if (a->stage != NP_STAGE_STEP)
		return true;
	if (a->outcome.kind != b->outcome.kind || a->outcome.code != b->outcome.code)
		return false;
	for (unsigned i = 0; i < a->nout; i++) {
		unsigned k = 0;
		while (k < b->nout && strcmp(np_answer_name(a, i), np_answer_name(b, k)) != 0)
			k++;
		if (k == b->nout || !same_value(a, &a->out[i], b, &b->out[k]))
			return false;
	}
	return true;
}

/* The kinds as result files name them, by number. */
static const char *const kind_words[NP_RESULT_LAST + 1] = {
	"status", "win32", "fault", "bugcheck", "not-exported", "not-applicable", "none", "corruption",
	"stub", "crashed",
};

const char *np_result_kind_word(np_result_kind k)
{
	return (unsigned)k <= NP_RESULT_LAST ? kind_words[k] : "?";
}

bool np_result_kind_parse(const char *word, np_result_kind *k)
{
	for (unsigned i = 0; i <= NP_RESULT_LAST; i++)
		if (strcmp(word, kind_words[i]) == 0)
			return *k = (np_result_kind)i, true;
	return false;
}

bool np_result_kind_coded(np_result_kind k)
{
	return k == NP_RESULT_STATUS || k == NP_RESULT_WIN32 || k == NP_RESULT_FAULT || k == NP_RESULT_BUGCHECK;
}

const char *np_outcome_name(const np_outcome *o)
{
	switch (o->kind) {
	case NP_RESULT_STATUS:
	case NP_RESULT_FAULT:    return np_status_name(o->code);
	case NP_RESULT_WIN32:    return np_win32_name(o->code);
	case NP_RESULT_BUGCHECK: return np_bugcheck_name(o->code);
	default:                 return NULL;
	}
}

void np_answer_brief(const np_answer *a, char *buf, size_t cap)
{
	np_answer_text(a, buf, cap);
	if (a->stage != NP_STAGE_STEP || !np_outcome_name(&a->outcome))
		return;
	/* a named outcome's code in parentheses follows its name: cut it out */
	char outcome[96];
	np_format_outcome(&a->outcome, outcome, sizeof outcome);
	char *code = strrchr(outcome, '(');
	size_t keep = code ? (size_t)(code - outcome) - 1 : strlen(outcome), full = strlen(outcome);
	if (code && full <= strlen(buf))
		memmove(buf + keep, buf + full, strlen(buf + full) + 1);
}
