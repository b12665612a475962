/* What `run` and the Windows exe's `live` share: the options both take,
 * reading the known-divergence list and the vectors before anything runs,
 * and writing the report and the --known-write list after. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static int check_format(void *format, const char *value, const cli_option *o)
{
	return np_format_parse(value, format) ? 0 : cli_usage(o->bad);
}

#define AT(field) offsetof(cli_run_settings, field)
const cli_option cli_run_shared_options[] = {
	{ "--target", NULL, "VERSION[/ARCH]", AT(targets), cli_check_target,
	  "--target needs VERSION[/ARCH]", "run on this version (and architecture); repeatable" },
	{ "--format", NULL, "text|tap|junit|json", AT(format), check_format,
	  "--format takes text, tap, junit or json", "the report's format" },
	{ "--backend", NULL, "model|dl:PATH.so", AT(backend), NULL,
	  "--backend needs a name", "what runs the vectors: the model or a shared object" },
	{ "--output", NULL, "FILE", AT(output), NULL,
	  "--output needs a file", "write the report to FILE (replaced whole) instead of stdout" },
	{ "--root", NULL, "DIR", AT(root), NULL,
	  "--root needs a directory", "the tree whose fixtures/ to run" },
	{ "--known", NULL, "FILE", AT(known), NULL,
	  "--known needs a known-divergence file", "the divergences expected, by vector and step" },
	{ "--known-write", NULL, "FILE", AT(known_write), NULL,
	  "--known-write needs a file", "write the divergences found as a known-divergence list" },
	{ "--verbose", "-v", NULL, AT(verbose), NULL,
	  NULL, "list the vectors that match too" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

int cli_run_load(const cli_run_settings *s, np_known *known, np_vector_set *set)
{
	if (s->output && s->known_write && strcmp(s->output, s->known_write) == 0)
		return cli_usage("--output and --known-write name the same file");
	/* Read before anything runs: a malformed file writes nothing. */
	np_error err;
	memset(known, 0, sizeof *known);
	if (s->known && !np_known_load(known, s->known, &err)) {
		fprintf(stderr, "%s\n", err.text);
		np_known_free(known);
		return EXIT_BAD_INPUT;
	}
	if (!cli_load_vectors(set, &s->paths, s->root)) {
		np_known_free(known);
		return EXIT_BAD_INPUT;
	}
	return 0;
}

/* The report and the --known-write list; 0, or EXIT_BAD_INPUT when
 * either cannot be written. */
static int write_reports(const cli_run_settings *s, const np_run *run)
{
	/* Both files open before either is written: a bad --known-write
	 * leaves no report behind, and the reverse. */
	cli_sink out, kw;
	bool out_open = cli_sink_open(&out, s->output);
	bool kw_open = out_open && (!s->known_write || cli_sink_open(&kw, s->known_write));
	if (!out_open || !kw_open) {
		if (out_open)
			cli_sink_abort(&out);
		return out_open ? cli_sink_error("--known-write", s->known_write, &kw)
				: cli_sink_error("--output", s->output, &out);
	}
	int status = 0;
	np_report(out.f, run, s->format, s->verbose);
	if (s->known_write)
		np_known_write(kw.f, run);
	if (!cli_sink_close(&out)) {
		status = cli_sink_error("--output", s->output, &out);
	}
	if (s->known_write && !cli_sink_close(&kw)) {
		status = cli_sink_error("--known-write", s->known_write, &kw);
	}
	return status;
}

int cli_run_report(const cli_run_settings *s, np_run *run, np_known *known)
{
	if (s->known)
		np_known_apply(known, run);
	int status = write_reports(s, run);
	if (status == 0) {
		for (unsigned c = 0; c < NP_CLASS_COUNT; c++)
			if (np_class_is_failure((np_class)c) && run->tally[c])
				status = EXIT_DIFFERENCE;
		if (s->known && np_known_failed(known))
			status = EXIT_DIFFERENCE;
	}
	return status;
}
