/* SPDX-License-Identifier: MIT */
/* ntprof harness: known-divergence files (fixtures/known/README.md).
 *
 * A known-divergence file lists the failures a target is expected to show,
 * one line each, with why: a line for one vector, or a pattern of vector IDs
 * (`*`) whose step is a number, a function or any, and whose outcome (GOT,
 * compared by value) is one or any. Applied to a run, every failing row must be
 * listed with the same class and observed outcome (the row becomes `known`),
 * else it is unlisted; a listed entry that no failing row matches is stale.
 * Either makes the run fail, so the list stays true (Wine's todo_wine).
 *
 * Standard C only (no POSIX calls): the Windows exe's `live` command uses
 * this file too. */
#ifndef NTPROF_KNOWN_H
#define NTPROF_KNOWN_H

#include <stdio.h>

#include "ntprof/runner.h"
#include "ntprof/vector.h"

typedef struct np_known_value {   /* a GOT read as a value (run/known_got.c) */
	np_outcome outcome;
	np_pair out[NP_MAX_OUTS];
	unsigned nout;
} np_known_value;

typedef struct np_known_entry {
	char vector[NP_TEXT_MAX];    /* a vector ID, or a pattern: `*` stands for any run of characters */
	bool pattern;                /* vector holds a `*` */
	np_applicability scope;      /* the targets the entry speaks for */
	char scope_text[NP_TEXT_MAX];/* `on RANGE arch=LIST` as written; "" = every target */
	np_class cls;                /* a failing class */
	int step;                    /* the deciding step, 1-based as in reports; 0: by function or any */
	const struct np_function *step_function;  /* `step FUNCTION:`: a call of it decides */
	char got[NP_TEXT_MAX * 2];   /* the row's `got`, blanks collapsed; "*": any */
	np_known_value value;        /* got read as a value (any_got: unset) */
	bool any_got;
	char reason[NP_TEXT_MAX * 2];
	int line;
	/* Set by np_known_apply: */
	unsigned matched;            /* failing rows that the entry matched */
	bool ran;                    /* some covered row ran (neither not-applicable nor skipped) */
	np_class now;                /* the first covered row that ran: its class and target */
	np_target now_target;
} np_known_entry;

typedef struct np_known {
	char *path;
	np_known_entry *e;
	unsigned count, cap;
	/* Set by np_known_apply: */
	unsigned known, unlisted, stale, not_run;
} np_known;

/* Reads a known-divergence file. False with err = "file:line: message" on the
 * first malformed line, unknown or non-failing class, unknown function or
 * status, missing or TODO reason, entry that covers a target an earlier
 * entry for its vector ID covers, or pattern that repeats an earlier one. */
bool np_known_load(np_known *k, const char *path, np_error *err);
/* The same from an open stream; path names it in messages. */
bool np_known_read(np_known *k, const char *path, FILE *in, np_error *err);
void np_known_free(np_known *k);

/* Every entry must name a vector of one of the sets: an entry for no vector
 * never runs, so it could never fail (np_known_apply counts it "not run").
 * False with err = "file:line: ID: no such vector in WHERE ..." for the
 * first entry that names none; where says what the sets are. */
bool np_known_check(const np_known *k, const np_vector_set *const *sets, unsigned nsets,
		    const char *where, np_error *err);

/* Matches a run's failing rows against the entries: each matched row becomes
 * NP_CLASS_KNOWN (the run's tally follows), each row gets the entry covering
 * it (row->listed), and the counts in k are set. run->known = k, so reports
 * name the unlisted rows and the stale entries. */
void np_known_apply(np_known *k, np_run *run);
/* True when the applied file failed the run: an unlisted row or a stale entry. */
bool np_known_failed(const np_known *k);

/* True when the entry names vector v: its ID, or for a pattern an ID the
 * pattern matches of a vector that has the entry's step (step N: N steps at
 * least; step FUNCTION: a call of it). */
bool np_known_names(const np_known_entry *e, const np_vector *v);
/* The entry's step as written after `step`, without the colon: N, FUNCTION or *. */
void np_known_step_text(const np_known_entry *e, char *buf, size_t cap);
/* The entry that lists r's observed failure on r's target (class, step and
 * GOT by value), IDs before patterns; NULL for none. */
const np_known_entry *np_known_listing(const np_known *k, const np_row *r);

/* Writes a known-divergence file that lists every failing (or known) row of
 * the run: the reasons of the entries that matched are kept, every other
 * reason is TODO, which np_known_load refuses until someone explains it. */
typedef struct np_known_written {
	unsigned entries;            /* lines written */
	unsigned divergences;        /* failing (or known) rows they list */
	bool ok;                     /* false: out of memory, nothing written */
} np_known_written;

/* Lines that share an outcome become one pattern entry where the pattern
 * names no vector of the run that did not diverge so (harness/run/known_group.c). */
np_known_written np_known_write(FILE *out, const np_run *run);

#endif
