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

/* s's first n bytes (up to a NUL) with & < > " as entities. */
void np_html_escape(FILE *out, const char *s, size_t n);

/* One span of text (no blocks) with its inline markup. */
void np_markdown_inline(FILE *out, const char *s, size_t n);

/* text as HTML blocks. */
void np_markdown_html(FILE *out, const char *text);

#endif
