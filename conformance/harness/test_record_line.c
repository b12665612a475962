/* SPDX-License-Identifier: MIT */
/* Records as lines (harness/run/record_line.c): what a vector's child process
 * sends its parent on Windows. Every record survives the trip; control
 * characters cannot break a line; a malformed line is refused. */
#include "np_test.h"

#include <stdbool.h>
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/backend.h"
#include "ntprof/vector.h"
#include "run/record_line.h"

#ifndef NTPROF_SOURCE_ROOT
#error "NTPROF_SOURCE_ROOT must name the source tree"
#endif

static void assert_same(const np_record *a, const np_record *b)
{
	assert_int_equal(a->outcome.kind, b->outcome.kind);
	assert_int_equal(a->outcome.code, b->outcome.code);
	assert_string_equal(a->why, b->why);
	assert_int_equal(a->nout, b->nout);
	for (unsigned i = 0; i < a->nout; i++) {
		assert_string_equal(a->out[i].name, b->out[i].name);
		assert_string_equal(a->out[i].value, b->out[i].value);
	}
}

static void round_trip(const np_record *r)
{
	char line[NP_RECORD_LINE_MAX];
	np_record back;
	size_t n = np_record_encode(r, line, sizeof line);
	assert_true(n > 0);
	assert_int_equal(n, strlen(line));
	assert_int_equal(line[n - 1], '\n');
	assert_null(memchr(line, '\n', n - 1));
	assert_true(np_record_decode(line, &back));
	assert_same(r, &back);
}

static void test_record_line_round_trips(void **state)
{
	(void)state;
	np_record r = { .outcome = { NP_RESULT_STATUS, 0xC0000061u } };
	round_trip(&r);
	np_record_out(&r, "ProfileHandle", "h");
	np_record_out(&r, "Interval", "1221");
	round_trip(&r);

	np_record stub = { .outcome = { NP_RESULT_STUB, 0x80000100u } };
	strcpy(stub.why, "sechost.dll.TraceQueryInformation (an a=b in the reason)");
	round_trip(&stub);

	np_record none = { .outcome = { NP_RESULT_NONE, 0 } };
	np_record_out(&none, "Buffer", "0,1,0*4094");
	np_record_out(&none, "Empty", "");
	round_trip(&none);

	/* the longest record fits the documented maximum */
	np_record big = { .outcome = { NP_RESULT_CORRUPTION, 0xFFFFFFFFu } };
	memset(big.why, 'w', sizeof big.why - 1);
	for (unsigned i = 0; i < NP_MAX_OUTS; i++) {
		np_pair *p = &big.out[big.nout++];
		memset(p->name, 'n', sizeof p->name - 1);
		p->name[0] = (char)('A' + i);
		memset(p->value, 'v', sizeof p->value - 1);
	}
	round_trip(&big);
	char small[64];
	assert_int_equal(np_record_encode(&big, small, sizeof small), 0);
}

/* A tab or line end inside a field would split it: it becomes a space. */
static void test_record_line_control_characters(void **state)
{
	(void)state;
	np_record r = { .outcome = { NP_RESULT_CRASHED, 0xC0000005u } };
	strcpy(r.why, "two\tlines\nand\ra bell\a");
	np_record_out(&r, "X", "a\tb");
	char line[NP_RECORD_LINE_MAX];
	np_record back;
	assert_true(np_record_encode(&r, line, sizeof line) > 0);
	assert_string_equal(line, "R\t9\tC0000005\ttwo lines and a bell \tX=a b\n");
	assert_true(np_record_decode(line, &back));
	assert_string_equal(back.why, "two lines and a bell ");
	assert_string_equal(back.out[0].value, "a b");
}

static void test_record_line_malformed_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"",
		"X\t0\t00000000\t\n",
		"R\n",
		"R\t0\n",
		"R\t0\t00000000\n",              /* no WHY field */
		"R\t10\t00000000\t\n",           /* no such kind */
		"R\tx\t00000000\t\n",
		"R\t-1\t00000000\t\n",
		"R\t0\t0000000\t\n",             /* seven digits */
		"R\t0\t0000000G\t\n",
		"R\t0\t00000000\t\tnoequals\n",
		"R\t0\t00000000\t\t=value\n",
		"R\t0\t00000000\t\ta=1\t\n",     /* an empty field after a tab */
		"R\t0\t00000000\t\ta=1\nmore",   /* text after the line end */
		"R\t0\t00000000\t\ta=1\tb=2\tc=3\td=4\te=5\tf=6\tg=7\th=8\ti=9\n",
	};
	np_record r;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (np_record_decode(bad[i], &r))
			fail_msg("accepted malformed line %zu: \"%s\"", i, bad[i]);
	assert_true(np_record_decode("R\t0\t00000000\t", &r));   /* no newline is fine */
	assert_true(np_record_decode("R\t8\t80000100\tntdll.dll.NtFoo\n", &r));
	assert_int_equal(r.outcome.kind, NP_RESULT_STUB);
	assert_string_equal(r.why, "ntdll.dll.NtFoo");
}

/* Every step of every fixture reads back as itself from its line: the
 * child process of a live run parses what the parent sends. */
static void test_record_line_fixture_steps_round_trip(void **state)
{
	(void)state;
	np_vector_set set = { 0 };
	np_error err;
	if (!np_vectors_load(&set, NTPROF_SOURCE_ROOT "/fixtures", &err))
		fail_msg("%s", err.text);
	unsigned steps = 0;
	for (unsigned i = 0; i < set.count; i++) {
		const np_vector *v = &set.v[i];
		for (unsigned s = 0; s < v->nstep; s++) {
			char line[4096];
			np_step back;
			assert_true(np_step_line(&v->step[s], line, sizeof line) > 0);
			const char *e = np_parse_step(line, &back);
			if (!e)
				e = np_captures_check(v->step, s, &back);
			if (e)
				fail_msg("%s step %u: \"%s\": %s", v->id, s + 1, line, e);
			assert_string_equal(back.function, v->step[s].function);
			assert_int_equal(back.narg, v->step[s].narg);
			for (unsigned a = 0; a < back.narg; a++) {
				assert_string_equal(back.arg[a].name, v->step[s].arg[a].name);
				assert_string_equal(back.arg[a].value, v->step[s].arg[a].value);
			}
			steps++;
		}
	}
	np_vectors_free(&set);
	assert_true(steps > 300);
	char small[8];
	np_step st = { .function = "NtSetIntervalProfile" };
	assert_int_equal(np_step_line(&st, small, sizeof small), 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_record_line_fixture_steps_round_trip),
	cmocka_unit_test(test_record_line_round_trips),
	cmocka_unit_test(test_record_line_control_characters),
	cmocka_unit_test(test_record_line_malformed_refused),
};

NP_TEST_MAIN(tests)
