/* SPDX-License-Identifier: MIT */
/* The shared pieces of common.h. */
#include <stdlib.h>
#include <string.h>

#include "common/common.h"

uint64_t np_fnv1a(uint64_t h, const void *bytes, size_t n)
{
	const unsigned char *p = bytes;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001B3);
	return h;
}

uint64_t np_fnv1a_str(uint64_t h, const char *s)
{
	return np_fnv1a(h, s, strlen(s));
}

unsigned *np_strmap_slot(const np_strmap *m, char *const *keys, const char *key)
{
	unsigned i = (unsigned)(np_fnv1a_str(NP_FNV1A_SEED, key) & (m->cap - 1));
	while (m->slot[i] && strcmp(keys[m->slot[i] - 1], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

/* Load at most 1/2, so that a probe ends soon; the table doubles. */
bool np_strmap_reserve(np_strmap *m, char *const *keys)
{
	if (2 * (m->count + 1) <= m->cap)
		return true;
	unsigned cap = m->cap ? m->cap * 2 : 256;
	np_strmap grown = { calloc(cap, sizeof *grown.slot), cap, m->count };
	if (!grown.slot)
		return false;
	for (unsigned i = 0; i < m->cap; i++)
		if (m->slot[i])
			*np_strmap_slot(&grown, keys, keys[m->slot[i] - 1]) = m->slot[i];
	free(m->slot);
	*m = grown;
	return true;
}

void np_strmap_free(np_strmap *m)
{
	free(m->slot);
	*m = (np_strmap){ 0 };
}

void np_html_escape(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default:  fputc(s[i], out); break;
		}
	}
}

bool np_seconds_parse(const char *text, unsigned max_ms, unsigned *ms)
{
	uint64_t v = 0;
	const char *p = text;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (uint64_t)(*p - '0')) > max_ms)   /* bounded before it is scaled */
			return false;
	if (p == text)
		return false;
	v *= 1000;
	if (*p == '.') {
		const char *decimals = ++p;
		for (unsigned scale = 100; *p >= '0' && *p <= '9' && scale; p++, scale /= 10)
			v += (uint64_t)(*p - '0') * scale;
		if (p == decimals)
			return false;
	}
	if (*p || v == 0 || v > max_ms)
		return false;
	*ms = (unsigned)v;
	return true;
}
