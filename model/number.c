/* SPDX-License-Identifier: MIT */
/* The one number rule (ntprof/number.h). Its own digit loop rather than
 * strtoull: base 0 would read a leading zero as octal, and strtoull skips
 * spaces and takes a sign. */
#include <string.h>

#include "ntprof/number.h"

static int digit_value(char c, unsigned base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool np_number_parse_len(const char *text, size_t len, uint64_t *out)
{
	if (len == 0 || text[0] < '0' || text[0] > '9')
		return false;
	unsigned base = 10;
	size_t i = 0;
	if (len >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		base = 16;
		i = 2;
		if (len == 2)
			return false;   /* "0x" alone */
	}
	uint64_t v = 0;
	for (; i < len; i++) {
		int d = digit_value(text[i], base);
		if (d < 0)
			return false;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return false;   /* more than 64 bits */
		v = v * base + (unsigned)d;
	}
	*out = v;
	return true;
}

bool np_number_parse(const char *text, uint64_t *out)
{
	return np_number_parse_len(text, strlen(text), out);
}
