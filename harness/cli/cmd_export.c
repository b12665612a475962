/* SPDX-License-Identifier: MIT */
/* ntprof export: the vectors (the fixtures, or the files named) as one C
 * test source in the style of Wine's conformance tests (harness/export/).
 * Exit 0 with the file written; 2 on bad input or when no vector can be
 * exported, with nothing written. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "export/export.h"
#include "ntprof/rules_index.h"
#include "vectors/catalog.h"

#ifndef NTPROF_VERSION
#define NTPROF_VERSION "unknown"
#endif

typedef struct export_settings {
	const char *format, *output, *root, *name;
	bool hal_dependent, upstream;
	np_ver since;
	bool since_given;
	const char *function[NP_EXPORT_MAX_FUNCTIONS];
	unsigned nfunction;
	const char *known[NP_EXPORT_MAX_KNOWN];
	unsigned nknown;
	const char *known_ros[NP_EXPORT_MAX_KNOWN];
	unsigned nknown_ros;
	cli_paths paths;
} export_settings;

static int check_format(void *field, const char *value, const cli_option *o)
{
	if (strcmp(value, "wine") != 0)
		return cli_usage(o->bad);
	*(const char **)field = value;
	return 0;
}

static int check_function(void *field, const char *value, const cli_option *o)
{
	export_settings *s = (export_settings *)((char *)field - offsetof(export_settings, function));
	const np_function *f = np_function_find(value);
	(void)o;
	if (!f || f->kind == NP_KIND_MODEL) {   /* a step only the model takes is no call */
		fprintf(stderr, "ntprof: export: --function %s: no such call (fixtures/README.md lists "
			"them, e.g. NtSetIntervalProfile)\n", value);
		return EXIT_BAD_INPUT;
	}
	if (s->nfunction == NP_EXPORT_MAX_FUNCTIONS)
		return cli_usage("export: too many --function");
	s->function[s->nfunction++] = value;
	return 0;
}

static int check_known(void *field, const char *value, const cli_option *o)
{
	export_settings *s = (export_settings *)((char *)field - offsetof(export_settings, known));
	(void)o;
	if (s->nknown == NP_EXPORT_MAX_KNOWN)
		return cli_usage("export: too many --known (at most 8)");
	s->known[s->nknown++] = value;
	return 0;
}

static int check_known_ros(void *field, const char *value, const cli_option *o)
{
	export_settings *s = (export_settings *)((char *)field - offsetof(export_settings, known_ros));
	(void)o;
	if (s->nknown_ros == NP_EXPORT_MAX_KNOWN)
		return cli_usage("export: too many --known-ros (at most 8)");
	s->known_ros[s->nknown_ros++] = value;
	return 0;
}

static int check_since(void *field, const char *value, const cli_option *o)
{
	export_settings *s = (export_settings *)((char *)field - offsetof(export_settings, since));
	(void)o;
	if (!np_version_parse(value, &s->since)) {
		fprintf(stderr, "ntprof: export: --since %s: unknown version (see `ntprof versions`)\n", value);
		return EXIT_BAD_INPUT;
	}
	s->since_given = true;
	return 0;
}

/* START_TEST's NAME: a C identifier, the file's name in a Wine tree. */
static int check_name(void *field, const char *value, const cli_option *o)
{
	bool ok = value[0] && !(value[0] >= '0' && value[0] <= '9') && strlen(value) < 64;
	for (const char *p = value; *p && ok; p++)
		ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
	if (!ok)
		return cli_usage(o->bad);
	*(const char **)field = value;
	return 0;
}

#define AT(field) offsetof(export_settings, field)
static const cli_option export_options[] = {
	{ "--format", NULL, "wine", AT(format), check_format,
	  "export: --format takes wine", "the test style: Wine's conformance tests (also ReactOS's apitests)" },
	{ "--function", NULL, "NAME", AT(function), check_function,
	  "export: --function needs a call's name", "only the vectors that call it; repeatable" },
	{ "--known", NULL, "FILE", AT(known), check_known,
	  "export: --known needs a file", "a known-divergence list of Wine: its divergences as todo_wine; repeatable" },
	{ "--known-ros", NULL, "FILE", AT(known_ros), check_known_ros,
	  "export: --known-ros needs a file", "a known-divergence list of ReactOS: its divergences as todo_ros; repeatable" },
	{ "--since", NULL, "VERSION", AT(since), check_since,
	  "export: --since needs a version", "the oldest Windows whose results are broken() (default win7, the oldest Wine tests on)" },
	{ "--hal-dependent", NULL, NULL, AT(hal_dependent), NULL,
	  NULL, "keep the vectors whose outcome depends on the HAL's sources (machine-dependent)" },
	{ "--upstream", NULL, NULL, AT(upstream), NULL,
	  NULL, "only the few vectors that cover each function's main rules and statuses" },
	{ "--name", NULL, "NAME", AT(name), check_name,
	  "export: --name needs a C identifier", "START_TEST's name (default profile)" },
	{ "--output", "-o", "FILE", AT(output), NULL,
	  "export: --output needs a file", "write the C source there (default: standard output)" },
	{ "--root", NULL, "DIR", AT(root), NULL,
	  "export: --root needs a directory", "the tree whose fixtures/ to read" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

static int export_operand(void *settings, char *arg)
{
	return cli_paths_add("export", &((export_settings *)settings)->paths, arg);
}

static const cli_syntax export_syntax = {
	.command = "export",
	.options = export_options,
	.operand = export_operand,
};

static const char *const export_usage[] = {
	"ntprof export [--format wine] [--function NAME]... [--known FILE]... [--known-ros FILE]...",
	"              [--since VERSION] [--upstream]",
	"              [--hal-dependent] [--name NAME] [--output FILE] [--root DIR] [FILE|DIR]...",
	NULL,
};

/* Reads the known lists and the Windows each is for; on Wine the test
 * checks the results of the newest of those. 0, or EXIT_BAD_INPUT after
 * saying why. */
static int load_known(const export_settings *s, np_known *known, np_export_options *o)
{
	o->wine_as = (np_ver)(NP_VERSION_COUNT - 1);
	for (unsigned i = 0; i < s->nknown; i++) {
		np_error err;
		char why[NP_TEXT_MAX * 2];
		np_ver v;
		bool read = np_export_known_for(s->known[i], &v, why, sizeof why);
		if (read && v < o->since)
			snprintf(why, sizeof why, "%s: its expectations are for %s, older than --since %s", s->known[i],
				 np_version_key(v), np_version_key(o->since));
		if (!read || v < o->since || !np_known_load(&known[i], s->known[i], &err)) {
			if (!read || v < o->since)
				fprintf(stderr, "ntprof: export: %s\n", why);
			else
				fprintf(stderr, "%s\n", err.text);
			for (unsigned k = 0; k <= i; k++)
				np_known_free(&known[k]);
			return EXIT_BAD_INPUT;
		}
		o->wine_as = i == 0 || v > o->wine_as ? v : o->wine_as;
		o->known_for[o->nknown] = v;
		o->known[o->nknown++] = &known[i];
	}
	return 0;
}

/* Reads ReactOS's lists (any Windows: ReactOS's broken() is true, so every
 * result from --since on passes there). 0, or EXIT_BAD_INPUT. */
static int load_known_ros(const export_settings *s, np_known *known, np_export_options *o)
{
	for (unsigned i = 0; i < s->nknown_ros; i++) {
		np_error err;
		if (!np_known_load(&known[i], s->known_ros[i], &err)) {
			fprintf(stderr, "%s\n", err.text);
			return EXIT_BAD_INPUT;
		}
		o->known_ros[o->nknown_ros++] = &known[i];
	}
	return 0;
}

static int write_export(const export_settings *s, const np_vector_set *set, const np_export_options *o)
{
	cli_sink sink;
	np_export_text counts = { 0 };
	char err[200];
	if (!cli_sink_open(&sink, s->output))
		return cli_sink_error("--output", s->output, &sink);
	if (!np_export_wine(sink.f, set, o, &counts, err, sizeof err)) {
		cli_sink_abort(&sink);
		fprintf(stderr, "ntprof: export: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	if (!cli_sink_close(&sink))
		return cli_sink_error("--output", s->output, &sink);
	fprintf(stderr, "ntprof: export: %u ok(), %u broken(), %u todo_wine", counts.ok, counts.broken, counts.todo);
	if (o->nknown_ros)
		fprintf(stderr, ", %u todo_ros", counts.todo_ros);
	fprintf(stderr, "\n");
	return 0;
}

/* --upstream: the selection (export_select.c), from the Order of checks of
 * the tree's SPEC.md. 0, or EXIT_BAD_INPUT after saying why. */
static int choose_upstream(const export_settings *s, const np_vector_set *set, np_export_options *o)
{
	char spec[600], why[NP_TEXT_MAX * 4];
	unsigned npairs = 0;
	const char *root = np_find_root(s->root);
	if (!root) {
		fprintf(stderr, "ntprof: export: --upstream: cannot find SPEC.md (use --root DIR)\n");
		return EXIT_BAD_INPUT;
	}
	snprintf(spec, sizeof spec, "%s/SPEC.md", root);
	if (!np_export_upstream(set, o, spec, &npairs, why, sizeof why)) {
		fprintf(stderr, "ntprof: export: %s\n", why);
		return EXIT_BAD_INPUT;
	}
	fprintf(stderr, "ntprof: export: --upstream: %u vectors cover the %u pairs of a function and a main "
		"rule (SPEC.md's Order of checks) or a status on the newest Windows that the vectors test\n",
		o->nonly, npairs);
	return 0;
}

static int export_main(int argc, char **argv)
{
	static export_settings s;
	static np_known known[NP_EXPORT_MAX_KNOWN], known_ros[NP_EXPORT_MAX_KNOWN];
	memset(&s, 0, sizeof s);
	int status = cli_parse(&export_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	np_export_options o = { .since = s.since_given ? s.since : NP_V6_1,   /* Windows 7: the oldest Wine still tests on */
				.hal_dependent = s.hal_dependent,
				.test_name = s.name ? s.name : "profile",
				.version = NTPROF_VERSION };
	memcpy(o.function, s.function, sizeof o.function);
	o.nfunction = s.nfunction;
	if ((status = load_known(&s, known, &o)))
		return status;
	np_vector_set set = { 0 };
	status = load_known_ros(&s, known_ros, &o);
	if (!status && !cli_load_vectors(&set, &s.paths, s.root))
		status = EXIT_BAD_INPUT;
	else if (!status && s.upstream)
		status = choose_upstream(&s, &set, &o);
	if (!status)
		status = write_export(&s, &set, &o);
	free((void *)o.only);
	np_vectors_free(&set);   /* a set that failed to load is empty */
	for (unsigned k = 0; k < o.nknown; k++)
		np_known_free(&known[k]);
	for (unsigned k = 0; k < s.nknown_ros; k++)
		np_known_free(&known_ros[k]);
	return status;
}

const cli_command cli_export = {
	.name = "export",
	.main = export_main,
	.summary = "the vectors as a C test source in the style of Wine's conformance tests",
	.usage = export_usage,
	.syntax = &export_syntax,
};
