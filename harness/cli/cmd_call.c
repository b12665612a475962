/* SPDX-License-Identifier: MIT */
/* ntprof call: steps evaluated on the model, one record line each (the
 * format of a vector's expectations), in a session given the --given
 * state on the --target version. Exit 0, or 2 on bad input (a step that
 * does not parse, a state that cannot exist on the target). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "vectors/catalog.h"
#include "vectors/hints.h"

#define MAX_STEPS 64

typedef struct call_settings {
	np_target target;
	cli_given given;
} call_settings;

/* VERSION alone: x64 where it exists, else x86. */
static int check_target(void *target, const char *value, const cli_option *o)
{
	np_target_list l = { .count = 0 };
	int status = cli_check_target(&l, value, o);
	if (status)
		return status;
	np_target *t = target;
	*t = l.t[0];
	for (unsigned k = 0; k < l.count; k++)
		if (l.t[k].arch == NP_X64 && !strchr(value, '/'))
			*t = l.t[k];
	return 0;
}

#define AT(field) offsetof(call_settings, field)
static const cli_option call_options[] = {
	{ "--target", NULL, "VERSION[/ARCH]", AT(target), check_target,
	  "--target needs VERSION[/ARCH]", "the version to evaluate on (default: the newest, x64)" },
	{ "--given", NULL, "KEY=VALUE", AT(given), cli_check_given,
	  "--given needs KEY=VALUE", "the state the session starts in; repeatable" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

/* Options come before the first STEP, and only a `--` argument there is
 * one: the first other argument starts the steps. */
static const cli_syntax call_syntax = {
	.command = "call",
	.options = call_options,
	.option_prefix = "--",
	.operands_last = true,
};

static const char *const call_usage[] = {
	"ntprof call [--target VERSION[/ARCH]] [--given KEY=VALUE]... STEP...",
	NULL,
};

/* The steps, parsed and their captures checked; 0, or EXIT_BAD_INPUT
 * after naming the step. */
static int parse_steps(char **text, int nsteps, np_step *steps)
{
	for (int i = 0; i < nsteps; i++) {
		char why[600];
		if (strncmp(text[i], "--", 2) == 0) {
			fprintf(stderr, "ntprof: call: %s after the steps: options come before the first STEP\n",
				text[i]);
			return cli_usage(NULL);
		}
		const char *e = np_parse_step(text[i], &steps[i]);
		if (e)
			e = np_step_explain(text[i], e, why, sizeof why);
		else
			e = np_captures_check(steps, (unsigned)i, &steps[i]);
		if (e) {
			fprintf(stderr, "ntprof: step %d (%s): %s\n", i + 1, text[i], e);
			return EXIT_BAD_INPUT;
		}
	}
	return 0;
}

static int call_main(int argc, char **argv)
{
	call_settings s = { .target = { (np_ver)(NP_VERSION_COUNT - 1), NP_X64 } };   /* the newest */
	int first_step;
	int status = cli_parse(&call_syntax, argc, argv, &s, &first_step);
	if (status)
		return status;
	if (first_step == argc)
		return cli_usage("call needs at least one STEP, e.g. 'NtQueryIntervalProfile Source=ProfileTime'");
	static np_step steps[MAX_STEPS];
	int nsteps = argc - first_step;
	if (nsteps > MAX_STEPS)
		return cli_usage("too many steps");
	if ((status = parse_steps(argv + first_step, nsteps, steps)))
		return status;
	static np_vector v;   /* given pairs for the session */
	memset(&v, 0, sizeof v);
	memcpy(v.given, s.given.pair, s.given.count * sizeof s.given.pair[0]);
	v.ngiven = s.given.count;
	np_backend *b = np_backend_model_new();
	if (!b)
		return EXIT_BAD_INPUT;
	const char *why = b->begin(b, s.target, &v);
	if (why) {
		fprintf(stderr, "ntprof: that state cannot exist on %s/%s: %s\n",
			np_version_key(s.target.version), np_arch_name(s.target.arch), why);
		status = EXIT_BAD_INPUT;
	}
	for (int i = 0; i < nsteps && !status; i++) {
		np_record rec;
		char line[1024];
		b->step(b, &steps[i], &rec);
		np_format_record(steps[i].function, &rec, line, sizeof line);
		printf("%s\n", line);
	}
	b->destroy(b);
	return status;
}

const cli_command cli_call = {
	.name = "call",
	.main = call_main,
	.summary = "evaluate steps on the model, one record line each",
	.usage = call_usage,
	.syntax = &call_syntax,
};
