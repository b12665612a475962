/* SPDX-License-Identifier: MIT */
/* The live Windows (or Wine) system as an implementation of ntprof/impl.h,
 * and what the harness learns of the system before a run. Windows only. */
#ifndef NTPROF_IMPL_WINDOWS_H
#define NTPROF_IMPL_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>

#include "ntprof/impl.h"
#include "ntprof/vector.h"
#include "ntprof/version.h"

/* The environment, probed once (harness/win/probe.c). */
typedef struct np_win_env {
	unsigned major, minor, build, service_pack;   /* the kernel's (see rtl_version) */
	char version_text[96];      /* "10.0.19045 SP0", with RtlGetVersion's when it differs */
	char rtl_version[32];       /* what RtlGetVersion said when the kernel's own version
				     * (KUSER_SHARED_DATA) differs: compatibility mode; "" */
	np_ver version;             /* the version key it maps to (VR-2) */
	bool version_known;
	/* The build is newer than the table's newest row (11-25H2, 26200): the
	 * version key is that row's, but the rules may have changed since.
	 * For the live side's hazard decisions (harness/run/safety.c,
	 * harness/win/live.c): run only vectors that are not hazardous, and
	 * say so. */
	bool build_newer;
	/* Why the live system cannot be judged at all ("" when it can): ARM64
	 * Windows running this exe emulated, or a compatibility-mode version
	 * whose build cannot be read. version_known is false then. */
	char refusal[224];
	np_arch arch;               /* x86, x64, or wow64 for a 32-bit exe on 64-bit Windows */
	unsigned cpus, groups;      /* active processors (all groups), processor groups */
	unsigned group, group_cpus; /* the caller's processor group and its active processors */
	char wine[64];              /* Wine's version; "" on Windows */
	bool privilege_enableable;  /* SeSystemProfilePrivilege can be enabled */
	bool privilege_enabled;     /* and is enabled now (before the run touches it) */
	const char *integrity;      /* "low", "medium", "high" (system counts as high) */
} np_win_env;

/* Probes the system (no profile call is made). */
void np_win_probe(np_win_env *env);

/* RtlAdjustPrivilege(SeSystemProfilePrivilege): the NTSTATUS, and whether it
 * was enabled before (was may be NULL). */
long np_win_set_privilege(bool on, bool *was);

/* Test only (conformance/cli/test_wine.sh, through NTPROF_CHILD_FAULT=noprocess):
 * every later open_process fails, as OpenProcess of another process may on
 * a real machine. */
void np_win_fail_open_process(void);

/* Binds ntdll/advapi32/sechost exports at run time; NULL when absent.
 * With NTPROF_NTDLL=PATH set (tests only), PATH's exports come first. */
void *np_win_bind(const char *function);
/* Whether NTPROF_NTDLL is unset or names a DLL that loads; in text, what a
 * report says of it ("" when unset), or why it cannot be loaded. */
bool np_win_standin(char *text, size_t cap);

/* The implementation. open() takes the state the vector asks for only when
 * the live system is in it or can be put in it (privilege on or off);
 * anything else is refused with the reason. */
extern const ntprof_impl np_impl_windows;

/* The model settings that mirror the live system (the caller's group's
 * processors, the groups and the caller's group when there are several,
 * integrity), as `given` pairs for np_run_mirrored. Returns how many. The
 * privilege needs none: open() turns it off unless a vector asks for it,
 * as the model's default machine has it (MC-1). */
unsigned np_win_mirror(const np_win_env *env, np_pair *out, unsigned cap);

/* AS-4 (harness/win/protect.c): pages [addr, addr + size) of one of the
 * regions the system mapped become read-only (prot NTPROF_PROT_READ) or are
 * decommitted (0); NOT_APPLICABLE, with why, for any other pages. */
ntprof_result np_win_protect_pages(void *const *region, unsigned nregion, uint64_t addr, uint64_t size,
				   unsigned prot);

#endif
