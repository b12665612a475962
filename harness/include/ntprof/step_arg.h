/* SPDX-License-Identifier: MIT */
/* ntprof harness: a step's arguments as typed values. A step is read once
 * (np_parse_step); each parameter of its function, written or left to its
 * fallback, becomes an np_arg of its catalog kind (harness/vectors/catalog.c),
 * which is what a backend uses: nothing reads an argument's text again. */
#ifndef NTPROF_STEP_ARG_H
#define NTPROF_STEP_ARG_H

#include <stdbool.h>
#include <stdint.h>

#define NP_ARG_NAME_MAX 200   /* a capture NAME: as long as a value can be (NP_TEXT_MAX) */
#define NP_ARG_WORD_MAX 48    /* a CHOICE word (NP_NAME_MAX) */

typedef enum np_param_kind {
	NP_PARAM_U32,     /* a ULONG */
	NP_PARAM_U64,     /* a 64-bit handle value */
	NP_PARAM_BYTE,    /* a BOOLEAN or UCHAR: 0 to 255 */
	NP_PARAM_SOURCE,  /* a KPROFILE_SOURCE: name or number */
	NP_PARAM_POINTER, /* symbolic pointer (user, null, misaligned, ...) or number */
	NP_PARAM_OUT_HANDLE, /* a HANDLE * to write: a pointer, or >NAME (user + capture) */
	NP_PARAM_BUFFER,  /* counters: a pointer, >NAME (fresh + capture) or a captured NAME */
	NP_PARAM_HANDLE,  /* null current thread invalid other noquery, a captured NAME, or a number */
	NP_PARAM_AFFINITY,/* all (all-ones in the caller's width) or a number */
	NP_PARAM_GROUPS,  /* GROUP_AFFINITY list: G:MASK[:RESERVED],... */
	NP_PARAM_CAPTURED,/* a captured buffer NAME */
	NP_PARAM_CHOICE   /* one word of np_param.choices */
} np_param_kind;

/* Pointer symbols (fixtures/README.md): user null misaligned readonly unmapped kernel vanishing. */
typedef enum np_pointer_kind {
	NP_PTR_USER, NP_PTR_NULL, NP_PTR_MISALIGNED, NP_PTR_READONLY, NP_PTR_UNMAPPED,
	NP_PTR_KERNEL, NP_PTR_VANISHING, NP_PTR_NUMBER
} np_pointer_kind;

/* Process and profile handle symbols (fixtures/README.md). */
typedef enum np_handle_kind {
	NP_HANDLE_NULL, NP_HANDLE_CURRENT, NP_HANDLE_THREAD, NP_HANDLE_INVALID, NP_HANDLE_OTHER,
	NP_HANDLE_NOQUERY, NP_HANDLE_NUMBER, NP_HANDLE_NAME
} np_handle_kind;

/* A GROUP_AFFINITY list "G:MASK[:RESERVED],...": up to 8 elements. */
#define NP_MAX_GROUP_ELEMENTS 8
typedef struct np_group_element {
	uint16_t group;
	uint64_t mask;
	uint16_t reserved;     /* written to all three Reserved words */
} np_group_element;

/* A pointer as a step writes it: a symbol, or a number as it is. */
typedef struct np_pointer_arg {
	np_pointer_kind symbol;
	uint64_t number;       /* NP_PTR_NUMBER only */
} np_pointer_arg;

/* A fresh buffer's page form (AS-4): `>NAME:unmapped=N` or `:readonly=N`
 * leaves page N of it inaccessible or read-only before the call. */
typedef enum np_page_access { NP_PAGE_AS_IS, NP_PAGE_UNMAPPED, NP_PAGE_READONLY } np_page_access;

/* Where a create's counters come from (NP_PARAM_BUFFER). */
typedef enum np_buffer_form {
	NP_BUFFER_FRESH,       /* `user` or >NAME: a fresh zero-filled buffer of BufferSize bytes */
	NP_BUFFER_CAPTURED,    /* NAME: the buffer an earlier step captured */
	NP_BUFFER_POINTER      /* any other pointer symbol or number: that address */
} np_buffer_form;

/* One argument, typed by its parameter's kind; only the member of that kind
 * is meaningful. */
typedef struct np_arg {
	np_param_kind kind;
	union {
		struct {
			uint32_t value;
			bool automatic;    /* `auto`, where the parameter's fallback is `auto` */
		} u32;                          /* U32 */
		uint64_t u64;                   /* U64 */
		uint8_t byte;                   /* BYTE */
		uint32_t source;                /* SOURCE: the KPROFILE_SOURCE */
		np_pointer_arg pointer;         /* POINTER */
		struct {
			np_pointer_arg where;  /* a user region when the step captures */
			char capture[NP_ARG_NAME_MAX];   /* >NAME: the NAME; "" for none */
		} out_handle;                   /* OUT_HANDLE */
		struct {
			np_buffer_form form;
			np_pointer_arg where;  /* NP_BUFFER_POINTER */
			char name[NP_ARG_NAME_MAX];      /* >NAME captures it, NAME reuses it; "" for none */
			np_page_access page_access;   /* NP_BUFFER_FRESH only */
			uint32_t page;                /* the page it changes */
		} buffer;                       /* BUFFER */
		struct {
			np_handle_kind symbol;
			uint64_t number;       /* NP_HANDLE_NUMBER */
			char name[NP_ARG_NAME_MAX];      /* NP_HANDLE_NAME: the captured NAME */
		} handle;                       /* HANDLE */
		struct {
			bool all;              /* all-ones in the caller's width */
			uint64_t mask;         /* otherwise */
		} affinity;                     /* AFFINITY */
		struct {
			np_group_element element[NP_MAX_GROUP_ELEMENTS];
			unsigned count;
		} groups;                       /* GROUPS */
		char captured[NP_ARG_NAME_MAX]; /* CAPTURED: the NAME */
		struct {
			unsigned index;        /* in np_param.choices */
			char word[NP_ARG_WORD_MAX];
		} choice;                       /* CHOICE */
	};
} np_arg;

#endif
