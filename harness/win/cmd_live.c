/* SPDX-License-Identifier: MIT */
/* ntprof.exe live: the vectors on the live system, each in a child process,
 * judged against the model that mirrors it (win/live.h); and --child, the
 * child's side. Windows only: the command table (cli/commands.c) gets both
 * entries from this file, which only the Windows exe links. Live reads,
 * reports and exits as run does (cli/run_shared.c). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "win/live.h"

/* The live system was left changed: an interval the run saved could not be
 * put back (the report and stderr name the source). */
#define EXIT_LEFT_CHANGED 3

typedef struct live_settings {
	cli_run_settings run;   /* first: where cli_run_shared_options set their fields */
	np_live_options allow;
} live_settings;

_Static_assert(offsetof(live_settings, run) == 0, "the shared options' fields come first");

/* The live system is what --reference and --given would set. */
static int refuse(void *field, const char *value, const cli_option *o)
{
	(void)field;
	(void)value;
	fprintf(stderr, "ntprof: live: %s: the live system is the target, the backend and "
		"the given state; the model mirrors it\n", o->name);
	return cli_usage(NULL);
}

#define AT(field) offsetof(live_settings, field)
static const cli_option live_options[] = {
	{ "--allow-hazard", NULL, NULL, AT(allow.allow_hazard), NULL,
	  NULL, "run vectors that may fault or bug-check the kernel, or whose behaviour is unknown" },
	{ "--allow-unsaved-intervals", NULL, NULL, AT(allow.allow_unsaved_intervals), NULL,
	  NULL, "run vectors that set an interval that cannot be saved or restored" },
	{ "--reference", NULL, NULL, 0, refuse, NULL, "refused: the model mirrors the live system" },
	{ "--given", NULL, NULL, 0, refuse, NULL, "refused: the live system is the given state" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

static int live_operand(void *settings, char *arg)
{
	return cli_paths_add("live", &((live_settings *)settings)->run.paths, arg);
}

static const cli_syntax live_syntax = {
	.command = "live",
	.options = live_options,
	.shared = cli_run_shared_options,
	.operand = live_operand,
};

static const char *const live_usage[] = {
	"ntprof live [--format " NP_FORMAT_NAMES "] [--output FILE] [--verbose] [--root DIR]",
	"           [--allow-hazard] [--allow-unsaved-intervals] [--known FILE] [--known-write FILE]",
	"           [FILE|DIR]...",
	NULL,
};

/* The run on the live system t, judged by the model mirroring it, and
 * its report; the exit status. */
static int live_run(np_live *live, np_target t, const live_settings *s, const np_vector_set *set,
		    np_known *known)
{
	np_backend *b = np_live_backend(live);
	np_pair extra[NP_MAX_GIVEN];
	unsigned nextra = np_live_mirror(live, extra, NP_MAX_GIVEN);
	fprintf(stderr, "ntprof live: %s %s/%s, %u vectors, one child process each\n",
		b->name, np_version_key(t.version), np_arch_name(t.arch), set->count);
	np_run run;
	np_backend *reference = np_backend_model_new();
	bool ran = reference && np_run_mirrored(b, reference, set, t, extra, nextra, &run);
	if (reference)
		reference->destroy(reference);
	if (!ran) {
		fprintf(stderr, "ntprof: out of memory\n");
		np_live_finish(live, &run);   /* the intervals are restored all the same */
		return EXIT_BAD_INPUT;
	}
	np_live_finish(live, &run);   /* the environment, as probed */
	int status = cli_run_report(&s->run, &run, known);
	if (np_live_left_changed(live))
		status = EXIT_LEFT_CHANGED;   /* whatever the vectors did: the system is not as it was */
	np_run_free(&run);
	b->destroy(b);
	return status;
}

static int live_main(int argc, char **argv)
{
	static live_settings s;
	memset(&s, 0, sizeof s);
	s.run.backend = "model";
	s.run.format = NP_FORMAT_DEFAULT;
	int status = cli_parse(&live_syntax, argc, argv, &s, NULL);
	unsigned step_timeout_ms;   /* read again where it is used (remote.c): refused here, before a run */
	if (status)
		return status;
	if (!cli_step_timeout_env(&step_timeout_ms))
		return EXIT_BAD_INPUT;
	np_known known;
	np_vector_set set;
	if ((status = cli_run_load(&s.run, &known, &set)))
		return status;
	char why[400];
	np_target t;
	np_live *live = np_live_open(&set, &s.allow);
	if (!live || !np_live_target(live, &t, why, sizeof why)) {
		fprintf(stderr, "ntprof: live: %s\n", live ? why : "out of memory");
		status = EXIT_BAD_INPUT;
	} else {
		status = live_run(live, t, &s, &set, &known);
	}
	np_live_close(live);
	np_vectors_free(&set);
	np_known_free(&known);
	return status;
}

/* What a person with a Windows machine needs before the first run: it
 * calls the real kernel, and some vectors can take the machine down. */
static const char *const live_notes[] = {
	"On a real machine (docs/windows.md, \"On a real machine\"):",
	"  - run it in a virtual machine, and take a snapshot first: some vectors fault",
	"    or bug-check the kernel on some versions;",
	"  - run it from an elevated console (Run as administrator): without",
	"    SeSystemProfilePrivilege the vectors that need it are not applicable;",
	"  - --allow-hazard runs those vectors: it may crash the machine or corrupt",
	"    kernel memory; never on a machine you cannot roll back;",
	"  - --allow-unsaved-intervals runs vectors that set an interval the run could",
	"    not save: the machine keeps it until it reboots;",
	"  - exit status 3: an interval could not be put back (the report names it).",
	"",
	"One file to send back, with the system as probed (version, build,",
	"architecture), the ntprof version, the time, and every result:",
	"  ntprof.exe live --format json --output ntprof-live.json",
	"Read it with `ntprof compare ntprof-live.json` (schema/run-result-v3.schema.json).",
	"",
	"The report's formats (--format):",
	NP_FORMAT_NOTES
	NULL,
};

const cli_command cli_live = {
	.name = "live",
	.main = live_main,
	.summary = "run vectors on the live system, judged by the model mirroring it",
	.usage = live_usage,
	.syntax = &live_syntax,
	.notes = live_notes,
};

/* A vector's session, in the child process the live backend starts
 * (win/child.c). Not in the usage: only ntprof.exe itself runs it. */
static int child_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return np_win_child_main();
}

const cli_command cli_child = {
	.name = "--child",
	.main = child_main,
	.summary = "a vector's session in a child process of live",
};
