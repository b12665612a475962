/* SPDX-License-Identifier: MIT */
/* Argument values by parameter kind (arg_value.h). The messages are the
 * ones a step line gets for a value its parameter does not take. */
#include <string.h>

#include "vectors/arg_value.h"
#include "ntprof/names.h"

_Static_assert(NP_ARG_NAME_MAX == NP_TEXT_MAX, "a capture NAME is as long as a value can be");
_Static_assert(NP_ARG_WORD_MAX == NP_NAME_MAX, "a CHOICE word is as long as a name can be");

/* Copies a NAME that fits (a value always does: both are NP_TEXT_MAX). */
static void copy_name(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ULONG: a number up to 0xFFFFFFFF, or `auto` where the fallback is `auto`. */
static const char *parse_u32(const np_param *p, const char *text, np_arg *out)
{
	uint64_t num;
	if (np_number_parse(text, &num) && num <= 0xFFFFFFFFu) {
		out->u32.value = (uint32_t)num;
		return NULL;
	}
	if (strcmp(text, "auto") == 0 && p->fallback && strcmp(p->fallback, "auto") == 0) {
		out->u32.automatic = true;
		return NULL;
	}
	return "expected a 32-bit number";
}

/* A pointer written for a HANDLE * to fill: a pointer, or >NAME (a user
 * region, and the handle written there captured as NAME). */
static const char *parse_out_handle(const char *text, np_arg *out)
{
	if (text[0] == '>') {
		if (!np_capture_name_ok(text + 1))
			return "expected a pointer (user, null, misaligned, readonly, unmapped, kernel, vanishing, a number) or >NAME to capture the handle";
		out->out_handle.where.symbol = NP_PTR_USER;
		copy_name(out->out_handle.capture, sizeof out->out_handle.capture, text + 1);
		return NULL;
	}
	if (!np_pointer_parse(text, &out->out_handle.where.symbol, &out->out_handle.where.number))
		return "expected a pointer (user, null, misaligned, readonly, unmapped, kernel, vanishing, a number) or >NAME to capture the handle";
	return NULL;
}

/* AS-4: a fresh buffer's page form, the part after the ':' of
 * `user:unmapped=N` or `>NAME:readonly=N`. */
static bool parse_page_form(const char *form, np_arg *out)
{
	static const struct { const char *word; np_page_access access; } forms[] = {
		{ "unmapped=", NP_PAGE_UNMAPPED }, { "readonly=", NP_PAGE_READONLY },
	};
	uint64_t page;
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		size_t n = strlen(forms[i].word);
		if (strncmp(form, forms[i].word, n) == 0 && np_number_parse(form + n, &page) &&
		    page <= 0xFFFFFu) {   /* a ULONG-sized buffer has at most 2^20 pages */
			out->buffer.page_access = forms[i].access;
			out->buffer.page = (uint32_t)page;
			return true;
		}
	}
	return false;
}

/* A create's counters: `user` or >NAME a fresh buffer (>NAME captured),
 * either with a page form (AS-4), a captured NAME, or any other pointer as
 * it is. */
static const char *parse_buffer(const char *text, np_arg *out)
{
	static const char *const bad =
		"expected a buffer: a pointer symbol or number, >NAME (a fresh buffer, captured), either with :unmapped=N or :readonly=N, or a captured NAME";
	np_pointer_arg *where = &out->buffer.where;
	const char *colon = strchr(text, ':');
	char head[NP_ARG_NAME_MAX];
	if (colon) {
		if (!parse_page_form(colon + 1, out) || (size_t)(colon - text) >= sizeof head)
			return bad;
		memcpy(head, text, (size_t)(colon - text));
		head[colon - text] = '\0';
		text = head;
		if (text[0] != '>' && strcmp(text, "user") != 0)
			return bad;   /* only a fresh buffer is made with pages changed */
	}
	if (text[0] == '>') {
		if (!np_capture_name_ok(text + 1))
			return bad;
		out->buffer.form = NP_BUFFER_FRESH;
		copy_name(out->buffer.name, sizeof out->buffer.name, text + 1);
	} else if (np_pointer_parse(text, &where->symbol, &where->number)) {
		out->buffer.form = where->symbol == NP_PTR_USER ? NP_BUFFER_FRESH : NP_BUFFER_POINTER;
	} else if (np_capture_name_ok(text)) {
		where->number = 0;
		out->buffer.form = NP_BUFFER_CAPTURED;
		copy_name(out->buffer.name, sizeof out->buffer.name, text);
	} else {
		return bad;
	}
	return NULL;
}

static const char *parse_handle(const char *text, np_arg *out)
{
	out->handle.symbol = np_handle_parse(text, &out->handle.number);
	if (out->handle.symbol != NP_HANDLE_NAME)
		return NULL;
	if (!np_capture_name_ok(text))
		return "expected a handle: null, current, thread, invalid, other, noquery, a number or a captured NAME";
	copy_name(out->handle.name, sizeof out->handle.name, text);
	return NULL;
}

/* One word of p->choices ("a|b|c"). */
static const char *parse_choice(const np_param *p, const char *text, np_arg *out)
{
	const char *c = p->choices;
	size_t len = strlen(text);
	for (unsigned index = 0; c && *c; index++) {
		const char *bar = strchr(c, '|');
		size_t n = bar ? (size_t)(bar - c) : strlen(c);
		if (n == len && strncmp(c, text, n) == 0 && n < sizeof out->choice.word) {
			out->choice.index = index;
			copy_name(out->choice.word, sizeof out->choice.word, text);
			return NULL;
		}
		c = bar ? bar + 1 : NULL;
	}
	return "not one of the values this argument takes";
}

/* The kinds read by a function of catalog.c alone. */
static const char *parse_plain(np_param_kind kind, const char *text, np_arg *out)
{
	uint64_t num;
	switch (kind) {
	case NP_PARAM_U64:
		return np_number_parse(text, &out->u64) ? NULL : "expected a number";
	case NP_PARAM_BYTE:
		if (!np_number_parse(text, &num) || num > 0xFF)
			return "expected a number from 0 to 255";
		out->byte = (uint8_t)num;
		return NULL;
	case NP_PARAM_SOURCE:
		return np_source_parse(text, &out->source) ? NULL
			: "expected a KPROFILE_SOURCE name or a 32-bit number";
	case NP_PARAM_POINTER:
		return np_pointer_parse(text, &out->pointer.symbol, &out->pointer.number) ? NULL
			: "expected a pointer: user, null, misaligned, readonly, unmapped, kernel, vanishing or a number";
	case NP_PARAM_AFFINITY:
		/* -1 is how C writes all ones: the caller's width, as `all` */
		if (strcmp(text, "all") == 0 || strcmp(text, "-1") == 0)
			return out->affinity.all = true, NULL;
		return np_number_parse(text, &out->affinity.mask) ? NULL
			: "expected an affinity: all, -1 (all ones) or a number";
	case NP_PARAM_GROUPS:
		return np_groups_parse(text, out->groups.element, &out->groups.count) ? NULL
			: "expected Groups=G:MASK[:RESERVED],... (at most 8 elements) or none";
	case NP_PARAM_CAPTURED:
		if (!np_capture_name_ok(text))
			return "expected a captured buffer NAME";
		copy_name(out->captured, sizeof out->captured, text);
		return NULL;
	default:
		return NULL;   /* LCOV_EXCL_LINE: np_arg_parse sends no other kind */
	}
}

const char *np_arg_parse(const np_param *p, const char *text, np_arg *out)
{
	memset(out, 0, sizeof *out);
	out->kind = p->kind;
	switch (p->kind) {
	case NP_PARAM_U32:
		return parse_u32(p, text, out);
	case NP_PARAM_OUT_HANDLE:
		return parse_out_handle(text, out);
	case NP_PARAM_BUFFER:
		return parse_buffer(text, out);
	case NP_PARAM_HANDLE:
		return parse_handle(text, out);
	case NP_PARAM_CHOICE:
		return parse_choice(p, text, out);
	default:
		return parse_plain(p->kind, text, out);
	}
}
