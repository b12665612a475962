/* SPDX-License-Identifier: MIT */
/* Explorer points as vectors: the step a combination stands for, its runs
 * on a backend, and the ready-to-paste vector (fixtures/README.md) whose
 * expectations are the model's on every target that exists. */
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "explore/explore_space.h"
#include "ntprof/names.h"
#include "ntprof/status.h"

bool np_xpoint_plain(const np_xpoint *p, unsigned dim)
{
	return strcmp(p->val[dim], p->sp->d[dim].b[0].text) == 0;
}

unsigned np_xpoint_changed(const np_xpoint *p)
{
	unsigned n = 0;
	for (unsigned i = 0; i < p->sp->nd; i++)
		n += !np_xpoint_plain(p, i);
	return n;
}

void np_xpoint_describe(const np_xpoint *p, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < p->sp->nd && used < cap; i++)
		if (!np_xpoint_plain(p, i))
			used += (size_t)snprintf(buf + used, cap - used, "%s%s=%s", used ? " " : "",
						 p->sp->d[i].name, p->val[i]);
	if (used == 0)
		snprintf(buf, cap, "plain defaults");
}

uint64_t np_xpoint_hash(const np_xpoint *p)
{
	uint64_t h = np_fnv1a_str(NP_FNV1A_SEED, p->sp->f->name);
	if (p->sp->sequence)   /* a sequence is another vector */
		h = np_fnv1a_str(h, p->sp->sequence);
	for (unsigned i = 0; i < p->sp->nd; i++)
		h = np_fnv1a_str(np_fnv1a(h, "\xFF", 1), p->val[i]);   /* 0xFF separates the values */
	return h ? h : 1;
}

void np_xvector_id(const np_xpoint *p, char *buf, size_t cap)
{
	char fn[NP_NAME_MAX];
	size_t n = 0;
	for (const char *c = p->sp->sequence ? p->sp->sequence : p->sp->f->name; *c && n + 1 < sizeof fn; c++)
		fn[n++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
	fn[n] = '\0';
	snprintf(buf, cap, "explore/%s-%08x", fn, (unsigned)(np_xpoint_hash(p) & 0xFFFFFFFFu));
}

void np_xpoint_vector(const np_xpoint *p, np_vector *v, np_step *steps)
{
	const np_xspace *sp = p->sp;
	v->ngiven = 0;
	for (unsigned i = 0; i < sp->nprelude; i++)
		steps[i] = sp->prelude[i];
	np_step *st = &steps[sp->nprelude];
	memset(st, 0, sizeof *st);
	snprintf(st->function, sizeof st->function, "%s", sp->f->name);
	for (unsigned i = 0; i < sp->nd; i++) {
		const np_xdim *d = &sp->d[i];
		if (d->kind == NP_XDIM_SPELLING) {
			snprintf(st->function, sizeof st->function, "%s", p->val[i]);
		} else if (d->kind == NP_XDIM_GIVEN) {
			if (!np_xpoint_plain(p, i)) {
				np_pair *g = &v->given[v->ngiven++];
				snprintf(g->name, sizeof g->name, "%s", d->name);
				snprintf(g->value, sizeof g->value, "%s", p->val[i]);
			}
		} else if (!d->param->fallback || strcmp(d->param->fallback, p->val[i]) != 0) {
			/* required arguments always, the others where they differ */
			np_pair *a = &st->arg[st->narg++];
			snprintf(a->name, sizeof a->name, "%s", d->name);
			snprintf(a->value, sizeof a->value, "%s", p->val[i]);
		}
	}
	/* The values are the catalog's boundaries (test_explore reads the
	 * literal ones as a vector would) and numbers derived in range: a step
	 * the parser refuses is a bug of the explorer's tables. */
	if (sp->fixed.name[0])
		st->arg[st->narg++] = sp->fixed;
	if (np_step_type(st))
		abort(); /* LCOV_EXCL_LINE */
	for (unsigned k = 0; k < sp->nafter; k++) {
		np_step *next = &steps[sp->nprelude + 1 + k];
		*next = sp->after[k];
		for (unsigned a = 0; a < next->narg; a++)
			if (sp->after_dim[k][a] >= 0)
				snprintf(next->arg[a].value, sizeof next->arg[a].value, "%s", p->val[sp->after_dim[k][a]]);
		if (np_step_type(next))
			abort(); /* LCOV_EXCL_LINE: the axis' values are the same parameter kind's */
	}
	v->step = steps;
	v->nstep = sp->nprelude + 1 + sp->nafter;
}

unsigned long np_xevaluate(np_backend *b, const np_vector *v, const np_target_list *l, np_xresults *r)
{
	return b->step_timeout_ms ? np_xevaluate_isolated(b, v, l, r) : np_xevaluate_here(b, v, l, 0, r);
}

unsigned long np_xevaluate_here(np_backend *b, const np_vector *v, const np_target_list *l, unsigned first,
				np_xresults *r)
{
	unsigned long runs = 0;
	r->nstep = v->nstep;
	for (unsigned t = first; t < l->count; t++) {
		/* a backend's reason to skip (a live system refusing a predicted
		 * bug check) counts as refusing the state: nothing is run there */
		if (b->skip && b->skip(b, l->t[t], v)) {
			r->refused[t] = true;
			continue;
		}
		r->refused[t] = b->begin(b, l->t[t], v) != NULL;
		for (unsigned s = 0; s < v->nstep && !r->refused[t]; s++)
			b->step(b, &v->step[s], &r->rec[t][s]);
		b->end(b);
		runs++;
	}
	return runs;
}

void np_xoutcome_text(const np_outcome *o, char *buf, size_t cap)
{
	const char *name;
	switch (o->kind) {
	case NP_RESULT_STATUS:
		name = np_status_name(o->code);
		name ? snprintf(buf, cap, "%s", name) : snprintf(buf, cap, "0x%08X", o->code);
		break;
	case NP_RESULT_WIN32:
		name = np_win32_name(o->code);
		snprintf(buf, cap, "%s", name ? name : "ERROR_?");
		break;
	case NP_RESULT_FAULT:
		name = np_status_name(o->code);
		name ? snprintf(buf, cap, "fault %s", name) : snprintf(buf, cap, "fault 0x%08X", o->code);
		break;
	case NP_RESULT_BUGCHECK:
		name = np_bugcheck_name(o->code);
		name ? snprintf(buf, cap, "bugcheck %s", name) : snprintf(buf, cap, "bugcheck 0x%X", o->code);
		break;
	case NP_RESULT_NOT_EXPORTED:   snprintf(buf, cap, "not-exported"); break;
	case NP_RESULT_NOT_APPLICABLE: snprintf(buf, cap, "not-applicable"); break;
	case NP_RESULT_STUB:           snprintf(buf, cap, "stub"); break;
	case NP_RESULT_CRASHED:        snprintf(buf, cap, "crashed"); break;
	case NP_RESULT_CORRUPTION:     snprintf(buf, cap, "corruption"); break;
	case NP_RESULT_NONE:
	default:                    buf[0] = '\0'; break;
	}
}

/* The whole expectation of a record: outcome and every out-value. */
static void expectation(const np_record *r, char *buf, size_t cap)
{
	np_xoutcome_text(&r->outcome, buf, cap);
	size_t used = strlen(buf);
	for (unsigned i = 0; i < r->nout && used < cap; i++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%s=%s", used ? " " : "",
					 r->out[i].name, r->out[i].value);
}

void np_xrange_text(np_ver lo, np_ver hi, char *buf, size_t cap)
{
	np_ver last = (np_ver)(NP_VERSION_COUNT - 1);
	if (lo == 0 && hi == last)
		buf[0] = '\0';
	else if (lo == hi)
		snprintf(buf, cap, "%s", np_version_key(lo));
	else if (lo == 0)
		snprintf(buf, cap, "<%s", np_version_key((np_ver)(hi + 1)));
	else if (hi == last)
		snprintf(buf, cap, ">=%s", np_version_key(lo));
	else
		snprintf(buf, cap, "%s..%s", np_version_key(lo), np_version_key(hi));
}

static void arch_list(unsigned mask, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
		if (mask & (1u << a))
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? "," : "",
						 np_arch_name((np_arch)a));
}

/* One expect line: an expectation over versions [lo, hi] on a set of architectures. */
typedef struct line {
	char text[NP_TEXT_MAX * 4];
	np_ver lo, hi;
	unsigned archs;
} line;

#define MAX_LINES (NP_VERSION_COUNT * NP_ARCH_COUNT)

/* Index of target (v, a) in l, or -1. */
static int target_index(const np_target_list *l, np_ver v, np_arch a)
{
	for (unsigned t = 0; t < l->count; t++)
		if (l->t[t].version == v && l->t[t].arch == a)
			return (int)t;
	return -1;
}

/* The expect lines of step s over the architectures in archs: runs of
 * versions with one expectation, widened to the ends of the table (no
 * target exists out there), equal runs of several architectures merged. */
static unsigned expect_lines(const np_xresults *r, const np_target_list *all, unsigned s,
			     unsigned archs, line *out)
{
	unsigned n = 0;
	for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
		if (!(archs & (1u << a)))
			continue;
		line cur = { .archs = 1u << a };
		bool open = false;
		for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
			int t = target_index(all, (np_ver)v, (np_arch)a);
			if (t < 0)
				continue;
			char text[sizeof cur.text];
			expectation(&r->rec[t][s], text, sizeof text);
			if (open && strcmp(text, cur.text) == 0) {
				cur.hi = (np_ver)v;
				continue;
			}
			if (open)
				out[n++] = cur;
			snprintf(cur.text, sizeof cur.text, "%s", text);
			cur.lo = open ? (np_ver)v : 0;   /* the first run starts at the table's start */
			cur.hi = (np_ver)v;
			open = true;
		}
		if (open) {
			cur.hi = (np_ver)(NP_VERSION_COUNT - 1);
			out[n++] = cur;
		}
	}
	unsigned kept = 0;   /* merge equal runs of different architectures */
	for (unsigned i = 0; i < n; i++) {
		bool merged = false;
		for (unsigned k = 0; k < kept && !merged; k++)
			if (out[k].lo == out[i].lo && out[k].hi == out[i].hi &&
			    strcmp(out[k].text, out[i].text) == 0) {
				out[k].archs |= out[i].archs;
				merged = true;
			}
		if (!merged)
			out[kept++] = out[i];
	}
	return kept;
}

/* Adds the words of list to buf (space-separated, each once, at most max). */
static void add_words(char *buf, size_t cap, const char *list, unsigned max)
{
	char word[NP_NAME_MAX];
	unsigned have = 0;
	for (const char *c = buf; *c;) {
		while (*c == ' ')
			c++;
		if (*c)
			have++;
		while (*c && *c != ' ')
			c++;
	}
	for (const char *c = list; c && *c && have < max;) {
		while (*c == ' ')
			c++;
		size_t n = strcspn(c, " ");
		if (n == 0 || n >= sizeof word) {
			c += n;
			continue;
		}
		memcpy(word, c, n);
		word[n] = '\0';
		c += n;
		bool dup = false;
		for (const char *h = buf; *h && !dup;) {
			size_t m = strcspn(h, " ");
			dup = m == n && strncmp(h, word, n) == 0;
			h += m;
			while (*h == ' ')
				h++;
		}
		if (!dup && strlen(buf) + n + 2 < cap) {
			if (buf[0])
				strcat(buf, " ");
			strcat(buf, word);
			have++;
		}
	}
}

static bool hazardous_outcome(np_result_kind k)
{
	return k == NP_RESULT_FAULT || k == NP_RESULT_BUGCHECK || k == NP_RESULT_CORRUPTION;
}

/* The architectures the vector applies to: those whose every version takes
 * the combination's state, less those where the explored call cannot be
 * expressed on any version. */
static unsigned applicable_archs(const np_xresults *r, const np_target_list *all, unsigned explored)
{
	unsigned ok = 0, any_expressible = 0, refused = 0;
	for (unsigned t = 0; t < all->count; t++) {
		unsigned bit = 1u << all->t[t].arch;
		if (r->refused[t]) {
			refused |= bit;
			continue;
		}
		ok |= bit;
		if (r->rec[t][explored].outcome.kind != NP_RESULT_NOT_APPLICABLE)
			any_expressible |= bit;
	}
	return ok & ~refused & any_expressible;
}

bool np_xvector_write(FILE *out, np_backend *model, const np_xpoint *p, const char *title,
		      const char *rules, const char *flags, const char *source, np_xresults *work,
		      unsigned long *evaluations)
{
	static np_vector v;
	static np_step steps[NP_X_MAX_STEPS];
	np_target_list all;
	np_targets_all(&all);
	np_xpoint_vector(p, &v, steps);
	*evaluations += np_xevaluate(model, &v, &all, work);
	unsigned explored = p->sp->nprelude;
	unsigned archs = applicable_archs(work, &all, explored);
	if (!archs)
		return false;

	char id[NP_TEXT_MAX], fl[NP_TEXT_MAX] = "", text[NP_TEXT_MAX * 2];
	unsigned nargs = 0;
	bool kernel = false, hazard = false, changes = false;
	for (unsigned i = 0; i < p->sp->nd; i++) {
		nargs += p->sp->d[i].kind == NP_XDIM_ARG && !np_xpoint_plain(p, i);
		kernel = kernel || (strcmp(p->sp->d[i].name, "mode") == 0 && strcmp(p->val[i], "kernel") == 0);
	}
	static line lines[NP_X_MAX_STEPS][MAX_LINES];
	unsigned nlines[NP_X_MAX_STEPS];
	for (unsigned s = 0; s < v.nstep; s++) {
		nlines[s] = expect_lines(work, &all, s, archs, lines[s]);
		for (unsigned t = 0; t < all.count; t++)
			hazard = hazard || (!work->refused[t] && (archs & (1u << all.t[t].arch)) &&
					    hazardous_outcome(work->rec[t][s].outcome.kind));
	}
	for (unsigned i = 1; i < nlines[explored]; i++)   /* the explored call's outcome moves */
		changes = changes || strcmp(lines[explored][i].text, lines[explored][0].text) != 0;
	add_words(fl, sizeof fl, flags, NP_MAX_FLAGS);
	add_words(fl, sizeof fl, nargs >= 2 ? "order" : NULL, NP_MAX_FLAGS);
	add_words(fl, sizeof fl, changes ? "version-change" : NULL, NP_MAX_FLAGS);
	add_words(fl, sizeof fl, kernel ? "not-live" : NULL, NP_MAX_FLAGS);
	add_words(fl, sizeof fl, hazard ? "hazardous" : NULL, NP_MAX_FLAGS);

	np_xvector_id(p, id, sizeof id);
	fprintf(out, "vector %s\n", id);
	fprintf(out, "  title   %.190s\n", title);
	fprintf(out, "  rules   %s\n", rules);
	fprintf(out, "  flags   %s\n", fl);
	fprintf(out, "  source  %.190s\n", source);
	unsigned every = (1u << NP_ARCH_COUNT) - 1;
	if (archs != every) {
		arch_list(archs, text, sizeof text);
		fprintf(out, "  applies all arch=%s\n", text);
	}
	if (v.ngiven) {
		fprintf(out, "  given  ");
		for (unsigned g = 0; g < v.ngiven; g++)
			fprintf(out, " %s=%s", v.given[g].name, v.given[g].value);
		fprintf(out, "\n");
	}
	for (unsigned s = 0; s < v.nstep; s++) {
		if (s < p->sp->nprelude) {
			fprintf(out, "  call    %s\n", p->sp->prelude_text[s]);
		} else {
			fprintf(out, "  call    %s", v.step[s].function);
			for (unsigned a = 0; a < v.step[s].narg; a++)
				fprintf(out, " %s=%s", v.step[s].arg[a].name, v.step[s].arg[a].value);
			fprintf(out, "\n");
		}
		for (unsigned i = 0; i < nlines[s]; i++) {
			const line *l = &lines[s][i];
			char range[NP_TEXT_MAX], al[NP_TEXT_MAX];
			np_xrange_text(l->lo, l->hi, range, sizeof range);
			arch_list(l->archs, al, sizeof al);
			fprintf(out, "  expect  %s%s%s%s%s\n", l->text[0] ? l->text : "",
				range[0] ? " on " : "", range, l->archs == archs ? "" : " arch=",
				l->archs == archs ? "" : al);
		}
	}
	fprintf(out, "\n");
	return true;
}
