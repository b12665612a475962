/* SPDX-License-Identifier: MIT */
/* Records as lines (record_line.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/record_line.h"

#define LAST_KIND NP_RESULT_LAST

/* Appends text to buf at *used (a field's control characters as spaces, a
 * separator as it is); false when it does not fit (the newline and NUL
 * still need room). */
static bool append(char *buf, size_t cap, size_t *used, const char *text, bool field)
{
	for (; *text; text++) {
		if (*used + 2 >= cap)
			return false;
		unsigned char c = (unsigned char)*text;
		buf[(*used)++] = field && (c < 0x20 || c == 0x7F) ? ' ' : (char)c;
	}
	return true;
}

static bool put(char *buf, size_t cap, size_t *used, const char *text)
{
	return append(buf, cap, used, text, true);
}

static bool sep(char *buf, size_t cap, size_t *used, const char *text)
{
	return append(buf, cap, used, text, false);
}

size_t np_record_encode(const np_record *r, char *buf, size_t cap)
{
	char head[32];
	size_t used = 0;
	snprintf(head, sizeof head, "R\t%u\t%08X\t", (unsigned)r->outcome.kind, (unsigned)r->outcome.code);
	bool ok = sep(buf, cap, &used, head) && put(buf, cap, &used, r->why);
	for (unsigned i = 0; ok && i < r->nout && i < NP_MAX_OUTS; i++)
		ok = sep(buf, cap, &used, "\t") && put(buf, cap, &used, r->out[i].name) &&
		     sep(buf, cap, &used, "=") && put(buf, cap, &used, r->out[i].value);
	if (!ok)
		return 0;
	buf[used++] = '\n';
	buf[used] = '\0';
	return used;
}

/* The field at *p up to the next tab or the end, copied into out; false
 * when longer than cap - 1. *p moves past the field and its tab. */
static bool field(const char **p, char *out, size_t cap, bool *last)
{
	size_t n = strcspn(*p, "\t\n");
	if (n >= cap)
		return false;
	memcpy(out, *p, n);
	out[n] = '\0';
	*last = (*p)[n] != '\t';
	*p += n + !*last;
	return true;
}

bool np_record_decode(const char *line, np_record *r)
{
	char text[NP_TEXT_MAX + NP_NAME_MAX + 2], *end;
	bool last = false;
	memset(r, 0, sizeof *r);
	if (strncmp(line, "R\t", 2) != 0)
		return false;
	const char *p = line + 2;
	if (!field(&p, text, 4, &last) || last || !text[0])
		return false;
	unsigned long kind = strtoul(text, &end, 10);
	if (*end || kind > LAST_KIND)
		return false;
	if (!field(&p, text, 9, &last) || last || strlen(text) != 8)
		return false;
	unsigned long code = strtoul(text, &end, 16);
	if (*end)
		return false;
	r->outcome.kind = (np_result_kind)kind;
	r->outcome.code = (uint32_t)code;
	if (!field(&p, r->why, sizeof r->why, &last))
		return false;
	while (!last) {
		if (r->nout == NP_MAX_OUTS || !field(&p, text, sizeof text, &last))
			return false;
		char *eq = strchr(text, '=');
		if (!eq || eq == text || (size_t)(eq - text) >= NP_NAME_MAX ||
		    strlen(eq + 1) >= NP_TEXT_MAX)
			return false;
		*eq = '\0';
		np_record_out(r, text, eq + 1);
	}
	return *p == '\0' || (*p == '\n' && p[1] == '\0');
}

size_t np_step_line(const np_step *st, char *buf, size_t cap)
{
	size_t used = 0;
	bool ok = sep(buf, cap, &used, st->function);
	for (unsigned i = 0; ok && i < st->narg; i++)
		ok = sep(buf, cap, &used, " ") && sep(buf, cap, &used, st->arg[i].name) &&
		     sep(buf, cap, &used, "=") && sep(buf, cap, &used, st->arg[i].value);
	if (!ok)
		return 0;
	buf[used] = '\0';
	return used;
}
