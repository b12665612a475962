/* SPDX-License-Identifier: MIT */
/* The child side of the isolation (`ntprof.exe --child`): one session of the
 * live implementation, driven by the parent over stdin, one record line back
 * per step over stdout (harness/run/record_line.h).
 *
 *   parent -> child               child -> parent
 *   G KEY=VALUE  (a given pair)
 *   B VERSION ARCH                B<TAB>ok  or  B<TAB>na<TAB>WHY
 *   S STEP-LINE                   R<TAB>... (the step's record)
 *   end of input                  (the session is closed, exit 0)
 *
 * Steps run one at a time, when the parent asks, so that nothing runs past
 * the step where the parent stops (the runner stops at the first
 * difference). A call that raises ends the child with a last record:
 *   - Wine's stub exception 0x80000100 (a function Wine exports but does not
 *     implement) is caught by a vectored handler, first, and becomes `stub`
 *     with the DLL and function names it carries;
 *   - any other exception that nobody handles becomes `crashed` with its
 *     code, from the unhandled-exception filter. Not from a vectored
 *     handler: that would also see exceptions the callee handles itself (a
 *     user-mode wrapper probing the caller's buffer under __try), which are
 *     part of its behaviour, not a crash. */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "win/impl_windows.h"
#include "win/live.h"
#include "ntprof/backend.h"
#include "run/record_line.h"

#define WINE_STUB_EXCEPTION 0x80000100u

static HANDLE to_parent;

/* Writes all of text to the parent; no stdio, so that it is safe from an
 * exception handler whatever state the C library is in. */
static void send_text(const char *text, size_t n)
{
	while (n > 0) {
		DWORD put = 0;
		if (!WriteFile(to_parent, text, (DWORD)n, &put, NULL) || put == 0)
			return;
		text += put;
		n -= put;
	}
}

static void send_record(const np_record *r)
{
	char line[NP_RECORD_LINE_MAX];
	size_t n = np_record_encode(r, line, sizeof line);
	if (n)
		send_text(line, n);
}

/* A NUL-terminated string at p in this process, copied without faulting. */
static void copy_name(ULONG_PTR p, char *out, size_t cap)
{
	SIZE_T got = 0;
	out[0] = '\0';
	if (p < 0x10000) {   /* an ordinal, not a name */
		snprintf(out, cap, "#%lu", (unsigned long)p);
		return;
	}
	for (size_t i = 0; i + 1 < cap; i++) {
		if (!ReadProcessMemory(GetCurrentProcess(), (const void *)(p + i), out + i, 1, &got) ||
		    out[i] == '\0')
			break;
		out[i + 1] = '\0';
	}
}

static LONG CALLBACK on_stub(EXCEPTION_POINTERS *ep)
{
	const EXCEPTION_RECORD *e = ep->ExceptionRecord;
	if (e->ExceptionCode != WINE_STUB_EXCEPTION)
		return EXCEPTION_CONTINUE_SEARCH;
	np_record r = { .outcome = { NP_RESULT_STUB, WINE_STUB_EXCEPTION } };
	char dll[64] = "?", function[80] = "?";
	if (e->NumberParameters >= 2) {
		copy_name(e->ExceptionInformation[0], dll, sizeof dll);
		copy_name(e->ExceptionInformation[1], function, sizeof function);
	}
	snprintf(r.why, sizeof r.why, "%s.%s is an unimplemented stub (exception 0x80000100)", dll,
		 function);
	send_record(&r);
	ExitProcess(NP_CHILD_EXIT_RAISED);
	return EXCEPTION_CONTINUE_SEARCH; /* not reached */
}

static LONG WINAPI on_unhandled(EXCEPTION_POINTERS *ep)
{
	const EXCEPTION_RECORD *e = ep->ExceptionRecord;
	np_record r = { .outcome = { NP_RESULT_CRASHED, (uint32_t)e->ExceptionCode } };
	if (e->ExceptionCode == EXCEPTION_ACCESS_VIOLATION && e->NumberParameters >= 2)
		snprintf(r.why, sizeof r.why, "unhandled exception 0x%08lX at %p (%s 0x%llX)",
			 (unsigned long)e->ExceptionCode, e->ExceptionAddress,
			 e->ExceptionInformation[0] == 0 ? "reading" : e->ExceptionInformation[0] == 1
				 ? "writing" : "executing",
			 (unsigned long long)e->ExceptionInformation[1]);
	else
		snprintf(r.why, sizeof r.why, "unhandled exception 0x%08lX at %p",
			 (unsigned long)e->ExceptionCode, e->ExceptionAddress);
	send_record(&r);
	ExitProcess(NP_CHILD_EXIT_RAISED);
	return EXCEPTION_EXECUTE_HANDLER; /* not reached */
}

/* One line from the parent into buf (without its '\n'); false at the end
 * of input or on a line longer than cap - 1. Byte by byte: the parent sends
 * one short command at a time. */
static bool read_command(HANDLE from, char *buf, size_t cap)
{
	size_t n = 0;
	for (;;) {
		char c;
		DWORD got = 0;
		if (!ReadFile(from, &c, 1, &got, NULL) || got == 0)
			return false;
		if (c == '\n')
			break;
		if (n + 1 >= cap)
			return false;
		buf[n++] = c;
	}
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return true;
}

static void refuse_step(const char *why)
{
	np_record r = { .outcome = { NP_RESULT_NOT_APPLICABLE, 0 } };
	snprintf(r.why, sizeof r.why, "the child could not take the step: %s", why);
	send_record(&r);
}

/* Test hook: NTPROF_CHILD_FAULT=WHAT@FUNCTION makes the child misbehave
 * instead of running a step that calls FUNCTION, so that the tests see the
 * parent handle each way a child can fail (conformance/cli/test_wine.sh): crash
 * (an access violation), stub (Wine's stub exception, raised by hand, with
 * names), exit (ends without a record), hang (never answers), garbage (a
 * line that is no record); and noprocess, which runs the step but makes
 * every handle to a process fail to open (Process=other must then be not
 * applicable, never NULL). Unset in real runs. */
static bool misbehave(const char *hook, const char *function)
{
	static const char dll[] = "ntdll.dll", stub[] = "NtTestStub";
	const char *at = hook ? strchr(hook, '@') : NULL;
	if (!at || strcmp(at + 1, function) != 0)
		return false;
	size_t n = (size_t)(at - hook);
	if (strncmp(hook, "crash", n) == 0 && n == 5) {
		volatile int *volatile nowhere = (volatile int *)(uintptr_t)8;
		*nowhere = 1;
	} else if (strncmp(hook, "stub", n) == 0 && n == 4) {
		ULONG_PTR names[2] = { (ULONG_PTR)dll, (ULONG_PTR)stub };
		RaiseException(WINE_STUB_EXCEPTION, EXCEPTION_NONCONTINUABLE, 2, names);
	} else if (strncmp(hook, "exit", n) == 0 && n == 4) {
		ExitProcess(7);
	} else if (strncmp(hook, "hang", n) == 0 && n == 4) {
		Sleep(INFINITE);
	} else if (strncmp(hook, "noprocess", n) == 0 && n == 9) {
		np_win_fail_open_process();
	} else if (strncmp(hook, "garbage", n) == 0 && n == 7) {
		send_text("this is no record\n", 18);
		return true;
	}
	return false;
}

int np_win_child_main(void)
{
	/* No error boxes: a child that fails must just end. */
	SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
	/* Ctrl-C is the parent's to handle: it ends this child once it has
	 * noted the interrupt, then restores (win/live.c) */
	SetConsoleCtrlHandler(NULL, TRUE);
	to_parent = GetStdHandle(STD_OUTPUT_HANDLE);
	HANDLE from_parent = GetStdHandle(STD_INPUT_HANDLE);
	AddVectoredExceptionHandler(1, on_stub);
	SetUnhandledExceptionFilter(on_unhandled);

	static np_vector v;          /* the given pairs and the steps so far */
	static np_step steps[NP_MAX_STEPS];
	static char line[8192];
	memset(&v, 0, sizeof v);
	v.step = steps;
	np_backend *b = np_backend_native_new(&np_impl_windows);
	bool begun = false;
	if (!b)
		return 2;
	while (read_command(from_parent, line, sizeof line)) {
		if (line[0] == 'G' && line[1] == ' ' && !begun) {
			if (v.ngiven < NP_MAX_GIVEN &&
			    np_parse_given_pair(line + 2, &v.given[v.ngiven]) == NULL)
				v.ngiven++;
		} else if (line[0] == 'B' && line[1] == ' ' && !begun) {
			char version[32], arch[16];
			np_target t;
			const char *why = "the child cannot read the target";
			if (sscanf(line + 2, "%31s %15s", version, arch) == 2 &&
			    np_version_parse(version, &t.version) && np_arch_parse(arch, &t.arch))
				why = b->begin(b, t, &v);
			begun = why == NULL;
			char reply[NP_TEXT_MAX + 16];
			int n = begun ? snprintf(reply, sizeof reply, "B\tok\n")
				      : snprintf(reply, sizeof reply, "B\tna\t%s\n", why);
			for (int i = 5; begun == false && i < n - 1; i++)
				if ((unsigned char)reply[i] < 0x20)
					reply[i] = ' ';
			send_text(reply, (size_t)n);
			if (!begun)
				break;
		} else if (line[0] == 'S' && line[1] == ' ' && begun) {
			np_step *st = &steps[v.nstep < NP_MAX_STEPS ? v.nstep : NP_MAX_STEPS - 1];
			const char *e = v.nstep == NP_MAX_STEPS ? "too many steps" : np_parse_step(line + 2, st);
			if (!e)
				e = np_captures_check(steps, v.nstep, st);
			if (e) {
				refuse_step(e);
				continue;
			}
			if (misbehave(getenv("NTPROF_CHILD_FAULT"), st->function))
				continue;
			np_record r;
			b->step(b, st, &r);
			v.nstep++;
			send_record(&r);
		} else {
			refuse_step("unknown command");
		}
	}
	if (begun)
		b->end(b);
	b->destroy(b);
	return 0;
}
