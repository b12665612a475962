/* SPDX-License-Identifier: MIT */
/* The JSON Schema validator (harness/report/json_schema.c) and its
 * patterns (json_pattern.c): a document that keeps the schema passes; one
 * that breaks each keyword is refused with the JSON path of the value and
 * the keyword named; a schema with a keyword the validator does not check,
 * a $ref it cannot follow or a pattern outside the subset is refused as a
 * problem of the schema. */
#include "np_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/json.h"
#include "schema/json_schema.h"

/* Every keyword the validator supports, once at least. */
static const char schema_text[] =
	"{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$id\":\"urn:t\",\"title\":\"t\",\n"
	" \"description\":\"d\",\"$comment\":\"c\",\n"
	" \"type\":\"object\",\"required\":[\"id\",\"list\"],\"additionalProperties\":false,\n"
	" \"properties\":{\n"
	"  \"id\":{\"type\":\"string\",\"pattern\":\"^[a-z]+-[0-9]{2,3}$\"},\n"
	"  \"n\":{\"type\":[\"integer\",\"null\"]},\n"
	"  \"color\":{\"enum\":[\"red\",\"green\",2,null]},\n"
	"  \"list\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/item\"}},\n"
	"  \"counts\":{\"type\":\"object\",\"propertyNames\":{\"enum\":[\"a\",\"b\"]},\n"
	"             \"additionalProperties\":{\"type\":\"integer\"}},\n"
	"  \"any\":true,\"never\":false},\n"
	" \"$defs\":{\"item\":{\"type\":\"object\",\"required\":[\"k\"],\"properties\":{\"k\":{\"type\":\"boolean\"}}}}}\n";

static np_json *parse(const char *path, const char *text)
{
	np_error err;
	np_json *j = np_json_parse(text, strlen(text), path, &err);
	if (!j)
		fail_msg("%s", err.text);
	return j;
}

/* NULL when doc passes schema, else the message (in a static buffer). */
static const char *check_with(const char *schema_json, const char *doc_json)
{
	static np_error err;
	np_json *schema = parse("s.json", schema_json), *doc = parse("d.json", doc_json);
	bool ok = np_json_schema_check(schema, "s.json", doc, "d.json", &err);
	np_json_free(schema);
	np_json_free(doc);
	return ok ? NULL : err.text;
}

static void assert_refused(const char *schema_json, const char *doc_json, const char *want)
{
	const char *got = check_with(schema_json, doc_json);
	if (!got)
		fail_msg("accepted, want \"%s\": %s", want, doc_json);
	if (strcmp(got, want) != 0)
		fail_msg("want \"%s\"\n got \"%s\"", want, got);
}

static void test_json_schema_accepts_a_valid_document(void **state)
{
	(void)state;
	const char *got = check_with(schema_text, "{\"id\":\"ab-12\",\"n\":3,\"color\":2,\"list\":[{\"k\":true},{\"k\":false,"
					"\"extra\":1}],\"counts\":{\"a\":1,\"b\":0},\"any\":[{}]}");
	if (got)
		fail_msg("%s", got);
	assert_null(check_with(schema_text, "{\"id\":\"x-100\",\"n\":null,\"color\":null,\"list\":[]}"));
	assert_null(check_with(schema_text, "{\"id\":\"x-100\",\"n\":-4.0,\"list\":[]}"));   /* 4.0 is whole */
}

/* Twins: each keyword broken once, named with the JSON path of the value. */
static void test_json_schema_refuses_each_keyword(void **state)
{
	(void)state;
	assert_refused(schema_text, "[]", "d.json:1: $: type: want object, not an array");
	assert_refused(schema_text, "{\"list\":[]}", "d.json:1: $: required: no member \"id\"");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"list\":[],\"nope\":1}",
		       "d.json:1: $.nope: additionalProperties: no member of this name is allowed here");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"n\":1.5,\"list\":[]}",
		       "d.json:1: $.n: type: want integer or null, not a number");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"n\":\"1\",\"list\":[]}",
		       "d.json:1: $.n: type: want integer or null, not a string");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"color\":\"blue\",\"list\":[]}",
		       "d.json:1: $.color: enum: \"blue\" is none of the values allowed");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"color\":3,\"list\":[]}",
		       "d.json:1: $.color: enum: 3 is none of the values allowed");
	assert_refused(schema_text, "{\"id\":\"ab-1\",\"list\":[]}",
		       "d.json:1: $.id: pattern: \"ab-1\" does not match ^[a-z]+-[0-9]{2,3}$");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"list\":[{\"k\":true},\n{\"k\":1}]}",
		       "d.json:2: $.list[1].k: type: want boolean, not a number");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"list\":[{}]}", "d.json:1: $.list[0]: required: no member \"k\"");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"list\":[],\"counts\":{\"c\":1}}",
		       "d.json:1: $.counts.c: enum: \"c\" is none of the values allowed");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"list\":[],\"counts\":{\"a\":\"1\"}}",
		       "d.json:1: $.counts.a: type: want integer, not a string");
	assert_refused(schema_text, "{\"id\":\"ab-12\",\"list\":[],\"never\":0}",
		       "d.json:1: $.never: false: nothing is allowed here");
	assert_refused("{\"properties\":{\"a b\":{\"type\":\"null\"}}}", "{\"a b\":1}",
		       "d.json:1: $[\"a b\"]: type: want null, not a number");
}

/* A schema that says more than the validator checks is refused, not passed. */
static void test_json_schema_refuses_what_it_cannot_check(void **state)
{
	(void)state;
	assert_refused("{\"minimum\":0}", "1", "s.json:1: schema: a keyword this validator does not check: \"minimum\"");
	assert_refused("{\"$ref\":\"other.json#/x\"}", "1",
		       "s.json:1: schema: \"$ref\" takes \"#/$defs/NAME\", not \"other.json#/x\"");
	assert_refused("{\"$ref\":\"#/$defs/none\"}", "1", "s.json:1: schema: \"$ref\" names no definition: \"#/$defs/none\"");
	assert_refused("{\"$ref\":\"#/$defs/a\",\"$defs\":{\"a\":{\"$ref\":\"#/$defs/a\"}}}", "1",
		       "s.json:1: schema: \"$ref\" goes round in a circle at \"#/$defs/a\"");
	assert_refused("{\"type\":\"float\"}", "1", "s.json:1: schema: \"type\" takes type names, not \"float\"");
	assert_refused("{\"enum\":[[1]]}", "1", "s.json:1: schema: \"enum\" takes scalars only");
	assert_refused("{\"pattern\":\"(a|b)\"}", "\"a\"",
		       "s.json:1: schema: groups and alternatives ( ) | are not supported");
	assert_refused("{\"required\":\"a\"}", "{}",
		       "s.json:1: schema: \"properties\" takes an object, \"required\" a list");
	assert_refused("3", "1", "s.json:1: schema: a schema must be an object or a boolean");
}

static bool matches(const char *pattern, const char *s)
{
	bool m = false;
	const char *why = np_json_pattern_match(pattern, s, &m);
	if (why)
		fail_msg("pattern %s: %s", pattern, why);
	return m;
}

static void test_json_schema_patterns(void **state)
{
	(void)state;
	assert_true(matches("^0x[0-9A-F]{8}$", "0xC0000061"));
	assert_false(matches("^0x[0-9A-F]{8}$", "0xc0000061"));
	assert_false(matches("^0x[0-9A-F]{8}$", "0xC00000610"));
	assert_true(matches("[0-9]", "ab7"));          /* unanchored: anywhere */
	assert_false(matches("^[0-9]", "ab7"));
	assert_true(matches("^a.c$", "abc"));
	assert_false(matches("^a\\.c$", "abc"));
	assert_true(matches("^a\\.c$", "a.c"));
	assert_true(matches("^\\d+-?x*$", "12x"));
	assert_true(matches("^\\d+-?x*$", "1-"));
	assert_false(matches("^\\d+-?x*$", "-1"));
	assert_true(matches("^[^/]+/x6[4]$", "6.2/x64"));
	assert_false(matches("^[^/]+/x6[4]$", "6/2/x64"));
	assert_true(matches("^a{2,}$", "aaaa"));
	assert_false(matches("^a{2,}$", "a"));
	assert_true(matches("", "anything"));
	bool m;
	assert_non_null(np_json_pattern_match("a{3", "aaa", &m));
	assert_non_null(np_json_pattern_match("*a", "a", &m));
	assert_non_null(np_json_pattern_match("[abc", "a", &m));
	assert_non_null(np_json_pattern_match("\\w", "a", &m));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_json_schema_accepts_a_valid_document),
	cmocka_unit_test(test_json_schema_refuses_each_keyword),
	cmocka_unit_test(test_json_schema_refuses_what_it_cannot_check),
	cmocka_unit_test(test_json_schema_patterns),
};

NP_TEST_MAIN(tests)
