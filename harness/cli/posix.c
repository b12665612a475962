/* SPDX-License-Identifier: MIT */
/* What the POSIX ntprof does its own way; the Windows exe links
 * win/cli_platform.c and win/cmd_live.c instead (the Makefile leaves this
 * file out of WIN_SRC). */
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>   /* malloc_trim */
#endif
#include <sys/stat.h>

#include "cli/cli.h"

/* Commands of the Windows exe only: nameless entries, which the command
 * table skips. */
const cli_command cli_live = { .name = NULL }, cli_child = { .name = NULL };

/* POSIX rename() replaces an existing file atomically. */
bool cli_replace_file(const char *tmp, const char *path)
{
	return rename(tmp, path) == 0;
}

int cli_make_dir(const char *path)
{
	return mkdir(path, 0777);
}

/* This build carries no fixtures: they are read from the tree. */
bool cli_builtin_fixtures(np_vector_set *set, np_error *err, bool *ok)
{
	(void)set;
	(void)err;
	*ok = false;
	return false;
}

/* glibc keeps freed heap pages mapped; malloc_trim returns them, so that a
 * fork no longer copies their page tables nor faults them in. */
void cli_release_memory(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}
