/* SPDX-License-Identifier: MIT */
/* ntprof matrix --observed: result files (ntprof compare's table, read by
 * harness/report/compare_read.c) as columns beside the model's versions.
 * A file holds one result per vector and target, its class and the outcome
 * at the deciding step; the matrix has a row per vector and step. So a
 * step before the deciding one went as the model says (the model's cell on
 * the file's target), the deciding step shows what the system did, marked
 * when the file's class says it disagrees with the model, and later steps
 * did not run. */
#include <string.h>

#include "matrix/matrix_internal.h"
#include "ntprof/compare.h"

void np_matrix_observe(np_matrix *m, np_compare *observed)
{
	m->observed = observed;
}

unsigned np_matrix_observed_count(const np_matrix *m)
{
	return m->observed ? np_compare_columns(m->observed) : 0;
}

const char *np_matrix_observed_label(const np_matrix *m, unsigned k)
{
	return np_compare_label(m->observed, k);
}

/* A result file's outcome in the matrix's short form: "SUCCESS Interval=5"
 * (np_answer_brief less a status's prefix), "n/e", "n/a"; a pseudo-step's
 * out-values alone. */
static void short_form(const np_answer *got, char *buf, size_t cap)
{
	char brief[NP_TEXT_MAX * 3];
	np_answer_brief(got, brief, sizeof brief);
	const char *rest = brief;
	const char *word = "";
	size_t skip = 0;
	if (got->stage == NP_STAGE_STEP)
		switch (got->outcome.kind) {
		case NP_RESULT_NOT_EXPORTED:   word = "n/e"; skip = strlen("not-exported"); break;
		case NP_RESULT_NOT_APPLICABLE: word = "n/a"; skip = strlen("not-applicable"); break;
		case NP_RESULT_NONE:           skip = strlen("done") + (got->nout > 0); break;
		case NP_RESULT_STATUS:         skip = np_outcome_name(&got->outcome) ? strlen("STATUS_") : 0; break;
		default:                       break;
		}
	rest += skip <= strlen(brief) ? skip : strlen(brief);
	snprintf(buf, cap, "%s%s", word, rest);
}

/* The model's cell on the column's target, for a step that went as it says. */
static void model_cell(const np_matrix *m, unsigned row, const char *target, char *buf, size_t cap)
{
	np_target_list l = { .count = 0 };
	const char *cell = NULL;
	if (!np_targets_add(&l, target) && l.count == 1)
		cell = np_matrix_cell(m, row, l.t[0].version, l.t[0].arch);
	snprintf(buf, cap, "%s", cell ? cell : "=");
}

bool np_matrix_observed_text(const np_matrix *m, unsigned row, unsigned k, char *buf, size_t cap)
{
	np_class cls, observed;
	int step;
	const np_answer *got;
	unsigned r;
	const np_vector *v = np_matrix_vector(m, row);
	int s = (int)np_matrix_step(m, row) + 1;
	snprintf(buf, cap, "-");
	if (!np_compare_find(m->observed, v->id, &r) || !np_compare_result(m->observed, r, k, &cls, &observed, &step, &got))
		return false;
	if (cls == NP_CLASS_SKIPPED) {
		snprintf(buf, cap, "skipped");
		return false;
	}
	if (cls == NP_CLASS_KNOWN)
		cls = observed;   /* listed, but a divergence all the same */
	if (step == 0 && cls == NP_CLASS_NOT_APPLICABLE) {
		snprintf(buf, cap, "n/a");
		return false;
	}
	if (step == 0 || s < step) {
		model_cell(m, row, np_compare_target(m->observed, k), buf, cap);
		return false;
	}
	if (s > step && cls == NP_CLASS_ALTERNATIVE) {   /* accepted: the vector went on */
		model_cell(m, row, np_compare_target(m->observed, k), buf, cap);
		return false;
	}
	if (s > step)
		return false;   /* not run: an earlier step decided */
	if (got)
		short_form(got, buf, cap);
	else
		snprintf(buf, cap, "%s", cls == NP_CLASS_NOT_APPLICABLE ? "n/a" : "?");
	return np_class_is_failure(cls);
}
