/* SPDX-License-Identifier: MIT */
/* Rule IDs in the sources. In model/ any mention counts: the model cites the
 * rule it implements in a comment. In conformance/ only a rules tag counts as a
 * test of a rule, because a mention in a comment says nothing about what the
 * test asserts:
 *   C:     a line "/" "* rules: SI-1 SI-2 *" "/" right before the line
 *          "static void test_NAME(void **state)" that defines the test;
 *   shell: a line "# rules: SI-1 SI-2" right before the line of code that
 *          makes the check (the pass/fail call, or the block that holds it).
 * Other mentions in conformance/ are kept apart so that one naming a rule SPEC.md
 * lacks or retired is still reported. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/rules_scan.h"

static bool word_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

size_t np_rule_id_at(const char *line, const char *p, char *out, size_t cap)
{
	if (p > line && (word_char(p[-1]) || p[-1] == '-'))
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
	if (word_char(p[n]) || n >= cap)
		return 0;
	memcpy(out, p, n);
	out[n] = '\0';
	return n;
}

void np_index_note(np_index *ix, const char *fmt, ...)
{
	char **grown = realloc(ix->note, (ix->nnote + 1) * sizeof *grown);
	if (!grown)
		return;
	ix->note = grown;
	char *text = malloc(600);
	if (!text)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, 600, fmt, ap);
	va_end(ap);
	ix->note[ix->nnote++] = text;
}

void np_index_cite(np_cite **list, unsigned *n, const char *id, const char *file, int line)
{
	np_cite *grown = realloc(*list, (*n + 1) * sizeof **list);
	if (!grown)
		return;
	*list = grown;
	np_cite *c = &grown[(*n)++];
	snprintf(c->id, sizeof c->id, "%s", id);
	snprintf(c->file, sizeof c->file, "%.255s", file);
	c->line = line;
}

/* Every rule ID in line, as citations at file:lineno. */
static void mentions(const char *line, const char *file, int lineno, np_cite **list,
		     unsigned *n)
{
	for (const char *p = line; *p; p++) {
		char id[16];
		size_t k = np_rule_id_at(line, p, id, sizeof id);
		if (k) {
			np_index_cite(list, n, id, file, lineno);
			p += k - 1;
		}
	}
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The rule IDs of a tag line ("/" "* rules: ..." or "# rules: ..."), copied
 * into ids (cap bytes) without the comment's end; NULL when line is no tag. */
static const char *tag_ids(const char *line, bool shell, char *ids, size_t cap)
{
	const char *open = shell ? "# rules:" : "/* rules:";
	const char *p = skip_blanks(line);
	if (strncmp(p, open, strlen(open)) != 0)
		return NULL;
	p += strlen(open);
	size_t n = strcspn(p, "\r\n");
	if (!shell) {
		/* The comment ends on the tag's line, and nothing follows it. */
		const char *end = strstr(p, "*/");
		const char *rest = end ? skip_blanks(end + 2) : "";
		if (!end || end > p + n || (*rest && *rest != '\r' && *rest != '\n'))
			return "";
		n = (size_t)(end - p);
	}
	if (n >= cap)
		return "";
	memcpy(ids, p, n);
	ids[n] = '\0';
	return ids;
}

/* Records the IDs of the tag at file:lineno, or notes why it is malformed. */
static void read_tag(np_index *ix, const char *text, const char *file, int lineno)
{
	unsigned before = ix->ntests;
	for (const char *p = skip_blanks(text); *p; p = skip_blanks(p)) {
		size_t len = strcspn(p, " \t");
		char id[16];
		if (np_rule_id_at(p, p, id, sizeof id) != len) {
			np_index_note(ix, "%s:%d: rules tag has \"%.*s\", which is not a rule ID", file,
				      lineno, (int)(len < 40 ? len : 40), p);
			return;
		}
		np_index_cite(&ix->tests, &ix->ntests, id, file, lineno);
		p += len;
	}
	if (ix->ntests == before)
		np_index_note(ix, "%s:%d: rules tag names no rule (or does not end on its line)",
			      file, lineno);
}

/* Whether line may follow a tag: a test's definition (C) or code (shell). */
static bool tag_target(const char *line, bool shell)
{
	if (shell) {
		const char *p = skip_blanks(line);
		return *p && *p != '#' && *p != '\n' && *p != '\r';
	}
	return strncmp(line, "static void test_", 17) == 0 && strstr(line, "(void **state)");
}

static void scan_test_file(np_index *ix, FILE *f, const char *shown, bool shell)
{
	char line[2048], ids[2048];
	int lineno = 0, tag_line = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		if (tag_line && !tag_target(line, shell))
			np_index_note(ix, "%s:%d: rules tag is not right before %s", shown, tag_line,
				      shell ? "a line of code (the check)"
					    : "a test's definition (static void test_NAME(void **state))");
		tag_line = 0;
		const char *tag = tag_ids(line, shell, ids, sizeof ids);
		if (tag) {
			read_tag(ix, tag, shown, lineno);
			tag_line = lineno;
		} else {
			mentions(line, shown, lineno, &ix->mentions, &ix->nmentions);
		}
	}
	if (tag_line)
		np_index_note(ix, "%s:%d: rules tag is not right before %s", shown, tag_line,
			      "anything (it ends the file)");
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void scan_file(np_index *ix, const char *path, const char *shown)
{
	bool shell = has_suffix(shown, ".sh");
	if (!has_suffix(shown, ".c") && !has_suffix(shown, ".h") && !shell)
		return;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	scan_test_file(ix, f, shown, shell);
	fclose(f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Scans dir (relative to the root) recursively, in name order. */
static void scan_dir(np_index *ix, const char *rel)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", ix->root, rel);
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
		char sub[1024], full[1600];
		struct stat st;
		snprintf(sub, sizeof sub, "%s/%s", rel, names[i]);
		snprintf(full, sizeof full, "%s/%s", ix->root, sub);
		if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
			scan_dir(ix, sub);
		else
			scan_file(ix, full, sub);
		free(names[i]);
	}
}

void np_scan_tests(np_index *ix)
{
	char path[1024];
	struct stat st;
	snprintf(path, sizeof path, "%s/conformance", ix->root);
	ix->has_tests = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	scan_dir(ix, "conformance");
}
