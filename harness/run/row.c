/* SPDX-License-Identifier: MIT */
/* A run's row beyond its class (ntprof/runner.h): its typed results and
 * its note, kept in a detail only the rows that say more have, and the
 * words the reports print for them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/capability.h"
#include "ntprof/runner.h"

np_row_detail *np_row_detail_of(np_row *r)
{
	if (!r->detail && !(r->detail = calloc(1, sizeof *r->detail)))
		abort(); /* LCOV_EXCL_LINE: out of memory; a row without its difference would mislead */
	return r->detail;
}

np_answer *np_row_answer_of(np_row *r, np_row_part part)
{
	np_answer **a = &np_row_detail_of(r)->answer[part];
	if (!*a && !(*a = calloc(1, sizeof **a)))
		abort(); /* LCOV_EXCL_LINE: out of memory, as above */
	return *a;
}

void np_row_detail_free(np_row_detail *d)
{
	for (unsigned p = 0; d && p < NP_PART_COUNT; p++)
		free(d->answer[p]);
	free(d);
}

void np_row_free(np_row *r)
{
	np_row_detail_free(r->detail);
	r->detail = NULL;
}

static const np_answer *part(const np_row *r, np_row_part p)
{
	const np_answer *a = r->detail ? r->detail->answer[p] : NULL;
	return a && a->stage != NP_STAGE_NONE ? a : NULL;
}

const np_answer *np_row_expected(const np_row *r) { return part(r, NP_PART_EXPECTED); }
const np_answer *np_row_got(const np_row *r) { return part(r, NP_PART_GOT); }
const np_answer *np_row_model(const np_row *r) { return part(r, NP_PART_MODEL); }
const np_answer *np_row_fixture(const np_row *r) { return part(r, NP_PART_FIXTURE); }

const char *np_row_reading(const np_row *r)
{
	return r->detail ? r->detail->reading : "";
}

static void text_of(const np_answer *res, char *buf, size_t cap)
{
	if (res)
		np_answer_text(res, buf, cap);
	else
		snprintf(buf, cap, "%s", "");
}

void np_row_expected_text(const np_row *r, char *buf, size_t cap) { text_of(np_row_expected(r), buf, cap); }
void np_row_got_text(const np_row *r, char *buf, size_t cap) { text_of(np_row_got(r), buf, cap); }
void np_row_model_text(const np_row *r, char *buf, size_t cap) { text_of(np_row_model(r), buf, cap); }

void np_row_fixture_text(const np_row *r, char *buf, size_t cap)
{
	text_of(np_row_fixture(r), buf, cap);
	size_t used = strlen(buf);
	if (used && used < cap)
		snprintf(buf + used, cap - used, " (step %d)", r->detail->fixture_step + 1);
}

void np_row_set_note(np_row *r, np_note note, int step, const char *why)
{
	r->note = (uint8_t)note;
	r->note_step = (int16_t)step;
	if (why)
		snprintf(np_row_detail_of(r)->why, sizeof r->detail->why, "%s", why);
	else if (r->detail)
		r->detail->why[0] = '\0';
}

/* The capability the row lacked (np_row.lacking). */
static void lacked(const np_row *r, char *buf, size_t cap)
{
	np_needs needs;
	np_vector_needs(r->vector, &needs);
	snprintf(buf, cap, "%s", r->lacking && r->lacking <= needs.count ? needs.name[r->lacking - 1] : "?");
}

void np_row_note_text(const np_row *r, char *buf, size_t cap)
{
	const char *why = r->detail ? r->detail->why : "";
	unsigned step = (unsigned)r->note_step + 1;
	char need[NP_CAPABILITY_MAX];
	switch ((np_note)r->note) {
	case NP_NOTE_NONE:       snprintf(buf, cap, "%s", ""); break;
	case NP_NOTE_WHY:
	case NP_NOTE_FLAG:       snprintf(buf, cap, "%s", why); break;
	case NP_NOTE_MODEL_ONLY: snprintf(buf, cap, "model-only vector"); break;
	case NP_NOTE_NOT_LIVE:   snprintf(buf, cap, "not-live vector"); break;
	case NP_NOTE_NOT_IMPLEMENTED:
		snprintf(buf, cap, "step %u calls %s, which is not implemented", step,
			 r->vector->step[r->note_step].catalog->name);
		break;
	case NP_NOTE_LACKING:
		lacked(r, need, sizeof need);
		snprintf(buf, cap, "needs %s, which it does not declare", need);
		break;
	case NP_NOTE_EXPECTS_NA:
		snprintf(buf, cap, "%sstep %u expects not-applicable", step > 1 ? "judged to the step before: " : "",
			 step);
		break;
	case NP_NOTE_REF_REFUSED: snprintf(buf, cap, "the reference cannot take it: %s", why); break;
	case NP_NOTE_REF_STEP:
		snprintf(buf, cap, "%sthe reference cannot take step %u: %.120s",
			 r->cls == NP_CLASS_NOT_REQUIRED ? "expects not-applicable: " : "", step, why);
		break;
	case NP_NOTE_REFUSED:
		snprintf(buf, cap, "it refused a state within what it declares: %s", why);
		break;
	case NP_NOTE_REFUSED_BOTH: snprintf(buf, cap, "the model cannot take it either: %s", why); break;
	}
}

bool np_row_model_differs(const np_row *r, bool always)
{
	const np_answer *model = np_row_model(r), *expected = np_row_expected(r);
	return model && (always || !expected || !np_answer_equal(model, expected));
}
