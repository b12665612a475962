/* SPDX-License-Identifier: MIT */
/* The output sink: a report written through a temporary file renamed into
 * place, so that a failed run leaves no half-written file behind. Only a
 * regular file (or none yet) is replaced so: a character device or a FIFO
 * (/dev/null, a pipe) is written directly, and a symlink is written
 * through to the regular file it names, never replaced by a file. */
#ifndef _WIN32
#define _XOPEN_SOURCE 700   /* realpath */
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static bool refuse(cli_sink *s, const char *what)
{
	snprintf(s->why, sizeof s->why, "%s", what);
	return false;
}

static bool failed(cli_sink *s)
{
	snprintf(s->why, sizeof s->why, "%s", strerror(errno));
	return false;
}

/* Where the temporary file and the rename go: path itself, or the
 * regular file a symlink names. False (why set) for anything else that
 * is not to be replaced; *direct when the path is written as it is. */
static bool target_of(cli_sink *s, const char *path, bool *direct)
{
	struct stat st;
	*direct = false;
	snprintf(s->target, sizeof s->target, "%s", path);
#ifndef _WIN32
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? true : failed(s);
	if (S_ISLNK(st.st_mode)) {
		char *real = realpath(path, NULL);
		if (!real)
			return refuse(s, "a symlink to nothing (not replaced)");
		snprintf(s->target, sizeof s->target, "%s", real);
		free(real);
		if (stat(s->target, &st) != 0)
			return failed(s);
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		*direct = true;
		return true;
	}
#else
	if (stat(path, &st) != 0)
		return errno == ENOENT ? true : failed(s);
	if (S_ISCHR(st.st_mode)) {
		*direct = true;
		return true;
	}
#endif
	if (S_ISDIR(st.st_mode))
		return refuse(s, "a directory");
	return S_ISREG(st.st_mode) ? true : refuse(s, "neither a regular file nor a device (not replaced)");
}

#ifndef _WIN32
#include <signal.h>

/* The temporary file being written, removed when SIGINT or SIGTERM ends
 * the process before it is renamed into place; only by the process that
 * made it (a child of the isolation shares the handler, not the file). */
static char pending[PATH_MAX + 32];
static volatile pid_t pending_owner;

static void remove_pending(int sig)
{
	if (pending_owner == getpid())
		unlink(pending);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard(const char *tmp)
{
	snprintf(pending, sizeof pending, "%s", tmp);
	pending_owner = getpid();
	signal(SIGINT, remove_pending);
	signal(SIGTERM, remove_pending);
}

static void unguard(void)
{
	pending_owner = 0;
}
#else
static void guard(const char *tmp) { (void)tmp; }
static void unguard(void) { }
#endif

bool cli_sink_open(cli_sink *s, const char *path)
{
	s->path = path;
	s->direct = false;
	s->why[0] = '\0';
	if (!path) {
		s->f = stdout;
		return true;
	}
	if (!target_of(s, path, &s->direct))
		return false;
	if (s->direct) {
		s->f = fopen(path, "w");
		return s->f ? true : failed(s);
	}
	snprintf(s->tmp, sizeof s->tmp, "%.1000s.tmp.%ld", s->target, (long)getpid());
	guard(s->tmp);
	s->f = fopen(s->tmp, "w");
	return s->f ? true : failed(s);
}

bool cli_sink_close(cli_sink *s)
{
	if (!s->path)
		return fflush(stdout) == 0 || failed(s);
	bool ok = !ferror(s->f);
	int err = ok ? 0 : errno;
	if (fclose(s->f) != 0 && ok) {
		ok = false;
		err = errno;
	}
	bool replaced = ok && !s->direct && cli_replace_file(s->tmp, s->target);
	if (!s->direct)
		unguard();
	if (ok && !s->direct && !replaced) {
		ok = false;
		err = errno;
	}
	if (!ok) {
		if (!s->direct)
			remove(s->tmp);
		errno = err ? err : EIO;
		failed(s);
	}
	return ok;
}

void cli_sink_abort(cli_sink *s)
{
	if (!s->path)
		return;
	fclose(s->f);
	if (!s->direct) {
		remove(s->tmp);
		unguard();
	}
}

int cli_sink_error(const char *option, const char *path, const cli_sink *s)
{
	fprintf(stderr, "ntprof: %s %s: cannot write: %s\n", option, path, s->why[0] ? s->why : "write error");
	return EXIT_BAD_INPUT;
}
