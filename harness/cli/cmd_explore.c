/* SPDX-License-Identifier: MIT */
/* ntprof explore: argument combinations from the boundaries SPEC.md names,
 * on the model for every target (or against another backend), reported as
 * ready-to-paste vectors. Exit 0 when nothing was found, 1 when the report
 * holds a class (a version difference, or a divergence of the --against
 * backend), 2 on bad input. The report goes through the sink; the figures
 * to stderr. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/explore.h"
#include "ntprof/known.h"
#include "run/zygote.h"
#include "vectors/catalog.h"

typedef struct explore_settings {
	np_explore_options o;
	const char *output, *against, *known;
} explore_settings;

/* --function F[,F...]: each a function the explorer can explore. */
static int check_function(void *options, const char *value, const cli_option *o)
{
	np_explore_options *x = options;
	char buf[512];
	if (strlen(value) >= sizeof buf)
		return cli_usage(o->bad);
	strcpy(buf, value);
	if (strspn(buf, ",") == strlen(buf)) {   /* "" or ",,,": no function, not all of them */
		fprintf(stderr, "ntprof: --function '%s': names no function\n", value);
		return EXIT_BAD_INPUT;
	}
	for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		const char *e = np_explore_check_function(f);
		if (e) {
			fprintf(stderr, "ntprof: --function %s: %s\n", f, e);
			return EXIT_BAD_INPUT;
		}
		if (x->nfunction == NP_EXPLORE_MAX_FUNCTIONS)
			return cli_usage("too many --function");
		/* the catalog's own spelling outlives argv's copy */
		x->function[x->nfunction++] = np_function_find(f)->name;
	}
	return 0;
}

static int check_budget(void *budget, const char *value, const cli_option *o)
{
	uint64_t n;
	if (!np_number_parse(value, &n) || n == 0 || n > 100000000u)
		return cli_usage(o->bad);
	*(unsigned long *)budget = (unsigned long)n;
	return 0;
}

static int check_seconds(void *seconds, const char *value, const cli_option *o)
{
	uint64_t n;
	if (!np_number_parse(value, &n) || n == 0 || n > 86400u)
		return cli_usage(o->bad);
	*(double *)seconds = (double)n;
	return 0;
}

static int check_seed(void *seed, const char *value, const cli_option *o)
{
	return np_number_parse(value, seed) ? 0 : cli_usage(o->bad);
}

#define AT(field) offsetof(explore_settings, field)
static const cli_option explore_options[] = {
	{ "--function", NULL, "F", AT(o), check_function,
	  "--function needs a function name (e.g. NtCreateProfile)", "explore this function only; repeatable" },
	{ "--target", NULL, "VERSION[/ARCH]", AT(o.targets), cli_check_target_list,
	  "--targets needs VERSION[/ARCH][,...]", "run combinations on this target; repeatable" },
	{ "--targets", NULL, "LIST", AT(o.targets), cli_check_target_list,
	  "--targets needs VERSION[/ARCH][,...]", "run combinations on these targets (comma-separated)" },
	{ "--against", NULL, "model|dl:PATH.so", AT(against), NULL,
	  "--against needs a backend (model or dl:PATH.so)", "report where this backend diverges from the model" },
	{ "--budget", NULL, "N", AT(o.budget), check_budget,
	  "--budget takes a number of combinations from 1 to 100000000", "combinations per function" },
	{ "--seconds", NULL, "S", AT(o.seconds), check_seconds,
	  "--seconds takes a whole number of seconds from 1 to 86400", "stop starting combinations after S seconds" },
	{ "--seed", NULL, "N", AT(o.seed), check_seed,
	  "--seed takes a number (decimal or 0x hex, up to 64 bits)", "the order of the sweep and its random part" },
	{ "--known", NULL, "FILE", AT(known), NULL,
	  "--known needs a known-divergence file", "with --against: divergences it lists are counted, not reported" },
	{ "--no-sequences", NULL, NULL, AT(o.no_sequences), NULL,
	  NULL, "single calls only, no sequences (set then query, create then start, ...)" },
	{ "--output", NULL, "FILE", AT(output), NULL,
	  "--output needs a file", "write the report to FILE (replaced whole) instead of stdout" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

static const cli_syntax explore_syntax = {
	.command = "explore",
	.options = explore_options,
};

static const char *const explore_usage[] = {
	"ntprof explore [--function F]... [--target VERSION[/ARCH]]... [--targets LIST]",
	"               [--against model|dl:PATH.so] [--budget N | --seconds S] [--seed N]",
	"               [--known FILE] [--no-sequences] [--output FILE]",
	NULL,
};

/* The report through the sink, the figures to stderr; the exit status. */
static int write_report(const explore_settings *s, np_backend *model)
{
	cli_sink out;
	np_explore_stats st;
	if (!cli_sink_open(&out, s->output)) {
		return cli_sink_error("--output", s->output, &out);
	}
	if (!np_explore(out.f, model, &s->o, &st)) {
		fprintf(stderr, "ntprof: out of memory\n");
		cli_sink_abort(&out);
		return EXIT_BAD_INPUT;
	}
	if (!cli_sink_close(&out)) {
		return cli_sink_error("--output", s->output, &out);
	}
	char known[160] = "";
	if (s->known)
		snprintf(known, sizeof known, "; %lu known", st.known);
	if (st.accepted || st.not_asked)
		snprintf(known + strlen(known), sizeof known - strlen(known), "; %lu accepted, %lu not asked",
			 st.accepted, st.not_asked);
	fprintf(stderr, "ntprof explore: %lu combinations, %lu evaluations, %.2f s (%.0f combinations/s)%s%s\n",
		st.combinations, st.evaluations, st.seconds,
		st.seconds > 0 ? (double)st.combinations / st.seconds : 0.0, known,
		st.stopped_by_time ? "; stopped by --seconds" : "");
	return st.classes ? EXIT_DIFFERENCE : 0;
}

/* Only a step with an `accept` line accepts a divergence (explore_classes.c). */
static bool has_accept_line(const np_vector *v)
{
	for (unsigned s = 0; s < v->nstep; s++)
		for (unsigned e = 0; e < v->step[s].nexpect; e++)
			if (v->step[s].expect[e].alternative)
				return true;
	return false;
}

/* The fixtures' accept lines: the few vectors that have one; the rest is
 * freed and given back. */
static np_vector_set *load_accepts(np_vector_set *accepts)
{
	cli_paths none = { .count = 0 };
	if (!cli_load_vectors(accepts, &none, NULL))
		return NULL;
	np_vectors_keep(accepts, has_accept_line);
	cli_release_memory();
	return accepts;
}

static int explore_main(int argc, char **argv)
{
	static explore_settings s;
	memset(&s, 0, sizeof s);
	s.o.seed = 1;
	int status = cli_parse(&explore_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	if (s.o.budget > 0 && s.o.seconds > 0)
		return cli_usage("--budget and --seconds exclude each other");
	if (s.known && !s.against)
		return cli_usage("--known needs --against: only a backend diverges");
	np_known known;
	np_error err;
	memset(&known, 0, sizeof known);
	if (s.known && !np_known_load(&known, s.known, &err)) {
		fprintf(stderr, "%s\n", err.text);
		np_known_free(&known);
		return EXIT_BAD_INPUT;
	}
	s.o.known = s.known ? &known : NULL;
	s.o.known_name = s.known;
	char why[400];
	np_backend *model = np_backend_model_new(), *judged = NULL;
	if (!model) {
		fprintf(stderr, "ntprof: out of memory\n");
		np_known_free(&known);
		return EXIT_BAD_INPUT;
	}
	if (s.against && !(judged = cli_open_backend(s.against, why, sizeof why))) {
		fprintf(stderr, "ntprof: --against %s: %s\n", s.against, why);
		model->destroy(model);
		np_known_free(&known);
		return EXIT_BAD_INPUT;
	}
	/* An implementation under test runs each combination in a child process
	 * ended after a step outlasts NTPROF_STEP_TIMEOUT (as `run` without
	 * --step-timeout). */
	if (judged && judged->under_test && !cli_step_timeout_env(&judged->step_timeout_ms)) {
		judged->destroy(judged);
		model->destroy(model);
		np_known_free(&known);
		return EXIT_BAD_INPUT;
	}
	s.o.against = judged;
	s.o.against_name = s.against;
	static np_vector_set accepts;   /* the fixtures' accept lines judge a divergence as run does */
	if (judged && judged->step_timeout_ms)   /* its children forked from a process this small */
		np_zygote_start(judged, NULL);
	s.o.accepts = judged ? load_accepts(&accepts) : NULL;
	status = write_report(&s, model);
	np_zygote_stop();
	if (s.o.accepts)
		np_vectors_free(&accepts);
	if (judged)
		judged->destroy(judged);
	model->destroy(model);
	np_known_free(&known);
	return status;
}

const cli_command cli_explore = {
	.name = "explore",
	.main = explore_main,
	.summary = "explore boundary combinations for version differences or divergences",
	.usage = explore_usage,
	.syntax = &explore_syntax,
};
