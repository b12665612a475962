/* SPDX-License-Identifier: MIT */
/* The Markdown that SPEC.md is written in, as HTML for the self-contained
 * pages (the rule texts of ntprof matrix --format html, the titles of ntprof
 * trace's rules.html): CommonMark with pipe tables and bare http(s) URLs as
 * links, by cmark-gfm (markdown.c). Raw HTML is left out and links to
 * schemes other than http(s) lose their target. The Linux ntprof only: the
 * Windows exe has neither command. */
#ifndef NTPROF_MARKDOWN_H
#define NTPROF_MARKDOWN_H

#include <stddef.h>
#include <stdio.h>

/* Where the pages' links to the tree's files (fixtures, model, tests)
 * start: the pages are written to build/reports/ (make run, ntprof trace's
 * default), two levels below the root. Relative links keep working when the
 * tree is moved or copied and name no path of the machine that wrote them;
 * a page written elsewhere keeps its in-page links but not these. */
#define NP_PAGE_ROOT "../../"

/* A link to line (0: none) of file (relative to the root), the text
 * "file:line" or text when given: <a href="../../file#Lline">. A browser
 * opens the file; the fragment names the line for whoever reads the URL
 * (a plain-text view has no anchors to scroll to). */
void np_html_file_link(FILE *out, const char *file, int line, const char *text);

/* One span of text (no blocks) with its inline markup. */
void np_markdown_inline(FILE *out, const char *s, size_t n);

/* text as HTML blocks. */
void np_markdown_html(FILE *out, const char *text);

#endif
