/* SPDX-License-Identifier: MIT */
/* What the matrix test programs (test_matrix.c, test_matrix_html.c) share:
 * a state holding vectors, the model backend, a matrix, a rule index and
 * the text written, made by setup and freed whole by teardown. */
#ifndef NP_MATRIX_FIXTURE_H
#define NP_MATRIX_FIXTURE_H

#include <stdlib.h>

#include "ntprof/backend.h"
#include "ntprof/matrix.h"
#include "ntprof/rules_index.h"
#include "ntprof/vector.h"

typedef struct fx {
	np_vector_set set;
	np_backend *model;
	np_matrix *m;
	np_index rules;
	char *out;
	size_t len;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	f->model = np_backend_model_new();
	*state = f;
	return f->model ? 0 : -1;
}

static int teardown(void **state)
{
	fx *f = *state;
	np_matrix_free(f->m);
	if (f->model)
		f->model->destroy(f->model);
	np_vectors_free(&f->set);
	np_index_free(&f->rules);
	free(f->out);
	free(f);
	return 0;
}

#endif
