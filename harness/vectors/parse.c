/* SPDX-License-Identifier: MIT */
/* The vector parser (fixtures/README.md): a vector's lines, its
 * expectations and outcomes, version ranges and architectures. Files and
 * lines are read by vector_file.c, steps parsed by step.c. Every problem is
 * reported as "file:line: what was expected". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "vectors/hints.h"
#include "ntprof/configure.h"
#include "vectors/parse_internal.h"
#include "ntprof/names.h"
#include "ntprof/status.h"
#include "ntprof/vector.h"

/* Flags a vector may carry (fixtures/README.md). unknown:K-NAME names a knob. */
static const char *const known_flags[] = {
	"boundary", "order", "version-change", "documented", "observed", "inferred",
	"model-only", "not-live", "hazardous", "alternative", NULL
};

static const char *parse_arch_list(const char *text, bool arch[NP_ARCH_COUNT])
{
	char buf[NP_TEXT_MAX];
	if (!np_copy_text(buf, sizeof buf, text))
		return "architecture list too long";
	memset(arch, 0, sizeof(bool) * NP_ARCH_COUNT);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		np_arch a;
		if (!np_arch_parse(t, &a))
			return "architecture must be x86, x64 or wow64";
		arch[a] = true;
	}
	return NULL;
}

bool np_applies(const np_applicability *a, np_ver v, np_arch arch)
{
	return v >= a->lo && v <= a->hi && a->arch[arch];
}

static void all_arches(np_applicability *a)
{
	for (unsigned i = 0; i < NP_ARCH_COUNT; i++)
		a->arch[i] = true;
}

np_pair_split np_split_pair(const char *token, np_pair *pair)
{
	const char *eq = strchr(token, '=');
	if (!eq || eq == token || eq[1] == '\0')
		return NP_PAIR_MALFORMED;
	size_t n = (size_t)(eq - token);
	if (n >= sizeof pair->name || strlen(eq + 1) >= sizeof pair->value)
		return NP_PAIR_TOO_LONG;
	memcpy(pair->name, token, n);
	pair->name[n] = '\0';
	strcpy(pair->value, eq + 1);
	return NP_PAIR_OK;
}

const char *np_parse_given_pair(const char *token, np_pair *pair)
{
	switch (np_split_pair(token, pair)) {
	case NP_PAIR_MALFORMED: return "expected KEY=VALUE";
	case NP_PAIR_TOO_LONG:  return "key or value too long";
	default:                return np_config_check(pair->name, pair->value);
	}
}

const char *np_parse_outcome(const char *const *tok, unsigned ntok, unsigned *used, np_outcome *out)
{
	*used = 1;
	if (ntok == 0 || strchr(tok[0], '=')) {
		*used = 0;
		out->kind = NP_RESULT_NONE;
		out->code = 0;
		return NULL;
	}
	const char *t = tok[0];
	out->code = 0;
	if (strcmp(t, "not-exported") == 0) { out->kind = NP_RESULT_NOT_EXPORTED; return NULL; }
	if (strcmp(t, "not-applicable") == 0) { out->kind = NP_RESULT_NOT_APPLICABLE; return NULL; }
	if (strcmp(t, "stub") == 0) { out->kind = NP_RESULT_STUB; return NULL; }
	if (strcmp(t, "crashed") == 0) { out->kind = NP_RESULT_CRASHED; return NULL; }
	if (strcmp(t, "corruption") == 0) { out->kind = NP_RESULT_CORRUPTION; return NULL; }
	if (strcmp(t, "fault") == 0 || strcmp(t, "bugcheck") == 0) {
		if (ntok < 2)
			return "fault and bugcheck need a name or number after them";
		*used = 2;
		if (t[0] == 'f') {
			out->kind = NP_RESULT_FAULT;
			return np_status_parse(tok[1], &out->code) ? NULL : "unknown exception status";
		}
		out->kind = NP_RESULT_BUGCHECK;
		return np_bugcheck_parse(tok[1], &out->code) ? NULL : "unknown bug check";
	}
	if (strncmp(t, "ERROR_", 6) == 0) {
		out->kind = NP_RESULT_WIN32;
		return np_win32_parse(t, &out->code) ? NULL : "unknown Win32 error name";
	}
	out->kind = NP_RESULT_STATUS;
	if (strncmp(t, "STATUS_", 7) == 0 || strncmp(t, "0x", 2) == 0)
		return np_status_parse(t, &out->code) ? NULL : "unknown NTSTATUS";
	return "expected an outcome: STATUS_*, ERROR_*, 0x........, fault S, bugcheck B, not-exported, not-applicable";
}

/* expect/accept OUTCOME [Name=Value]... [on RANGE] [arch=LIST] [flag=NAME] */
static const char *parse_expect(char **tok, unsigned n, bool alternative, np_expect *e)
{
	unsigned used;
	memset(e, 0, sizeof *e);
	e->alternative = alternative;
	e->when.lo = 0;
	e->when.hi = NP_VERSION_COUNT - 1;
	all_arches(&e->when);
	const char *err = np_parse_outcome((const char *const *)tok, n, &used, &e->outcome);
	if (err)
		return err;
	for (unsigned i = used; i < n; i++) {
		if (strcmp(tok[i], "on") == 0) {
			if (i + 1 >= n)
				return "`on` needs a version range";
			np_applicability range;
			if ((err = np_parse_range(tok[++i], &range)))
				return err;
			e->when.lo = range.lo;
			e->when.hi = range.hi;
		} else if (strncmp(tok[i], "arch=", 5) == 0) {
			if ((err = parse_arch_list(tok[i] + 5, e->when.arch)))
				return err;
		} else if (strncmp(tok[i], "flag=", 5) == 0) {
			if (!np_copy_text(e->flag, sizeof e->flag, tok[i] + 5))
				return "flag name too long";
		} else {
			np_pair o;
			np_pair_split how = np_split_pair(tok[i], &o);
			if (how == NP_PAIR_MALFORMED)
				return "expected Name=Value, `on RANGE`, arch=LIST or flag=NAME";
			if (e->nout == NP_MAX_OUTS)
				return "too many out-values";
			if (how == NP_PAIR_TOO_LONG)
				return "out-value name or value too long";
			e->out[e->nout++] = o;
		}
	}
	if (alternative && e->flag[0] == '\0')
		return "an `accept` line needs flag=NAME saying why the alternative is acceptable";
	if (!alternative && e->flag[0] != '\0')
		return "flag= belongs on `accept` lines only";
	return NULL;
}

static bool flag_known(const char *f)
{
	if (strncmp(f, "unknown:K-", 10) == 0 && f[10] != '\0')
		return true;
	for (unsigned i = 0; known_flags[i]; i++)
		if (strcmp(f, known_flags[i]) == 0)
			return true;
	return false;
}

bool np_vector_has_flag(const np_vector *v, const char *flag)
{
	for (unsigned i = 0; i < v->nflag; i++)
		if (strcmp(v->flag[i], flag) == 0 || (strncmp(v->flag[i], flag, strlen(flag)) == 0 &&
						       v->flag[i][strlen(flag)] == ':'))
			return true;
	return false;
}

/* Checks a finished vector: required fields, and that every step has a
 * primary expectation for every version and architecture it applies to. */
bool np_vector_finish(np_vector *v, np_error *err)
{
	if (v->title[0] == '\0')
		return np_error_at(err, v->file, v->line, "vector %s: missing `title`", v->id);
	if (v->nrule == 0)
		return np_error_at(err, v->file, v->line, "vector %s: missing `rules`", v->id);
	if (v->source[0] == '\0')
		return np_error_at(err, v->file, v->line, "vector %s: missing `source` (where the expectation comes from)", v->id);
	if (v->nstep == 0)
		return np_error_at(err, v->file, v->line, "vector %s: no `call` step", v->id);
	for (unsigned s = 0; s < v->nstep; s++) {
		np_step *st = &v->step[s];
		if (st->nexpect == 0)
			return np_error_at(err, v->file, st->line, "step has no `expect` line");
		for (unsigned e = 0; e < st->nexpect; e++) {
			const char *flag = st->expect[e].flag;
			np_result_kind k = st->expect[e].outcome.kind;
			if ((k == NP_RESULT_FAULT || k == NP_RESULT_BUGCHECK || k == NP_RESULT_CORRUPTION) &&
			    !np_vector_has_flag(v, "hazardous"))
				return np_error_at(err, v->file, st->expect[e].line,
					    "a fault, bug check or corruption outcome needs the flag `hazardous`");
			if (st->expect[e].alternative && !np_vector_has_flag(v, flag))
				return np_error_at(err, v->file, st->expect[e].line,
					    "accept flag=%s is not among the vector's flags", flag);
		}
		for (unsigned ver = v->applies.lo; ver <= v->applies.hi; ver++) {
			for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
				if (!v->applies.arch[a] || !np_arch_exists((np_ver)ver, (np_arch)a))
					continue;
				bool covered = false;
				for (unsigned e = 0; e < st->nexpect && !covered; e++)
					covered = !st->expect[e].alternative &&
						  np_applies(&st->expect[e].when, (np_ver)ver, (np_arch)a);
				if (!covered)
					return np_error_at(err, v->file, st->line,
						    "no `expect` line covers %s/%s (the vector applies there)",
						    np_version_key((np_ver)ver), np_arch_name((np_arch)a));
			}
		}
	}
	return true;
}

/* `vector ID`: finishes the vector before it and starts *cur. */
static bool start_vector(np_vector_set *set, np_vector **cur, char **tok, unsigned n, const char *file,
			 int lineno, np_error *err)
{
	if (n != 2)
		return np_error_at(err, file, lineno, "expected `vector ID` (one word)");
	if (*cur && !np_vector_finish(*cur, err))
		return false;
	if (set->count == set->cap) {
		unsigned cap = set->cap ? set->cap * 2 : 64;
		np_vector *nv = realloc(set->v, cap * sizeof *nv);
		if (!nv)
			return np_error_at(err, file, lineno, "out of memory");
		set->v = nv;
		set->cap = cap;
	}
	*cur = &set->v[set->count++];
	memset(*cur, 0, sizeof **cur);
	(*cur)->file = file;
	(*cur)->line = lineno;
	(*cur)->applies.hi = NP_VERSION_COUNT - 1;
	all_arches(&(*cur)->applies);
	if (!np_copy_text((*cur)->id, sizeof (*cur)->id, tok[1]))
		return np_error_at(err, file, lineno, "vector ID too long");
	return true;
}

/* `title TEXT` or `source TEXT`: the rest of the line, once. */
static bool set_text(np_vector *v, const char *kw, const char *rest, const char *file, int lineno,
		     np_error *err)
{
	char *dst = kw[0] == 't' ? v->title : v->source;
	if (*rest == '\0')
		return np_error_at(err, file, lineno, "`%s` needs text", kw);
	if (dst[0])
		return np_error_at(err, file, lineno, "`%s` given twice", kw);
	if (!np_copy_text(dst, NP_TEXT_MAX, rest))
		return np_error_at(err, file, lineno, "`%s` text longer than %d characters", kw, NP_TEXT_MAX - 1);
	return true;
}

/* `rules ID...`: rule IDs like SI-1. */
static bool add_rules(np_vector *v, char **tok, unsigned n, const char *file, int lineno, np_error *err)
{
	for (unsigned i = 1; i < n; i++) {
		if (v->nrule == NP_MAX_RULES)
			return np_error_at(err, file, lineno, "too many rules");
		const char *r = tok[i];
		size_t k = 0;
		while (r[k] >= 'A' && r[k] <= 'Z') k++;
		if (k < 2 || k > 4 || r[k] != '-' || r[k + 1] < '0' || r[k + 1] > '9')
			return np_error_at(err, file, lineno, "expected a rule ID like SI-1, got `%s`", r);
		if (!np_copy_text(v->rule[v->nrule++], NP_NAME_MAX, r))
			return np_error_at(err, file, lineno, "rule ID too long");
	}
	return true;
}

/* `flags FLAG...`: flags of known_flags or unknown:K-NAME. */
static bool add_flags(np_vector *v, char **tok, unsigned n, const char *file, int lineno, np_error *err)
{
	for (unsigned i = 1; i < n; i++) {
		if (!flag_known(tok[i]))
			return np_error_at(err, file, lineno, "unknown flag `%s` (see fixtures/README.md)", tok[i]);
		if (v->nflag == NP_MAX_FLAGS || !np_copy_text(v->flag[v->nflag++], NP_NAME_MAX, tok[i]))
			return np_error_at(err, file, lineno, "too many or too long flags");
	}
	return true;
}

/* `call FUNCTION Name=Value...`: a step, its arguments typed once here. */
static bool add_step(np_vector *v, const char *rest, const char *file, int lineno, np_error *err)
{
	const char *e;
	if (v->nstep == NP_MAX_STEPS)
		return np_error_at(err, file, lineno, "too many steps");
	np_step *grown = realloc(v->step, (v->nstep + 1) * sizeof *grown);
	if (!grown)
		return np_error_at(err, file, lineno, "out of memory");
	v->step = grown;
	char why[600];
	if ((e = np_parse_step(rest, &v->step[v->nstep])))
		return np_error_at(err, file, lineno, "%s", np_step_explain(rest, e, why, sizeof why));
	if ((e = np_captures_check(v->step, v->nstep, &v->step[v->nstep])))
		return np_error_at(err, file, lineno, "%s", e);
	v->step[v->nstep++].line = lineno;
	return true;
}

/* `expect ...` or `accept ...`: an expectation of the last step. */
static bool add_expect(np_vector *v, char **tok, unsigned n, const char *file, int lineno, np_error *err)
{
	const char *e, *kw = tok[0];
	if (v->nstep == 0)
		return np_error_at(err, file, lineno, "`%s` before any `call`", kw);
	np_step *st = &v->step[v->nstep - 1];
	if (st->nexpect == NP_MAX_EXPECTS)
		return np_error_at(err, file, lineno, "too many expectations for one step");
	np_expect *grown = realloc(st->expect, (st->nexpect + 1) * sizeof *grown);
	if (!grown)
		return np_error_at(err, file, lineno, "out of memory");
	st->expect = grown;
	char why[400];
	if ((e = parse_expect(tok + 1, n - 1, kw[0] == 'a', &st->expect[st->nexpect]))) {
		if (n > 1 && (strcmp(e, "unknown NTSTATUS") == 0 || strcmp(e, "unknown Win32 error name") == 0 ||
			      strcmp(e, "unknown exception status") == 0))   /* a name of no table: quote it */
			e = np_outcome_explain(tok[n > 2 && (strcmp(tok[1], "fault") == 0 ||
							   strcmp(tok[1], "bugcheck") == 0) ? 2 : 1],
					       e, why, sizeof why);
		return np_error_at(err, file, lineno, "%s", e);
	}
	/* An out-value the function never reports could never match. */
	for (unsigned o = 0; o < st->expect[st->nexpect].nout; o++)
		if ((e = np_out_check(st, st->expect[st->nexpect].out[o].name, why, sizeof why)))
			return np_error_at(err, file, lineno, "%s", e);
	st->expect[st->nexpect++].line = lineno;
	return true;
}

bool np_parse_line(np_vector_set *set, np_vector **cur, char *line, const char *file, int lineno,
		   np_error *err)
{
	char *tok[NP_TOKENS_MAX];
	char raw[NP_LINE_MAX + 1];
	strcpy(raw, line);
	unsigned n = np_tokenize(line, tok, NP_TOKENS_MAX);
	if (n == 0 || tok[0][0] == '#')
		return true;
	if (n == NP_TOKENS_MAX)
		return np_error_at(err, file, lineno, "too many words on one line");
	const char *kw = tok[0];
	const char *rest = raw + (tok[0] - line) + strlen(kw);
	while (*rest == ' ' || *rest == '\t')
		rest++;
	if (strcmp(kw, "vector") == 0)
		return start_vector(set, cur, tok, n, file, lineno, err);
	np_vector *v = *cur;
	if (!v)
		return np_error_at(err, file, lineno, "expected `vector ID` before `%s`", kw);
	const char *e = NULL;
	if (strcmp(kw, "title") == 0 || strcmp(kw, "source") == 0) {
		return set_text(v, kw, rest, file, lineno, err);
	} else if (strcmp(kw, "rules") == 0) {
		return add_rules(v, tok, n, file, lineno, err);
	} else if (strcmp(kw, "flags") == 0) {
		return add_flags(v, tok, n, file, lineno, err);
	} else if (strcmp(kw, "applies") == 0) {
		if (n < 2 || n > 3)
			return np_error_at(err, file, lineno, "expected `applies RANGE [arch=LIST]`");
		if ((e = np_parse_range(tok[1], &v->applies)))
			return np_error_at(err, file, lineno, "%s", e);
		if (n == 3) {
			if (strncmp(tok[2], "arch=", 5) != 0)
				return np_error_at(err, file, lineno, "expected arch=LIST after the range");
			if ((e = parse_arch_list(tok[2] + 5, v->applies.arch)))
				return np_error_at(err, file, lineno, "%s", e);
		}
	} else if (strcmp(kw, "given") == 0) {
		for (unsigned i = 1; i < n; i++) {
			if (v->ngiven == NP_MAX_GIVEN)
				return np_error_at(err, file, lineno, "too many given pairs");
			char why[200];
			if ((e = np_parse_given_pair(tok[i], &v->given[v->ngiven])))
				return np_error_at(err, file, lineno, "given %s: %s", tok[i],
					    np_given_explain(tok[i], e, why, sizeof why));
			v->given_line[v->ngiven++] = lineno;
		}
	} else if (strcmp(kw, "call") == 0) {
		return add_step(v, rest, file, lineno, err);
	} else if (strcmp(kw, "expect") == 0 || strcmp(kw, "accept") == 0) {
		return add_expect(v, tok, n, file, lineno, err);
	} else {
		return np_error_at(err, file, lineno,
			    "unknown keyword `%s` (vector, title, rules, flags, source, applies, given, call, expect, accept)", kw);
	}
	return true;
}
