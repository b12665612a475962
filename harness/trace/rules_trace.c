/* SPDX-License-Identifier: MIT */
/* The rule matrix (ntprof trace): for every SPEC.md rule, the model lines
 * that cite it, the vectors that list it and the test lines that cite it,
 * from the same index as `ntprof explain`, so that the matrix and the check
 * never disagree. */
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "matrix/markdown.h"
#include "ntprof/rules_trace.h"

char *np_trace_problems(const np_index *ix, unsigned *problems)
{
	/* tmpfile, not open_memstream: the Windows build has only the former. */
	FILE *f = tmpfile();
	if (!f)
		return NULL;
	*problems = np_index_check(f, ix);
	long size = ftell(f);
	char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
	if (text) {
		rewind(f);
		size_t got = fread(text, 1, (size_t)size, f);
		text[got] = '\0';
	}
	fclose(f);
	return text;
}

/* The heading's title: "### SI-1 — title" gives "title" (length in *len). */
static const char *rule_title(const np_spec_rule *r, size_t *len)
{
	const char *t = r->text ? r->text : "";
	const char *dash = strstr(t, "\xE2\x80\x94 ");   /* U+2014 EM DASH */
	const char *end = strchr(t, '\n');
	if (!end)
		end = t + strlen(t);
	if (!dash || dash > end)
		dash = t;
	else
		dash += 4;
	*len = (size_t)(end - dash);
	return dash;
}

/* A vector's file as the index holds it is under the root: show it relative. */
static const char *relative(const np_index *ix, const char *file)
{
	size_t n = strlen(ix->root);
	if (strncmp(file, ix->root, n) == 0 && file[n] == '/')
		return file + n + 1;
	return file;
}

typedef void (*emit_fn)(FILE *out, const char *s, size_t n);

static void emit_md(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] == '|')
			fputc('\\', out);
		fputc(s[i], out);
	}
}

static void emit_str(FILE *out, emit_fn emit, const char *s)
{
	emit(out, s, strlen(s));
}

/* "file:l1,l2; file2:l3": the citations of one rule, one group per file. */
static unsigned cites_cell(FILE *out, emit_fn emit, const char *sep, const np_cite *c,
			   unsigned n, const char *id)
{
	unsigned shown = 0;
	const char *last = NULL;
	char num[16];
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(c[i].id, id) != 0)
			continue;
		if (last && strcmp(last, c[i].file) == 0) {
			snprintf(num, sizeof num, ",%d", c[i].line);
		} else {
			if (last)
				fputs(sep, out);
			emit_str(out, emit, c[i].file);
			snprintf(num, sizeof num, ":%d", c[i].line);
			last = c[i].file;
		}
		emit_str(out, emit, num);
		shown++;
	}
	return shown;
}

static unsigned vectors_cell(FILE *out, emit_fn emit, const char *sep, const np_index *ix,
			     const char *id)
{
	unsigned shown = 0;
	char num[16];
	for (unsigned i = 0; i < ix->vectors.count; i++) {
		const np_vector *v = &ix->vectors.v[i];
		for (unsigned k = 0; k < v->nrule; k++) {
			if (strcmp(v->rule[k], id) != 0)
				continue;
			if (shown++)
				fputs(sep, out);
			emit_str(out, emit, v->id);
			emit_str(out, emit, " (");
			emit_str(out, emit, relative(ix, v->file));
			snprintf(num, sizeof num, ":%d)", v->line);
			emit_str(out, emit, num);
			break;
		}
	}
	return shown;
}

/* The HTML of cites_cell: "file:" and each line a link to it there
 * (relative to build/reports/, markdown.h), a file to a line. */
static void cites_html(FILE *out, const np_cite *c, unsigned n, const char *id)
{
	const char *last = NULL;
	char num[16];
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(c[i].id, id) != 0)
			continue;
		if (last && strcmp(last, c[i].file) == 0) {
			fputc(',', out);
		} else {
			if (last)
				fputs("<br>", out);
			np_html_escape(out, c[i].file, (size_t)-1);
			fputc(':', out);
			last = c[i].file;
		}
		snprintf(num, sizeof num, "%d", c[i].line);
		np_html_file_link(out, c[i].file, c[i].line, num);
	}
}

/* The HTML of vectors_cell: each vector's ID a link to its line of its
 * file, then "(file:line)"; a vector outside the root is not linked. */
static void vectors_html(FILE *out, const np_index *ix, const char *id)
{
	unsigned shown = 0;
	for (unsigned i = 0; i < ix->vectors.count; i++) {
		const np_vector *v = &ix->vectors.v[i];
		for (unsigned k = 0; k < v->nrule; k++) {
			if (strcmp(v->rule[k], id) != 0)
				continue;
			const char *file = relative(ix, v->file);
			if (shown++)
				fputs("<br>", out);
			if (file != v->file)
				np_html_file_link(out, file, v->line, v->id);
			else
				np_html_escape(out, v->id, (size_t)-1);
			fprintf(out, " (");
			np_html_escape(out, file, (size_t)-1);
			fprintf(out, ":%d)", v->line);
			break;
		}
	}
}

/* "ok", "retired", or what is missing ("no code, no test"). */
static const char *rule_status(const np_index *ix, const np_spec_rule *r, char *buf, size_t cap)
{
	if (r->retired)
		return "retired";
	np_evidence e = np_index_evidence(ix, r->id);
	if (e.code && e.vector && e.test)
		return "ok";
	snprintf(buf, cap, "%s%s%s", e.code ? "" : "no code; ", e.vector ? "" : "no vector; ",
		 e.test ? "" : "no test; ");
	buf[strlen(buf) - 2] = '\0';   /* the last "; " */
	return buf;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* Each line of the problems text, escaped, between before and after. */
static void each_problem(FILE *out, const char *problems, emit_fn emit, const char *before,
			 const char *after)
{
	for (const char *p = problems; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		fputs(before, out);
		emit(out, p, n);
		fputs(after, out);
		p += n + (nl != NULL);
	}
}

void np_trace_markdown(FILE *out, const np_index *ix, const char *problems)
{
	fprintf(out, "# Rule matrix\n\nEvery SPEC.md rule, the model code that implements it (file:line of "
		     "each citation), the vectors that prove it and the tests that cite it. Written by "
		     "`ntprof trace`; retired rules need no evidence and must not be cited.\n\n");
	fprintf(out, "Rules: %u. Problems: %u.\n\n", ix->nrule, count_lines(problems));
	if (problems && *problems) {
		fprintf(out, "## Problems\n\n");
		each_problem(out, problems, emit_md, "- ", "\n");
		fputc('\n', out);
	}
	fprintf(out, "## Rules\n\n| rule | title | status | code | vectors | tests |\n|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < ix->nrule; i++) {
		const np_spec_rule *r = &ix->rule[i];
		size_t tlen;
		const char *title = rule_title(r, &tlen);
		char buf[64];
		fprintf(out, "| %s (SPEC.md:%d) | ", r->id, r->line);
		emit_md(out, title, tlen);
		fprintf(out, " | %s | ", rule_status(ix, r, buf, sizeof buf));
		cites_cell(out, emit_md, "; ", ix->model, ix->nmodel, r->id);
		fputs(" | ", out);
		vectors_cell(out, emit_md, "; ", ix, r->id);
		fputs(" | ", out);
		cites_cell(out, emit_md, "; ", ix->tests, ix->ntests, r->id);
		fputs(" |\n", out);
	}
}

void np_trace_html(FILE *out, const np_index *ix, const char *problems)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>ntprof rule matrix</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:1em}\n"
	      "table{border-collapse:collapse}\n"
	      "th,td{border:1px solid #999;padding:2px 6px;vertical-align:top;font-size:90%}\n"
	      "th{background:#eee;position:sticky;top:0}\n"
	      "a{color:#1a4fa0;text-decoration:none}\na:hover{text-decoration:underline}\n"
	      "tr:target{background:#fff8c4}\n"
	      "td.files{font-family:monospace;font-size:80%}\n"
	      ".ok{background:#c8f0c8}.retired{background:#ddd;color:#555}.missing{background:#f6b8b8}\n"
	      ".problems li{font-family:monospace}\n"
	      "</style>\n</head>\n<body>\n<h1>Rule matrix</h1>\n", out);
	fprintf(out, "<p>Every SPEC.md rule, the model code that implements it (file:line of each "
		     "citation), the vectors that prove it and the tests that cite it. Written by "
		     "<code>ntprof trace</code>. Rules: %u. Problems: %u. Each file:line links to that "
		     "file, relative to build/reports/ where trace writes this page by default; a rule's "
		     "ID links to its row.</p>\n",
		ix->nrule, count_lines(problems));
	if (problems && *problems) {
		fputs("<h2>Problems</h2>\n<ul class=\"problems\">\n", out);
		each_problem(out, problems, np_html_escape, "<li>", "</li>\n");
		fputs("</ul>\n", out);
	}
	fputs("<table>\n<tr><th>rule</th><th>title</th><th>status</th><th>code</th><th>vectors</th>"
	      "<th>tests</th></tr>\n", out);
	for (unsigned i = 0; i < ix->nrule; i++) {
		const np_spec_rule *r = &ix->rule[i];
		size_t tlen;
		const char *title = rule_title(r, &tlen);
		char buf[64];
		const char *status = rule_status(ix, r, buf, sizeof buf);
		const char *cls = strcmp(status, "ok") == 0 || strcmp(status, "retired") == 0 ? status
											  : "missing";
		fprintf(out, "<tr id=\"%s\"><td><a href=\"#%s\">%s</a><br><small>", r->id, r->id, r->id);
		np_html_file_link(out, "SPEC.md", r->line, NULL);
		fputs("</small></td><td>", out);
		np_markdown_inline(out, title, tlen);
		fprintf(out, "</td><td class=\"%s\">", cls);
		emit_str(out, np_html_escape, status);
		fputs("</td><td class=\"files\">", out);
		cites_html(out, ix->model, ix->nmodel, r->id);
		fputs("</td><td class=\"files\">", out);
		vectors_html(out, ix, r->id);
		fputs("</td><td class=\"files\">", out);
		cites_html(out, ix->tests, ix->ntests, r->id);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n</body>\n</html>\n", out);
}
