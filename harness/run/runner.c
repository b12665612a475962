/* SPDX-License-Identifier: MIT */
/* Runs vectors on a backend: picks the expectation for the target, compares
 * the canonical record with it, and classifies the result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "run/isolate.h"
#include "run/settings.h"
#include "ntprof/capability.h"
#include "ntprof/runner.h"

static const char *const class_names[NP_CLASS_COUNT] = {
	"match", "match-alternative", "known", "status-mismatch", "output-mismatch", "not-exported",
	"stub", "crashed", "not-applicable", "skipped", "not-required", "not-implemented", "unanswered",
	"timeout",
};

const char *np_class_name(np_class c) { return class_names[c]; }

bool np_class_parse(const char *text, np_class *out)
{
	for (unsigned c = 0; c < NP_CLASS_COUNT; c++)
		if (strcmp(text, class_names[c]) == 0)
			return *out = (np_class)c, true;
	return false;
}

/* Whether the row ran on the backend: not one it could not take, skipped,
 * or not asked of an implementation under test. */
bool np_row_ran(const np_row *r)
{
	return r->cls != NP_CLASS_NOT_APPLICABLE && r->cls != NP_CLASS_SKIPPED &&
	       r->cls != NP_CLASS_NOT_REQUIRED && r->cls != NP_CLASS_NOT_IMPLEMENTED;
}

/* Rows not asked of the implementation, or that it could not take: the
 * text report lists them only with --verbose. */
bool np_class_is_quiet(np_class c)
{
	return c == NP_CLASS_MATCH || c == NP_CLASS_NOT_APPLICABLE || c == NP_CLASS_NOT_REQUIRED ||
	       c == NP_CLASS_NOT_IMPLEMENTED;
}

/* The classes after skipped only arise on an implementation under test,
 * and only its summaries name them. */
unsigned np_run_summary_classes(const np_run *run)
{
	return run->under_test ? NP_CLASS_COUNT : NP_CLASS_SKIPPED + 1;
}

np_class np_row_observed(const np_row *r)
{
	return r->cls == NP_CLASS_KNOWN ? r->observed : r->cls;
}

bool np_class_is_failure(np_class c)
{
	return c == NP_CLASS_STATUS_MISMATCH || c == NP_CLASS_OUTPUT_MISMATCH ||
	       c == NP_CLASS_NOT_EXPORTED || c == NP_CLASS_STUB || c == NP_CLASS_CRASHED ||
	       c == NP_CLASS_UNANSWERED || c == NP_CLASS_TIMEOUT;
}

void np_targets_all(np_target_list *l)
{
	l->count = 0;
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
			if (np_arch_exists((np_ver)v, (np_arch)a))
				l->t[l->count++] = (np_target){ (np_ver)v, (np_arch)a };
}

const char *np_targets_add(np_target_list *l, const char *text)
{
	char version[NP_NAME_MAX];
	const char *slash = strchr(text, '/');
	size_t n = slash ? (size_t)(slash - text) : strlen(text);
	if (n >= sizeof version)
		return "version too long";
	memcpy(version, text, n);
	version[n] = '\0';
	np_ver v;
	if (!np_version_parse(version, &v))
		return "unknown version (see `ntprof versions`)";
	np_arch only = NP_X86;
	if (slash && !np_arch_parse(slash + 1, &only))
		return "unknown architecture (x86, x64 or wow64)";
	unsigned added = 0;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		if ((slash && a != only) || !np_arch_exists(v, (np_arch)a))
			continue;
		if (l->count == sizeof l->t / sizeof *l->t)
			return "too many targets";
		l->t[l->count++] = (np_target){ v, (np_arch)a };
		added++;
	}
	return added ? NULL : "that architecture does not exist on that version (VR-3)";
}

static bool numeric_equal(const char *a, const char *b)
{
	uint64_t x, y;
	if (np_number_parse(a, &x) && np_number_parse(b, &y))
		return x == y;
	return strcmp(a, b) == 0;
}

/* Buffer= values compare as counter lists, whatever runs they spell out. */
static bool counters_equal(const char *a, const char *b)
{
	uint32_t x[NP_MAX_COUNTERS], y[NP_MAX_COUNTERS];
	unsigned nx, ny;
	if (!np_counters_parse(a, x, NP_MAX_COUNTERS, &nx) || !np_counters_parse(b, y, NP_MAX_COUNTERS, &ny))
		return strcmp(a, b) == 0;
	return nx == ny && memcmp(x, y, nx * sizeof *x) == 0;
}

static const np_pair *find_out(const np_record *r, const char *name)
{
	for (unsigned i = 0; i < r->nout; i++)
		if (strcmp(r->out[i].name, name) == 0)
			return &r->out[i];
	return NULL;
}

/* 0 = equal, 1 = outcome differs, 2 = an out-value differs. */
static int compare(const np_expect *e, const np_record *r)
{
	if (e->outcome.kind != r->outcome.kind || e->outcome.code != r->outcome.code)
		return 1;
	for (unsigned i = 0; i < e->nout; i++) {
		const np_pair *got = find_out(r, e->out[i].name);
		bool same = !got ? false
			    : strcmp(e->out[i].name, "Buffer") == 0 ? counters_equal(e->out[i].value, got->value)
			    : numeric_equal(e->out[i].value, got->value);
		if (!same)
			return 2;
	}
	return 0;
}

static const np_expect *primary_for(const np_step *st, np_target t)
{
	for (unsigned e = 0; e < st->nexpect; e++)
		if (!st->expect[e].alternative && np_applies(&st->expect[e].when, t.version, t.arch))
			return &st->expect[e];
	return NULL;
}

static np_class live_class(np_result_kind k)
{
	switch (k) {
	case NP_RESULT_NOT_EXPORTED: return NP_CLASS_NOT_EXPORTED;
	case NP_RESULT_STUB:         return NP_CLASS_STUB;
	case NP_RESULT_CRASHED:      return NP_CLASS_CRASHED;
	default:                  return NP_CLASS_STATUS_MISMATCH;
	}
}

/* The reference's record as an expectation: its outcome, and its values of
 * the out-parameters the fixture's expectation names. An address the
 * reference made up (ProcessorProfileControlArea) is compared only as
 * written or not. */
static void expect_from(const np_record *ref, const np_expect *fixture, const np_record *live,
			np_expect *out)
{
	memset(out, 0, sizeof *out);
	out->outcome = ref->outcome;
	for (unsigned i = 0; i < fixture->nout; i++) {
		const np_pair *want = find_out(ref, fixture->out[i].name);
		if (!want)
			continue;
		np_pair *p = &out->out[out->nout++];
		*p = *want;
		const np_pair *got = find_out(live, want->name);
		if (strcmp(want->name, "ProcessorProfileControlArea") == 0 && got &&
		    strcmp(want->value, "-") != 0 && strcmp(got->value, "-") != 0)
			*p = *got;   /* both wrote an address: that is all that can be compared */
	}
}

/* Whether b, an implementation under test, is not asked to run v at all:
 * true, with row classified, for a model-only vector (no implementation can
 * be asked it), a not-live one on a live system, one calling a function b
 * does not implement, and one needing a capability b does not declare. */
static bool not_asked(np_backend *b, const np_vector *v, np_row *row)
{
	if (np_vector_has_flag(v, "model-only") || (b->live && np_vector_has_flag(v, "not-live"))) {
		row->cls = NP_CLASS_NOT_REQUIRED;
		np_row_set_note(row, np_vector_has_flag(v, "model-only") ? NP_NOTE_MODEL_ONLY : NP_NOTE_NOT_LIVE,
				-1, NULL);
		return true;
	}
	for (unsigned s = 0; b->implements && s < v->nstep; s++) {
		const np_function *f = v->step[s].catalog;
		if (np_function_is_call(f) && !b->implements(b, f->name)) {
			row->cls = NP_CLASS_NOT_IMPLEMENTED;
			np_row_set_note(row, NP_NOTE_NOT_IMPLEMENTED, (int)s, NULL);
			return true;
		}
	}
	np_needs needs;
	np_vector_needs(v, &needs);
	for (unsigned i = 0; b->can && i < needs.count; i++)
		if (!b->can(b, needs.name[i])) {
			row->cls = NP_CLASS_NOT_REQUIRED;
			row->lacking = i + 1;
			np_row_set_note(row, NP_NOTE_LACKING, -1, NULL);
			return true;
		}
	return false;
}

bool np_vector_asked(np_backend *b, const np_vector *v)
{
	static np_row row;
	memset(&row, 0, sizeof row);
	return !b->under_test || !not_asked(b, v, &row);
}

/* An implementation under test refused v's state at open (why). It must
 * take every state within what it declares, unless the model cannot take
 * it either (a HAL interface the version lacks): row is then not-required,
 * else unanswered. */
static void refused(const np_vector *v, np_target t, const char *why, np_row *row)
{
	np_backend *model = np_backend_model_new();
	const char *model_why = model ? model->begin(model, t, v) : "out of memory";
	row->cls = model_why ? NP_CLASS_NOT_REQUIRED : NP_CLASS_UNANSWERED;
	np_row_set_note(row, model_why ? NP_NOTE_REFUSED_BOTH : NP_NOTE_REFUSED, -1, why);
	if (model) {
		model->end(model);
		model->destroy(model);
	}
}

/* Opens the sessions of the reference (when there is one) and of b for v on
 * t (the reference's for ref_v, v with the settings it is configured by).
 * False, with row classified and every opened session ended, when b
 * skips the target or either backend cannot take the vector. */
static bool begin_sessions(np_backend *b, np_backend *ref, const np_vector *ref_v, const np_vector *v,
			   np_target t, np_row *row)
{
	if (b->under_test && not_asked(b, v, row))
		return false;
	const char *why = b->skip ? b->skip(b, t, v) : NULL;
	if (why) {
		row->cls = NP_CLASS_SKIPPED;
		np_row_set_note(row, NP_NOTE_WHY, -1, why);
		return false;
	}
	why = ref ? ref->begin(ref, t, ref_v) : NULL;
	if (why) {
		row->cls = NP_CLASS_NOT_APPLICABLE;
		np_row_set_note(row, NP_NOTE_REF_REFUSED, -1, why);
		ref->end(ref);
		return false;
	}
	why = b->begin(b, t, v);
	if (why) {
		row->cls = NP_CLASS_NOT_APPLICABLE;
		np_row_set_note(row, NP_NOTE_WHY, -1, why);
		/* judged under a reading it declares, it must take the state all the same */
		if (b->under_test && !b->allow_not_applicable && (!ref || ref_v != v))
			refused(v, t, why, row);
		b->end(b);
		if (ref)
			ref->end(ref);
		return false;
	}
	return true;
}

/* Step s on the reference, then on b (its record in rec). Returns what b is
 * judged by: the reference's record as an expectation, built in from_ref;
 * the fixture's expectation e is noted in row where the reference differs
 * from it. NULL, with row classified, when the reference cannot take the
 * step (b is then not run). */
static const np_expect *step_against_reference(np_backend *b, np_backend *ref, const np_step *st,
					       unsigned s, const np_expect *e, np_record *rec,
					       np_expect *from_ref, np_row *row)
{
	np_record ref_rec;
	ref->step(ref, st, &ref_rec);
	row->rule = ref_rec.rule;
	if (ref_rec.outcome.kind == NP_RESULT_NOT_APPLICABLE) {
		/* the reference cannot judge this step: nothing to compare it with */
		row->step = b->under_test ? -1 : (int)s;   /* not-required: no step was judged */
		row->cls = b->under_test ? NP_CLASS_NOT_REQUIRED : NP_CLASS_NOT_APPLICABLE;
		np_row_set_note(row, NP_NOTE_REF_STEP, (int)s, ref_rec.why);
		return NULL;
	}
	b->step(b, st, rec);
	expect_from(&ref_rec, e, rec, from_ref);
	if (compare(e, &ref_rec) != 0 && !np_row_fixture(row)) {
		np_answer_from_expect(e, np_row_answer_of(row, NP_PART_FIXTURE));
		row->detail->fixture_step = (int)s;
	}
	return from_ref;
}

/* Classifies step s, whose record differs from the expectation e (diff as
 * compare() gives it). True when the record is an accepted alternative of
 * the step on t, so that the vector goes on. */
static bool classify_difference(const np_step *st, unsigned s, np_target t, const np_expect *e,
				const np_record *rec, int diff, bool must_answer, np_row *row)
{
	row->step = (int)s;
	np_answer_from_expect(e, np_row_answer_of(row, NP_PART_EXPECTED));
	np_answer_from_record(rec, np_row_answer_of(row, NP_PART_GOT));
	const np_expect *alt = NULL;
	for (unsigned k = 0; k < st->nexpect && !alt; k++)
		if (st->expect[k].alternative && np_applies(&st->expect[k].when, t.version, t.arch) &&
		    compare(&st->expect[k], rec) == 0)
			alt = &st->expect[k];
	if (alt) {
		row->cls = NP_CLASS_ALTERNATIVE;
		np_row_set_note(row, NP_NOTE_FLAG, (int)s, alt->flag);
		return true;
	}
	if (rec->outcome.kind == NP_RESULT_NOT_APPLICABLE) {
		bool lacking = strcmp(rec->why, NP_WHY_LACKING_OP) == 0;
		row->cls = must_answer && !lacking ? NP_CLASS_UNANSWERED : NP_CLASS_NOT_APPLICABLE;
		np_row_set_note(row, NP_NOTE_WHY, (int)s, rec->why);
	} else if (diff == 1) {
		row->cls = live_class(rec->outcome.kind);
		np_row_set_note(row, NP_NOTE_WHY, (int)s, rec->why);
	} else {
		row->cls = NP_CLASS_OUTPUT_MISMATCH;
	}
	return false;
}

/* One vector on one target. With a reference backend (begun on ref_v),
 * each step of b is judged against the reference's record of the same step
 * (the fixture's expectation is noted beside it where the two differ);
 * without one, against the fixture's expectation. */
static void judge_one(np_backend *b, np_backend *ref, const np_vector *ref_v, const np_vector *v,
		      np_target t, np_row *row)
{
	memset(row, 0, sizeof *row);
	row->vector = v;
	row->target = t;
	row->step = -1;
	row->cls = NP_CLASS_MATCH;
	if (!begin_sessions(b, ref, ref_v, v, t, row))
		return;
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		const np_expect *e = primary_for(st, t);
		np_record rec;
		np_expect from_ref;
		if (!e)
			abort(); /* LCOV_EXCL_LINE: the parser proves every applicable target is covered */
		if (ref) {
			e = step_against_reference(b, ref, st, s, e, &rec, &from_ref, row);
			if (!e)
				break;
		} else if (b->under_test && e->outcome.kind == NP_RESULT_NOT_APPLICABLE) {
			/* the steps before it were asked and judged: the row stands on them */
			if (s == 0)
				row->cls = NP_CLASS_NOT_REQUIRED;
			np_row_set_note(row, NP_NOTE_EXPECTS_NA, (int)s, NULL);
			break;
		} else {
			b->step(b, st, &rec);
			row->rule = rec.rule;   /* the model's own, when b is the model */
		}
		if (rec.outcome.kind != NP_RESULT_NOT_APPLICABLE)
			row->reached |= 1u << st->catalog->id;
		int diff = compare(e, &rec);
		bool must_answer = b->under_test && !b->allow_not_applicable;
		if (diff != 0 && !classify_difference(st, s, t, e, &rec, diff, must_answer, row))
			break;   /* later steps depend on this one: stop at the first difference */
	}
	b->end(b);
	if (ref)
		ref->end(ref);
}

/* One vector on one target. An implementation that declares its reading of
 * a knob v rests on is judged against the model configured with that
 * reading, as a live system is against the model configured like it (the
 * reference); the row says which reading judged it. */
static void run_one(np_backend *b, np_backend *ref, const np_vector *v, np_target t, np_row *row)
{
	np_pair read[NP_MAX_FLAGS];
	unsigned n = ref ? 0 : np_readings_of(b, v, read);
	np_backend *model = n ? np_backend_model_new() : NULL;
	np_vector *under = model ? np_vector_with_settings(v, read, n) : NULL;
	if (n && !under)
		abort(); /* LCOV_EXCL_LINE: out of memory; judging by the fixture instead would mislead */
	judge_one(b, under ? model : ref, under ? under : v, v, t, row);
	for (unsigned i = 0; i < n; i++) {
		char *reading = np_row_detail_of(row)->reading;
		size_t used = strlen(reading);
		snprintf(reading + used, sizeof row->detail->reading - used, "%s%s=%s", used ? "," : "",
			 read[i].name, read[i].value);
	}
	free(under);
	if (model)
		model->destroy(model);
}

void np_run_one(np_backend *b, const np_vector *v, np_target t, np_row *row)
{
	run_one(b, NULL, v, t, row);
}

/* Room in run for n more rows; false when memory runs out. */
static bool room_for(np_run *run, unsigned n)
{
	if (run->count + n <= run->cap)
		return true;
	unsigned cap = run->cap ? run->cap : 256;
	while (cap < run->count + n)
		cap *= 2;
	np_row *grown = realloc(run->row, cap * sizeof *grown);
	if (!grown)
		return false;
	run->row = grown;
	run->cap = cap;
	return true;
}

/* A row whose child process ended before sending it (harness/run/isolate.c). */
static void lost_row(const np_vector *v, np_target t, const np_lost *lost, np_row *row)
{
	memset(row, 0, sizeof *row);
	row->vector = v;
	row->target = t;
	row->cls = lost->cls;
	row->step = lost->step;
	row->reached = lost->reached;
	np_row_set_note(row, NP_NOTE_WHY, lost->step, lost->why);
	const np_expect *e = lost->step >= 0 ? primary_for(&v->step[lost->step], t) : NULL;
	if (e)
		np_answer_from_expect(e, np_row_answer_of(row, NP_PART_EXPECTED));
	if (lost->cls == NP_CLASS_TIMEOUT) {
		np_answer_timeout(np_row_answer_of(row, NP_PART_GOT));
	} else {
		np_record crashed = { .outcome = { NP_RESULT_CRASHED, 0 } };
		np_answer_from_record(&crashed, np_row_answer_of(row, NP_PART_GOT));
	}
}

static const np_isolation isolation = { run_one, lost_row };

/* v on the n targets t[] into the run's next n rows (room_for made room):
 * in a child process when b asks for it (np_backend.step_timeout_ms). */
static void run_rows(np_backend *b, np_backend *ref, const np_vector *v, const np_target *t, unsigned n,
		     np_run *run)
{
	np_row *rows = &run->row[run->count];
	if (b->step_timeout_ms)
		np_isolated_rows(b, ref, v, t, n, rows, &isolation);
	else
		for (unsigned i = 0; i < n; i++)
			run_one(b, ref, v, t[i], &rows[i]);
	for (unsigned i = 0; i < n; i++)
		run->tally[rows[i].cls]++;
	run->count += n;
}

static void run_start(np_run *run, const np_backend *b, unsigned vectors, unsigned targets)
{
	memset(run, 0, sizeof *run);
	run->backend = b->name;
	run->vectors = vectors;
	run->targets = targets;
	run->under_test = b->under_test;
}

bool np_run_mirrored(np_backend *b, np_backend *reference, const np_vector_set *set, np_target t,
		     const np_pair *extra, unsigned nextra, np_run *run)
{
	run_start(run, b, set->count, 1);
	for (unsigned i = 0; i < set->count; i++) {
		const np_vector *v = &set->v[i];
		if (!np_applies(&v->applies, t.version, t.arch))
			continue;
		np_vector *mirrored = room_for(run, 1) ? np_vector_with_settings(v, extra, nextra) : NULL;
		if (!mirrored)
			return false;
		run_rows(b, reference, mirrored, &t, 1, run);
		run->row[run->count - 1].vector = v;   /* reports name the vector as written */
		free(mirrored);
	}
	return true;
}

bool np_run_vectors(np_backend *b, const np_vector_set *set, const np_target_list *targets,
		    np_run *run)
{
	run_start(run, b, set->count, targets->count);
	for (unsigned i = 0; i < set->count; i++) {
		const np_vector *v = &set->v[i];
		np_target applies[sizeof targets->t / sizeof *targets->t];
		unsigned n = 0;
		for (unsigned t = 0; t < targets->count; t++)
			if (np_applies(&v->applies, targets->t[t].version, targets->t[t].arch))
				applies[n++] = targets->t[t];
		if (!room_for(run, n))
			return false;
		run_rows(b, NULL, v, applies, n, run);
	}
	return true;
}

/* What the reference gives for row's vector and target at the row's deciding
 * step (or, for a vector that did not start, whether the reference can
 * start it), into out; returns the rule it decided by (none where it did
 * not run the step). */
static np_rule reference_at(np_backend *ref, const np_row *row, np_answer *out)
{
	np_rule rule = NP_RULE_NONE;
	const np_vector *v = row->vector;
	const char *why = ref->begin(ref, row->target, v);
	if (why || row->step < 0) {
		np_answer_open(out, why);
	} else {
		static np_record rec;
		for (int s = 0; s <= row->step; s++)
			ref->step(ref, &v->step[s], &rec);
		np_answer_from_record(&rec, out);
		rule = rec.rule;
	}
	ref->end(ref);
	return rule;
}

void np_run_beside(np_run *run, np_backend *reference)
{
	for (unsigned i = 0; i < run->count; i++) {
		np_row *row = &run->row[i];
		/* a row judged under a reading the object declares has the model's
		 * answer under it as its expectation already */
		if (row->cls != NP_CLASS_MATCH && row->cls != NP_CLASS_ALTERNATIVE &&
		    row->cls != NP_CLASS_NOT_REQUIRED && row->cls != NP_CLASS_NOT_IMPLEMENTED &&
		    !np_row_reading(row)[0]) {
			np_rule rule = reference_at(reference, row, np_row_answer_of(row, NP_PART_MODEL));
			/* a backend that does not say why: the model's rule names the cause */
			if (row->rule == NP_RULE_NONE)
				row->rule = rule;
		}
	}
}

unsigned np_run_drift(const np_run *run)
{
	return run->backend && strcmp(run->backend, "model") == 0 ? run->tally[NP_CLASS_ALTERNATIVE] : 0;
}

void np_run_env(np_run *run, const char *name, const char *value)
{
	if (run->nenv == sizeof run->env / sizeof *run->env)
		return;
	np_pair *p = &run->env[run->nenv++];
	snprintf(p->name, sizeof p->name, "%s", name);
	snprintf(p->value, sizeof p->value, "%s", value);
}

void np_run_free(np_run *run)
{
	for (unsigned i = 0; i < run->count; i++)
		np_row_free(&run->row[i]);
	free(run->row);
	memset(run, 0, sizeof *run);
}
