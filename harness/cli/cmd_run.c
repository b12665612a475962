/* SPDX-License-Identifier: MIT */
/* ntprof run: the vectors against a backend (the model or a `dl:` shared
 * object), each step judged by what the vector expects, or with --reference
 * or --given by the model mirroring the target in that state. Exit 0 when
 * every step matched (or diverged as --known lists), 1 on a difference or
 * when the model matched only an accept line (it drifted from its vectors:
 * np_run_drift), or when a dl: object was exercised nowhere, 2 on bad input
 * (a --target the object does not emulate among it). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/coverage.h"
#include "common/common.h"
#include "run/zygote.h"

typedef struct run_settings {
	cli_run_settings run;   /* first: where cli_run_shared_options set their fields */
	bool reference;         /* --reference model */
	cli_given given;
	unsigned step_timeout_ms;  /* --step-timeout; 0: NTPROF_STEP_TIMEOUT or the default */
	bool allow_not_applicable;
} run_settings;

_Static_assert(offsetof(run_settings, run) == 0, "the shared options' fields come first");

static int check_reference(void *reference, const char *value, const cli_option *o)
{
	if (strcmp(value, "model") != 0)
		return cli_usage(o->bad);
	*(bool *)reference = true;
	return 0;
}

static int check_step_timeout(void *ms, const char *value, const cli_option *o)
{
	if (!np_seconds_parse(value, CLI_STEP_TIMEOUT_MAX_MS, ms))
		return cli_usage(o->bad);
	return 0;
}

#define AT(field) offsetof(run_settings, field)
static const cli_option run_options[] = {
	{ "--reference", NULL, "model", AT(reference), check_reference,
	  "--reference takes model", "judge each step by the model mirroring the target" },
	{ "--given", NULL, "KEY=VALUE", AT(given), cli_check_given,
	  "--given needs KEY=VALUE", "the state the mirroring model is in; repeatable" },
	{ "--step-timeout", NULL, "SECONDS", AT(step_timeout_ms), check_step_timeout,
	  "--step-timeout " CLI_STEP_TIMEOUT_TAKES,
	  "dl: end a step still running after SECONDS (NTPROF_STEP_TIMEOUT, else 60)" },
	{ "--allow-not-applicable", NULL, NULL, AT(allow_not_applicable), NULL,
	  NULL, "dl: not-applicable where a result is expected does not fail" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

static int run_operand(void *settings, char *arg)
{
	return cli_paths_add("run", &((run_settings *)settings)->run.paths, arg);
}

static const cli_syntax run_syntax = {
	.command = "run",
	.options = run_options,
	.shared = cli_run_shared_options,
	.operand = run_operand,
};

static const char *const run_usage[] = {
	"ntprof run [--backend model|dl:PATH.so] [--target VERSION[/ARCH]]... [--format " NP_FORMAT_NAMES "]",
	"           [--output FILE] [--verbose] [--root DIR]",
	"           [--reference model [--given KEY=VALUE]...]",
	"           [--step-timeout SECONDS] [--allow-not-applicable]",
	"           [--known FILE] [--known-write FILE] [FILE|DIR]...",
	NULL,
};

/* The run itself, then what the report shows beside it: the given state
 * as its environment, and the model's outcome beside each difference of
 * another backend. False only when memory runs out. */
static bool run_backend(np_backend *b, np_backend *reference, const run_settings *s,
			const np_vector_set *set, np_run *run)
{
	bool mirrored = s->reference || s->given.count > 0;
	bool ran = mirrored ? reference && np_run_mirrored(b, reference, set, s->run.targets.t[0],
							     s->given.pair, s->given.count, run)
			    : np_run_vectors(b, set, &s->run.targets, run);
	if (!ran)
		return false;
	for (unsigned i = 0; i < s->given.count; i++)
		np_run_env(run, s->given.pair[i].name, s->given.pair[i].value);
	if (!mirrored && strcmp(s->run.backend, "model") != 0) {
		np_backend *model = np_backend_model_new();
		if (model) {
			np_run_beside(run, model);
			model->destroy(model);
		}
	}
	return true;
}

/* The targets of a run on b. Without --target, those b emulates (every
 * one when it does not say); with --target, those given, and a target b
 * does not emulate is refused: it would only report what b never claimed.
 * 0, or EXIT_BAD_INPUT after saying why. */
static int emulated_targets(const np_backend *b, const char *backend, np_target_list *targets)
{
	bool given = targets->count > 0;
	if (!b->emulates) {
		if (!given)
			np_targets_all(targets);
		return 0;
	}
	np_target_list emulated = { .count = 0 };
	char item[512];
	const char *e = cli_targets_parse(&emulated, b->emulates, item, sizeof item);
	if (e) {
		fprintf(stderr, "ntprof: --backend %s: its emulates \"%s\" is no target list: %s%s%s\n",
			backend, b->emulates, item, item[0] ? ": " : "", e);
		return EXIT_BAD_INPUT;
	}
	if (!given) {
		*targets = emulated;
		return 0;
	}
	for (unsigned i = 0; i < targets->count; i++) {
		bool in = false;
		for (unsigned k = 0; k < emulated.count && !in; k++)
			in = emulated.t[k].version == targets->t[i].version &&
			     emulated.t[k].arch == targets->t[i].arch;
		if (!in) {
			fprintf(stderr, "ntprof: --target %s/%s: --backend %s emulates only %s\n",
				np_version_key(targets->t[i].version), np_arch_name(targets->t[i].arch), backend,
				b->emulates);
			return EXIT_BAD_INPUT;
		}
	}
	return 0;
}

/* How a dl: object is run: each vector in a child process, a step ended
 * after --step-timeout, else NTPROF_STEP_TIMEOUT, else 60 seconds. False
 * when NTPROF_STEP_TIMEOUT is malformed (said). */
static bool judge_dl(np_backend *b, const run_settings *s)
{
	b->allow_not_applicable = s->allow_not_applicable;
	b->step_timeout_ms = s->step_timeout_ms;
	return s->step_timeout_ms || cli_step_timeout_env(&b->step_timeout_ms);
}

/* An implementation whose every answer was not-applicable passed nothing:
 * the report's coverage line says so; this makes the run fail. */
static int nothing_exercised(const np_run *run, int status)
{
	np_coverage c;
	if (!run->under_test)
		return status;
	np_coverage_count(run, &c);
	if (c.exercised > 0)
		return status;
	fprintf(stderr, "ntprof: nothing was exercised: no step of %s got a result other than "
		"not-applicable\n", run->backend);
	return status ? status : EXIT_DIFFERENCE;
}

/* The fork server (if any), then the backends (either may be NULL). */
static void close_backends(np_backend *b, np_backend *reference)
{
	np_zygote_stop();
	if (reference)
		reference->destroy(reference);
	if (b)
		b->destroy(b);
}

static int run_main(int argc, char **argv)
{
	static run_settings s;
	memset(&s, 0, sizeof s);
	s.run.backend = "model";
	s.run.format = NP_FORMAT_DEFAULT;
	int status = cli_parse(&run_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	if ((s.reference || s.given.count > 0) && s.run.targets.count != 1)
		return cli_usage("--reference and --given need exactly one --target VERSION/ARCH");
	if ((s.step_timeout_ms || s.allow_not_applicable) && strncmp(s.run.backend, "dl:", 3) != 0)
		return cli_usage("--step-timeout and --allow-not-applicable are for --backend dl:PATH");
	/* The backend is opened, and the fork server of a dl: object's children
	 * forked, before the vectors are read, while this process is small; a
	 * bad vector is still said before a backend that cannot be opened. */
	char why[400];
	np_backend *b = cli_open_backend(s.run.backend, why, sizeof why);
	if (b && strncmp(s.run.backend, "dl:", 3) == 0 && !judge_dl(b, &s)) {
		close_backends(b, NULL);
		return EXIT_BAD_INPUT;
	}
	np_backend *reference = b && (s.reference || s.given.count > 0) ? np_backend_model_new() : NULL;
	if (b && b->step_timeout_ms)
		np_zygote_start(b, reference);
	np_known known;
	np_vector_set set;
	if ((status = cli_run_load(&s.run, &known, &set))) {
		close_backends(b, reference);
		return status;
	}
	np_run run;
	if (!b) {
		fprintf(stderr, "ntprof: --backend %s: %s\n", s.run.backend, why);
		status = EXIT_BAD_INPUT;
	} else if ((status = emulated_targets(b, s.run.backend, &s.run.targets))) {
		/* said */
	} else if (!run_backend(b, reference, &s, &set, &run)) {
		fprintf(stderr, "ntprof: out of memory\n");
		status = EXIT_BAD_INPUT;
	} else {
		status = nothing_exercised(&run, cli_run_report(&s.run, &run, &known));
		np_run_free(&run);
	}
	close_backends(b, reference);
	np_vectors_free(&set);
	np_known_free(&known);
	return status;
}

static const char *const run_notes[] = {
	"The report's formats (--format):",
	NP_FORMAT_NOTES
	NULL,
};

const cli_command cli_run = {
	.name = "run",
	.main = run_main,
	.summary = "run vectors against a backend and report how each step went",
	.usage = run_usage,
	.syntax = &run_syntax,
	.notes = run_notes,
};
