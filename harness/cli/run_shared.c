/* SPDX-License-Identifier: MIT */
/* What `run` and the Windows exe's `live` share: the options both take,
 * reading the known-divergence list and the vectors before anything runs,
 * and writing the report and the --known-write list after. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report_json.h"

static int check_format(void *format, const char *value, const cli_option *o)
{
	return np_format_parse(value, format) ? 0 : cli_usage(o->bad);
}

#define AT(field) offsetof(cli_run_settings, field)
const cli_option cli_run_shared_options[] = {
	{ "--target", NULL, "VERSION[/ARCH]", AT(targets), cli_check_target,
	  "--target needs VERSION[/ARCH]", "run on this version (and architecture); repeatable" },
	{ "--format", NULL, NP_FORMAT_NAMES, AT(format), check_format,
	  "--format takes " NP_FORMAT_NAMES, "the report's format (below)" },
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
	  NULL, "text: a line per target, matches too (else a heading per cause)" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

/* The vectors a run reads without FILE|DIR arguments (the fixtures compiled
 * in, or the tree's fixtures/), quietly; false when they cannot be had. */
static bool load_full_set(np_vector_set *all, const char *root)
{
	np_error err;
	bool ok = false;
	memset(all, 0, sizeof *all);
	if (root || !cli_builtin_fixtures(all, &err, &ok)) {
		const char *r = np_find_root(root);
		char fixtures[600];
		if (!r)
			return false;
		snprintf(fixtures, sizeof fixtures, "%.580s/fixtures", r);
		ok = np_vectors_load(all, fixtures, &err);
	}
	if (!ok)
		np_vectors_free(all);
	return ok;
}

/* Every entry of the known-divergence list must name a vector that exists,
 * else it is never run and never fails. A list written for every vector may
 * be used with some of the files, so with FILE|DIR arguments an entry may
 * name a vector of those files or of the full set (load_full_set); where
 * the full set cannot be had, only the vectors loaded count. 0, or
 * EXIT_BAD_INPUT after naming the entry's file:line. */
static int check_known(const cli_run_settings *s, const np_known *known, const np_vector_set *set)
{
	np_vector_set all;
	const np_vector_set *const sets[2] = { set, &all };
	bool with_all = s->paths.count > 0 && load_full_set(&all, s->root);
	np_error err;
	bool ok = np_known_check(known, sets, with_all ? 2 : 1,
				 with_all ? "the files named or in fixtures/" : "the vectors loaded", &err);
	if (with_all)
		np_vectors_free(&all);
	if (ok)
		return 0;
	fprintf(stderr, "%s\n", err.text);
	return EXIT_BAD_INPUT;
}

int cli_run_load(const cli_run_settings *s, np_known *known, np_vector_set *set)
{
	if (s->output && s->known_write && strcmp(s->output, s->known_write) == 0)
		return cli_usage("--output and --known-write name the same file");
	char stamp[64], why[160];
	if (s->format == NP_FORMAT_JSON && !np_report_timestamp(stamp, sizeof stamp, why, sizeof why)) {
		fprintf(stderr, "ntprof: %s\n", why);   /* before anything runs: a live run is not lost */
		return EXIT_BAD_INPUT;
	}
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
	/* where no fork server could be made (run/zygote.h), an implementation
	 * under test runs each vector in a fork of this process: shared and
	 * read-only, the vectors are not copied into it */
	if (np_vectors_seal(set))
		cli_release_memory();
	int status = s->known ? check_known(s, known, set) : 0;
	if (status) {
		np_vectors_free(set);
		np_known_free(known);
	}
	return status;
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
	np_known_written kw_done = { 0, 0, true };
	if (s->known_write)
		kw_done = np_known_write(kw.f, run);
	if (!kw_done.ok) {
		fprintf(stderr, "ntprof: out of memory\n");
		cli_sink_abort(&out);
		cli_sink_abort(&kw);
		return EXIT_BAD_INPUT;
	}
	if (!cli_sink_close(&out)) {
		status = cli_sink_error("--output", s->output, &out);
	}
	if (s->known_write && !cli_sink_close(&kw)) {
		status = cli_sink_error("--known-write", s->known_write, &kw);
	} else if (s->known_write) {
		/* what the file holds: its entries stand for this many rows */
		fprintf(stderr, "ntprof: --known-write: %u %s covering %u %s -> %s\n", kw_done.entries,
			kw_done.entries == 1 ? "entry" : "entries", kw_done.divergences,
			kw_done.divergences == 1 ? "divergence" : "divergences", s->known_write);
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
	unsigned drift = np_run_drift(run);
	if (drift) {
		fprintf(stderr, "ntprof: %u row(s) of the model matched an accept line, not the expectation: "
			"the model drifted from its vectors (accept lines are for live systems; on the "
			"reference every step must match its expect line)\n", drift);
		if (status == 0)
			status = EXIT_DIFFERENCE;
	}
	return status;
}
