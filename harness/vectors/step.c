/* SPDX-License-Identifier: MIT */
/* Steps: "FUNCTION Name=Value ..." read once, each argument checked against
 * the catalog and typed (arg_value.c), the parameters a step leaves out
 * typed from their fallbacks. */
#include <stdlib.h>
#include <string.h>

#include "vectors/arg_value.h"
#include "vectors/catalog.h"
#include "vectors/parse_internal.h"

_Static_assert(NP_MAX_PARAMS <= NP_MAX_ARGS, "a step holds a value for every parameter");
_Static_assert(NP_MAX_RUN == 65536u, "the message of a Count past NP_MAX_RUN names it");

/* The i-th written argument: its parameter (the name made the canonical
 * spelling), given once, and its value typed. */
static const char *type_written(np_step *st, const np_function *f, unsigned i)
{
	np_pair *a = &st->arg[i];
	const np_param *p = np_param_find(f, a->name);
	if (!p)
		return "unknown argument for this function";
	strcpy(a->name, p->name);   /* canonical spelling */
	for (unsigned j = 0; j < i; j++)
		if (strcmp(st->arg[j].name, a->name) == 0)
			return "argument given twice";
	return np_arg_parse(p, a->value, &st->value[p - f->param]);
}

static bool written(const np_step *st, const np_param *p)
{
	for (unsigned i = 0; i < st->narg; i++)
		if (strcmp(st->arg[i].name, p->name) == 0)
			return true;
	return false;
}

/* After the written arguments: every required one is there, and the others
 * take their fallbacks, typed as a written value would be. */
static const char *type_fallbacks(np_step *st, const np_function *f)
{
	const char *e;
	for (const np_param *p = f->param; p->name; p++)
		if (!p->fallback && !written(st, p))
			return "a required argument is missing";
	for (const np_param *p = f->param; p->name; p++)
		if (!written(st, p) && (e = np_arg_parse(p, p->fallback, &st->value[p - f->param])))
			return e;   /* a fallback the parser refuses: test_parser checks there is none */
	/* a run is delivered whole: its length is bounded where it is read */
	const np_param *count = f->id == NP_FN_INTERRUPTS ? np_param_find(f, "Count") : NULL;
	if (count && st->value[count - f->param].u32.value > NP_MAX_RUN)
		return "Count: a run is at most 65536 interrupts";
	st->catalog = f;
	return NULL;
}

/* A word of a step line: Name=Value, a pair of the step, then typed. */
static const char *add_arg(np_step *st, const np_function *f, const char *token)
{
	np_pair *a = &st->arg[st->narg];
	const char *eq = strchr(token, '=');
	if (!eq || eq == token || eq[1] == '\0')
		return "expected Name=Value arguments";
	if (st->narg == NP_MAX_ARGS)
		return "too many arguments";
	size_t kn = (size_t)(eq - token);
	if (kn >= sizeof a->name || strlen(eq + 1) >= sizeof a->value)
		return "argument name or value too long";
	memcpy(a->name, token, kn);
	a->name[kn] = '\0';
	strcpy(a->value, eq + 1);
	const char *e = type_written(st, f, st->narg);
	if (e)
		return e;
	st->narg++;
	return NULL;
}

/* A step line: FUNCTION Name=Value ... */
const char *np_parse_step(const char *line, np_step *step)
{
	char buf[NP_LINE_MAX];
	char *tok[NP_TOKENS_MAX];
	if (!np_copy_text(buf, sizeof buf, line))
		return "line too long";
	unsigned n = np_tokenize(buf, tok, NP_TOKENS_MAX);
	memset(step, 0, sizeof *step);
	if (n == 0)
		return "expected a function name";
	const np_function *f = np_function_find(tok[0]);
	if (!f)
		return "unknown function (see fixtures/README.md, Steps)";
	np_copy_text(step->function, sizeof step->function, tok[0]);
	const char *e;
	for (unsigned i = 1; i < n; i++)
		if ((e = add_arg(step, f, tok[i])))
			return e;
	return type_fallbacks(step, f);
}

const char *np_step_type(np_step *step)
{
	const np_function *f = np_function_find(step->function);
	const char *e;
	step->catalog = NULL;
	memset(step->value, 0, sizeof step->value);
	if (!f)
		return "unknown function (see fixtures/README.md, Steps)";
	if (step->narg > NP_MAX_ARGS)
		return "too many arguments";
	for (unsigned i = 0; i < step->narg; i++)
		if ((e = type_written(step, f, i)))
			return e;
	return type_fallbacks(step, f);
}

const np_arg *np_step_value(const np_step *step, const char *param)
{
	const np_function *f = step->catalog;
	const np_param *p = f ? np_param_find(f, param) : NULL;
	if (!p)
		abort();   /* LCOV_EXCL_LINE: a step never read, or a parameter its function lacks */
	return &step->value[p - f->param];
}
