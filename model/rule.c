/* SPDX-License-Identifier: MIT */
/* The rules of SPEC.md as values (ntprof/rules.h), and the per-call record
 * of the rules the model applied. */
#include <string.h>

#include "internal.h"

static const struct {
	const char *id, *title;
} rule_table[NP_RULE_COUNT] = {
	[NP_RULE_NONE] = { NULL, NULL },
#define NP_RULE_DEF(sym, id, title) [NP_RULE_##sym] = { id, title },
#include "ntprof/rules.h"
};

const char *np_rule_id(np_rule r)
{
	return (unsigned)r < NP_RULE_COUNT ? rule_table[r].id : NULL;
}

const char *np_rule_title(np_rule r)
{
	return (unsigned)r < NP_RULE_COUNT ? rule_table[r].title : NULL;
}

bool np_rule_parse(const char *text, np_rule *out)
{
	for (unsigned r = 1; r < NP_RULE_COUNT; r++)
		if (strcmp(rule_table[r].id, text) == 0) {
			*out = (np_rule)r;
			return true;
		}
	return false;
}

void np_trail_clear(np_machine *m)
{
	m->trail.decided = NP_RULE_NONE;
	m->trail.count = 0;
	memset(m->trail.has, 0, sizeof m->trail.has);
}

void np_trail_apply(np_machine *m, np_rule r, const char *file, int line)
{
	np_trail *t = &m->trail;
	unsigned long long bit = 1ull << ((unsigned)r % 64);
	if (t->has[(unsigned)r / 64] & bit)
		return;
	t->has[(unsigned)r / 64] |= bit;
	if (t->count == NP_TRAIL_MAX)
		NP_MODEL_BUG("a call applied more rules than its record holds"); /* LCOV_EXCL_LINE: no call applies more rules than NP_TRAIL_MAX; the vectors would abort here */
	t->applied[t->count++] = (np_applied){ r, file, line };
}

np_rule np_trail_last(const np_machine *m, np_rule fallback)
{
	return m->trail.count ? m->trail.applied[m->trail.count - 1].rule : fallback;
}

np_result np_trail_decide(np_machine *m, np_rule r, np_result res, const char *file, int line)
{
	np_trail_apply(m, r, file, line);
	m->trail.decided = r;
	return res;
}

/* ---- the version predicates as data ---- */

#define NP_PREDICATE_ARGS_V  m->version
#define NP_PREDICATE_ARGS_A  m->arch
#define NP_PREDICATE_ARGS_VA m->version, m->arch
#define NP_PREDICATE_ARGS_M  m
#define NP_PREDICATE(name, shape, rules, expression) \
	static bool holds_##name(const np_machine *m) { return name(NP_PREDICATE_ARGS_##shape); }
#include "ntprof/predicates.h"

#define NP_RULES_OF(...) { __VA_ARGS__ }
#define NP_PREDICATE(name, shape, rules, expression) \
	{ #name, NP_RULES_OF rules, holds_##name },
static const np_predicate predicate_table[] = {
#include "ntprof/predicates.h"
};

const np_predicate *np_predicate_table(unsigned *count)
{
	*count = sizeof predicate_table / sizeof *predicate_table;
	return predicate_table;
}
