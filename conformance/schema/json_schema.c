/* SPDX-License-Identifier: MIT */
/* Checking a JSON document against a schema of schema/ (json_schema.h says
 * which keywords). Every failure names the document's JSON path ($ for the
 * root, .name or ["odd name"] for a member, [i] for an element) and line. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "schema/json_schema.h"

#define MAX_REF_DEPTH 64   /* a $ref circle ends here */

typedef struct checker {
	const np_json *root;            /* the schema, for $ref */
	const char *schema_path, *doc_path;
	np_error *err;
	char where[1024];               /* the JSON path of the value checked */
	int depth;
} checker;

static const char *const keywords[] = {
	"$schema", "$id", "title", "description", "$comment", "$defs", "$ref", "type", "enum",
	"properties", "required", "additionalProperties", "propertyNames", "items", "pattern",
};

static bool schema_error(checker *c, const np_json *at, const char *what, const char *name)
{
	return np_error_at(c->err, c->schema_path, at->line, "schema: %s%s%.100s%s", what, name ? " \"" : "",
			   name ? name : "", name ? "\"" : "");
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool doc_error(checker *c, const np_json *v, const char *fmt, ...);

static bool doc_error(checker *c, const np_json *v, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return np_error_at(c->err, c->doc_path, v->line, "%s: %s", c->where, msg);
}

/* Appends .name, ["name"] or [i] to the path; returns the old length. */
static size_t push(checker *c, const char *name, unsigned index)
{
	size_t old = strlen(c->where), room = sizeof c->where - old;
	bool plain = name && name[0] && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					       "0123456789_") == strlen(name);
	if (!name)
		snprintf(c->where + old, room, "[%u]", index);
	else
		snprintf(c->where + old, room, plain ? ".%.200s" : "[\"%.200s\"]", name);
	return old;
}

static bool is_type(const np_json *v, const char *name)
{
	static const char *const names[] = { "null", "boolean", "number", "string", "array", "object" };
	if (strcmp(name, "integer") == 0)
		return v->type == NP_JSON_NUMBER && v->number >= -9e15 && v->number <= 9e15 &&
		       v->number == (double)(long long)v->number;
	return strcmp(name, names[v->type]) == 0 || (strcmp(name, "number") == 0 && v->type == NP_JSON_NUMBER);
}

static bool known_type(const char *name)
{
	static const char *const names[] = { "null", "boolean", "number", "integer", "string", "array", "object" };
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static bool check_type(checker *c, const np_json *kw, const np_json *v)
{
	const np_json *one = kw->type == NP_JSON_ARRAY ? kw->child : kw;
	char want[200] = "";
	for (; one; one = kw->type == NP_JSON_ARRAY ? one->next : NULL) {
		if (one->type != NP_JSON_STRING || !known_type(one->text))
			return schema_error(c, one, "\"type\" takes type names, not", one->text);
		if (is_type(v, one->text))
			return true;
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", want[0] ? " or " : "", one->text);
	}
	return doc_error(c, v, "type: want %s, not %s", want, np_json_type_name(v->type));
}

static bool same_scalar(const np_json *a, const np_json *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case NP_JSON_NULL:   return true;
	case NP_JSON_BOOL:   return a->boolean == b->boolean;
	case NP_JSON_NUMBER: return a->number == b->number;
	case NP_JSON_STRING: return strcmp(a->text, b->text) == 0;
	default:             return false;
	}
}

static bool check_enum(checker *c, const np_json *kw, const np_json *v)
{
	if (kw->type != NP_JSON_ARRAY || !kw->count)
		return schema_error(c, kw, "\"enum\" takes a list of values", NULL);
	for (const np_json *e = kw->child; e; e = e->next) {
		if (e->type == NP_JSON_ARRAY || e->type == NP_JSON_OBJECT)
			return schema_error(c, e, "\"enum\" takes scalars only", NULL);
		if (same_scalar(e, v))
			return true;
	}
	if (v->type == NP_JSON_STRING)
		return doc_error(c, v, "enum: \"%.100s\" is none of the values allowed", v->text);
	return doc_error(c, v, "enum: %s is none of the values allowed",
			 v->type == NP_JSON_NUMBER ? v->text : np_json_type_name(v->type));
}

static bool check(checker *c, const np_json *schema, const np_json *v);

/* A sub-schema at the path extended by name (or index). */
static bool check_at(checker *c, const np_json *schema, const np_json *v, const char *name, unsigned index)
{
	size_t old = push(c, name, index);
	bool ok = check(c, schema, v);
	c->where[old] = '\0';
	return ok;
}

static bool check_object(checker *c, const np_json *s, const np_json *v)
{
	const np_json *props = np_json_get(s, "properties"), *req = np_json_get(s, "required"),
		      *extra = np_json_get(s, "additionalProperties"), *names = np_json_get(s, "propertyNames");
	if ((props && props->type != NP_JSON_OBJECT) || (req && req->type != NP_JSON_ARRAY))
		return schema_error(c, props && props->type != NP_JSON_OBJECT ? props : req,
				    "\"properties\" takes an object, \"required\" a list", NULL);
	for (const np_json *r = req ? req->child : NULL; r; r = r->next) {
		if (r->type != NP_JSON_STRING)
			return schema_error(c, r, "\"required\" takes names", NULL);
		if (!np_json_get(v, r->text))
			return doc_error(c, v, "required: no member \"%.100s\"", r->text);
	}
	for (const np_json *m = v->child; m; m = m->next) {
		const np_json *sub = np_json_get(props, m->key);
		np_json name = { .type = NP_JSON_STRING, .line = m->line, .text = m->key };
		if (names && !check_at(c, names, &name, m->key, 0))
			return false;
		if (sub) {
			if (!check_at(c, sub, m, m->key, 0))
				return false;
		} else if (extra && extra->type == NP_JSON_BOOL && !extra->boolean) {
			push(c, m->key, 0);   /* the error names the member; the check ends here */
			return doc_error(c, m, "additionalProperties: no member of this name is allowed here");
		} else if (extra && !check_at(c, extra, m, m->key, 0)) {
			return false;
		}
	}
	return true;
}

static bool check_ref(checker *c, const np_json *kw, const np_json *v)
{
	static const char prefix[] = "#/$defs/";
	if (kw->type != NP_JSON_STRING || strncmp(kw->text, prefix, sizeof prefix - 1) != 0)
		return schema_error(c, kw, "\"$ref\" takes \"#/$defs/NAME\", not", kw->text);
	const np_json *target = np_json_get(np_json_get(c->root, "$defs"), kw->text + sizeof prefix - 1);
	if (!target)
		return schema_error(c, kw, "\"$ref\" names no definition:", kw->text);
	if (c->depth >= MAX_REF_DEPTH)
		return schema_error(c, kw, "\"$ref\" goes round in a circle at", kw->text);
	c->depth++;
	bool ok = check(c, target, v);
	c->depth--;
	return ok;
}

static bool check_keywords(checker *c, const np_json *s)
{
	for (const np_json *k = s->child; k; k = k->next) {
		unsigned i = 0;
		while (i < sizeof keywords / sizeof *keywords && strcmp(k->key, keywords[i]) != 0)
			i++;
		if (i == sizeof keywords / sizeof *keywords)
			return schema_error(c, k, "a keyword this validator does not check:", k->key);
	}
	return true;
}

static bool check(checker *c, const np_json *s, const np_json *v)
{
	if (s->type == NP_JSON_BOOL)
		return s->boolean || doc_error(c, v, "false: nothing is allowed here");
	if (s->type != NP_JSON_OBJECT)
		return schema_error(c, s, "a schema must be an object or a boolean", NULL);
	if (!check_keywords(c, s))
		return false;
	const np_json *kw;
	if ((kw = np_json_get(s, "$ref")) && !check_ref(c, kw, v))
		return false;
	if ((kw = np_json_get(s, "type")) && !check_type(c, kw, v))
		return false;
	if ((kw = np_json_get(s, "enum")) && !check_enum(c, kw, v))
		return false;
	if ((kw = np_json_get(s, "pattern")) && v->type == NP_JSON_STRING) {
		bool matched = false;
		const char *why = kw->type == NP_JSON_STRING ? np_json_pattern_match(kw->text, v->text, &matched)
							      : "\"pattern\" takes a string";
		if (why)
			return schema_error(c, kw, why, NULL);
		if (!matched)
			return doc_error(c, v, "pattern: \"%.100s\" does not match %.100s", v->text, kw->text);
	}
	if (v->type == NP_JSON_OBJECT && !check_object(c, s, v))
		return false;
	if ((kw = np_json_get(s, "items")) && v->type == NP_JSON_ARRAY) {
		unsigned i = 0;
		for (const np_json *e = v->child; e; e = e->next, i++)
			if (!check_at(c, kw, e, NULL, i))
				return false;
	}
	return true;
}

bool np_json_schema_check(const np_json *schema, const char *schema_path, const np_json *doc,
			  const char *doc_path, np_error *err)
{
	checker c = { .root = schema, .schema_path = schema_path, .doc_path = doc_path, .err = err,
		      .where = "$" };
	return check(&c, schema, doc);
}
