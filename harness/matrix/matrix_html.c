/* ntprof matrix as one self-contained HTML page: inline CSS, no scripts, no
 * external assets (nothing is fetched; SPEC.md's URLs stay text). A colour
 * per status; consecutive versions with the same cells share one merged
 * cell, so a behaviour change is where the colour changes, and the cell
 * where it changes is marked; each rule links to its text, embedded at the
 * bottom of the page. */
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"

static void esc(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default:  fputc(*s, out); break;
		}
	}
}

static void esc_n(FILE *out, const char *s, size_t n)
{
	char buf[512];
	while (n) {
		size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
		memcpy(buf, s, k);
		buf[k] = '\0';
		esc(out, buf);
		s += k;
		n -= k;
	}
}

/* ---- statuses and their colours ---- */

/* The status of a cell text: its first word ("SUCCESS"), both words of
 * "fault X" and "bugcheck X", "values" for a pseudo-step's values. */
static void status_key(const char *text, char *buf, size_t cap)
{
	size_t n = strcspn(text, " ");
	if ((strncmp(text, "fault ", 6) == 0 || strncmp(text, "bugcheck ", 9) == 0) && text[n])
		n += 1 + strcspn(text + n + 1, " ");
	if (memchr(text, '=', n) || strcmp(text, "done") == 0)
		snprintf(buf, cap, "values");
	else
		snprintf(buf, cap, "%.*s", (int)n, text);
}

typedef struct palette {
	char (*key)[64];       /* distinct statuses, sorted */
	unsigned nkey;
	unsigned *of;          /* text id -> status index */
	unsigned *count;       /* cells per status */
} palette;

static int by_key(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static bool palette_build(palette *p, const np_matrix *m)
{
	memset(p, 0, sizeof *p);
	p->key = calloc(m->ntext + 1, sizeof *p->key);
	p->of = calloc(m->ntext + 1, sizeof *p->of);
	p->count = calloc(m->ntext + 1, sizeof *p->count);
	if (!p->key || !p->of || !p->count)
		return false;
	char k[64];
	for (unsigned id = 1; id <= m->ntext; id++) {
		status_key(np_matrix_text(m, id), k, sizeof k);
		unsigned i = 0;
		while (i < p->nkey && strcmp(p->key[i], k) != 0)
			i++;
		if (i == p->nkey)
			memcpy(p->key[p->nkey++], k, sizeof k);
	}
	qsort(p->key, p->nkey, sizeof *p->key, by_key);
	for (unsigned id = 1; id <= m->ntext; id++) {
		status_key(np_matrix_text(m, id), k, sizeof k);
		char (*found)[64] = bsearch(k, p->key, p->nkey, sizeof *p->key, by_key);
		p->of[id] = (unsigned)(found - p->key);
	}
	size_t ncell = (size_t)m->nrows * NP_VERSION_COUNT * NP_ARCH_COUNT;
	for (size_t i = 0; i < ncell; i++)
		if (m->cell[i])
			p->count[p->of[m->cell[i]]]++;
	return true;
}

static void palette_free(palette *p)
{
	free(p->key);
	free(p->of);
	free(p->count);
}

/* Fixed colours for the statuses every reader looks for; the others get
 * hues spread by the golden angle, pale enough for black text. */
static void colour(FILE *out, const char *key, unsigned i)
{
	static const struct { const char *key, *css; } fixed[] = {
		{ "SUCCESS", "background:#b9e6b3" },
		{ "ERROR_SUCCESS", "background:#b9e6b3" },
		{ "values", "background:#dde9f5" },
		{ "n/a", "background:#ececec;color:#666" },
		{ "n/e", "background:#c4c4c4" },
		{ "corruption", "background:#f0a0a0" },
		{ "stub", "background:#c4c4c4" },
		{ "crashed", "background:#b03030;color:#fff" },
	};
	for (unsigned k = 0; k < sizeof fixed / sizeof *fixed; k++)
		if (strcmp(key, fixed[k].key) == 0) {
			fprintf(out, "%s", fixed[k].css);
			return;
		}
	if (strncmp(key, "bugcheck", 8) == 0)
		fprintf(out, "background:#c0392b;color:#fff");
	else if (strncmp(key, "fault", 5) == 0)
		fprintf(out, "background:#e8743b;color:#fff");
	else   /* hues spread over the circle less the greens, which mean success;
		* every ten a darker shade, so that the eleventh hue is not the first */
		fprintf(out, "background:hsl(%u,70%%,%u%%)", ((i * 161u) % 260u + 180u) % 360u, 86u - 8u * ((i / 10u) % 3u));
}

/* ---- page parts ---- */

static const char style[] =
	"body{font:13px/1.35 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;margin:1em;color:#222}\n"
	"table{border-collapse:collapse}\n"
	"th,td{border:1px solid #d4d4d4;padding:1px 5px;white-space:nowrap;vertical-align:top}\n"
	"thead th{position:sticky;top:0;background:#f2f2f2;z-index:1}\n"
	"td.v,td.f{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}\n"
	"td.n{text-align:right;color:#666}\n"
	"tr.first td{border-top:2px solid #999}\n"
	"td.e{background:#fff}\n"
	"td.x{border-left:3px solid #000}\n"
	"td.x::before{content:\"\\2260  \";font-weight:bold}\n"
	"td.m div{padding:0 2px}\n"
	".legend span{display:inline-block;margin:2px 4px 2px 0;padding:1px 6px;border:1px solid #d4d4d4}\n"
	".rule{margin:.5em 0;padding:.2em .7em;border-left:3px solid #ccc;max-width:60em}\n"
	".rule h3{margin:.2em 0;font-size:14px}\n"
	".rule p{margin:.2em 0}\n"
	".rule:target{background:#fff8c4}\n"
	"a{color:#1a4fa0;text-decoration:none}\n";

static void rule_heading(const np_rule *r, char *buf, size_t cap)
{
	const char *t = r->text ? r->text : r->id;
	while (*t == '#' || *t == ' ')
		t++;
	size_t n = strcspn(t, "\n");
	snprintf(buf, cap, "%.*s", (int)n, t);
}

static void rule_links(FILE *out, const np_vector *v, const np_index *rules)
{
	char heading[300];
	for (unsigned k = 0; k < v->nrule; k++) {
		const np_rule *r = rules ? np_index_rule(rules, v->rule[k]) : NULL;
		if (k)
			fputc(' ', out);
		if (!r) {
			esc(out, v->rule[k]);
			continue;
		}
		rule_heading(r, heading, sizeof heading);
		fprintf(out, "<a href=\"#rule-");
		esc(out, r->id);
		fprintf(out, "\" title=\"");
		esc(out, heading);
		fprintf(out, "\">");
		esc(out, r->id);
		fprintf(out, "</a>");
	}
}

/* Whether column b reads as column a and is no change from it: the same
 * texts for the same architectures (one text for all counts as the same
 * whichever architectures exist, VR-3). */
static bool same_column(const np_matrix *m, unsigned row, np_ver a, np_ver b)
{
	uint32_t ida[NP_ARCH_COUNT], idb[NP_ARCH_COUNT];
	bool ma[NP_ARCH_COUNT][NP_ARCH_COUNT], mb[NP_ARCH_COUNT][NP_ARCH_COUNT];
	unsigned na = np_matrix_column_groups(m, row, a, ida, ma), nb = np_matrix_column_groups(m, row, b, idb, mb);
	if (na != nb || np_matrix_changed(m, row, b))
		return false;
	for (unsigned g = 0; g < na; g++)
		if (ida[g] != idb[g] || (na > 1 && memcmp(ma[g], mb[g], sizeof ma[g]) != 0))
			return false;
	return true;
}

static void arch_label(FILE *out, const bool member[NP_ARCH_COUNT])
{
	for (unsigned a = 0, k = 0; a < NP_ARCH_COUNT; a++)
		if (member[a])
			fprintf(out, "%s%s", k++ ? " " : "", np_arch_name((np_arch)a));
	fprintf(out, ": ");
}

/* One merged cell: versions first..last (both chosen), span columns. */
static void cell(FILE *out, const np_matrix *m, const palette *p, unsigned row, np_ver first, np_ver last,
		 unsigned span)
{
	uint32_t id[NP_ARCH_COUNT];
	bool member[NP_ARCH_COUNT][NP_ARCH_COUNT];
	unsigned n = np_matrix_column_groups(m, row, first, id, member);
	bool changed = np_matrix_changed(m, row, first);
	char text[1024];
	fprintf(out, "<td");
	if (n == 0)
		fprintf(out, " class=\"e\"");
	else if (n == 1)
		fprintf(out, " class=\"c%u%s\"", p->of[id[0]], changed ? " x" : "");
	else
		fprintf(out, " class=\"m%s\"", changed ? " x" : "");
	if (span > 1)
		fprintf(out, " colspan=\"%u\"", span);
	fprintf(out, " title=\"%s", np_version_key(first));
	if (last != first)
		fprintf(out, " to %s", np_version_key(last));
	if (changed) {
		np_matrix_column_text(m, row, (np_ver)np_matrix_previous(m, first), text, sizeof text);
		fprintf(out, "; was ");
		esc(out, text);
		fprintf(out, " on %s", np_version_key((np_ver)np_matrix_previous(m, first)));
	}
	fprintf(out, "\">");
	if (n == 1) {
		esc(out, np_matrix_text(m, id[0]));
	} else {
		for (unsigned g = 0; g < n; g++) {
			fprintf(out, "<div class=\"c%u\">", p->of[id[g]]);
			arch_label(out, member[g]);
			esc(out, np_matrix_text(m, id[g]));
			fprintf(out, "</div>");
		}
	}
	fprintf(out, "</td>");
}

/* A vector file's name below the root (the page names no build machine's paths). */
static const char *relative(const char *file, const np_index *rules)
{
	size_t n = rules ? strlen(rules->root) : 0;
	if (n && strncmp(file, rules->root, n) == 0 && file[n] == '/')
		return file + n + 1;
	return file;
}

static void row_html(FILE *out, const np_matrix *m, const palette *p, const np_index *rules, unsigned r)
{
	const np_vector *v = np_matrix_vector(m, r);
	unsigned s = np_matrix_step(m, r);
	fprintf(out, "<tr%s>", s == 0 ? " class=\"first\"" : "");
	if (s == 0) {
		char span[32] = "";
		if (v->nstep > 1)
			snprintf(span, sizeof span, " rowspan=\"%u\"", v->nstep);
		fprintf(out, "<td class=\"v\"%s title=\"", span);
		esc(out, v->title);
		fprintf(out, " (");
		esc(out, relative(v->file ? v->file : "?", rules));
		fprintf(out, ":%d)\">", v->line);
		esc(out, v->id);
		fprintf(out, "</td><td%s>", span);
		rule_links(out, v, rules);
		fprintf(out, "</td>");
	}
	fprintf(out, "<td class=\"n\">%u</td><td class=\"f\">", s + 1);
	esc(out, v->step[s].function);
	fprintf(out, "</td>");
	for (int first = 0; first < NP_VERSION_COUNT; first++) {
		if (!m->version[first])
			continue;
		int last = first, next = first + 1;
		unsigned span = 1;
		for (; next < NP_VERSION_COUNT; next++) {
			if (!m->version[next])
				continue;
			if (!same_column(m, r, (np_ver)first, (np_ver)next))
				break;
			last = next;
			span++;
		}
		cell(out, m, p, r, (np_ver)first, (np_ver)last, span);
		first = last;
	}
	fprintf(out, "</tr>\n");
}

static bool cited(const np_matrix *m, const char *id)
{
	for (unsigned i = 0; i < m->set->count; i++)
		for (unsigned k = 0; k < m->set->v[i].nrule; k++)
			if (strcmp(m->set->v[i].rule[k], id) == 0)
				return true;
	return false;
}

/* The texts of the rules the rows cite, in SPEC.md's order, each with the
 * anchor the rows link to. */
static void rules_section(FILE *out, const np_matrix *m, const np_index *rules)
{
	char heading[300];
	fprintf(out, "<h2 id=\"rules\">Rules</h2>\n<p>The rules of SPEC.md the vectors above prove.</p>\n");
	for (unsigned i = 0; rules && i < rules->nrule; i++) {
		const np_rule *r = &rules->rule[i];
		if (!cited(m, r->id))
			continue;
		rule_heading(r, heading, sizeof heading);
		fprintf(out, "<div class=\"rule\" id=\"rule-");
		esc(out, r->id);
		fprintf(out, "\"><h3>");
		esc(out, heading);
		fprintf(out, "</h3>\n");
		const char *t = r->text ? strchr(r->text, '\n') : NULL;
		while (t && *t) {
			t++;
			size_t n = strcspn(t, "\n");
			if (n) {
				fprintf(out, "<p>");
				esc_n(out, t, n);
				fprintf(out, "</p>\n");
			}
			t += n;
		}
		fprintf(out, "</div>\n");
	}
}

void np_matrix_print_html(FILE *out, const np_matrix *m, const np_index *rules)
{
	palette p;
	if (!palette_build(&p, m)) {
		palette_free(&p);
		return;
	}
	unsigned versions = 0;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions += m->version[v];
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<title>ntprof matrix</title>\n<style>\n%s", style);
	for (unsigned k = 0; k < p.nkey; k++) {
		fprintf(out, ".c%u{", k);
		colour(out, p.key[k], k);
		fprintf(out, "}\n");
	}
	fprintf(out, "</style>\n</head>\n<body>\n<h1>ntprof matrix</h1>\n<p>Backend ");
	esc(out, m->backend);
	fprintf(out, ", %u vectors, %u steps, %u versions, architectures", m->set->count, m->nrows, versions);
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		if (m->arch[a])
			fprintf(out, " %s", np_arch_name((np_arch)a));
	fprintf(out, ". A row per vector and step, a column per version. A cell is the step's outcome and the "
		     "values its vector names; where the architectures differ, a line per architecture. Versions "
		     "with the same cells share one cell; &#8800; and a bold left edge mark a change from the "
		     "previous version (the tooltip says from what). Blank: not evaluated there; n/a: not "
		     "applicable; n/e: not exported. Rules link to their text at the <a href=\"#rules\">bottom</a>."
		     "</p>\n<p class=\"legend\">");
	for (unsigned k = 0; k < p.nkey; k++) {
		fprintf(out, "<span class=\"c%u\">", k);
		esc(out, p.key[k]);
		fprintf(out, " (%u)</span>", p.count[k]);
	}
	fprintf(out, "</p>\n<table>\n<thead><tr><th>vector</th><th>rules</th><th>step</th><th>function</th>");
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		if (!m->version[v])
			continue;
		const np_version_info *info = np_version_info_of((np_ver)v);
		fprintf(out, "<th title=\"");
		esc(out, info->product);
		fprintf(out, " (%u.%u.%u)\">", info->major, info->minor, info->build);
		esc(out, info->key);
		fprintf(out, "</th>");
	}
	fprintf(out, "</tr></thead>\n<tbody>\n");
	for (unsigned r = 0; r < m->nrows; r++)
		row_html(out, m, &p, rules, r);
	fprintf(out, "</tbody>\n</table>\n");
	rules_section(out, m, rules);
	fprintf(out, "</body>\n</html>\n");
	palette_free(&p);
}
