/* SPDX-License-Identifier: MIT */
/* The Markdown that SPEC.md is written in, as HTML for the self-contained
 * pages (the rule texts of ntprof matrix --format html). A subset, enough
 * for SPEC.md: paragraphs (source lines joined), fenced code, ordered and
 * unordered lists (indented lines continue an item), pipe tables with a
 * header row, and within them `code`, **bold**, *em*, [text](url) and bare
 * http(s) URLs; a backslash escapes the next punctuation character.
 * Everything else is text, escaped. Links go only to http(s) URLs and
 * relative paths; a link to an in-document anchor ("#knobs") names a
 * heading of SPEC.md, not of the page, and stays text. */
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
