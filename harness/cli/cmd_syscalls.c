/* SPDX-License-Identifier: MIT */
/* ntprof syscalls: the system-call number of each catalog function on each
 * target, from j00ru's tables (ntprof/syscalls.h): a line per function and
 * target, and one per number where a service pack changes it inside a
 * version key. Exit 0; 2 on bad input (an unknown function or target). */
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "ntprof/syscalls.h"

#define MAX_FUNCTIONS 64

typedef struct syscalls_settings {
	np_target_list targets;
	const char *function[MAX_FUNCTIONS];
	unsigned nfunction;
} syscalls_settings;

#define AT(field) offsetof(syscalls_settings, field)
static const cli_option syscalls_options[] = {
	{ "--target", NULL, "VERSION[/ARCH][,...]", AT(targets), cli_check_target_list,
	  "--target needs VERSION[/ARCH][,...]",
	  "the versions (every architecture they have) or targets (default: all); repeatable" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

/* "NtCreateProfile, ..., NtQuerySystemInformation": what FUNCTION may be. */
static const char *function_list(void)
{
	static char list[320];
	size_t used = 0;
	for (unsigned i = 0; i < NP_SYSCALL_FUNCTIONS; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", np_syscall_function(i));
	return list;
}

/* A FUNCTION: one of the catalog's native calls, with its Nt name. */
static int syscalls_operand(void *settings, char *arg)
{
	syscalls_settings *s = settings;
	if (!np_syscall_function_known(arg)) {
		const char *near = np_syscall_function_nearest(arg);
		if (near)
			fprintf(stderr, "ntprof: syscalls: unknown function %s (did you mean %s?)\n", arg, near);
		else
			fprintf(stderr, "ntprof: syscalls: unknown function %s (one of: %s)\n", arg, function_list());
		return EXIT_BAD_INPUT;
	}
	if (s->nfunction == MAX_FUNCTIONS)
		return cli_usage("syscalls: too many FUNCTIONs");
	s->function[s->nfunction++] = arg;
	return 0;
}

static const cli_syntax syscalls_syntax = {
	.command = "syscalls",
	.options = syscalls_options,
	.operand = syscalls_operand,
	.option_prefix = "--",
};

static const char *const syscalls_usage[] = {
	"ntprof syscalls [--target VERSION[/ARCH][,...]]... [FUNCTION...]",
	NULL,
};

/* The lines of one function on one target. */
static void print_numbers(const char *function, np_target t)
{
	char target[48];
	np_syscall_part part[NP_SYSCALL_MAX_PARTS];
	snprintf(target, sizeof target, "%s/%s", np_version_key(t.version), np_arch_name(t.arch));
	unsigned n = np_syscall_numbers(function, t.version, t.arch, part);
	if (n == 0)
		printf("%-24s %-13s unknown\n", function, target);
	for (unsigned k = 0; k < n; k++) {
		char number[8] = "none";
		if (part[k].present)
			snprintf(number, sizeof number, "0x%04X", part[k].number);
		printf("%-24s %-13s %-7s (%s)\n", function, target, number, part[k].systems);
	}
}

static int syscalls_main(int argc, char **argv)
{
	static syscalls_settings s;
	s.targets.count = 0;
	s.nfunction = 0;
	int status = cli_parse(&syscalls_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	if (s.targets.count == 0)
		np_targets_all(&s.targets);
	for (unsigned i = 0; s.nfunction == 0 && i < NP_SYSCALL_FUNCTIONS; i++)
		s.function[i] = np_syscall_function(i);
	unsigned nfunction = s.nfunction ? s.nfunction : NP_SYSCALL_FUNCTIONS;
	for (unsigned f = 0; f < nfunction; f++)
		for (unsigned i = 0; i < s.targets.count; i++)
			print_numbers(s.function[f], s.targets.t[i]);
	return 0;
}

const cli_command cli_syscalls = {
	.name = "syscalls",
	.main = syscalls_main,
	.summary = "the system-call number of each catalog function (all, or each FUNCTION) on each\n"
		   "target, from https://github.com/j00ru/windows-syscalls (WOW64: the x64 numbers):\n"
		   "a line per number with the systems of j00ru's table that give it, so a line per service\n"
		   "pack where one changes it; none: those systems lack the function; unknown: no system\n"
		   "of j00ru's table is of that version and architecture",
	.usage = syscalls_usage,
	.syntax = &syscalls_syntax,
};
