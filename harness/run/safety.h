/* SPDX-License-Identifier: MIT */
/* What a vector may do to a live system, decided before it runs there
 * (`ntprof.exe live`): which global state it may change (and whether this
 * process could put it back), and whether its behaviour there may harm the
 * kernel or is not known. Portable, so that the decisions are tested on
 * Linux like the rest of the harness. */
#ifndef NTPROF_SAFETY_H
#define NTPROF_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ntprof/backend.h"
#include "ntprof/vector.h"

/* A piece of global kernel state that outlives the process, each saved,
 * restored and verified through the path that changes it. */
typedef enum np_global_kind {
	/* a KPROFILE_SOURCE's interval: Nt/ZwSetIntervalProfile (SI), and
	 * TraceSetInformation class 5 with another source than 0 (TR-6) */
	NP_GLOBAL_INTERVAL,
	/* the ETW time-profile interval: TraceSetInformation class 5 with
	 * Source 0 and NtSetSystemInformation class 0x1F sub-class 3 (TR-4,
	 * SY-23). Whether it is the HAL's ProfileTime interval is K-ETW-TIME,
	 * which no source settles: it is its own state, put back through
	 * TraceSetInformation and read through TraceQueryInformation. */
	NP_GLOBAL_ETW_TIME,
} np_global_kind;

typedef struct np_global {
	np_global_kind kind;
	uint32_t source;   /* NP_GLOBAL_INTERVAL; 0 otherwise */
} np_global;

/* The global state the vector's steps may set, each once, in step order.
 * Returns how many (at most cap). */
unsigned np_vector_globals(const np_vector *v, np_global *out, unsigned cap);
bool np_global_equal(np_global a, np_global b);
/* "ProfileTime", "0x19", "ETW time-profile" (for reports). */
const char *np_global_name(np_global g, char *buf, size_t cap);

/* NULL when a process whose token holds or can enable
 * SeSystemProfilePrivilege as privilege says can put g back on t; else
 * why not, in why. From 6.2 a set needs the privilege (SI-1, and TR-5 by
 * K-ETW-TIME-PRIV's default: unknown, so it is assumed); the ETW interval
 * can be put back only where TraceSetInformation takes class 5 (TR-1). */
const char *np_global_unrestorable(np_global g, np_target t, bool privilege, char *why, size_t cap);

/* NULL when the vector is safe to run on t; else why not, in why:
 *   - the fixture expects a fault, a bug check or corruption there (the
 *     versions where a `hazardous` vector would crash a real kernel);
 *   - it asks for a class 0x81 control area (Allocate not 0): only the
 *     kernel's refusal keeps it from being allocated, and nothing would
 *     free it;
 *   - it starts a profile and is flagged unknown:K-X for a knob the model
 *     has no value for (K-SEGMENT-MATCH): real interrupts arrive while it
 *     is started, and nothing predicts what they do;
 * and with model (which may be NULL: the fixture only), begun on t with the
 * vector's own given pairs:
 *   - the model predicts a fault, a bug check or corruption at some step;
 *   - the model cannot say what a step after the first does (not
 *     applicable: no rule), while the steps before it run for real;
 *   - a profile the model creates is one whose matching is unknown (x86
 *     segment mode, IN-8; a source above 16 bits, kept in 16, IN-2 and
 *     K-SRC16) and a later step starts a profile. */
const char *np_vector_hazard(const np_vector *v, np_target t, np_backend *model, char *why,
			     size_t cap);

/* Whether the vector's outcome depends on the HAL's sources: a step names
 * another source than ProfileTime (HL-1, HL-2), or lists the sources
 * (TR-7, sub-class 0x0D). A live run judges it only where the model
 * mirrors the live HAL. */
bool np_vector_uses_hal(const np_vector *v);

#endif
