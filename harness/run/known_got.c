/* SPDX-License-Identifier: MIT */
/* A known-divergence entry's GOT compared by value, not by spelling: the
 * report prints an outcome with its code (`STATUS_SUCCESS (0x00000000)`),
 * a hand-written entry may leave the code out or spell the status as a
 * number. Both are read by the parser the vectors use. */
#include <stdio.h>
#include <string.h>

#include "run/known_got.h"
#include "vectors/catalog.h"
#include "ntprof/number.h"

#define MAX_TOKENS (NP_MAX_OUTS + 4)

/* Splits a copy of text (in buf) at blanks. */
static unsigned split(char *buf, char **tok, unsigned cap, bool *overflow)
{
	unsigned n = 0;
	*overflow = false;
	for (char *s = buf; *s;) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (!*s)
			break;
		if (n == cap) {
			*overflow = true;
			return n;
		}
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	return n;
}

/* `(0xC0000002)` or `(5)` after a name: the code the report printed. */
static bool paren_code(const char *tok, uint32_t *code)
{
	size_t n = strlen(tok);
	uint64_t x;
	if (n < 3 || tok[0] != '(' || tok[n - 1] != ')' || !np_number_parse_len(tok + 1, n - 2, &x) ||
	    x > 0xFFFFFFFFu)
		return false;
	*code = (uint32_t)x;
	return true;
}

/* The outcome at tok[0..]: *used tokens, its code included. A name the
 * report could not name (`STATUS_?`, `ERROR_?`, `bugcheck ?`) takes the
 * code in parentheses; a named one must agree with it. */
static const char *outcome_of(char **tok, unsigned n, unsigned *used, np_outcome *o)
{
	bool two = strcmp(tok[0], "fault") == 0 || strcmp(tok[0], "bugcheck") == 0;
	const char *name = two && n > 1 ? tok[1] : tok[0];
	uint32_t code;
	if (strcmp(tok[0], "done") == 0) {
		o->kind = NP_RESULT_NONE;
		o->code = 0;
		*used = 1;
		return NULL;
	}
	if (name[0] && name[strlen(name) - 1] == '?') {
		unsigned at = two ? 2 : 1;
		if (at >= n || !paren_code(tok[at], &code))
			return "an outcome without a name needs its code in parentheses";
		o->kind = two ? (tok[0][0] == 'f' ? NP_RESULT_FAULT : NP_RESULT_BUGCHECK)
			      : strncmp(name, "ERROR_", 6) == 0 ? NP_RESULT_WIN32 : NP_RESULT_STATUS;
		o->code = code;
		*used = at + 1;
		return NULL;
	}
	const char *why = np_parse_outcome((const char *const *)tok, n, used, o);
	if (why)
		return why;
	if (*used == 0)
		return "expected an outcome before the out-values";
	if (*used < n && tok[*used][0] == '(') {
		if (!paren_code(tok[*used], &code))
			return "expected the outcome's code in parentheses, as (0xC0000002) or (5)";
		if (code != o->code)
			return "the outcome's name and its code in parentheses disagree";
		(*used)++;
	}
	return NULL;
}

const char *np_known_value_parse(const char *text, np_known_value *v)
{
	char buf[NP_TEXT_MAX * 2 + 1];
	char *tok[MAX_TOKENS];
	bool overflow;
	memset(v, 0, sizeof *v);
	if (strlen(text) >= sizeof buf)
		return "too long";
	strcpy(buf, text);
	unsigned n = split(buf, tok, MAX_TOKENS, &overflow), used;
	if (overflow)
		return "too many out-values";
	if (n == 0)
		return "expected an outcome";
	const char *why = outcome_of(tok, n, &used, &v->outcome);
	if (why)
		return why;
	for (unsigned i = used; i < n; i++) {
		np_pair o;
		np_pair_split how = np_split_pair(tok[i], &o);
		if (how == NP_PAIR_MALFORMED)
			return "expected Name=Value out-values after the outcome";
		if (v->nout == NP_MAX_OUTS)
			return "too many out-values";
		if (how == NP_PAIR_TOO_LONG)
			return "out-value name or value too long";
		v->out[v->nout++] = o;
	}
	return NULL;
}

static bool same_value(const char *name, const char *a, const char *b)
{
	uint64_t x, y;
	uint32_t cx[NP_MAX_COUNTERS], cy[NP_MAX_COUNTERS];
	unsigned nx, ny;
	if (strcmp(name, "Buffer") == 0 && np_counters_parse(a, cx, NP_MAX_COUNTERS, &nx) &&
	    np_counters_parse(b, cy, NP_MAX_COUNTERS, &ny))
		return nx == ny && memcmp(cx, cy, nx * sizeof *cx) == 0;
	if (np_number_parse(a, &x) && np_number_parse(b, &y))
		return x == y;
	return strcmp(a, b) == 0;
}

bool np_known_value_equal(const np_known_value *a, const np_known_value *b)
{
	if (a->outcome.kind != b->outcome.kind || a->outcome.code != b->outcome.code || a->nout != b->nout)
		return false;
	for (unsigned i = 0; i < a->nout; i++) {
		const np_pair *found = NULL;
		for (unsigned k = 0; k < b->nout && !found; k++)
			if (strcmp(a->out[i].name, b->out[k].name) == 0)
				found = &b->out[k];
		if (!found || !same_value(a->out[i].name, a->out[i].value, found->value))
			return false;
	}
	return true;
}

bool np_known_value_of(const np_answer *a, np_known_value *v)
{
	memset(v, 0, sizeof *v);
	if (!a || a->stage != NP_STAGE_STEP)
		return false;
	v->outcome = a->outcome;
	for (unsigned i = 0; i < a->nout; i++) {
		snprintf(v->out[i].name, sizeof v->out[i].name, "%s", np_answer_name(a, i));
		np_answer_value_text(a, i, v->out[i].value, sizeof v->out[i].value);
	}
	v->nout = a->nout;
	return true;
}
