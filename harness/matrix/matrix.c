/* SPDX-License-Identifier: MIT */
/* ntprof matrix: every vector on every version and architecture, step by
 * step. Cells are short texts, interned (most of the ~90 000 cells of the
 * full matrix are one of a few hundred texts), so comparing two cells is
 * comparing two numbers. */
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "matrix/matrix_internal.h"
#include "ntprof/status.h"

/* ---- interned texts: id 0 is "no cell", ids 1.. index text[id - 1] ---- */

/* The id of s, added when new; 0 on out-of-memory. */
static uint32_t intern(np_matrix *m, const char *s)
{
	if (!np_strmap_reserve(&m->texts, m->text))
		return 0;
	unsigned *slot = np_strmap_slot(&m->texts, m->text, s);
	if (*slot)
		return *slot;
	if (m->ntext == m->captext) {
		unsigned cap = m->captext ? m->captext * 2 : 256;
		char **grown = realloc(m->text, cap * sizeof *grown);
		if (!grown)
			return 0;
		m->text = grown;
		m->captext = cap;
	}
	size_t n = strlen(s) + 1;
	if (!(m->text[m->ntext] = malloc(n)))
		return 0;
	memcpy(m->text[m->ntext], s, n);
	m->texts.count++;
	return *slot = ++m->ntext;
}

/* ---- cells ---- */

/* "STATUS_SUCCESS" -> "SUCCESS": the prefix says nothing in a table of
 * NTSTATUS values. Win32 errors keep "ERROR_" (TR-9 translates, and
 * ERROR_SUCCESS is not STATUS_SUCCESS). */
static const char *short_status(uint32_t code, char *buf, size_t cap)
{
	const char *name = np_status_name(code);
	if (!name) {
		snprintf(buf, cap, "0x%08X", code);
		return buf;
	}
	return strncmp(name, "STATUS_", 7) == 0 ? name + 7 : name;
}

static bool named_by_step(const np_step *st, const char *name)
{
	for (unsigned e = 0; e < st->nexpect; e++)
		for (unsigned i = 0; i < st->expect[e].nout; i++)
			if (strcmp(st->expect[e].out[i].name, name) == 0)
				return true;
	return false;
}

void np_matrix_cell_of(const np_step *st, const np_record *rec, char *buf, size_t cap)
{
	char number[16];
	const char *name;
	size_t used;
	switch (rec->outcome.kind) {
	case NP_RESULT_STATUS:
		used = (size_t)snprintf(buf, cap, "%s", short_status(rec->outcome.code, number, sizeof number));
		break;
	case NP_RESULT_WIN32:
		name = np_win32_name(rec->outcome.code);
		used = name ? (size_t)snprintf(buf, cap, "%s", name)
			    : (size_t)snprintf(buf, cap, "ERROR_%u", rec->outcome.code);
		break;
	case NP_RESULT_FAULT:
		used = (size_t)snprintf(buf, cap, "fault %s", short_status(rec->outcome.code, number, sizeof number));
		break;
	case NP_RESULT_BUGCHECK:
		name = np_bugcheck_name(rec->outcome.code);
		used = name ? (size_t)snprintf(buf, cap, "bugcheck %s", name)
			    : (size_t)snprintf(buf, cap, "bugcheck 0x%08X", rec->outcome.code);
		break;
	case NP_RESULT_NOT_EXPORTED:
		snprintf(buf, cap, "n/e");
		return;
	case NP_RESULT_NOT_APPLICABLE:
		snprintf(buf, cap, "n/a");
		return;
	case NP_RESULT_STUB:       used = (size_t)snprintf(buf, cap, "stub"); break;
	case NP_RESULT_CRASHED:    used = (size_t)snprintf(buf, cap, "crashed"); break;
	case NP_RESULT_CORRUPTION: used = (size_t)snprintf(buf, cap, "corruption"); break;
	case NP_RESULT_NONE:
	default:                used = 0; buf[0] = '\0'; break;
	}
	/* The out-values the fixture thinks worth comparing, on every version
	 * alike (the union over the step's expect and accept lines). An
	 * unwritten one ("-") is left out after a failure, where it is the
	 * rule: "PRIVILEGE_NOT_HELD", not "PRIVILEGE_NOT_HELD ProfileHandle=-". */
	bool failed = (rec->outcome.kind == NP_RESULT_STATUS && rec->outcome.code >= 0x80000000u) ||
		      (rec->outcome.kind == NP_RESULT_WIN32 && rec->outcome.code != 0);
	for (unsigned i = 0; i < rec->nout && used < cap; i++)
		if (named_by_step(st, rec->out[i].name) && !(failed && strcmp(rec->out[i].value, "-") == 0))
			used += (size_t)snprintf(buf + used, cap - used, "%s%s=%s", used ? " " : "",
						 rec->out[i].name, rec->out[i].value);
	if (used == 0)
		snprintf(buf, cap, "done");
}

static size_t cell_index(unsigned row, np_ver v, np_arch a)
{
	return ((size_t)row * NP_VERSION_COUNT + (size_t)v) * NP_ARCH_COUNT + (size_t)a;
}

uint32_t np_matrix_cell_id(const np_matrix *m, unsigned row, np_ver v, np_arch a)
{
	return m->cell[cell_index(row, v, a)];
}

/* One vector on one target: a cell for each step. */
static bool evaluate(np_matrix *m, np_backend *b, unsigned first_row, const np_vector *vec, np_target t)
{
	const char *why = b->begin(b, t, vec);
	char text[NP_TEXT_MAX * 3];
	uint32_t na = 0;
	for (unsigned s = 0; s < vec->nstep; s++) {
		uint32_t id;
		if (why) {
			id = na ? na : (na = intern(m, "n/a"));
		} else {
			np_record rec;
			b->step(b, &vec->step[s], &rec);
			np_matrix_cell_of(&vec->step[s], &rec, text, sizeof text);
			id = intern(m, text);
		}
		if (!id) {
			b->end(b);
			return false;
		}
		m->cell[cell_index(first_row + s, t.version, t.arch)] = id;
	}
	b->end(b);
	return true;
}

np_matrix *np_matrix_build(np_backend *b, const np_vector_set *set,
			   const bool versions[NP_VERSION_COUNT], const bool arches[NP_ARCH_COUNT])
{
	np_matrix *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->set = set;
	memcpy(m->version, versions, sizeof m->version);
	memcpy(m->arch, arches, sizeof m->arch);
	m->backend = b->name;
	for (unsigned i = 0; i < set->count; i++)
		m->nrows += set->v[i].nstep;
	m->row = calloc(m->nrows ? m->nrows : 1, sizeof *m->row);
	m->cell = calloc(cell_index(m->nrows, 0, 0) + 1, sizeof *m->cell);
	if (!m->row || !m->cell) {
		np_matrix_free(m);
		return NULL;
	}
	unsigned row = 0;
	for (unsigned i = 0; i < set->count; i++) {
		const np_vector *vec = &set->v[i];
		for (unsigned s = 0; s < vec->nstep; s++)
			m->row[row + s] = (np_matrix_row){ i, s };
		for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
			for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
				if (versions[v] && arches[a] && np_arch_exists((np_ver)v, (np_arch)a) &&
				    np_applies(&vec->applies, (np_ver)v, (np_arch)a) &&
				    !evaluate(m, b, row, vec, (np_target){ (np_ver)v, (np_arch)a })) {
					np_matrix_free(m);
					return NULL;
				}
		row += vec->nstep;
	}
	return m;
}

void np_matrix_free(np_matrix *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->ntext; i++)
		free(m->text[i]);
	free(m->text);
	np_strmap_free(&m->texts);
	free(m->row);
	free(m->cell);
	free(m);
}

unsigned np_matrix_rows(const np_matrix *m) { return m->nrows; }

const np_vector *np_matrix_vector(const np_matrix *m, unsigned row)
{
	return &m->set->v[m->row[row].vector];
}

unsigned np_matrix_step(const np_matrix *m, unsigned row) { return m->row[row].step; }

const char *np_matrix_text(const np_matrix *m, uint32_t id)
{
	return id ? m->text[id - 1] : NULL;
}

const char *np_matrix_cell(const np_matrix *m, unsigned row, np_ver v, np_arch a)
{
	return np_matrix_text(m, np_matrix_cell_id(m, row, v, a));
}

unsigned np_matrix_column_groups(const np_matrix *m, unsigned row, np_ver v,
				 uint32_t id[NP_ARCH_COUNT], bool member[NP_ARCH_COUNT][NP_ARCH_COUNT])
{
	unsigned n = 0;
	memset(member, 0, sizeof(bool) * NP_ARCH_COUNT * NP_ARCH_COUNT);
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		uint32_t c = np_matrix_cell_id(m, row, v, (np_arch)a);
		if (!c)
			continue;
		unsigned g = 0;
		while (g < n && id[g] != c)
			g++;
		if (g == n)
			id[n++] = c;
		member[g][a] = true;
	}
	return n;
}

void np_matrix_column_text(const np_matrix *m, unsigned row, np_ver v, char *buf, size_t cap)
{
	uint32_t id[NP_ARCH_COUNT];
	bool member[NP_ARCH_COUNT][NP_ARCH_COUNT];
	unsigned n = np_matrix_column_groups(m, row, v, id, member);
	if (n <= 1) {
		snprintf(buf, cap, "%s", n ? np_matrix_text(m, id[0]) : "-");
		return;
	}
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned g = 0; g < n && used < cap; g++) {
		used += (size_t)snprintf(buf + used, cap - used, "%s", g ? " / " : "");
		for (unsigned a = 0, k = 0; a < NP_ARCH_COUNT && used < cap; a++)
			if (member[g][a])
				used += (size_t)snprintf(buf + used, cap - used, "%s%s", k++ ? " " : "",
							 np_arch_name((np_arch)a));
		if (used < cap)
			used += (size_t)snprintf(buf + used, cap - used, ": %s", np_matrix_text(m, id[g]));
	}
}

/* The chosen version shown before v, or -1. */
int np_matrix_previous(const np_matrix *m, np_ver v)
{
	for (int p = (int)v - 1; p >= 0; p--)
		if (m->version[p])
			return p;
	return -1;
}

bool np_matrix_changed(const np_matrix *m, unsigned row, np_ver v)
{
	int p = np_matrix_previous(m, v);
	if (p < 0)
		return false;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		uint32_t before = np_matrix_cell_id(m, row, (np_ver)p, (np_arch)a);
		uint32_t now = np_matrix_cell_id(m, row, v, (np_arch)a);
		if (before && now && before != now)
			return true;
	}
	return false;
}

bool np_matrix_format_parse(const char *text, np_matrix_format *out)
{
	if (strcmp(text, "text") == 0)
		return *out = NP_MATRIX_TEXT, true;
	if (strcmp(text, "markdown") == 0 || strcmp(text, "md") == 0)
		return *out = NP_MATRIX_MARKDOWN, true;
	if (strcmp(text, "html") == 0)
		return *out = NP_MATRIX_HTML, true;
	return false;
}

const char *np_matrix_function(const np_step *st)
{
	const np_function *f = np_function_find(st->function);
	return f ? f->name : st->function;
}

void np_matrix_print(FILE *out, const np_matrix *m, np_matrix_format fmt, const np_index *rules)
{
	if (fmt == NP_MATRIX_HTML)
		np_matrix_print_html(out, m, rules);
	else
		np_matrix_print_text(out, m, fmt == NP_MATRIX_MARKDOWN);
}
