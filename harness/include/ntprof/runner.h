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

/* An out-value as a row keeps it: a number (whether it is printed in
 * decimal or hex is a matter of its name, np_answer_value_text), not written
 * (`-`), or text (a capture's name, a list of counters or sources). */
typedef enum np_value_form { NP_VALUE_ABSENT, NP_VALUE_NUMBER, NP_VALUE_TEXT } np_value_form;

typedef struct np_value {
	uint16_t name;       /* offset of its name in the result's text */
	uint16_t text;       /* NP_VALUE_TEXT: offset of the value in the result's text */
	uint8_t form;        /* np_value_form */
	uint64_t number;     /* NP_VALUE_NUMBER */
} np_value;

/* What a result says: nothing, a step's outcome, or the session's opening
 * (the model beside a row whose vector it could or could not start), or no
 * answer in time. */
typedef enum np_stage {
	NP_STAGE_NONE,        /* no result: the rest of the result is unset */
	NP_STAGE_STEP,        /* a step's outcome and out-values */
	NP_STAGE_OPEN_TOOK,   /* the session opened ("applicable") */
	NP_STAGE_OPEN_REFUSED,/* the session refused the vector, why in the text */
	NP_STAGE_TIMEOUT,     /* the step did not return (an isolated run ended it) */
} np_stage;

#define NP_ANSWER_TEXT_MAX (NP_TEXT_MAX * 3)

/* One outcome with its out-values, typed: what a vector expects, what a
 * backend got, what the model gives. Names and text values live in text[]. */
typedef struct np_answer {
	uint8_t stage;        /* np_stage */
	uint8_t nout;
	uint16_t used;        /* bytes of text[] in use */
	uint16_t why;         /* NP_STAGE_OPEN_REFUSED: offset of the reason in text[] */
	np_outcome outcome;   /* NP_STAGE_STEP */
	np_value out[NP_MAX_OUTS];
	char text[NP_ANSWER_TEXT_MAX];
} np_answer;

/* What a row's note says: one of a few kinds, with the row's note_step and,
 * for those that carry one, a reason (np_row_detail.why). */
typedef enum np_note {
	NP_NOTE_NONE,
	NP_NOTE_WHY,              /* a backend's reason, as it gave it */
	NP_NOTE_FLAG,             /* the flag of the `accept` line it matched */
	NP_NOTE_MODEL_ONLY,       /* a model-only vector, not asked of an implementation */
	NP_NOTE_NOT_LIVE,         /* a not-live vector, not asked of a live system */
	NP_NOTE_NOT_IMPLEMENTED,  /* step note_step calls a function it does not implement */
	NP_NOTE_LACKING,          /* it does not declare a capability the vector needs (lacking) */
	NP_NOTE_EXPECTS_NA,       /* step note_step expects not-applicable */
	NP_NOTE_REF_REFUSED,      /* the reference could not take the vector, why */
	NP_NOTE_REF_STEP,         /* the reference could not take step note_step, why */
	NP_NOTE_REFUSED,          /* it refused a state within what it declares, why */
	NP_NOTE_REFUSED_BOTH,     /* the model could not take the state either, why */
} np_note;

/* The answers a row may have. */
typedef enum np_row_part {
	NP_PART_EXPECTED,     /* the step's expectation: the vector's, or the reference's */
	NP_PART_GOT,          /* what the backend gave at the deciding step */
	NP_PART_MODEL,        /* np_run_beside: what the model gives there */
	NP_PART_FIXTURE,      /* mirrored runs: the vector's own expectation where the reference differs */
	NP_PART_COUNT
} np_row_part;

/* What a row says beyond its class, for the rows that say more (a
 * difference, a reason): kept apart from the row, and each answer apart
 * from it, so that a run's many matching rows stay small and a
 * mismatching one holds only the answers it has. */
typedef struct np_row_detail {
	np_answer *answer[NP_PART_COUNT];   /* NULL: none */
	int fixture_step;     /* the fixture's step (0-based) */
	char why[NP_TEXT_MAX];     /* the note's reason or flag */
	char reading[NP_TEXT_MAX]; /* the knob readings the object declares that judged it ("" = the fixture's) */
} np_row_detail;

typedef struct np_row {
	const np_vector *vector;
	np_row_detail *detail;         /* NULL: nothing beyond the fields here (np_row_free frees it) */
	const struct np_known_entry *listed;  /* the known-divergence entry covering the row, or NULL */
	np_target target;
	np_class cls;
	np_class observed;             /* NP_CLASS_KNOWN: the failure that was observed */
	int step;                      /* the deciding step (0-based), -1 for none */
	uint32_t reached;              /* bit np_function_id: a step of that function got a result
					  other than not-applicable from the backend */
	unsigned lacking;              /* not-required for want of a capability: 1 + its index in
					  np_vector_needs(vector) (ntprof/capability.h); else 0 */
	np_rule rule;                  /* the rule that decided the model's outcome of the step
					  (the backend's own, or the reference's), or none */
	uint8_t note;                  /* np_note */
	int16_t note_step;             /* the step (0-based) the note names */
} np_row;

/* The row's detail, made when first wanted (aborts when out of memory). */
np_row_detail *np_row_detail_of(np_row *r);
/* The row's answer of that part, made (empty) when first wanted. */
np_answer *np_row_answer_of(np_row *r, np_row_part part);
/* Frees the row's detail and its answers. */
void np_row_free(np_row *r);
void np_row_detail_free(np_row_detail *d);
/* The row's results (NULL when it has none of that kind), its reading
 * ("" for none) and its note's reason ("" for none). */
const np_answer *np_row_expected(const np_row *r);
const np_answer *np_row_got(const np_row *r);
const np_answer *np_row_model(const np_row *r);
const np_answer *np_row_fixture(const np_row *r);
const char *np_row_reading(const np_row *r);
/* The row's parts as the reports print them ("" for none): the results by
 * np_answer_text (the fixture's with " (step N)"), the note in words. */
void np_row_expected_text(const np_row *r, char *buf, size_t cap);
void np_row_got_text(const np_row *r, char *buf, size_t cap);
void np_row_model_text(const np_row *r, char *buf, size_t cap);
void np_row_fixture_text(const np_row *r, char *buf, size_t cap);
void np_row_note_text(const np_row *r, char *buf, size_t cap);
/* Whether the row has a model answer to show: always, or only where it
 * is not what the row expected. */
bool np_row_model_differs(const np_row *r, bool always);
/* Sets the note's kind, step and reason (why may be NULL). */
void np_row_set_note(np_row *r, np_note note, int step, const char *why);

/* Results: made from a record or an expectation, compared, printed. */
void np_answer_from_record(const np_record *rec, np_answer *out);
void np_answer_from_expect(const np_expect *e, np_answer *out);
void np_answer_open(np_answer *out, const char *why);   /* why NULL: "applicable" */
void np_answer_timeout(np_answer *out);
/* A step's answer: outcome o and, so far, no out-values. */
void np_answer_outcome(np_answer *out, np_outcome o);
/* Adds an out-value read from its text as a vector or record writes it. */
void np_answer_add(np_answer *res, const char *name, const char *value);
const char *np_answer_name(const np_answer *res, unsigned i);
const char *np_answer_why(const np_answer *res);
/* The out-value as printed: one spelling per kind of value whichever side
 * it came from (ProcessorProfileControlArea, an address, in hex; counter
 * lists in runs; other numbers in decimal). */
void np_answer_value_text(const np_answer *res, unsigned i, char *buf, size_t cap);
/* The whole result as reports print it: the outcome as np_format_outcome
 * writes it, then " Name=Value" for each out-value; "" for none. */
void np_answer_text(const np_answer *res, char *buf, size_t cap);
/* Same stage, outcome and out-values (by name, in any order). */
bool np_answer_equal(const np_answer *a, const np_answer *b);

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

/* Sets each row's model result, for every row that did not match, to what
 * the reference backend (the model) gives at the row's deciding step. */
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
/* Frees the rows and their details. */
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
/* An outcome's name (STATUS_..., ERROR_..., a bug check's), or NULL for
 * a kind without a code or a code without a name here. */
const char *np_outcome_name(const np_outcome *o);
/* A kind as result files name it ("status", "not-exported", ...), and back. */
const char *np_result_kind_word(np_result_kind k);
bool np_result_kind_parse(const char *word, np_result_kind *k);
/* Whether outcomes of kind k carry a code. */
bool np_result_kind_coded(np_result_kind k);
/* An answer as a table cell prints it: np_answer_text without the code of
 * an outcome whose name says it ("STATUS_SUCCESS Interval=5"). */
void np_answer_brief(const np_answer *a, char *buf, size_t cap);

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
