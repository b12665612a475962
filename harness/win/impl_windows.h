/* The live Windows (or Wine) system as an implementation of ntprof/impl.h,
 * and what the harness learns of the system before a run. Windows only. */
#ifndef NTPROF_IMPL_WINDOWS_H
#define NTPROF_IMPL_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>

#include "ntprof/impl.h"
#include "ntprof/vector.h"
#include "ntprof/version.h"

/* The environment, probed once. */
typedef struct np_win_env {
	unsigned major, minor, build, service_pack;
	char version_text[64];      /* "10.0.19045 SP0" */
	np_ver version;             /* the version key it maps to (VR-2) */
	bool version_known;
	np_arch arch;               /* x86, x64, or wow64 for a 32-bit exe on 64-bit Windows */
	unsigned cpus, groups;      /* active processors (all groups), processor groups */
	char wine[64];              /* Wine's version; "" on Windows */
	bool privilege_enableable;  /* SeSystemProfilePrivilege can be enabled */
	bool privilege_enabled;     /* and is enabled now (before the run touches it) */
	const char *integrity;      /* "low", "medium", "high" (system counts as high) */
} np_win_env;

/* Probes the system (no profile call is made). */
void np_win_probe(np_win_env *env);

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

/* The model settings that mirror the live system (processors, groups,
 * integrity), as `given` pairs for np_run_mirrored. Returns how many. The
 * privilege needs none: open() turns it off unless a vector asks for it,
 * as the model's default machine has it (MC-1). */
unsigned np_win_mirror(const np_win_env *env, np_pair *out, unsigned cap);

#endif
