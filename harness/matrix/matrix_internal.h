/* SPDX-License-Identifier: MIT */
/* ntprof matrix: what the printers (matrix_text.c, matrix_html.c) and
 * ntprof diff (version_diff.c) share beyond ntprof/matrix.h. */
#ifndef NTPROF_MATRIX_INTERNAL_H
#define NTPROF_MATRIX_INTERNAL_H

#include "common/common.h"
#include <stdint.h>

#include "ntprof/matrix.h"

typedef struct np_matrix_row {
	unsigned vector, step;
} np_matrix_row;

struct np_matrix {
	const np_vector_set *set;
	const char *backend;
	bool version[NP_VERSION_COUNT];   /* the columns */
	bool arch[NP_ARCH_COUNT];
	np_matrix_row *row;
	unsigned nrows;
	uint32_t *cell;                   /* [row][version][arch]: text id, 0 = not evaluated */
	char **text;                      /* interned cell texts */
	unsigned ntext, captext;
	np_strmap texts;                  /* text -> id */
	np_compare *observed;             /* --observed: result files beside the model, or NULL */
};

/* A cell's text from a step's record (exposed for tests). */
void np_matrix_cell_of(const np_step *st, const np_record *rec, char *buf, size_t cap);

uint32_t np_matrix_cell_id(const np_matrix *m, unsigned row, np_ver v, np_arch a);
const char *np_matrix_text(const np_matrix *m, uint32_t id);

/* The architectures of a column grouped by cell: n groups, id[g] the
 * text of group g, member[g][a] whether architecture a shows it. */
unsigned np_matrix_column_groups(const np_matrix *m, unsigned row, np_ver v,
				 uint32_t id[NP_ARCH_COUNT], bool member[NP_ARCH_COUNT][NP_ARCH_COUNT]);

/* The chosen version before v, or -1. */
int np_matrix_previous(const np_matrix *m, np_ver v);

/* The canonical (Nt) name of a step's function, for grouping. */
const char *np_matrix_function(const np_step *st);

/* ---- the HTML page (matrix_html.c, matrix_palette.c) ---- */

/* The families of statuses the page colours alike. */
typedef enum np_family {
	NP_FAM_SUCCESS, NP_FAM_VALUES, NP_FAM_PARAMETER, NP_FAM_ACCESS, NP_FAM_BUGCHECK,
	NP_FAM_ABSENT, NP_FAM_OTHER, NP_FAMILY_COUNT
} np_family;

typedef struct np_family_info {
	const char *css;          /* its class name */
	const char *name;         /* for the legend */
	const char *background;   /* "#rrggbb" */
	const char *text;         /* "#rrggbb", or NULL: the page's, NP_PAGE_TEXT */
} np_family_info;

#define NP_PAGE_TEXT "#222222"

const np_family_info *np_family_of(np_family f);
/* The status of a cell text: its first word ("SUCCESS"), both words of
 * "fault X" and "bugcheck X", "values" for a pseudo-step's values. */
void np_status_key(const char *cell_text, char *buf, size_t cap);
np_family np_status_family(const char *status_key);

void np_matrix_print_text(FILE *out, const np_matrix *m, bool markdown);
void np_matrix_print_html(FILE *out, const np_matrix *m, const np_index *rules);

#endif
