/* SPDX-License-Identifier: MIT */
/* The global state a live run saves, restores after the vectors that may
 * change it, and reads back (live.c): each piece through the path that
 * changes it (run/safety.h). Windows only. */
#ifndef NTPROF_LIVE_STATE_H
#define NTPROF_LIVE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ntprof/backend.h"
#include "ntprof/vector.h"
#include "run/safety.h"

#define NP_LIVE_MAX_STATE 32

typedef struct np_saved {
	np_global g;
	bool saved;
	uint32_t value;
	char why[NP_TEXT_MAX];       /* why it could not be saved */
	char blocked[NP_TEXT_MAX];   /* why this process could not put it back; "" when it can */
	unsigned restored, failed;   /* restores done, restores that did not succeed */
	char failure[NP_TEXT_MAX];   /* the last failure */
	bool left;                   /* the last restore did not put the value back */
} np_saved;

typedef struct np_saved_set {
	np_saved s[NP_LIVE_MAX_STATE];
	unsigned n;
	unsigned vectors_restored;   /* vectors after which state was restored */
} np_saved_set;

/* Runs one step line in a fresh session of b on t with the given pairs
 * (each "KEY=VALUE"); false with out->why when the session could not begin. */
bool np_live_one_step(np_backend *b, np_target t, const char *const *given, unsigned ngiven,
		      const char *line, np_record *out);
/* The out-value name of r; NULL when r has none. */
const char *np_live_out(const np_record *r, const char *name);
/* "OUTCOME: WHY" of r. */
void np_live_describe(const np_record *r, char *buf, size_t cap);

np_saved *np_saved_find(np_saved_set *set, np_global g);
/* Reads, through b on t, the state every applicable vector of vectors may
 * set, and notes what this process could not put back (privilege: whether
 * its token can enable SeSystemProfilePrivilege). */
void np_saved_read(np_saved_set *set, const np_vector_set *vectors, np_backend *b, np_target t,
		   bool privilege);
/* Puts back the saved state of the n pieces in g (all when n is 0) and
 * reads it back; stop, when not NULL, is checked between pieces and ends
 * the restore when it is set (b may be refusing). */
void np_saved_restore(np_saved_set *set, np_backend *b, np_target t, const np_global *g, unsigned n,
		      volatile long *stop);

/* Texts for the report and stderr. left: how many the last restore did not
 * put back. */
unsigned np_saved_left_text(const np_saved_set *set, char *buf, size_t cap);
void np_saved_text(const np_saved_set *set, char *buf, size_t cap);
void np_restored_text(const np_saved_set *set, const char *last, char *buf, size_t cap);

#endif
