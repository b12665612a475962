/* SPDX-License-Identifier: MIT */
/* The generated file as a growing text (export.h): written whole at the
 * end, so that a failure leaves nothing half-written. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "ntprof/names.h"
#include "ntprof/status.h"

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

void np_export_name_used(np_export_text *t, np_outcome o)
{
	for (unsigned i = 0; i < t->nnamed; i++)
		if (t->named[i].kind == o.kind && t->named[i].code == o.code)
			return;
	if (t->nnamed < sizeof t->named / sizeof t->named[0])
		t->named[t->nnamed++] = o;
	else
		t->failed = true;   /* a name without its definition would not build */
}

void np_export_names_merge(np_export_text *t, const np_export_text *from)
{
	for (unsigned i = 0; i < from->nnamed; i++)
		np_export_name_used(t, from->named[i]);
}

void np_export_name_defines(np_export_text *out, const np_export_text *t)
{
	/* the rows name them as ntstatus.h and winerror.h define them; the
	 * messages by this table */
	size_t column = 0;
	np_export_printf(out, "\n/* The statuses and errors the rows name, for the messages (ERROR_ ones are Win32's). */\n"
			 "#define NX_NAMED(code) { code, #code }\n"
			 "static const char *nx_name(int kind, LONG code)\n{\n"
			 "    static const struct { LONG code; const char *name; } names[] =\n    {\n");
	for (unsigned i = 0; i < t->nnamed; i++) {
		bool win32 = t->named[i].kind == NP_RESULT_WIN32;
		const char *name = win32 ? np_win32_name(t->named[i].code) : np_status_name(t->named[i].code);
		char item[3 * NP_TEXT_MAX];
		int n = snprintf(item, sizeof item, "NX_NAMED(%s),", name);
		/* as many to a line as fit in 100 columns */
		if (column && column + (size_t)n + 1 > 100) {
			np_export_printf(out, "\n");
			column = 0;
		}
		np_export_printf(out, "%s%s", column ? " " : "        ", item);
		column += (size_t)n + (column ? 1 : 8);
	}
	np_export_printf(out, "%s    };\n    unsigned i;\n"
			 "    for (i = 0; i < ARRAY_SIZE(names); i++)\n"
			 "        if (names[i].code == code && (names[i].name[0] == 'E') == (kind == NX_WIN32))\n"
			 "            return names[i].name;\n"
			 "    return NULL;\n}\n", column ? "\n" : "");
}
