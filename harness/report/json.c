/* SPDX-License-Identifier: MIT */
/* A small JSON reader: recursive descent over RFC 8259's grammar, into a
 * tree of np_json nodes. It reads what harness/report/report.c writes (and any
 * other well-formed JSON); it never trusts its input: every path out of a
 * malformed text is an error naming the line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"

#define MAX_DEPTH 64
#define MAX_MEMBERS 4096   /* duplicate names are found by a linear search */

typedef struct reader {
	const char *s;
	size_t len, pos;
	int line;
	int depth;
	const char *path;
	np_error *err;
	bool failed;
} reader;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static np_json *fail(reader *r, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	if (r->failed)
		return NULL;   /* keep the first, innermost message */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(r->err->text, sizeof r->err->text, "%.300s:%d: %s", r->path, r->line, msg);
	r->failed = true;
	return NULL;
}

static int peek(const reader *r)
{
	return r->pos < r->len ? (unsigned char)r->s[r->pos] : -1;
}

static void blanks(reader *r)
{
	for (int c; (c = peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r'; r->pos++)
		if (c == '\n')
			r->line++;
}

/* What stands at the reader, for messages. */
static const char *what(const reader *r, char *buf, size_t cap)
{
	int c = peek(r);
	if (c < 0)
		snprintf(buf, cap, "the end of the file");
	else if (c < 0x20 || c >= 0x7F)
		snprintf(buf, cap, "byte 0x%02X", (unsigned)c);
	else
		snprintf(buf, cap, "'%c'", c);
	return buf;
}

static np_json *node(reader *r, np_json_type t)
{
	np_json *j = calloc(1, sizeof *j);
	if (!j)
		return fail(r, "out of memory");
	j->type = t;
	j->line = r->line;
	return j;
}

/* Appends a code point as UTF-8. */
static size_t put_utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static bool hex4(reader *r, unsigned long *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		int c = peek(r);
		unsigned d;
		if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
		else return false;
		*out = *out * 16 + d;
		r->pos++;
	}
	return true;
}

/* A string at the reader (on its opening quote), decoded into a new buffer. */
static char *string(reader *r)
{
	r->pos++;   /* the opening quote */
	size_t start = r->pos, cap = 16;
	/* decoded text is never longer than the raw text */
	for (size_t p = start; p < r->len && r->s[p] != '"'; p += r->s[p] == '\\' ? 2 : 1)
		cap++;
	char *out = malloc(cap + 4), *o = out;
	if (!out)
		return fail(r, "out of memory"), NULL;
	for (;;) {
		int c = peek(r);
		if (c < 0) {
			free(out);
			return fail(r, "unterminated string"), NULL;
		}
		r->pos++;
		if (c == '"')
			break;
		if (c < 0x20) {
			free(out);
			r->pos--;
			return fail(r, "control character 0x%02X in a string (write it as \\u%04X)", (unsigned)c,
				    (unsigned)c), NULL;
		}
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		unsigned long cp;
		switch (c = peek(r), r->pos++, c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (!hex4(r, &cp)) {
				free(out);
				return fail(r, "\\u needs four hex digits"), NULL;
			}
			if (cp >= 0xDC00 && cp <= 0xDFFF) {
				free(out);
				return fail(r, "\\u%04lX: a low surrogate without a high one", cp), NULL;
			}
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				unsigned long lo;
				if (peek(r) != '\\' || (r->pos++, peek(r) != 'u') || (r->pos++, !hex4(r, &lo)) ||
				    lo < 0xDC00 || lo > 0xDFFF) {
					free(out);
					return fail(r, "\\u%04lX: a high surrogate without a low one", cp), NULL;
				}
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			}
			if (cp == 0) {
				free(out);
				return fail(r, "\\u0000 in a string (no text here holds NUL)"), NULL;
			}
			o += put_utf8(o, cp);
			break;
		default:
			free(out);
			r->pos--;
			return fail(r, "bad escape \\%c", c >= 0x20 && c < 0x7F ? c : '?'), NULL;
		}
	}
	*o = '\0';
	return out;
}

static size_t digits(reader *r)
{
	size_t n = 0;
	for (int c; (c = peek(r)) >= '0' && c <= '9'; r->pos++)
		n++;
	return n;
}

static np_json *number(reader *r)
{
	size_t start = r->pos;
	if (peek(r) == '-')
		r->pos++;
	if (peek(r) == '0') {
		r->pos++;
		if (peek(r) >= '0' && peek(r) <= '9')
			return fail(r, "a number may not start with 0");
	} else if (!digits(r)) {
		char buf[32];
		r->pos = start;
		return fail(r, "expected a value, not %s", what(r, buf, sizeof buf));
	}
	if (peek(r) == '.') {
		r->pos++;
		if (!digits(r))
			return fail(r, "expected digits after the decimal point");
	}
	if (peek(r) == 'e' || peek(r) == 'E') {
		r->pos++;
		if (peek(r) == '+' || peek(r) == '-')
			r->pos++;
		if (!digits(r))
			return fail(r, "expected digits in the exponent");
	}
	np_json *j = node(r, NP_JSON_NUMBER);
	if (!j)
		return NULL;
	size_t n = r->pos - start;
	if (!(j->text = malloc(n + 1))) {
		free(j);
		return fail(r, "out of memory");
	}
	memcpy(j->text, r->s + start, n);
	j->text[n] = '\0';
	j->number = strtod(j->text, NULL);
	return j;
}

static np_json *value(reader *r);

static bool word(reader *r, const char *w)
{
	size_t n = strlen(w);
	if (r->len - r->pos < n || memcmp(r->s + r->pos, w, n) != 0)
		return false;
	r->pos += n;
	return true;
}

/* An array or object at the reader, on its opening bracket. */
static np_json *list(reader *r, bool object)
{
	char close = object ? '}' : ']', buf[32];
	np_json *j = node(r, object ? NP_JSON_OBJECT : NP_JSON_ARRAY), **tail;
	if (!j)
		return NULL;
	if (++r->depth > MAX_DEPTH) {
		free(j);
		return fail(r, "nested deeper than %d", MAX_DEPTH);
	}
	tail = &j->child;
	r->pos++;
	blanks(r);
	if (peek(r) == close) {
		r->pos++;
		r->depth--;
		return j;
	}
	for (;;) {
		char *key = NULL;
		blanks(r);
		if (object) {
			if (peek(r) != '"') {
				np_json_free(j);
				return fail(r, "expected a member name (a string), not %s", what(r, buf, sizeof buf));
			}
			if (!(key = string(r))) {
				np_json_free(j);
				return NULL;
			}
			if (j->count == MAX_MEMBERS) {
				free(key);
				np_json_free(j);
				return fail(r, "an object with more than %d members", MAX_MEMBERS);
			}
			if (np_json_get(j, key)) {
				np_json_free(j);
				fail(r, "duplicate member \"%.200s\"", key);
				free(key);
				return NULL;
			}
			blanks(r);
			if (peek(r) != ':') {
				free(key);
				np_json_free(j);
				return fail(r, "expected ':' after a member name, not %s", what(r, buf, sizeof buf));
			}
			r->pos++;
		}
		np_json *v = value(r);
		if (!v) {
			free(key);
			np_json_free(j);
			return NULL;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		j->count++;
		blanks(r);
		if (peek(r) == close) {
			r->pos++;
			r->depth--;
			return j;
		}
		if (peek(r) != ',') {
			np_json_free(j);
			return fail(r, "expected ',' or '%c' in %s, not %s", close, object ? "an object" : "an array",
				    what(r, buf, sizeof buf));
		}
		r->pos++;
	}
}

static np_json *value(reader *r)
{
	np_json *j;
	blanks(r);
	switch (peek(r)) {
	case '{': return list(r, true);
	case '[': return list(r, false);
	case '"':
		if (!(j = node(r, NP_JSON_STRING)))
			return NULL;
		if (!(j->text = string(r))) {
			free(j);
			return NULL;
		}
		return j;
	case 't': case 'f': case 'n':
		if ((j = node(r, NP_JSON_BOOL)) && word(r, "true"))
			return j->boolean = true, j;
		if (j && word(r, "false"))
			return j;
		if (j && word(r, "null"))
			return j->type = NP_JSON_NULL, j;
		free(j);
		return fail(r, "expected a value (true, false or null?)");
	default:
		return number(r);
	}
}

np_json *np_json_parse(const char *text, size_t len, const char *path, np_error *err)
{
	reader r = { text, len, 0, 1, 0, path, err, false };
	char buf[32];
	np_json *j = value(&r);
	if (!j)
		return NULL;
	blanks(&r);
	if (r.pos != r.len) {
		np_json_free(j);
		return fail(&r, "expected the end of the file after the value, not %s", what(&r, buf, sizeof buf));
	}
	return j;
}

void np_json_free(np_json *j)
{
	while (j) {
		np_json *next = j->next;
		np_json_free(j->child);   /* depth is bounded by MAX_DEPTH */
		free(j->key);
		free(j->text);
		free(j);
		j = next;
	}
}

const np_json *np_json_get(const np_json *object, const char *key)
{
	if (!object || object->type != NP_JSON_OBJECT)
		return NULL;
	for (const np_json *m = object->child; m; m = m->next)
		if (m->key && strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

const char *np_json_type_name(np_json_type t)
{
	static const char *const names[] = { "null", "a boolean", "a number", "a string", "an array", "an object" };
	return names[t];
}
