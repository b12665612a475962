/* SPDX-License-Identifier: MIT */
/* ntprof run: the vectors against a backend (the model or a `dl:` shared
 * object), each step judged by what the vector expects, or with --reference
 * or --given by the model mirroring the target in that state. Exit 0 when
 * every step matched (or diverged as --known lists), 1 on a difference or
 * when the model matched only an accept line (it drifted from its vectors:
 * np_run_drift), 2 on bad input. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef struct run_settings {
	cli_run_settings run;   /* first: where cli_run_shared_options set their fields */
	bool reference;         /* --reference model */
	cli_given given;
} run_settings;

_Static_assert(offsetof(run_settings, run) == 0, "the shared options' fields come first");

static int check_reference(void *reference, const char *value, const cli_option *o)
{
	if (strcmp(value, "model") != 0)
		return cli_usage(o->bad);
	*(bool *)reference = true;
	return 0;
}

#define AT(field) offsetof(run_settings, field)
static const cli_option run_options[] = {
	{ "--reference", NULL, "model", AT(reference), check_reference,
	  "--reference takes model", "judge each step by the model mirroring the target" },
	{ "--given", NULL, "KEY=VALUE", AT(given), cli_check_given,
	  "--given needs KEY=VALUE", "the state the mirroring model is in; repeatable" },
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
	"ntprof run [--backend model|dl:PATH.so] [--target VERSION[/ARCH]]... [--format text|tap|junit|json]",
	"           [--output FILE] [--verbose] [--root DIR]",
	"           [--reference model [--given KEY=VALUE]...]",
	"           [--known FILE] [--known-write FILE] [FILE|DIR]...",
	NULL,
};

/* The run itself, then what the report shows beside it: the given state
 * as its environment, and the model's outcome beside each difference of
 * another backend. False only when memory runs out. */
static bool run_backend(np_backend *b, const run_settings *s, const np_vector_set *set, np_run *run)
{
	bool mirrored = s->reference || s->given.count > 0;
	np_backend *reference = mirrored ? np_backend_model_new() : NULL;
	bool ran = mirrored ? reference && np_run_mirrored(b, reference, set, s->run.targets.t[0],
							     s->given.pair, s->given.count, run)
			    : np_run_vectors(b, set, &s->run.targets, run);
	if (reference)
		reference->destroy(reference);
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

static int run_main(int argc, char **argv)
{
	static run_settings s;
	memset(&s, 0, sizeof s);
	s.run.backend = "model";
	s.run.format = NP_FORMAT_TEXT;
	int status = cli_parse(&run_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	if ((s.reference || s.given.count > 0) && s.run.targets.count != 1)
		return cli_usage("--reference and --given need exactly one --target VERSION/ARCH");
	if (s.run.targets.count == 0)
		np_targets_all(&s.run.targets);
	np_known known;
	np_vector_set set;
	if ((status = cli_run_load(&s.run, &known, &set)))
		return status;
	char why[400];
	np_backend *b = cli_open_backend(s.run.backend, why, sizeof why);
	np_run run;
	if (!b) {
		fprintf(stderr, "ntprof: --backend %s: %s\n", s.run.backend, why);
		status = EXIT_BAD_INPUT;
	} else if (!run_backend(b, &s, &set, &run)) {
		fprintf(stderr, "ntprof: out of memory\n");
		status = EXIT_BAD_INPUT;
	} else {
		status = cli_run_report(&s.run, &run, &known);
		np_run_free(&run);
	}
	if (b)
		b->destroy(b);
	np_vectors_free(&set);
	np_known_free(&known);
	return status;
}

const cli_command cli_run = {
	.name = "run",
	.main = run_main,
	.summary = "run vectors against a backend and report how each step went",
	.usage = run_usage,
	.syntax = &run_syntax,
};
