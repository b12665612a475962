/* SPDX-License-Identifier: MIT */
/* The regular expressions of JSON Schema's "pattern", as far as a schema
 * here needs them: ^ and $ anchors, literal characters, \ before a
 * punctuation character, \d, '.', classes [a-z0-9_] (and [^...]), and the
 * quantifiers ?, *, +, {n}, {n,} and {n,m}. Groups and alternatives are
 * refused, so that a schema never relies on a part this reader ignores.
 * Matching backtracks over the atoms; patterns and strings here are short. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/json_schema.h"

typedef struct atom {
	const char *start;   /* the atom's text: a character, \x, '.' or [...] */
	size_t len;
	unsigned min, max;   /* repetitions */
} atom;

#define MAX_ATOMS 64
#define MANY 0xFFFFu

/* Reads {n}, {n,} or {n,m} at *p; false when malformed. */
static bool braces(const char **p, unsigned *min, unsigned *max)
{
	char *end;
	unsigned long a = strtoul(*p + 1, &end, 10), b = a;
	if (end == *p + 1)
		return false;
	if (*end == ',') {
		const char *q = end + 1;
		b = *q == '}' ? MANY : strtoul(q, &end, 10);
		if (*q == '}')
			end = (char *)q;
		else if (end == q)
			return false;
	}
	if (*end != '}' || a > b || b > MANY)
		return false;
	*min = (unsigned)a;
	*max = (unsigned)b;
	*p = end + 1;
	return true;
}

/* Splits the pattern into atoms; NULL, or what is not supported. */
static const char *parse(const char *p, atom *a, unsigned *n)
{
	*n = 0;
	while (*p) {
		if (*n == MAX_ATOMS)
			return "more than 64 atoms";
		if (strchr("()|", *p))
			return "groups and alternatives ( ) | are not supported";
		atom *t = &a[(*n)++];
		t->start = p;
		if (*p == '\\') {
			if (!p[1] || (p[1] != 'd' && !strchr("\\.^$[]{}()*+?|/-", p[1])))
				return "only \\d and \\ before punctuation are supported";
			p += 2;
		} else if (*p == '[') {
			const char *close = strchr(p + 1, ']');
			if (!close || close == p + 1)
				return "an unterminated or empty [class]";
			p = close + 1;
		} else if (strchr("*+?{", *p)) {
			return "a quantifier without an atom";
		} else {
			p++;
		}
		t->len = (size_t)(p - t->start);
		t->min = t->max = 1;
		if (*p == '?')
			t->min = 0, p++;
		else if (*p == '*')
			t->min = 0, t->max = MANY, p++;
		else if (*p == '+')
			t->max = MANY, p++;
		else if (*p == '{' && !braces(&p, &t->min, &t->max))
			return "a malformed {n,m}";
	}
	return NULL;
}

static bool in_class(const atom *t, char c)
{
	const char *p = t->start + 1, *end = t->start + t->len - 1;
	bool negate = *p == '^', hit = false;
	if (negate)
		p++;
	for (; p < end; p++) {
		if (p + 2 < end && p[1] == '-') {
			hit = hit || (c >= p[0] && c <= p[2]);
			p += 2;
		} else {
			hit = hit || c == *p;
		}
	}
	return hit != negate;
}

static bool one(const atom *t, char c)
{
	if (!c)
		return false;
	if (t->start[0] == '\\')
		return t->start[1] == 'd' ? c >= '0' && c <= '9' : c == t->start[1];
	if (t->start[0] == '[')
		return in_class(t, c);
	return t->start[0] == '.' || c == t->start[0];
}

/* Atoms a[i..n) match a prefix of s (the whole of s when anchored at the end). */
static bool match_here(const atom *a, unsigned i, unsigned n, const char *s, bool to_end)
{
	if (i == n)
		return !to_end || !*s;
	unsigned k = 0;
	while (k < a[i].max && one(&a[i], s[k]))
		k++;
	for (;; k--) {   /* the longest run first, then shorter ones */
		if (k >= a[i].min && match_here(a, i + 1, n, s + k, to_end))
			return true;
		if (k == 0)
			return false;
	}
}

const char *np_json_pattern_match(const char *pattern, const char *s, bool *matched)
{
	atom a[MAX_ATOMS];
	unsigned n;
	size_t len = strlen(pattern);
	bool start = pattern[0] == '^', end = len > 0 && pattern[len - 1] == '$' &&
					    (len < 2 || pattern[len - 2] != '\\');
	char body[256];
	if (len >= sizeof body)
		return "a pattern longer than 255 characters";
	snprintf(body, sizeof body, "%.*s", (int)(len - start - end), pattern + start);
	const char *why = parse(body, a, &n);
	if (why)
		return why;
	*matched = false;
	for (const char *from = s; !*matched; from++) {
		*matched = match_here(a, 0, n, from, end);
		if (start || !*from)
			break;
	}
	return NULL;
}
