/* SPDX-License-Identifier: MIT */
/* ntprof diff: the steps whose outcome differs between two versions,
 * grouped by function (ntprof/matrix.h, np_matrix_diff). */
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"

/* One way a row differs: from -> to, on the architectures of the pairs
 * that differ so. */
typedef struct way {
	uint32_t from, to;
	bool arch[NP_ARCH_COUNT];
} way;

/* The ways row differs; *compared: the pairs evaluated on both sides. */
static unsigned ways_of(const np_matrix *m, unsigned row, const np_target *a, const np_target *b,
			unsigned npairs, way *w, unsigned *compared)
{
	unsigned n = 0;
	*compared = 0;
	for (unsigned k = 0; k < npairs; k++) {
		uint32_t from = np_matrix_cell_id(m, row, a[k].version, a[k].arch);
		uint32_t to = np_matrix_cell_id(m, row, b[k].version, b[k].arch);
		if (!from || !to)
			continue;
		++*compared;
		if (from == to)
			continue;
		unsigned g = 0;
		while (g < n && (w[g].from != from || w[g].to != to))
			g++;
		if (g == n) {
			memset(&w[n], 0, sizeof w[n]);
			w[n].from = from;
			w[n++].to = to;
		}
		w[g].arch[a[k].arch] = true;
	}
	return n;
}

/* "6.1", "6.1 x64 wow64" (with_arch), or "4.0/x86" for a side read on an
 * architecture of its own. */
static void side_label(char *buf, size_t cap, np_target t, bool own_arch, const bool arch[NP_ARCH_COUNT],
		       bool with_arch)
{
	size_t used = (size_t)snprintf(buf, cap, "%s", np_version_key(t.version));
	if (own_arch) {
		snprintf(buf + used, cap - used, "/%s", np_arch_name(t.arch));
		return;
	}
	for (unsigned k = 0; with_arch && k < NP_ARCH_COUNT && used < cap; k++)
		if (arch[k])
			used += (size_t)snprintf(buf + used, cap - used, " %s", np_arch_name((np_arch)k));
}

static void print_row(FILE *out, const np_matrix *m, unsigned row, const np_target *a, const np_target *b,
		      unsigned npairs)
{
	way w[NP_ARCH_COUNT];
	unsigned compared;
	unsigned n = ways_of(m, row, a, b, npairs, w, &compared);
	const np_vector *v = np_matrix_vector(m, row);
	unsigned s = np_matrix_step(m, row);
	const np_step *st = &v->step[s];
	fprintf(out, "  %s step %u", v->id, s + 1);
	if (strcmp(st->function, np_matrix_function(st)) != 0)
		fprintf(out, " %s", st->function);
	fprintf(out, " (");
	for (unsigned r = 0; r < v->nrule; r++)
		fprintf(out, "%s%s", r ? " " : "", v->rule[r]);
	fprintf(out, ")\n");
	bool own_arch = npairs == 1 && a[0].arch != b[0].arch;
	/* architectures are named unless one way covers every pair compared */
	unsigned covered = 0;
	for (unsigned k = 0; n == 1 && k < NP_ARCH_COUNT; k++)
		covered += w[0].arch[k];
	bool with_arch = n > 1 || covered < compared;
	char la[200], lb[200];
	for (unsigned g = 0; g < n; g++) {
		side_label(la, sizeof la, a[0], own_arch, w[g].arch, with_arch);
		side_label(lb, sizeof lb, b[0], own_arch, w[g].arch, with_arch);
		int width = (int)(strlen(la) > strlen(lb) ? strlen(la) : strlen(lb));
		fprintf(out, "    %-*s  %s\n", width, la, np_matrix_text(m, w[g].from));
		fprintf(out, "    %-*s  %s\n", width, lb, np_matrix_text(m, w[g].to));
	}
}

static const char *row_function(const np_matrix *m, unsigned row)
{
	return np_matrix_function(&np_matrix_vector(m, row)->step[np_matrix_step(m, row)]);
}

static bool listed(char (*ids)[NP_NAME_MAX], unsigned n, const char *id)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(ids[i], id) == 0)
			return true;
	return false;
}

unsigned np_matrix_diff(FILE *out, const np_matrix *m, const np_target *a, const np_target *b,
			unsigned npairs)
{
	unsigned *differs = calloc(m->nrows ? m->nrows : 1, sizeof *differs);
	char (*rules)[NP_NAME_MAX] = calloc(m->nrows * NP_MAX_RULES + 1, sizeof *rules);
	unsigned ndiff = 0;
	if (!differs || !rules) {
		free(differs);
		free(rules);
		return 0;
	}
	way w[NP_ARCH_COUNT];
	unsigned compared;
	for (unsigned r = 0; r < m->nrows; r++)
		if (ways_of(m, r, a, b, npairs, w, &compared))
			differs[ndiff++] = r;
	/* one group per function, in order of first appearance */
	for (unsigned i = 0; i < ndiff; i++) {
		const char *f = row_function(m, differs[i]);
		bool seen = false;
		for (unsigned j = 0; j < i && !seen; j++)
			seen = strcmp(f, row_function(m, differs[j])) == 0;
		if (seen)
			continue;
		unsigned nrules = 0;
		for (unsigned j = i; j < ndiff; j++) {
			const np_vector *v = np_matrix_vector(m, differs[j]);
			if (strcmp(f, row_function(m, differs[j])) != 0)
				continue;
			for (unsigned k = 0; k < v->nrule; k++)
				if (!listed(rules, nrules, v->rule[k]))
					memcpy(rules[nrules++], v->rule[k], NP_NAME_MAX);
		}
		fprintf(out, "%s:", f);
		for (unsigned k = 0; k < nrules; k++)
			fprintf(out, " %s", rules[k]);
		fputc('\n', out);
		for (unsigned j = i; j < ndiff; j++)
			if (strcmp(f, row_function(m, differs[j])) == 0)
				print_row(out, m, differs[j], a, b, npairs);
	}
	free(differs);
	free(rules);
	return ndiff;
}
