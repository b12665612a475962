/* SPDX-License-Identifier: MIT */
/* The backends a command can be pointed at by name (run --backend,
 * explore --against). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
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
