/* SPDX-License-Identifier: MIT */
/* Known-divergence files: reading, matching a run, writing one from a run.
 *
 *   VECTOR-ID [on RANGE] [arch=LIST] CLASS step N: GOT # REASON
 *
 * fixtures/known/README.md is the format's reference. Standard C only: the
 * Windows exe links this file too. */
#include <errno.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/known.h"

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

static bool same_text(const char *a, const char *b)
{
	char x[NP_TEXT_MAX * 2 + 1], y[NP_TEXT_MAX * 2 + 1];
	return collapse(x, sizeof x, a, strlen(a)) && collapse(y, sizeof y, b, strlen(b)) &&
	       strcmp(x, y) == 0;
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

static bool parse_entry(const char *path, int lineno, const char *text, np_known_entry *e, np_error *err)
{
	static const char shape[] = "expected `VECTOR-ID [on RANGE] [arch=LIST] CLASS step N: GOT # REASON`";
	char tok[NP_TEXT_MAX];
	const char *p = text, *mark;
	memset(e, 0, sizeof *e);
	e->line = lineno;
	if (!next_word(&p, e->vector, sizeof e->vector))
		return np_error_at(err, path, lineno, "vector ID too long (at most %d characters)", NP_TEXT_MAX - 1);

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

	/* step N: */
	if (!next_word(&p, tok, sizeof tok) || strcmp(tok, "step") != 0)
		return np_error_at(err, path, lineno, "expected `step N:` after the class");
	if (!next_word(&p, tok, sizeof tok) || !tok[0])
		return np_error_at(err, path, lineno, "expected `step N:` after the class");
	size_t digits = strspn(tok, "0123456789");
	if (digits == 0 || digits > 2 || strcmp(tok + digits, ":") != 0)
		return np_error_at(err, path, lineno, "expected `step N:` after the class, not `step %s`", tok);
	e->step = atoi(tok);
	if (e->step < 1 || e->step > NP_MAX_STEPS)
		return np_error_at(err, path, lineno, "step %s is not a step number (1 to %d)", tok, NP_MAX_STEPS);

	/* GOT # REASON: the reason starts at the first # after a blank */
	for (mark = p; *mark && !(*mark == '#' && is_blank(mark[-1])); mark++)
		;
	if (!collapse(e->got, sizeof e->got, p, (size_t)(mark - p)))
		return np_error_at(err, path, lineno, "observed outcome too long (at most %d characters)", (int)sizeof e->got - 1);
	if (!e->got[0])
		return np_error_at(err, path, lineno, "expected the observed outcome (a report's `got`) after `step %d:`", e->step);
	if (!*mark)
		return np_error_at(err, path, lineno, "missing reason: end the line with `# why this divergence is expected`");
	if (!collapse(e->reason, sizeof e->reason, mark + 1, strlen(mark + 1)))
		return np_error_at(err, path, lineno, "reason too long (at most %d characters)", (int)sizeof e->reason - 1);
	if (!e->reason[0])
		return np_error_at(err, path, lineno, "missing reason: end the line with `# why this divergence is expected`");
	if (is_todo(e->reason))
		return np_error_at(err, path, lineno, "the reason is still TODO: say why %s diverges", e->vector);
	return true;
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
		for (unsigned i = 0; i < k->count; i++)
			if (strcmp(k->e[i].vector, e->vector) == 0 && scopes_overlap(&k->e[i].scope, &e->scope))
				return np_error_at(err, path, lineno, "%s is listed twice for the same target (first at line %d)",
					    e->vector, k->e[i].line);
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

static bool has_vector(const np_vector_set *set, const char *id)
{
	for (unsigned i = 0; i < set->count; i++)
		if (strcmp(set->v[i].id, id) == 0)
			return true;
	return false;
}

bool np_known_check(const np_known *k, const np_vector_set *const *sets, unsigned nsets,
		    const char *where, np_error *err)
{
	for (unsigned i = 0; i < k->count; i++) {
		bool found = false;
		for (unsigned s = 0; s < nsets && !found; s++)
			found = has_vector(sets[s], k->e[i].vector);
		if (!found)
			return np_error_at(err, k->path, k->e[i].line,
					   "%s: no such vector in %s (an entry for no vector never runs, so it could never fail)",
					   k->e[i].vector, where);
	}
	return true;
}

static np_known_entry *covering(np_known *k, const np_row *r)
{
	for (unsigned i = 0; i < k->count; i++)
		if (strcmp(k->e[i].vector, r->vector->id) == 0 &&
		    np_applies(&k->e[i].scope, r->target.version, r->target.arch))
			return &k->e[i];
	return NULL;
}

/* Whether the row ran on the backend: not one it could not take, skipped,
 * or not asked of an implementation under test. */
static bool ran(const np_row *r)
{
	return r->cls != NP_CLASS_NOT_APPLICABLE && r->cls != NP_CLASS_SKIPPED &&
	       r->cls != NP_CLASS_NOT_REQUIRED && r->cls != NP_CLASS_NOT_IMPLEMENTED;
}

void np_known_apply(np_known *k, np_run *run)
{
	k->known = k->unlisted = k->stale = k->not_run = 0;
	for (unsigned i = 0; i < k->count; i++) {
		k->e[i].matched = 0;
		k->e[i].ran = false;
	}
	for (unsigned i = 0; i < run->count; i++) {
		np_row *r = &run->row[i];
		np_known_entry *e = covering(k, r);
		r->listed = e;
		if (r->cls == NP_CLASS_KNOWN)   /* applied before: judge what was observed */
			run->tally[r->cls]--, r->cls = r->observed, run->tally[r->cls]++;
		r->observed = r->cls;
		if (e && !e->ran && ran(r)) {
			e->ran = true;
			e->now = r->cls;
			e->now_target = r->target;
		}
		if (!np_class_is_failure(r->cls))
			continue;
		if (e && e->cls == r->cls && e->step == r->step + 1 && same_text(e->got, r->got)) {
			run->tally[r->cls]--;
			r->cls = NP_CLASS_KNOWN;
			run->tally[r->cls]++;
			e->matched++;
			k->known++;
		} else {
			k->unlisted++;
		}
	}
	for (unsigned i = 0; i < k->count; i++) {
		/* An entry whose vector did not run on a target it covers says
		 * nothing about this run (a subset of the files or targets). */
		if (!k->e[i].ran)
			k->not_run++;
		else if (!k->e[i].matched)
			k->stale++;
	}
	run->known = k;
}

bool np_known_failed(const np_known *k)
{
	return k->unlisted || k->stale;
}

/* ---- writing ---- */

typedef struct writer {
	FILE *out;      /* NULL: measuring the head column */
	int width;
} writer;

static void emit(writer *w, const char *vector, const char *scope, np_class cls, int step,
		 const char *got, const char *reason)
{
	char head[NP_TEXT_MAX * 2];
	snprintf(head, sizeof head, "%s%s%s", vector, scope[0] ? " " : "", scope);
	if (!w->out) {
		if ((int)strlen(head) > w->width)
			w->width = (int)strlen(head);
		return;
	}
	fprintf(w->out, "%-*s  %-15s  step %d: %s  # %s\n", w->width, head, np_class_name(cls), step, got,
		reason);
}

static void reason_for(const np_row *r, char *buf, size_t cap)
{
	if (r->cls == NP_CLASS_KNOWN)
		snprintf(buf, cap, "%s", r->listed->reason);
	else if (r->listed)
		snprintf(buf, cap, "TODO was: %s", r->listed->reason);
	else
		snprintf(buf, cap, "TODO");
}

static bool same_outcome(const np_row *a, const np_row *b)
{
	return np_row_observed(a) == np_row_observed(b) && a->step == b->step && same_text(a->got, b->got);
}

/* One vector's rows by target (NULL: no row there). */
typedef struct grid {
	const np_row *at[NP_VERSION_COUNT][NP_ARCH_COUNT];
} grid;

/* 'F' failed as `like` did there, 'O' ran there otherwise, 'N' did not run there. */
static char state_at(const grid *g, unsigned v, unsigned a, const np_row *like)
{
	const np_row *r = g->at[v][a];
	if (!r || !ran(r))
		return 'N';
	return np_class_is_failure(np_row_observed(r)) && same_outcome(r, like) ? 'F' : 'O';
}

typedef struct span {
	unsigned lo, hi;
	bool arch[NP_ARCH_COUNT];
	const np_row *known, *differs, *first;   /* for the reason */
} span;

static void scope_of(const span *s, char *buf, size_t cap)
{
	const unsigned last = NP_VERSION_COUNT - 1;
	const char *lo = np_version_key((np_ver)s->lo), *hi = np_version_key((np_ver)s->hi);
	size_t used = 0;
	buf[0] = '\0';
	if (s->lo == 0 && s->hi == last)
		;
	else if (s->lo == s->hi)
		used = (size_t)snprintf(buf, cap, "on %s", lo);
	else if (s->lo == 0)
		used = (size_t)snprintf(buf, cap, "on <=%s", hi);
	else if (s->hi == last)
		used = (size_t)snprintf(buf, cap, "on >=%s", lo);
	else
		used = (size_t)snprintf(buf, cap, "on %s..%s", lo, hi);
	unsigned n = 0;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		n += s->arch[a];
	if (n == NP_ARCH_COUNT)
		return;
	for (unsigned a = 0, k = 0; a < NP_ARCH_COUNT && used < cap; a++)
		if (s->arch[a])
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", k++ ? "," : used ? " arch=" : "arch=",
						 np_arch_name((np_arch)a));
}

/* The failures of one outcome (`like`) in few lines that cover no target
 * where the vector ran otherwise: per architecture, runs of versions from
 * one such failure to the last before a target where it ran otherwise,
 * widened to the end of the version table where nothing ran otherwise
 * beyond; architectures with the same run share a line. Runs of two
 * outcomes never meet, so the lines of a vector share no target. */
static void write_spans(writer *w, const grid *g, const np_row *like)
{
	span sp[NP_VERSION_COUNT * NP_ARCH_COUNT];
	unsigned nsp = 0;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		bool before = false;   /* ran otherwise at a lower version */
		for (unsigned v = 0; v < NP_VERSION_COUNT;) {
			char st = state_at(g, v, a, like);
			if (st != 'F') {
				before = before || st == 'O';
				v++;
				continue;
			}
			span s = { before ? v : 0, v, { false }, NULL, NULL, NULL };
			unsigned k = v;
			for (; k < NP_VERSION_COUNT && (st = state_at(g, k, a, like)) != 'O'; k++) {
				if (st != 'F')
					continue;
				const np_row *r = g->at[k][a];
				s.hi = k;
				if (!s.first)
					s.first = r;
				if (!s.known && r->cls == NP_CLASS_KNOWN)
					s.known = r;
				if (!s.differs && r->cls != NP_CLASS_KNOWN && r->listed)
					s.differs = r;
			}
			if (k == NP_VERSION_COUNT)
				s.hi = NP_VERSION_COUNT - 1;
			unsigned i = 0;
			while (i < nsp && (sp[i].lo != s.lo || sp[i].hi != s.hi))
				i++;
			if (i == nsp)
				sp[nsp++] = s;
			else if (!sp[i].known)
				sp[i].known = s.known, sp[i].differs = sp[i].differs ? sp[i].differs : s.differs;
			sp[i].arch[a] = true;
			before = true;
			v = k;
		}
	}
	for (unsigned i = 0; i < nsp; i++) {
		char scope[NP_TEXT_MAX], reason[NP_TEXT_MAX * 2 + 16];
		scope_of(&sp[i], scope, sizeof scope);
		reason_for(sp[i].known ? sp[i].known : sp[i].differs ? sp[i].differs : sp[i].first, reason, sizeof reason);
		emit(w, like->vector->id, scope, np_row_observed(like), like->step + 1, like->got, reason);
	}
}

/* One vector's rows (g[0..n)): the entry's own line when one entry matched
 * every failure; one line without a scope when every failure was alike and
 * either the run had one target (a live run: the file is that machine's)
 * or the vector failed wherever it ran; else scoped lines per outcome. */
static void write_group(writer *w, const np_run *run, const np_row *g, unsigned n)
{
	const np_row *first = NULL, *known = NULL, *differs = NULL;
	unsigned failing = 0, running = 0;
	bool alike = true, one_entry = true;
	for (unsigned i = 0; i < n; i++) {
		const np_row *r = &g[i];
		running += ran(r);
		if (!np_class_is_failure(np_row_observed(r)))
			continue;
		failing++;
		if (!first)
			first = r;
		if (r->cls == NP_CLASS_KNOWN && !known)
			known = r;
		if (r->cls != NP_CLASS_KNOWN && r->listed && !differs)
			differs = r;
		alike = alike && same_outcome(r, first);
		one_entry = one_entry && r->cls == NP_CLASS_KNOWN && r->listed == first->listed;
	}
	if (!failing)
		return;
	char reason[NP_TEXT_MAX * 2 + 16];
	if (alike && one_entry) {
		const np_known_entry *e = first->listed;
		emit(w, first->vector->id, e->scope_text, np_row_observed(first), first->step + 1, first->got, e->reason);
		return;
	}
	if (alike && (run->targets == 1 || failing == running)) {
		reason_for(known ? known : differs ? differs : first, reason, sizeof reason);
		emit(w, first->vector->id, "", np_row_observed(first), first->step + 1, first->got, reason);
		return;
	}
	grid gr;
	memset(&gr, 0, sizeof gr);
	for (unsigned i = 0; i < n; i++)
		if (!gr.at[g[i].target.version][g[i].target.arch])   /* the first, should a target repeat */
			gr.at[g[i].target.version][g[i].target.arch] = &g[i];
	for (unsigned i = 0; i < n; i++) {
		bool seen = false;
		if (!np_class_is_failure(np_row_observed(&g[i])))
			continue;
		for (unsigned j = 0; j < i && !seen; j++)
			seen = np_class_is_failure(np_row_observed(&g[j])) && same_outcome(&g[j], &g[i]);
		if (!seen)
			write_spans(w, &gr, &g[i]);
	}
}

static void write_all(writer *w, const np_run *run)
{
	for (unsigned i = 0, n; i < run->count; i += n) {
		for (n = 1; i + n < run->count && run->row[i + n].vector == run->row[i].vector; n++)
			;
		write_group(w, run, &run->row[i], n);
	}
}

void np_known_write(FILE *out, const np_run *run)
{
	writer w = { NULL, 0 };
	write_all(&w, run);
	fprintf(out, "# Known divergences of backend %s, written by `ntprof run --known-write`.\n", run->backend);
	for (unsigned i = 0; i < run->nenv; i++)
		fprintf(out, "# env %s: %s\n", run->env[i].name, run->env[i].value);
	fprintf(out, "# VECTOR-ID [on RANGE] [arch=LIST] CLASS step N: GOT # REASON (fixtures/known/README.md).\n"
		     "# Replace every TODO with why the divergence is expected: ntprof refuses TODO reasons.\n");
	w.out = out;
	write_all(&w, run);
}
