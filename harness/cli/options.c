/* SPDX-License-Identifier: MIT */
/* The option parser: a command's arguments read against the table of its
 * options (cli.h: cli_option, cli_syntax). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/names.h"

static const cli_option *find_in(const cli_option *table, const char *arg)
{
	for (const cli_option *o = table; o && o->name; o++)
		if (strcmp(arg, o->name) == 0 || (o->alias && strcmp(arg, o->alias) == 0))
			return o;
	return NULL;
}

/* The option arg names, from the command's own table first. */
static const cli_option *find_option(const cli_syntax *s, const char *arg)
{
	const cli_option *o = find_in(s->options, arg);
	return o ? o : find_in(s->shared, arg);
}

static int take(const cli_option *o, void *settings, const char *value)
{
	void *field = (char *)settings + o->field;
	if (o->check)
		return o->check(field, value, o);
	if (o->value)
		*(const char **)field = value;
	else
		*(bool *)field = true;
	return 0;
}

static void offer_all(np_nearest *n, const cli_option *table)
{
	for (const cli_option *o = table; o && o->name; o++)
		np_nearest_offer(n, o->name);
}

static int unknown(const cli_syntax *s, const char *arg, bool option_like)
{
	np_nearest n;
	np_nearest_start(&n, arg);
	offer_all(&n, s->options);
	offer_all(&n, s->shared);
	const char *near = option_like ? np_nearest_found(&n) : NULL;
	if (s->unknown_usage && !near)
		return cli_usage(s->unknown_usage);
	fprintf(stderr, "ntprof: %s: unknown %s %s%s%s%s\n", s->command, option_like ? "option" : "argument",
		arg, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
	return cli_usage(NULL);
}

int cli_no_operands(const char *command, int argc, char **argv)
{
	if (argc == 0)
		return 0;
	fprintf(stderr, "ntprof: %s: takes no arguments (got %s)\n", command, argv[0]);
	return cli_usage(NULL);
}

int cli_parse(const cli_syntax *s, int argc, char **argv, void *settings, int *end)
{
	const char *prefix = s->option_prefix ? s->option_prefix : "-";
	for (int i = 0; i < argc; i++) {
		char *arg = argv[i];
		const cli_option *o = find_option(s, arg);
		int status;
		if (o) {
			const char *value = NULL;
			if (o->value) {
				if (i + 1 >= argc)
					return cli_usage(o->bad);
				value = argv[++i];
			}
			status = take(o, settings, value);
		} else if (strncmp(arg, prefix, strlen(prefix)) == 0) {
			status = unknown(s, arg, true);
		} else if (s->operands_last) {
			*end = i;
			return 0;
		} else if (s->operand) {
			status = s->operand(settings, arg);
		} else {
			status = unknown(s, arg, false);
		}
		if (status)
			return status;
	}
	if (end)
		*end = argc;
	return 0;
}
