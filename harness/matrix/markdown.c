/* SPDX-License-Identifier: MIT */
/* SPEC.md's Markdown as HTML (markdown.h), by cmark-gfm, GitHub's CommonMark
 * library, with the two extensions SPEC.md is written for: pipe tables and
 * bare http(s) URLs as links. Raw HTML and links to other schemes are left
 * out (cmark's safe default), so a rule text cannot inject markup. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm/registry.h>

#include "common/common.h"
#include "matrix/markdown.h"

/* text[0..n) as HTML; NULL on out-of-memory. */
static char *render(const char *text, size_t n)
{
	static const char *const extensions[] = { "table", "autolink" };
	static int registered;
	if (!registered) {
		/* The extensions live in cmark's global registry until the process
		 * ends; releasing it then leaves memcheck nothing to report. */
		cmark_gfm_core_extensions_ensure_registered();
		atexit(cmark_release_plugins);
		registered = 1;
	}
	cmark_parser *p = cmark_parser_new(CMARK_OPT_NOBREAKS);
	if (!p)
		return NULL;
	for (size_t i = 0; i < sizeof extensions / sizeof *extensions; i++)
		cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension(extensions[i]));
	cmark_parser_feed(p, text, n);
	cmark_node *doc = cmark_parser_finish(p);
	char *html = doc ? cmark_render_html(doc, CMARK_OPT_NOBREAKS, cmark_parser_get_syntax_extensions(p)) : NULL;
	if (doc)
		cmark_node_free(doc);
	cmark_parser_free(p);
	return html;
}

void np_markdown_html(FILE *out, const char *text)
{
	char *html = render(text, strlen(text));
	if (html)
		fputs(html, out);
	free(html);
}

/* One paragraph's inner HTML, without the <p> and </p> around it. */
void np_markdown_inline(FILE *out, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *html = render(s, len);
	if (!html)
		return;
	size_t h = strlen(html);
	if (h >= 8 && strncmp(html, "<p>", 3) == 0 && strcmp(html + h - 5, "</p>\n") == 0)
		fwrite(html + 3, 1, h - 8, out);
	else
		fputs(html, out);
	free(html);
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
