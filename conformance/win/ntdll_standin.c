/* SPDX-License-Identifier: MIT */
/* A stand-in for ntdll's profile interval calls, so that the live side's
 * save, set and restore run for real under Wine, whose ntdll does not
 * export NtQueryIntervalProfile and whose NtSetIntervalProfile keeps
 * nothing. ntprof.exe binds these exports from this DLL, before the
 * system's, when NTPROF_NTDLL names it (harness/win/impl_windows.c); every
 * other export still comes from the system. conformance/cli/test_wine_restore.sh
 * drives it.
 *
 * The intervals are kept in a file, NTPROF_STANDIN_STATE (a Windows path),
 * because they must outlive a process as the kernel's do: the parent saves
 * and restores, each vector sets in a child of its own. The script reads and
 * writes the same file from outside Wine. One entry a line:
 *
 *   interval SOURCE VALUE   a source's interval (a source not listed reads 0)
 *   etw VALUE               the ETW time-profile interval (TR-4 with
 *                           K-ETW-TIME=separate: a variable of its own, which
 *                           NtSetIntervalProfile leaves alone); 0 when absent
 *   round N                 a set keeps the value rounded down to a multiple
 *                           of N and still returns success (a HAL rounds)
 *   refuse VALUE            a set to VALUE fails, STATUS_ACCESS_DENIED
 *   set SOURCE VALUE STATUS written by every set, in order (the call log)
 *   get SOURCE VALUE        written by every interval read that succeeds
 *   etwset VALUE ERROR      written by every Source 0 class 5 set (TR-4)
 *   etwget VALUE            written by every Source 0 class 5 read
 *
 * A named mutex serialises the read-change-write of the file between
 * processes (a Ctrl-C restore may run beside a vector). */
#include <windows.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATUS_SUCCESS_ 0x00000000L
#define STATUS_ACCESS_VIOLATION_ ((LONG)0xC0000005L)
#define STATUS_ACCESS_DENIED_ ((LONG)0xC0000022L)
#define STATUS_NO_STATE ((LONG)0xC0000034L)   /* STATUS_OBJECT_NAME_NOT_FOUND */
#define MAX_LINES 256
#define LINE_MAX_ 128

typedef struct state {
	char line[MAX_LINES][LINE_MAX_];
	unsigned n;
} state;

static state st;   /* under the mutex */

static HANDLE lock(void)
{
	HANDLE m = CreateMutexA(NULL, FALSE, "Local\\ntprof-ntdll-standin");
	if (m)
		WaitForSingleObject(m, INFINITE);   /* WAIT_ABANDONED owns it too */
	return m;
}

static void unlock(HANDLE m)
{
	if (m) {
		ReleaseMutex(m);
		CloseHandle(m);
	}
}

static bool load(void)
{
	const char *path = getenv("NTPROF_STANDIN_STATE");
	FILE *f = path ? fopen(path, "rb") : NULL;
	st.n = 0;
	if (!f)
		return false;
	while (st.n < MAX_LINES && fgets(st.line[st.n], LINE_MAX_, f)) {
		st.line[st.n][strcspn(st.line[st.n], "\r\n")] = '\0';
		st.n++;
	}
	fclose(f);
	return true;
}

static bool store(void)
{
	const char *path = getenv("NTPROF_STANDIN_STATE");
	FILE *f = path ? fopen(path, "wb") : NULL;
	if (!f)
		return false;
	for (unsigned i = 0; i < st.n; i++)
		fprintf(f, "%s\n", st.line[i]);
	return fclose(f) == 0;
}

/* The number after KEY on a line "KEY N" or "KEY SOURCE N" (source given). */
static bool find(const char *key, const ULONG *source, ULONG *value, unsigned *at)
{
	for (unsigned i = 0; i < st.n; i++) {
		char k[16];
		unsigned long a, b;
		int got = sscanf(st.line[i], "%15s %lu %lu", k, &a, &b);
		if (strcmp(k, key) != 0)
			continue;
		if (!source && got >= 2) {
			*value = (ULONG)a;
			return true;
		}
		if (source && got == 3 && a == *source) {
			*value = (ULONG)b;
			if (at)
				*at = i;
			return true;
		}
	}
	return false;
}

static void append(const char *text)
{
	if (st.n < MAX_LINES)
		snprintf(st.line[st.n++], LINE_MAX_, "%s", text);
}

__declspec(dllexport) LONG NTAPI NtQueryIntervalProfile(ULONG source, PULONG interval)
{
	HANDLE m = lock();
	ULONG value = 0;
	LONG status = STATUS_SUCCESS_;
	if (!load())
		status = STATUS_NO_STATE;
	else if (!interval)
		status = STATUS_ACCESS_VIOLATION_;
	else {
		char text[LINE_MAX_];
		find("interval", &source, &value, NULL);
		*interval = value;
		snprintf(text, sizeof text, "get %lu %lu", (unsigned long)source, (unsigned long)value);
		append(text);
		if (!store())
			status = STATUS_NO_STATE;
	}
	unlock(m);
	return status;
}

__declspec(dllexport) LONG NTAPI NtSetIntervalProfile(ULONG interval, ULONG source)
{
	HANDLE m = lock();
	ULONG refused, step, old;
	unsigned at = MAX_LINES;
	char text[LINE_MAX_];
	LONG status = STATUS_SUCCESS_;
	if (!load()) {
		unlock(m);
		return STATUS_NO_STATE;
	}
	ULONG keep = interval;
	if (find("round", NULL, &step, NULL) && step)
		keep = interval / step * step;
	if (find("refuse", NULL, &refused, NULL) && refused == interval)
		status = STATUS_ACCESS_DENIED_;
	if (status == STATUS_SUCCESS_) {
		snprintf(text, sizeof text, "interval %lu %lu", (unsigned long)source, (unsigned long)keep);
		if (find("interval", &source, &old, &at))
			snprintf(st.line[at], LINE_MAX_, "%s", text);
		else
			append(text);
	}
	snprintf(text, sizeof text, "set %lu %lu 0x%08lX", (unsigned long)source,
		 (unsigned long)interval, (unsigned long)status);
	append(text);
	if (!store())
		status = STATUS_NO_STATE;
	unlock(m);
	return status;
}

/* The Zw names are the same calls from user mode. */
__declspec(dllexport) LONG NTAPI ZwQueryIntervalProfile(ULONG source, PULONG interval)
{
	return NtQueryIntervalProfile(source, interval);
}

__declspec(dllexport) LONG NTAPI ZwSetIntervalProfile(ULONG interval, ULONG source)
{
	return NtSetIntervalProfile(interval, source);
}

/* ---- TraceSetInformation and TraceQueryInformation, class 5 only ---- */

#define ERROR_SUCCESS_ 0u
#define ERROR_ACCESS_DENIED_ 5u
#define ERROR_BAD_LENGTH_ 24u
#define ERROR_NOT_SUPPORTED_ 50u
#define ERROR_NOACCESS_ 998u
#define ERROR_NO_STATE 2u   /* ERROR_FILE_NOT_FOUND: the state file is missing */
#define TRACE_SAMPLED_PROFILE_INTERVAL_INFO 5u

typedef struct trace_profile_interval {
	ULONG source;
	ULONG interval;
} trace_profile_interval;

/* TR-9, for the statuses this file returns. */
static ULONG win32_of(LONG status)
{
	switch (status) {
	case STATUS_SUCCESS_:
		return ERROR_SUCCESS_;
	case STATUS_ACCESS_DENIED_:
		return ERROR_ACCESS_DENIED_;
	case STATUS_ACCESS_VIOLATION_:
		return ERROR_NOACCESS_;
	default:
		return ERROR_NO_STATE;
	}
}

/* The ETW time-profile interval: read (set NULL) or set, logged. */
static ULONG etw(const ULONG *set, ULONG *value)
{
	HANDLE m = lock();
	char text[LINE_MAX_];
	ULONG now = 0, refused;
	unsigned at = MAX_LINES;
	ULONG error = ERROR_SUCCESS_;
	if (!load()) {
		unlock(m);
		return ERROR_NO_STATE;
	}
	for (unsigned i = 0; i < st.n; i++) {
		unsigned long v;
		if (sscanf(st.line[i], "etw %lu", &v) == 1) {
			now = (ULONG)v;
			at = i;
		}
	}
	if (set && find("refuse", NULL, &refused, NULL) && refused == *set)
		error = ERROR_ACCESS_DENIED_;
	if (set) {
		if (error == ERROR_SUCCESS_) {
			snprintf(text, sizeof text, "etw %lu", (unsigned long)*set);
			if (at < MAX_LINES)
				snprintf(st.line[at], LINE_MAX_, "%s", text);
			else
				append(text);
		}
		snprintf(text, sizeof text, "etwset %lu %lu", (unsigned long)*set, (unsigned long)error);
	} else {
		*value = now;
		snprintf(text, sizeof text, "etwget %lu", (unsigned long)now);
	}
	append(text);
	if (!store())
		error = ERROR_NO_STATE;
	unlock(m);
	return error;
}

__declspec(dllexport) ULONG WINAPI TraceSetInformation(ULONG64 session, ULONG cls, PVOID info,
						       ULONG length)
{
	trace_profile_interval *p = info;
	if (cls != TRACE_SAMPLED_PROFILE_INTERVAL_INFO)
		return ERROR_NOT_SUPPORTED_;
	if (session != 0)
		return 87u;   /* ERROR_INVALID_PARAMETER, TR-2 */
	if (length != sizeof *p)
		return ERROR_BAD_LENGTH_;
	if (p->source == 0)
		return etw(&p->interval, NULL);   /* TR-4 */
	return win32_of(NtSetIntervalProfile(p->interval, p->source));   /* TR-6 */
}

__declspec(dllexport) ULONG WINAPI TraceQueryInformation(ULONG64 session, ULONG cls, PVOID info,
							 ULONG length, PULONG return_length)
{
	trace_profile_interval *p = info;
	if (cls != TRACE_SAMPLED_PROFILE_INTERVAL_INFO)
		return ERROR_NOT_SUPPORTED_;   /* no source list (class 7) here */
	if (session != 0)
		return 87u;
	if (return_length)
		*return_length = sizeof *p;
	if (length != sizeof *p)
		return ERROR_BAD_LENGTH_;
	if (p->source == 0)
		return etw(NULL, &p->interval);
	return win32_of(NtQueryIntervalProfile(p->source, &p->interval));
}
