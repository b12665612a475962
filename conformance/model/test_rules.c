/* SPDX-License-Identifier: MIT */
/* The rules as data (ntprof/rules.h) against SPEC.md's headings, both ways,
 * and the version predicates as data (ntprof/predicates.h). */
#include "np_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/rule.h"
#include "ntprof/version_predicates.h"

static const char dash[] = " \xE2\x80\x94 ";   /* the em dash of a heading */

/* Compares the `### ID — title` headings of a SPEC.md text with the rule
 * table: a heading the table lacks, a title that differs, a heading twice,
 * and a table rule with no heading are each one problem, described in why. */
static unsigned spec_problems(const char *spec, char *why, size_t cap)
{
	unsigned problems = 0;
	bool seen[NP_RULE_COUNT] = { false };
	why[0] = '\0';
	for (const char *line = spec; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, "### ", 4) != 0)
			continue;
		const char *id = line + 4, *sep = strstr(id, dash), *end = strchr(id, '\n');
		if (!end)
			end = id + strlen(id);
		char idtext[32] = "", title[256] = "";
		np_rule r;
		if (sep && sep < end && (size_t)(sep - id) < sizeof idtext) {
			memcpy(idtext, id, (size_t)(sep - id));
			snprintf(title, sizeof title, "%.*s", (int)(end - sep - strlen(dash)), sep + strlen(dash));
		}
		if (!np_rule_parse(idtext, &r)) {
			snprintf(why + strlen(why), cap - strlen(why), "no declaration for %.*s; ", (int)(end - id), id);
			problems++;
		} else if (seen[r] || strcmp(np_rule_title(r), title) != 0) {
			snprintf(why + strlen(why), cap - strlen(why), "%s: heading twice or title differs; ", idtext);
			problems++;
		}
		if (np_rule_parse(idtext, &r))
			seen[r] = true;
	}
	for (unsigned r = 1; r < NP_RULE_COUNT; r++)
		if (!seen[r]) {
			snprintf(why + strlen(why), cap - strlen(why), "%s has no heading; ", np_rule_id((np_rule)r));
			problems++;
		}
	return problems;
}

static char *read_spec(void)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/SPEC.md", NTPROF_SOURCE_ROOT);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *text = calloc(1, 1 << 20);
	assert_non_null(text);
	size_t n = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	assert_true(n > 0 && n < (1 << 20) - 1);
	return text;
}

static void test_rules_declared_as_spec_heads_them(void **state)
{
	(void)state;
	char *spec = read_spec(), why[4096];
	unsigned n = spec_problems(spec, why, sizeof why);
	if (n)
		fail_msg("SPEC.md and ntprof/rules.h differ: %s", why);
	free(spec);
}

/* The twins: a heading removed, one added, a title changed, one doubled. */
static void test_rules_check_catches_planted_differences(void **state)
{
	(void)state;
	char *spec = read_spec(), why[4096];
	char *missing = strdup(spec), *at = strstr(missing, "### SI-1 ");
	assert_non_null(at);
	at[0] = 'X';   /* no longer a heading */
	assert_int_equal(spec_problems(missing, why, sizeof why), 1);
	assert_non_null(strstr(why, "SI-1 has no heading"));

	/* a rule no declaration has, spelt at run time so that no scan of the
	 * tests reads it as a citation */
	char planted[16], want[64];
	snprintf(planted, sizeof planted, "%s-%d", "SI", 99);
	snprintf(want, sizeof want, "no declaration for %s", planted);
	size_t len = strlen(spec);
	char *extra = calloc(1, len + 64);
	snprintf(extra, len + 64, "%s\n### %s \xE2\x80\x94 Planted\n", spec, planted);
	assert_int_equal(spec_problems(extra, why, sizeof why), 1);
	assert_non_null(strstr(why, want));

	char *retitled = strdup(spec);
	at = strstr(retitled, "### SI-1 \xE2\x80\x94 Privilege");
	assert_non_null(at);
	at[strlen("### SI-1 \xE2\x80\x94 ")] = 'p';
	assert_int_equal(spec_problems(retitled, why, sizeof why), 1);

	snprintf(extra, len + 64, "%s\n### SI-1 \xE2\x80\x94 Privilege from 6.2\n", spec);
	assert_int_equal(spec_problems(extra, why, sizeof why), 1);
	free(missing);
	free(extra);
	free(retitled);
	free(spec);
}

static void test_rule_ids_parse_and_print(void **state)
{
	(void)state;
	np_rule r;
	assert_true(np_rule_parse("SY-22a", &r));
	assert_int_equal(r, NP_RULE(SY_22a));
	assert_string_equal(np_rule_id(NP_RULE(SI_1)), "SI-1");
	char unknown[16];
	snprintf(unknown, sizeof unknown, "%s-%d", "SI", 99);   /* no scan reads it */
	assert_false(np_rule_parse(unknown, &r) || np_rule_parse("si-1", &r));
	assert_false(np_rule_parse("SI-1 ", &r));
	assert_null(np_rule_id(NP_RULE_NONE));
	assert_null(np_rule_id(NP_RULE_COUNT));
	/* the last rule has both, and past it neither: the bounds are the table's */
	np_rule last = (np_rule)(NP_RULE_COUNT - 1);
	assert_non_null(np_rule_id(last));
	assert_non_null(np_rule_title(last));
	assert_true(np_rule_parse(np_rule_id(last), &r));
	assert_int_equal(r, last);
	assert_null(np_rule_title(NP_RULE_COUNT));
}

/* The export table names the rule of each function it lists, and none for a
 * name it does not list. */
/* rules: CP-0 SY-0 */
static void test_export_rules(void **state)
{
	(void)state;
	assert_int_equal(np_export_applied("NtCreateProfile").rule, NP_RULE(CP_0));
	assert_int_equal(np_export_applied("ZwQuerySystemInformation").rule, NP_RULE(SY_0));
	np_applied none = np_export_applied("NtCreateProfileXx");
	assert_int_equal(none.rule, NP_RULE_NONE);
	assert_null(none.file);
}

/* Every predicate names at least one rule, its names are distinct, and
 * the table answers as the predicate itself does on every version. */
static void test_predicate_table(void **state)
{
	(void)state;
	unsigned n;
	const np_predicate *p = np_predicate_table(&n);
	assert_true(n >= 28);
	for (unsigned i = 0; i < n; i++) {
		assert_int_not_equal(p[i].rules[0], NP_RULE_NONE);
		for (unsigned j = 0; j < i; j++)
			assert_string_not_equal(p[i].name, p[j].name);
	}
	const np_predicate *priv = NULL;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(p[i].name, "np_set_interval_checks_privilege") == 0)
			priv = &p[i];
	assert_non_null(priv);
	assert_int_equal(priv->rules[0], NP_RULE(SI_1));
	np_machine *m = calloc(1, sizeof *m);
	assert_non_null(m);
	for (int v = 0; v < NP_VERSION_COUNT; v++) {
		m->version = (np_ver)v;
		assert_int_equal(priv->holds(m), np_set_interval_checks_privilege((np_ver)v));
	}
	free(m);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_rules_declared_as_spec_heads_them),
	cmocka_unit_test(test_rules_check_catches_planted_differences),
	cmocka_unit_test(test_rule_ids_parse_and_print),
	cmocka_unit_test(test_export_rules),
	cmocka_unit_test(test_predicate_table),
};

NP_TEST_MAIN(tests)
