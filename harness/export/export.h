/* SPDX-License-Identifier: MIT */
/* ntprof export: the vectors as one C source in the style of Wine's
 * conformance tests (dlls/ * /tests, include/wine/test.h), which ReactOS's
 * apitests share. Split by concern:
 *   export_select.c   which vectors can be a test, and why others are left out;
 *   export_expect.c   what each step must give, from the model's results on
 *                     every version and architecture: the newest as ok(),
 *                     older outcomes that differ as broken();
 *   export_emit.c     the file as a whole: the header comment, a table of
 *                     tests per family, a row per vector, the vectors left
 *                     out, the entry point;
 *   export_steps.c    the row of one step: its call, wants and marks;
 *   export_calls.c    a step's arguments as row data, and its out-values;
 *   export_prelude.c  the rows' types and the helpers every file carries;
 *   export_prelude_calls.c  each call's helpers;
 *   export_bind.c     the calls bound once, in nx_init;
 *   export_text.c     the growing text the file is written to, and the
 *                     counts of its checks. */
#ifndef NTPROF_EXPORT_H
#define NTPROF_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ntprof/backend.h"
#include "ntprof/known.h"
#include "ntprof/vector.h"

#define NP_EXPORT_MAX_FUNCTIONS 32
#define NP_EXPORT_MAX_KNOWN     8
#define NP_EXPORT_MAX_RESULTS   8

typedef struct np_export_options {
	np_ver since;                                   /* the oldest Windows the tests speak for */
	const char *function[NP_EXPORT_MAX_FUNCTIONS];  /* --function: only vectors calling these */
	unsigned nfunction;
	const np_known *known[NP_EXPORT_MAX_KNOWN];     /* --known: todo_wine */
	np_ver known_for[NP_EXPORT_MAX_KNOWN];          /* the Windows each list's expectations are for */
	unsigned nknown;
	const np_known *known_ros[NP_EXPORT_MAX_KNOWN]; /* --known-ros: ReactOS's, todo_ros */
	unsigned nknown_ros;
	np_ver wine_as;   /* the Windows whose results the test checks on Wine: the newest a list is
			   * for, or the newest of all without a list */
	bool hal_dependent;                             /* --hal-dependent: keep those vectors */
	const char *const *only;   /* --upstream: only the vectors of these IDs (NULL: no such limit) */
	unsigned nonly;
	const char *test_name;                          /* START_TEST's NAME */
	const char *version;                            /* ntprof's, for the header */
} np_export_options;

/* A growing text: the file is made whole in memory, then written. */
typedef struct np_export_text {
	char *s;
	size_t len, cap;
	bool failed;          /* out of memory: the text is incomplete */
	unsigned ok, broken, todo;   /* the checks written: ok(), broken() terms, todo_wine */
	unsigned todo_ros;           /* and todo_ros */
	np_outcome named[64];        /* the statuses and errors its checks name */
	unsigned nnamed;
} np_export_text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void np_export_printf(np_export_text *t, const char *fmt, ...);
void np_export_free(np_export_text *t);
/* Records that the text names outcome o (STATUS_..., ERROR_...); adds
 * what from names to t. */
void np_export_name_used(np_export_text *t, np_outcome o);
void np_export_names_merge(np_export_text *t, const np_export_text *from);
/* nx_name, which gives the name of each outcome t names (by ntstatus.h's
 * and winerror.h's names, which the rows use), for the messages. */
void np_export_name_defines(np_export_text *out, const np_export_text *t);

/* What a step gives on a set of targets, in the terms the test checks: the
 * outcome and the out-values its expectations name. */
typedef struct np_export_result {
	np_outcome outcome;
	np_pair out[NP_MAX_OUTS];
	unsigned nout;
	bool hit[NP_VERSION_COUNT][NP_ARCH_COUNT];   /* the targets that give it */
	const np_expect *accept;                     /* an `accept` line of the vector, or NULL */
} np_export_result;

typedef struct np_export_step {
	np_export_result result[NP_EXPORT_MAX_RESULTS];   /* [0]: the newest target's */
	unsigned count;
} np_export_step;

/* One vector on one caller width: 64-bit (x64) or 32-bit (x86 and WOW64). */
/* The machines a test is tried on besides the model's (1 processor in 1
 * group, MC-1): processors in each group, and groups. */
#define NP_EXPORT_PROBES 12
extern const unsigned np_export_probe_cpus[NP_EXPORT_PROBES], np_export_probe_groups[NP_EXPORT_PROBES];

typedef struct np_export_plan {
	bool usable;
	bool fits[NP_EXPORT_PROBES];   /* the newest Windows gives the same on that machine */
	char why[NP_TEXT_MAX * 2];   /* !usable: why the width has no test */
	np_target newest;
	np_export_step step[NP_MAX_STEPS];
} np_export_plan;

/* Why the vector cannot be a test at all, or NULL. */
const char *np_export_left_out(const np_vector *v, const np_export_options *o, np_backend *model,
			       char *why, size_t cap);
/* Whether --function chose the vector (every vector without --function). */
bool np_export_chosen(const np_vector *v, const np_export_options *o);
/* --upstream: the few vectors that cover each function's main rules
 * (those SPEC.md's "Order of checks" at path spec lists for it) and its
 * statuses on the newest Windows, as export_select.c says; sets o->only
 * (the caller frees it) and *npairs, the (function, rule or status) pairs
 * covered. False with why when spec cannot be read
 * or no vector covers a rule. */
bool np_export_upstream(const np_vector_set *set, np_export_options *o, const char *spec,
			unsigned *npairs, char *why, size_t cap);
/* Whether the export can make step's call and check its out-values. */
bool np_export_step_supported(const np_step *st);

/* The plan of v for the wide (64-bit) or narrow (32-bit) caller; !usable,
 * with why, when that caller has no test of it. */
void np_export_plan_width(np_backend *model, const np_vector *v, np_ver since, bool wide,
			  np_export_plan *p);
/* The result of p's step s on version ver of p's width, or -1 (the step
 * gives nothing the test checks there, or the test has ended before it). */
int np_export_result_on(const np_export_plan *p, unsigned s, np_ver ver);
/* The model's default ProfileTime interval (HL-2): a check of that value is
 * a check of the HAL's own default, which the test reads first. */
uint32_t np_export_time_default(void);
/* Reads the line `# env version: VERSION` of a known list (the Windows
 * whose expectations its entries were judged against). False with why
 * (naming FILE, or FILE:LINE) when it has none or names no version. */
bool np_export_known_for(const char *path, np_ver *out, char *why, size_t cap);
/* "5.1..6.1 x86, 6.1 wow64": the targets of a result. */
void np_export_where(const np_export_result *r, char *buf, size_t cap);

/* The rows' sizes: the most any test of the file needs (each at least 1);
 * and, by function id, the spellings (NP_SPELLED_NT, NP_SPELLED_ZW) a known
 * list says Wine lacks, and those ReactOS lacks shifted by 2. */
#define NP_EXPORT_FUNCTIONS 64
typedef struct np_export_sizes {
	unsigned args, wants, steps, globals, kept;
	unsigned char lacked[NP_EXPORT_FUNCTIONS];
} np_export_sizes;

/* The rows of v's steps in its test's row, each for both caller widths
 * (#ifdef _WIN64 where they differ); NULL, or why a step cannot be a row.
 * Grows z to what they need. */
const char *np_export_step_rows(np_export_text *t, const np_vector *v, const np_export_plan *wide,
				const np_export_plan *narrow, const np_export_options *o, np_export_sizes *z);

/* The lines of a call's case in nx_call (by np_function_id; NULL for a
 * call the file cannot make), and its row in nx_exports after its name
 * (export_prelude_calls.c). */
const char *const *np_export_case_of(unsigned id);
const char *np_export_entry_of(unsigned id);

/* A step's arguments as the row's arg[] ({ ... }, in the order its
 * helper takes them), their number into *count; NULL, or why they cannot
 * be written (export_calls.c). What the step keeps for later steps
 * (NX_KEEP_...), growing *slots. The out-values a call's helper reads:
 * the index of one by name (-1: none) and how its values read, and how
 * many there are. */
typedef enum np_export_out_kind {
	NP_EXPORT_OUT_U32,     /* a ULONG: its value, or NX_UNWRITTEN */
	NP_EXPORT_OUT_HANDLE,  /* 1 when a handle was written, or NX_UNWRITTEN */
	NP_EXPORT_OUT_POINTER  /* 0 for NULL, 1 for another address, or NX_UNWRITTEN */
} np_export_out_kind;
const char *np_export_args(np_export_text *t, const np_vector *v, unsigned s, unsigned *count);
void np_export_keep(np_export_text *t, const np_vector *v, unsigned s, unsigned *slots);
int np_export_out_index(const np_step *st, const char *name, np_export_out_kind *kind);
unsigned np_export_out_count(const np_step *st);
/* The out-value's name where a helper reads it, else NULL (export_select.c). */
const char *np_export_out_expr(const np_step *st, const char *name, np_export_out_kind *kind);

/* The prelude: the rows' types and sizes, the helpers the rows' calls need
 * (those of the functions used), the calls bound once (export_bind.c:
 * np_export_bind) and nx_call, which makes a step's call by its export
 * (np_export_dispatch). The loop that runs a test's rows comes after the
 * statuses' names (np_export_prelude_loop). used[id] says which spellings
 * of function id the rows call: NP_SPELLED_NT (its name), NP_SPELLED_ZW
 * (its alias), or both. */
#define NP_SPELLED_NT 1
#define NP_SPELLED_ZW 2
/* A line of the prelude's text written only where the rows (rows: the
 * tables' text) name a symbol, or only where they do not: what no row
 * uses is left out of the file. */
#define NP_ONLY(symbol)   "\001" symbol "\001"
#define NP_UNLESS(symbol) "\001!" symbol "\001"
void np_export_prelude(np_export_text *t, const unsigned char used[], unsigned nused, const np_vector_set *set,
			const np_export_options *o, const np_export_sizes *z, const char *rows);
void np_export_prelude_loop(np_export_text *t, const char *rows);
/* A pointer per export the file calls, nx_init, which binds them, and the
 * exports as the rows name them, each a todo where z says a platform lacks it. */
void np_export_bind(np_export_text *t, const unsigned char used[], unsigned nused, const np_vector_set *set,
		    const np_export_options *o, const np_export_sizes *z);
void np_export_dispatch(np_export_text *t, const unsigned char used[], unsigned nused);

/* A file's path from its tree's fixtures/ on where it is in one (so that
 * the file does not depend on where the tree is), else as given. */
const char *np_export_shown_path(const char *file);

/* The whole file to out. False (why in err) when out of memory or write fails. */
bool np_export_wine(FILE *out, const np_vector_set *set, const np_export_options *o,
		    np_export_text *counts, char *err, size_t cap);

#endif
