/* SPDX-License-Identifier: MIT */
/* The Markdown of the pages' rule texts (harness/matrix/markdown.c, by
 * cmark-gfm): the constructs SPEC.md uses, with the two extensions it needs
 * (pipe tables, bare URLs as links) attached; what must stay text (the near
 * misses, markup left open); what must not reach the page (raw HTML, a link
 * to another scheme); a paragraph's lines joined by a space; and SPEC.md
 * itself rendered with its tables and lists. */
#include "np_test.h"

#include "matrix/markdown.h"

#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif

static char *render(const char *md, bool inline_only)
{
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);
	assert_non_null(mem);
	if (inline_only)
		np_markdown_inline(mem, md, strlen(md));
	else
		np_markdown_html(mem, md);
	assert_int_equal(fclose(mem), 0);
	return out;
}

static void is(const char *md, const char *want)
{
	char *got = render(md, true);
	if (strcmp(got, want) != 0) {
		char msg[2000];
		snprintf(msg, sizeof msg, "\"%s\" gave \"%s\", want \"%s\"", md, got, want);
		free(got);
		fail_msg("%s", msg);
	}
	free(got);
}

static void block(const char *md, const char *want)
{
	char *got = render(md, false);
	if (strcmp(got, want) != 0) {
		char msg[3000];
		snprintf(msg, sizeof msg, "\"%s\" gave\n%s\nwant\n%s", md, got, want);
		free(got);
		fail_msg("%s", msg);
	}
	free(got);
}

static void test_spans(void **state)
{
	(void)state;
	is("a `b<c>` d", "a <code>b&lt;c&gt;</code> d");
	is("``a ` b``", "<code>a ` b</code>");
	is("**bold** and *em*", "<strong>bold</strong> and <em>em</em>");
	is("**a *b* c**", "<strong>a <em>b</em> c</strong>");
	is("see [Knobs](knobs.md) now", "see <a href=\"knobs.md\">Knobs</a> now");
	is("[t](https://x.org/a?b=1&c=2)", "<a href=\"https://x.org/a?b=1&amp;c=2\">t</a>");
	is("Source: https://www.example.com/a.htm , next",
	   "Source: <a href=\"https://www.example.com/a.htm\">https://www.example.com/a.htm</a> , next");
	is("(http://e.org/x).", "(<a href=\"http://e.org/x\">http://e.org/x</a>).");
	is("a \\*b\\* \\| c", "a *b* | c");
	is("a < b & \"c\"", "a &lt; b &amp; &quot;c&quot;");
}

/* The fail twins of the spans: markup that opens nothing stays text, and
 * neither raw HTML nor a link to a script or a local file reaches the page. */
static void test_near_misses_stay_text(void **state)
{
	(void)state;
	is("Buffer=0*15,1,1", "Buffer=0*15,1,1");
	is("a * b * c", "a * b * c");
	is("`open", "`open");
	is("**open", "**open");
	is("[no url]", "[no url]");
	is("a <script>x</script>", "a <!-- raw HTML omitted -->x<!-- raw HTML omitted -->");
	is("[x](javascript:alert(1))", "<a href=\"\">x</a>");
	is("[x](file:///etc/passwd)", "<a href=\"\">x</a>");
	is("xhttp://e.org", "xhttp://e.org");
	is("http:/e.org", "http:/e.org");
}

static void test_blocks(void **state)
{
	(void)state;
	block("one\ntwo `x`\n\nthree\n", "<p>one two <code>x</code></p>\n<p>three</p>\n");
	block("- a\n  b\n- *c*\n- d\n\ntext\n",
	      "<ul>\n<li>a b</li>\n<li><em>c</em></li>\n<li>d</li>\n</ul>\n<p>text</p>\n");
	block("1. x\n2. y\nz\n", "<ol>\n<li>x</li>\n<li>y z</li>\n</ol>\n");
	block("| A | B |\n|---|---|\n| 1 | x \\| y |\n|2|\n",
	      "<table>\n<thead>\n<tr>\n<th>A</th>\n<th>B</th>\n</tr>\n</thead>\n<tbody>\n"
	      "<tr>\n<td>1</td>\n<td>x | y</td>\n</tr>\n<tr>\n<td>2</td>\n<td></td>\n</tr>\n</tbody>\n</table>\n");
	block("```c\nint *p = <x>;\n```\nafter\n",
	      "<pre><code class=\"language-c\">int *p = &lt;x&gt;;\n</code></pre>\n<p>after</p>\n");
	/* a pipe line without a separator below is no table */
	block("| a | b |\nnext\n", "<p>| a | b | next</p>\n");
	block("```\nunclosed\n", "<pre><code>unclosed\n</code></pre>\n");
	block("", "");
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* SPEC.md whole: its tables and lists become elements, every element
 * opened is closed, and no Markdown table syntax is left as text. */
static void test_spec_md(void **state)
{
	(void)state;
	FILE *f = fopen(NTPROF_SOURCE_ROOT "/SPEC.md", "r");
	assert_non_null(f);
	static char text[1 << 20];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	char *html = render(text, false);
	static const char *const tags[] = { "table", "tr", "td", "th", "ul", "ol", "li", "p", "code", "pre",
					    "strong", "em", "a", "h3" };
	for (unsigned k = 0; k < sizeof tags / sizeof *tags; k++) {
		char open[16], open_attr[16], close[16];
		snprintf(open, sizeof open, "<%s>", tags[k]);
		snprintf(open_attr, sizeof open_attr, "<%s ", tags[k]);
		snprintf(close, sizeof close, "</%s>", tags[k]);
		unsigned opened = count(html, open) + count(html, open_attr);
		if (opened != count(html, close) || opened == 0)
			fail_msg("<%s>: %u opened, %u closed", tags[k], opened, count(html, close));
	}
	assert_null(strstr(html, "|---|"));
	assert_null(strstr(html, "<p>| "));
	assert_non_null(strstr(html, "<td>11-24H2</td>\n<td>Windows 11 24H2</td>"));
	assert_non_null(strstr(html, "<a href=\"https://www.geoffchappell.com/studies/windows/km/versions.htm\">"));
	free(html);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_spans),
	cmocka_unit_test(test_near_misses_stay_text),
	cmocka_unit_test(test_blocks),
	cmocka_unit_test(test_spec_md),
};

NP_TEST_MAIN(tests)
