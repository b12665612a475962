/* SPDX-License-Identifier: MIT */
/* The explorer (harness/explore/): its boundary table against the
 * catalog and SPEC.md, the greedy minimiser against a backend with one
 * planted bug, and the sweep's determinism, budget and silence when the
 * judged backend is the model itself. conformance/cli/test_explore.sh runs the
 * command against conformance/dl/dl_faulty.so. */
#include "np_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "np_step_arg.h"
#include "explore/explore_space.h"
#include "explore/explore_table.h"
#include "ntprof/explore.h"
#include "ntprof/rules_index.h"
#include "ntprof/version_predicates.h"
#include "ntprof/backend.h"
#include "ntprof/status.h"

#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif

/* ---- the table ---- */

static void for_each_explorable(void (*check)(const np_function *f, void *ctx), void *ctx)
{
	unsigned n = 0;
	for (unsigned i = 0; np_function_at(i); i++)
		if (np_xexplorable(np_function_at(i))) {
			check(np_function_at(i), ctx);
			n++;
		}
	assert_int_equal(n, 10);   /* the native, Win32 and system-information calls */
}

/* The step of f with every argument at its plain default, but param = value. */
static void plain_step(const np_function *f, const np_param *param, const char *value, char *buf,
		       size_t cap)
{
	size_t used = (size_t)snprintf(buf, cap, "%s", f->name);
	for (const np_param *p = f->param; p->name; p++) {
		const np_xlist *l = np_xbounds_param(f, p);
		const char *v = p == param ? value : l->b[0].text;
		used += (size_t)snprintf(buf + used, cap - used, " %s=%s", p->name, v);
	}
}

static void check_lists(const np_function *f, void *ctx)
{
	(void)ctx;
	for (const np_param *p = f->param; p->name; p++) {
		const np_xlist *l = np_xbounds_param(f, p);
		if (!l)
			fail_msg("%s %s has no boundary list", f->name, p->name);
		assert_true(l->n >= 2);
		assert_int_equal(l->b[0].derive, NP_XD_TEXT);   /* the default is written as it is */
		for (unsigned b = 0; b < l->n; b++) {
			char line[1024];
			np_step st;
			if (l->b[b].derive != NP_XD_TEXT)
				continue;
			plain_step(f, p, l->b[b].text, line, sizeof line);
			const char *e = np_parse_step(line, &st);
			if (e)
				fail_msg("%s: %s", line, e);
		}
	}
	np_xspace sp;
	assert_true(np_xspace_init(&sp, f));
}

/* Every parameter of every explorable function has a boundary list whose
 * default and literal values the vector parser takes. */
static void test_explore_table_covers_the_catalog(void **state)
{
	(void)state;
	for_each_explorable(check_lists, NULL);
}

typedef struct rules_ctx {
	np_index ix;
	unsigned checked;
} rules_ctx;

static void check_rule_list(rules_ctx *c, const char *list, const char *where)
{
	char buf[400];
	snprintf(buf, sizeof buf, "%s", list);
	unsigned n = 0;
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save), n++) {
		const np_spec_rule *r = np_index_rule(&c->ix, w);
		if (!r || r->retired)
			fail_msg("%s cites %s, which SPEC.md %s", where, w, r ? "retired" : "lacks");
		c->checked++;
	}
	if (n == 0)
		fail_msg("%s cites no rule", where);
}

static void check_cited(const np_function *f, void *ctx)
{
	rules_ctx *c = ctx;
	np_xspace sp;
	assert_true(np_xspace_init(&sp, f));
	for (unsigned d = 0; d < sp.nd; d++)
		for (unsigned b = 0; b < sp.d[d].n; b++) {
			char where[200];
			snprintf(where, sizeof where, "%s %s=%s", f->name, sp.d[d].name, sp.d[d].b[b].text);
			check_rule_list(c, sp.d[d].b[b].rules, where);
		}
}

/* Every boundary and every version predicate cites rules SPEC.md has (and
 * has not retired). */
static void test_explore_table_cites_spec_rules(void **state)
{
	(void)state;
	static rules_ctx c;
	np_error err;
	if (!np_index_build(&c.ix, NTPROF_SOURCE_ROOT, &err))
		fail_msg("%s", err.text);
	for_each_explorable(check_cited, &c);
	unsigned np;
	const np_predicate *pr = np_predicate_table(&np);
	for (unsigned i = 0; i < np; i++) {
		char ids[200] = "";
		for (unsigned k = 0; k < NP_PREDICATE_MAX_RULES && pr[i].rules[k] != NP_RULE_NONE; k++)
			snprintf(ids + strlen(ids), sizeof ids - strlen(ids), " %s", np_rule_id(pr[i].rules[k]));
		check_rule_list(&c, ids, pr[i].name);
	}
	assert_true(c.checked > 250);
	np_index_free(&c.ix);
}

/* The predicates the explorer cites turn where ntprof/predicates.h says: CP-9's fixed
 * capacity test at 1703 by default, SI-1's privilege at 6.2. */
/* rules: CP-9 SI-1 */
static void test_explore_predicates_turn(void **state)
{
	(void)state;
	np_machine *m = malloc(sizeof *m);
	assert_non_null(m);
	assert_null(np_machine_init(m, NP_V1703, NP_X64));
	unsigned np, turned = 0;
	const np_predicate *pr = np_predicate_table(&np);
	for (unsigned i = 0; i < np; i++) {
		m->version = NP_V1607;
		bool before = pr[i].holds(m);
		m->version = NP_V1703;
		if (before != pr[i].holds(m)) {
			assert_string_equal(pr[i].name, "np_capacity_check_fixed");
			turned++;
		}
	}
	assert_int_equal(turned, 1);
	np_machine_fini(m);
	free(m);
}

/* ---- the minimiser: a backend with one planted bug ---- */

/* The model, except that NtCreateProfile probes ProfileHandle=null first
 * (dl_faulty.c's bug 1, planted without a shared object). */
typedef struct planted {
	np_backend self;
	np_backend *model;
} planted;

static const char *planted_begin(np_backend *b, np_target t, const np_vector *v)
{
	np_backend *m = ((planted *)b->state)->model;
	return m->begin(m, t, v);
}

static void planted_step(np_backend *b, const np_step *st, np_record *r)
{
	np_backend *m = ((planted *)b->state)->model;
	const np_function *f = np_function_find(st->function);
	if (f->id == NP_FN_CREATE_PROFILE && strcmp(np_step_arg(st, np_param_find(f, "ProfileHandle")), "null") == 0) {
		memset(r, 0, sizeof *r);
		r->outcome = (np_outcome){ NP_RESULT_STATUS, NP_STATUS_ACCESS_VIOLATION };
		np_record_out(r, "ProfileHandle", "-");
		return;
	}
	m->step(m, st, r);
}

static void planted_end(np_backend *b)
{
	np_backend *m = ((planted *)b->state)->model;
	m->end(m);
}

static void planted_destroy(np_backend *b)
{
	(void)b;
}

typedef struct fx {
	np_backend *model;
	planted bug;
	np_xresults *m, *b;
	np_xspace sp;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	f->model = np_backend_model_new();
	f->bug.model = np_backend_model_new();
	f->bug.self = (np_backend){ .name = "planted", .begin = planted_begin, .step = planted_step,
				    .end = planted_end, .destroy = planted_destroy, .state = &f->bug };
	f->m = malloc(sizeof *f->m);
	f->b = malloc(sizeof *f->b);
	if (!f->model || !f->bug.model || !f->m || !f->b ||
	    !np_xspace_init(&f->sp, np_function_find("NtCreateProfile")))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	f->model->destroy(f->model);
	f->bug.model->destroy(f->bug.model);
	free(f->m);
	free(f->b);
	free(f);
	return 0;
}

/* A point at the plain defaults, then each "Name=Value" of changes. */
static np_xpoint point(const np_xspace *sp, const char *const *changes)
{
	np_xpoint p = { .sp = sp };
	for (unsigned i = 0; i < sp->nd; i++)
		snprintf(p.val[i], sizeof p.val[i], "%s", sp->d[i].b[0].text);
	for (unsigned c = 0; changes[c]; c++) {
		size_t n = strcspn(changes[c], "=");
		bool found = false;
		for (unsigned i = 0; i < sp->nd && !found; i++)
			if (strlen(sp->d[i].name) == n && strncmp(sp->d[i].name, changes[c], n) == 0) {
				snprintf(p.val[i], sizeof p.val[i], "%s", changes[c] + n + 1);
				found = true;
			}
		assert_true(found);
	}
	return p;
}

/* Five arguments off their defaults; only ProfileHandle=null and
 * BucketSize=0 together make the model (CP-7 first) and the planted probe
 * disagree in the same way: the others are reset, those two stay. */
static void test_explore_minimise_keeps_what_the_divergence_needs(void **state)
{
	fx *f = *state;
	static const char *const changes[] = {
		"ProfileHandle=null", "Process=thread", "BucketSize=0", "BufferSize=7", "cpus=2", NULL,
	};
	np_xpoint p = point(&f->sp, changes);
	np_target t = { NP_V1809, NP_X64 };
	unsigned long ev = np_xminimise(f->model, &f->bug.self, &p, t, f->m, f->b);
	char text[400];
	np_xpoint_describe(&p, text, sizeof text);
	assert_string_equal(text, "ProfileHandle=null BucketSize=0");
	assert_int_equal(ev, 2 * (1 + 5));   /* the divergence, then one try per changed axis */
}

/* No divergence: nothing to minimise, the point stays as it was. */
static void test_explore_minimise_leaves_an_agreeing_point(void **state)
{
	fx *f = *state;
	static const char *const changes[] = { "Process=thread", "BucketSize=0", NULL };
	np_xpoint p = point(&f->sp, changes), before = p;
	np_target t = { NP_V1809, NP_X64 };
	np_xminimise(f->model, &f->bug.self, &p, t, f->m, f->b);
	assert_memory_equal(&p, &before, sizeof p);
}

/* ---- the sweep ---- */

static char *explore(np_backend *model, np_backend *against, uint64_t seed, unsigned long budget,
		     np_explore_stats *st)
{
	static np_explore_options o;
	memset(&o, 0, sizeof o);
	o.function[o.nfunction++] = "NtCreateProfile";
	o.function[o.nfunction++] = "NtSetIntervalProfile";
	assert_null(np_targets_add(&o.targets, "1607/x64"));
	assert_null(np_targets_add(&o.targets, "1703/x64"));
	o.seed = seed;
	o.budget = budget;
	o.against = against;
	o.against_name = against ? against->name : NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_true(np_explore(out, model, &o, st));
	fclose(out);
	return text;
}

/* The same seed gives the same report; another seed another order, so
 * with a budget below the default sweep another report. */
static void test_explore_deterministic_for_a_seed(void **state)
{
	fx *f = *state;
	np_explore_stats st;
	char *a = explore(f->model, NULL, 5, 150, &st);
	char *b = explore(f->model, NULL, 5, 150, &st);
	char *c = explore(f->model, NULL, 6, 150, &st);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	free(a);
	free(b);
	free(c);
}

/* --budget N: N combinations per function. */
static void test_explore_budget_per_function(void **state)
{
	fx *f = *state;
	np_explore_stats st;
	free(explore(f->model, NULL, 1, 37, &st));
	assert_int_equal(st.combinations, 2 * 37);
	assert_true(st.evaluations >= 2 * 37 * 2);   /* each on two targets, then the report's own runs */
}

/* Between versions the capacity test changes (CP-8 to CP-9 at 1703) and
 * the explorer says so, citing the predicate that turns. */
/* rules: CP-8 CP-9 */
static void test_explore_reports_the_1703_capacity_change(void **state)
{
	fx *f = *state;
	np_explore_stats st;
	char *text = explore(f->model, NULL, 1, 0, &st);
	assert_non_null(strstr(text, "NtCreateProfile: STATUS_SUCCESS on 1607, STATUS_BUFFER_TOO_SMALL from 1703"));
	assert_non_null(strstr(text, "np_capacity_check_fixed (CP-8 CP-9) turns true"));
	assert_non_null(strstr(text, "  rules   CP-8 CP-9\n"));
	assert_true(st.classes > 0);
	free(text);
}

/* The vectors explore writes cite the rules that decided in the model's
 * runs: sub-class 0x0D of class 0x1F turns on 6.2 by SY-22's table (its
 * STATUS_NOT_IMPLEMENTED) and SY-24 (what it answers from 6.2), not by the
 * class-0x81 rule SY-6 that turns at the same version. */
/* rules: SY-22 SY-24 */
static void test_explore_cites_the_deciding_rules(void **state)
{
	(void)state;
	static np_explore_options o;
	memset(&o, 0, sizeof o);
	o.function[o.nfunction++] = "NtQuerySystemInformation";
	assert_null(np_targets_add(&o.targets, "6.1/x86"));
	assert_null(np_targets_add(&o.targets, "6.2/x86"));
	o.seed = 1;
	np_backend *model = np_backend_model_new();
	assert_non_null(model);
	np_explore_stats st;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_true(np_explore(out, model, &o, &st));
	fclose(out);
	const char *c = strstr(text, "EventTraceClass=0x0D");
	assert_non_null(c);
	assert_non_null(strstr(text, "STATUS_NOT_IMPLEMENTED: decided by SY-22"));
	unsigned vectors = 0;
	for (const char *r = strstr(text, "\n  rules   "); r; r = strstr(r + 1, "\n  rules   ")) {
		assert_true(strncmp(r, "\n  rules   SY-22 SY-24\n", strlen("\n  rules   SY-22 SY-24\n")) == 0);
		vectors++;
	}
	assert_true(vectors >= 1);
	assert_null(strstr(text, "SY-6"));
	assert_null(strstr(text, "SY-8"));
	free(text);
	model->destroy(model);
}

/* The model judged by itself: nothing. */
static void test_explore_model_against_itself_finds_nothing(void **state)
{
	fx *f = *state;
	np_explore_stats st;
	np_backend *again = np_backend_model_new();
	assert_non_null(again);
	char *text = explore(f->model, again, 1, 0, &st);
	assert_int_equal(st.classes, 0);
	assert_int_equal(st.divergences, 0);
	assert_non_null(strstr(text, "# 0 kinds of divergence from"));
	free(text);
	again->destroy(again);
}

/* The planted bug is found and minimised to its two arguments. */
static void test_explore_finds_the_planted_bug(void **state)
{
	fx *f = *state;
	np_explore_stats st;
	char *text = explore(f->model, &f->bug.self, 1, 0, &st);
	assert_true(st.classes >= 1);
	const char *hit = strstr(text, "planted gives STATUS_ACCESS_VIOLATION, the model STATUS_INVALID_PARAMETER;");
	assert_non_null(hit);
	const char *min = strstr(hit, "\n# minimised to: ");
	assert_non_null(min);
	min += strlen("\n# minimised to: ");
	size_t n = strcspn(min, "\n"), eq = 0;
	for (size_t i = 0; i < n; i++)
		eq += min[i] == '=';
	assert_int_equal(eq, 2);   /* two arguments: the bad pointer and one bad value before the probe */
	assert_int_equal(strncmp(min, "ProfileHandle=null ", 19), 0);
	assert_null(strstr(text, "NtSetIntervalProfile on"));   /* the other function agrees */
	free(text);
}

static const char *refuse_all(np_backend *b, np_target t, const np_vector *v)
{
	(void)b, (void)t, (void)v;
	return "this backend runs nothing";
}

/* A target the judged backend skips (as a live system skips a predicted
 * bug check) is not run there: no divergence comes of it. */
static void test_explore_skipped_targets_are_not_run(void **state)
{
	fx *f = *state;
	np_explore_stats st;
	f->bug.self.skip = refuse_all;
	char *text = explore(f->model, &f->bug.self, 1, 200, &st);
	f->bug.self.skip = NULL;
	assert_int_equal(st.classes, 0);
	assert_int_equal(st.divergences, 0);
	assert_null(strstr(text, "planted gives"));
	free(text);
}

/* Every sequence of the table makes a space: its explored call's axes less
 * the fixed argument, its later steps parsed; a point's vector holds every
 * step, and an argument written Name=$Axis takes the point's value. The
 * twin: another value on the axis shows in the later step. */
static void test_explore_sequences_make_vectors(void **state)
{
	(void)state;
	unsigned n;
	const np_xsequence *q = np_xsequences(&n);
	assert_true(n >= 3);
	static np_xspace sp;
	static np_vector v;
	static np_step steps[NP_X_MAX_STEPS];
	for (unsigned i = 0; i < n; i++) {
		if (!np_xspace_init_sequence(&sp, &q[i]))
			fail_msg("sequence %s: a defect of the table", q[i].name);
		np_xcombo c;
		memset(&c, 0, sizeof c);
		np_xpoint p;
		assert_true(np_xpoint_resolve(&sp, &c, &p));
		np_xpoint_vector(&p, &v, steps);
		unsigned after = 0;
		while (q[i].after[after])
			after++;
		assert_int_equal(v.nstep, sp.nprelude + 1 + after);
		assert_string_equal(v.step[sp.nprelude].function, q[i].function);
		char id[NP_TEXT_MAX], want[NP_TEXT_MAX];
		np_xvector_id(&p, id, sizeof id);
		snprintf(want, sizeof want, "explore/%s-", q[i].name);
		assert_memory_equal(id, want, strlen(want));
		if (q[i].fixed)
			for (unsigned d = 0; d < sp.nd; d++)
				assert_true(strncmp(q[i].fixed, sp.d[d].name, strlen(sp.d[d].name)) != 0 ||
					    q[i].fixed[strlen(sp.d[d].name)] != '=');
	}
	/* set-query: the query reads the Source the set was given */
	assert_true(np_xspace_init_sequence(&sp, &q[0]));
	assert_string_equal(q[0].name, "set-query");
	np_xcombo c;
	memset(&c, 0, sizeof c);
	int source = -1;
	for (unsigned d = 0; d < sp.nd; d++)
		if (strcmp(sp.d[d].name, "Source") == 0)
			source = (int)d;
	assert_true(source >= 0 && sp.d[source].n > 1);
	c.idx[source] = 1;
	np_xpoint p;
	assert_true(np_xpoint_resolve(&sp, &c, &p));
	np_xpoint_vector(&p, &v, steps);
	assert_string_equal(v.step[1].arg[0].name, "Source");
	assert_string_equal(v.step[1].arg[0].value, sp.d[source].b[1].text);
	assert_true(strcmp(sp.d[source].b[1].text, sp.d[source].b[0].text) != 0);
	np_xpoint single;
	np_xspace alone;
	assert_true(np_xspace_init(&alone, np_function_find("NtSetIntervalProfile")));
	assert_true(np_xpoint_resolve(&alone, &c, &single));
	assert_true(np_xpoint_hash(&single) != np_xpoint_hash(&p));   /* a sequence is another vector */
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_explore_table_covers_the_catalog),
	cmocka_unit_test(test_explore_sequences_make_vectors),
	cmocka_unit_test(test_explore_table_cites_spec_rules),
	cmocka_unit_test(test_explore_predicates_turn),
	T(test_explore_minimise_keeps_what_the_divergence_needs),
	T(test_explore_minimise_leaves_an_agreeing_point),
	T(test_explore_deterministic_for_a_seed),
	T(test_explore_budget_per_function),
	T(test_explore_reports_the_1703_capacity_change),
	T(test_explore_model_against_itself_finds_nothing),
	T(test_explore_cites_the_deciding_rules),
	T(test_explore_finds_the_planted_bug),
	T(test_explore_skipped_targets_are_not_run),
};
#undef T

NP_TEST_MAIN(tests)
