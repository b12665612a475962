/* SPDX-License-Identifier: MIT */
/* The explorer's space: a function's axes (its arguments, its Nt/Zw
 * spelling, the machine states) with the boundary values of
 * harness/explore/explore_table.c, and a combination of boundaries written
 * out as values, the derived ones computed from the others. */
#include <stdlib.h>
#include <string.h>

#include "explore/explore_space.h"
#include "ntprof/calls.h"

/* ---- a function's space ---- */

const char *np_explore_check_function(const char *name)
{
	const np_function *f = np_function_find(name);
	if (!f)
		return "no such function (see fixtures/README.md, Steps)";
	if (!np_xexplorable(f))
		return "a pseudo-step, not a call the explorer generates";
	return NULL;
}

static int find_dim(const np_xspace *sp, const char *name)
{
	for (unsigned i = 0; i < sp->nd; i++)
		if (strcmp(sp->d[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The axes derived values read. */
static void note_derived_axes(np_xspace *sp)
{
	sp->base = find_dim(sp, "ProfileBase");
	sp->size = find_dim(sp, "ProfileSize");
	sp->bucket = find_dim(sp, "BucketSize");
	sp->cpus = find_dim(sp, "cpus");
}

bool np_xspace_init(np_xspace *sp, const np_function *f)
{
	memset(sp, 0, sizeof *sp);
	sp->f = f;
	for (const np_param *p = f->param; p->name; p++) {
		const np_xlist *l = np_xbounds_param(f, p);
		if (!l || sp->nd == NP_X_MAX_DIMS)
			return false;
		sp->d[sp->nd++] = (np_xdim){ NP_XDIM_ARG, p->name, p, l->b, l->n };
	}
	if (f->alias && sp->nd < NP_X_MAX_DIMS) {   /* CP-0, ST-0, SP-0, SI-0, QI-0, SY-0 */
		const char *rules = np_rule_id(np_export_applied(f->name).rule);   /* the model's export table */
		rules = rules ? rules : "";
		sp->spelling[0] = (np_xbound){ f->name, NP_XD_TEXT, 0, rules };
		sp->spelling[1] = (np_xbound){ f->alias, NP_XD_TEXT, 0, rules };
		sp->d[sp->nd++] = (np_xdim){ NP_XDIM_SPELLING, "function", NULL, sp->spelling, 2 };
	}
	unsigned ng;
	const np_xlist *g = np_xbounds_given(&ng);
	for (unsigned i = 0; i < ng && sp->nd < NP_X_MAX_DIMS; i++)
		sp->d[sp->nd++] = (np_xdim){ NP_XDIM_GIVEN, g[i].name, NULL, g[i].b, g[i].n };
	const char *const *pre = np_xprelude(f);
	for (unsigned i = 0; pre && pre[i]; i++) {
		if (i == NP_X_MAX_PRELUDE || np_parse_step(pre[i], &sp->prelude[i]) ||
		    np_captures_check(sp->prelude, i, &sp->prelude[i]))
			return false;
		sp->prelude_text[i] = pre[i];
		sp->nprelude = i + 1;
	}
	note_derived_axes(sp);
	return true;
}

/* A later step of a sequence: its text with every Name=$Axis written with
 * the axis' plain default, parsed; after_dim notes the axis of each such
 * argument. */
static bool add_after(np_xspace *sp, const char *text)
{
	char line[NP_TEXT_MAX * 2] = "", copy[NP_TEXT_MAX * 2];
	char names[NP_MAX_ARGS][NP_NAME_MAX];
	int dims[NP_MAX_ARGS];
	unsigned k = sp->nafter, ntaken = 0;
	if (k == NP_X_MAX_AFTER || strlen(text) >= sizeof copy)
		return false;
	strcpy(copy, text);
	for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *dollar = strstr(w, "=$");
		int d = dollar ? find_dim(sp, dollar + 2) : -1;
		if (dollar && (d < 0 || sp->d[d].b[0].derive != NP_XD_TEXT || ntaken == NP_MAX_ARGS ||
			       (size_t)(dollar - w) >= NP_NAME_MAX))
			return false;
		if (dollar) {
			snprintf(names[ntaken], NP_NAME_MAX, "%.*s", (int)(dollar - w), w);
			dims[ntaken++] = d;
		}
		size_t used = strlen(line);
		snprintf(line + used, sizeof line - used, "%s%.*s%s", used ? " " : "",
			 dollar ? (int)(dollar - w) + 1 : (int)strlen(w), w, dollar ? sp->d[d].b[0].text : "");
	}
	np_step *st = &sp->after[k];
	if (np_parse_step(line, st))
		return false;
	for (unsigned a = 0; a < NP_MAX_ARGS; a++) {
		sp->after_dim[k][a] = -1;
		for (unsigned i = 0; a < st->narg && i < ntaken; i++)
			if (strcmp(st->arg[a].name, names[i]) == 0)
				sp->after_dim[k][a] = dims[i];
	}
	sp->nafter = k + 1;
	return true;
}

bool np_xspace_init_sequence(np_xspace *sp, const np_xsequence *q)
{
	const np_function *f = np_function_find(q->function);
	if (!f || !np_xspace_init(sp, f))
		return false;
	sp->sequence = q->name;
	if (q->fixed) {
		const char *eq = strchr(q->fixed, '=');
		size_t n = eq ? (size_t)(eq - q->fixed) : 0;
		if (!n || n >= sizeof sp->fixed.name)
			return false;
		memcpy(sp->fixed.name, q->fixed, n);
		sp->fixed.name[n] = '\0';
		snprintf(sp->fixed.value, sizeof sp->fixed.value, "%s", eq + 1);
		int d = find_dim(sp, sp->fixed.name);
		if (d < 0)
			return false;
		memmove(&sp->d[d], &sp->d[d + 1], (sp->nd - (unsigned)d - 1) * sizeof *sp->d);
		sp->nd--;
		note_derived_axes(sp);
	}
	for (unsigned i = 0; q->after[i]; i++)
		if (!add_after(sp, q->after[i]))
			return false;
	return true;
}

static bool number_at(const np_xpoint *p, int dim, uint64_t *v)
{
	return dim >= 0 && np_number_parse(p->val[dim], v);
}

/* The value of a derived boundary on dim, from the values already written. */
bool np_xpoint_derive(np_xpoint *p, unsigned dim, const np_xbound *b)
{
	const np_xspace *sp = p->sp;
	uint64_t base, size, bucket, cpus, v;
	char *out = p->val[dim];
	switch (b->derive) {
	case NP_XD_CP8:
	case NP_XD_CP9:
		if (!number_at(p, sp->size, &size) || !number_at(p, sp->bucket, &bucket) ||
		    bucket < 2 || bucket > 31)
			return false;   /* no capacity test is reached */
		v = b->derive == NP_XD_CP8 ? size >> (bucket - 2)
					   : 4 * ((size >> bucket) + ((size & ((1ull << bucket) - 1)) != 0));
		if ((b->delta < 0 && v == 0) || v + (uint64_t)(int64_t)b->delta > 0xFFFFFFFFu ||
		    v > 0xFFFFFFFFu)
			return false;
		snprintf(out, NP_X_VALUE_MAX, "0x%llX", (unsigned long long)(v + (uint64_t)(int64_t)b->delta));
		return true;
	case NP_XD_WRAP32:
		if (!number_at(p, sp->base, &base) || base > 0x100000000ull ||
		    (b->delta < 0 && base == 0x100000000ull))
			return false;
		snprintf(out, NP_X_VALUE_MAX, "0x%llX",
			 (unsigned long long)(0x100000000ull - base + (uint64_t)(int64_t)b->delta));
		return true;
	case NP_XD_WRAP64:
		if (!number_at(p, sp->base, &base) || (base == 0 && b->delta >= 0))
			return false;   /* 2^64 itself is no SIZE_T */
		snprintf(out, NP_X_VALUE_MAX, "0x%llX", (unsigned long long)(0 - base + (uint64_t)(int64_t)b->delta));
		return true;
	case NP_XD_CPU_TOP:
	case NP_XD_GROUP_TOP:
		if (!number_at(p, sp->cpus, &cpus) || cpus == 0 || cpus - 1 + (uint64_t)b->delta >= 64)
			return false;
		v = 1ull << (cpus - 1 + (uint64_t)b->delta);
		snprintf(out, NP_X_VALUE_MAX, b->derive == NP_XD_CPU_TOP ? "0x%llX" : "0:0x%llX",
			 (unsigned long long)v);
		return true;
	case NP_XD_TEXT:
	default:
		snprintf(out, NP_X_VALUE_MAX, "%s", b->text);
		return true;
	}
}

/* Writes the combination's values; false when a derived one has no meaning
 * (a capacity edge with no valid BucketSize, a bit past 64 processors). */
bool np_xpoint_resolve(const np_xspace *sp, const np_xcombo *c, np_xpoint *p)
{
	/* texts first, then what reads them: wraps read ProfileBase, capacity
	 * edges ProfileSize (maybe a wrap), processor bits `cpus` */
	static const int rank[] = {
		[NP_XD_TEXT] = 0, [NP_XD_WRAP32] = 1, [NP_XD_WRAP64] = 1, [NP_XD_CP8] = 2,
		[NP_XD_CP9] = 2, [NP_XD_CPU_TOP] = 3, [NP_XD_GROUP_TOP] = 3,
	};
	p->sp = sp;
	for (int pass = 0; pass < 4; pass++)
		for (unsigned i = 0; i < sp->nd; i++) {
			const np_xbound *b = &sp->d[i].b[c->idx[i]];
			if (rank[b->derive] == pass && !np_xpoint_derive(p, i, b))
				return false;
		}
	return true;
}
