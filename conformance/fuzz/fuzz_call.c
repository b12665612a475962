/* SPDX-License-Identifier: MIT */
/* libFuzzer: the parsers of `ntprof call` (harness/vectors/parse.c, step.c, catalog.c)
 * on arbitrary text, one command-line argument per input line:
 *   "--given KEY=VALUE"  np_parse_given_pair (and np_config_check)
 *   anything else        a step: np_parse_step, then np_captures_check
 *                        against the steps before it, as cmd_call does.
 * A step that parses must survive the round trip through np_step_line (the
 * line the Windows exe sends its child process, harness/run/record_line.h).
 * Seeds: conformance/fuzz/call/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "run/record_line.h"
#include "ntprof/vector.h"

#define FUZZER "fuzz_call"
#include "fuzz_support.h"

#define MAX_STEPS 64    /* as cmd_call */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The round trip: the step written as a line reads back as the same step. */
static void round_trip(const np_step *st)
{
	char line[8192];
	np_step again;
	if (np_step_line(st, line, sizeof line) == 0)
		broken("np_step_line: no room for a parsed step", st->function);
	const char *e = np_parse_step(line, &again);
	if (e)
		broken(e, line);
	if (strcmp(again.function, st->function) != 0 || again.narg != st->narg)
		broken("round trip changed the step", line);
	for (unsigned i = 0; i < st->narg; i++)
		if (strcmp(again.arg[i].name, st->arg[i].name) != 0 ||
		    strcmp(again.arg[i].value, st->arg[i].value) != 0)
			broken("round trip changed an argument", line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static np_step steps[MAX_STEPS];
	unsigned nsteps = 0;
	size_t pos = 0;
	while (pos < size && nsteps < MAX_STEPS) {
		const uint8_t *start = data + pos;
		const uint8_t *nl = memchr(start, '\n', size - pos);
		size_t n = nl ? (size_t)(nl - start) : size - pos;
		pos += n + (nl != NULL);
		/* an argument of exactly its length, so ASan sees any over-read;
		 * argv strings end at the first NUL */
		const uint8_t *nul = memchr(start, '\0', n);
		if (nul)
			n = (size_t)(nul - start);
		char *arg = malloc(n + 1);
		if (!arg)
			return 0;
		memcpy(arg, start, n);
		arg[n] = '\0';
		if (strncmp(arg, "--given ", 8) == 0) {
			np_pair pair;
			if (!np_parse_given_pair(arg + 8, &pair) &&
			    (!pair.name[0] || !pair.value[0]))
				broken("accepted an empty key or value", arg);
		} else if (!np_parse_step(arg, &steps[nsteps]) &&
			   !np_captures_check(steps, nsteps, &steps[nsteps])) {
			round_trip(&steps[nsteps]);
			nsteps++;
		}
		free(arg);
	}
	return 0;
}
