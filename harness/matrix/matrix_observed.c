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

/* The outcome text of a result file in the matrix's short form:
 * "STATUS_SUCCESS (0x00000000) Interval=5" -> "SUCCESS Interval=5". */
static void short_form(const char *got, char *buf, size_t cap)
{
	static const struct { const char *word, *cell; } words[] = {
		{ "not-exported", "n/e" }, { "not-applicable", "n/a" }, { "done ", "" },
	};
	size_t n = 0;
	for (unsigned i = 0; i < sizeof words / sizeof *words; i++)
		if (strncmp(got, words[i].word, strlen(words[i].word)) == 0) {
			n = (size_t)snprintf(buf, cap, "%s", words[i].cell);
			got += strlen(words[i].word);
		}
	if (strncmp(got, "STATUS_", 7) == 0 && got[7] != '?')
		got += 7;
	for (const char *p = got; *p && n + 1 < cap;) {
		if (p[0] == ' ' && p[1] == '(' && p > got && p[-1] != '?') {   /* the code beside a known name */
			const char *close = strchr(p, ')');
			if (close && (close[1] == ' ' || !close[1])) {
				p = close + 1;
				continue;
			}
		}
		buf[n++] = *p++;
	}
	buf[n] = '\0';
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
	const char *got;
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
	short_form(got[0] ? got : cls == NP_CLASS_NOT_APPLICABLE ? "not-applicable" : "?", buf, cap);
	return np_class_is_failure(cls);
}
