/* SPDX-License-Identifier: MIT */
/* Which vectors become tests (export.h). A vector is left out, with a
 * comment in the file saying why, when a real system cannot take it (flag
 * model-only or not-live, or a `given` a test cannot set up), when it may harm the
 * system on any version (as `ntprof.exe live` decides it, run/
 * safety.h), or when a step is one the export cannot write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "ntprof/status.h"
#include "run/safety.h"
#include "vectors/catalog.h"

static bool function_supported(np_function_id id)
{
	switch (id) {
	case NP_FN_SET_INTERVAL:
	case NP_FN_QUERY_INTERVAL:
	case NP_FN_TRACE_SET:
	case NP_FN_TRACE_QUERY:
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX:
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:
	case NP_FN_CLOSE:
	case NP_FN_DUPLICATE_OBJECT:
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:
		return true;
	default:
		return false;
	}
}

bool np_export_step_supported(const np_step *st)
{
	if (!st->catalog || !function_supported(st->catalog->id))
		return false;
	for (unsigned i = 0; i < NP_MAX_PARAMS && st->catalog->param[i].name; i++) {
		const np_arg *a = np_step_value(st, st->catalog->param[i].name);
		if (a && a->kind == NP_PARAM_POINTER && a->pointer.symbol == NP_PTR_VANISHING)
			return false;   /* memory that vanishes once probed: the model only */
	}
	np_export_out_kind kind;
	for (unsigned e = 0; e < st->nexpect; e++)
		for (unsigned i = 0; i < st->expect[e].nout; i++)
			if (!np_export_out_expr(st, st->expect[e].out[i].name, &kind))
				return false;
	return true;
}

static bool names_function(const np_export_options *o, const np_step *st)
{
	for (unsigned i = 0; i < o->nfunction; i++) {
		const np_function *f = np_function_find(o->function[i]);
		if (f && st->catalog && f->id == st->catalog->id)
			return true;
	}
	return false;
}

bool np_export_chosen(const np_vector *v, const np_export_options *o)
{
	if (o->only) {
		bool listed = false;
		for (unsigned i = 0; i < o->nonly && !listed; i++)
			listed = strcmp(o->only[i], v->id) == 0;
		if (!listed)
			return false;
	}
	if (o->nfunction == 0)
		return true;
	for (unsigned s = 0; s < v->nstep; s++)
		if (names_function(o, &v->step[s]))
			return true;
	return false;
}

/* The `given` pairs a test takes: the privilege (set by the test), and the
 * state every real caller is in. */
static bool given_supported(const np_pair *g)
{
	if (strcmp(g->name, "privilege") == 0)
		return true;
	/* tracing, even off, is refused: whether a system traces profile events
	 * cannot be probed (as the live side refuses it) */
	return (strcmp(g->name, "mode") == 0 && strcmp(g->value, "user") == 0) ||
	       (strcmp(g->name, "alloc") == 0 && strcmp(g->value, "ok") == 0);
}

/* Hazardous on some target, of any version: as the live side judges it. */
static const char *hazard(const np_vector *v, np_backend *model, char *why, size_t cap)
{
	for (unsigned ver = 0; ver < NP_VERSION_COUNT; ver++)
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
			np_target t = { (np_ver)ver, (np_arch)a };
			char text[NP_TEXT_MAX * 2];
			if (!np_arch_exists(t.version, t.arch) || !np_applies(&v->applies, t.version, t.arch))
				continue;
			if (np_vector_hazard(v, t, model, text, sizeof text)) {
				snprintf(why, cap, "on %s/%s, %s", np_version_key(t.version), np_arch_name(t.arch),
					 text);
				return why;
			}
		}
	return NULL;
}

const char *np_export_left_out(const np_vector *v, const np_export_options *o, np_backend *model,
			       char *why, size_t cap)
{
	if (np_vector_has_flag(v, "model-only")) {
		snprintf(why, cap, "model-only: no implementation can be asked it");
		return why;
	}
	if (np_vector_has_flag(v, "not-live")) {
		snprintf(why, cap, "not-live: it needs state a live system cannot take");
		return why;
	}
	for (unsigned i = 0; i < v->ngiven; i++)
		if (!given_supported(&v->given[i])) {
			snprintf(why, cap, "it needs `given %s=%s`, which a test cannot set up", v->given[i].name,
				 v->given[i].value);
			return why;
		}
	if (!o->hal_dependent && np_vector_uses_hal(v)) {
		snprintf(why, cap, "its outcome depends on the HAL's profile sources, which differ between "
			 "machines (--hal-dependent keeps it, with the model's default HAL)");
		return why;
	}
	for (unsigned s = 0; s < v->nstep; s++)
		if (!np_export_step_supported(&v->step[s])) {
			snprintf(why, cap, "step %u (%s) is not one the export writes yet", s + 1,
				 v->step[s].function);
			return why;
		}
	return hazard(v, model, why, cap);
}

/* A known list's entries were judged against one Windows's expectations:
 * the live run that wrote it says which in its `# env version:` line. */
bool np_export_known_for(const char *path, np_ver *out, char *why, size_t cap)
{
	static const char tag[] = "# env version:";
	char line[512];
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, cap, "%s: cannot be read", path);
		return false;
	}
	for (int n = 1; fgets(line, sizeof line, f); n++) {
		char version[64];
		if (strncmp(line, tag, sizeof tag - 1) != 0)
			continue;
		fclose(f);
		if (sscanf(line + sizeof tag - 1, "%63s", version) == 1 && np_version_parse(version, out))
			return true;
		snprintf(why, cap, "%s:%d: `# env version:` names no version `ntprof versions` knows", path, n);
		return false;
	}
	fclose(f);
	snprintf(why, cap, "%s: no line `# env version: VERSION` saying which Windows the list's expectations "
		 "are for (a live run's --known-write writes it)", path);
	return false;
}

/* ---- --upstream: the few vectors that cover each function's main rules ----
 * A function's main rules are those SPEC.md's "Order of checks" lists for
 * it: the checks that decide what the call returns. A vector covers the
 * pair (function, rule) when a step calls the function and the vector
 * lists the rule, and the pair (function, status) when such a step gives
 * the status (or Win32 error) on the newest Windows, which the test's ok()
 * checks, for a caller width the test has. The selection covers every pair
 * that some vector the export can write covers, with as few vectors as a
 * greedy cover finds: vectors whose results hold on every machine first
 * (no processor guard), then, for pairs only the others cover, those;
 * among equals the vector covering the most pairs not yet covered, then
 * the one of fewer steps, then the first in the files. Nothing is listed
 * by hand. */

#define UPSTREAM_MAX_BLOCKS 16
#define UPSTREAM_MAX_RULES  48

typedef struct order_block {
	np_function_id fn[4];
	unsigned nfn;
	char rule[UPSTREAM_MAX_RULES][16];
	unsigned nrule;
} order_block;

typedef struct order_of_checks {
	order_block b[UPSTREAM_MAX_BLOCKS];
	unsigned n;
} order_of_checks;

/* A rule ID: two capitals, a hyphen, digits, perhaps one small letter. */
static bool is_rule_id(const char *w, size_t len)
{
	if (len < 4 || len > 8 || w[0] < 'A' || w[0] > 'Z' || w[1] < 'A' || w[1] > 'Z' || w[2] != '-')
		return false;
	size_t i = 3;
	while (i < len && w[i] >= '0' && w[i] <= '9')
		i++;
	return i > 3 && (i == len || (i + 1 == len && w[i] >= 'a' && w[i] <= 'z'));
}

static bool word_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/* The words of a block's heading that name a call of the catalog. */
static void heading_functions(order_block *b, const char *heading, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && word_char(heading[j]))
			j++;
		char word[NP_NAME_MAX];
		if (j > i && j - i < sizeof word) {
			memcpy(word, heading + i, j - i);
			word[j - i] = '\0';
			const np_function *f = np_function_find(word);
			if (f && np_function_is_call(f) && b->nfn < 4)
				b->fn[b->nfn++] = f->id;
		}
		i = j > i ? j : i + 1;
	}
}

static void line_rules(order_block *b, const char *line)
{
	for (size_t i = 0, len = strlen(line); i < len;) {
		size_t j = i;
		while (j < len && word_char(line[j]))
			j++;
		bool known = false;
		for (unsigned k = 0; k < b->nrule && j > i; k++)
			known = known || (strlen(b->rule[k]) == j - i && strncmp(b->rule[k], line + i, j - i) == 0);
		if (j > i && !known && is_rule_id(line + i, j - i) && b->nrule < UPSTREAM_MAX_RULES) {
			memcpy(b->rule[b->nrule], line + i, j - i);
			b->rule[b->nrule++][j - i] = '\0';
		}
		i = j > i ? j : i + 1;
	}
}

/* Reads the "## Order of checks" section of SPEC.md: a block per bold
 * heading ("**NtStartProfile**"), with the rule IDs up to the next one. */
static bool read_order(const char *spec, order_of_checks *order, char *why, size_t cap)
{
	char line[1024];
	bool in = false;
	FILE *f = fopen(spec, "r");
	if (!f) {
		snprintf(why, cap, "%s: cannot be read (--upstream takes each function's main rules from its "
			 "\"Order of checks\")", spec);
		return false;
	}
	order->n = 0;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "## ", 3) == 0) {
			if (in)
				break;
			in = strncmp(line, "## Order of checks", 18) == 0;
			continue;
		}
		const char *end = strncmp(line, "**", 2) == 0 ? strstr(line + 2, "**") : NULL;
		if (in && end && order->n < UPSTREAM_MAX_BLOCKS) {
			order_block *b = &order->b[order->n++];
			memset(b, 0, sizeof *b);
			heading_functions(b, line + 2, (size_t)(end - line - 2));
		}
		if (in && order->n)
			line_rules(&order->b[order->n - 1], line);
	}
	fclose(f);
	if (order->n == 0)
		snprintf(why, cap, "%s: no \"## Order of checks\" section with a bold heading per function", spec);
	return order->n > 0;
}

#define UPSTREAM_MAX_PAIRS 256

/* The (function, main rule) pairs of a selection, and which vector covers which. */
typedef struct upstream_cover {
	np_function_id fn[UPSTREAM_MAX_PAIRS];
	const char *rule[UPSTREAM_MAX_PAIRS];
	unsigned npair;
	bool *covers;        /* [vector][pair]: set->count rows */
	unsigned char *tier; /* per vector: 0 the same on every machine, 1 not, 2 no test */
} upstream_cover;

static bool in_block(const order_block *b, np_function_id fn, const char *rule)
{
	bool has_fn = false;
	for (unsigned i = 0; i < b->nfn; i++)
		has_fn = has_fn || b->fn[i] == fn;
	for (unsigned i = 0; has_fn && i < b->nrule; i++)
		if (strcmp(b->rule[i], rule) == 0)
			return true;
	return false;
}

static void cover_pair(upstream_cover *c, unsigned row, np_function_id fn, const char *rule)
{
	unsigned p = 0;
	while (p < c->npair && !(c->fn[p] == fn && strcmp(c->rule[p], rule) == 0))
		p++;
	if (p == c->npair && c->npair < UPSTREAM_MAX_PAIRS) {
		c->fn[p] = fn;
		c->rule[p] = rule;
		c->npair++;
	}
	if (p < c->npair)
		c->covers[(size_t)row * UPSTREAM_MAX_PAIRS + p] = true;
}

/* 0: the export writes v and it holds on every machine; 1: it holds on
 * some (a processor guard); 2: the export cannot write it. */
static unsigned char vector_tier(const np_vector *v, const np_export_options *o, np_backend *model,
				 np_export_plan plan[2])
{
	char why[NP_TEXT_MAX * 2];
	if (!np_export_chosen(v, o) || np_vector_has_flag(v, "hazardous") ||
	    np_export_left_out(v, o, model, why, sizeof why))
		return 2;
	np_export_plan_width(model, v, o->since, true, &plan[0]);
	np_export_plan_width(model, v, o->since, false, &plan[1]);
	if (!plan[0].usable && !plan[1].usable)
		return 2;
	for (unsigned w = 0; w < 2; w++)
		for (unsigned i = 0; plan[w].usable && i < NP_EXPORT_PROBES; i++)
			if (!plan[w].fits[i])
				return 1;
	return 0;
}

static bool has_block(const order_of_checks *order, np_function_id fn)
{
	for (unsigned b = 0; b < order->n; b++)
		for (unsigned i = 0; i < order->b[b].nfn; i++)
			if (order->b[b].fn[i] == fn)
				return true;
	return false;
}

/* The pairs of v: its rules in the blocks of the functions it calls, and
 * each status or error those calls return on the newest Windows (the ok()
 * of the test), for each caller width the test has. */
static void vector_pairs(upstream_cover *c, unsigned row, const np_vector *v, const order_of_checks *order,
			 const np_export_plan plan[2])
{
	for (unsigned s = 0; s < v->nstep; s++) {
		if (!v->step[s].catalog || !has_block(order, v->step[s].catalog->id))
			continue;
		np_function_id fn = v->step[s].catalog->id;
		for (unsigned r = 0; r < v->nrule; r++)
			for (unsigned b = 0; b < order->n; b++)
				if (in_block(&order->b[b], fn, v->rule[r]))
					cover_pair(c, row, fn, v->rule[r]);
		for (unsigned w = 0; w < 2; w++) {
			if (!plan[w].usable || plan[w].step[s].count == 0)
				continue;
			np_outcome out = plan[w].step[s].result[0].outcome;
			const char *name = out.kind == NP_RESULT_STATUS ? np_status_name(out.code)
					 : out.kind == NP_RESULT_WIN32 ? np_win32_name(out.code) : NULL;
			if (name)
				cover_pair(c, row, fn, name);
		}
	}
}

/* The vector of tier `tier` covering the most pairs not in done (ties:
 * fewer steps, then the first), or -1 when none covers one. */
static int best_vector(const upstream_cover *c, const np_vector_set *set, const bool *done, unsigned tier)
{
	int best = -1;
	unsigned best_new = 0;
	for (unsigned i = 0; i < set->count; i++) {
		unsigned fresh = 0;
		for (unsigned p = 0; c->tier[i] == tier && p < c->npair; p++)
			fresh += c->covers[(size_t)i * UPSTREAM_MAX_PAIRS + p] && !done[p];
		if (fresh > best_new || (fresh && fresh == best_new && set->v[i].nstep < set->v[best].nstep)) {
			best = (int)i;
			best_new = fresh;
		}
	}
	return best;
}

static unsigned pick(const upstream_cover *c, const np_vector_set *set, bool *picked)
{
	bool done[UPSTREAM_MAX_PAIRS] = { false };
	unsigned n = 0;
	for (unsigned tier = 0; tier < 2; tier++)
		for (int b; (b = best_vector(c, set, done, tier)) >= 0; n++) {
			picked[b] = true;
			for (unsigned p = 0; p < c->npair; p++)
				done[p] = done[p] || c->covers[(size_t)b * UPSTREAM_MAX_PAIRS + p];
		}
	return n;
}

bool np_export_upstream(const np_vector_set *set, np_export_options *o, const char *spec,
			unsigned *npairs, char *why, size_t cap)
{
	static order_of_checks order;
	if (cap)
		why[0] = '\0';
	o->only = NULL;   /* the candidates are every vector the export would write */
	o->nonly = 0;
	if (!read_order(spec, &order, why, cap))
		return false;
	upstream_cover c = { .npair = 0 };
	np_backend *model = np_backend_model_new();
	np_export_plan *plan = calloc(2, sizeof *plan);
	c.covers = calloc((size_t)set->count + 1, UPSTREAM_MAX_PAIRS * sizeof *c.covers);
	c.tier = calloc((size_t)set->count + 1, 1);
	bool *picked = calloc((size_t)set->count + 1, sizeof *picked);
	const char **only = calloc((size_t)set->count + 1, sizeof *only);
	bool ok = model && plan && c.covers && c.tier && picked && only;
	for (unsigned i = 0; ok && i < set->count; i++)
		if ((c.tier[i] = vector_tier(&set->v[i], o, model, plan)) < 2)
			vector_pairs(&c, i, &set->v[i], &order, plan);
	if (ok && c.npair == UPSTREAM_MAX_PAIRS) {
		snprintf(why, cap, "--upstream: more than %d (function, rule) pairs", UPSTREAM_MAX_PAIRS - 1);
		ok = false;
	}
	if (ok && pick(&c, set, picked) == 0) {
		snprintf(why, cap, "--upstream: no vector the export can write covers a rule of %s or a status of a function it names", spec);
		ok = false;
	}
	o->nonly = 0;
	for (unsigned i = 0; ok && i < set->count; i++)
		if (picked[i])
			only[o->nonly++] = set->v[i].id;
	o->only = ok ? only : NULL;
	*npairs = c.npair;
	if (!ok)
		free(only);
	if (!ok && !*why)
		snprintf(why, cap, "out of memory");
	free(picked);
	free(c.tier);
	free(c.covers);
	free(plan);
	if (model)
		model->destroy(model);
	return ok;
}
