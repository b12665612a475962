/* SPDX-License-Identifier: MIT */
/* The benchmark's parts (bench/): the machine and the rows it measures
 * (rows.c), counting (counting.c), the timing and the command (bench.c). */
#ifndef NTPROF_BENCH_H
#define NTPROF_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ntprof/calls.h"

#define BASE      0x10000000ull   /* the caller's mapped memory */
#define MAPPED    0x40000ull
#define HANDLE_AT (BASE + 0x30000)  /* where NtCreateProfile writes the handle */
#define INFO_AT   (BASE + 0x31000)  /* input and output structures */
#define RETLEN_AT (BASE + 0x32000)

#define CODE_BASE 0x20000000ull   /* the profiled region */
#define CODE_SIZE 0x40000ull      /* 256 KiB ... */
#define SHIFT     4u              /* ... in 16-byte buckets: 16384 counters */
#define COUNTERS  (CODE_SIZE >> SHIFT)
#define NPC       4096u           /* pcs, replayed as one run */

typedef struct ctx {
	np_machine *m;
	np_create_profile_args create;  /* a valid NtCreateProfile */
	np_create_profile_args bad;     /* the same with a 2-byte bucket (CP-7) */
	uint64_t started;               /* a started profile's handle */
	uint64_t stopped;               /* a profile never started */
	uint64_t pc[NPC];
	uint32_t bare[COUNTERS];
	uint64_t base;                  /* CODE_BASE and SHIFT, for the bare loop */
	unsigned shift;
} ctx;

/* One operation on the context: what a row measures. */
typedef np_result (*op)(ctx *c);

/* A row: a function on one path, and the outcome that path ends in. A
 * success path ends in SUCCESS of the function's kind (an NTSTATUS, or a
 * Win32 error for the Trace functions); a failure path in the status of
 * the rule it names. The printed name comes from the model's tables. */
typedef struct row {
	const char *function;
	const char *path;      /* "failure" or "success" */
	const char *how;       /* the situation, with the rule */
	op f;
	np_result_kind kind;
	uint32_t want;
} row;

extern const row bench_rows[];
extern const size_t bench_nrows;

/* The machine on 1809/x64 with the caller's memory, the settings given
 * (KEY=VALUE, as a vector's given line), two profiles (one started) and
 * the pcs. Returns false and prints why on failure. */
bool bench_setup(ctx *c, const char *const *given, unsigned ngiven);
void bench_teardown(ctx *c);

/* The name of what r ended in ("SUCCESS", "ACCESS_VIOLATION", ...), into buf. */
const char *bench_outcome(np_result r, char *buf, size_t cap);

/* Timed loops: each runs n operations and returns the nanoseconds taken. */
typedef double (*timed)(ctx *c, op f, unsigned long n);
double bench_time_calls(ctx *c, op f, unsigned long n);
double bench_time_bare(ctx *c, op f, unsigned long n);
double bench_time_interrupt(ctx *c, op f, unsigned long n);
double bench_time_runs(ctx *c, op f, unsigned long n);
double bench_time_call_floor(ctx *c, op f, unsigned long n);
np_result bench_syscall(ctx *c);

/* Counting's path check: one run of the pcs into fresh counters counts
 * every pc and leaves the counters the bare loop leaves. NULL, or what
 * differed. */
const char *bench_check_counting(ctx *c);

double bench_now_ns(void);

#endif
