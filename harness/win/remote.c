/* SPDX-License-Identifier: MIT */
/* The parent side of the isolation: a backend whose sessions run in a child
 * process of this exe (`ntprof.exe --child`, harness/win/child.c). Begin
 * starts the child and sends it the vector's given pairs and the target;
 * each step is sent as a step line and answered by one record line; end
 * closes the child's input, and the child closes its session and exits.
 *
 * A child that dies without a record makes the step `crashed` with its exit
 * code, and one that does not answer within the step timeout is ended and
 * the step is `crashed` too: the run goes on with the next vector. Each
 * child runs in a kill-on-close job object of its own, so that whatever it
 * started (the suspended process behind `Process=other`) ends with it, and
 * inherits its own two pipe ends and nothing else (spawn). */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "win/live.h"
#include "ntprof/runner.h"
#include "run/record_line.h"

#define DEFAULT_TIMEOUT_MS 60000u
#define END_WAIT_MS 10000u

typedef struct remote {
	HANDLE process, job, to_child, from_child;
	bool alive;                    /* started, and not known to be gone */
	char buf[NP_RECORD_LINE_MAX * 2];
	size_t have;
	char why[NP_TEXT_MAX];         /* begin's reason, kept for the runner */
	DWORD timeout_ms;
	bool rescue;                   /* may start even after an interrupt */
} remote;

/* Every child running now, so that Ctrl-C can end them. */
static CRITICAL_SECTION lock;
static INIT_ONCE lock_once = INIT_ONCE_STATIC_INIT;
static remote *running[4];
static volatile LONG interrupted;

static BOOL CALLBACK init_lock(PINIT_ONCE once, PVOID param, PVOID *ctx)
{
	(void)once;
	(void)param;
	(void)ctx;
	InitializeCriticalSection(&lock);
	return TRUE;
}

static void enter(void)
{
	InitOnceExecuteOnce(&lock_once, init_lock, NULL, NULL);
	EnterCriticalSection(&lock);
}

static void track(remote *r, bool add)
{
	enter();
	for (unsigned i = 0; i < sizeof running / sizeof *running; i++) {
		if (add && !running[i]) {
			running[i] = r;
			break;
		}
		if (!add && running[i] == r)
			running[i] = NULL;
	}
	LeaveCriticalSection(&lock);
}

void np_win_remote_interrupt(void)
{
	InterlockedExchange(&interrupted, 1);
	enter();
	for (unsigned i = 0; i < sizeof running / sizeof *running; i++)
		if (running[i] && running[i]->process)
			TerminateProcess(running[i]->process, NP_CHILD_EXIT_ENDED);
	LeaveCriticalSection(&lock);
}

static void finish(remote *r)
{
	if (r->to_child) {
		CloseHandle(r->to_child);   /* end of input: the child closes its session */
		r->to_child = NULL;
	}
	if (r->process) {
		if (WaitForSingleObject(r->process, END_WAIT_MS) != WAIT_OBJECT_0)
			TerminateProcess(r->process, NP_CHILD_EXIT_ENDED);
		WaitForSingleObject(r->process, END_WAIT_MS);
		track(r, false);
	}
	if (r->job) {
		TerminateJobObject(r->job, NP_CHILD_EXIT_ENDED);   /* whatever it left running */
		CloseHandle(r->job);
		r->job = NULL;
	}
	if (r->from_child) {
		CloseHandle(r->from_child);
		r->from_child = NULL;
	}
	if (r->process) {
		CloseHandle(r->process);
		r->process = NULL;
	}
	r->alive = false;
	r->have = 0;
}

/* A job for the child that ends everything in it when its last handle is
 * closed (ours, in finish(), or by our own end however it comes): the
 * suspended process behind `Process=other` never outlives the run. */
static HANDLE kill_on_close_job(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = { 0 };
	HANDLE job = CreateJobObjectW(NULL, NULL);
	limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
	if (job && !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits)) {
		CloseHandle(job);
		job = NULL;
	}
	return job;
}

/* Creates the child suspended with only its own pipe ends inherited: an
 * inheritable handle of ours (another child's pipe) held open by this
 * child would turn that child's broken pipe into a timeout. The handle list
 * (Vista and later) says which; without it, spawns are serialized and our
 * ends are never inheritable, so the two ends are the only ones there.
 * breakaway: out of our own job, where it does not allow nesting (7). */
static bool create_child(wchar_t *self, wchar_t *line, HANDLE in, HANDLE out, bool breakaway,
			 PROCESS_INFORMATION *pi)
{
	STARTUPINFOEXW si = { .StartupInfo = { .cb = sizeof si, .dwFlags = STARTF_USESTDHANDLES,
					       .hStdInput = in, .hStdOutput = out,
					       .hStdError = GetStdHandle(STD_ERROR_HANDLE) } };
	HANDLE inherit[2] = { in, out };
	static char attributes[256];   /* one list, used under the lock */
	SIZE_T size = sizeof attributes;
	DWORD flags = CREATE_SUSPENDED | (breakaway ? CREATE_BREAKAWAY_FROM_JOB : 0);
	if (InitializeProcThreadAttributeList((LPPROC_THREAD_ATTRIBUTE_LIST)attributes, 1, 0, &size) &&
	    UpdateProcThreadAttribute((LPPROC_THREAD_ATTRIBUTE_LIST)attributes, 0,
				      PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherit, sizeof inherit, NULL, NULL)) {
		si.lpAttributeList = (LPPROC_THREAD_ATTRIBUTE_LIST)attributes;
		flags |= EXTENDED_STARTUPINFO_PRESENT;
	}
	BOOL made = CreateProcessW(self, line, NULL, NULL, TRUE, flags, NULL, NULL, &si.StartupInfo, pi);
	/* Wine on a busy machine was seen to refuse a start now and then with
	 * ERROR_INTERNAL_ERROR, the same start succeeding a moment later: one
	 * more try, so that a run is not cut short by it; any other error, or
	 * this one twice, is the run's to report. */
	if (!made && GetLastError() == ERROR_INTERNAL_ERROR) {
		Sleep(200);
		made = CreateProcessW(self, line, NULL, NULL, TRUE, flags, NULL, NULL, &si.StartupInfo, pi);
	}
	if (si.lpAttributeList)
		DeleteProcThreadAttributeList(si.lpAttributeList);
	return made;
}

/* The child in a job of its own: in ours if we are in one that allows
 * nesting (8 and later), else broken away from ours (when it allows
 * that), else, said once on stderr, without one. */
static bool start_in_job(remote *r, wchar_t *self, wchar_t *line, HANDLE in, HANDLE out,
			 PROCESS_INFORMATION *pi)
{
	static bool said;
	if (!create_child(self, line, in, out, false, pi))
		return false;
	r->job = kill_on_close_job();
	if (r->job && AssignProcessToJobObject(r->job, pi->hProcess))
		return true;
	DWORD error = GetLastError();
	PROCESS_INFORMATION again;
	if (r->job && create_child(self, line, in, out, true, &again)) {
		if (AssignProcessToJobObject(r->job, again.hProcess)) {
			TerminateProcess(pi->hProcess, NP_CHILD_EXIT_ENDED);   /* never resumed */
			CloseHandle(pi->hProcess);
			CloseHandle(pi->hThread);
			*pi = again;
			return true;
		}
		TerminateProcess(again.hProcess, NP_CHILD_EXIT_ENDED);
		CloseHandle(again.hProcess);
		CloseHandle(again.hThread);
	}
	if (r->job)
		CloseHandle(r->job);
	r->job = NULL;
	if (!said) {
		said = true;
		fprintf(stderr, "ntprof live: a child cannot be put in a job object (error %lu; this process "
			"is in a job that allows neither nesting nor breakaway): what a vector starts may "
			"outlive its child\n", (unsigned long)error);
	}
	return true;
}

/* Starts `THIS-EXE --child` with pipes for its stdin and stdout; stderr is
 * ours, for whatever it has to say beside the protocol. */
static bool spawn(remote *r, char *why, size_t cap)
{
	wchar_t self[MAX_PATH + 1], line[MAX_PATH + 16];
	SECURITY_ATTRIBUTES inherit = { sizeof inherit, NULL, TRUE };
	HANDLE child_in = NULL, child_out = NULL;
	DWORD n = GetModuleFileNameW(NULL, self, MAX_PATH);
	if (n == 0 || n >= MAX_PATH) {
		snprintf(why, cap, "cannot find this exe's path");
		return false;
	}
	_snwprintf(line, sizeof line / sizeof *line, L"\"%ls\" --child", self);
	line[sizeof line / sizeof *line - 1] = L'\0';
	PROCESS_INFORMATION pi;
	enter();   /* no other child's inheritable ends exist while this one is made */
	bool made = CreatePipe(&child_in, &r->to_child, &inherit, 0) &&
		    CreatePipe(&r->from_child, &child_out, &inherit, 0);
	if (made) {
		/* our ends stay ours: a later child must not hold them open */
		SetHandleInformation(r->to_child, HANDLE_FLAG_INHERIT, 0);
		SetHandleInformation(r->from_child, HANDLE_FLAG_INHERIT, 0);
	}
	DWORD pipe_error = made ? 0 : GetLastError();
	made = made && start_in_job(r, self, line, child_in, child_out, &pi);
	DWORD error = GetLastError();
	if (child_in)
		CloseHandle(child_in);
	if (child_out)
		CloseHandle(child_out);
	LeaveCriticalSection(&lock);
	if (!made) {
		snprintf(why, cap, pipe_error ? "cannot create pipes (error %lu)"
					      : "cannot start the child process (error %lu)",
			 (unsigned long)(pipe_error ? pipe_error : error));
		finish(r);
		return false;
	}
	r->process = pi.hProcess;
	track(r, true);
	ResumeThread(pi.hThread);
	CloseHandle(pi.hThread);
	r->alive = true;
	r->have = 0;
	return true;
}

static bool send_line(remote *r, const char *text)
{
	size_t n = strlen(text);
	char nl = '\n';
	DWORD put = 0;
	if (!r->to_child)
		return false;
	while (n > 0) {
		if (!WriteFile(r->to_child, text, (DWORD)n, &put, NULL) || put == 0)
			return false;
		text += put;
		n -= put;
	}
	return WriteFile(r->to_child, &nl, 1, &put, NULL) && put == 1;
}

enum { LINE_OK = 1, LINE_GONE = 0, LINE_TIMEOUT = -1, LINE_TOO_LONG = -2 };

/* The child's next line (without '\n'). Polls the pipe, so that a child
 * that hangs is noticed: a pipe read cannot time out. */
static int read_line(remote *r, char *out, size_t cap)
{
	DWORD start = GetTickCount();
	unsigned spins = 0;
	for (;;) {
		char *nl = memchr(r->buf, '\n', r->have);
		if (nl) {
			size_t n = (size_t)(nl - r->buf);
			if (n >= cap)
				return LINE_TOO_LONG;
			memcpy(out, r->buf, n);
			out[n] = '\0';
			r->have -= n + 1;
			memmove(r->buf, nl + 1, r->have);
			return LINE_OK;
		}
		if (r->have == sizeof r->buf)
			return LINE_TOO_LONG;
		DWORD avail = 0, got = 0;
		if (!r->from_child || !PeekNamedPipe(r->from_child, NULL, 0, NULL, &avail, NULL))
			return LINE_GONE;   /* the child closed its end: it has ended */
		if (avail) {
			DWORD room = (DWORD)(sizeof r->buf - r->have);
			if (!ReadFile(r->from_child, r->buf + r->have, avail < room ? avail : room, &got, NULL))
				return LINE_GONE;
			r->have += got;
			continue;
		}
		if (GetTickCount() - start > r->timeout_ms)
			return LINE_TIMEOUT;
		Sleep(spins++ < 200 ? 0 : 1);
	}
}

static DWORD exit_code(remote *r)
{
	DWORD code = 0;
	if (r->process) {
		WaitForSingleObject(r->process, END_WAIT_MS);
		GetExitCodeProcess(r->process, &code);
	}
	return code;
}

/* The record of a step that got no proper answer. */
static void lost(remote *r, int how, const char *line, np_record *rec)
{
	memset(rec, 0, sizeof *rec);
	rec->outcome.kind = NP_RESULT_CRASHED;
	if (how == LINE_TIMEOUT) {
		TerminateProcess(r->process, NP_CHILD_EXIT_ENDED);
		snprintf(rec->why, sizeof rec->why,
			 "no record within %lu s: the call did not return, and the child was ended",
			 (unsigned long)(r->timeout_ms / 1000));
	} else if (how == LINE_GONE) {
		DWORD code = exit_code(r);
		rec->outcome.code = code;
		snprintf(rec->why, sizeof rec->why,
			 "the child process ended without a record (exit code 0x%08lX)", (unsigned long)code);
	} else {
		snprintf(rec->why, sizeof rec->why, "an unreadable record from the child: %.120s", line);
	}
	finish(r);
}

static const char *remote_begin(np_backend *self, np_target t, const np_vector *v)
{
	remote *r = self->state;
	char line[NP_RECORD_LINE_MAX];
	finish(r);
	if (interrupted && !r->rescue)
		return "the run was interrupted";
	if (!spawn(r, r->why, sizeof r->why))
		return r->why;
	bool sent = true;
	for (unsigned i = 0; i < v->ngiven && sent; i++) {
		snprintf(line, sizeof line, "G %s=%s", v->given[i].name, v->given[i].value);
		sent = send_line(r, line);
	}
	snprintf(line, sizeof line, "B %s %s", np_version_key(t.version), np_arch_name(t.arch));
	sent = sent && send_line(r, line);
	int how = sent ? read_line(r, line, sizeof line) : LINE_GONE;
	if (how == LINE_OK && strcmp(line, "B\tok") == 0)
		return NULL;
	np_record rec;
	if (how == LINE_OK && strncmp(line, "B\tna\t", 5) == 0)
		snprintf(r->why, sizeof r->why, "%s", line + 5);
	else if (how == LINE_OK && np_record_decode(line, &rec))
		snprintf(r->why, sizeof r->why, "preparing the system raised: %s", rec.why);
	else {
		lost(r, how, line, &rec);
		snprintf(r->why, sizeof r->why, "preparing the system failed: %s", rec.why);
	}
	finish(r);
	return r->why;
}

static void remote_step(np_backend *self, const np_step *st, np_record *out)
{
	remote *r = self->state;
	char line[NP_RECORD_LINE_MAX + 8];
	memset(out, 0, sizeof *out);
	if (!r->alive) {
		out->outcome.kind = NP_RESULT_CRASHED;
		snprintf(out->why, sizeof out->why, "the child process is gone");
		return;
	}
	memcpy(line, "S ", 2);
	if (!np_step_line(st, line + 2, sizeof line - 2)) {
		out->outcome.kind = NP_RESULT_NOT_APPLICABLE;
		snprintf(out->why, sizeof out->why, "the step is too long to send to the child");
		return;
	}
	int how = send_line(r, line) ? read_line(r, line, sizeof line) : LINE_GONE;
	if (how != LINE_OK || !np_record_decode(line, out))
		lost(r, how == LINE_OK ? LINE_TOO_LONG : how, line, out);
	else if (out->outcome.kind == NP_RESULT_STUB || out->outcome.kind == NP_RESULT_CRASHED)
		finish(r);   /* the child ended itself after that record */
}

static void remote_end(np_backend *self)
{
	finish(self->state);
}

static void remote_destroy(np_backend *self)
{
	finish(self->state);
	free(self->state);
	free(self);
}

np_backend *np_win_remote_new(const char *name, bool rescue)
{
	np_backend *b = calloc(1, sizeof *b);
	remote *r = calloc(1, sizeof *r);
	if (!b || !r) {
		free(b);
		free(r);
		return NULL;
	}
	unsigned ms;   /* NTPROF_STEP_TIMEOUT, which live refuses before it gets here when malformed */
	r->timeout_ms = cli_step_timeout_env(&ms) ? ms : DEFAULT_TIMEOUT_MS;
	r->rescue = rescue;
	*b = (np_backend){ .name = name, .begin = remote_begin, .step = remote_step, .end = remote_end,
			   .destroy = remote_destroy, .state = r };
	return b;
}
