/* SPDX-License-Identifier: MIT */
/* ntprof explain: a rule of SPEC.md with the vectors and tests that cite
 * it; with --check, every rule's evidence (exit 1 on a problem). Exit 2 on
 * bad input, an unknown rule among it. */
#include <stddef.h>
#include <stdio.h>
#include <strings.h>

#include "cli/cli.h"
#include "ntprof/names.h"

typedef struct explain_settings {
	const char *root, *rule;
	bool check;
} explain_settings;

#define AT(field) offsetof(explain_settings, field)
static const cli_option explain_options[] = {
	{ "--root", NULL, "DIR", AT(root), NULL,
	  "--root needs a directory", "the tree whose SPEC.md and fixtures/ to read" },
	{ "--check", NULL, NULL, AT(check), NULL,
	  NULL, "check every rule's evidence instead" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

/* The RULE; the last one given counts. */
static int explain_operand(void *settings, char *arg)
{
	((explain_settings *)settings)->rule = arg;
	return 0;
}

static const cli_syntax explain_syntax = {
	.command = "explain",
	.options = explain_options,
	.operand = explain_operand,
	.unknown_usage = "explain: unknown option",
};

static const char *const explain_usage[] = {
	"ntprof explain [--root DIR] RULE | --check",
	NULL,
};

/* The rule as written, else in any case: si-1 is SI-1. */
static const np_spec_rule *find_rule(const np_index *ix, const char *id)
{
	const np_spec_rule *r = np_index_rule(ix, id);
	for (unsigned i = 0; !r && i < ix->nrule; i++)
		if (strcasecmp(ix->rule[i].id, id) == 0)
			r = &ix->rule[i];
	return r;
}

static int explain_main(int argc, char **argv)
{
	explain_settings s = { NULL, NULL, false };
	int status = cli_parse(&explain_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	if (!s.rule && !s.check)
		return cli_usage("explain needs a RULE (e.g. SI-1) or --check");
	np_index ix;
	if (!cli_load_index(s.root, &ix))
		return EXIT_BAD_INPUT;
	if (s.check) {
		unsigned problems = np_index_check(stdout, &ix);
		printf("rules: %u, problems: %u\n", ix.nrule, problems);
		status = problems ? EXIT_DIFFERENCE : 0;
	} else {
		const np_spec_rule *found = find_rule(&ix, s.rule);
		if (!found) {
			np_nearest n;
			np_nearest_start(&n, s.rule);
			for (unsigned i = 0; i < ix.nrule; i++)
				np_nearest_offer(&n, ix.rule[i].id);
			const char *near = np_nearest_found(&n);
			fprintf(stderr, "ntprof: explain %s: SPEC.md has no such rule%s%s%s\n", s.rule,
				near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
			status = EXIT_BAD_INPUT;
		} else {
			np_explain(stdout, &ix, found);
		}
	}
	np_index_free(&ix);
	return status;
}

const cli_command cli_explain = {
	.name = "explain",
	.main = explain_main,
	.summary = "a rule of SPEC.md and its evidence, or a check of every rule's",
	.usage = explain_usage,
	.syntax = &explain_syntax,
};
