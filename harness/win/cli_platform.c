/* SPDX-License-Identifier: MIT */
/* What the Windows exe does its own way on the command line (the POSIX
 * ntprof links cli/posix.c instead): replacing a file, making a directory,
 * and the fixtures compiled into the exe. */
#include <io.h>        /* mkdir(path) */
#include <windows.h>

#include "cli/cli.h"
#include "win/fixtures_embedded.h"

/* The C library's rename() on Windows refuses to replace an existing file,
 * while MoveFileEx with MOVEFILE_REPLACE_EXISTING replaces it without a
 * moment where path is missing (removing it first would leave one). */
bool cli_replace_file(const char *tmp, const char *path)
{
	return MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING) != 0;
}

int cli_make_dir(const char *path)
{
	return mkdir(path);
}

/* The fixtures compiled into the exe, in the order of their directory,
 * so that it runs with nothing beside it. */
bool cli_builtin_fixtures(np_vector_set *set, np_error *err, bool *ok)
{
	*ok = true;
	for (unsigned i = 0; i < np_embedded_fixture_count && *ok; i++) {
		const np_embedded_file *f = &np_embedded_fixtures[i];
		*ok = np_vectors_load_text(set, f->path, f->text, f->len, err);
	}
	return true;
}

/* The exe evaluates each combination in its own process, not a fork: what
 * this one holds is not copied, so there is nothing to give back. */
void cli_release_memory(void)
{
}
