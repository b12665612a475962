/* SPDX-License-Identifier: MIT */
/* What the harness learns of the live system before a run (np_win_probe):
 * the kernel's version, the architecture, the caller's processor group,
 * the privilege and the integrity level; and the model settings that
 * mirror it (np_win_mirror). Nothing here makes a profile call. */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "win/impl_windows.h"

/* KUSER_SHARED_DATA, mapped read-only at the same address in every
 * process (and WOW64 process) since NT 3.1, written by the kernel alone:
 * compatibility mode cannot rewrite it as it rewrites RtlGetVersion. The
 * offsets are those of mingw-w64's ddk/ntddk.h (NtMajorVersion 0x26C,
 * NtMinorVersion 0x270, asserted with both cross compilers:
 * offsetof(KUSER_SHARED_DATA, NtMajorVersion) == 0x26C); the slot at 0x260,
 * Reserved2[6] in that older layout, is NtBuildNumber from 10.0 on (phnt's
 * ntexapi.h), and 0 or stale before. */
#define SHARED_DATA      0x7FFE0000u
#define SHARED_BUILD     0x260u
#define SHARED_MAJOR     0x26Cu
#define SHARED_MINOR     0x270u
#define MACHINE_ARM64    0xAA64u   /* IMAGE_FILE_MACHINE_ARM64 */
#define ALL_GROUPS       0xFFFFu   /* ALL_PROCESSOR_GROUPS */

typedef LONG(NTAPI *get_version_fn)(PRTL_OSVERSIONINFOEXW);
typedef const char *(CDECL *wine_version_fn)(void);
typedef DWORD(WINAPI *processor_count_fn)(WORD);
typedef WORD(WINAPI *group_count_fn)(void);
typedef BOOL(WINAPI *thread_group_fn)(HANDLE, PGROUP_AFFINITY);
typedef BOOL(WINAPI *is_wow64_fn)(HANDLE, PBOOL);
typedef BOOL(WINAPI *is_wow64_2_fn)(HANDLE, USHORT *, USHORT *);

#define AS(type, p) ((type)(void *)(p))

static const char *integrity_name(void)
{
	HANDLE token;
	static char buf[sizeof(TOKEN_MANDATORY_LABEL) + SECURITY_MAX_SID_SIZE];
	DWORD got = 0;
	const char *name = "medium";
	if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
		return name;
	if (GetTokenInformation(token, TokenIntegrityLevel, buf, sizeof buf, &got)) {
		PSID sid = ((TOKEN_MANDATORY_LABEL *)buf)->Label.Sid;
		DWORD rid = *GetSidSubAuthority(sid, *GetSidSubAuthorityCount(sid) - 1u);
		name = rid < SECURITY_MANDATORY_MEDIUM_RID ? "low"
		       : rid < SECURITY_MANDATORY_HIGH_RID ? "medium" : "high";
	}
	CloseHandle(token);
	return name;
}

static ULONG shared_ulong(unsigned offset)
{
	ULONG v = 0;
	SIZE_T got = 0;
	if (!ReadProcessMemory(GetCurrentProcess(), (const void *)(uintptr_t)(SHARED_DATA + offset), &v,
			       sizeof v, &got) || got != sizeof v)
		return 0;
	return v;
}

/* The kernel's own version over what RtlGetVersion says: they differ under
 * compatibility mode (which children inherit), and a Windows 10 kernel
 * judged as 6.1 would be judged, and hazard-gated, by the wrong rules. */
static void kernel_version(np_win_env *env)
{
	unsigned major = shared_ulong(SHARED_MAJOR), minor = shared_ulong(SHARED_MINOR);
	unsigned build = major >= 10 ? shared_ulong(SHARED_BUILD) & 0xFFFFu : 0;
	if (major == 0 || (major == env->major && minor == env->minor && (!build || build == env->build)))
		return;   /* no shared data to read (not NT), or the two agree */
	snprintf(env->rtl_version, sizeof env->rtl_version, "%u.%u.%u SP%u", env->major, env->minor,
		 env->build, env->service_pack);
	if (major >= 10 && build) {
		env->major = major;
		env->minor = minor;
		env->build = build;
		env->service_pack = 0;
		return;
	}
	/* before 10.0 the kernel's build is not in the shared data */
	snprintf(env->refusal, sizeof env->refusal,
		 "the kernel is %u.%u but RtlGetVersion says %s (compatibility mode?): the build is not "
		 "known; run ntprof.exe without compatibility settings",
		 major, minor, env->rtl_version);
}

static void version(np_win_env *env)
{
	RTL_OSVERSIONINFOEXW vi = { .dwOSVersionInfoSize = sizeof vi };
	get_version_fn get_version = AS(get_version_fn, np_win_bind("RtlGetVersion"));
	if (get_version && get_version(&vi) == 0) {
		env->major = vi.dwMajorVersion;
		env->minor = vi.dwMinorVersion;
		env->build = vi.dwBuildNumber;
		env->service_pack = vi.wServicePackMajor;
	}
	/* Wine has no kernel of its own: the version winecfg sets is the
	 * version, and its shared data says 10.0 whatever that is (Wine 8.0
	 * set to Windows 7: 10.0.18362 there, 6.1.7601 from RtlGetVersion) */
	if (!env->wine[0])
		kernel_version(env);
	/* Test hook: NTPROF_PROBE_BUILD=N reads the build as N, so that a build
	 * newer than the version table can be tried under Wine. */
	const char *hook = getenv("NTPROF_PROBE_BUILD");
	if (hook && *hook)
		env->build = (unsigned)strtoul(hook, NULL, 10);
	snprintf(env->version_text, sizeof env->version_text, "%u.%u.%u SP%u%s%s%s", env->major,
		 env->minor, env->build, env->service_pack, env->rtl_version[0] ? " (RtlGetVersion: " : "",
		 env->rtl_version, env->rtl_version[0] ? ")" : "");
	/* VR-2: the service pack, not a revision, separates 4.0sp4 and 5.2sp1 here */
	env->version_known = !env->refusal[0] &&
			     np_version_from_build(env->major, env->minor, env->build, env->service_pack,
						   &env->version);
	const np_version_info *last = np_version_info_of((np_ver)(NP_VERSION_COUNT - 1));
	env->build_newer = env->version_known && env->version == NP_VERSION_COUNT - 1 &&
			   env->build > last->build;
}

/* x86, x64 or wow64; and a refusal on ARM64 Windows, where both exes run
 * emulated and would report x64 or wow64: the calls would go through the
 * emulator's thunks, not the calls the vectors describe. */
static void architecture(np_win_env *env)
{
	BOOL wow = FALSE;
	USHORT process = 0, native = 0;
	is_wow64_2_fn is_wow64_2 = AS(is_wow64_2_fn, np_win_bind("IsWow64Process2"));
	is_wow64_fn is_wow64 = AS(is_wow64_fn, np_win_bind("IsWow64Process"));
	if (is_wow64)
		is_wow64(GetCurrentProcess(), &wow);
	env->arch = sizeof(void *) == 8 ? NP_X64 : wow ? NP_WOW64 : NP_X86;
	if (is_wow64_2 && is_wow64_2(GetCurrentProcess(), &process, &native) && native == MACHINE_ARM64) {
		env->version_known = false;
		snprintf(env->refusal, sizeof env->refusal,
			 "this is ARM64 Windows (%s), where this %s exe runs emulated: its calls would be "
			 "the emulator's, and ntprof has no ARM64 exe; refused",
			 env->version_text, sizeof(void *) == 8 ? "x64" : "x86");
	}
}

/* The caller's processor group and its active processors: the model's
 * `cpus` is one group's (at most 64), and a new process's group is chosen
 * by Windows, so the caller's own is what a vector is judged against. */
static void processors(np_win_env *env)
{
	processor_count_fn count = AS(processor_count_fn, np_win_bind("GetActiveProcessorCount"));
	group_count_fn groups = AS(group_count_fn, np_win_bind("GetActiveProcessorGroupCount"));
	thread_group_fn thread_group = AS(thread_group_fn, np_win_bind("GetThreadGroupAffinity"));
	GROUP_AFFINITY ga = { 0 };
	SYSTEM_INFO si;
	GetSystemInfo(&si);
	env->cpus = count ? count(ALL_GROUPS) : si.dwNumberOfProcessors;
	env->groups = groups ? groups() : 1;
	env->group = thread_group && thread_group(GetCurrentThread(), &ga) ? ga.Group : 0;
	env->group_cpus = count ? count(env->group) : si.dwNumberOfProcessors;
}

void np_win_probe(np_win_env *env)
{
	memset(env, 0, sizeof *env);
	wine_version_fn wine = AS(wine_version_fn, np_win_bind("wine_get_version"));
	if (wine)
		snprintf(env->wine, sizeof env->wine, "%s", wine());
	version(env);
	architecture(env);
	processors(env);

	bool was = false;
	env->privilege_enableable = np_win_set_privilege(true, &was) == 0;
	env->privilege_enabled = was;
	if (env->privilege_enableable && !was)
		np_win_set_privilege(false, NULL);   /* leave it as it was */
	env->integrity = integrity_name();
}

static void pair(np_pair *out, unsigned *n, unsigned cap, const char *name, const char *value)
{
	if (*n < cap) {
		snprintf(out[*n].name, sizeof out[*n].name, "%s", name);
		snprintf(out[*n].value, sizeof out[*n].value, "%s", value);
		(*n)++;
	}
}

unsigned np_win_mirror(const np_win_env *env, np_pair *out, unsigned cap)
{
	char text[16];
	unsigned n = 0;
	snprintf(text, sizeof text, "%u", env->group_cpus);
	pair(out, &n, cap, "cpus", text);
	if (env->groups > 1) {
		snprintf(text, sizeof text, "%u", env->groups);
		pair(out, &n, cap, "groups", text);
		snprintf(text, sizeof text, "%u", env->group);
		pair(out, &n, cap, "group", text);   /* after groups, as the model wants */
	}
	pair(out, &n, cap, "integrity", env->integrity);
	return n;
}
