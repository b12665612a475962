/* SPDX-License-Identifier: MIT */
/* ntprof matrix and ntprof diff: every vector evaluated on every version
 * and architecture of a backend (the model), kept step by step, so that the
 * versions can be read side by side (a row per vector and step, a column
 * per version) or two of them compared.
 *
 * A cell is the step's outcome in short ("SUCCESS", "PRIVILEGE_NOT_HELD",
 * "fault INTEGER_DIVIDE_BY_ZERO", "n/e" not exported, "n/a" not applicable)
 * followed by the out-values the step's expectations name ("SUCCESS
 * Interval=5000"); a pseudo-step shows only its values ("Counted=1").
 * A (vector, step) not evaluated on a target (outside the vector's
 * `applies`, or an architecture the version lacks, VR-3) has no cell. */
#ifndef NTPROF_MATRIX_H
#define NTPROF_MATRIX_H

#include <stdio.h>

#include "ntprof/rules_index.h"
#include "ntprof/backend.h"
#include "ntprof/compare.h"

typedef struct np_matrix np_matrix;

/* Evaluates every vector of set on b for each version and architecture
 * marked in versions[] and arches[] (that exists and that the vector
 * applies to). NULL only on out-of-memory. The set must outlive the matrix. */
np_matrix *np_matrix_build(np_backend *b, const np_vector_set *set,
			   const bool versions[NP_VERSION_COUNT], const bool arches[NP_ARCH_COUNT]);
void np_matrix_free(np_matrix *m);

/* Rows: one per vector and step, in the set's order. */
unsigned np_matrix_rows(const np_matrix *m);
const np_vector *np_matrix_vector(const np_matrix *m, unsigned row);
unsigned np_matrix_step(const np_matrix *m, unsigned row);   /* 0-based */

/* One target's cell, or NULL where the step was not evaluated. */
const char *np_matrix_cell(const np_matrix *m, unsigned row, np_ver v, np_arch a);

/* A column's cell for display: the cell when every evaluated architecture
 * agrees, "x86: A / x64 wow64: B" when they differ, "-" when none was
 * evaluated. */
void np_matrix_column_text(const np_matrix *m, unsigned row, np_ver v, char *buf, size_t cap);

/* True when v's cell differs from the previous chosen version's for some
 * architecture evaluated on both (an architecture that only starts to
 * exist, or a vector that only starts to apply, is no change). */
bool np_matrix_changed(const np_matrix *m, unsigned row, np_ver v);

/* ntprof matrix --observed: result files beside the model's columns, one
 * column per file and target (observed must outlive the matrix). A row's
 * cell in column k: the model's cell on the file's target for a step before
 * the deciding one, the system's outcome at it, "-" after it (a step that
 * did not run), "skipped" or "n/a"; np_matrix_observed_text is true when
 * that cell is where the file's class says the system disagrees with the
 * model (a mismatch, not exported, a stub or a crash, known or not). */
void np_matrix_observe(np_matrix *m, np_compare *observed);
unsigned np_matrix_observed_count(const np_matrix *m);
const char *np_matrix_observed_label(const np_matrix *m, unsigned k);
bool np_matrix_observed_text(const np_matrix *m, unsigned row, unsigned k, char *buf, size_t cap);

typedef enum np_matrix_format { NP_MATRIX_TEXT, NP_MATRIX_MARKDOWN, NP_MATRIX_HTML } np_matrix_format;
bool np_matrix_format_parse(const char *text, np_matrix_format *out);

/* Prints the matrix. rules (SPEC.md, np_spec_load) is needed for HTML,
 * whose rows link their rules to the rule texts embedded in the page. */
void np_matrix_print(FILE *out, const np_matrix *m, np_matrix_format fmt, const np_index *rules);

/* ntprof diff: every row whose cell on a[k] differs from its cell on b[k]
 * for some k < npairs (a step evaluated on only one side is no difference),
 * grouped by function (Zw spellings under their Nt names), in the set's
 * order:
 *
 *   NtSetIntervalProfile: SI-1 MC-1 VR-1
 *     set-interval/privilege-threshold step 1 (SI-1 MC-1 VR-1)
 *       6.1  SUCCESS
 *       6.2  PRIVILEGE_NOT_HELD
 *
 * The group's line lists the rules of its differing vectors. Where the pairs
 * (architectures) differ in different ways, each way is listed with its
 * architectures ("6.1 x64 wow64"). Prints nothing when nothing differs.
 * Returns the number of differing rows. */
unsigned np_matrix_diff(FILE *out, const np_matrix *m, const np_target *a, const np_target *b,
			unsigned npairs);

#endif
