/* SPDX-License-Identifier: MIT */
/* ntprof harness: the rule -> code -> vector -> test index built from
 * SPEC.md, model/ sources, fixtures and conformance/. */
#ifndef NTPROF_RULES_INDEX_H
#define NTPROF_RULES_INDEX_H

#include <stdio.h>

#include "ntprof/vector.h"

typedef struct np_cite {
	char id[16];
	char file[256];
	int line;
} np_cite;

typedef struct np_spec_rule {
	char id[16];
	int line;             /* in SPEC.md */
	bool retired;
	char *text;           /* heading and body */
} np_spec_rule;

typedef struct np_index {
	np_spec_rule *rule;
	unsigned nrule;
	np_cite *model;       /* every rule ID mentioned under model/ */
	np_cite *tests;       /* the IDs of the rules tags under conformance/ */
	np_cite *mentions;    /* every other rule ID mentioned under conformance/ */
	unsigned nmodel, ntests, nmentions;
	char **note;          /* problems found while loading: "file:line: what" */
	unsigned nnote;
	bool has_tests;       /* ROOT has conformance/: an installed ntprof has no tests */
	np_vector_set vectors;
	char root[512];
} np_index;

/* Finds the project root (SPEC.md beside fixtures/): an explicit one, then
 * $NTPROF_ROOT, then $NTPROF_SOURCE_ROOT, then the tree of the running
 * executable (its directory or up to two above it), then the installed data
 * dir. Nothing about the build tree is compiled in. */
const char *np_find_root(const char *explicit_root);

bool np_index_build(np_index *ix, const char *root, np_error *err);
/* Only SPEC.md's rules (ix->rule), for those who need the texts alone
 * (ntprof matrix --format html); np_index_free releases them. */
bool np_spec_load(np_index *ix, const char *root, np_error *err);
void np_index_free(np_index *ix);
const np_spec_rule *np_index_rule(const np_index *ix, const char *id);

/* The evidence a rule needs: a citation in model/, a vector that lists it,
 * a rules tag in conformance/ (a mere mention in a test's comment is none; see
 * trace/rules_scan.c for the tags). np_index_check and the rule matrix
 * of ntprof trace both judge a rule by it. */
typedef struct np_evidence {
	bool code, vector, test;
} np_evidence;
np_evidence np_index_evidence(const np_index *ix, const char *id);

/* Prints what SPEC.md says and where the rule is implemented and proved. */
void np_explain(FILE *out, const np_index *ix, const np_spec_rule *r);
/* Writes one line per problem; returns the number of problems. */
unsigned np_index_check(FILE *out, const np_index *ix);

#endif
