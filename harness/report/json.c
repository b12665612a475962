/* SPDX-License-Identifier: MIT */
/* Reading JSON result files: jansson parses and decodes the text (RFC 8259;
 * a duplicate member name, a NUL in a string or text after the value are
 * refused), and its message names the line. The tree becomes np_json nodes,
 * each with the line its value starts on, which the messages about a file's
 * content cite and jansson does not keep: a scan of the text, known by then
 * to be well formed, lists where each value starts in document order, the
 * order of a walk of jansson's tree (objects keep their members in the order
 * read). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/json.h"

#define MAX_DEPTH 64

typedef struct spot {
	size_t off;
	int line;
} spot;

typedef struct spots {
	spot *at;
	size_t n, cap, next;
	size_t len;          /* the text's: a number may end it, with no NUL after */
} spots;

static bool add_spot(spots *s, size_t off, int line)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		spot *grown = realloc(s->at, cap * sizeof *grown);
		if (!grown)
			return false;
		s->at = grown;
		s->cap = cap;
	}
	s->at[s->n++] = (spot){ off, line };
	return true;
}

/* Past the string whose opening quote is at s[i]. */
static size_t past_string(const char *s, size_t i)
{
	for (i++; s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i + 1;
}

static bool number_char(char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Where each value of a well-formed text starts, into out: 0; the line of a
 * nesting deeper than MAX_DEPTH; -1 on out-of-memory. A string is a member
 * name where an object wants one (after '{' or a ',' in an object). No
 * string holds a raw newline (jansson refuses control characters there). */
static int scan(const char *s, size_t len, spots *out)
{
	bool object[MAX_DEPTH + 1] = { false };
	int depth = 0, line = 1;
	bool want_name = false;
	for (size_t i = 0; i < len;) {
		char c = s[i];
		if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == ':' || c == ',' || c == '}' || c == ']') {
			line += c == '\n';
			depth -= c == '}' || c == ']';
			if (c == ',' || c == '}' || c == ']')
				want_name = c == ',' && object[depth];
			i++;
		} else if (c == '"' && want_name) {
			want_name = false;
			i = past_string(s, i);
		} else if (!add_spot(out, i, line)) {
			return -1;
		} else if (c == '{' || c == '[') {
			if (++depth > MAX_DEPTH)
				return line;
			object[depth] = want_name = c == '{';
			i++;
		} else if (c == '"') {
			i = past_string(s, i);
		} else {
			while (i < len && (number_char(s[i]) || (s[i] >= 'a' && s[i] <= 'z')))
				i++;
		}
	}
	return 0;
}

static char *copy(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static np_json *convert(const json_t *v, const char *key, const char *text, spots *sp);

/* The elements or members of a container, linked as j's children. */
static bool convert_children(np_json *j, const json_t *v, const char *text, spots *sp)
{
	np_json **tail = &j->child;
	const char *name;
	json_t *m;
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, name, m) {
			if (!(*tail = convert(m, name, text, sp)))
				return false;
			tail = &(*tail)->next;
			j->count++;
		}
		return true;
	}
	for (size_t i = 0; i < json_array_size(v); i++) {
		if (!(*tail = convert(json_array_get(v, i), NULL, text, sp)))
			return false;
		tail = &(*tail)->next;
		j->count++;
	}
	return true;
}

/* v as an np_json node (its subtree with it), at the next spot; NULL on
 * out-of-memory. A number keeps its text as written. */
static np_json *convert(const json_t *v, const char *key, const char *text, spots *sp)
{
	np_json *j = sp->next < sp->n ? calloc(1, sizeof *j) : NULL;
	if (!j)
		return NULL;
	const spot at = sp->at[sp->next++];
	j->line = at.line;
	bool ok = !key || (j->key = copy(key, strlen(key)));
	switch (json_typeof(v)) {
	case JSON_OBJECT:
	case JSON_ARRAY:
		j->type = json_is_object(v) ? NP_JSON_OBJECT : NP_JSON_ARRAY;
		ok = ok && convert_children(j, v, text, sp);
		break;
	case JSON_STRING:
		j->type = NP_JSON_STRING;
		ok = ok && (j->text = copy(json_string_value(v), json_string_length(v)));
		break;
	case JSON_INTEGER:
	case JSON_REAL: {
		size_t n = 0;
		while (at.off + n < sp->len && number_char(text[at.off + n]))
			n++;
		j->type = NP_JSON_NUMBER;
		j->number = json_number_value(v);
		ok = ok && (j->text = copy(text + at.off, n));
		break;
	}
	case JSON_TRUE:
	case JSON_FALSE:
		j->type = NP_JSON_BOOL;
		j->boolean = json_is_true(v);
		break;
	case JSON_NULL:
		j->type = NP_JSON_NULL;
		break;
	}
	if (!ok) {
		np_json_free(j);
		return NULL;
	}
	return j;
}

np_json *np_json_parse(const char *text, size_t len, const char *path, np_error *err)
{
	json_error_t e;
	json_t *root = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
	if (!root) {
		np_error_at(err, path, e.line > 0 ? e.line : 0, "%s", e.text);
		return NULL;
	}
	spots sp = { .len = len };
	int deep = scan(text, len, &sp);
	np_json *j = deep == 0 ? convert(root, NULL, text, &sp) : NULL;
	json_decref(root);
	free(sp.at);
	if (deep > 0)
		np_error_at(err, path, deep, "nested deeper than %d", MAX_DEPTH);
	else if (!j)
		np_error_at(err, path, 0, "out of memory");
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
