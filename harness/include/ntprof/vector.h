/* SPDX-License-Identifier: MIT */
/* ntprof harness: test vectors as data (fixtures/README.md describes the format). */
#ifndef NTPROF_VECTOR_H
#define NTPROF_VECTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "ntprof/calls.h"
#include "ntprof/step_arg.h"
#include "ntprof/version.h"

#define NP_NAME_MAX     48
#define NP_TEXT_MAX     200
#define NP_MAX_ARGS     12
#define NP_MAX_OUTS     8
#define NP_MAX_EXPECTS  16
#define NP_MAX_STEPS    32
#define NP_MAX_GIVEN    24
#define NP_MAX_RULES    12
#define NP_MAX_FLAGS    8

/* What a step ends in, as a record or an expectation states it: one of the
 * model's result kinds (ntprof/calls.h), whose numbers are also the ABI's
 * (ntprof/impl.h), and its code. */
typedef struct np_outcome {
	np_result_kind kind;
	uint32_t code;
} np_outcome;

typedef struct np_pair {
	char name[NP_NAME_MAX];
	char value[NP_TEXT_MAX];
} np_pair;

typedef struct np_expect {
	np_outcome outcome;
	np_pair out[NP_MAX_OUTS];
	unsigned nout;
	np_applicability when;
	bool alternative;            /* an `accept` line */
	char flag[NP_NAME_MAX];      /* why an alternative is acceptable */
	int line;
} np_expect;

struct np_function;

typedef struct np_step {
	char function[NP_NAME_MAX];  /* canonical name (Zw spelled as written) */
	np_pair arg[NP_MAX_ARGS];    /* the arguments as written, in order */
	unsigned narg;
	/* Read once (np_parse_step, np_step_type): the function's catalog
	 * entry, and each of its parameters typed in the catalog's order, the
	 * written value or the fallback (np_step_value). */
	const struct np_function *catalog;
	np_arg value[NP_MAX_ARGS];
	np_expect *expect;           /* nexpect entries, owned by the vector set */
	unsigned nexpect;
	int line;
} np_step;

typedef struct np_vector {
	char id[NP_TEXT_MAX];
	char title[NP_TEXT_MAX];
	char source[NP_TEXT_MAX];
	char rule[NP_MAX_RULES][NP_NAME_MAX];
	unsigned nrule;
	char flag[NP_MAX_FLAGS][NP_NAME_MAX];
	unsigned nflag;
	np_applicability applies;
	np_pair given[NP_MAX_GIVEN];
	int given_line[NP_MAX_GIVEN];
	unsigned ngiven;
	np_step *step;               /* nstep entries, owned by the vector set */
	unsigned nstep;
	const char *file;            /* owned by the set */
	int line;
} np_vector;

typedef struct np_vector_set {
	np_vector *v;
	unsigned count, cap;
	char **files;
	unsigned nfiles;
	void *block;         /* np_vectors_seal: v, the steps and expectations, read-only */
	size_t block_size;
} np_vector_set;

/* A parse error: "file:line: message", or "file: message" for the whole file. */
typedef struct np_error {
	char text[1024];
} np_error;

/* Fills err with "path:line: message" ("path: message" for line 0, the file
 * as a whole) and returns false, for parsers to
 * `return np_error_at(...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
bool np_error_at(np_error *err, const char *path, int line, const char *fmt, ...);

/* Loads one file or every *.vec below a directory (sorted), appending to set.
 * Returns false and fills err on the first problem. */
bool np_vectors_load(np_vector_set *set, const char *path, np_error *err);
/* Parses len bytes of vector text as if read from the file `name` (which
 * messages cite as name:line): the same parser as np_vectors_load. */
bool np_vectors_load_text(np_vector_set *set, const char *name, const char *text, size_t len,
			  np_error *err);
/* Cross-file checks: duplicate IDs. */
bool np_vectors_check(const np_vector_set *set, np_error *err);
void np_vectors_free(np_vector_set *set);
/* Keeps the vectors keep() is true of, in their order, and frees the others
 * (before np_vectors_seal: a sealed set stays whole). */
void np_vectors_keep(np_vector_set *set, bool (*keep)(const np_vector *v));
/* Moves the vectors, their steps and expectations into one read-only block
 * shared with child processes, so that a fork per vector copies none of it
 * (POSIX; elsewhere, and when no block can be had, the set stays as it is).
 * True when the set is sealed. Nothing may change a sealed set but
 * np_vectors_free. */
bool np_vectors_seal(np_vector_set *set);

bool np_applies(const np_applicability *a, np_ver v, np_arch arch);
bool np_vector_has_flag(const np_vector *v, const char *flag);

/* Parsing pieces shared with `ntprof call`. Each returns NULL or an error text. */
const char *np_parse_step(const char *line, np_step *step);
/* Types the arguments of a step a program built (function and arg[] set,
 * as np_parse_step would leave them) as np_parse_step does; NULL or its
 * error text. */
const char *np_step_type(np_step *step);
/* A parameter's typed value in a step np_parse_step or np_step_type read. */
const np_arg *np_step_value(const np_step *step, const char *param);
/* NAME=VALUE split into pair: both parts non-empty, each fitting. */
typedef enum np_pair_split { NP_PAIR_OK, NP_PAIR_MALFORMED, NP_PAIR_TOO_LONG } np_pair_split;
np_pair_split np_split_pair(const char *token, np_pair *pair);
const char *np_parse_given_pair(const char *token, np_pair *pair);
const char *np_parse_outcome(const char *const *tok, unsigned ntok, unsigned *used, np_outcome *out);
/* np_parse_range, for a RANGE, is the version table's (ntprof/version.h). */

#endif
