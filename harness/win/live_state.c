/* SPDX-License-Identifier: MIT */
/* The global state a live run saves and restores (live_state.h).
 *
 * Each piece is read, set back and read again through the calls that
 * change it: a source's interval through NtQueryIntervalProfile and
 * NtSetIntervalProfile; the ETW time-profile interval through
 * TraceQueryInformation and TraceSetInformation class 5 with Source 0
 * (TR-4), because whether it is the HAL's ProfileTime interval
 * (K-ETW-TIME) is not known: restored through NtSetIntervalProfile, a
 * separate variable would stay changed. Every call runs in a child. */
#include <stdio.h>
#include <string.h>

#include "ntprof/names.h"
#include "ntprof/number.h"
#include "ntprof/runner.h"
#include "win/live_state.h"

bool np_live_one_step(np_backend *b, np_target t, const char *const *given, unsigned ngiven,
		      const char *line, np_record *out)
{
	np_vector v;
	np_step st;
	memset(&v, 0, sizeof v);
	memset(out, 0, sizeof *out);
	for (unsigned i = 0; i < ngiven && i < NP_MAX_GIVEN; i++)
		if (!np_parse_given_pair(given[i], &v.given[v.ngiven]))
			v.ngiven++;
	const char *e = np_parse_step(line, &st);
	if (e) {   /* LCOV_EXCL_LINE: the lines are the harness's own */
		out->outcome.kind = NP_RESULT_NOT_APPLICABLE;
		snprintf(out->why, sizeof out->why, "%s: %s", line, e);
		return false;
	}
	v.step = &st;
	v.nstep = 1;
	const char *why = b->begin(b, t, &v);
	if (why) {
		out->outcome.kind = NP_RESULT_NOT_APPLICABLE;
		snprintf(out->why, sizeof out->why, "%s", why);
		b->end(b);
		return false;
	}
	b->step(b, &st, out);
	b->end(b);
	return true;
}

const char *np_live_out(const np_record *r, const char *name)
{
	for (unsigned i = 0; i < r->nout; i++)
		if (strcmp(r->out[i].name, name) == 0)
			return r->out[i].value;
	return NULL;
}

void np_live_describe(const np_record *r, char *buf, size_t cap)
{
	char outcome[96];
	np_format_outcome(&r->outcome, outcome, sizeof outcome);
	if (r->why[0])
		snprintf(buf, cap, "%s: %s", outcome, r->why);
	else
		snprintf(buf, cap, "%s", outcome);
}

np_saved *np_saved_find(np_saved_set *set, np_global g)
{
	for (unsigned i = 0; i < set->n; i++)
		if (np_global_equal(set->s[i].g, g))
			return &set->s[i];
	return NULL;
}

/* The call that reads g, and whether r is its success. */
static const char *read_call(np_global g)
{
	return g.kind == NP_GLOBAL_ETW_TIME ? "TraceQueryInformation" : "NtQueryIntervalProfile";
}

static const char *set_call(np_global g)
{
	return g.kind == NP_GLOBAL_ETW_TIME ? "TraceSetInformation" : "NtSetIntervalProfile";
}

static bool succeeded(np_global g, const np_record *r)
{
	np_result_kind kind = g.kind == NP_GLOBAL_ETW_TIME ? NP_RESULT_WIN32 : NP_RESULT_STATUS;
	return r->outcome.kind == kind && r->outcome.code == 0;
}

/* The value of g as its read call gives it, in a child; false with why. */
static bool read_global(np_backend *b, np_target t, np_global g, uint32_t *value, char *why,
			size_t cap)
{
	char line[96], d[NP_TEXT_MAX];
	np_record r;
	uint64_t got;
	if (g.kind == NP_GLOBAL_ETW_TIME)
		snprintf(line, sizeof line, "TraceQueryInformation InformationClass=5 Source=0");
	else
		snprintf(line, sizeof line, "NtQueryIntervalProfile Source=%u", g.source);
	np_live_one_step(b, t, NULL, 0, line, &r);
	const char *text = np_live_out(&r, "Interval");
	if (succeeded(g, &r) && text && np_number_parse(text, &got)) {
		*value = (uint32_t)got;
		return true;
	}
	np_live_describe(&r, d, sizeof d);
	snprintf(why, cap, "%s: %s", read_call(g), d);
	return false;
}

void np_saved_read(np_saved_set *set, const np_vector_set *vectors, np_backend *b, np_target t,
		   bool privilege)
{
	for (unsigned i = 0; i < vectors->count; i++) {
		const np_vector *v = &vectors->v[i];
		np_global g[NP_LIVE_MAX_STATE];
		if (!np_applies(&v->applies, t.version, t.arch))
			continue;
		unsigned n = np_vector_globals(v, g, NP_LIVE_MAX_STATE);
		for (unsigned k = 0; k < n; k++)
			if (!np_saved_find(set, g[k]) && set->n < NP_LIVE_MAX_STATE)
				set->s[set->n++].g = g[k];
	}
	for (unsigned i = 0; i < set->n; i++) {
		np_saved *s = &set->s[i];
		s->saved = read_global(b, t, s->g, &s->value, s->why, sizeof s->why);
		if (!np_global_unrestorable(s->g, t, privilege, s->blocked, sizeof s->blocked))
			s->blocked[0] = '\0';
	}
}

/* Sets back the saved value of s and reads it again: a set that returns
 * success is no proof (the HAL rounds the interval to what its timer can
 * do), so the value read must be the value saved. */
static void restore_one(np_backend *b, np_target t, np_saved *s, volatile long *stop)
{
	static const char *const privileged[] = { "privilege=on" };
	char line[128], why[NP_TEXT_MAX], d[NP_TEXT_MAX];
	np_record r;
	uint32_t now;
	if (s->g.kind == NP_GLOBAL_ETW_TIME)
		snprintf(line, sizeof line, "TraceSetInformation InformationClass=5 Source=0 Interval=%u",
			 s->value);
	else
		snprintf(line, sizeof line, "NtSetIntervalProfile Interval=%u Source=%u", s->value,
			 s->g.source);
	/* the privilege where it can be had (6.2 on needs it, SI-1), else without */
	bool ran = np_live_one_step(b, t, privileged, 1, line, &r) ||
		   np_live_one_step(b, t, NULL, 0, line, &r);
	bool set = ran && succeeded(s->g, &r);
	bool read = read_global(b, t, s->g, &now, why, sizeof why);
	if (stop && *stop)
		return;   /* cut short: the restore that follows the interrupt counts */
	np_live_describe(&r, d, sizeof d);
	if (!set && read)   /* what it was left at, where that can be read */
		snprintf(s->failure, sizeof s->failure, "%s: %s; the interval reads %u", set_call(s->g),
			 d, now);
	else if (!set)
		snprintf(s->failure, sizeof s->failure, "%s: %s", set_call(s->g), d);
	else if (!read)
		snprintf(s->failure, sizeof s->failure, "set, but the re-read failed: %s", why);
	else if (now != s->value)
		snprintf(s->failure, sizeof s->failure,
			 "%s returned success, but the interval reads %u", set_call(s->g), now);
	else {
		s->restored++;
		s->left = false;
		return;
	}
	s->failed++;
	s->left = true;
}

void np_saved_restore(np_saved_set *set, np_backend *b, np_target t, const np_global *g, unsigned n,
		      volatile long *stop)
{
	for (unsigned i = 0; i < set->n && !(stop && *stop); i++) {
		np_saved *s = &set->s[i];
		bool wanted = n == 0;
		for (unsigned k = 0; k < n && !wanted; k++)
			wanted = np_global_equal(g[k], s->g);
		if (wanted && s->saved)
			restore_one(b, t, s, stop);
	}
}

unsigned np_saved_left_text(const np_saved_set *set, char *buf, size_t cap)
{
	size_t used = 0;
	unsigned n = 0;
	char name[32];
	buf[0] = '\0';
	for (unsigned i = 0; i < set->n; i++) {
		const np_saved *s = &set->s[i];
		if (!s->saved || !s->left)
			continue;
		n++;
		if (used < cap)
			used += (size_t)snprintf(buf + used, cap - used, "%s%s (saved %u): %s",
						 used ? "; " : "", np_global_name(s->g, name, sizeof name),
						 s->value, s->failure);
	}
	return n;
}

/* "ProfileTime=10000, ...; not saved (WHY): A, B" (the pieces that could not
 * be saved grouped by the reason, which is mostly the same for all). */
void np_saved_text(const np_saved_set *set, char *buf, size_t cap)
{
	size_t used = 0;
	char name[32];
	bool listed[NP_LIVE_MAX_STATE] = { false };
	buf[0] = '\0';
	for (unsigned i = 0; i < set->n && used < cap; i++)
		if (set->s[i].saved)
			used += (size_t)snprintf(buf + used, cap - used, "%s%s=%u", used ? ", " : "",
						 np_global_name(set->s[i].g, name, sizeof name),
						 set->s[i].value);
	for (unsigned i = 0; i < set->n && used < cap; i++) {
		if (set->s[i].saved || listed[i])
			continue;
		used += (size_t)snprintf(buf + used, cap - used, "%snot saved (%s): ", used ? "; " : "",
					 set->s[i].why);
		for (unsigned k = i, first = 1; k < set->n && used < cap; k++) {
			if (set->s[k].saved || listed[k] || strcmp(set->s[k].why, set->s[i].why) != 0)
				continue;
			listed[k] = true;
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", first ? "" : ", ",
						 np_global_name(set->s[k].g, name, sizeof name));
			first = 0;
		}
	}
	if (set->n == 0)
		snprintf(buf, cap, "none (no vector here sets an interval)");
}

void np_restored_text(const np_saved_set *set, const char *last, char *buf, size_t cap)
{
	size_t used = 0;
	char name[32];
	buf[0] = '\0';
	for (unsigned i = 0; i < set->n && used < cap; i++) {
		const np_saved *s = &set->s[i];
		if (!s->saved)
			continue;
		used += (size_t)snprintf(buf + used, cap - used, "%s%s=%u %u times", used ? ", " : "",
					 np_global_name(s->g, name, sizeof name), s->value, s->restored);
		if (s->failed && used < cap)
			used += (size_t)snprintf(buf + used, cap - used, " (%u failed: %s)", s->failed,
						 s->failure);
	}
	if (used == 0)
		snprintf(buf, cap, "nothing to restore");
	else if (used < cap)
		snprintf(buf + used, cap - used, "; after %u vectors and %s", set->vectors_restored, last);
}
