/* SPDX-License-Identifier: MIT */
/* ntprof matrix as one self-contained HTML page: inline CSS, no scripts, no
 * external assets (nothing is fetched; links are only followed when
 * clicked). A colour per family of statuses (matrix_palette.c) with the
 * exact status in the cell; consecutive versions with the same cells share
 * one merged cell, so a behaviour change is where the colour changes, and
 * the cell where it changes is marked. The row labels (vector, rules, step,
 * function) stay in view when the page scrolls right, the header row when
 * it scrolls down. Each row has an anchor and links its vector to the .vec
 * file and its rules to their texts, embedded at the bottom as HTML. A
 * second view holds only the rows that change between versions: the CSS
 * :target rule shows it in place of the full table when its anchor is
 * opened, so that no script is needed. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/common.h"
#include "matrix/markdown.h"
#include "matrix/matrix_internal.h"

static void esc(FILE *out, const char *s)
{
	np_html_escape(out, s, (size_t)-1);
}

/* ---- statuses and their families ---- */

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
		np_status_key(np_matrix_text(m, id), k, sizeof k);
		unsigned i = 0;
		while (i < p->nkey && strcmp(p->key[i], k) != 0)
			i++;
		if (i == p->nkey)
			memcpy(p->key[p->nkey++], k, sizeof k);
	}
	qsort(p->key, p->nkey, sizeof *p->key, by_key);
	for (unsigned id = 1; id <= m->ntext; id++) {
		np_status_key(np_matrix_text(m, id), k, sizeof k);
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

/* The class of a cell text: its status's family. */
static const char *family_class(const palette *p, uint32_t id)
{
	return np_family_of(np_status_family(p->key[p->of[id]]))->css;
}

/* ---- page parts ---- */

/* The four label columns are sticky at these offsets from the left (px):
 * vector, rules, step, function; their widths are fixed so that the
 * offsets hold; a vector ID or a list of rules too long for its column
 * wraps (at a hyphen or a space). */
static const char style[] =
	"body{font:13px/1.35 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;margin:0 1em 1em 0;"
	"color:" NP_PAGE_TEXT "}\n"
	"body>h1,body>p,body>nav,body>ul,body>h2,.rule,.view>h2,.view>p{margin-left:1rem}\n"
	"nav{position:sticky;left:1rem;display:inline-block;margin:.4em 0 .6em 1rem;padding:.3em .6em;"
	"background:#f2f2f2;border:1px solid #d4d4d4}\n"
	"table.m{border-collapse:separate;border-spacing:0}\n"
	"table.m th,table.m td{border:solid #d4d4d4;border-width:0 1px 1px 0;padding:1px 5px;"
	"vertical-align:top;box-sizing:border-box}\n"
	"table.m td{white-space:normal;min-width:4em}\n"
	"table.m thead th{position:sticky;top:0;background:#f2f2f2;z-index:2;white-space:nowrap}\n"
	".s1,.s2,.s3,.s4{position:sticky;background:#fff;z-index:1;white-space:nowrap;overflow:hidden;"
	"text-overflow:ellipsis}\n"
	"table.m td.s1,table.m td.s2{white-space:normal}\n"
	"table.m td.s3,table.m td.s4{white-space:nowrap}\n"
	"table.m thead th.s1,table.m thead th.s2,table.m thead th.s3,table.m thead th.s4{z-index:3;"
	"background:#f2f2f2}\n"
	"table.m .s1{left:0;width:220px;min-width:220px;max-width:220px}\n"
	"table.m .s2{left:220px;width:96px;min-width:96px;max-width:96px}\n"
	"table.m .s3{left:316px;width:48px;min-width:48px;max-width:48px}\n"
	"table.m .s4{left:364px;width:172px;min-width:172px;max-width:172px;"
	"border-right:2px solid #888}\n"
	"td.v,td.f{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}\n"
	"td.n{text-align:right;color:#666}\n"
	"tr.first td{border-top:2px solid #999}\n"
	"td.e{background:#fff}\n"
	"td.x{border-left:3px solid #000}\n"
	"td.x::before{content:\"\\2260  \";font-weight:bold}\n"
	"td.m div{padding:0 2px}\n"
	/* the text of a cell of many versions (and each architecture's line)
	 * slides along inside its cell, right of the labels, so that a page
	 * scrolled right still reads the status, not only its colour */
	"td .t,td.m div{position:sticky;left:542px;z-index:0;display:inline-block}\n"
	"td.m div{width:max-content}\n"
	"tr:target td.s1,tr:target td.s2{background:#fff8c4}\n"
	"a.up{margin-left:.3em}\n"
	"#changes{display:none}\n#changes:target{display:block}\n#changes:target~#all{display:none}\n"
	".legend{list-style:none;padding:0}\n.legend li{margin:3px 0}\n"
	".legend .sw{display:inline-block;min-width:15em;margin-right:.5em;padding:1px 6px;"
	"border:1px solid #999}\n"
	".rule{margin:.5em 0 .5em 1rem;padding:.2em .7em;border-left:3px solid #ccc;max-width:60em}\n"
	".rule h3{margin:.2em 0;font-size:14px}\n"
	".rule p{margin:.3em 0}\n"
	".rule table{border-collapse:collapse}\n"
	".rule th,.rule td{border:1px solid #ccc;padding:1px 5px;text-align:left}\n"
	".rule code{background:#f2f2f2;padding:0 2px}\n"
	".rule pre{background:#f6f6f6;padding:.4em;overflow:auto}\n"
	".rule:target{background:#fff8c4}\n"
	"a{color:#1a4fa0;text-decoration:none}\na:hover{text-decoration:underline}\n";

static void rule_heading(const np_spec_rule *r, char *buf, size_t cap)
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
		const np_spec_rule *r = rules ? np_index_rule(rules, v->rule[k]) : NULL;
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
		fprintf(out, " class=\"%s%s\"", family_class(p, id[0]), changed ? " x" : "");
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
	if (n == 1 && span > 1) {   /* a wide cell keeps its text in view, see style */
		fprintf(out, "<span class=\"t\">");
		esc(out, np_matrix_text(m, id[0]));
		fprintf(out, "</span>");
	} else if (n == 1) {
		esc(out, np_matrix_text(m, id[0]));
	} else {
		for (unsigned g = 0; g < n; g++) {
			fprintf(out, "<div class=\"%s\">", family_class(p, id[g]));
			arch_label(out, member[g]);
			esc(out, np_matrix_text(m, id[g]));
			fprintf(out, "</div>");
		}
	}
	fprintf(out, "</td>");
}

/* A vector file's name below the root (the page names no build machine's
 * paths), or NULL when it is not below it. A relative name (from the
 * working directory) serves when the root has the same file under it:
 * root/name is then the file, whatever the working directory was. */
static const char *relative(const char *file, const np_index *rules)
{
	size_t n = rules ? strlen(rules->root) : 0;
	if (!file || !n)
		return NULL;
	if (strncmp(file, rules->root, n) == 0 && file[n] == '/')
		return file + n + 1;
	char there[1100];
	struct stat a, b;
	snprintf(there, sizeof there, "%s/%s", rules->root, file);
	if (file[0] != '/' && stat(file, &a) == 0 && stat(there, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return strncmp(file, "./", 2) == 0 ? file + 2 : file;
	return NULL;
}

/* A row's anchor: "vector-" and the ID with what an id or a URL fragment
 * would trip on spelled out: '/' as '.', any other character but a letter,
 * a digit or '-' as "_XX" (so that two IDs never share an anchor). */
static void vector_anchor(FILE *out, const char *id)
{
	fputs("vector-", out);
	for (const unsigned char *c = (const unsigned char *)id; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-')
			fputc(*c, out);
		else if (*c == '/')
			fputc('.', out);
		else
			fprintf(out, "_%02X", *c);
	}
}

/* The vector and rules cells of a vector's first row shown (span rows). */
static void label_cells(FILE *out, const np_vector *v, const np_index *rules, unsigned span, bool full)
{
	const char *file = relative(v->file, rules);
	char rows[32] = "";
	if (span > 1)
		snprintf(rows, sizeof rows, " rowspan=\"%u\"", span);
	fprintf(out, "<td class=\"v s1\"%s title=\"", rows);
	esc(out, v->title);
	fprintf(out, " (");
	esc(out, file ? file : v->file ? v->file : "?");
	fprintf(out, ":%d)\">", v->line);
	if (file)
		np_html_file_link(out, file, v->line, v->id);
	else
		esc(out, v->id);
	if (!full) {
		fprintf(out, "<a class=\"up\" href=\"#");
		vector_anchor(out, v->id);
		fprintf(out, "\" title=\"this vector among all rows\">&#8593;</a>");
	}
	fprintf(out, "</td><td class=\"r s2\"%s>", rows);
	rule_links(out, v, rules);
	fprintf(out, "</td>");
}

/* Row r; lead: the first row shown of its vector, span of them shown;
 * full: the table of all rows, where the vector's rows have its anchor. */
static void row_html(FILE *out, const np_matrix *m, const palette *p, const np_index *rules, unsigned r,
		     unsigned span, bool full)
{
	const np_vector *v = np_matrix_vector(m, r);
	unsigned s = np_matrix_step(m, r);
	fprintf(out, "<tr");
	if (span && full) {
		fprintf(out, " id=\"");
		vector_anchor(out, v->id);
		fprintf(out, "\"");
	}
	fprintf(out, "%s>", span ? " class=\"first\"" : "");
	if (span)
		label_cells(out, v, rules, span, full);
	fprintf(out, "<td class=\"n s3\">%u</td><td class=\"f s4\">", s + 1);
	esc(out, v->step[s].function);
	fprintf(out, "</td>");
	for (int first = 0; first < NP_VERSION_COUNT; first++) {
		if (!m->version[first])
			continue;
		int last = first, next = first + 1;
		unsigned cols = 1;
		for (; next < NP_VERSION_COUNT; next++) {
			if (!m->version[next])
				continue;
			if (!same_column(m, r, (np_ver)first, (np_ver)next))
				break;
			last = next;
			cols++;
		}
		cell(out, m, p, r, (np_ver)first, (np_ver)last, cols);
		first = last;
	}
	fprintf(out, "</tr>\n");
}

/* Whether row r's outcome changes between two of the chosen versions. */
static bool row_changes(const np_matrix *m, unsigned r)
{
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		if (m->version[v] && np_matrix_changed(m, r, (np_ver)v))
			return true;
	return false;
}

/* full: the table of all rows, whose version columns have anchors. */
static void table_head(FILE *out, const np_matrix *m, bool full)
{
	fprintf(out, "<table class=\"m\">\n<thead><tr><th class=\"s1\">vector</th><th class=\"s2\">rules</th>"
		     "<th class=\"s3\">step</th><th class=\"s4\">function</th>");
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		if (!m->version[v])
			continue;
		const np_version_info *info = np_version_info_of((np_ver)v);
		fprintf(out, "<th");
		if (full)
			fprintf(out, " id=\"version-%s\"", info->key);
		fprintf(out, " title=\"");
		esc(out, info->product);
		fprintf(out, " (%u.%u.%u)\">", info->major, info->minor, info->build);
		esc(out, info->key);
		fprintf(out, "</th>");
	}
	fprintf(out, "</tr></thead>\n<tbody>\n");
}

/* The table of the rows that changes_only picks (all when false). */
static void table_html(FILE *out, const np_matrix *m, const palette *p, const np_index *rules,
		       bool changes_only)
{
	table_head(out, m, !changes_only);
	for (unsigned r = 0; r < m->nrows; r++) {
		if (changes_only && !row_changes(m, r))
			continue;
		unsigned vec = m->row[r].vector, span = 0;
		bool lead = r == 0 || m->row[r - 1].vector != vec;
		for (unsigned k = r - 1; !lead && k < r; k--) {    /* an earlier step shown? */
			if (!changes_only || row_changes(m, k))
				break;
			lead = k == 0 || m->row[k - 1].vector != vec;
		}
		for (unsigned k = r; lead && k < m->nrows && m->row[k].vector == vec; k++)
			span += !changes_only || row_changes(m, k);
		row_html(out, m, p, rules, r, span, !changes_only);
	}
	fprintf(out, "</tbody>\n</table>\n");
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
 * anchor the rows link to and its Markdown as HTML. */
static void rules_section(FILE *out, const np_matrix *m, const np_index *rules)
{
	char heading[300];
	fprintf(out, "<h2 id=\"rules\">Rules</h2>\n<p>The rules of SPEC.md the vectors above prove.</p>\n");
	for (unsigned i = 0; rules && i < rules->nrule; i++) {
		const np_spec_rule *r = &rules->rule[i];
		if (!cited(m, r->id))
			continue;
		rule_heading(r, heading, sizeof heading);
		fprintf(out, "<div class=\"rule\" id=\"rule-");
		esc(out, r->id);
		fprintf(out, "\"><h3>");
		esc(out, heading);
		fprintf(out, "</h3>\n");
		const char *body = r->text ? strchr(r->text, '\n') : NULL;
		if (body)
			np_markdown_html(out, body + 1);
		fprintf(out, "</div>\n");
	}
}

/* A line per family: its colour and name, then its statuses with their
 * numbers of cells. */
static void legend(FILE *out, const palette *p)
{
	fprintf(out, "<h2 id=\"legend\">Legend</h2>\n<ul class=\"legend\">\n");
	for (unsigned f = 0; f < NP_FAMILY_COUNT; f++) {
		const np_family_info *fam = np_family_of((np_family)f);
		unsigned shown = 0;
		for (unsigned k = 0; k < p->nkey; k++) {
			if (np_status_family(p->key[k]) != (np_family)f)
				continue;
			if (!shown++)
				fprintf(out, "<li><span class=\"sw %s\">%s</span>", fam->css, fam->name);
			fprintf(out, "%s", shown > 1 ? ", " : " ");
			esc(out, p->key[k]);
			fprintf(out, " (%u)", p->count[k]);
		}
		if (shown)
			fprintf(out, "</li>\n");
	}
	fprintf(out, "</ul>\n");
}

static void intro(FILE *out, const np_matrix *m, unsigned changed)
{
	unsigned versions = 0;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions += m->version[v];
	fprintf(out, "<h1>ntprof matrix</h1>\n<p>Backend ");
	esc(out, m->backend);
	fprintf(out, ", %u vectors, %u steps, %u versions, architectures", m->set->count, m->nrows, versions);
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		if (m->arch[a])
			fprintf(out, " %s", np_arch_name((np_arch)a));
	fprintf(out, ". A row per vector and step, a column per version. A cell is the step's outcome and the "
		     "values its vector names; where the architectures differ, a line per architecture. Versions "
		     "with the same cells share one cell; &#8800; and a bold left edge mark a change from the "
		     "previous version (the tooltip says from what). Blank: not evaluated there; n/a: not "
		     "applicable; n/e: not exported. A vector links to its line of its .vec file (relative to "
		     "build/reports/, where <code>make run</code> writes this page), its rules to their text at "
		     "the <a href=\"#rules\">bottom</a>.</p>\n");
	fprintf(out, "<nav><a href=\"#all\">all rows (%u)</a> &middot; <a href=\"#changes\">only the rows that "
		     "change between versions (%u)</a> &middot; <a href=\"#legend\">legend</a> &middot; "
		     "<a href=\"#rules\">rules</a></nav>\n", m->nrows, changed);
}

void np_matrix_print_html(FILE *out, const np_matrix *m, const np_index *rules)
{
	palette p;
	if (!palette_build(&p, m)) {
		palette_free(&p);
		return;
	}
	unsigned changed = 0;
	for (unsigned r = 0; r < m->nrows; r++)
		changed += row_changes(m, r);
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<title>ntprof matrix</title>\n<style>\n%s", style);
	for (unsigned f = 0; f < NP_FAMILY_COUNT; f++) {
		const np_family_info *fam = np_family_of((np_family)f);
		fprintf(out, ".%s{background:%s", fam->css, fam->background);
		if (fam->text)
			fprintf(out, ";color:%s", fam->text);
		fprintf(out, "}\n");
	}
	fprintf(out, "</style>\n</head>\n<body>\n");
	intro(out, m, changed);
	legend(out, &p);
	fprintf(out, "<section class=\"view\" id=\"changes\">\n<h2>Only the rows that change between versions"
		     "</h2>\n<p>%u of the %u rows: those with a cell marked &#8800;. &#8593; goes to the row among "
		     "<a href=\"#all\">all rows</a>.</p>\n", changed, m->nrows);
	table_html(out, m, &p, rules, true);
	fprintf(out, "</section>\n<section class=\"view\" id=\"all\">\n<h2>All rows</h2>\n");
	table_html(out, m, &p, rules, false);
	fprintf(out, "</section>\n");
	rules_section(out, m, rules);
	fprintf(out, "</body>\n</html>\n");
	palette_free(&p);
}
