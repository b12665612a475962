/* ntprof: run vectors against a backend, compare result files, evaluate calls
 * on the model, explore boundary combinations, explain rules. Exit status: 0
 * all well, 1 a difference (mismatch, unlisted or stale known divergence,
 * differing results, failed check, something the explorer found), 2 bad
 * input (usage, an unreadable or malformed file, an unknown version).
 *
 * main only finds the command (cli/commands.c); each command is a file of
 * its own (cli/cmd_NAME.c). */
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli/cli.h"

int main(int argc, char **argv)
{
#ifdef __GLIBC__
	/* Each vector opens and frees a ~90 KiB simulated machine at the top of
	 * the heap. glibc would give that memory back to the kernel and take it
	 * again for the next vector (two brk calls per vector: half of a run's
	 * time). Keeping up to 16 MiB of free heap avoids it. */
	mallopt(M_TRIM_THRESHOLD, 16 << 20);
#endif
	if (argc < 2)
		return cli_usage(NULL);
	for (unsigned i = 0; i < cli_command_count; i++) {
		const cli_command *c = cli_commands[i];
		if (c->name && strcmp(c->name, argv[1]) == 0)
			return c->main(argc - 2, argv + 2);
	}
	fprintf(stderr, "ntprof: unknown command %s\n", argv[1]);
	return cli_usage(NULL);
}
