/* SPDX-License-Identifier: MIT */
/* make bench: how fast the model is. Not a test: it
 * prints figures and never fails on them; `make check` does not run it.
 *
 * For the model on 1809/x64 it prints nanoseconds per call of each function
 * on a fast failure path and on success, beside one Linux system call
 * (syscall(SYS_getppid)) measured in the same run; and sample counting:
 * Interrupt steps per second into one started profile, one call per
 * interrupt (np_profile_interrupt) and as runs of pcs replayed in one call
 * (np_profile_interrupts), beside a bare C loop doing
 * buf[(pc - base) >> shift]++ over the same pcs. The 1.5x target is judged
 * on the runs: one library call per sample alone costs ~2x the bare loop.
 * Last, the explorer's full default sweep of NtCreateProfile over every
 * version and architecture (`ntprof explore`), in combinations per second.
 *
 * Each figure is the best of several timed batches (the least disturbed by
 * the rest of the machine), each batch long enough (~20 ms) for the clock.
 * Results go to a volatile sink, and the model sits in another translation
 * unit (libntprof.a, no LTO), so the compiler cannot drop or hoist the
 * measured calls. Targets: a failure path under 50 ns and cheaper
 * than the system call; counting within 1.5x of the bare loop; the sweep
 * under 60 s. */
#define _GNU_SOURCE   /* syscall() */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "ntprof/calls.h"
#include "ntprof/explore.h"
#include "ntprof/backend.h"
#include "ntprof/status.h"

#define BATCH_NS   20000000.0   /* a batch lasts at least this long */
#define BATCHES    7

#define FAIL_TARGET_NS   50.0
#define COUNT_TARGET     1.5
#define EXPLORE_TARGET_S 60.0

/* Where the results go: the compiler must assume someone reads them. */
static volatile uint64_t sink;

/* Keeps the compiler from assuming anything about memory across it. */
#if defined(__GNUC__)
#define BARRIER() __asm__ __volatile__("" ::: "memory")
#else
#define BARRIER() ((void)0)
#endif

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ---- what is measured: one operation on a context ---- */

#define BASE      0x10000000ull   /* the caller's mapped memory */
#define MAPPED    0x40000ull
#define HANDLE_AT (BASE + 0x30000)  /* where NtCreateProfile writes the handle */
#define INFO_AT   (BASE + 0x31000)  /* input and output structures */
#define RETLEN_AT (BASE + 0x32000)

#define CODE_BASE 0x20000000ull   /* the profiled region */
#define CODE_SIZE 0x40000ull      /* 256 KiB ... */
#define SHIFT     4u              /* ... in 16-byte buckets: 16384 counters */
#define COUNTERS  (CODE_SIZE >> SHIFT)
#define NPC       4096u           /* pcs, cycled */

typedef struct ctx {
	np_machine *m;
	np_create_profile_args create;  /* a valid NtCreateProfile */
	np_create_profile_args bad;     /* the same with a 2-byte bucket (CP-7) */
	uint64_t started;               /* a started profile's handle */
	uint64_t stopped;               /* a profile never started */
	uint64_t pc[NPC];
	uint32_t bare[COUNTERS];
	unsigned i;
} ctx;

typedef uint64_t (*op)(ctx *c);

static uint64_t code(np_result r) { return ((uint64_t)r.kind << 32) | r.code; }

static uint64_t op_syscall(ctx *c)
{
	(void)c;
	return (uint64_t)syscall(SYS_getppid);
}

/* NtSetIntervalProfile: without the privilege from 6.2 (SI-1); with it. */
static uint64_t op_set_fail(ctx *c)
{
	c->m->profile_privilege = false;
	return code(np_nt_set_interval_profile(c->m, 10000, NP_PROFILE_TIME));
}

static uint64_t op_set_ok(ctx *c)
{
	c->m->profile_privilege = true;
	return code(np_nt_set_interval_profile(c->m, 10000, NP_PROFILE_TIME));
}

/* NtQueryIntervalProfile: a misaligned Interval (QI-2); a good one. */
static uint64_t op_query_fail(ctx *c)
{
	return code(np_nt_query_interval_profile(c->m, NP_PROFILE_TIME, INFO_AT + 2));
}

static uint64_t op_query_ok(ctx *c)
{
	return code(np_nt_query_interval_profile(c->m, NP_PROFILE_TIME, INFO_AT));
}

/* NtCreateProfile(Ex): a bucket of 2 bytes (CP-3); a profile, closed again. */
static uint64_t op_create_fail(ctx *c)
{
	return code(np_nt_create_profile(c->m, &c->bad));
}

static uint64_t close_created(ctx *c, np_result r)
{
	uint64_t h = 0;
	np_mem_read(c->m, HANDLE_AT, &h, sizeof h);
	return code(r) ^ code(np_nt_close(c->m, h));
}

static uint64_t op_create_ok(ctx *c)
{
	return close_created(c, np_nt_create_profile(c->m, &c->create));
}

static uint64_t op_create_ex_fail(ctx *c)
{
	return code(np_nt_create_profile_ex(c->m, &c->bad));
}

static uint64_t op_create_ex_ok(ctx *c)
{
	/* GroupCount 0, no array: every active processor (CP-15) */
	return close_created(c, np_nt_create_profile_ex(c->m, &c->create));
}

/* NtStartProfile / NtStopProfile: a handle that names nothing; start then stop. */
static uint64_t op_start_fail(ctx *c)
{
	(void)c;
	return code(np_nt_start_profile(c->m, 0x7FF0));
}

static uint64_t op_start_stop(ctx *c)
{
	return code(np_nt_start_profile(c->m, c->stopped)) ^ code(np_nt_stop_profile(c->m, c->stopped));
}

static uint64_t op_stop_fail(ctx *c)
{
	return code(np_nt_stop_profile(c->m, c->stopped));   /* not started (SP-2) */
}

static uint64_t op_close_fail(ctx *c)
{
	return code(np_nt_close(c->m, 0x7FF0));
}

/* NtSetSystemInformation class 0x81: a misaligned buffer, the first check
 * (SY-1); a kernel-mode caller allocates the area and frees it again. */
static uint64_t op_ppca_fail(ctx *c)
{
	return code(np_nt_set_system_information(c->m, NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA, INFO_AT + 2, 16));
}

static uint64_t op_ppca_ok(ctx *c)
{
	uint8_t yes = 1, no = 0;
	c->m->previous_mode = NP_MODE_KERNEL;
	np_mem_poke(c->m, INFO_AT + 8, &yes, 1);
	uint64_t r = code(np_nt_set_system_information(c->m, NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA, INFO_AT, 16));
	np_mem_poke(c->m, INFO_AT + 8, &no, 1);
	r ^= code(np_nt_set_system_information(c->m, NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA, INFO_AT, 16));
	c->m->previous_mode = NP_MODE_USER;
	return r;
}

/* NtQuerySystemInformation: a misaligned buffer, the first check (SY-1);
 * class 0x1F sub-class 3 reports the ProfileTime interval (SY-23). */
static uint64_t op_sysinfo_query_fail(ctx *c)
{
	return code(np_nt_query_system_information(c->m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION, INFO_AT + 2,
						   NP_EVENT_TRACE_TIME_PROFILE_SIZE, RETLEN_AT));
}

static uint64_t op_sysinfo_query_ok(ctx *c)
{
	uint32_t cls = NP_EVENT_TRACE_TIME_PROFILE_INFORMATION;
	np_mem_poke(c->m, INFO_AT, &cls, sizeof cls);
	return code(np_nt_query_system_information(c->m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION, INFO_AT,
						   NP_EVENT_TRACE_TIME_PROFILE_SIZE, RETLEN_AT));
}

/* TraceSetInformation / TraceQueryInformation class 5: a session handle
 * other than 0 (TR-2); the ProfileTime interval set and read. */
static uint64_t op_trace_set_fail(ctx *c)
{
	return code(np_trace_set_information(c->m, 1, NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO, INFO_AT, 8));
}

static uint64_t op_trace_set_ok(ctx *c)
{
	uint32_t in[2] = { NP_PROFILE_TIME, 10000 };
	np_mem_poke(c->m, INFO_AT, in, sizeof in);
	c->m->profile_privilege = true;
	return code(np_trace_set_information(c->m, 0, NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO, INFO_AT, 8));
}

static uint64_t op_trace_query_fail(ctx *c)
{
	return code(np_trace_query_information(c->m, 1, NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO, INFO_AT, 8,
					       RETLEN_AT));
}

static uint64_t op_trace_query_ok(ctx *c)
{
	uint32_t in[2] = { NP_PROFILE_TIME, 0 };
	np_mem_poke(c->m, INFO_AT, in, sizeof in);
	return code(np_trace_query_information(c->m, 0, NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO, INFO_AT, 8,
					       RETLEN_AT));
}

/* ---- timing ---- */

/* Best nanoseconds per operation over BATCHES batches of n operations. */
static double time_op(op f, ctx *c)
{
	unsigned long n = 1000;
	for (;;) {   /* calibrate: a batch of at least BATCH_NS */
		double t0 = now_ns();
		for (unsigned long i = 0; i < n; i++)
			sink += f(c);
		if (now_ns() - t0 >= BATCH_NS || n >= (1ul << 30))
			break;
		n *= 2;
	}
	double best = 1e300;
	for (int b = 0; b < BATCHES; b++) {
		double t0 = now_ns();
		for (unsigned long i = 0; i < n; i++)
			sink += f(c);
		double per = (now_ns() - t0) / (double)n;
		if (per < best)
			best = per;
	}
	return best;
}

/* Counting: n interrupts into the started profile, the pcs cycled. */
static double time_interrupts(ctx *c, unsigned long n)
{
	np_interrupt irq = { NP_PROFILE_TIME, 0, 0, 0, NP_PROCESS_CURRENT };
	unsigned counted, total = 0;
	double t0 = now_ns();
	for (unsigned long i = 0; i < n; i++) {
		irq.pc = c->pc[i & (NPC - 1)];
		np_profile_interrupt(c->m, &irq, &counted);
		total += counted;
	}
	double t = now_ns() - t0;
	sink += total;
	return t;
}

/* Counting as a replayed trace: the same pcs, as runs of NPC. */
static double time_interrupt_runs(ctx *c, unsigned long n)
{
	np_interrupt irq = { NP_PROFILE_TIME, 0, 0, 0, NP_PROCESS_CURRENT };
	uint64_t counted, total = 0;
	double t0 = now_ns();
	for (unsigned long i = 0; i < n; i += NPC) {
		np_profile_interrupts(c->m, &irq, c->pc, NPC, &counted);
		total += counted;
	}
	double t = now_ns() - t0;
	sink += (unsigned)total;
	return t;
}

/* The floor of any counting through the library: a call of a trivial
 * libntprof function (AS-1's limit) per pc, with one increment. */
static double time_call_floor(ctx *c, unsigned long n)
{
	uint32_t *buf = c->bare;
	const uint64_t *pc = c->pc;
	double t0 = now_ns();
	for (unsigned long i = 0; i < n; i++)
		buf[(pc[i & (NPC - 1)] - CODE_BASE + (np_user_probe_address(c->m) & 1u)) >> SHIFT]++;
	BARRIER();
	double t = now_ns() - t0;
	sink += buf[(pc[0] - CODE_BASE) >> SHIFT];
	return t;
}

/* The same counting as the bare minimum: one increment per pc. */
static double time_bare(ctx *c, unsigned long n)
{
	uint32_t *buf = c->bare;
	const uint64_t *pc = c->pc;
	double t0 = now_ns();
	for (unsigned long i = 0; i < n; i++)
		buf[(pc[i & (NPC - 1)] - CODE_BASE) >> SHIFT]++;
	BARRIER();   /* the counts exist in memory before the clock stops */
	double t = now_ns() - t0;
	sink += buf[(pc[0] - CODE_BASE) >> SHIFT];
	return t;
}

static double best_per(double (*f)(ctx *, unsigned long), ctx *c)
{
	unsigned long n = 1ul << 12;
	while (f(c, n) < BATCH_NS && n < (1ul << 32))
		n *= 2;
	double best = 1e300;
	for (int b = 0; b < BATCHES; b++) {
		double per = f(c, n) / (double)n;
		if (per < best)
			best = per;
	}
	return best;
}

/* ---- the machine ---- */

static np_machine *machine(void)
{
	np_machine *m = malloc(sizeof *m);
	if (!m || np_machine_init(m, NP_V1809, NP_X64) || np_mem_map(m, BASE, MAPPED, NP_PROT_READ | NP_PROT_WRITE, 0, 0)) {
		fprintf(stderr, "ntprof bench: cannot set up the machine\n");
		exit(2);
	}
	return m;
}

static uint64_t create_one(ctx *c, np_create_profile_args *a)
{
	uint64_t h = 0;
	np_result r = np_nt_create_profile(c->m, a);
	if (r.kind != NP_RESULT_STATUS || r.code != NP_STATUS_SUCCESS || !np_mem_read(c->m, HANDLE_AT, &h, sizeof h)) {
		fprintf(stderr, "ntprof bench: NtCreateProfile failed (0x%08X)\n", r.code);
		exit(2);
	}
	return h;
}

static void check(ctx *c, op f, uint32_t want, const char *what)
{
	uint64_t r = f(c);   /* a pair of calls returns 0 when both succeeded */
	if ((uint32_t)r != want) {
		fprintf(stderr, "ntprof bench: %s ended in 0x%08X, not 0x%08X\n", what, (uint32_t)r, want);
		exit(2);
	}
}

typedef struct row {
	const char *function, *path, *result;
	op f;
	uint32_t want;        /* the status (or Win32 error) the path ends in */
	bool failure;
} row;

static const row rows[] = {
	{ "NtSetIntervalProfile", "failure", "PRIVILEGE_NOT_HELD", op_set_fail, NP_STATUS_PRIVILEGE_NOT_HELD, true },
	{ "NtSetIntervalProfile", "success", "SUCCESS", op_set_ok, NP_STATUS_SUCCESS, false },
	{ "NtQueryIntervalProfile", "failure", "DATATYPE_MISALIGNMENT", op_query_fail, NP_STATUS_DATATYPE_MISALIGNMENT, true },
	{ "NtQueryIntervalProfile", "success", "SUCCESS", op_query_ok, NP_STATUS_SUCCESS, false },
	{ "NtCreateProfile", "failure", "INVALID_PARAMETER", op_create_fail, NP_STATUS_INVALID_PARAMETER, true },
	{ "NtCreateProfile", "success", "SUCCESS, + NtClose", op_create_ok, 0, false },
	{ "NtCreateProfileEx", "failure", "INVALID_PARAMETER", op_create_ex_fail, NP_STATUS_INVALID_PARAMETER, true },
	{ "NtCreateProfileEx", "success", "SUCCESS, + NtClose", op_create_ex_ok, 0, false },
	{ "NtStartProfile", "failure", "INVALID_HANDLE", op_start_fail, NP_STATUS_INVALID_HANDLE, true },
	{ "NtStartProfile", "success", "SUCCESS, + NtStopProfile", op_start_stop, 0, false },
	{ "NtStopProfile", "failure", "PROFILING_NOT_STARTED", op_stop_fail, NP_STATUS_PROFILING_NOT_STARTED, true },
	{ "NtClose", "failure", "INVALID_HANDLE", op_close_fail, NP_STATUS_INVALID_HANDLE, true },
	{ "NtSetSystemInformation", "failure", "DATATYPE_MISALIGNMENT", op_ppca_fail, NP_STATUS_DATATYPE_MISALIGNMENT, true },
	{ "NtSetSystemInformation", "success", "SUCCESS, 0x81 alloc + free", op_ppca_ok, 0, false },
	{ "NtQuerySystemInformation", "failure", "DATATYPE_MISALIGNMENT", op_sysinfo_query_fail, NP_STATUS_DATATYPE_MISALIGNMENT, true },
	{ "NtQuerySystemInformation", "success", "SUCCESS (0x1F/3)", op_sysinfo_query_ok, NP_STATUS_SUCCESS, false },
	{ "TraceSetInformation", "failure", "ERROR_INVALID_PARAMETER", op_trace_set_fail, NP_ERROR_INVALID_PARAMETER, true },
	{ "TraceSetInformation", "success", "ERROR_SUCCESS", op_trace_set_ok, NP_ERROR_SUCCESS, false },
	{ "TraceQueryInformation", "failure", "ERROR_INVALID_PARAMETER", op_trace_query_fail, NP_ERROR_INVALID_PARAMETER, true },
	{ "TraceQueryInformation", "success", "ERROR_SUCCESS", op_trace_query_ok, NP_ERROR_SUCCESS, false },
};

static void cpu_model(char *buf, size_t cap)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	snprintf(buf, cap, "unknown processor");
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			snprintf(buf, cap, "%s", strchr(line, ':') + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
}

/* With arguments, only the rows whose "function path" contains one of
 * them, and counting only when one is "counting" (for perf record). */
static bool chosen(int argc, char **argv, const char *function, const char *path)
{
	char name[80];
	snprintf(name, sizeof name, "%s %s", function, path);
	for (int i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return true;
	return argc < 2;
}

static void counting_figures(ctx *c);
static void explorer_figures(void);

int main(int argc, char **argv)
{
	static ctx c;   /* ~80 KiB: not on the stack */
	char cpu[200];
	c.m = machine();
	c.create = (np_create_profile_args){
		.profile_handle = HANDLE_AT, .process = NP_HANDLE_CURRENT_PROCESS, .profile_base = CODE_BASE,
		.profile_size = CODE_SIZE, .bucket_size = SHIFT, .buffer = BASE, .buffer_size = COUNTERS * 4,
		.source = NP_PROFILE_TIME, .affinity = 1, .group_count = 0, .affinity_array = 0,
	};
	c.bad = c.create;
	c.bad.bucket_size = 1;
	c.m->profile_privilege = true;
	c.stopped = create_one(&c, &c.create);
	c.started = create_one(&c, &c.create);
	np_result r = np_nt_start_profile(c.m, c.started);
	if (r.code != NP_STATUS_SUCCESS) {
		fprintf(stderr, "ntprof bench: NtStartProfile failed (0x%08X)\n", r.code);
		return 2;
	}
	uint64_t x = 0x9E3779B97F4A7C15ull;   /* xorshift: pcs spread over the region */
	for (unsigned i = 0; i < NPC; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		c.pc[i] = CODE_BASE + x % CODE_SIZE;
	}

	cpu_model(cpu, sizeof cpu);
	printf("ntprof bench: the model (libntprof.a) on a simulated 1809/x64, best of %d batches of >= %.0f ms\n",
	       BATCHES, BATCH_NS / 1e6);
#ifdef __VERSION__
	printf("machine: nproc %ld, %s; compiler %s\n", sysconf(_SC_NPROCESSORS_ONLN), cpu, __VERSION__);
#else
	printf("machine: nproc %ld, %s\n", sysconf(_SC_NPROCESSORS_ONLN), cpu);
#endif
	double sys = time_op(op_syscall, &c);
	printf("\nbaseline: syscall(SYS_getppid)  %8.1f ns\n\n", sys);
	printf("%-25s %-8s %-27s %9s %10s\n", "function", "path", "ends in", "ns/call", "/syscall");
	unsigned missed = 0;
	double worst_fail = 0;
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		if (!chosen(argc, argv, rows[i].function, rows[i].path))
			continue;
		check(&c, rows[i].f, rows[i].want, rows[i].function);
		double ns = time_op(rows[i].f, &c);
		bool miss = rows[i].failure && (ns >= FAIL_TARGET_NS || ns >= sys);
		if (rows[i].failure && ns > worst_fail)
			worst_fail = ns;
		missed += miss;
		printf("%-25s %-8s %-27s %9.1f %9.2fx%s\n", rows[i].function, rows[i].path, rows[i].result, ns,
		       ns / sys, miss ? "  MISSED: target < 50 ns and < the syscall" : "");
	}
	printf("target: every failure path under %.0f ns and under the syscall: %s (slowest %.1f ns, %.2fx the syscall)\n",
	       FAIL_TARGET_NS, missed ? "MISSED" : "met", worst_fail, worst_fail / sys);

	if (chosen(argc, argv, "counting", ""))
		counting_figures(&c);
	if (chosen(argc, argv, "explorer", ""))
		explorer_figures();
	np_machine_fini(c.m);
	free(c.m);
	return 0;
}

/* Sample counting beside the bare loop. */
static void counting_figures(ctx *c)
{
	double model = best_per(time_interrupts, c), bare = best_per(time_bare, c);
	double runs = best_per(time_interrupt_runs, c);
	double floor = best_per(time_call_floor, c);
	printf("\ncounting (%u counters, one per %u bytes of code, %u pcs cycled, one started profile):\n",
	       (unsigned)COUNTERS, 1u << SHIFT, NPC);
	printf("  np_profile_interrupt            %8.2f ns  %7.1f M interrupts/s\n", model, 1e3 / model);
	printf("  bare buf[(pc - base) >> shift]++ %7.2f ns  %7.1f M increments/s\n", bare, 1e3 / bare);
	printf("  np_profile_interrupts (runs)    %8.2f ns  %7.1f M interrupts/s\n", runs, 1e3 / runs);
	printf("  ratio one interrupt per call/bare: %.2fx (a library call per sample)\n", model / bare);
	printf("  ratio runs/bare: %.2fx; target <= %.1fx: %s\n", runs / bare, COUNT_TARGET,
	       runs / bare <= COUNT_TARGET ? "met" : "MISSED");
	printf("  (for scale: the same loop calling an empty libntprof function per pc: %.2f ns, %.2fx)\n", floor,
	       floor / bare);
}

/* The explorer's full default sweep of NtCreateProfile on every target
 * (each boundary alone, every pair, numeric triples), its report thrown
 * away: `ntprof explore --function NtCreateProfile` without the output. */
static void explorer_figures(void)
{
	static np_explore_options o;   /* its target list is large */
	np_explore_stats st;
#ifdef __GLIBC__
	/* as ntprof's main does: each evaluation opens and frees a simulated
	 * machine and its regions at the top of the heap, and glibc would hand
	 * that memory back to the kernel every time (brk churn: 8x slower) */
	mallopt(M_TRIM_THRESHOLD, 16 << 20);
#endif
	np_backend *model = np_backend_model_new();
	FILE *out = fopen("/dev/null", "w");
	o.function[o.nfunction++] = "NtCreateProfile";
	o.seed = 1;
	if (!model || !out || !np_explore(out, model, &o, &st)) {
		printf("\nexplorer: could not run (out of memory or no /dev/null)\n");
	} else {
		printf("\nexplorer: default sweep of NtCreateProfile on every target (%lu combinations, %lu evaluations):\n",
		       st.combinations, st.evaluations);
		printf("  %.2f s, %.0f combinations/s, %.0f evaluations/s; target < %.0f s: %s\n", st.seconds,
		       (double)st.combinations / st.seconds, (double)st.evaluations / st.seconds, EXPLORE_TARGET_S,
		       st.seconds < EXPLORE_TARGET_S ? "met" : "MISSED");
	}
	if (out)
		fclose(out);
	if (model)
		model->destroy(model);
}
