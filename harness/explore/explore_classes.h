/* SPDX-License-Identifier: MIT */
/* The explorer's state and its classes (harness/explore/explore_classes.c):
 * version differences without --against, divergences from the model with
 * it, each class with its representative combination. */
#ifndef NTPROF_EXPLORE_CLASSES_H
#define NTPROF_EXPLORE_CLASSES_H

#include "explore/explore_space.h"

/* The rules a model's run applied, one bit per np_rule. */
typedef struct np_xrules {
	unsigned char bit[(NP_RULE_COUNT + 7) / 8];
} np_xrules;
void np_xrules_add(np_xrules *set, const np_record *r);
bool np_xrules_has(const np_xrules *set, np_rule r);

typedef struct vclass {         /* a version difference */
	const np_function *f;       /* the function of the step whose outcome changes */
	np_outcome from, to;
	np_rule from_rule, to_rule; /* the rules that decided them in the model */
	np_xrules applied;          /* what the model applied at that step on either version */
	np_ver before, after;
	unsigned archs;             /* where members showed it */
	unsigned long count, last;  /* combinations; the last one counted */
	np_xpoint rep;
} vclass;

typedef struct dclass {         /* a divergence from the model */
	const np_function *f;
	np_outcome model, got;
	np_rule rule;               /* the rule that decided the model's outcome */
	np_xrules applied;          /* what the model applied at that step */
	bool outputs;               /* same outcome, other out-values */
	unsigned long count;
	np_target where;            /* where rep was minimised */
	np_xpoint rep;
	unsigned changed;           /* rep's axes off their defaults */
} dclass;

typedef struct explorer {
	const np_explore_options *o;
	np_explore_stats *st;
	np_backend *model, *against;
	np_target_list run;
	unsigned order[NP_X_MAX_TARGETS];   /* run targets by architecture, then version */
	np_vector v;
	np_step steps[NP_X_MAX_STEPS];
	np_xresults *mres, *bres, *work;
	vclass *vc;
	dclass *dc;
	size_t nc, cap;
	double start;                   /* when the exploration started, in seconds */
} explorer;

/* How a backend's run of a combination differs from the model's. */
typedef struct divergence {
	int step;                   /* -1: none */
	np_outcome model, got;
	bool outputs;
	const np_record *model_record;   /* the model's record of the step */
} divergence;

/* Without --against: where consecutive versions of one architecture
 * disagree on combination number n (x->mres holds its records). False
 * only when memory runs out. */
bool np_xclassify_versions(explorer *x, unsigned long n, const np_xpoint *p);

/* With --against: each kind of divergence of this combination (x->mres
 * and x->bres hold its records), minimised once on the first target that
 * shows it. False only when memory runs out. */
bool np_xclassify_divergences(explorer *x, const np_xpoint *p);

/* The first step where b's records differ from m's on target t. */
divergence np_xdiverges(const np_xresults *m, const np_xresults *b, unsigned t);

#endif
