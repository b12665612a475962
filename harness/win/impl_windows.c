/* SPDX-License-Identifier: MIT */
/* The live system as an implementation of ntprof/impl.h: every call goes
 * to the real export, bound at run time (never through an import library:
 * on Wine a missing import binds to a stub that aborts the process). The
 * prototypes are the project's own: SIZE_T ProfileSize, ULONG_PTR KAFFINITY,
 * USHORT GroupCount (peers.md §8 on how headers disagree).
 *
 * Addresses are real: symbolic regions are VirtualAlloc'd, each followed by
 * 64 KiB reserved and never committed, so that an overrun meets a page that
 * is not there, as in the model. */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "win/impl_windows.h"

#define SE_SYSTEM_PROFILE_PRIVILEGE 11u
#define GUARD 0x10000u
#define MAX_TRACKED 64

typedef LONG nt_status;
typedef nt_status(NTAPI *set_interval_fn)(ULONG, ULONG);
typedef nt_status(NTAPI *query_interval_fn)(ULONG, PULONG);
typedef nt_status(NTAPI *create_fn)(PHANDLE, HANDLE, PVOID, SIZE_T, ULONG, PULONG, ULONG, ULONG,
				    ULONG_PTR);
typedef nt_status(NTAPI *create_ex_fn)(PHANDLE, HANDLE, PVOID, SIZE_T, ULONG, PULONG, ULONG, ULONG,
				       USHORT, PVOID);
typedef nt_status(NTAPI *handle_fn)(HANDLE);
typedef nt_status(NTAPI *duplicate_fn)(HANDLE, HANDLE, HANDLE, PHANDLE, ACCESS_MASK, ULONG, ULONG);
typedef nt_status(NTAPI *set_sysinfo_fn)(ULONG, PVOID, ULONG);
typedef nt_status(NTAPI *query_sysinfo_fn)(ULONG, PVOID, ULONG, PULONG);
typedef ULONG(WINAPI *trace_set_fn)(ULONG64, ULONG, PVOID, ULONG);
typedef ULONG(WINAPI *trace_query_fn)(ULONG64, ULONG, PVOID, ULONG, PULONG);
typedef nt_status(NTAPI *adjust_privilege_fn)(ULONG, BOOLEAN, BOOLEAN, PBOOLEAN);

/* Casts a bound export to its type (GetProcAddress gives FARPROC). */
#define AS(type, p) ((type)(void *)(p))

/* Test only: NTPROF_NTDLL=PATH names a DLL whose exports are bound before
 * the system's, so that conformance/cli/test_wine_restore.sh can give Wine the
 * interval calls it lacks (conformance/win/ntdll_standin.c) and the save, set and
 * restore below run for real. Unset (every real run), nothing is loaded.
 * Loaded once, by the first bind, which the main thread makes (the probe)
 * before any other thread starts. */
static HMODULE standin_module;
static DWORD standin_error;
static bool standin_tried;

static HMODULE standin(void)
{
	if (!standin_tried) {
		const char *path = getenv("NTPROF_NTDLL");
		standin_tried = true;
		if (path && path[0]) {
			standin_module = LoadLibraryA(path);
			standin_error = standin_module ? 0 : GetLastError();
			if (!standin_module && !standin_error)
				standin_error = ERROR_MOD_NOT_FOUND;
		}
	}
	return standin_module;
}

bool np_win_standin(char *text, size_t cap)
{
	const char *path = getenv("NTPROF_NTDLL");
	standin();
	if (standin_error)
		snprintf(text, cap, "NTPROF_NTDLL=%s: the DLL cannot be loaded (error %lu)", path ? path : "",
			 (unsigned long)standin_error);
	else if (standin_module)
		snprintf(text, cap, "%s (NTPROF_NTDLL: its exports are bound before the system's)", path);
	else
		text[0] = '\0';
	return standin_error == 0;
}

void *np_win_bind(const char *function)
{
	static const wchar_t *const modules[] = { L"ntdll.dll", L"advapi32.dll", L"sechost.dll",
						  L"kernel32.dll" };
	HMODULE first = standin();
	FARPROC found = first ? GetProcAddress(first, function) : NULL;
	if (found)
		return (void *)found;
	for (unsigned i = 0; i < sizeof modules / sizeof *modules; i++) {
		HMODULE m = GetModuleHandleW(modules[i]);
		if (!m && i > 0)
			m = LoadLibraryW(modules[i]);
		FARPROC p = m ? GetProcAddress(m, function) : NULL;
		if (p)
			return (void *)p;
	}
	return NULL;
}

long np_win_set_privilege(bool on, bool *was)
{
	adjust_privilege_fn adjust = AS(adjust_privilege_fn, np_win_bind("RtlAdjustPrivilege"));
	BOOLEAN before = FALSE;
	if (!adjust)
		return (nt_status)0xC0000002L;   /* STATUS_NOT_IMPLEMENTED */
	nt_status s = adjust(SE_SYSTEM_PROFILE_PRIVILEGE, on, FALSE, &before);
	if (was)
		*was = before != FALSE;
	return s;
}

/* ---- one open system ---- */

/* A handle the steps made, to stop (a profile) and close at the end. */
typedef struct tracked {
	HANDLE h;
	bool profile;               /* a profile or a duplicate: stopped before it is closed */
} tracked;

typedef struct win_sys {
	np_win_env env;
	bool privilege_was;         /* to restore at close */
	void *region[MAX_TRACKED];  /* VirtualAlloc'd bases */
	unsigned nregion;
	void *unmapped[MAX_TRACKED];/* reserved, never committed: `unmapped` pointers */
	unsigned nunmapped;
	tracked handle[MAX_TRACKED];/* open handles the steps made; a Close step takes its own off */
	unsigned nhandle;
	HANDLE other;               /* another process: a suspended copy of this exe */
	unsigned close_failures;    /* closes at the end that failed or raised */
} win_sys;

static char refusal[224];
static bool no_process;

void np_win_fail_open_process(void)
{
	no_process = true;
}

/* A processor setting against the live one: cpus is the caller's group's
 * (the model's cpus is one group's, at most 64), groups all of them, group
 * the caller's, which Windows chose when it made this process. */
static const char *take_processors(win_sys *s, const char *key, const char *value)
{
	char live[16];
	unsigned n = key[0] == 'c' ? s->env.group_cpus : strcmp(key, "groups") == 0 ? s->env.groups
											: s->env.group;
	snprintf(live, sizeof live, "%u", n);
	if (strcmp(value, live) == 0)
		return NULL;
	if (key[0] == 'c')
		snprintf(refusal, sizeof refusal, "the live system has cpus=%s in the caller's group %u (%u in all)",
			 live, s->env.group, s->env.cpus);
	else
		snprintf(refusal, sizeof refusal, "the live system has %s=%s", key, live);
	return refusal;
}

/* Whether the live system is in the state `key=value`, or can be put in it. */
static const char *take_setting(win_sys *s, const char *key, const char *value)
{
	if (strcmp(key, "privilege") == 0) {
		if (strcmp(value, "on") == 0 && !s->env.privilege_enableable)
			return "SeSystemProfilePrivilege cannot be enabled in this process";
		return NULL;   /* set in open() */
	}
	if (strcmp(key, "mode") == 0)
		return strcmp(value, "user") == 0 ? NULL : "a user-mode harness cannot call from kernel mode";
	if (strcmp(key, "tracing") == 0)
		return strcmp(value, "off") == 0 ? NULL : "profile tracing cannot be switched on for one vector";
	if (strcmp(key, "integrity") == 0)
		return strcmp(value, s->env.integrity) == 0 ? NULL : "the live process has another integrity level";
	if (strcmp(key, "cpus") == 0 || strcmp(key, "groups") == 0 || strcmp(key, "group") == 0)
		return take_processors(s, key, value);
	if (strcmp(key, "alloc") == 0)
		return strcmp(value, "ok") == 0 ? NULL : "allocations cannot be made to fail on a live system";
	if (strncmp(key, "K-", 2) == 0) {
		snprintf(refusal, sizeof refusal, "%s is a choice of the model; the live system is what it is", key);
		return refusal;
	}
	snprintf(refusal, sizeof refusal, "the live system cannot take `given %s=%s`", key, value);
	return refusal;
}

static void *win_open(const ntprof_system_spec *spec, const char **why)
{
	static win_sys sys;   /* one vector per child process: one system at a time */
	win_sys *s = &sys;
	memset(s, 0, sizeof *s);
	np_win_probe(&s->env);
	if (!np_win_standin(refusal, sizeof refusal)) {
		*why = refusal;
		return NULL;
	}
	np_ver v;
	np_arch a;
	if (s->env.refusal[0]) {
		*why = s->env.refusal;
		return NULL;
	}
	if (!s->env.version_known || !np_version_parse(spec->version, &v) || v != s->env.version ||
	    !np_arch_parse(spec->arch, &a) || a != s->env.arch) {
		snprintf(refusal, sizeof refusal, "the live system is %s/%s (%s)",
			 s->env.version_known ? np_version_key(s->env.version) : "unknown",
			 np_arch_name(s->env.arch), s->env.version_text);
		*why = refusal;
		return NULL;
	}
	bool privilege = false;
	for (unsigned i = 0; i < spec->ngiven; i++) {
		const char *e = take_setting(s, spec->given[i].key, spec->given[i].value);
		if (e) {
			*why = e;
			return NULL;
		}
		if (strcmp(spec->given[i].key, "privilege") == 0)
			privilege = strcmp(spec->given[i].value, "on") == 0;
	}
	/* MC-1: without `given privilege=on` the caller does not have it enabled */
	if (np_win_set_privilege(privilege, &s->privilege_was) != 0 && privilege) {
		*why = "SeSystemProfilePrivilege cannot be enabled in this process";
		return NULL;
	}
	return s;
}

/* While the end's closes run: under a debugger, strict handle checking or
 * Application Verifier, closing a handle that is not open raises
 * STATUS_INVALID_HANDLE instead of returning it. Continued, the close
 * returns the status, and the other handles are still closed. */
static LONG CALLBACK on_close_raise(EXCEPTION_POINTERS *ep)
{
	if (ep->ExceptionRecord->ExceptionCode != (DWORD)STATUS_INVALID_HANDLE)
		return EXCEPTION_CONTINUE_SEARCH;
	return EXCEPTION_CONTINUE_EXECUTION;
}

static void close_one(win_sys *s, handle_fn close, HANDLE h)
{
	if (close ? close(h) != 0 : !CloseHandle(h))
		s->close_failures++;
}

/* Only what is still open: a handle a Close step closed is not closed
 * again (closing it twice raises under strict handle checking, above). */
static void win_close(void *sys)
{
	win_sys *s = sys;
	handle_fn stop = AS(handle_fn, np_win_bind("NtStopProfile"));
	handle_fn close = AS(handle_fn, np_win_bind("NtClose"));
	PVOID guard = AddVectoredExceptionHandler(1, on_close_raise);
	for (unsigned i = 0; i < s->nhandle; i++) {
		if (stop && s->handle[i].profile)
			stop(s->handle[i].h);   /* a profile not started says so; no harm */
		close_one(s, close, s->handle[i].h);
	}
	if (s->other) {
		TerminateProcess(s->other, 0);
		close_one(s, close, s->other);
	}
	if (guard)
		RemoveVectoredExceptionHandler(guard);
	if (s->close_failures)
		fprintf(stderr, "ntprof child: %u of the vector's handles could not be closed at its end\n",
			s->close_failures);
	for (unsigned i = 0; i < s->nregion; i++)
		VirtualFree(s->region[i], 0, MEM_RELEASE);
	for (unsigned i = 0; i < s->nunmapped; i++)
		VirtualFree(s->unmapped[i], 0, MEM_RELEASE);
	np_win_set_privilege(s->privilege_was, NULL);
}

static int win_exported(void *sys, const char *function)
{
	(void)sys;
	return np_win_bind(function) != NULL;
}

static void *ptr(uint64_t addr) { return (void *)(uintptr_t)addr; }
static uint64_t num(const void *p) { return (uint64_t)(uintptr_t)p; }

/* Test only: NTPROF_CHECK_UNMAPPED=1 makes every allocation check that the
 * `unmapped` addresses made so far are still reserved and uncommitted, and
 * say so on stderr (conformance/cli/test_wine.sh); =twin makes `unmapped` the
 * wrong way (freed, so that a later allocation may be given it), which the
 * check must catch. Unset in real runs. */
static void check_unmapped(const win_sys *s, const char *hook, const void *made)
{
	for (unsigned i = 0; hook && i < s->nunmapped; i++) {
		MEMORY_BASIC_INFORMATION mi = { 0 };
		bool reserved = VirtualQuery(s->unmapped[i], &mi, sizeof mi) && mi.State == MEM_RESERVE;
		fprintf(stderr, "ntprof child: unmapped %p is %s while %p is made\n", s->unmapped[i],
			reserved ? "reserved, not committed" : "NOT RESERVED (check failed)", made);
	}
}

/* `unmapped`: an address with nothing behind it for the whole vector.
 * Reserved, never committed: a region freed instead could be handed to the
 * step's next allocation (first fit), and a handle written to `unmapped`
 * would land in the counters. */
static uint64_t reserve_unmapped(win_sys *s, SIZE_T n, const char *hook)
{
	if (s->nunmapped == MAX_TRACKED)
		return 0;
	char *base = VirtualAlloc(NULL, n, MEM_RESERVE, PAGE_NOACCESS);
	if (!base)
		return 0;
	if (hook && strcmp(hook, "twin") == 0)
		VirtualFree(base, 0, MEM_RELEASE);   /* the wrong way, for the check's twin */
	s->unmapped[s->nunmapped++] = base;
	return num(base);
}

static uint64_t win_map(void *sys, uint64_t size, unsigned prot, unsigned flags, uint8_t fill)
{
	win_sys *s = sys;
	const char *hook = getenv("NTPROF_CHECK_UNMAPPED");
	if ((flags & NTPROF_MAP_VANISHING) || s->nregion == MAX_TRACKED || size > (SIZE_MAX >> 1))
		return 0;   /* memory that vanishes once probed cannot be had on demand */
	SIZE_T n = size ? (SIZE_T)size : 1;
	if (flags & NTPROF_MAP_FREED)
		return reserve_unmapped(s, n + GUARD, hook);
	char *base = VirtualAlloc(NULL, n + GUARD, MEM_RESERVE, PAGE_NOACCESS);
	if (!base)
		return 0;
	if (!VirtualAlloc(base, n, MEM_COMMIT, PAGE_READWRITE)) {
		VirtualFree(base, 0, MEM_RELEASE);
		return 0;
	}
	memset(base, fill, n);
	DWORD old;
	if (!(prot & NTPROF_PROT_WRITE))
		VirtualProtect(base, n, PAGE_READONLY, &old);
	s->region[s->nregion++] = base;
	check_unmapped(s, hook, base);
	return num(base);
}

static int win_read(void *sys, uint64_t addr, void *out, size_t n)
{
	SIZE_T got = 0;
	(void)sys;
	return ReadProcessMemory(GetCurrentProcess(), ptr(addr), out, n, &got) && got == n;
}

/* As the caller: only pages it can write. */
static int win_write(void *sys, uint64_t addr, const void *in, size_t n)
{
	const DWORD writable = PAGE_READWRITE | PAGE_WRITECOPY | PAGE_EXECUTE_READWRITE |
			       PAGE_EXECUTE_WRITECOPY;
	for (uint64_t at = addr; at < addr + n;) {
		MEMORY_BASIC_INFORMATION mi;
		if (!VirtualQuery(ptr(at), &mi, sizeof mi) || mi.State != MEM_COMMIT ||
		    !(mi.Protect & writable) || (mi.Protect & PAGE_GUARD))
			return 0;
		at = num(mi.BaseAddress) + mi.RegionSize;
	}
	SIZE_T put = 0;
	(void)sys;
	return WriteProcessMemory(GetCurrentProcess(), ptr(addr), in, n, &put) && put == n;
}

/* Even into a read-only page: WriteProcessMemory lifts the protection. */
static int win_poke(void *sys, uint64_t addr, const void *in, size_t n)
{
	SIZE_T put = 0;
	(void)sys;
	return WriteProcessMemory(GetCurrentProcess(), ptr(addr), in, n, &put) && put == n;
}

static int win_release(void *sys, uint64_t addr)
{
	win_sys *s = sys;
	for (unsigned i = 0; i < s->nregion; i++)
		if (num(s->region[i]) == addr) {
			s->region[i] = s->region[--s->nregion];
			return VirtualFree(ptr(addr), 0, MEM_RELEASE) != 0;
		}
	return 0;
}

/* A handle to close at the end (once: a handle value is tracked once). */
static void keep(win_sys *s, HANDLE h, bool profile)
{
	for (unsigned i = 0; i < s->nhandle; i++)
		if (s->handle[i].h == h) {
			s->handle[i].profile = s->handle[i].profile || profile;
			return;
		}
	if (s->nhandle < MAX_TRACKED)
		s->handle[s->nhandle++] = (tracked){ h, profile };
}

/* A handle a step closed: not closed again at the end. */
static void forget(win_sys *s, HANDLE h)
{
	for (unsigned i = 0; i < s->nhandle; i++)
		if (s->handle[i].h == h) {
			s->handle[i] = s->handle[--s->nhandle];
			return;
		}
}

static uint64_t win_open_process(void *sys, int other, uint32_t access)
{
	win_sys *s = sys;
	if (s->nhandle == MAX_TRACKED || no_process)
		return 0;
	if (other && !s->other) {
		wchar_t self[MAX_PATH];
		STARTUPINFOW si = { .cb = sizeof si };
		PROCESS_INFORMATION pi;
		wchar_t line[] = L"ntprof-idle";
		if (!GetModuleFileNameW(NULL, self, MAX_PATH) ||
		    !CreateProcessW(self, line, NULL, NULL, FALSE, CREATE_SUSPENDED, NULL, NULL, &si, &pi))
			return 0;
		CloseHandle(pi.hThread);
		s->other = pi.hProcess;
	}
	HANDLE h = NULL;
	if (other)
		DuplicateHandle(GetCurrentProcess(), s->other, GetCurrentProcess(), &h, access, FALSE, 0);
	else
		h = OpenProcess(access, FALSE, GetCurrentProcessId());
	if (!h)
		return 0;
	keep(s, h, false);
	return num(h);
}

static ntprof_result status(nt_status st) { return (ntprof_result){ NTPROF_STATUS, (uint32_t)st, NULL }; }
static ntprof_result win32(ULONG e) { return (ntprof_result){ NTPROF_WIN32, e, NULL }; }
static const ntprof_result absent = { NTPROF_NOT_EXPORTED, 0, NULL };

/* Keeps a handle the call wrote at *where, to stop and close it at the end. */
static void track_handle(win_sys *s, uint64_t where)
{
	HANDLE h = NULL;
	if (win_read(s, where, &h, sizeof h) && h)
		keep(s, h, true);
}

static ntprof_result win_set_interval(void *sys, const char *fn, uint32_t interval, uint32_t source)
{
	set_interval_fn f = AS(set_interval_fn, np_win_bind(fn));
	(void)sys;
	return f ? status(f(interval, source)) : absent;
}

static ntprof_result win_query_interval(void *sys, const char *fn, uint32_t source, uint64_t p)
{
	query_interval_fn f = AS(query_interval_fn, np_win_bind(fn));
	(void)sys;
	return f ? status(f(source, ptr(p))) : absent;
}

static ntprof_result win_create(void *sys, const char *fn, const ntprof_create_args *a)
{
	create_fn f = AS(create_fn, np_win_bind(fn));
	if (!f)
		return absent;
	nt_status st = f(ptr(a->profile_handle), ptr(a->process), ptr(a->profile_base),
			 (SIZE_T)a->profile_size, a->bucket_size, ptr(a->buffer), a->buffer_size,
			 a->source, (ULONG_PTR)a->affinity);
	if (st == 0)
		track_handle(sys, a->profile_handle);
	return status(st);
}

static ntprof_result win_create_ex(void *sys, const char *fn, const ntprof_create_args *a)
{
	create_ex_fn f = AS(create_ex_fn, np_win_bind(fn));
	if (!f)
		return absent;
	nt_status st = f(ptr(a->profile_handle), ptr(a->process), ptr(a->profile_base),
			 (SIZE_T)a->profile_size, a->bucket_size, ptr(a->buffer), a->buffer_size,
			 a->source, a->group_count, ptr(a->affinity_array));
	if (st == 0)
		track_handle(sys, a->profile_handle);
	return status(st);
}

static ntprof_result handle_call(const char *fn, uint64_t handle)
{
	handle_fn f = AS(handle_fn, np_win_bind(fn));
	return f ? status(f(ptr(handle))) : absent;
}

static ntprof_result win_start(void *sys, const char *fn, uint64_t h) { (void)sys; return handle_call(fn, h); }
static ntprof_result win_stop(void *sys, const char *fn, uint64_t h) { (void)sys; return handle_call(fn, h); }
/* A handle the step closed is not closed again at the end. */
static ntprof_result win_close_handle(void *sys, const char *fn, uint64_t h)
{
	ntprof_result r = handle_call(fn, h);
	if (r.kind == NTPROF_STATUS && r.code == 0)
		forget(sys, ptr(h));
	return r;
}

static ntprof_result win_duplicate(void *sys, const char *fn, uint64_t handle, uint32_t access,
				   uint64_t target)
{
	duplicate_fn f = AS(duplicate_fn, np_win_bind(fn));
	if (!f)
		return absent;
	nt_status st = f(GetCurrentProcess(), ptr(handle), GetCurrentProcess(), ptr(target), access, 0, 0);
	if (st == 0)
		track_handle(sys, target);
	return status(st);
}

static ntprof_result win_set_sysinfo(void *sys, const char *fn, uint32_t cls, uint64_t buf, uint32_t len)
{
	set_sysinfo_fn f = AS(set_sysinfo_fn, np_win_bind(fn));
	(void)sys;
	return f ? status(f(cls, ptr(buf), len)) : absent;
}

static ntprof_result win_query_sysinfo(void *sys, const char *fn, uint32_t cls, uint64_t buf,
				       uint32_t len, uint64_t ret)
{
	query_sysinfo_fn f = AS(query_sysinfo_fn, np_win_bind(fn));
	(void)sys;
	return f ? status(f(cls, ptr(buf), len, ptr(ret))) : absent;
}

static ntprof_result win_trace_set(void *sys, uint64_t session, uint32_t cls, uint64_t buf, uint32_t len)
{
	trace_set_fn f = AS(trace_set_fn, np_win_bind("TraceSetInformation"));
	(void)sys;
	return f ? win32(f(session, cls, ptr(buf), len)) : absent;
}

static ntprof_result win_trace_query(void *sys, uint64_t session, uint32_t cls, uint64_t buf,
				     uint32_t len, uint64_t ret)
{
	trace_query_fn f = AS(trace_query_fn, np_win_bind("TraceQueryInformation"));
	(void)sys;
	return f ? win32(f(session, cls, ptr(buf), len, ptr(ret))) : absent;
}

static ntprof_result win_protect(void *sys, uint64_t addr, uint64_t size, unsigned prot)
{
	win_sys *s = sys;
	return np_win_protect_pages(s->region, s->nregion, addr, size, prot);
}

/* MoveThread: the calling thread pinned to one processor of its group. */
static ntprof_result win_move_thread(void *sys, unsigned cpu, unsigned *now)
{
	win_sys *s = sys;
	*now = GetCurrentProcessorNumber();
	if (cpu >= s->env.group_cpus || cpu >= 8 * sizeof(DWORD_PTR))
		return (ntprof_result){ NTPROF_NOT_APPLICABLE, 0, "the live system has no such processor" };
	if (!SetThreadAffinityMask(GetCurrentThread(), (DWORD_PTR)1 << cpu))
		return (ntprof_result){ NTPROF_NOT_APPLICABLE, 0, "the thread cannot be moved there" };
	Sleep(0);   /* let the scheduler move it now */
	*now = GetCurrentProcessorNumber();
	return (ntprof_result){ NTPROF_NONE, 0, NULL };
}

const ntprof_impl np_impl_windows = {
	.abi = NTPROF_IMPL_ABI,
	.name = "windows",
	.open = win_open,
	.close = win_close,
	.exported = win_exported,
	.map = win_map,
	.read = win_read,
	.write = win_write,
	.poke = win_poke,
	.release = win_release,
	.open_process = win_open_process,
	.set_interval_profile = win_set_interval,
	.query_interval_profile = win_query_interval,
	.create_profile = win_create,
	.create_profile_ex = win_create_ex,
	.start_profile = win_start,
	.stop_profile = win_stop,
	.close_handle = win_close_handle,
	.duplicate_object = win_duplicate,
	.set_system_information = win_set_sysinfo,
	.query_system_information = win_query_sysinfo,
	.trace_set_information = win_trace_set,
	.trace_query_information = win_trace_query,
	/* a live system takes no simulated interrupt, injected failure or event read */
	.interrupt = NULL,
	.inject = NULL,
	.read_events = NULL,
	.move_thread = win_move_thread,
	.interrupts = NULL,
	/* no processors to change, no second privileged process (MC-7, MC-8) */
	.set_cpus = NULL,
	.set_interval_elsewhere = NULL,
	.protect = win_protect,
};
