/* SPDX-License-Identifier: MIT */
/* ntprof harness: running vectors on a backend and classifying the results. */
#ifndef NTPROF_RUNNER_H
#define NTPROF_RUNNER_H

#include <stdio.h>

#include "ntprof/backend.h"
#include "ntprof/report_formats.h"
#include "ntprof/vector.h"

typedef enum np_class {
	NP_CLASS_MATCH,            /* every step as the primary expectation says */
	NP_CLASS_ALTERNATIVE,      /* a step matched a flagged `accept` line */
	NP_CLASS_KNOWN,            /* a failure a known-divergence file lists (harness/run/known.c) */
	NP_CLASS_STATUS_MISMATCH,  /* a step ended in another outcome */
	NP_CLASS_OUTPUT_MISMATCH,  /* same outcome, different out-values */
	NP_CLASS_NOT_EXPORTED,     /* the target lacks the function (live) */
	NP_CLASS_STUB,             /* the target's function is a stub (live) */
	NP_CLASS_CRASHED,          /* the call raised on the target (live) */
	NP_CLASS_NOT_APPLICABLE,   /* the target cannot take the vector's state */
	NP_CLASS_SKIPPED,          /* not run, with a reason */
	/* Of an implementation under test (np_backend.under_test) only: */
	NP_CLASS_NOT_REQUIRED,     /* not asked of it: a model-only vector, a step expecting not-applicable */
	NP_CLASS_NOT_IMPLEMENTED,  /* a function its table leaves out of `implements` */
	NP_CLASS_UNANSWERED,       /* it answered not-applicable where the vector expects a result */
	NP_CLASS_TIMEOUT,          /* a step did not return within the step timeout (isolated runs) */
	NP_CLASS_COUNT
} np_class;

const char *np_class_name(np_class c);
/* The class named text (np_class_name's inverse); false for no class. */
bool np_class_parse(const char *text, np_class *out);
/* True for the classes that make a run fail (exit status 1). */
bool np_class_is_failure(np_class c);

struct np_known;
struct np_known_entry;

typedef struct np_row {
	const np_vector *vector;
	np_target target;
	np_class cls;
	int step;                      /* the deciding step (0-based), -1 for none */
	char expected[NP_TEXT_MAX * 2];
	char got[NP_TEXT_MAX * 2];
	char note[NP_TEXT_MAX];        /* reason or alternative flag */
	char model[NP_TEXT_MAX * 2];   /* live runs: what the model gives at that step ("" = not asked) */
	char fixture[NP_TEXT_MAX * 2]; /* mirrored runs: the fixture's expectation where the reference differs */
	char reading[NP_TEXT_MAX];     /* the knob readings the object declares that judged it ("" = the fixture's) */
	np_class observed;             /* NP_CLASS_KNOWN: the failure that was observed */
	const struct np_known_entry *listed;  /* the known-divergence entry covering the row, or NULL */
	uint32_t reached;              /* bit np_function_id: a step of that function got a result
					  other than not-applicable from the backend */
	unsigned lacking;              /* not-required for want of a capability: 1 + its index in
					  np_vector_needs(vector) (ntprof/capability.h); else 0 */
	np_rule rule;                  /* the rule that decided the model's outcome of the step
					  (the backend's own, or the reference's), or none */
} np_row;

/* Whether v is asked of b: always of the model; of an implementation under
 * test, unless v is model-only (not-live on a live system), calls a
 * function b does not implement, or needs a capability b does not declare. */
bool np_vector_asked(np_backend *b, const np_vector *v);

/* The class a row was observed in, before a known-divergence file applied. */
np_class np_row_observed(const np_row *r);
/* The row ran on the backend: not one it could not take, skipped, or not asked of it. */
bool np_row_ran(const np_row *r);
/* Match, not applicable, not required, not implemented: listed only with --verbose. */
bool np_class_is_quiet(np_class c);

typedef struct np_run {
	const char *command;           /* what ran it: NULL for `run`, "live" for the exe's live */
	const char *backend;
	char system[NP_TEXT_MAX];      /* live: the system it ran on, as probed; "" otherwise */
	np_row *row;
	unsigned count, cap;
	unsigned tally[NP_CLASS_COUNT];
	unsigned vectors, targets;
	np_pair env[32];               /* the environment the run saw (live runs: probed) */
	unsigned nenv;
	const struct np_known *known;  /* the known-divergence file applied (np_known_apply), or NULL */
	bool under_test;               /* the backend's np_backend.under_test */
} np_run;

/* How many classes, from the first, a summary of this run counts. */
unsigned np_run_summary_classes(const np_run *run);

/* The rows of a run on the model that matched only an `accept` line: 0 for
 * any other backend. An accept line speaks for a live system that may
 * differ; the model is the reference the vectors are written from, so such
 * a row means the model drifted from its vectors, and the run fails
 * (cli_run_report). */
unsigned np_run_drift(const np_run *run);

/* Fills row.model, for every row that did not match, with what the
 * reference backend (the model) gives at the row's deciding step. */
void np_run_beside(np_run *run, np_backend *reference);

/* Adds one environment line to a run's report (ignored past 32); call it
 * after np_run_vectors, which starts the run afresh. */
void np_run_env(np_run *run, const char *name, const char *value);

/* Targets: every existing (version, architecture) pair, or those listed. */
typedef struct np_target_list {
	np_target t[64 * NP_ARCH_COUNT];
	unsigned count;
} np_target_list;
void np_targets_all(np_target_list *l);
/* Adds "VERSION[/ARCH]" (without /ARCH: every architecture that exists). */
const char *np_targets_add(np_target_list *l, const char *text);

/* Runs every vector on every target it applies to. False only on out-of-memory. */
bool np_run_vectors(np_backend *b, const np_vector_set *set, const np_target_list *targets,
		    np_run *run);
void np_run_free(np_run *run);

/* Runs every vector that applies to target t on b, judging each step by
 * what the reference backend does in the same step, with the settings of
 * extra (`given` pairs) added to every vector that does not set them
 * itself: a live system is compared with a model that mirrors it (its
 * processors, its privilege). Rows note the fixture's own expectation where
 * the mirrored reference differs from it. False only on out-of-memory. */
bool np_run_mirrored(np_backend *b, np_backend *reference, const np_vector_set *set, np_target t,
		     const np_pair *extra, unsigned nextra, np_run *run);

/* Evaluates one vector on one target into row (exposed for tests). */
void np_run_one(np_backend *b, const np_vector *v, np_target t, np_row *row);

/* Canonical text. */
void np_format_outcome(const np_outcome *o, char *buf, size_t cap);
void np_format_record(const char *function, const np_record *r, char *buf, size_t cap);

/* The report's formats, from the table of ntprof/report_formats.h: one
 * enumerator and one writer each; the first is the default. */
#define NP_FORMAT_ENUMERATOR(ID, name, writer, what) NP_FORMAT_##ID,
typedef enum np_format { NP_REPORT_FORMATS(NP_FORMAT_ENUMERATOR, NP_FORMAT_ENUMERATOR) NP_FORMAT_COUNT } np_format;
#undef NP_FORMAT_ENUMERATOR
#define NP_FORMAT_DEFAULT ((np_format)0)
#define NP_FORMAT_WRITER(ID, name, writer, what) void writer(FILE *out, const np_run *run, bool verbose);
NP_REPORT_FORMATS(NP_FORMAT_WRITER, NP_FORMAT_WRITER)
#undef NP_FORMAT_WRITER

/* The format named text, in any case; false for none. */
bool np_format_parse(const char *text, np_format *out);
/* Writes the run in fmt by its writer; verbose: the text format lists a
 * line per target, matches too. */
void np_report(FILE *out, const np_run *run, np_format fmt, bool verbose);

#endif
