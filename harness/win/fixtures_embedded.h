/* SPDX-License-Identifier: MIT */
/* The vector files compiled into the Windows exe (build/win/fixtures_embedded.c,
 * written by tools/embed-fixtures.sh), so that `ntprof.exe run` and
 * `ntprof.exe live` need nothing beside the exe. Only builds that define
 * NTPROF_EMBEDDED_FIXTURES link them. */
#ifndef NTPROF_FIXTURES_EMBEDDED_H
#define NTPROF_FIXTURES_EMBEDDED_H

#include <stddef.h>

typedef struct np_embedded_file {
	const char *path;   /* "fixtures/interval/set.vec" */
	const char *text;   /* len bytes (any bytes; a NUL follows them) */
	size_t len;
} np_embedded_file;

/* In loading order; the last entry is all zero. */
extern const np_embedded_file np_embedded_fixtures[];
extern const unsigned np_embedded_fixture_count;

#endif
