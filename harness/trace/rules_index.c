/* SPDX-License-Identifier: MIT */
/* Rule traceability: every SPEC.md rule must be cited by the model, proved by
 * a vector and by a test; nothing may cite a rule SPEC.md lacks or retired. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#include "ntprof/rules_index.h"
#include "trace/rules_scan.h"

#ifndef NTPROF_DATADIR
#define NTPROF_DATADIR "/usr/local/share/ntprof"
#endif

static bool is_root(const char *dir)
{
	char path[600];
	struct stat st;
	snprintf(path, sizeof path, "%s/SPEC.md", dir);
	if (stat(path, &st) != 0)
		return false;
	snprintf(path, sizeof path, "%s/fixtures", dir);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The tree the running executable was built in: the executable's directory
 * or one of the two above it (build/ntprof, build/asan/ntprof). Found at run
 * time rather than compiled in, so that the binary does not depend on where
 * its tree was. POSIX systems with /proc only; elsewhere NULL. */
static const char *executable_tree(void)
{
#ifdef _WIN32
	return NULL;
#else
	static char dir[512];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
	if (n <= 0 || (size_t)n >= sizeof dir - 1)
		return NULL;
	dir[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return NULL;
		*slash = '\0';
		if (is_root(dir))
			return dir;
	}
	return NULL;
#endif
}

/* The test scripts and tools export NTPROF_SOURCE_ROOT for themselves; the
 * program honours it too, so that a copy linked elsewhere (make mutants)
 * still reads its tree. */
const char *np_find_root(const char *explicit_root)
{
	if (explicit_root)
		return is_root(explicit_root) ? explicit_root : NULL;
	const char *env = getenv("NTPROF_ROOT");
	if (env && is_root(env))
		return env;
	env = getenv("NTPROF_SOURCE_ROOT");
	if (env && is_root(env))
		return env;
	const char *tree = executable_tree();
	if (tree)
		return tree;
	if (is_root(NTPROF_DATADIR))
		return NTPROF_DATADIR;
	return NULL;
}

const np_spec_rule *np_index_rule(const np_index *ix, const char *id)
{
	for (unsigned i = 0; i < ix->nrule; i++)
		if (strcmp(ix->rule[i].id, id) == 0)
			return &ix->rule[i];
	return NULL;
}

/* The rule a "### ID — title" heading starts, or NULL for another heading.
 * A second heading of an ID is noted and its text left out: every citation
 * of the ID would be taken for the first, so the check refuses it. */
static np_spec_rule *heading(np_index *ix, const char *line, int lineno, bool *failed)
{
	char id[16];
	const char *p = line;
	while (*p == '#')
		p++;
	while (*p == ' ')
		p++;
	if (strncmp(line, "###", 3) != 0 || !np_rule_id_at(p, p, id, sizeof id))
		return NULL;
	const np_spec_rule *first = np_index_rule(ix, id);
	if (first) {
		np_index_note(ix, "SPEC.md:%d: rule %s has a second heading (the first is SPEC.md:%d)",
			      lineno, id, first->line);
		return NULL;
	}
	np_spec_rule *grown = realloc(ix->rule, (ix->nrule + 1) * sizeof *grown);
	if (!grown) {
		*failed = true;
		return NULL;
	}
	ix->rule = grown;
	np_spec_rule *r = &ix->rule[ix->nrule++];
	memset(r, 0, sizeof *r);
	snprintf(r->id, sizeof r->id, "%s", id);
	r->line = lineno;
	return r;
}

/* SPEC.md: a rule is a heading "### ID — title"; its text runs to the next heading. */
static bool load_spec(np_index *ix, np_error *err)
{
	char path[600];
	snprintf(path, sizeof path, "%s/SPEC.md", ix->root);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err->text, sizeof err->text, "%.480s: cannot open: %s", path, strerror(errno));
		return false;
	}
	char line[2048];
	int lineno = 0;
	np_spec_rule *cur = NULL;
	size_t used = 0, cap = 0;
	bool failed = false;
	while (!failed && fgets(line, sizeof line, f)) {
		lineno++;
		if (line[0] == '#') {
			cur = heading(ix, line, lineno, &failed);
			used = cap = 0;
		}
		if (!cur)
			continue;
		if (strncmp(line, "Retired:", 8) == 0)
			cur->retired = true;
		size_t len = strlen(line);
		if (used + len + 1 > cap) {
			cap = (used + len + 1) * 2;
			char *t = realloc(cur->text, cap);
			if (!t)
				break;
			cur->text = t;
		}
		memcpy(cur->text + used, line, len + 1);
		used += len;
	}
	fclose(f);
	return true;
}

bool np_spec_load(np_index *ix, const char *root, np_error *err)
{
	memset(ix, 0, sizeof *ix);
	snprintf(ix->root, sizeof ix->root, "%s", root);
	return load_spec(ix, err);
}

bool np_index_build(np_index *ix, const char *root, np_error *err)
{
	if (!np_spec_load(ix, root, err))
		return false;
	np_scan_tests(ix);
	char fixtures[600];
	snprintf(fixtures, sizeof fixtures, "%s/fixtures", root);
	if (!np_vectors_load(&ix->vectors, fixtures, err) || !np_vectors_check(&ix->vectors, err))
		return false;
	if (!np_index_applied(ix)) {
		snprintf(err->text, sizeof err->text, "out of memory running the vectors on the model");
		return false;
	}
	return true;
}

void np_index_free(np_index *ix)
{
	for (unsigned i = 0; i < ix->nrule; i++)
		free(ix->rule[i].text);
	free(ix->rule);
	free(ix->model);
	free(ix->tests);
	free(ix->mentions);
	for (unsigned i = 0; i < ix->nnote; i++)
		free(ix->note[i]);
	free(ix->note);
	np_vectors_free(&ix->vectors);
	memset(ix, 0, sizeof *ix);
}

static bool cited(const np_cite *c, unsigned n, const char *id)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(c[i].id, id) == 0)
			return true;
	return false;
}

np_evidence np_index_evidence(const np_index *ix, const char *id)
{
	np_evidence e = {
		.code = cited(ix->model, ix->nmodel, id),
		.test = cited(ix->tests, ix->ntests, id),
	};
	for (unsigned i = 0; i < ix->vectors.count && !e.vector; i++)
		for (unsigned r = 0; r < ix->vectors.v[i].nrule && !e.vector; r++)
			e.vector = strcmp(ix->vectors.v[i].rule[r], id) == 0;
	return e;
}

void np_explain(FILE *out, const np_index *ix, const np_spec_rule *r)
{
	fprintf(out, "%s", r->text ? r->text : "");
	fprintf(out, "\nSPEC.md:%d\nimplemented:\n", r->line);
	for (unsigned i = 0; i < ix->nmodel; i++)
		if (strcmp(ix->model[i].id, r->id) == 0)
			fprintf(out, "  %s:%d\n", ix->model[i].file, ix->model[i].line);
	fprintf(out, "vectors:\n");
	for (unsigned i = 0; i < ix->vectors.count; i++) {
		const np_vector *v = &ix->vectors.v[i];
		for (unsigned k = 0; k < v->nrule; k++)
			if (strcmp(v->rule[k], r->id) == 0)
				fprintf(out, "  %s (%s:%d)\n", v->id, v->file, v->line);
	}
	fprintf(out, "tests:\n");
	for (unsigned i = 0; i < ix->ntests; i++)
		if (strcmp(ix->tests[i].id, r->id) == 0)
			fprintf(out, "  %s:%d\n", ix->tests[i].file, ix->tests[i].line);
}

/* Whether SPEC.md has a rule of id's prefix ("SI" of "SI-99"). */
static bool prefix_used(const np_index *ix, const char *id)
{
	size_t plen = strcspn(id, "-");
	for (unsigned k = 0; k < ix->nrule; k++)
		if (strncmp(ix->rule[k].id, id, plen) == 0 && ix->rule[k].id[plen] == '-')
			return true;
	return false;
}

/* A cited ID that SPEC.md lacks, or retired. A mention may name something
 * else that looks like an ID ("UTF-8"), so there only an ID of a prefix
 * SPEC.md uses counts; every ID of a rules tag (strict) must be a rule. */
static unsigned check_cites(FILE *out, const np_index *ix, const np_cite *c, unsigned n,
			    const char *what, bool strict)
{
	unsigned problems = 0;
	for (unsigned i = 0; i < n; i++) {
		const np_spec_rule *r = np_index_rule(ix, c[i].id);
		if (r && r->retired) {
			fprintf(out, "%s:%d: %s cites retired rule %s\n", c[i].file, c[i].line, what, c[i].id);
			problems++;
		} else if (!r && (strict || prefix_used(ix, c[i].id))) {
			fprintf(out, "%s:%d: %s cites %s, which SPEC.md does not have\n", c[i].file,
				c[i].line, what, c[i].id);
			problems++;
		}
	}
	return problems;
}

unsigned np_index_check(FILE *out, const np_index *ix)
{
	/* What loading found first: second headings, malformed or misplaced tags. */
	unsigned problems = ix->nnote;
	for (unsigned i = 0; i < ix->nnote; i++)
		fprintf(out, "%s\n", ix->note[i]);
	/* An installed ntprof has SPEC.md and fixtures/ but no tests: what it
	 * can check, it checks, and it says what it cannot. */
	if (!ix->has_tests)
		fprintf(out, "%s: no conformance/ here (an installed ntprof has no tests): "
			"rules tags not checked; run it in a source tree for that\n", ix->root);
	for (unsigned i = 0; i < ix->nrule; i++) {
		const np_spec_rule *r = &ix->rule[i];
		if (r->retired)
			continue;
		np_evidence e = np_index_evidence(ix, r->id);
		if (!ix->has_tests)
			e.test = true;
		if (!e.code || !e.vector || !e.test) {
			fprintf(out, "SPEC.md:%d: rule %s lacks%s%s%s\n", r->line, r->id,
				e.code ? "" : " an application (no vector's run on the model applies it)",
				e.vector ? "" : " a vector (fixtures/)",
				e.test ? "" : " a test (a rules tag in conformance/)");
			problems++;
		}
	}
	problems += check_cites(out, ix, ix->model, ix->nmodel, "model", false);
	problems += check_cites(out, ix, ix->tests, ix->ntests, "test", true);
	problems += check_cites(out, ix, ix->mentions, ix->nmentions, "test", false);
	for (unsigned i = 0; i < ix->vectors.count; i++) {
		const np_vector *v = &ix->vectors.v[i];
		for (unsigned k = 0; k < v->nrule; k++) {
			const np_spec_rule *r = np_index_rule(ix, v->rule[k]);
			if (!r || r->retired) {
				fprintf(out, "%s:%d: vector %s cites %s rule %s\n", v->file, v->line, v->id,
					r ? "retired" : "unknown", v->rule[k]);
				problems++;
			}
		}
	}
	return problems;
}
