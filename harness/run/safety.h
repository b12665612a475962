/* What a vector may do to a live system, decided before it runs there
 * (`ntprof.exe live`): which global profile intervals it may change, and
 * whether it may fault or bug-check the kernel. Portable, so that the
 * decisions are tested on Linux like the rest of the harness. */
#ifndef NTPROF_SAFETY_H
#define NTPROF_SAFETY_H

#include <stddef.h>
#include <stdint.h>

#include "ntprof/backend.h"
#include "ntprof/vector.h"

/* The KPROFILE_SOURCE intervals the vector's steps may set, each once, in
 * step order: the Source of Nt/ZwSetIntervalProfile (SI), of
 * TraceSetInformation class 5 (TR-4, TR-6), and ProfileTime for a
 * Nt/ZwSetSystemInformation class 0x1F sub-class 3 set (SY-23, which shares
 * the ProfileTime interval by K-ETW-TIME's default). Returns how many
 * (at most cap). Profile intervals are global: they outlive the process. */
unsigned np_vector_interval_sources(const np_vector *v, uint32_t *out, unsigned cap);

/* NULL when the vector is safe to run on t; else why not, in why: the
 * fixture expects a fault, a bug check or corruption there (the versions
 * where a `hazardous` vector would crash a real kernel), or the model,
 * begun on t with the vector's own given pairs, predicts one at some step.
 * model may be NULL (fixture only). */
const char *np_vector_hazard(const np_vector *v, np_target t, np_backend *model, char *why,
			     size_t cap);

#endif
