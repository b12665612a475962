/* SPDX-License-Identifier: MIT */
/* The timed loops of `make bench`: a row's calls, and sample counting
 * (one interrupt per call, runs of pcs, the bare loop they are judged by).
 * Results go to a volatile sink, and the model sits in another translation
 * unit (libntprof.a, no LTO), so the compiler cannot drop or hoist the
 * measured calls. */
#include <string.h>
#include <time.h>

#include "bench.h"
#include "ntprof/status.h"

/* Where the results go: the compiler must assume someone reads them. */
static volatile uint64_t sink;

/* Keeps the compiler from assuming anything about memory across it. */
#if defined(__GNUC__)
#define BARRIER() __asm__ __volatile__("" ::: "memory")
#else
#define BARRIER() ((void)0)
#endif

/* The thread's CPU time, not the wall clock: on a shared machine a batch
 * the scheduler interrupts is not charged for the time others ran. */
double bench_now_ns(void)
{
	struct timespec t;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
		clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

double bench_time_calls(ctx *c, op f, unsigned long n)
{
	double t0 = bench_now_ns();
	for (unsigned long i = 0; i < n; i++)
		sink += f(c).code;
	return bench_now_ns() - t0;
}

/* n interrupts into the started profile, one call each, the pcs cycled. */
double bench_time_interrupt(ctx *c, op f, unsigned long n)
{
	np_interrupt irq = { NP_PROFILE_TIME, 0, 0, 0, NP_PROCESS_CURRENT };
	unsigned counted, total = 0;
	(void)f;
	double t0 = bench_now_ns();
	for (unsigned long i = 0; i < n; i++) {
		irq.pc = c->pc[i % NPC];
		np_profile_interrupt(c->m, &irq, &counted);
		total += counted;
	}
	double t = bench_now_ns() - t0;
	sink += total;
	return t;
}

/* The same pcs replayed as runs of NPC (n rounded up to whole runs). */
double bench_time_runs(ctx *c, op f, unsigned long n)
{
	np_interrupt irq = { NP_PROFILE_TIME, 0, 0, 0, NP_PROCESS_CURRENT };
	uint64_t counted, total = 0;
	(void)f;
	double t0 = bench_now_ns();
	for (unsigned long i = 0; i < n; i += NPC) {
		np_profile_interrupts(c->m, &irq, c->pc, NPC, &counted);
		total += counted;
	}
	double t = bench_now_ns() - t0;
	sink += total;
	return t;
}

/* The bare minimum, in the same shape as the runs: one increment per pc.
 * Its base and shift are known only at run time, as a profile's are: a
 * shift the compiler knows would be a cheaper instruction than any
 * counting of a real profile could use. */
double bench_time_bare(ctx *c, op f, unsigned long n)
{
	uint32_t *buf = c->bare;
	const uint64_t *pc = c->pc;
	const uint64_t base = c->base;
	const unsigned shift = c->shift;
	(void)f;
	double t0 = bench_now_ns();
	for (unsigned long i = 0; i < n; i += NPC)
		for (unsigned j = 0; j < NPC; j++)
			buf[(pc[j] - base) >> shift]++;
	BARRIER();   /* the counts exist in memory before the clock stops */
	double t = bench_now_ns() - t0;
	sink += buf[(pc[0] - CODE_BASE) >> SHIFT];
	return t;
}

/* The floor of any counting through the library one call per pc: a call
 * of a trivial libntprof function (AS-1's limit) and one increment. */
double bench_time_call_floor(ctx *c, op f, unsigned long n)
{
	uint32_t *buf = c->bare;
	const uint64_t *pc = c->pc;
	(void)f;
	double t0 = bench_now_ns();
	for (unsigned long i = 0; i < n; i += NPC)
		for (unsigned j = 0; j < NPC; j++)
			buf[(pc[j] - CODE_BASE + (np_user_probe_address(c->m) & 1u)) >> SHIFT]++;
	BARRIER();
	double t = bench_now_ns() - t0;
	sink += buf[(pc[0] - CODE_BASE) >> SHIFT];
	return t;
}

const char *bench_check_counting(ctx *c)
{
	static uint32_t model[COUNTERS];
	np_interrupt irq = { NP_PROFILE_TIME, 0, 0, 0, NP_PROCESS_CURRENT };
	uint64_t counted = 0;
	np_result r = np_profile_interrupts(c->m, &irq, c->pc, NPC, &counted);   /* a run before ... */
	if (r.kind != NP_RESULT_NONE || counted != NPC)
		return "np_profile_interrupts did not count every pc of a run in the region";
	if (!np_mem_read(c->m, BASE, model, sizeof model))
		return "the started profile's counters cannot be read";
	memset(c->bare, 0, sizeof c->bare);
	for (unsigned j = 0; j < NPC; j++)
		c->bare[(c->pc[j] - CODE_BASE) >> SHIFT]++;
	if (memcmp(model, c->bare, sizeof model) != 0)   /* ... into counters the setup left at 0 */
		return "np_profile_interrupts left counters other than the bare loop's";
	return NULL;
}
