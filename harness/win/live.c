/* `ntprof.exe live` (live.h): the live system probed, its intervals saved,
 * and the backend the runner drives: sessions in child processes
 * (remote.c), vectors skipped where they are unsafe, and the intervals a
 * vector may have changed put back after it.
 *
 * Profile intervals are global state of the kernel that outlives the
 * process (peers.md §11.6). The interval of every source a vector may set
 * is read before the run (NtQueryIntervalProfile, in a child) and set back
 * (NtSetIntervalProfile with the privilege enabled, in a child) after every
 * vector that may have changed it, whatever that vector ended in, at the
 * end of the run, and on Ctrl-C, and read back each time: a source the last
 * restore did not put back is named, and the run exits 3 (cmd_live.c).
 * A source whose interval cannot be read cannot be restored: the vectors
 * that set it are skipped, unless --allow-unsaved-intervals (Wine:
 * NtQueryIntervalProfile is not exported there, and its
 * NtSetIntervalProfile changes nothing; tests/cli/test_wine_restore.sh
 * gives the exe a stand-in for both, through NTPROF_NTDLL). */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "win/impl_windows.h"
#include "win/live.h"
#include "ntprof/names.h"
#include "run/safety.h"

#define MAX_SOURCES 32

typedef struct saved_interval {
	uint32_t source;
	bool saved;
	uint32_t value;
	char why[NP_TEXT_MAX];      /* why it could not be saved */
	unsigned restored, failed;  /* restores done, restores that did not succeed */
	char failure[NP_TEXT_MAX];  /* the last failure */
	bool left;                  /* the last restore did not put the value back */
} saved_interval;

struct np_live {
	np_live_options opt;
	np_win_env env;
	np_target target;
	bool target_known;
	char hal[NP_TEXT_MAX];
	np_backend *remote;          /* the vectors' sessions */
	np_backend *rescue;          /* restores on Ctrl-C, while remote may be busy */
	np_backend *model;           /* hazard predictions */
	np_backend self;             /* what the runner drives */
	saved_interval iv[MAX_SOURCES];
	unsigned niv;
	uint32_t touching[MAX_SOURCES];   /* the current vector's sources */
	unsigned ntouching;
	bool stepped;                /* the current vector ran a step */
	unsigned vectors_restored;   /* vectors after which intervals were restored */
	unsigned skipped_hazard, skipped_unsaved;
	char standin[NP_TEXT_MAX];   /* NTPROF_NTDLL, tests only: "" unset */
	bool standin_ok;
};

static np_live *interrupt_target;   /* the run Ctrl-C must restore */
/* Set first thing on Ctrl-C: the handler restores, reports and ends the
 * process. The main thread, whose child is being ended under it, must
 * neither restore beside it (two restores at once would race on the
 * counts) nor write the report of a run cut short and exit with another
 * status: it waits at its next stop for the handler to end the process. */
static volatile LONG interrupting;

static void wait_if_interrupted(void)
{
	while (interrupting)
		Sleep(INFINITE);
}

static const char *source_text(uint32_t source, char *buf, size_t cap)
{
	const char *name = np_source_name(source);
	if (name)
		snprintf(buf, cap, "%s", name);
	else
		snprintf(buf, cap, "0x%X", source);
	return buf;
}

/* Runs one step line in a fresh child session with the given pairs (each
 * "KEY=VALUE"); false with out->why when the session could not begin. */
static bool run_one_step(np_live *l, np_backend *b, const char *const *given, unsigned ngiven,
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
	if (e) {   /* LCOV_EXCL_LINE: the lines are this file's own */
		out->outcome.kind = NP_OUT_NOT_APPLICABLE;
		snprintf(out->why, sizeof out->why, "%s: %s", line, e);
		return false;
	}
	v.step = &st;
	v.nstep = 1;
	const char *why = b->begin(b, l->target, &v);
	if (why) {
		out->outcome.kind = NP_OUT_NOT_APPLICABLE;
		snprintf(out->why, sizeof out->why, "%s", why);
		b->end(b);
		return false;
	}
	b->step(b, &st, out);
	b->end(b);
	return true;
}

static void describe(const np_record *r, char *buf, size_t cap)
{
	char outcome[96];
	np_format_outcome(&r->outcome, outcome, sizeof outcome);
	if (r->why[0])
		snprintf(buf, cap, "%s: %s", outcome, r->why);
	else
		snprintf(buf, cap, "%s", outcome);
}

static const char *out_value(const np_record *r, const char *name)
{
	for (unsigned i = 0; i < r->nout; i++)
		if (strcmp(r->out[i].name, name) == 0)
			return r->out[i].value;
	return NULL;
}

/* TR-7: the HAL's sources with their limits, where the system lists them. */
static void probe_hal(np_live *l)
{
	np_record r;
	if (!run_one_step(l, l->remote, NULL, 0, "TraceQueryInformation InformationClass=7", &r)) {
		snprintf(l->hal, sizeof l->hal, "not probed: %s", r.why);
		return;
	}
	const char *limits = out_value(&r, "Limits");
	if (r.outcome.kind == NP_OUT_WIN32 && r.outcome.code == 0 && limits)
		snprintf(l->hal, sizeof l->hal, "%s (source:min:max)", limits);
	else
		describe(&r, l->hal, sizeof l->hal);
}

static saved_interval *find_interval(np_live *l, uint32_t source)
{
	for (unsigned i = 0; i < l->niv; i++)
		if (l->iv[i].source == source)
			return &l->iv[i];
	return NULL;
}

/* The interval of source as NtQueryIntervalProfile reads it, in a child;
 * false with why when it cannot be read. */
static bool query_interval(np_live *l, np_backend *b, uint32_t source, uint32_t *value, char *why,
			   size_t cap)
{
	char line[96];
	np_record r;
	uint64_t got;
	snprintf(line, sizeof line, "NtQueryIntervalProfile Source=%u", source);
	run_one_step(l, b, NULL, 0, line, &r);
	const char *text = out_value(&r, "Interval");
	if (r.outcome.kind == NP_OUT_STATUS && r.outcome.code == 0 && text &&
	    np_number_parse(text, &got)) {
		*value = (uint32_t)got;
		return true;
	}
	char d[NP_TEXT_MAX];
	describe(&r, d, sizeof d);
	snprintf(why, cap, "NtQueryIntervalProfile: %s", d);
	return false;
}

/* Reads the interval of every source that an applicable vector may set. */
static void save_intervals(np_live *l, const np_vector_set *set)
{
	for (unsigned i = 0; i < set->count; i++) {
		const np_vector *v = &set->v[i];
		uint32_t src[MAX_SOURCES];
		if (!np_applies(&v->applies, l->target.version, l->target.arch))
			continue;
		unsigned n = np_vector_interval_sources(v, src, MAX_SOURCES);
		for (unsigned k = 0; k < n; k++)
			if (!find_interval(l, src[k]) && l->niv < MAX_SOURCES)
				l->iv[l->niv++].source = src[k];
	}
	for (unsigned i = 0; i < l->niv; i++) {
		saved_interval *s = &l->iv[i];
		s->saved = query_interval(l, l->remote, s->source, &s->value, s->why, sizeof s->why);
	}
}

/* Sets back the saved interval of s and reads it again: a set that returns
 * success is no proof (the HAL rounds the interval to what its timer can
 * do), so the value read must be the value saved. */
static void restore_one(np_live *l, np_backend *b, saved_interval *s)
{
	static const char *const privileged[] = { "privilege=on" };
	char line[96], why[NP_TEXT_MAX];
	np_record r;
	uint32_t now;
	snprintf(line, sizeof line, "NtSetIntervalProfile Interval=%u Source=%u", s->value, s->source);
	/* the privilege where it can be had (6.2 on needs it, SI-1), else without */
	bool ran = run_one_step(l, b, privileged, 1, line, &r) || run_one_step(l, b, NULL, 0, line, &r);
	bool set = ran && r.outcome.kind == NP_OUT_STATUS && r.outcome.code == 0;
	bool read = query_interval(l, b, s->source, &now, why, sizeof why);
	if (!set) {
		char d[NP_TEXT_MAX];
		describe(&r, d, sizeof d);
		if (read)   /* what it was left at, where that can be read */
			snprintf(s->failure, sizeof s->failure, "NtSetIntervalProfile: %s; the interval reads %u",
				 d, now);
		else
			snprintf(s->failure, sizeof s->failure, "NtSetIntervalProfile: %s", d);
	} else if (!read) {
		snprintf(s->failure, sizeof s->failure, "set, but the re-read failed: %s", why);
	} else if (now != s->value) {
		snprintf(s->failure, sizeof s->failure,
			 "NtSetIntervalProfile returned success, but the interval reads %u", now);
	} else {
		s->restored++;
		s->left = false;
		return;
	}
	s->failed++;
	s->left = true;
}

/* Sets back the saved intervals of the sources listed (all when n is 0). */
static void restore(np_live *l, np_backend *b, const uint32_t *src, unsigned n)
{
	for (unsigned i = 0; i < l->niv; i++) {
		saved_interval *s = &l->iv[i];
		bool wanted = n == 0;
		for (unsigned k = 0; k < n && !wanted; k++)
			wanted = src[k] == s->source;
		if (wanted && s->saved)
			restore_one(l, b, s);
	}
}

/* "ProfileTime (saved 10000): WHY, ..." for the sources the last restore
 * did not put back; how many. */
static unsigned left_text(const np_live *l, char *buf, size_t cap)
{
	size_t used = 0;
	unsigned n = 0;
	char name[32];
	buf[0] = '\0';
	for (unsigned i = 0; i < l->niv; i++) {
		const saved_interval *s = &l->iv[i];
		if (!s->saved || !s->left)
			continue;
		n++;
		if (used < cap)
			used += (size_t)snprintf(buf + used, cap - used, "%s%s (saved %u): %s",
						 used ? "; " : "", source_text(s->source, name, sizeof name),
						 s->value, s->failure);
	}
	return n;
}

/* "ProfileTime=10000, ...; not saved (WHY): A, B" (sources that could not
 * be saved grouped by the reason, which is mostly the same for all). */
static void saved_text(const np_live *l, char *buf, size_t cap)
{
	size_t used = 0;
	char name[32];
	bool listed[MAX_SOURCES] = { false };
	buf[0] = '\0';
	for (unsigned i = 0; i < l->niv && used < cap; i++)
		if (l->iv[i].saved)
			used += (size_t)snprintf(buf + used, cap - used, "%s%s=%u", used ? ", " : "",
						 source_text(l->iv[i].source, name, sizeof name),
						 l->iv[i].value);
	for (unsigned i = 0; i < l->niv && used < cap; i++) {
		if (l->iv[i].saved || listed[i])
			continue;
		used += (size_t)snprintf(buf + used, cap - used, "%snot saved (%s): ", used ? "; " : "",
					 l->iv[i].why);
		for (unsigned k = i, first = 1; k < l->niv && used < cap; k++) {
			if (l->iv[k].saved || listed[k] || strcmp(l->iv[k].why, l->iv[i].why) != 0)
				continue;
			listed[k] = true;
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", first ? "" : ", ",
						 source_text(l->iv[k].source, name, sizeof name));
			first = 0;
		}
	}
	if (l->niv == 0)
		snprintf(buf, cap, "none (no vector here sets an interval)");
}

/* last: when the last restore was ("at the end", "on Ctrl-C"). */
static void restored_text(const np_live *l, const char *last, char *buf, size_t cap)
{
	size_t used = 0;
	char name[32];
	buf[0] = '\0';
	for (unsigned i = 0; i < l->niv && used < cap; i++) {
		const saved_interval *s = &l->iv[i];
		if (!s->saved)
			continue;
		source_text(s->source, name, sizeof name);
		used += (size_t)snprintf(buf + used, cap - used, "%s%s=%u %u times", used ? ", " : "",
					 name, s->value, s->restored);
		if (s->failed && used < cap)
			used += (size_t)snprintf(buf + used, cap - used, " (%u failed: %s)", s->failed,
						 s->failure);
	}
	if (used == 0)
		snprintf(buf, cap, "nothing to restore");
	else if (used < cap)
		snprintf(buf + used, cap - used, "; after %u vectors and %s", l->vectors_restored, last);
}

static BOOL WINAPI on_interrupt(DWORD type)
{
	if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT && type != CTRL_CLOSE_EVENT)
		return FALSE;
	np_live *l = interrupt_target;
	InterlockedExchange(&interrupting, 1);
	np_win_remote_interrupt();
	if (l) {
		char text[1024];
		restore(l, l->rescue, NULL, 0);
		restored_text(l, "on Ctrl-C", text, sizeof text);
		fprintf(stderr, "ntprof live: interrupted; intervals restored: %s\n", text);
		if (left_text(l, text, sizeof text))
			fprintf(stderr, "ntprof live: intervals left changed: %s\n", text);
		fflush(stderr);
	}
	ExitProcess(130);
	return TRUE;
}

/* ---- the backend the runner drives ---- */

static const char *live_skip(np_backend *self, np_target t, const np_vector *v)
{
	np_live *l = self->state;
	static char why[NP_TEXT_MAX * 2];
	uint32_t src[MAX_SOURCES];
	char name[32];
	unsigned n = np_vector_interval_sources(v, src, MAX_SOURCES);
	for (unsigned k = 0; k < n && !l->opt.allow_unsaved_intervals; k++) {
		const saved_interval *s = find_interval(l, src[k]);
		if (!s || !s->saved) {
			l->skipped_unsaved++;
			snprintf(why, sizeof why,
				 "it sets the %s interval, which could not be saved to be restored (%s); "
				 "--allow-unsaved-intervals runs it anyway",
				 source_text(src[k], name, sizeof name), s ? s->why : "not probed");
			return why;
		}
	}
	char hazard[NP_TEXT_MAX];
	if (!l->opt.allow_hazard && np_vector_hazard(v, t, l->model, hazard, sizeof hazard)) {
		l->skipped_hazard++;
		snprintf(why, sizeof why, "%s; --allow-hazard runs it anyway", hazard);
		return why;
	}
	return NULL;
}

static const char *live_begin(np_backend *self, np_target t, const np_vector *v)
{
	np_live *l = self->state;
	wait_if_interrupted();
	l->ntouching = np_vector_interval_sources(v, l->touching, MAX_SOURCES);
	l->stepped = false;
	return l->remote->begin(l->remote, t, v);
}

static void live_step(np_backend *self, const np_step *st, np_record *out)
{
	np_live *l = self->state;
	l->stepped = true;
	l->remote->step(l->remote, st, out);
}

static void live_end(np_backend *self)
{
	np_live *l = self->state;
	l->remote->end(l->remote);
	wait_if_interrupted();
	if (l->stepped && l->ntouching) {   /* whatever the vector ended in */
		restore(l, l->remote, l->touching, l->ntouching);
		l->vectors_restored++;
	}
	l->ntouching = 0;
	l->stepped = false;
}

static void live_destroy(np_backend *self)
{
	(void)self;   /* owned by the np_live */
}

/* ---- the run ---- */

np_live *np_live_open(const np_vector_set *set, const np_live_options *opt)
{
	np_live *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->opt = *opt;
	l->remote = np_win_remote_new("windows", false);
	l->rescue = np_win_remote_new("windows", true);
	l->model = np_backend_model_new();
	if (!l->remote || !l->rescue || !l->model) {
		np_live_close(l);
		return NULL;
	}
	np_win_probe(&l->env);
	l->standin_ok = np_win_standin(l->standin, sizeof l->standin);
	l->self = (np_backend){ l->env.wine[0] ? "wine" : "windows", live_begin, live_step, live_end,
				live_destroy, l, live_skip };
	l->target_known = l->env.version_known;
	l->target = (np_target){ l->env.version, l->env.arch };
	if (!l->target_known || !l->standin_ok)
		return l;
	probe_hal(l);
	save_intervals(l, set);
	interrupt_target = l;
	SetConsoleCtrlHandler(on_interrupt, TRUE);
	return l;
}

bool np_live_target(const np_live *l, np_target *t, char *why, size_t cap)
{
	if (!l->standin_ok) {
		snprintf(why, cap, "%s", l->standin);
		return false;
	}
	if (l->env.refusal[0]) {   /* ARM64 emulation, or an unreadable compatibility mode */
		snprintf(why, cap, "%s", l->env.refusal);
		return false;
	}
	if (!l->target_known) {
		snprintf(why, cap, "the live system, %s, is no version `ntprof versions` knows",
			 l->env.version_text);
		return false;
	}
	*t = l->target;
	return true;
}

unsigned np_live_mirror(const np_live *l, np_pair *out, unsigned cap)
{
	return np_win_mirror(&l->env, out, cap);
}

np_backend *np_live_backend(np_live *l)
{
	return &l->self;
}

void np_live_finish(np_live *l, np_run *run)
{
	char text[1024];
	wait_if_interrupted();
	restore(l, l->remote, NULL, 0);
	np_run_env(run, "system", l->env.version_text);
	np_run_env(run, "version", l->target_known ? np_version_key(l->env.version) : "unknown");
	np_run_env(run, "arch", np_arch_name(l->env.arch));
	np_run_env(run, "wine", l->env.wine[0] ? l->env.wine : "no");
	snprintf(text, sizeof text, "%u in %u group%s", l->env.cpus, l->env.groups,
		 l->env.groups == 1 ? "" : "s");
	np_run_env(run, "processors", text);
	snprintf(text, sizeof text, "SeSystemProfilePrivilege %s",
		 !l->env.privilege_enableable ? "cannot be enabled"
		 : l->env.privilege_enabled ? "can be enabled (was enabled)" : "can be enabled (was disabled)");
	np_run_env(run, "privilege", text);
	np_run_env(run, "integrity", l->env.integrity ? l->env.integrity : "?");
	np_run_env(run, "hal sources", l->hal[0] ? l->hal : "not probed");
	np_pair mirror[8];
	unsigned n = np_live_mirror(l, mirror, 8);
	size_t used = 0;
	text[0] = '\0';
	for (unsigned i = 0; i < n && used < sizeof text; i++)
		used += (size_t)snprintf(text + used, sizeof text - used, "%s%s=%s", i ? " " : "",
					 mirror[i].name, mirror[i].value);
	np_run_env(run, "model mirrors", text);
	np_run_env(run, "isolation", "one child process per vector (stub and crash records)");
	if (l->standin[0])
		np_run_env(run, "ntdll stand-in", l->standin);
	saved_text(l, text, sizeof text);
	np_run_env(run, "intervals saved", text);
	restored_text(l, "at the end", text, sizeof text);
	np_run_env(run, "intervals restored", text);
	snprintf(text, sizeof text, "%u hazardous (--allow-hazard %s), %u setting an unsaved interval "
		 "(--allow-unsaved-intervals %s)", l->skipped_hazard, l->opt.allow_hazard ? "on" : "off",
		 l->skipped_unsaved, l->opt.allow_unsaved_intervals ? "on" : "off");
	np_run_env(run, "skipped", text);
	saved_text(l, text, sizeof text);
	fprintf(stderr, "ntprof live: intervals saved: %s\n", text);
	restored_text(l, "at the end", text, sizeof text);
	fprintf(stderr, "ntprof live: intervals restored: %s\n", text);
	if (left_text(l, text, sizeof text)) {
		np_run_env(run, "intervals left changed", text);
		fprintf(stderr, "ntprof live: intervals left changed: %s\n", text);
	}
}

unsigned np_live_left_changed(const np_live *l)
{
	char text[8];
	return left_text(l, text, sizeof text);
}

void np_live_close(np_live *l)
{
	if (!l)
		return;
	if (interrupt_target == l) {
		SetConsoleCtrlHandler(on_interrupt, FALSE);
		interrupt_target = NULL;
	}
	if (l->remote)
		l->remote->destroy(l->remote);
	if (l->rescue)
		l->rescue->destroy(l->rescue);
	if (l->model)
		l->model->destroy(l->model);
	free(l);
}
