/* SPDX-License-Identifier: MIT */
/* The explorer's report: each class with why it is one (the version
 * predicates that turn, the rules of the order of checks behind its
 * outcomes) and its representative as a ready-to-paste vector. */
#include <stdlib.h>
#include <string.h>

#include "explore/explore_report.h"
#include "ntprof/names.h"
#include "ntprof/calls.h"
#include "ntprof/target_ranges.h"
#include "ntprof/version_predicates.h"

/* Appends id to a space-separated list unless it is there already. */
static void add_rule(char *list, size_t cap, const char *id)
{
	if (!id)
		return;
	size_t n = strlen(id);
	for (const char *h = list; *h;) {
		size_t m = strcspn(h, " ");
		if (m == n && strncmp(h, id, n) == 0)
			return;
		h += m;
		while (*h == ' ')
			h++;
	}
	if (strlen(list) + n + 2 < cap)
		snprintf(list + strlen(list), cap - strlen(list), "%s%s", list[0] ? " " : "", id);
}

/* The first architecture of a set (1u << np_arch). */
static np_arch first_arch(unsigned archs)
{
	for (int a = 0; a < NP_ARCH_COUNT; a++)
		if (archs & (1u << a))
			return (np_arch)a;
	return NP_X64;
}

/* The rules a version difference rests on, all from the model's records of
 * the step: the version predicates (ntprof/predicates.h) that turn between
 * the two versions and state a rule the model applied there, then the
 * rules that decided the two outcomes. */
static void version_rules(const vclass *vc, np_machine *pm, char *rules, size_t cap, char *why,
			  size_t wcap)
{
	unsigned np;
	const np_predicate *pr = np_predicate_table(&np);
	size_t used = 0;
	why[0] = rules[0] = '\0';
	pm->arch = first_arch(vc->archs);
	for (unsigned i = 0; i < np; i++) {
		char applied[NP_TEXT_MAX] = "";
		for (unsigned k = 0; k < NP_PREDICATE_MAX_RULES && pr[i].rules[k] != NP_RULE_NONE; k++)
			if (np_xrules_has(&vc->applied, pr[i].rules[k]))
				add_rule(applied, sizeof applied, np_rule_id(pr[i].rules[k]));
		if (!applied[0])
			continue;
		pm->version = vc->before;
		bool a = pr[i].holds(pm);
		pm->version = vc->after;
		if (a == pr[i].holds(pm))
			continue;
		used += (size_t)snprintf(why + used, wcap - used, "%s%s (%s) turns %s", used ? "; " : "",
					 pr[i].name, applied, a ? "false" : "true");
		for (const char *c = applied; *c;) {
			char word[NP_NAME_MAX];
			size_t n = strcspn(c, " ");
			snprintf(word, sizeof word, "%.*s", (int)n, c);
			add_rule(rules, cap, word);
			c += n + (c[n] == ' ');
		}
	}
	if (used == 0)
		used += (size_t)snprintf(why, wcap, "no version predicate of ntprof/predicates.h turns here");
	const char *r1 = np_rule_id(vc->from_rule), *r2 = np_rule_id(vc->to_rule);
	char o1[64], o2[64];
	np_xoutcome_text(&vc->from, o1, sizeof o1);
	np_xoutcome_text(&vc->to, o2, sizeof o2);
	snprintf(why + used, wcap - used, "; %s: decided by %s; %s: decided by %s", o1, r1 ? r1 : "no rule",
		 o2, r2 ? r2 : "no rule");
	/* predicates that state a deciding rule explain the change best: then
	 * their rules alone; else theirs and the deciding ones */
	bool named = false;
	for (const char *c = rules; *c && !named;) {
		size_t n = strcspn(c, " ");
		named = (r1 && strlen(r1) == n && strncmp(c, r1, n) == 0) ||
			(r2 && strlen(r2) == n && strncmp(c, r2, n) == 0);
		c += n + (c[n] == ' ');
	}
	if (!named) {
		add_rule(rules, cap, r1);
		add_rule(rules, cap, r2);
	}
}

/* Drops repeated words; keeps at most max. Never empty: the function's
 * signature rule, as the model's export table names it. */
static void unique_words(const np_function *f, char *text, unsigned max)
{
	char out[NP_TEXT_MAX * 2] = "";
	unsigned n = 0;
	for (char *save = NULL, *w = strtok_r(text, " ", &save); w && n < max; w = strtok_r(NULL, " ", &save)) {
		size_t before = strlen(out);
		add_rule(out, sizeof out, w);
		n += strlen(out) != before;
	}
	if (n == 0) {
		const char *sig = np_rule_id(np_export_applied(f->name).rule);
		snprintf(out, sizeof out, "%s", sig ? sig : "");
	}
	strcpy(text, out);
}

static int function_rank(const np_function *f)
{
	for (unsigned i = 0; np_function_at(i); i++)
		if (np_function_at(i) == f)
			return (int)i;
	return -1;
}

static int vclass_order(const void *a, const void *b)
{
	const vclass *x = a, *y = b;
	int d = function_rank(x->f) - function_rank(y->f);
	if (d)
		return d;
	if (x->after != y->after)
		return (int)x->after - (int)y->after;
	if (x->before != y->before)
		return (int)x->before - (int)y->before;
	char s[4][64];
	np_xoutcome_text(&x->from, s[0], 64);
	np_xoutcome_text(&y->from, s[1], 64);
	if ((d = strcmp(s[0], s[1])))
		return d;
	np_xoutcome_text(&x->to, s[2], 64);
	np_xoutcome_text(&y->to, s[3], 64);
	return strcmp(s[2], s[3]);
}

static int dclass_order(const void *a, const void *b)
{
	const dclass *x = a, *y = b;
	int d = function_rank(x->f) - function_rank(y->f);
	if (d)
		return d;
	char s[4][64];
	np_xoutcome_text(&x->model, s[0], 64);
	np_xoutcome_text(&y->model, s[1], 64);
	if ((d = strcmp(s[0], s[1])))
		return d;
	np_xoutcome_text(&x->got, s[2], 64);
	np_xoutcome_text(&y->got, s[3], 64);
	if ((d = strcmp(s[2], s[3])))
		return d;
	return (int)x->outputs - (int)y->outputs;
}

static void arch_names(unsigned mask, char *buf, size_t cap)
{
	size_t used = 0;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		if (mask & (1u << a))
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? ", " : "",
						 np_arch_name((np_arch)a));
}

/* One vector per combination: a representative of two classes is written
 * once (IDs are unique in a file). printed[c] notes class c's. */
static bool shown_above(uint64_t *printed, size_t c, const np_xpoint *p)
{
	uint64_t h = np_xpoint_hash(p);
	bool again = false;
	for (size_t k = 0; k < c && !again; k++)
		again = printed[k] == h;
	printed[c] = h;
	return again;
}

bool np_xreport_versions(explorer *x, FILE *out)
{
	np_machine *pm = malloc(sizeof *pm);
	if (!pm)
		return false;
	np_machine_init(pm, NP_V1703, NP_X64);   /* default knobs for the predicates */
	if (x->nc)   /* qsort must not be given NULL, even for no element */
		qsort(x->vc, x->nc, sizeof *x->vc, vclass_order);
	uint64_t *printed = calloc(x->nc + 1, sizeof *printed);
	if (!printed) {
		np_machine_fini(pm);
		free(pm);
		return false;
	}
	for (size_t c = 0; c < x->nc; c++) {
		vclass *vc = &x->vc[c];
		char o1[64], o2[64], archs[64], rules[NP_TEXT_MAX * 2], why[NP_TEXT_MAX * 4];
		char title[NP_TEXT_MAX * 2], source[NP_TEXT_MAX], id[NP_TEXT_MAX], args[NP_TEXT_MAX * 4];
		np_xoutcome_text(&vc->from, o1, sizeof o1);
		np_xoutcome_text(&vc->to, o2, sizeof o2);
		arch_names(vc->archs, archs, sizeof archs);
		version_rules(vc, pm, rules, sizeof rules, why, sizeof why);
		unique_words(vc->f, rules, NP_MAX_RULES);
		np_xpoint_describe(&vc->rep, args, sizeof args);
		np_xvector_id(&vc->rep, id, sizeof id);
		/* with --targets, the versions between two explored ones were not run */
		bool adjacent = vc->after == vc->before + 1;
		fprintf(out, "# [%zu] %s: %s on %s, %s %s %s (%s); %lu combination%s\n", c + 1,
			vc->f->name, o1, np_version_key(vc->before), o2, adjacent ? "from" : "on",
			np_version_key(vc->after), archs, vc->count, vc->count == 1 ? "" : "s");
		fprintf(out, "# why: %s\n# shown by: %s\n", why, args);
		if (shown_above(printed, c, &vc->rep)) {
			fprintf(out, "# (vector %s above)\n\n", id);
			continue;
		}
		snprintf(title, sizeof title, "%s: %s on %s, %s %s %s (ntprof explore)", vc->f->name, o1,
			 np_version_key(vc->before), o2, adjacent ? "from" : "on", np_version_key(vc->after));
		snprintf(source, sizeof source, "derived from the model by ntprof explore --seed %llu",
			 (unsigned long long)x->o->seed);
		if (!np_xvector_write(out, x->model, &vc->rep, title, rules, "boundary inferred", source,
				      x->work, &x->st->evaluations))
			fprintf(out, "# (no target takes this combination's state)\n\n");
	}
	free(printed);
	np_machine_fini(pm);
	free(pm);
	return true;
}

/* Where rep diverges: version ranges per architecture over the run targets;
 * and in crashed, how the first crashed divergence ended ("" for none). */
static void divergent_targets(explorer *x, const np_xpoint *p, char *buf, size_t cap, char *crashed,
			      size_t ccap)
{
	crashed[0] = '\0';
	np_xpoint_vector(p, &x->v, x->steps);
	x->st->evaluations += np_xevaluate(x->model, &x->v, &x->run, x->work);
	x->st->evaluations += np_xevaluate(x->against, &x->v, &x->run, x->bres);
	np_target_grid in = { .at = { { false } } }, ran = in;
	for (unsigned k = 0; k < x->run.count; k++) {
		np_target t = x->run.t[k];
		ran.at[t.version][t.arch] = true;
		int step = np_xdiverges(x->work, x->bres, k).step;
		if (step < 0)
			continue;
		in.at[t.version][t.arch] = true;
		const np_record *got = &x->bres->rec[k][step];
		if (!crashed[0] && got->outcome.kind == NP_RESULT_CRASHED && got->why[0])
			snprintf(crashed, ccap, "%s", got->why);
	}
	np_target_ranges(&in, &ran, buf, cap);
	if (!buf[0])
		snprintf(buf, cap, "nowhere now");
}

bool np_xreport_divergences(explorer *x, FILE *out)
{
	if (x->nc)
		qsort(x->dc, x->nc, sizeof *x->dc, dclass_order);
	const char *who = x->against->name;
	uint64_t *printed = calloc(x->nc + 1, sizeof *printed);
	if (!printed)
		return false;
	for (size_t c = 0; c < x->nc; c++) {
		dclass *dc = &x->dc[c];
		char o1[64], o2[64], args[NP_TEXT_MAX * 4], where[NP_TEXT_MAX * 4], id[NP_TEXT_MAX];
		char rules[NP_TEXT_MAX * 2], title[NP_TEXT_MAX * 2], source[NP_TEXT_MAX * 2];
		char crashed[NP_TEXT_MAX];
		np_xoutcome_text(&dc->model, o1, sizeof o1);
		np_xoutcome_text(&dc->got, o2, sizeof o2);
		np_xpoint_describe(&dc->rep, args, sizeof args);
		divergent_targets(x, &dc->rep, where, sizeof where, crashed, sizeof crashed);
		fprintf(out, "# [%zu] %s on %s/%s: %s gives %s%s, the model %s; %lu divergent combination%s\n",
			c + 1, dc->f->name, np_version_key(dc->where.version), np_arch_name(dc->where.arch),
			who, o2, dc->outputs ? " with other out-values" : "", o1, dc->count,
			dc->count == 1 ? "" : "s");
		if (dc->rep.sp->sequence)   /* the later steps are the sequence's, as written */
			snprintf(args + strlen(args), sizeof args - strlen(args), " (sequence %s)", dc->rep.sp->sequence);
		fprintf(out, "# minimised to: %s\n# %s diverges with it on: %s\n", args, who, where);
		if (crashed[0])   /* the isolation ended it: how */
			fprintf(out, "# crashed: %s\n", crashed);
		if (shown_above(printed, c, &dc->rep)) {
			np_xvector_id(&dc->rep, id, sizeof id);
			fprintf(out, "# (vector %s above)\n\n", id);
			continue;
		}
		const char *decided = np_rule_id(dc->rule);
		snprintf(rules, sizeof rules, "%s", decided ? decided : "");
		for (unsigned i = 0; i < dc->rep.sp->nd; i++) {
			if (np_xpoint_plain(&dc->rep, i))
				continue;
			for (unsigned b = 0; b < dc->rep.sp->d[i].n; b++) {   /* the edge's own rules */
				const np_xbound *xb = &dc->rep.sp->d[i].b[b];
				np_xpoint probe = dc->rep;
				if (xb->derive == NP_XD_TEXT ? strcmp(xb->text, dc->rep.val[i]) == 0
							     : np_xpoint_derive(&probe, i, xb) &&
							       strcmp(probe.val[i], dc->rep.val[i]) == 0) {
					snprintf(rules + strlen(rules), sizeof rules - strlen(rules), " %s", xb->rules);
					break;
				}
			}
		}
		unique_words(dc->f, rules, NP_MAX_RULES);
		snprintf(title, sizeof title, "%s: %s where %s gives %s (ntprof explore)", dc->f->name, o1,
			 who, o2);
		snprintf(source, sizeof source, "derived from the model by ntprof explore --seed %llu (a divergence of %s)",
			 (unsigned long long)x->o->seed, who);
		if (!np_xvector_write(out, x->model, &dc->rep, title, rules, "boundary inferred", source,
				      x->work, &x->st->evaluations))
			fprintf(out, "# (no target takes this combination's state)\n\n");
	}
	free(printed);
	return true;
}
