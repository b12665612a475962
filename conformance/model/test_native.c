/* SPDX-License-Identifier: MIT */
/* The interpreter (harness/run/interpreter.c) over implementations that are
 * not the model: what it does when an implementation cannot make memory,
 * lacks a simulation step, refuses a state, reports a stub or a crash, or
 * returns a result kind it does not know. The model never takes these paths;
 * a live system or a dl: object does. */
#include "np_test.h"

#include <stdio.h>
#include <string.h>

#include "run/impl_model.h"
#include "ntprof/impl.h"
#include "ntprof/backend.h"
#include "ntprof/status.h"
#include "ntprof/vector.h"

/* What the bent implementation does differently from the model. */
static struct {
	bool no_memory, refuse_open, not_exported, no_process;
	unsigned creates;           /* create calls that reached the implementation */
	uint32_t set_kind;          /* result kind of NtSetIntervalProfile; 0xFF: the model's */
} bend;

static uint64_t bent_map(void *sys, uint64_t size, unsigned prot, unsigned flags, uint8_t fill)
{
	return bend.no_memory ? 0 : np_impl_model.map(sys, size, prot, flags, fill);
}

static void *bent_open(const ntprof_system_spec *spec, const char **why)
{
	if (bend.refuse_open) {
		*why = "the live system is 6.1/x64";
		return NULL;
	}
	return np_impl_model.open(spec, why);
}

static int bent_exported(void *sys, const char *function)
{
	return bend.not_exported ? 0 : np_impl_model.exported(sys, function);
}

static ntprof_result bent_set(void *sys, const char *fn, uint32_t interval, uint32_t source)
{
	if (bend.set_kind != 0xFF)
		return (ntprof_result){ bend.set_kind, 0xC0000005u, "raised in the call" };
	return np_impl_model.set_interval_profile(sys, fn, interval, source);
}

static uint64_t bent_open_process(void *sys, int other, uint32_t access)
{
	return bend.no_process ? 0 : np_impl_model.open_process(sys, other, access);
}

static ntprof_result bent_create(void *sys, const char *fn, const ntprof_create_args *a)
{
	bend.creates++;
	return np_impl_model.create_profile(sys, fn, a);
}

static ntprof_impl bent;

static int setup(void **state)
{
	(void)state;
	memset(&bend, 0, sizeof bend);
	bend.set_kind = 0xFF;
	bent = np_impl_model;
	bent.name = "bent";
	bent.map = bent_map;
	bent.open = bent_open;
	bent.exported = bent_exported;
	bent.set_interval_profile = bent_set;
	bent.open_process = bent_open_process;
	bent.create_profile = bent_create;
	bent.interrupt = NULL;
	bent.interrupts = NULL;
	bent.inject = NULL;
	bent.read_events = NULL;
	bent.move_thread = NULL;
	return 0;
}

/* Runs one step line on 1809/x64 with the given settings; the record. */
static const char *run_step(const char *line, np_record *rec, const char *given)
{
	static np_vector v;
	static np_step st;
	memset(&v, 0, sizeof v);
	if (given)
		assert_null(np_parse_given_pair(given, &v.given[v.ngiven++]));
	assert_null(np_parse_step(line, &st));
	np_backend *b = np_backend_native_new(&bent);
	assert_non_null(b);
	np_ver ver;
	assert_true(np_version_parse("1809", &ver));
	const char *why = b->begin(b, (np_target){ ver, NP_X64 }, &v);
	static char kept[NP_TEXT_MAX];
	kept[0] = '\0';
	if (why)
		snprintf(kept, sizeof kept, "%s", why);
	else
		b->step(b, &st, rec);
	b->end(b);
	b->destroy(b);
	return why ? kept : NULL;
}

static void test_native_no_memory_is_not_applicable(void **state)
{
	np_record r;
	(void)state;
	bend.no_memory = true;
	assert_null(run_step("NtQueryIntervalProfile Source=ProfileTime Interval=user", &r, "privilege=on"));
	assert_int_equal(r.outcome.kind, NP_RESULT_NOT_APPLICABLE);
	assert_string_equal(r.why, "the system has no memory to map");
	assert_null(run_step("NtQueryIntervalProfile Source=ProfileTime Interval=vanishing", &r, NULL));
	assert_string_equal(r.why, "the system cannot make vanishing memory");
}

/* A process handle the system cannot make (OpenProcess of another process
 * failing) never reaches the call as 0, which NtCreateProfile takes for "no
 * process" (a global profile): the step is not applicable, with the reason. */
static void test_native_no_process_handle_is_not_applicable(void **state)
{
	static const char create[] = "NtCreateProfile ProfileHandle=>h Process=%s ProfileBase=0x10000000 "
				     "ProfileSize=0x1000 BucketSize=8 Buffer=user BufferSize=64 Affinity=1";
	char line[256];
	np_record r;
	(void)state;
	/* the twin: with the handle made, the same step reaches the call */
	snprintf(line, sizeof line, create, "other");
	assert_null(run_step(line, &r, "privilege=on"));
	assert_int_equal(r.outcome.kind, NP_RESULT_STATUS);
	assert_int_equal(bend.creates, 1);
	bend.no_process = true;
	assert_null(run_step(line, &r, "privilege=on"));
	assert_int_equal(r.outcome.kind, NP_RESULT_NOT_APPLICABLE);
	assert_string_equal(r.why, "the system cannot make a handle to another process (Process=other)");
	snprintf(line, sizeof line, create, "noquery");
	assert_null(run_step(line, &r, "privilege=on"));
	assert_int_equal(r.outcome.kind, NP_RESULT_NOT_APPLICABLE);
	assert_string_equal(r.why, "the system cannot open this process with SYNCHRONIZE only (noquery)");
	assert_int_equal(bend.creates, 1);
	const char *others[] = { "NtClose Handle=other", "NtStartProfile ProfileHandle=other",
				 "NtStopProfile ProfileHandle=noquery",
				 "NtDuplicateObject SourceHandle=other DesiredAccess=0 TargetHandle=>d" };
	for (unsigned i = 0; i < 4; i++) {
		assert_null(run_step(others[i], &r, NULL));
		assert_int_equal(r.outcome.kind, NP_RESULT_NOT_APPLICABLE);
		assert_non_null(strstr(r.why, "the system cannot"));
	}
}

static void test_native_missing_simulation_steps(void **state)
{
	np_record r;
	(void)state;
	const char *lines[] = { "Interrupt Source=ProfileTime Pc=0x1000", "Interrupts Pc=0x1000 Count=2",
				"Inject What=alloc", "ReadEvents", "MoveThread Cpu=0" };
	for (unsigned i = 0; i < 5; i++) {
		assert_null(run_step(lines[i], &r, NULL));
		assert_int_equal(r.outcome.kind, NP_RESULT_NOT_APPLICABLE);
		assert_string_equal(r.why, "the implementation cannot take this step");
		assert_int_equal(r.nout, 0);
	}
}

/* MC-7, MC-8, AS-4: an implementation without the situation operations
 * cannot take their steps, nor make a fresh buffer with a page form, and
 * then makes no call; the twin: with protect, the page form is made and
 * the create is called. */
/* rules: MC-7 MC-8 AS-4 */
static void test_native_missing_situation_steps(void **state)
{
	np_record r;
	(void)state;
	static const char create[] = "NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000 "
				     "ProfileSize=0x100 BucketSize=4 BufferSize=0x2000 Buffer=>b:unmapped=1";
	const char *lines[] = { "SetCpus Count=2", "SetIntervalElsewhere Interval=20000", create };
	bent.set_cpus = NULL;
	bent.set_interval_elsewhere = NULL;
	bent.protect = NULL;
	for (unsigned i = 0; i < 3; i++) {
		assert_null(run_step(lines[i], &r, NULL));
		assert_int_equal(r.outcome.kind, NP_RESULT_NOT_APPLICABLE);
		assert_string_equal(r.why, "the implementation cannot take this step");
	}
	assert_int_equal(bend.creates, 0);
	bent.protect = np_impl_model.protect;
	assert_null(run_step(create, &r, NULL));
	assert_int_equal(r.outcome.kind, NP_RESULT_STATUS);
	assert_int_equal(r.outcome.code, NP_STATUS_ACCESS_VIOLATION);   /* CP-13 meets the page */
	assert_int_equal(bend.creates, 1);
}

static void test_native_refused_state(void **state)
{
	np_record r;
	(void)state;
	bend.refuse_open = true;
	const char *why = run_step("NtSetIntervalProfile Interval=10000 Source=ProfileTime", &r, NULL);
	assert_non_null(why);
	assert_string_equal(why, "the live system is 6.1/x64");
}

static void test_native_not_exported(void **state)
{
	np_record r;
	(void)state;
	bend.not_exported = true;
	assert_null(run_step("NtSetIntervalProfile Interval=10000 Source=ProfileTime", &r, NULL));
	assert_int_equal(r.outcome.kind, NP_RESULT_NOT_EXPORTED);
}

static void test_native_stub_and_crash(void **state)
{
	np_record r;
	(void)state;
	bend.set_kind = NTPROF_STUB;
	assert_null(run_step("NtSetIntervalProfile Interval=10000 Source=ProfileTime", &r, NULL));
	assert_int_equal(r.outcome.kind, NP_RESULT_STUB);
	assert_string_equal(r.why, "raised in the call");
	bend.set_kind = NTPROF_CRASHED;
	assert_null(run_step("NtSetIntervalProfile Interval=10000 Source=ProfileTime", &r, NULL));
	assert_int_equal(r.outcome.kind, NP_RESULT_CRASHED);
	assert_int_equal(r.outcome.code, 0xC0000005u);
}

static void test_native_unknown_result_kind(void **state)
{
	np_record r;
	(void)state;
	bend.set_kind = 42;
	assert_null(run_step("NtSetIntervalProfile Interval=10000 Source=ProfileTime", &r, NULL));
	assert_int_equal(r.outcome.kind, NP_RESULT_CRASHED);
	assert_string_equal(r.why, "the implementation returned result kind 42");
}

/* The model through the same table still answers: the bent pieces are off. */
static void test_native_model_path(void **state)
{
	np_record r;
	(void)state;
	assert_null(run_step("NtSetIntervalProfile Interval=10000 Source=ProfileTime", &r, "privilege=off"));
	assert_int_equal(r.outcome.kind, NP_RESULT_STATUS);
	assert_int_equal(r.outcome.code, NP_STATUS_PRIVILEGE_NOT_HELD);
}

/* The interpreter runs a step from its typed values: arguments' text
 * changed after the step was read changes nothing (the function's spelling
 * is text the ABI takes: an implementation binds that export). */
static void test_native_runs_typed_values(void **state)
{
	np_record want, got;
	(void)state;
	static np_vector v;
	static np_step st;
	memset(&v, 0, sizeof v);
	assert_null(np_parse_given_pair("privilege=on", &v.given[v.ngiven++]));
	assert_null(np_parse_step("NtQueryIntervalProfile Source=ProfileAlignmentFixup Interval=user", &st));
	np_backend *b = np_backend_native_new(&bent);
	assert_non_null(b);
	np_ver ver;
	assert_true(np_version_parse("1809", &ver));
	for (int pass = 0; pass < 2; pass++) {
		assert_null(b->begin(b, (np_target){ ver, NP_X64 }, &v));
		b->step(b, &st, pass ? &got : &want);
		b->end(b);
		snprintf(st.arg[0].value, sizeof st.arg[0].value, "ProfileTime");
		snprintf(st.arg[1].value, sizeof st.arg[1].value, "null");
	}
	b->destroy(b);
	assert_int_equal(want.outcome.kind, NP_RESULT_STATUS);
	assert_int_equal(got.outcome.kind, want.outcome.kind);
	assert_int_equal(got.outcome.code, want.outcome.code);
	assert_int_equal(got.nout, 1);
	assert_string_equal(got.out[0].name, "Interval");
	assert_string_equal(got.out[0].value, want.out[0].value);
	assert_string_not_equal(got.out[0].value, "-");   /* a user region was written, not null */
}

/* One list of result kinds: the ABI's numbers (impl.h, published with ABI
 * 1) are the model's and the records', so a dl: object built for ABI 1 is
 * read as it was. */
static void test_native_result_kinds_are_the_abis(void **state)
{
	(void)state;
	static const struct { uint32_t abi; np_result_kind model; np_result_kind record; } same[] = {
		{ NTPROF_STATUS, NP_RESULT_STATUS, NP_RESULT_STATUS },
		{ NTPROF_WIN32, NP_RESULT_WIN32, NP_RESULT_WIN32 },
		{ NTPROF_FAULT, NP_RESULT_FAULT, NP_RESULT_FAULT },
		{ NTPROF_BUGCHECK, NP_RESULT_BUGCHECK, NP_RESULT_BUGCHECK },
		{ NTPROF_NOT_EXPORTED, NP_RESULT_NOT_EXPORTED, NP_RESULT_NOT_EXPORTED },
		{ NTPROF_NOT_APPLICABLE, NP_RESULT_NOT_APPLICABLE, NP_RESULT_NOT_APPLICABLE },
		{ NTPROF_NONE, NP_RESULT_NONE, NP_RESULT_NONE },
		{ NTPROF_CORRUPTION, NP_RESULT_CORRUPTION, NP_RESULT_CORRUPTION },
		{ NTPROF_STUB, NP_RESULT_STUB, NP_RESULT_STUB },
		{ NTPROF_CRASHED, NP_RESULT_CRASHED, NP_RESULT_CRASHED },
	};
	assert_int_equal(NTPROF_IMPL_ABI, 2);
	for (unsigned k = 0; k < sizeof same / sizeof *same; k++) {
		assert_int_equal(same[k].abi, k);   /* the published values, 0 to 9 */
		assert_int_equal(same[k].model, k);
		assert_int_equal(same[k].record, k);
	}
	assert_int_equal(NP_RESULT_LAST, NTPROF_CRASHED);
}

/* Every kind an implementation returns becomes the record's kind as it is,
 * and the first number past the list is refused. */
static void test_native_every_result_kind_crosses(void **state)
{
	np_record r;
	(void)state;
	for (uint32_t k = 0; k <= NP_RESULT_LAST + 1; k++) {
		bend.set_kind = k;
		assert_null(run_step("NtSetIntervalProfile Interval=10000 Source=ProfileTime", &r, NULL));
		if (k == NP_RESULT_LAST + 1) {
			assert_int_equal(r.outcome.kind, NP_RESULT_CRASHED);
			assert_string_equal(r.why, "the implementation returned result kind 10");
		} else {
			assert_int_equal(r.outcome.kind, k);
			assert_int_equal(r.outcome.code, 0xC0000005u);
		}
	}
}


/* ---- Interrupts: a run through interrupts(), or one interrupt() per pc ---- */

#define RUN_MAX_STEPS 8

/* Runs step lines in order on one fresh system of impl; one record each. */
static void run_steps(const ntprof_impl *impl, const char *version, np_arch arch, const char *given,
		      const char *const *lines, unsigned n, np_record *recs)
{
	static np_vector v;
	static np_step st;
	np_ver ver;
	memset(&v, 0, sizeof v);
	if (given)
		assert_null(np_parse_given_pair(given, &v.given[v.ngiven++]));
	assert_true(np_version_parse(version, &ver));
	np_backend *b = np_backend_native_new(impl);
	assert_non_null(b);
	assert_null(b->begin(b, (np_target){ ver, arch }, &v));
	for (unsigned i = 0; i < n; i++) {
		const char *e = np_parse_step(lines[i], &st);
		if (e)
			fail_msg("\"%s\": %s", lines[i], e);
		b->step(b, &st, &recs[i]);
	}
	b->end(b);
	b->destroy(b);
}

/* The first step whose records differ (kind, code, out-values), or -1. */
static int first_difference(const np_record *a, const np_record *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		bool same = a[i].outcome.kind == b[i].outcome.kind && a[i].outcome.code == b[i].outcome.code &&
			    a[i].nout == b[i].nout;
		for (unsigned k = 0; same && k < a[i].nout; k++)
			same = strcmp(a[i].out[k].name, b[i].out[k].name) == 0 &&
			       strcmp(a[i].out[k].value, b[i].out[k].value) == 0;
		if (!same)
			return (int)i;
	}
	return -1;
}

/* Runs the interpreter meets on the model's fast path (one started profile)
 * and beside it, across the 256-pc chunks it delivers them in. */
static const struct run_case {
	const char *version;
	np_arch arch;
	const char *given;
	const char *step[RUN_MAX_STEPS];
} run_cases[] = {
	{ "1709", NP_X64, NULL, {   /* IN-4: base+size counts, base+size+1 does not */
		"NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x100 "
		"BucketSize=4 Buffer=>b BufferSize=64 Affinity=1",
		"NtStartProfile ProfileHandle=h", "Interrupts Pc=0x100000FE Count=4", "ReadBuffer Buffer=b Count=17" } },
	{ "1809", NP_X64, NULL, {   /* IN-3: base+size does not count */
		"NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x100 "
		"BucketSize=4 Buffer=>b BufferSize=64 Affinity=1",
		"NtStartProfile ProfileHandle=h", "Interrupts Pc=0x100000FE Count=4", "ReadBuffer Buffer=b Count=17" } },
	{ "1709", NP_X64, NULL, {   /* IN-7: the bug check opens the second chunk and ends the run */
		"NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x4000 "
		"BucketSize=2 Buffer=>b BufferSize=0x4000 Affinity=1",
		"NtStartProfile ProfileHandle=h", "Interrupts Pc=0x10003F00 Count=0x200",
		"Interrupts Pc=0x10000000 Step=4 Count=2", "ReadBuffer Buffer=b" } },
	{ "1607", NP_X86, NULL, {   /* IN-7: corruption in the first chunk is the run's outcome */
		"NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x103 "
		"BucketSize=4 Buffer=>b BufferSize=64 Affinity=1",
		"NtStartProfile ProfileHandle=h", "Interrupts Pc=0x10000102 Step=0xFFFFFFFFFFFFFFFF Count=300",
		"ReadBuffer Buffer=b Count=17" } },
	{ "1607", NP_X86, "K-OOB-POLICY=bugcheck", {
		"NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x103 "
		"BucketSize=4 Buffer=>b BufferSize=64 Affinity=1",
		"NtStartProfile ProfileHandle=h", "Interrupts Pc=0x100000F0 Count=300", "ReadBuffer Buffer=b" } },
	{ "3.50", NP_X86, NULL, {   /* IN-2: not applicable, on the first pc */
		"NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x100 "
		"BucketSize=4 Buffer=>b BufferSize=64",
		"NtStartProfile ProfileHandle=h", "Interrupts Source=ProfileTotalIssues Pc=0x10000000 Count=3",
		"Interrupts Pc=0x10000000 Step=0 Count=0", "ReadBuffer Buffer=b" } },
};

static unsigned case_steps(const struct run_case *c)
{
	unsigned n = 0;
	while (n < RUN_MAX_STEPS && c->step[n])
		n++;
	return n;
}

/* Drops the first pc of every call: a fast path that loses one. */
static ntprof_result lossy_interrupts(void *sys, const ntprof_interrupt *irq, const uint64_t *pc, size_t n,
				      uint64_t *counted)
{
	*counted = 0;
	return n ? np_impl_model.interrupts(sys, irq, pc + 1, n - 1, counted)
		 : np_impl_model.interrupts(sys, irq, pc, 0, counted);
}

/* The difference, case by case, between the model's table and one other. */
static int compare_with_model(const ntprof_impl *other, unsigned c)
{
	np_record want[RUN_MAX_STEPS], got[RUN_MAX_STEPS];
	unsigned n = case_steps(&run_cases[c]);
	run_steps(&np_impl_model, run_cases[c].version, run_cases[c].arch, run_cases[c].given, run_cases[c].step,
		  n, want);
	run_steps(other, run_cases[c].version, run_cases[c].arch, run_cases[c].given, run_cases[c].step, n, got);
	return first_difference(want, got, n);
}

/* A dl: object takes a run through interrupt(), one pc at a time: it ends
 * exactly as the model's interrupts() does, chunk boundaries and all. */
static void test_native_run_one_at_a_time_is_the_model(void **state)
{
	(void)state;
	ntprof_impl one_at_a_time = np_impl_model;
	one_at_a_time.interrupts = NULL;
	for (unsigned c = 0; c < sizeof run_cases / sizeof *run_cases; c++) {
		int d = compare_with_model(&one_at_a_time, c);
		if (d >= 0)
			fail_msg("case %u (%s): step %d differs", c, run_cases[c].version, d + 1);
	}
	/* fail twin: a fast path that loses a pc is told apart */
	ntprof_impl lossy = np_impl_model;
	lossy.interrupts = lossy_interrupts;
	assert_int_equal(compare_with_model(&lossy, 0), 2);
	assert_int_equal(compare_with_model(&lossy, 3), 2);
}

/* What the runs above end in, written out: the model's own totals. */
static void test_native_run_outcomes(void **state)
{
	np_record r[RUN_MAX_STEPS];
	(void)state;
	const struct { unsigned c, step; np_result_kind kind; const char *out; } want[] = {
		{ 0, 2, NP_RESULT_CORRUPTION, "3" }, { 0, 3, NP_RESULT_NONE, "0*15,2,1" },
		{ 1, 2, NP_RESULT_NONE, "2" }, { 1, 3, NP_RESULT_NONE, "0*15,2,0" },
		{ 2, 2, NP_RESULT_BUGCHECK, NULL }, { 2, 3, NP_RESULT_BUGCHECK, NULL },
		{ 3, 2, NP_RESULT_CORRUPTION, "259" }, { 3, 3, NP_RESULT_NONE, "16*16,3" },
		{ 4, 2, NP_RESULT_BUGCHECK, NULL },
		{ 5, 2, NP_RESULT_NOT_APPLICABLE, NULL }, { 5, 3, NP_RESULT_NONE, "0" }, { 5, 4, NP_RESULT_NONE, "0*16" },
	};
	for (unsigned w = 0; w < sizeof want / sizeof *want; w++) {
		const struct run_case *c = &run_cases[want[w].c];
		run_steps(&np_impl_model, c->version, c->arch, c->given, c->step, case_steps(c), r);
		const np_record *got = &r[want[w].step];
		assert_int_equal(got->outcome.kind, want[w].kind);
		if (!want[w].out) {
			assert_int_equal(got->nout, 0);
			continue;
		}
		assert_int_equal(got->nout, 1);
		assert_string_equal(got->out[0].value, want[w].out);
	}
}

#define T(f) cmocka_unit_test_setup(f, setup)
static const struct CMUnitTest tests[] = {
	T(test_native_no_memory_is_not_applicable),
	T(test_native_missing_simulation_steps),
	T(test_native_missing_situation_steps),
	T(test_native_no_process_handle_is_not_applicable),
	T(test_native_refused_state),
	T(test_native_not_exported),
	T(test_native_stub_and_crash),
	T(test_native_unknown_result_kind),
	T(test_native_model_path),
	T(test_native_result_kinds_are_the_abis),
	T(test_native_every_result_kind_crosses),
	T(test_native_runs_typed_values),
	T(test_native_run_one_at_a_time_is_the_model),
	T(test_native_run_outcomes),
};
#undef T

NP_TEST_MAIN(tests)
