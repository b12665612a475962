/* SPDX-License-Identifier: MIT */
/* ntprof call: steps evaluated on the model, one record line each (the
 * format of a vector's expectations), in a session given the --given
 * state on the --target version. With --backend dl:PATH the steps run on
 * that implementation instead, in a child process, and where its record
 * differs from the model's the model's follows it: one divergence
 * reproduced without a vector written. Exit 0; 1 when the backend differs
 * from the model or ends otherwise (a signal); 2 on bad input (a step that
 * does not parse, a state that cannot exist on the target or that the
 * backend refuses). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "cli/cli.h"
#include "vectors/catalog.h"
#include "vectors/hints.h"

#define MAX_STEPS 64

typedef struct call_settings {
	np_target target;
	cli_given given;
	const char *backend;
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
	{ "--backend", NULL, "model|dl:PATH.so", AT(backend), NULL,
	  "--backend needs a backend (model or dl:PATH.so)",
	  "run the steps there; the model's record follows each that differs" },
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
	"ntprof call [--target VERSION[/ARCH]] [--given KEY=VALUE]... [--backend model|dl:PATH.so] STEP...",
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

/* Opens a session of b with the --given state; false after saying why not. */
static bool session(np_backend *b, const call_settings *s, const np_vector *v)
{
	const char *why = b->begin(b, s->target, v);
	if (!why)
		return true;
	if (b->under_test)
		fprintf(stderr, "ntprof: %s refuses that state on %s/%s: %s\n", b->name,
			np_version_key(s->target.version), np_arch_name(s->target.arch), why);
	else
		fprintf(stderr, "ntprof: that state cannot exist on %s/%s: %s\n",
			np_version_key(s->target.version), np_arch_name(s->target.arch), why);
	b->end(b);
	return false;
}

/* The steps on b, a line each; beside the model (ref, when not NULL) the
 * model's line after each that differs. The exit status. */
static int run_steps(np_backend *b, np_backend *ref, const call_settings *s, const np_vector *v,
		     const np_step *steps, int nsteps)
{
	if (!session(b, s, v) || (ref && !session(ref, s, v)))
		return EXIT_BAD_INPUT;
	int status = 0;
	for (int i = 0; i < nsteps; i++) {
		np_record rec, model;
		char line[1024], theirs[1024];
		b->step(b, &steps[i], &rec);
		np_format_record(steps[i].function, &rec, line, sizeof line);
		printf("%s\n", line);
		fflush(stdout);   /* the lines of the steps done stay if the next one crashes */
		if (!ref)
			continue;
		ref->step(ref, &steps[i], &model);
		np_format_record(steps[i].function, &model, theirs, sizeof theirs);
		if (strcmp(line, theirs) != 0) {
			printf("  model: %s\n", theirs);
			status = EXIT_DIFFERENCE;
		}
	}
	b->end(b);
	if (ref)
		ref->end(ref);
	return status;
}

/* An implementation under test runs in a child process, so that its crash
 * ends the call with a message, not ntprof. */
static int isolated(np_backend *b, np_backend *ref, const call_settings *s, const np_vector *v,
		    const np_step *steps, int nsteps)
{
#ifndef _WIN32
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int status = run_steps(b, ref, s, v, steps, nsteps);
		fflush(NULL);
		ref->destroy(ref);   /* the child's copies: nothing is left to the exit */
		b->destroy(b);
		_exit(status);
	}
	int st = 0;
	if (pid > 0 && waitpid(pid, &st, 0) == pid) {
		if (WIFEXITED(st))
			return WEXITSTATUS(st);
		fprintf(stderr, "ntprof: call: %s ended by signal %d in a step (the lines above are the "
			"steps it finished)\n", b->name, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		return EXIT_DIFFERENCE;
	}
#endif
	return run_steps(b, ref, s, v, steps, nsteps);
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
	char why[400];
	np_backend *b = s.backend ? cli_open_backend(s.backend, why, sizeof why) : np_backend_model_new();
	if (!b) {
		fprintf(stderr, "ntprof: --backend %s: %s\n", s.backend ? s.backend : "model", why);
		return EXIT_BAD_INPUT;
	}
	for (int i = 0; b->implements && i < nsteps; i++)
		if (np_function_is_call(steps[i].catalog) && !b->implements(b, steps[i].catalog->name)) {
			fprintf(stderr, "ntprof: step %d (%s): %s does not implement %s\n", i + 1,
				argv[first_step + i], b->name, steps[i].catalog->name);
			b->destroy(b);
			return EXIT_BAD_INPUT;
		}
	np_backend *ref = b->under_test ? np_backend_model_new() : NULL;
	if (b->under_test && !ref)
		status = EXIT_BAD_INPUT;
	else
		status = b->under_test ? isolated(b, ref, &s, &v, steps, nsteps)
				       : run_steps(b, NULL, &s, &v, steps, nsteps);
	if (ref)
		ref->destroy(ref);
	b->destroy(b);
	return status;
}

const cli_command cli_call = {
	.name = "call",
	.main = call_main,
	.summary = "evaluate steps on the model or a backend, one record line each",
	.usage = call_usage,
	.syntax = &call_syntax,
};
