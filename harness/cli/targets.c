/* SPDX-License-Identifier: MIT */
/* The option values that name where things run, and in what state:
 * --target VERSION[/ARCH], --targets LIST, --arch LIST, --given KEY=VALUE. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/version.h"
#include "vectors/hints.h"

/* Adds one VERSION[/ARCH] to l, leaving out the targets l already holds:
 * --target 6.1 --target 6.1 runs 6.1 once. NULL or why not. */
static const char *add_target(np_target_list *l, const char *text)
{
	np_target_list more = { .count = 0 };
	const char *e = np_targets_add(&more, text);
	for (unsigned i = 0; !e && i < more.count; i++) {
		bool held = false;
		for (unsigned k = 0; k < l->count && !held; k++)
			held = l->t[k].version == more.t[i].version && l->t[k].arch == more.t[i].arch;
		if (held)
			continue;
		if (l->count == sizeof l->t / sizeof *l->t)
			return "too many targets";
		l->t[l->count++] = more.t[i];
	}
	return e;
}

/* Says why VALUE of option NAME was refused, with the version nearest the
 * one given when that was the trouble. */
static int refused(const char *name, const char *value, const char *item, const char *e)
{
	char version[NP_NAME_MAX];
	snprintf(version, sizeof version, "%.*s", (int)strcspn(item, "/"), item);
	const char *near = strncmp(e, "unknown version", 15) == 0 ? np_version_nearest(version) : NULL;
	fprintf(stderr, "ntprof: %s %s: %s%s%s%s\n", name, value, e, near ? " (did you mean " : "",
		near ? near : "", near ? "?)" : "");
	return EXIT_BAD_INPUT;
}

int cli_check_target(void *targets, const char *value, const cli_option *o)
{
	const char *e = add_target(targets, value);
	return e ? refused(o->name, value, value, e) : 0;
}

const char *cli_targets_parse(np_target_list *targets, const char *list, char *item, size_t cap)
{
	char buf[512];
	snprintf(item, cap, "%s", "");
	if (strlen(list) >= sizeof buf)
		return "list too long";
	strcpy(buf, list);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *e = add_target(targets, t);
		if (e)
			return snprintf(item, cap, "%s", t), e;
	}
	return NULL;
}

int cli_check_target_list(void *targets, const char *value, const cli_option *o)
{
	char item[512];
	const char *e = cli_targets_parse(targets, value, item, sizeof item);
	return e ? refused(o->name, value, item, e) : 0;
}

int cli_check_arches(void *arches, const char *value, const cli_option *o)
{
	cli_arches *chosen = arches;
	char word[16];
	(void)o;
	for (const char *p = value;;) {
		size_t n = strcspn(p, ",");
		np_arch a;
		if (n == 0 || n >= sizeof word) {
			fprintf(stderr, "ntprof: --arch %s: expected x86, x64 or wow64, comma-separated\n", value);
			return EXIT_BAD_INPUT;
		}
		memcpy(word, p, n);
		word[n] = '\0';
		if (!np_arch_parse(word, &a)) {
			fprintf(stderr, "ntprof: --arch %s: unknown architecture %s (x86, x64 or wow64)\n", value,
				word);
			return EXIT_BAD_INPUT;
		}
		chosen->chosen[a] = true;
		if (!p[n])
			break;
		p += n + 1;
	}
	chosen->any = true;
	return 0;
}

int cli_check_given(void *given, const char *value, const cli_option *o)
{
	cli_given *g = given;
	(void)o;
	if (g->count == NP_MAX_GIVEN)
		return cli_usage("too many --given");
	const char *e = np_parse_given_pair(value, &g->pair[g->count]);
	if (e) {
		char why[200];
		fprintf(stderr, "ntprof: --given %s: %s\n", value, np_given_explain(value, e, why, sizeof why));
		return EXIT_BAD_INPUT;
	}
	g->count++;
	return 0;
}
