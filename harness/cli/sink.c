/* The output sink: a report written through a temporary file renamed into
 * place, so that a failed run leaves no half-written file behind. */
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"

bool cli_sink_open(cli_sink *s, const char *path)
{
	s->path = path;
	if (!path) {
		s->f = stdout;
		return true;
	}
	snprintf(s->tmp, sizeof s->tmp, "%.1000s.tmp.%ld", path, (long)getpid());
	s->f = fopen(s->tmp, "w");
	return s->f != NULL;
}

bool cli_sink_close(cli_sink *s)
{
	if (!s->path)
		return fflush(stdout) == 0;
	bool ok = fclose(s->f) == 0 && cli_replace_file(s->tmp, s->path);
	if (!ok)
		remove(s->tmp);
	return ok;
}

void cli_sink_abort(cli_sink *s)
{
	if (!s->path)
		return;
	fclose(s->f);
	remove(s->tmp);
}
