/* SPDX-License-Identifier: MIT */
/* A Markdown subset as HTML (markdown.h): SPEC.md's rule texts in the
 * self-contained pages. Blocks are read a line at a time; a block's text is
 * joined into one buffer first, so that a span may cross a source line. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "matrix/markdown.h"

/* ---- spans ---- */

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A `code` span at s (s[0] is a backtick): its length, 0 when unclosed. */
static size_t code_span(FILE *out, const char *s, size_t n)
{
	size_t run = 0;
	while (run < n && s[run] == '`')
		run++;
	for (size_t i = run; i < n;) {
		size_t k = 0;
		while (i + k < n && s[i + k] == '`')
			k++;
		if (k == run) {
			size_t a = run, b = i;
			if (b - a >= 2 && s[a] == ' ' && s[b - 1] == ' ')
				a++, b--;
			fputs("<code>", out);
			np_html_escape(out, s + a, b - a);
			fputs("</code>", out);
			return i + k;
		}
		i += k ? k : 1;
	}
	return 0;
}

/* **strong** or *em* at s (s[0] is '*', prev the character before it):
 * its length, 0 when it does not open one. */
static size_t emphasis(FILE *out, const char *s, size_t n, char prev)
{
	size_t mark = n > 1 && s[1] == '*' ? 2 : 1;
	if (word_char(prev) || mark >= n || isspace((unsigned char)s[mark]))
		return 0;
	for (size_t j = mark + 1; j + mark <= n; j++) {
		if (s[j] != '*' || isspace((unsigned char)s[j - 1]))
			continue;
		if (mark == 1 && ((j + 1 < n && s[j + 1] == '*') || s[j - 1] == '*'))
			continue;
		if (mark == 2 && s[j + 1] != '*')
			continue;
		if (j + mark < n && word_char(s[j + mark]))
			continue;
		const char *tag = mark == 2 ? "strong" : "em";
		fprintf(out, "<%s>", tag);
		np_markdown_inline(out, s + mark, j - mark);
		fprintf(out, "</%s>", tag);
		return j + mark;
	}
	return 0;
}

/* A link may go to an http(s) URL or a relative path; not to another
 * scheme (javascript:, file:), nor to an anchor the page may lack. */
static bool allowed_url(const char *u, size_t n)
{
	if ((n > 7 && strncmp(u, "http://", 7) == 0) || (n > 8 && strncmp(u, "https://", 8) == 0))
		return true;
	if (n == 0 || u[0] == '#' || u[0] == '/')
		return false;
	size_t colon = strcspn(u, ":/?#");
	return colon >= n || u[colon] != ':';
}

static void anchor(FILE *out, const char *url, size_t nurl, const char *text, size_t ntext, bool markup)
{
	fputs("<a href=\"", out);
	np_html_escape(out, url, nurl);
	fputs("\">", out);
	if (markup)
		np_markdown_inline(out, text, ntext);
	else
		np_html_escape(out, text, ntext);
	fputs("</a>", out);
}

/* [text](url) at s: its length, 0 when s opens none. */
static size_t link(FILE *out, const char *s, size_t n)
{
	const char *close = memchr(s, ']', n);
	if (!close || (size_t)(close - s) + 1 >= n || close[1] != '(')
		return 0;
	const char *url = close + 2, *end = memchr(url, ')', n - (size_t)(url - s));
	if (!end || memchr(url, ' ', (size_t)(end - url)))
		return 0;
	if (allowed_url(url, (size_t)(end - url)))
		anchor(out, url, (size_t)(end - url), s + 1, (size_t)(close - s) - 1, true);
	else
		np_markdown_inline(out, s + 1, (size_t)(close - s) - 1);
	return (size_t)(end - s) + 1;
}

/* A bare http(s) URL at s: its length less the punctuation that ends a
 * sentence after it, 0 when s starts none. */
static size_t bare_url(FILE *out, const char *s, size_t n, char prev)
{
	if (word_char(prev) || !((n > 8 && strncmp(s, "https://", 8) == 0) || (n > 7 && strncmp(s, "http://", 7) == 0)))
		return 0;
	size_t k = 0;
	while (k < n && !isspace((unsigned char)s[k]) && !strchr("<>\"`", s[k]))
		k++;
	while (k && strchr(".,;:!?)", s[k - 1]))
		k--;
	anchor(out, s, k, s, k, false);
	return k;
}

void np_markdown_inline(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i];) {
		char prev = i ? s[i - 1] : ' ';
		size_t used = 0;
		if (s[i] == '\\' && i + 1 < n && ispunct((unsigned char)s[i + 1])) {
			np_html_escape(out, s + i + 1, 1);
			used = 2;
		} else if (s[i] == '`') {
			used = code_span(out, s + i, n - i);
		} else if (s[i] == '*') {
			used = emphasis(out, s + i, n - i, prev);
		} else if (s[i] == '[') {
			used = link(out, s + i, n - i);
		} else if (s[i] == 'h') {
			used = bare_url(out, s + i, n - i, prev);
		}
		if (!used) {
			/* a run of markup characters that opened nothing is text,
			 * not the start of a shorter mark ("**" is not "*" "*") */
			used = 1;
			while (s[i] != '\\' && i + used < n && s[i + used] == s[i] && strchr("`*", s[i]))
				used++;
			np_html_escape(out, s + i, used);
		}
		i += used;
	}
}

/* ---- lines ---- */

typedef struct md_line {
	const char *s;
	size_t n;
} md_line;

typedef struct md_doc {
	md_line *line;
	size_t nline;
} md_doc;

static bool split_lines(md_doc *d, const char *text)
{
	size_t cap = 1;
	for (const char *p = text; *p; p++)
		cap += *p == '\n';
	d->line = calloc(cap, sizeof *d->line);
	d->nline = 0;
	if (!d->line)
		return false;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		d->line[d->nline++] = (md_line){ p, n && p[n - 1] == '\r' ? n - 1 : n };
		p += n + (p[n] == '\n');
	}
	return true;
}

static size_t indent(md_line l)
{
	size_t i = 0;
	while (i < l.n && l.s[i] == ' ')
		i++;
	return i;
}

static bool blank(md_line l)
{
	return indent(l) == l.n;
}

static bool fence(md_line l)
{
	size_t i = indent(l);
	return i < 4 && l.n - i >= 3 && strncmp(l.s + i, "```", 3) == 0;
}

/* Where a heading's text starts, or 0; *level its level. */
static size_t heading(md_line l, unsigned *level)
{
	size_t i = 0;
	while (i < l.n && i < 7 && l.s[i] == '#')
		i++;
	*level = (unsigned)i;
	return i >= 1 && i <= 6 && i < l.n && l.s[i] == ' ' ? i + 1 : 0;
}

/* Where a list item's text starts, or 0; *ordered its kind. */
static size_t item(md_line l, bool *ordered)
{
	size_t i = indent(l), d = i;
	while (d < l.n && isdigit((unsigned char)l.s[d]))
		d++;
	if (d > i && d + 1 < l.n && l.s[d] == '.' && l.s[d + 1] == ' ')
		return *ordered = true, d + 2;
	if (i + 1 < l.n && strchr("-*+", l.s[i]) && l.s[i + 1] == ' ')
		return *ordered = false, i + 2;
	return 0;
}

static bool table_separator(md_line l)
{
	bool dash = false;
	for (size_t i = 0; i < l.n; i++) {
		if (!strchr("|-: ", l.s[i]))
			return false;
		dash |= l.s[i] == '-';
	}
	return dash && l.s[indent(l)] == '|';
}

static bool table_start(const md_doc *d, size_t k)
{
	md_line l = d->line[k];
	return l.s[indent(l)] == '|' && k + 1 < d->nline && table_separator(d->line[k + 1]);
}

/* Whether line k starts a block other than a paragraph. */
static bool block_start(const md_doc *d, size_t k)
{
	unsigned level;
	bool ordered;
	md_line l = d->line[k];
	return fence(l) || heading(l, &level) || item(l, &ordered) || table_start(d, k);
}

/* ---- blocks ---- */

/* Lines first..last-1, each from its offset skip[k - first] (or from its
 * indentation) and trimmed, joined by spaces and rendered as one span. */
static void joined(FILE *out, const md_doc *d, size_t first, size_t last, size_t skip0)
{
	size_t cap = 1;
	for (size_t k = first; k < last; k++)
		cap += d->line[k].n + 1;
	char *buf = malloc(cap);
	if (!buf)
		return;
	size_t used = 0;
	for (size_t k = first; k < last; k++) {
		md_line l = d->line[k];
		size_t a = k == first && skip0 ? skip0 : indent(l), b = l.n;
		while (b > a && l.s[b - 1] == ' ')
			b--;
		if (used)
			buf[used++] = ' ';
		memcpy(buf + used, l.s + a, b - a);
		used += b - a;
	}
	np_markdown_inline(out, buf, used);
	free(buf);
}

static size_t code_block(FILE *out, const md_doc *d, size_t k)
{
	fputs("<pre><code>", out);
	size_t j = k + 1;
	for (; j < d->nline && !fence(d->line[j]); j++) {
		np_html_escape(out, d->line[j].s, d->line[j].n);
		fputc('\n', out);
	}
	fputs("</code></pre>\n", out);
	return j < d->nline ? j + 1 : j;
}

/* One table row's cells, split at the pipes outside `code` and not escaped. */
static void table_row(FILE *out, md_line l, const char *tag)
{
	size_t i = indent(l) + 1, n = l.n;
	while (n > i && l.s[n - 1] == ' ')
		n--;
	if (n > i && l.s[n - 1] == '|' && l.s[n - 2] != '\\')
		n--;
	fputs("<tr>", out);
	while (i <= n) {
		size_t j = i;
		bool code = false;
		for (; j < n && (code || l.s[j] != '|'); j++) {
			if (l.s[j] == '\\' && j + 1 < n)
				j++;
			else if (l.s[j] == '`')
				code = !code;
		}
		size_t a = i, b = j;
		while (a < b && l.s[a] == ' ')
			a++;
		while (b > a && l.s[b - 1] == ' ')
			b--;
		fprintf(out, "<%s>", tag);
		np_markdown_inline(out, l.s + a, b - a);
		fprintf(out, "</%s>", tag);
		i = j + 1;
	}
	fputs("</tr>\n", out);
}

static size_t table(FILE *out, const md_doc *d, size_t k)
{
	fputs("<table>\n<thead>", out);
	table_row(out, d->line[k], "th");
	fputs("</thead>\n<tbody>\n", out);
	size_t j = k + 2;
	for (; j < d->nline && !blank(d->line[j]) && d->line[j].s[indent(d->line[j])] == '|'; j++)
		table_row(out, d->line[j], "td");
	fputs("</tbody>\n</table>\n", out);
	return j;
}

/* A list: items of one kind; an indented or lazy line continues an item,
 * a blank line ends the list unless an item of the same kind follows. */
static size_t list(FILE *out, const md_doc *d, size_t k)
{
	bool ordered, kind;
	item(d->line[k], &ordered);
	fputs(ordered ? "<ol>\n" : "<ul>\n", out);
	size_t j = k;
	while (j < d->nline) {
		size_t start = item(d->line[j], &kind);
		if (!start || kind != ordered)
			break;
		size_t end = j + 1;
		while (end < d->nline && !blank(d->line[end]) && !block_start(d, end))
			end++;
		fputs("<li>", out);
		joined(out, d, j, end, start);
		fputs("</li>\n", out);
		j = end;
		size_t next = j;
		while (next < d->nline && blank(d->line[next]))
			next++;
		if (next < d->nline && item(d->line[next], &kind) && kind == ordered)
			j = next;
	}
	fputs(ordered ? "</ol>\n" : "</ul>\n", out);
	return j;
}

void np_markdown_html(FILE *out, const char *text)
{
	md_doc d;
	if (!text || !split_lines(&d, text))
		return;
	bool ordered;
	unsigned level;
	for (size_t k = 0; k < d.nline;) {
		size_t start;
		if (blank(d.line[k])) {
			k++;
		} else if (fence(d.line[k])) {
			k = code_block(out, &d, k);
		} else if ((start = heading(d.line[k], &level))) {
			level = level < 4 ? 4 : level;
			fprintf(out, "<h%u>", level);
			np_markdown_inline(out, d.line[k].s + start, d.line[k].n - start);
			fprintf(out, "</h%u>\n", level);
			k++;
		} else if (table_start(&d, k)) {
			k = table(out, &d, k);
		} else if (item(d.line[k], &ordered)) {
			k = list(out, &d, k);
		} else {
			size_t end = k + 1;
			while (end < d.nline && !blank(d.line[end]) && !block_start(&d, end))
				end++;
			fputs("<p>", out);
			joined(out, &d, k, end, 0);
			fputs("</p>\n", out);
			k = end;
		}
	}
	free(d.line);
}

/* A path in a URL: what is not a letter, digit or one of "-._~/" as %XX. */
static void url_path(FILE *out, const char *s)
{
	for (; *s; s++)
		if (isalnum((unsigned char)*s) || strchr("-._~/", *s))
			fputc(*s, out);
		else
			fprintf(out, "%%%02X", (unsigned char)*s);
}

void np_html_file_link(FILE *out, const char *file, int line, const char *text)
{
	fputs("<a href=\"" NP_PAGE_ROOT, out);
	url_path(out, file);
	if (line > 0)
		fprintf(out, "#L%d", line);
	fputs("\">", out);
	if (text) {
		np_html_escape(out, text, (size_t)-1);
	} else {
		np_html_escape(out, file, (size_t)-1);
		if (line > 0)
			fprintf(out, ":%d", line);
	}
	fputs("</a>", out);
}
