/* SPDX-License-Identifier: MIT */
/* ntprof harness: backend sessions (begin, step, end).
 *
 * A backend evaluates steps on one target: the model, a live Windows (or
 * Wine) system, or another implementation. The runner gives each vector a
 * fresh session (begin .. end) and feeds it the vector's steps in order. */
#ifndef NTPROF_BACKEND_H
#define NTPROF_BACKEND_H

#include "ntprof/rule.h"
#include "ntprof/vector.h"

/* The canonical record of one step: its outcome and every out-value, as text
 * (numbers in decimal; "-" for an out-parameter the call did not write). */
typedef struct np_record {
	np_outcome outcome;
	np_pair out[NP_MAX_OUTS];
	unsigned nout;
	char why[NP_TEXT_MAX];     /* NOT_APPLICABLE, STUB, CRASHED: the reason */
	/* The model only (NP_RULE_NONE elsewhere): the rule that decided the
	 * outcome and the rules the step applied, in order (ntprof/rule.h). */
	np_rule rule;
	np_applied applied[NP_TRAIL_MAX];
	unsigned napplied;
} np_record;

/* Why a step is not applicable when the implementation's table lacks the
 * member it needs (NULL, or past the end of an ABI 1 table): the table
 * says it cannot take the step, which is not an unanswered call. */
#define NP_WHY_LACKING_OP "the implementation cannot take this step"

typedef struct np_target {
	np_ver version;
	np_arch arch;
} np_target;

typedef struct np_backend {
	const char *name;
	/* Prepares a fresh system for one vector. Returns NULL, or why the vector
	 * cannot run there (it is then "not applicable" with that reason). */
	const char *(*begin)(struct np_backend *self, np_target target, const np_vector *v);
	void (*step)(struct np_backend *self, const np_step *step, np_record *out);
	void (*end)(struct np_backend *self);
	void (*destroy)(struct np_backend *self);
	void *state;
	/* Optional (NULL: never). Called before begin: a reason not to run the
	 * vector on this target at all, which makes the row "skipped" (a live
	 * system refuses what could harm it: a predicted bug check, an interval
	 * it could not save). */
	const char *(*skip)(struct np_backend *self, np_target target, const np_vector *v);

	/* An implementation checked against the model (dl:, live), not the
	 * model itself: what it cannot be asked to do is "not-required" of it
	 * (a model-only vector, a step that expects not-applicable), and a
	 * not-applicable answer where the vector expects a result is
	 * "unanswered", a failure, unless allow_not_applicable. */
	bool under_test;
	bool allow_not_applicable;
	/* Optional (NULL: every one): whether it has the function the catalog
	 * names so; a vector calling one it lacks is "not-implemented". */
	bool (*implements)(struct np_backend *self, const char *function);
	/* Optional (NULL: every one): whether it declares the capability
	 * (ntprof/capability.h) a vector needs; one it lacks makes the vector
	 * "not-required", with the capability named. */
	bool (*can)(struct np_backend *self, const char *capability);
	/* Optional (NULL: none): the claims it declares (an `implements`
	 * list), read for the knob readings it implements ("reading:K=V"). */
	const char *const *declared;
	/* A live system: a vector flagged `not-live` is not asked of it. */
	bool live;
	/* The targets it emulates, in --target syntax; NULL: every target. */
	const char *emulates;
	/* Nonzero: each vector runs in a child process (harness/run/isolate.c),
	 * and a step that has not returned after this many milliseconds is
	 * ended. */
	unsigned step_timeout_ms;
} np_backend;

/* A backend that drives an implementation of ntprof/impl.h: symbolic
 * pointers and handles become the implementation's memory and handles. */
struct ntprof_impl;
np_backend *np_backend_native_new(const struct ntprof_impl *impl);

/* The reference backend: the model library (np_impl_model). */
np_backend *np_backend_model_new(void);

/* Sets one out-value of a record. */
void np_record_out(np_record *r, const char *name, const char *value);
void np_record_out_u32(np_record *r, const char *name, uint32_t value);

#endif
