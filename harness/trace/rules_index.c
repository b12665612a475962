/* Rule traceability: every SPEC.md rule must be cited by the model, proved by
 * a vector and by a test; nothing may cite a rule SPEC.md lacks or retired. */
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ntprof/rules_index.h"

#ifndef NTPROF_SOURCE_ROOT
#define NTPROF_SOURCE_ROOT "."
#endif
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

const char *np_find_root(const char *explicit_root)
{
	if (explicit_root)
		return is_root(explicit_root) ? explicit_root : NULL;
	const char *env = getenv("NTPROF_ROOT");
	if (env && is_root(env))
		return env;
	if (is_root(NTPROF_SOURCE_ROOT))
		return NTPROF_SOURCE_ROOT;
	if (is_root(NTPROF_DATADIR))
		return NTPROF_DATADIR;
	return NULL;
}

/* Reads a rule ID at p (2-4 capitals, '-', digits, optional lowercase). */
static size_t rule_id_at(const char *line, const char *p, char *out, size_t cap)
{
	if (p > line && ((p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= 'a' && p[-1] <= 'z') ||
			 (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '-' || p[-1] == '_'))
		return 0;
	size_t k = 0;
	while (p[k] >= 'A' && p[k] <= 'Z')
		k++;
	if (k < 2 || k > 4 || p[k] != '-' || p[k + 1] < '0' || p[k + 1] > '9')
		return 0;
	size_t n = k + 1;
	while (p[n] >= '0' && p[n] <= '9')
		n++;
	if (p[n] >= 'a' && p[n] <= 'z')
		n++;
	if ((p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= 'a' && p[n] <= 'z') ||
	    (p[n] >= '0' && p[n] <= '9') || p[n] == '_' || n >= cap)
		return 0;
	memcpy(out, p, n);
	out[n] = '\0';
	return n;
}

static bool push_cite(np_cite **list, unsigned *n, const char *id, const char *file, int line)
{
	np_cite *grown = realloc(*list, (*n + 1) * sizeof **list);
	if (!grown)
		return false;
	*list = grown;
	np_cite *c = &grown[(*n)++];
	snprintf(c->id, sizeof c->id, "%s", id);
	snprintf(c->file, sizeof c->file, "%.255s", file);
	c->line = line;
	return true;
}

static bool scan_file(const char *path, const char *shown, np_cite **list, unsigned *n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[2048];
	int lineno = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		for (const char *p = line; *p; p++) {
			char id[16];
			size_t k = rule_id_at(line, p, id, sizeof id);
			if (k) {
				push_cite(list, n, id, shown, lineno);
				p += k - 1;
			}
		}
	}
	fclose(f);
	return true;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Scans dir (relative to root) recursively for files with one of the suffixes. */
static void scan_dir(const char *root, const char *rel, const char *const *suffixes,
		     np_cite **list, unsigned *n)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	DIR *d = opendir(path);
	if (!d)
		return;
	char *names[512];
	unsigned count = 0;
	for (struct dirent *de; (de = readdir(d)) && count < 512;)
		if (de->d_name[0] != '.')
			names[count++] = strdup(de->d_name);
	closedir(d);
	qsort(names, count, sizeof *names, by_name);
	for (unsigned i = 0; i < count; i++) {
		if (!names[i])
			continue;
		char sub[1024], full[1200];
		struct stat st;
		snprintf(sub, sizeof sub, "%s/%s", rel, names[i]);
		snprintf(full, sizeof full, "%s/%s", root, sub);
		if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			scan_dir(root, sub, suffixes, list, n);
		} else {
			for (unsigned s = 0; suffixes[s]; s++)
				if (has_suffix(names[i], suffixes[s]))
					scan_file(full, sub, list, n);
		}
		free(names[i]);
	}
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
	np_rule *cur = NULL;
	size_t used = 0, cap = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		if (line[0] == '#') {
			cur = NULL;
			char id[16];
			const char *p = line;
			while (*p == '#')
				p++;
			while (*p == ' ')
				p++;
			if (strncmp(line, "###", 3) == 0 && rule_id_at(p, p, id, sizeof id)) {
				np_rule *grown = realloc(ix->rule, (ix->nrule + 1) * sizeof *grown);
				if (!grown)
					break;
				ix->rule = grown;
				cur = &ix->rule[ix->nrule++];
				memset(cur, 0, sizeof *cur);
				snprintf(cur->id, sizeof cur->id, "%s", id);
				cur->line = lineno;
				used = cap = 0;
			}
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
	static const char *const code[] = { ".c", ".h", NULL };
	static const char *const tests[] = { ".c", ".h", ".sh", NULL };
	scan_dir(root, "model", code, &ix->model, &ix->nmodel);
	scan_dir(root, "tests", tests, &ix->tests, &ix->ntests);
	char fixtures[600];
	snprintf(fixtures, sizeof fixtures, "%s/fixtures", root);
	return np_vectors_load(&ix->vectors, fixtures, err) && np_vectors_check(&ix->vectors, err);
}

void np_index_free(np_index *ix)
{
	for (unsigned i = 0; i < ix->nrule; i++)
		free(ix->rule[i].text);
	free(ix->rule);
	free(ix->model);
	free(ix->tests);
	np_vectors_free(&ix->vectors);
	memset(ix, 0, sizeof *ix);
}

const np_rule *np_index_rule(const np_index *ix, const char *id)
{
	for (unsigned i = 0; i < ix->nrule; i++)
		if (strcmp(ix->rule[i].id, id) == 0)
			return &ix->rule[i];
	return NULL;
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

void np_explain(FILE *out, const np_index *ix, const np_rule *r)
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

/* A cited ID whose prefix SPEC.md uses but which SPEC.md lacks, or retired. */
static unsigned check_cites(FILE *out, const np_index *ix, const np_cite *c, unsigned n,
			    const char *what)
{
	unsigned problems = 0;
	for (unsigned i = 0; i < n; i++) {
		const np_rule *r = np_index_rule(ix, c[i].id);
		if (r && r->retired) {
			fprintf(out, "%s:%d: %s cites retired rule %s\n", c[i].file, c[i].line, what, c[i].id);
			problems++;
		} else if (!r) {
			size_t plen = strcspn(c[i].id, "-");
			for (unsigned k = 0; k < ix->nrule; k++) {
				if (strncmp(ix->rule[k].id, c[i].id, plen) == 0 && ix->rule[k].id[plen] == '-') {
					fprintf(out, "%s:%d: %s cites %s, which SPEC.md does not have\n",
						c[i].file, c[i].line, what, c[i].id);
					problems++;
					break;
				}
			}
		}
	}
	return problems;
}

unsigned np_index_check(FILE *out, const np_index *ix)
{
	unsigned problems = 0;
	for (unsigned i = 0; i < ix->nrule; i++) {
		const np_rule *r = &ix->rule[i];
		if (r->retired)
			continue;
		np_evidence e = np_index_evidence(ix, r->id);
		if (!e.code || !e.vector || !e.test) {
			fprintf(out, "SPEC.md:%d: rule %s lacks%s%s%s\n", r->line, r->id,
				e.code ? "" : " an implementation (model/)",
				e.vector ? "" : " a vector (fixtures/)", e.test ? "" : " a test (tests/)");
			problems++;
		}
	}
	problems += check_cites(out, ix, ix->model, ix->nmodel, "model");
	problems += check_cites(out, ix, ix->tests, ix->ntests, "test");
	for (unsigned i = 0; i < ix->vectors.count; i++) {
		const np_vector *v = &ix->vectors.v[i];
		for (unsigned k = 0; k < v->nrule; k++) {
			const np_rule *r = np_index_rule(ix, v->rule[k]);
			if (!r || r->retired) {
				fprintf(out, "%s:%d: vector %s cites %s rule %s\n", v->file, v->line, v->id,
					r ? "retired" : "unknown", v->rule[k]);
				problems++;
			}
		}
	}
	return problems;
}
