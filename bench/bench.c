/* SPDX-License-Identifier: MIT */
/* make bench: how fast the model is, beside what it is judged by.
 *
 * For the model on 1809/x64: each function on a fast failure path and on
 * success (bench/rows.c) beside one Linux system call, syscall(SYS_getppid);
 * sample counting beside a bare C loop doing buf[(pc - base) >> shift]++
 * over the same pcs: one interrupt per call (np_profile_interrupt), runs of
 * pcs replayed in one call (np_profile_interrupts), and for scale the bare
 * loop calling an empty libntprof function per pc; last, the explorer's
 * default sweep of NtCreateProfile over every target.
 *
 * A ratio taken from one run says little on a shared machine: each figure
 * here is the median of REPS repetitions, each repetition timing one batch
 * of the baseline and one of the subject back to back (their order
 * alternating), so that both see the same load; the spread (min-max of
 * the repetitions' ratios) is printed beside it. Judge by the ratios: the
 * nanoseconds depend on the machine and its load.
 *
 * bench --smoke runs each row once and checks it still ends as it names
 * (and that counting counts as the bare loop does), timing nothing: the
 * test conformance/cli/test_bench.sh runs it. Exit status: 0; 1 when a
 * row's path ends otherwise (--smoke, or before a row is timed); 2 for a
 * bad argument or a machine that cannot be set up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "bench.h"
#include "ntprof/backend.h"
#include "ntprof/explore.h"

#define FAIL_TARGET_NS   50.0
#define COUNT_TARGET     1.2
#define EXPLORE_TARGET_S 60.0
#define MAX_REPS         101
#define MAX_GIVEN        16

typedef struct options {
	bool smoke, explorer;
	unsigned reps;
	double batch_ns;          /* a batch lasts at least this long */
	const char *given[MAX_GIVEN];
	unsigned ngiven;
	char **only;              /* rows whose "function path" holds one of these */
	int nonly;
} options;

/* A median and the spread of the repetitions. */
typedef struct figure {
	double ns, ratio, lo, hi;   /* subject ns/op (median); ratio median, min, max */
} figure;

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof *v, by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Operations in a batch of at least batch_ns. */
static unsigned long calibrate(ctx *c, timed t, op f, double batch_ns)
{
	unsigned long n = NPC;
	while (t(c, f, n) < batch_ns && n < (1ul << 32))
		n *= 2;
	return n;
}

/* The subject beside the baseline, interleaved: see the top of the file. */
static figure compare(ctx *c, const options *o, timed base, op bf, timed subject, op sf)
{
	unsigned long nb = calibrate(c, base, bf, o->batch_ns), ns = calibrate(c, subject, sf, o->batch_ns);
	double ratio[MAX_REPS], per[MAX_REPS];
	for (unsigned r = 0; r < o->reps; r++) {
		double tb, ts;
		if (r % 2) {
			ts = subject(c, sf, ns) / (double)ns;
			tb = base(c, bf, nb) / (double)nb;
		} else {
			tb = base(c, bf, nb) / (double)nb;
			ts = subject(c, sf, ns) / (double)ns;
		}
		per[r] = ts;
		ratio[r] = ts / tb;
	}
	figure f = { .ns = median(per, o->reps), .ratio = median(ratio, o->reps) };
	f.lo = ratio[0];                 /* median() sorted them */
	f.hi = ratio[o->reps - 1];
	return f;
}

/* Does the row still end as it names? Prints why not. */
static bool holds(ctx *c, const row *w)
{
	np_result r = w->f(c);
	if (r.kind == w->kind && r.code == w->want)
		return true;
	char have[64], want[64];
	np_result named = { w->kind, w->want, NULL };
	fprintf(stderr, "ntprof bench: %s %s (%s) ended in %s, not %s\n", w->function, w->path, w->how,
		bench_outcome(r, have, sizeof have), bench_outcome(named, want, sizeof want));
	return false;
}

static bool chosen(const options *o, const char *function, const char *path)
{
	char name[80];
	snprintf(name, sizeof name, "%s %s", function, path);
	for (int i = 0; i < o->nonly; i++)
		if (strstr(name, o->only[i]))
			return true;
	return o->nonly == 0;
}

static int smoke(ctx *c)
{
	unsigned bad = 0;
	const char *why = bench_check_counting(c);   /* first: it wants the counters as set up */
	if (why)
		fprintf(stderr, "ntprof bench: counting: %s\n", why);
	bad += why != NULL;
	for (size_t i = 0; i < bench_nrows; i++)
		bad += !holds(c, &bench_rows[i]);
	printf("ntprof bench --smoke: %zu rows and counting, %u ending otherwise than named\n", bench_nrows, bad);
	return bad ? 1 : 0;
}

static void print_figure(const char *what, const char *ends, figure f, const char *verdict)
{
	printf("%-56s %-29s %9.1f %8.2fx %6.2f-%.2f%s\n", what, ends, f.ns, f.ratio, f.lo, f.hi, verdict);
}

static int rows_figures(ctx *c, const options *o)
{
	unsigned missed = 0;
	printf("\n%-56s %-29s %9s %9s %13s\n", "function, path", "ends in", "ns/call", "/syscall", "spread");
	for (size_t i = 0; i < bench_nrows; i++) {
		const row *w = &bench_rows[i];
		if (!chosen(o, w->function, w->path))
			continue;
		if (!holds(c, w))
			return 1;
		char what[80], ends[64];
		np_result named = { w->kind, w->want, NULL };
		snprintf(what, sizeof what, "%s %s%s%s", w->function, w->path, *w->how ? ", " : "", w->how);
		figure f = compare(c, o, bench_time_calls, bench_syscall, bench_time_calls, w->f);
		bool failure = strcmp(w->path, "failure") == 0;
		bool miss = failure && (f.ns >= FAIL_TARGET_NS || f.ratio >= 1.0);
		missed += miss;
		print_figure(what, bench_outcome(named, ends, sizeof ends), f, miss ? "  MISSED" : "");
	}
	printf("target: each failure path under %.0f ns and under the syscall (median): %s\n", FAIL_TARGET_NS,
	       missed ? "MISSED" : "met");
	return 0;
}

static void counting_figures(ctx *c, const options *o)
{
	figure runs = compare(c, o, bench_time_bare, NULL, bench_time_runs, NULL);
	figure one = compare(c, o, bench_time_bare, NULL, bench_time_interrupt, NULL);
	figure floor = compare(c, o, bench_time_bare, NULL, bench_time_call_floor, NULL);
	printf("\ncounting (%u counters, one per %u bytes of code, runs of %u pcs, one started profile),\n"
	       "beside the bare loop buf[(pc - base) >> shift]++ over the same pcs:\n", (unsigned)COUNTERS,
	       1u << SHIFT, NPC);
	printf("%-56s %-29s %9s %9s %13s\n", "counting", "", "ns/pc", "/bare", "spread");
	print_figure("np_profile_interrupts (runs)", "", runs, "");
	print_figure("np_profile_interrupt (one per call)", "", one, "");
	print_figure("for scale: an empty library call per pc", "", floor, "");
	printf("target: runs at most %.1fx the bare loop (median): %s\n", COUNT_TARGET,
	       runs.ratio <= COUNT_TARGET ? "met" : "MISSED");
}

/* The explorer's full default sweep of NtCreateProfile on every target
 * (each boundary alone, every pair, numeric triples), its report thrown
 * away: `ntprof explore --function NtCreateProfile` without the output. */
static void explorer_figures(void)
{
	static np_explore_options o;   /* its target list is large */
	np_explore_stats st;
#ifdef __GLIBC__
	/* as ntprof's main does: glibc would hand the top of the heap back to
	 * the kernel after each evaluation's machine (brk churn: 8x slower) */
	mallopt(M_TRIM_THRESHOLD, 16 << 20);
#endif
	np_backend *model = np_backend_model_new();
	FILE *out = fopen("/dev/null", "w");
	o.function[o.nfunction++] = "NtCreateProfile";
	o.seed = 1;
	if (!model || !out || !np_explore(out, model, &o, &st)) {
		printf("\nexplorer: could not run (out of memory or no /dev/null)\n");
	} else {
		printf("\nexplorer: default sweep of NtCreateProfile on every target (%lu combinations, %lu evaluations),"
		       " one run:\n", st.combinations, st.evaluations);
		printf("  %.2f s, %.0f combinations/s; target < %.0f s: %s\n", st.seconds,
		       (double)st.combinations / st.seconds, EXPLORE_TARGET_S,
		       st.seconds < EXPLORE_TARGET_S ? "met" : "MISSED");
	}
	if (out)
		fclose(out);
	if (model)
		model->destroy(model);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench [--smoke] [--reps N] [--batch-ms N] [--no-explorer] [--given KEY=VALUE]..."
		" [ROW-TEXT | counting | explorer]...\n");
}

static bool number(const char *arg, const char *text, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v = text ? strtoul(text, &end, 10) : 0;
	if (!text || !*text || *end || v < lo || v > hi) {
		fprintf(stderr, "ntprof bench: %s takes a number from %u to %u\n", arg, lo, hi);
		return false;
	}
	*out = (unsigned)v;
	return true;
}

/* Returns 0, or the exit status 2 after saying what is wrong. */
static int parse(int argc, char **argv, options *o)
{
	unsigned ms = 10;
	*o = (options){ .explorer = true, .reps = 11 };
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--smoke"))
			o->smoke = true;
		else if (!strcmp(a, "--no-explorer"))
			o->explorer = false;
		else if (!strcmp(a, "--reps") && number(a, next, 1, MAX_REPS, &o->reps))
			i++;
		else if (!strcmp(a, "--batch-ms") && number(a, next, 1, 1000, &ms))
			i++;
		else if (!strcmp(a, "--given") && next && o->ngiven < MAX_GIVEN)
			o->given[o->ngiven++] = argv[++i];
		else {
			if (strcmp(a, "--reps") && strcmp(a, "--batch-ms"))
				fprintf(stderr, "ntprof bench: %s: unknown option, or one too many\n", a);
			usage();
			return 2;
		}
	}
	o->batch_ns = ms * 1e6;
	o->only = argv + i;
	o->nonly = argc - i;
	return 0;
}

static void machine_line(void)
{
	char line[256], cpu[200] = "unknown processor";
	FILE *f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			snprintf(cpu, sizeof cpu, "%s", strchr(line, ':') + 2);
			cpu[strcspn(cpu, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	printf("machine: nproc %ld, %s", sysconf(_SC_NPROCESSORS_ONLN), cpu);
#ifdef __VERSION__
	printf("; compiler %s", __VERSION__);
#endif
	printf("\n");
}

int main(int argc, char **argv)
{
	static ctx c;   /* ~100 KiB: not on the stack */
	options o;
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc;
	if (!bench_setup(&c, o.given, o.ngiven)) {
		bench_teardown(&c);
		return 2;
	}
	if (o.smoke) {
		rc = smoke(&c);
	} else {
		printf("ntprof bench: the model (libntprof.a) on a simulated 1809/x64; each figure the median of %u\n"
		       "repetitions of >= %.0f ms batches, baseline and subject interleaved; spread: min-max ratio\n",
		       o.reps, o.batch_ns / 1e6);
		machine_line();
		rc = rows_figures(&c, &o);
		if (!rc && chosen(&o, "counting", ""))
			counting_figures(&c, &o);
		if (!rc && o.explorer && chosen(&o, "explorer", ""))
			explorer_figures();
	}
	bench_teardown(&c);
	return rc;
}
