/* SPDX-License-Identifier: MIT */
/* The generated file as a growing text (export.h): written whole at the
 * end, so that a failure leaves nothing half-written. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"

static bool reserve(np_export_text *t, size_t more)
{
	if (t->failed)
		return false;
	if (t->len + more + 1 <= t->cap)
		return true;
	size_t cap = t->cap ? t->cap : 4096;
	while (cap < t->len + more + 1)
		cap *= 2;
	char *s = realloc(t->s, cap);
	if (!s) {
		t->failed = true;
		return false;
	}
	t->s = s;
	t->cap = cap;
	return true;
}

void np_export_printf(np_export_text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(t, (size_t)n)) {
		t->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

void np_export_free(np_export_text *t)
{
	free(t->s);
	memset(t, 0, sizeof *t);
}
