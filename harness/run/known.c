/* SPDX-License-Identifier: MIT */
/* Known-divergence files: reading one (matching a run: known_match.c;
 * writing one from a run: known_write.c and known_group.c).
 *
 *   VECTOR-ID|PATTERN [on RANGE] [arch=LIST] CLASS step N|FUNCTION|*: GOT|* # REASON
 *
 * fixtures/known/README.md is the format's reference. Standard C only: the
 * Windows exe links this file too. */
#include <errno.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run/known_got.h"
#include "vectors/catalog.h"

#define LINE_MAX_BYTES 2048


static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* Copies the next blank-separated word of *p into tok; "" at the end. */
static bool next_word(const char **p, char *tok, size_t cap)
{
	const char *s = *p;
	while (is_blank(*s))
		s++;
	size_t n = 0;
	while (s[n] && !is_blank(s[n]))
		n++;
	*p = s + n;
	if (n >= cap)
		return false;
	memcpy(tok, s, n);
	tok[n] = '\0';
	return true;
}

/* Copies src without its outer blanks and with every run of blanks as one
 * space, so that hand-aligned text compares equal to a report's. */
static bool collapse(char *dst, size_t cap, const char *src, size_t len)
{
	size_t n = 0;
	bool gap = false;
	for (size_t i = 0; i < len; i++) {
		if (is_blank(src[i])) {
			gap = n > 0;
			continue;
		}
		if (gap) {
			if (n + 1 >= cap)
				return false;
			dst[n++] = ' ';
			gap = false;
		}
		if (n + 1 >= cap)
			return false;
		dst[n++] = src[i];
	}
	dst[n] = '\0';
	return true;
}

/* arch=x86,x64 (standard C: no strtok_r). */
static bool parse_arches(const char *list, bool arch[NP_ARCH_COUNT])
{
	memset(arch, 0, sizeof(bool) * NP_ARCH_COUNT);
	while (*list) {
		char one[16];
		size_t n = strcspn(list, ",");
		np_arch a;
		if (n == 0 || n >= sizeof one)
			return false;
		memcpy(one, list, n);
		one[n] = '\0';
		if (!np_arch_parse(one, &a))
			return false;
		arch[a] = true;
		list += n;
		if (*list == ',' && !*++list)
			return false;   /* a trailing comma */
	}
	return true;
}

static bool scopes_overlap(const np_applicability *a, const np_applicability *b)
{
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		for (unsigned r = 0; r < NP_ARCH_COUNT; r++)
			if (np_applies(a, (np_ver)v, (np_arch)r) && np_applies(b, (np_ver)v, (np_arch)r))
				return true;
	return false;
}

/* A reason that starts with the word TODO was never filled in. */
static bool is_todo(const char *reason)
{
	static const char todo[] = "todo";
	for (unsigned i = 0; i < 4; i++)
		if (tolower((unsigned char)reason[i]) != todo[i])
			return false;
	return !isalnum((unsigned char)reason[4]);
}

static const char *const failing_classes =
	"status-mismatch, output-mismatch, not-exported, stub or crashed";

/* The deciding step of `step N:`, `step FUNCTION:` or `step *:` (tok). */
static bool parse_step(const char *path, int lineno, const char *tok, np_known_entry *e, np_error *err)
{
	size_t len = strlen(tok);
	if (len < 2 || tok[len - 1] != ':')
		return np_error_at(err, path, lineno, "expected `step N:` after the class, not `step %s`", tok);
	if (strcmp(tok, "*:") == 0)
		return true;   /* any step: step 0, no function */
	size_t digits = strspn(tok, "0123456789");
	if (digits == 0) {
		char name[NP_NAME_MAX];
		if (len - 1 < sizeof name) {
			memcpy(name, tok, len - 1);
			name[len - 1] = '\0';
			e->step_function = np_function_find(name);
		}
		if (!e->step_function)
			return np_error_at(err, path, lineno, "expected `step N:` after the class, not `step %s` "
					   "(N, a function of the catalog, or *)", tok);
		return true;
	}
	if (digits > 2 || digits != len - 1)
		return np_error_at(err, path, lineno, "expected `step N:` after the class, not `step %s`", tok);
	e->step = atoi(tok);
	if (e->step < 1 || e->step > NP_MAX_STEPS)
		return np_error_at(err, path, lineno, "step %s is not a step number (1 to %d)", tok, NP_MAX_STEPS);
	return true;
}

static bool parse_entry(const char *path, int lineno, const char *text, np_known_entry *e, np_error *err)
{
	static const char shape[] = "expected `VECTOR-ID [on RANGE] [arch=LIST] CLASS step N: GOT # REASON`";
	char tok[NP_TEXT_MAX];
	const char *p = text, *mark;
	memset(e, 0, sizeof *e);
	e->line = lineno;
	if (!next_word(&p, e->vector, sizeof e->vector))
		return np_error_at(err, path, lineno, "vector ID too long (at most %d characters)", NP_TEXT_MAX - 1);
	e->pattern = strchr(e->vector, '*') != NULL;

	/* the scope: every target unless `on RANGE` or arch=LIST narrows it */
	e->scope.lo = 0;
	e->scope.hi = NP_VERSION_COUNT - 1;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		e->scope.arch[a] = true;
	if (!next_word(&p, tok, sizeof tok) || !tok[0])
		return np_error_at(err, path, lineno, "%s", shape);
	size_t used = 0;
	if (strcmp(tok, "on") == 0) {
		const char *why;
		if (!next_word(&p, tok, sizeof tok) || !tok[0])
			return np_error_at(err, path, lineno, "expected a version range after `on`");
		if ((why = np_parse_range(tok, &e->scope)))
			return np_error_at(err, path, lineno, "on %s: %s", tok, why);
		used += (size_t)snprintf(e->scope_text + used, sizeof e->scope_text - used, "on %s", tok);
		if (!next_word(&p, tok, sizeof tok))
			return np_error_at(err, path, lineno, "%s", shape);
	}
	if (strncmp(tok, "arch=", 5) == 0) {
		if (!parse_arches(tok + 5, e->scope.arch))
			return np_error_at(err, path, lineno, "%s: architectures are x86, x64 and wow64, comma-separated", tok);
		snprintf(e->scope_text + used, sizeof e->scope_text - used, "%s%s", used ? " " : "", tok);
		if (!next_word(&p, tok, sizeof tok))
			return np_error_at(err, path, lineno, "%s", shape);
	}

	if (!tok[0])
		return np_error_at(err, path, lineno, "%s", shape);
	if (!np_class_parse(tok, &e->cls))
		return np_error_at(err, path, lineno, "unknown class %s (one of %s)", tok, failing_classes);
	if (!np_class_is_failure(e->cls))
		return np_error_at(err, path, lineno, "class %s is no divergence: only %s can be listed", tok,
			    failing_classes);

	/* step N:, step FUNCTION: (a call of it decides) or step *: (any step) */
	if (!next_word(&p, tok, sizeof tok) || strcmp(tok, "step") != 0)
		return np_error_at(err, path, lineno, "expected `step N:` after the class");
	if (!next_word(&p, tok, sizeof tok) || !tok[0])
		return np_error_at(err, path, lineno, "expected `step N:` after the class");
	if (!parse_step(path, lineno, tok, e, err))
		return false;

	/* GOT # REASON: the reason starts at the first # after a blank */
	for (mark = p; *mark && !(*mark == '#' && is_blank(mark[-1])); mark++)
		;
	if (!collapse(e->got, sizeof e->got, p, (size_t)(mark - p)))
		return np_error_at(err, path, lineno, "observed outcome too long (at most %d characters)", (int)sizeof e->got - 1);
	if (!e->got[0])
		return np_error_at(err, path, lineno, "expected the observed outcome (a report's `got`) after `step %s`", tok);
	if (!*mark)
		return np_error_at(err, path, lineno, "missing reason: end the line with `# why this divergence is expected`");
	if (!collapse(e->reason, sizeof e->reason, mark + 1, strlen(mark + 1)))
		return np_error_at(err, path, lineno, "reason too long (at most %d characters)", (int)sizeof e->reason - 1);
	if (!e->reason[0])
		return np_error_at(err, path, lineno, "missing reason: end the line with `# why this divergence is expected`");
	if (is_todo(e->reason))
		return np_error_at(err, path, lineno, "the reason is still TODO: say why %s diverges", e->vector);
	const char *why;
	e->any_got = strcmp(e->got, "*") == 0;
	if (!e->any_got && (why = np_known_value_parse(e->got, &e->value)))
		return np_error_at(err, path, lineno, "%s: %s", e->got, why);
	return true;
}

/* Two entries for one vector ID must not share a target: which would
 * judge the row? A pattern may overlap other entries (a row is known when
 * any entry covering it lists its failure), but not an entry that lists
 * the same thing for the same targets. The earlier entry, or NULL. */
static const np_known_entry *listed_before(const np_known *k, const np_known_entry *e)
{
	for (unsigned i = 0; i < k->count; i++) {
		const np_known_entry *o = &k->e[i];
		if (strcmp(o->vector, e->vector) != 0 || !scopes_overlap(&o->scope, &e->scope))
			continue;
		if (!e->pattern)
			return o;
		if (o->cls == e->cls && o->step == e->step && o->step_function == e->step_function &&
		    o->any_got == e->any_got && (e->any_got || np_known_value_equal(&o->value, &e->value)))
			return o;
	}
	return NULL;
}

bool np_known_read(np_known *k, const char *path, FILE *in, np_error *err)
{
	memset(k, 0, sizeof *k);
	size_t plen = strlen(path);
	if (!(k->path = malloc(plen + 1)))
		return np_error_at(err, path, 0, "out of memory");
	memcpy(k->path, path, plen + 1);
	char line[LINE_MAX_BYTES];
	int lineno = 0, c = 0;
	while (c != EOF) {
		/* a byte at a time: fgets would hide a NUL inside a line */
		size_t len = 0;
		lineno++;
		while ((c = getc(in)) != EOF && c != '\n') {
			if (len == LINE_MAX_BYTES - 1)
				return np_error_at(err, path, lineno, "line too long (at most %d bytes)", LINE_MAX_BYTES - 1);
			if (c < 0x20 && c != '\t' && c != '\r')
				return np_error_at(err, path, lineno, "control character 0x%02X", (unsigned)c);
			line[len++] = (char)c;
		}
		if (len && line[len - 1] == '\r')
			len--;
		line[len] = '\0';
		if (memchr(line, '\r', len))
			return np_error_at(err, path, lineno, "control character 0x0D");
		const char *s = line;
		while (is_blank(*s))
			s++;
		if (!*s || *s == '#')
			continue;
		if (k->count == k->cap) {
			unsigned cap = k->cap ? k->cap * 2 : 32;
			np_known_entry *grown = realloc(k->e, cap * sizeof *grown);
			if (!grown)
				return np_error_at(err, path, lineno, "out of memory");
			k->e = grown;
			k->cap = cap;
		}
		np_known_entry *e = &k->e[k->count];
		if (!parse_entry(path, lineno, s, e, err))
			return false;
		const np_known_entry *first = listed_before(k, e);
		if (first)
			return np_error_at(err, path, lineno, "%s is listed twice for the same target (first at line %d)",
					   e->vector, first->line);
		k->count++;
	}
	if (ferror(in))
		return np_error_at(err, path, lineno, "read error");
	return true;
}

bool np_known_load(np_known *k, const char *path, np_error *err)
{
	FILE *in = fopen(path, "r");
	if (!in) {
		memset(k, 0, sizeof *k);
		return np_error_at(err, path, 0, "cannot open: %s", strerror(errno));
	}
	bool ok = np_known_read(k, path, in, err);
	fclose(in);
	return ok;
}

void np_known_free(np_known *k)
{
	free(k->path);
	free(k->e);
	memset(k, 0, sizeof *k);
}

