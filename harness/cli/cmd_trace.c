/* SPDX-License-Identifier: MIT */
/* ntprof trace: the rule matrix (rules.md, rules.html) in the output
 * directory, the problems of `explain --check` on stdout; exit 1 when there
 * are any, 2 on bad input. The reports are written either way: they show
 * the problems too. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/rules_trace.h"

typedef struct trace_settings {
	const char *root, *dir;
} trace_settings;

#define AT(field) offsetof(trace_settings, field)
static const cli_option trace_options[] = {
	{ "--root", NULL, "DIR", AT(root), NULL,
	  "--root needs a directory", "the tree whose SPEC.md and fixtures/ to read" },
	{ "--output-dir", NULL, "DIR", AT(dir), NULL,
	  "--output-dir needs a directory", "where rules.md and rules.html go (default: build/reports)" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

static const cli_syntax trace_syntax = {
	.command = "trace",
	.options = trace_options,
	.unknown_usage = "trace: unknown argument",
};

static const char *const trace_usage[] = {
	"ntprof trace [--root DIR] [--output-dir DIR]",
	NULL,
};

/* mkdir -p: each missing directory of path, in turn. */
static bool make_dirs(const char *path)
{
	char buf[1024];
	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return false;
	for (char *p = buf + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (cli_make_dir(buf) != 0 && errno != EEXIST)
			return false;
		*p = c;
		if (c == '\0')
			return true;
	}
}

/* One report through a sink; false with why (the OS reason) when it
 * cannot be written. */
static bool write_one(const char *path, const np_index *ix, const char *problems, bool html, char *why,
		      size_t cap)
{
	cli_sink s;
	bool ok = cli_sink_open(&s, path);
	if (ok) {
		if (html)
			np_trace_html(s.f, ix, problems);
		else
			np_trace_markdown(s.f, ix, problems);
		ok = cli_sink_close(&s);
	}
	if (!ok)
		snprintf(why, cap, "%s", s.why);
	return ok;
}

/* rules.md, then rules.html; NULL, or the path of the one that could not
 * be written (why says why). */
static const char *write_matrix(const char *dir, const np_index *ix, const char *problems,
				char *md, char *html, size_t cap, char *why, size_t why_cap)
{
	snprintf(md, cap, "%.1000s/rules.md", dir);
	snprintf(html, cap, "%.1000s/rules.html", dir);
	if (!write_one(md, ix, problems, false, why, why_cap))
		return md;
	return write_one(html, ix, problems, true, why, why_cap) ? NULL : html;
}

static int trace_main(int argc, char **argv)
{
	trace_settings s = { NULL, "build/reports" };
	int status = cli_parse(&trace_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	np_index ix;
	if (!cli_load_index(s.root, &ix))
		return EXIT_BAD_INPUT;
	if (!make_dirs(s.dir)) {
		fprintf(stderr, "ntprof: --output-dir %s: cannot create it: %s\n", s.dir, strerror(errno));
		np_index_free(&ix);
		return EXIT_BAD_INPUT;
	}
	unsigned problems = 0;
	char *text = np_trace_problems(&ix, &problems);
	if (!text) {
		fprintf(stderr, "ntprof: trace: out of memory\n");
		np_index_free(&ix);
		return EXIT_BAD_INPUT;
	}
	char md[1100], html[1100], why[200];
	const char *failed = write_matrix(s.dir, &ix, text, md, html, sizeof md, why, sizeof why);
	fputs(text, stdout);
	printf("rules: %u, problems: %u\n", ix.nrule, problems);
	free(text);
	np_index_free(&ix);
	if (failed) {
		fprintf(stderr, "ntprof: trace: cannot write %s: %s\n", failed, why);
		return EXIT_BAD_INPUT;
	}
	return problems ? EXIT_DIFFERENCE : 0;
}

const cli_command cli_trace = {
	.name = "trace",
	.main = trace_main,
	.summary = "the rule matrix (rules.md, rules.html) and the rules that lack evidence",
	.usage = trace_usage,
	.syntax = &trace_syntax,
};
