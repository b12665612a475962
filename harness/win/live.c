/* SPDX-License-Identifier: MIT */
/* `ntprof.exe live` (live.h): the live system probed, its global state
 * saved, and the backend the runner drives: sessions in child processes
 * (remote.c), vectors skipped where they are unsafe or cannot be judged,
 * and the state a vector may have changed put back after it.
 *
 * Profile intervals and the ETW time-profile interval are global state of
 * the kernel that outlives the process (peers.md §11.6). Each piece a
 * vector may set is read before the run, set back after every vector that
 * may have changed it, whatever that vector ended in, at the end of the
 * run, and on Ctrl-C, and read back each time, through the calls that
 * change it (live_state.c): a piece the last restore did not put back is
 * named, and the run exits 3 (cmd_live.c). A vector runs only when all it
 * may change was saved and this process can put it back (the privilege a
 * restore needs, run/safety.h); otherwise it is skipped with the reason,
 * unless --allow-unsaved-intervals (Wine: NtQueryIntervalProfile is not
 * exported there, and its NtSetIntervalProfile changes nothing;
 * conformance/cli/test_wine_restore.sh gives the exe a stand-in for the interval
 * calls and the Trace* class 5 calls, through NTPROF_NTDLL).
 *
 * Ctrl-C: the console handler only marks the run interrupted and ends the
 * running child (so that the main thread's wait returns); the main thread
 * restores at its next stop, through sessions that an interrupt does not
 * refuse, reports and exits 130. A second Ctrl-C changes nothing. */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "win/impl_windows.h"
#include "win/live.h"
#include "win/live_state.h"
#include "ntprof/names.h"
#include "run/safety.h"

#define MAX_MIRROR 16   /* the vectors' own given pairs need the rest of NP_MAX_GIVEN */

struct np_live {
	np_live_options opt;
	np_win_env env;
	np_target target;
	bool target_known;
	char hal[NP_TEXT_MAX];
	char hal_unmirrored[NP_TEXT_MAX];  /* why the probed HAL is not in the model; "" when it is */
	np_pair mirror[MAX_MIRROR];        /* the model settings that mirror the system */
	unsigned nmirror;
	np_backend *remote;          /* the vectors' sessions */
	np_backend *rescue;          /* restores after Ctrl-C, which remote refuses */
	np_backend *model;           /* hazard predictions */
	np_backend self;             /* what the runner drives */
	np_saved_set st;
	np_global touching[NP_LIVE_MAX_STATE];   /* the current vector's */
	unsigned ntouching;
	bool stepped;                /* the current vector ran a step */
	unsigned skipped_hazard, skipped_unsaved, skipped_unjudged;
	unsigned skipped_stopped;    /* vectors after a restore that failed */
	char standin[NP_TEXT_MAX];   /* NTPROF_NTDLL, tests only: "" unset */
	bool standin_ok;
};

static np_live *interrupt_target;   /* the run Ctrl-C must restore */
/* Set by the console handler; read by the main thread at its stops. */
static volatile LONG interrupting;

static BOOL WINAPI on_interrupt(DWORD type)
{
	if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT && type != CTRL_CLOSE_EVENT)
		return FALSE;
	if (InterlockedExchange(&interrupting, 1) == 0)
		np_win_remote_interrupt();   /* the main thread's wait for its child returns */
	if (type == CTRL_CLOSE_EVENT)
		Sleep(INFINITE);   /* returning ends the process: the main thread's restore ends it */
	return TRUE;
}

/* The main thread's stop: after Ctrl-C, restore everything saved (rescue
 * sessions: remote refuses new children now), say so, exit 130. */
static void stop_if_interrupted(np_live *l)
{
	char text[1024];
	if (!interrupting)
		return;
	np_saved_restore(&l->st, l->rescue, l->target, NULL, 0, NULL);
	np_restored_text(&l->st, "on Ctrl-C", text, sizeof text);
	fprintf(stderr, "ntprof live: interrupted; intervals restored: %s\n", text);
	if (np_saved_left_text(&l->st, text, sizeof text))
		fprintf(stderr, "ntprof live: intervals left changed: %s\n", text);
	fflush(stderr);
	ExitProcess(130);
}

/* TR-7: the HAL's sources with their limits, where the system lists them. */
static void probe_hal(np_live *l, char *limits, size_t cap)
{
	np_record r;
	limits[0] = '\0';
	if (!np_live_one_step(l->remote, l->target, NULL, 0, "TraceQueryInformation InformationClass=7",
			      &r)) {
		snprintf(l->hal, sizeof l->hal, "not probed: %s", r.why);
		return;
	}
	const char *text = np_live_out(&r, "Limits");
	if (r.outcome.kind == NP_RESULT_WIN32 && r.outcome.code == 0 && text) {
		snprintf(l->hal, sizeof l->hal, "%s (source:min:max)", text);
		snprintf(limits, cap, "%s", text);
	} else {
		np_live_describe(&r, l->hal, sizeof l->hal);
	}
}

static void add_mirror(np_live *l, const char *name, const char *value)
{
	if (l->nmirror < MAX_MIRROR) {
		snprintf(l->mirror[l->nmirror].name, sizeof l->mirror[0].name, "%s", name);
		snprintf(l->mirror[l->nmirror].value, sizeof l->mirror[0].value, "%s", value);
		l->nmirror++;
	}
}

/* Whether the probed limits ("id:min:max,...") list source. */
static bool lists(const char *limits, uint32_t source)
{
	for (const char *p = limits; *p; p += strcspn(p, ","), p += *p == ',') {
		unsigned long id;
		if (sscanf(p, "%lu:", &id) == 1 && id == source)
			return true;
	}
	return false;
}

/* The hal.SOURCE rows of the probed limits; false when they cannot say them
 * (a source from 0x100, more rows than fit, a list too long to be read). */
static bool mirror_hal(np_live *l, const char *limits)
{
	char key[48], value[24];
	for (const char *p = limits; *p; p += strcspn(p, ","), p += *p == ',') {
		unsigned long id, min, max;
		if (sscanf(p, "%lu:%lu:%lu", &id, &min, &max) != 3 || id >= 0x100 ||
		    l->nmirror + 3 > MAX_MIRROR)
			return false;
		snprintf(key, sizeof key, "hal.%lu.supported", id);
		add_mirror(l, key, "on");
		snprintf(key, sizeof key, "hal.%lu.min", id);
		snprintf(value, sizeof value, "%lu", min);
		add_mirror(l, key, value);
		snprintf(key, sizeof key, "hal.%lu.max", id);
		snprintf(value, sizeof value, "%lu", max);
		add_mirror(l, key, value);
	}
	if (!lists(limits, 0))
		add_mirror(l, "hal.0.supported", "off");
	return true;
}

/* The model settings that mirror what the probe found: the HAL's sources
 * with their limits where the system lists them (HL-2, hal.SOURCE rows),
 * and each saved interval of a HAL source as its starting value. A HAL the
 * rows cannot say is not mirrored, and the vectors that depend on it are
 * skipped (live_skip). Not probed (before 6.2, or Wine): the model's
 * default HAL stays, as the report says. */
static void mirror_system(np_live *l, const char *limits)
{
	char key[48], value[24];
	l->nmirror = np_win_mirror(&l->env, l->mirror, MAX_MIRROR);
	if (limits[0] && !mirror_hal(l, limits)) {
		snprintf(l->hal_unmirrored, sizeof l->hal_unmirrored,
			 "the live HAL's sources (%.200s) are more than the model's hal.SOURCE rows can say",
			 limits);
		l->nmirror = np_win_mirror(&l->env, l->mirror, MAX_MIRROR);
		return;
	}
	for (unsigned i = 0; i < l->st.n; i++) {
		const np_saved *s = &l->st.s[i];
		bool hal_source = limits[0] ? lists(limits, s->g.source) : s->g.source == 0;
		if (!s->saved || s->g.kind != NP_GLOBAL_INTERVAL || !hal_source)
			continue;
		snprintf(key, sizeof key, "hal.%u.default", s->g.source);
		snprintf(value, sizeof value, "%u", s->value);
		add_mirror(l, key, value);
	}
}

/* ---- the backend the runner drives ---- */

/* Why the state the vector may change cannot be put back; NULL when it can. */
static const char *unrestorable(np_live *l, const np_vector *v, char *why, size_t cap)
{
	np_global g[NP_LIVE_MAX_STATE];
	char name[32];
	unsigned n = np_vector_globals(v, g, NP_LIVE_MAX_STATE);
	for (unsigned k = 0; k < n; k++) {
		const np_saved *s = np_saved_find(&l->st, g[k]);
		np_global_name(g[k], name, sizeof name);
		if (!s || !s->saved)
			snprintf(why, cap, "it sets the %s interval, which could not be saved to be "
				 "restored (%s)", name, s ? s->why : "not probed");
		else if (s->blocked[0])
			snprintf(why, cap, "it sets the %s interval, and %s", name, s->blocked);
		else
			continue;
		return why;
	}
	return NULL;
}

static const char *live_skip(np_backend *self, np_target t, const np_vector *v)
{
	np_live *l = self->state;
	static char why[NP_TEXT_MAX * 2];
	char text[NP_TEXT_MAX];
	stop_if_interrupted(l);
	/* A restore that did not put a value back stops the run: nothing more
	 * runs on a system that is no longer as it was (the exit status is 3). */
	if (np_saved_left_text(&l->st, text, sizeof text)) {
		l->skipped_stopped++;
		snprintf(why, sizeof why, "the run stopped: a restore failed (%s)", text);
		return why;
	}
	/* On a build newer than the version table the model may be wrong about
	 * what is hazardous: there, --allow-hazard does not apply. */
	bool hazard_allowed = l->opt.allow_hazard && !l->env.build_newer;
	if (!hazard_allowed && np_vector_hazard(v, t, l->model, text, sizeof text)) {
		l->skipped_hazard++;
		if (l->env.build_newer)   /* first: the note is cut at NP_TEXT_MAX */
			snprintf(why, sizeof why, "newer build, --allow-hazard does not apply: %s", text);
		else
			snprintf(why, sizeof why, "%s; --allow-hazard runs it anyway", text);
		return why;
	}
	for (unsigned i = 0; i < v->ngiven; i++)
		if (strcmp(v->given[i].name, "tracing") == 0) {
			l->skipped_unjudged++;
			snprintf(why, sizeof why, "given tracing=%s: whether the live system traces profile "
				 "events cannot be probed", v->given[i].value);
			return why;
		}
	if (l->hal_unmirrored[0] && np_vector_uses_hal(v)) {
		l->skipped_unjudged++;
		snprintf(why, sizeof why, "it depends on the HAL's sources, and %s", l->hal_unmirrored);
		return why;
	}
	if (!l->opt.allow_unsaved_intervals && unrestorable(l, v, text, sizeof text)) {
		l->skipped_unsaved++;
		snprintf(why, sizeof why, "%s; --allow-unsaved-intervals runs it anyway", text);
		return why;
	}
	return NULL;
}

/* The hal.SOURCE rows of the mirror describe the live system to the model;
 * the live session is that system, and takes no such pair. */
static bool mirrored_hal(const np_live *l, const np_pair *p)
{
	for (unsigned i = 0; i < l->nmirror; i++)
		if (strncmp(p->name, "hal.", 4) == 0 && strcmp(p->name, l->mirror[i].name) == 0 &&
		    strcmp(p->value, l->mirror[i].value) == 0)
			return true;
	return false;
}

static const char *live_begin(np_backend *self, np_target t, const np_vector *v)
{
	np_live *l = self->state;
	static np_vector own;
	stop_if_interrupted(l);
	own = *v;
	own.ngiven = 0;
	for (unsigned i = 0; i < v->ngiven; i++)
		if (!mirrored_hal(l, &v->given[i]))
			own.given_line[own.ngiven] = v->given_line[i], own.given[own.ngiven++] = v->given[i];
	l->ntouching = np_vector_globals(v, l->touching, NP_LIVE_MAX_STATE);
	l->stepped = false;
	return l->remote->begin(l->remote, t, &own);
}

static void live_step(np_backend *self, const np_step *st, np_record *out)
{
	np_live *l = self->state;
	stop_if_interrupted(l);
	l->stepped = true;
	l->remote->step(l->remote, st, out);
}

static void live_end(np_backend *self)
{
	np_live *l = self->state;
	l->remote->end(l->remote);
	stop_if_interrupted(l);
	if (l->stepped && l->ntouching) {   /* whatever the vector ended in */
		np_saved_restore(&l->st, l->remote, l->target, l->touching, l->ntouching, &interrupting);
		l->st.vectors_restored++;
	}
	stop_if_interrupted(l);
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
	char limits[NP_TEXT_MAX];
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
	/* under test, but a live system answers not-applicable where it cannot
	 * take a state the vectors ask (a processor it lacks): not a failure */
	l->self = (np_backend){ .name = l->env.wine[0] ? "wine" : "windows", .begin = live_begin,
				.step = live_step, .end = live_end, .destroy = live_destroy, .state = l,
				.skip = live_skip, .under_test = true, .live = true, .allow_not_applicable = true };
	l->target_known = l->env.version_known;
	l->target = (np_target){ l->env.version, l->env.arch };
	l->nmirror = np_win_mirror(&l->env, l->mirror, MAX_MIRROR);
	if (!l->target_known || !l->standin_ok)
		return l;
	probe_hal(l, limits, sizeof limits);
	np_saved_read(&l->st, set, l->remote, l->target, l->env.privilege_enableable);
	mirror_system(l, limits);
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
	unsigned n = 0;
	for (; n < l->nmirror && n < cap; n++)
		out[n] = l->mirror[n];
	return n;
}

np_backend *np_live_backend(np_live *l)
{
	return &l->self;
}

static void join_pairs(const np_pair *p, unsigned n, char *text, size_t cap)
{
	size_t used = 0;
	text[0] = '\0';
	for (unsigned i = 0; i < n && used < cap; i++)
		used += (size_t)snprintf(text + used, cap - used, "%s%s=%s", i ? " " : "", p[i].name,
					 p[i].value);
}

static void report_env(np_live *l, np_run *run)
{
	char text[1024];
	/* the report says where it ran, not what judged it (the model, mirroring it) */
	run->command = "live";
	run->backend = "live";
	snprintf(run->system, sizeof run->system, "%s (version %s, build %u, %s%s%s)", l->env.version_text,
		 l->target_known ? np_version_key(l->env.version) : "unknown", l->env.build,
		 np_arch_name(l->env.arch), l->env.wine[0] ? ", Wine " : "", l->env.wine);
	np_run_env(run, "system", l->env.version_text);
	np_run_env(run, "version", l->target_known ? np_version_key(l->env.version) : "unknown");
	snprintf(text, sizeof text, "%u", l->env.build);
	np_run_env(run, "build", text);
	if (l->env.build_newer)
		np_run_env(run, "newer build", "newer than the last key of the version table: only vectors "
			   "that are not hazardous run, whatever --allow-hazard says");
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
	snprintf(text, sizeof text, "%s%s%s", l->hal[0] ? l->hal : "not probed",
		 l->hal_unmirrored[0] ? "; not mirrored: " : "",
		 l->hal_unmirrored[0] ? l->hal_unmirrored
		 : strstr(l->hal, "(source:min:max)") ? "" : "; the model keeps its default HAL");
	np_run_env(run, "hal sources", text);
	join_pairs(l->mirror, l->nmirror, text, sizeof text);
	np_run_env(run, "model mirrors", text);
	np_run_env(run, "isolation", "one child process per vector (stub and crash records)");
	if (l->standin[0])
		np_run_env(run, "ntdll stand-in", l->standin);
	np_saved_text(&l->st, text, sizeof text);
	np_run_env(run, "intervals saved", text);
	np_restored_text(&l->st, "at the end", text, sizeof text);
	np_run_env(run, "intervals restored", text);
	snprintf(text, sizeof text, "%u hazardous or unknown (--allow-hazard %s), "
		 "%u that cannot be judged here, %u setting an interval that cannot be restored "
		 "(--allow-unsaved-intervals %s)", l->skipped_hazard, l->opt.allow_hazard ? "on" : "off",
		 l->skipped_unjudged, l->skipped_unsaved,
		 l->opt.allow_unsaved_intervals ? "on" : "off");
	np_run_env(run, "skipped", text);
	if (l->skipped_stopped) {
		snprintf(text, sizeof text, "%u vectors not run after a restore failed", l->skipped_stopped);
		np_run_env(run, "stopped", text);
	}
}

void np_live_finish(np_live *l, np_run *run)
{
	char text[1024];
	stop_if_interrupted(l);
	np_saved_restore(&l->st, l->remote, l->target, NULL, 0, &interrupting);
	stop_if_interrupted(l);
	report_env(l, run);
	np_saved_text(&l->st, text, sizeof text);
	fprintf(stderr, "ntprof live: intervals saved: %s\n", text);
	np_restored_text(&l->st, "at the end", text, sizeof text);
	fprintf(stderr, "ntprof live: intervals restored: %s\n", text);
	if (np_saved_left_text(&l->st, text, sizeof text)) {
		np_run_env(run, "intervals left changed", text);
		fprintf(stderr, "ntprof live: intervals left changed: %s\n", text);
	}
}

unsigned np_live_left_changed(const np_live *l)
{
	char text[8];
	return np_saved_left_text(&l->st, text, sizeof text);
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
