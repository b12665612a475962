/* SPDX-License-Identifier: MIT */
/* The backends a command can be pointed at by name (run --backend,
 * explore --against). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/common.h"
#include "run/backend_dl.h"

np_backend *cli_open_backend(const char *name, char *why, size_t cap)
{
	if (strcmp(name, "model") == 0) {
		snprintf(why, cap, "out of memory");
		return np_backend_model_new();
	}
	if (strncmp(name, "dl:", 3) == 0 && name[3]) {
		np_backend *b = np_backend_dl_new(name + 3, why, cap);
		if (!b && !strchr(name + 3, '/')) {
			/* without a slash dlopen searches the library path, not here */
			size_t n = strlen(why);
			snprintf(why + n, cap - n, " (dlopen searches the library path for a name without a slash: "
				 "write dl:./%s)", name + 3);
		}
		return b;
	}
	snprintf(why, cap, "unknown backend (available: model, dl:PATH)");
	return NULL;
}

/* The live side's own default (harness/win/remote.c), so that a dl: object
 * and a Windows machine are given the same time unless told otherwise. */
#define DEFAULT_STEP_TIMEOUT_MS 60000u

bool cli_step_timeout_env(unsigned *ms)
{
	const char *env = getenv("NTPROF_STEP_TIMEOUT");
	if (!env || !*env) {
		*ms = DEFAULT_STEP_TIMEOUT_MS;
		return true;
	}
	if (np_seconds_parse(env, CLI_STEP_TIMEOUT_MAX_MS, ms))
		return true;
	fprintf(stderr, "ntprof: NTPROF_STEP_TIMEOUT=%s: NTPROF_STEP_TIMEOUT " CLI_STEP_TIMEOUT_TAKES "\n", env);
	return false;
}
