/* SPDX-License-Identifier: MIT */
/* Internal helpers shared by the model's files. Not installed. */
#ifndef NTPROF_MODEL_INTERNAL_H
#define NTPROF_MODEL_INTERNAL_H

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/version_predicates.h"
#include "ntprof/status.h"

/* A model inconsistency: never an outcome, never compared (STYLE: Trap vs Crash). */
_Noreturn void np_model_bug(const char *file, int line, const char *what);
#define NP_MODEL_BUG(what) np_model_bug(__FILE__, __LINE__, (what))

static inline np_result np_status(uint32_t code) { return (np_result){ NP_RESULT_STATUS, code, NULL }; }
static inline np_result np_win32(uint32_t code) { return (np_result){ NP_RESULT_WIN32, code, NULL }; }
static inline np_result np_not_exported(void) { return (np_result){ NP_RESULT_NOT_EXPORTED, 0, NULL }; }
static inline np_result np_bugcheck(uint32_t code) { return (np_result){ NP_RESULT_BUGCHECK, code, NULL }; }
static inline np_result np_fault(uint32_t code) { return (np_result){ NP_RESULT_FAULT, code, NULL }; }
static inline np_result np_not_applicable(const char *why) { return (np_result){ NP_RESULT_NOT_APPLICABLE, 0, why }; }

/* The record of a call (ntprof/rule.h). A public call clears it on entry;
 * the model marks each rule where it acts on it (NP_APPLY) and returns
 * through the rule that decides the outcome (NP_DECIDE), which records it
 * with the place it was decided. */
void np_trail_apply(np_machine *m, np_rule r, const char *file, int line);
np_result np_trail_decide(np_machine *m, np_rule r, np_result res, const char *file, int line);
#define NP_APPLY(m, sym) np_trail_apply((m), NP_RULE(sym), __FILE__, __LINE__)
#define NP_APPLY_R(m, rule) np_trail_apply((m), (rule), __FILE__, __LINE__)
#define NP_DECIDE(m, sym, res) np_trail_decide((m), NP_RULE(sym), (res), __FILE__, __LINE__)
/* The same with the rule computed (NP_RULE(A) or NP_RULE(B)), and with the
 * rule a helper applied last, when it applied one, or else fallback: a
 * helper that refuses marks its rule with NP_APPLY before it returns. */
#define NP_DECIDE_R(m, rule, res) np_trail_decide((m), (rule), (res), __FILE__, __LINE__)
#define NP_DECIDE_LAST(m, fallback, res) \
	np_trail_decide((m), np_trail_last((m), NP_RULE(fallback)), (res), __FILE__, __LINE__)
np_rule np_trail_last(const np_machine *m, np_rule fallback);

/* AS-2: a user-mode probe for writing len bytes at addr with the given
 * alignment (1 = none). Returns an NTSTATUS. Kernel-mode requests pass. */
uint32_t np_probe_for_write(np_machine *m, uint64_t addr, uint64_t len, unsigned align);
/* AS-3: the read probe of an input array and the copy that follows it. */
uint32_t np_probe_input_array(np_machine *m, uint64_t addr, uint64_t len, unsigned align);

/* Region storage: copies that bypass protection (the kernel's own view of
 * locked pages), and release. */
void np_region_copy_out(np_region *r, uint64_t off, void *out, size_t len);
void np_region_copy_in(np_region *r, uint64_t off, const void *data, size_t len);
void np_region_zero(np_region *r, uint64_t off, uint64_t len);
void np_region_free(np_region *r);

/* MC-3: a handle's entry, after the usual masking of its low bits; NULL when
 * it names nothing in the table. Pseudo-handles are not table entries. */
np_handle_entry *np_handle_lookup(np_machine *m, uint64_t handle);
/* MC-3: references the object of a handle (pseudo-handles included) as the
 * given type with the given access; an NTSTATUS. */
uint32_t np_handle_reference(np_machine *m, uint64_t handle, np_object_type type, uint32_t access,
			     unsigned *object);
/* A 32-bit caller's handle, sign-extended as WOW64 does (MC-3). */
uint64_t np_handle_widen(const np_machine *m, uint64_t handle);

/* MC-2, MC-4: the active processors of a group as a KAFFINITY. */
static inline uint64_t np_active_mask(const np_machine *m)
{
	return m->cpus >= 64 ? UINT64_MAX : (1ull << m->cpus) - 1;
}

/* SY-1, SY-2: a user-mode probe for reading: alignment, then the range.
 * Nothing is accessed, so a mapping is not required. Kernel-mode requests pass. */
uint32_t np_probe_for_read(np_machine *m, uint64_t addr, uint64_t len, unsigned align);

/* HL-3..HL-5: the HAL's two entry points for profile sources. */
/* The Default HAL, into the table of a machine np_machine_init has just cleared. */
void np_hal_init_default(np_machine *m);
void np_hal_set_interval(np_machine *m, unsigned cpu, uint32_t source, uint32_t interval);
bool np_hal_query_interval(const np_machine *m, unsigned cpu, uint32_t source, uint32_t *interval);

/* The kernel's own set and query of an interval, shared by the native calls
 * and by the ETW time-profile path (SI-3..SI-5, QI-4, QI-5). */
void np_kernel_set_interval(np_machine *m, uint32_t interval, uint32_t source);
uint32_t np_kernel_query_interval(np_machine *m, uint32_t source);

/* The calls as another call of the model makes them (the Trace* functions
 * going through the native ones, SY-25): the same behaviour, adding to the
 * record of the call that makes them instead of starting one. */
np_result np_set_interval_profile_within(np_machine *m, uint32_t interval, uint32_t source);
np_result np_query_interval_profile_within(np_machine *m, uint32_t source, uint64_t interval_ptr);
np_result np_set_system_information_within(np_machine *m, uint32_t info_class, uint64_t buffer,
					   uint32_t length);
np_result np_query_system_information_within(np_machine *m, uint32_t info_class, uint64_t buffer,
					     uint32_t length, uint64_t return_length);

/* Takes one allocation; false when an injected failure consumes it. */
bool np_allocate(np_machine *m);

void np_emit_event(np_machine *m, np_event e);

#endif
