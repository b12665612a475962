/* The option values that name where things run, and in what state:
 * --target VERSION[/ARCH], --targets LIST, --arch LIST, --given KEY=VALUE. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cli_check_target(void *targets, const char *value, const cli_option *o)
{
	const char *e = np_targets_add(targets, value);
	if (e) {
		fprintf(stderr, "ntprof: %s %s: %s\n", o->name, value, e);
		return EXIT_BAD_INPUT;
	}
	return 0;
}

/* Adds "VERSION[/ARCH],..." to a target list; NULL or why not. */
static const char *add_targets(np_target_list *l, const char *list)
{
	char buf[512];
	if (strlen(list) >= sizeof buf)
		return "list too long";
	strcpy(buf, list);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *e = np_targets_add(l, t);
		if (e)
			return e;
	}
	return NULL;
}

int cli_check_target_list(void *targets, const char *value, const cli_option *o)
{
	const char *e = add_targets(targets, value);
	if (e) {
		fprintf(stderr, "ntprof: %s %s: %s\n", o->name, value, e);
		return EXIT_BAD_INPUT;
	}
	return 0;
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
		fprintf(stderr, "ntprof: --given %s: %s\n", value, e);
		return EXIT_BAD_INPUT;
	}
	g->count++;
	return 0;
}
