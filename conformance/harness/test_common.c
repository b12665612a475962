/* SPDX-License-Identifier: MIT */
/* The harness's shared pieces (harness/common/common.h): FNV-1a against the
 * published test values of its authors, the string map with enough keys to
 * grow several times, and the HTML escaper. */
#include "np_test.h"
#include "common/common.h"

static void test_fnv1a_known_values(void **state)
{
	(void)state;
	assert_true(np_fnv1a_str(NP_FNV1A_SEED, "") == UINT64_C(0xCBF29CE484222325));
	assert_true(np_fnv1a_str(NP_FNV1A_SEED, "a") == UINT64_C(0xAF63DC4C8601EC8C));
	assert_true(np_fnv1a_str(NP_FNV1A_SEED, "foobar") == UINT64_C(0x85944171F73967E8));
	/* in pieces as at once */
	assert_true(np_fnv1a_str(np_fnv1a(NP_FNV1A_SEED, "foo", 3), "bar") ==
		    np_fnv1a_str(NP_FNV1A_SEED, "foobar"));
	assert_true(np_fnv1a(NP_FNV1A_SEED, "foobar", 3) == np_fnv1a_str(NP_FNV1A_SEED, "foo"));
}

#define KEYS 3000

static void test_strmap_grows_and_finds(void **state)
{
	(void)state;
	static char text[KEYS][8];
	char *keys[KEYS];
	np_strmap m = { 0 };
	for (unsigned i = 0; i < KEYS; i++) {
		snprintf(text[i], sizeof text[i], "k%u", i);
		keys[i] = text[i];
		assert_true(np_strmap_reserve(&m, keys));
		unsigned *slot = np_strmap_slot(&m, keys, keys[i]);
		assert_int_equal(*slot, 0);
		*slot = i + 1;
		m.count++;
	}
	assert_true(m.cap >= 2 * KEYS);
	for (unsigned i = 0; i < KEYS; i++)
		assert_int_equal(*np_strmap_slot(&m, keys, text[i]), i + 1);
	assert_int_equal(*np_strmap_slot(&m, keys, "k3000"), 0);
	assert_int_equal(*np_strmap_slot(&m, keys, ""), 0);
	np_strmap_free(&m);
	assert_null(m.slot);
}

static void test_html_escape(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	np_html_escape(out, "a<b>&\"c'", (size_t)-1);
	np_html_escape(out, "|xy", 2);        /* n bytes at most */
	np_html_escape(out, "z\0w", 5);       /* up to the NUL */
	fclose(out);
	assert_string_equal(buf, "a&lt;b&gt;&amp;&quot;c'|xz");
	free(buf);
}

/* seconds TEXT within MAX: its milliseconds, or -1 when it is refused (and
 * the output is untouched). */
static long seconds(const char *text, unsigned max_ms)
{
	unsigned ms = 12345;
	if (!np_seconds_parse(text, max_ms, &ms)) {
		assert_int_equal(ms, 12345);
		return -1;
	}
	return (long)ms;
}

static void test_seconds_parse(void **state)
{
	(void)state;
	assert_int_equal(seconds("1", 86400000), 1000);
	assert_int_equal(seconds("0.2", 86400000), 200);
	assert_int_equal(seconds("0.05", 86400000), 50);
	assert_int_equal(seconds("1.25", 86400000), 1250);
	assert_int_equal(seconds("0.001", 86400000), 1);
	assert_int_equal(seconds("010", 86400000), 10000);     /* decimal, never octal */
	assert_int_equal(seconds("86400", 86400000), 86400000);
	assert_int_equal(seconds("86400.001", 86400000), -1);  /* above max */
	assert_int_equal(seconds("4294967296", 86400000), -1); /* no wrap to a small value */
	assert_int_equal(seconds("0", 86400000), -1);
	assert_int_equal(seconds("0.0004", 86400000), -1);     /* a fourth decimal */
	assert_int_equal(seconds("0.000", 86400000), -1);
	assert_int_equal(seconds("", 86400000), -1);
	assert_int_equal(seconds(".5", 86400000), -1);
	assert_int_equal(seconds("1.", 86400000), -1);
	assert_int_equal(seconds("-1", 86400000), -1);
	assert_int_equal(seconds(" 1", 86400000), -1);
	assert_int_equal(seconds("1s", 86400000), -1);
	assert_int_equal(seconds("0x10", 86400000), -1);
	assert_int_equal(seconds("1e3", 86400000), -1);
	assert_int_equal(seconds("2", 1500), -1);              /* max in milliseconds */
	assert_int_equal(seconds("1.5", 1500), 1500);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_fnv1a_known_values),
	cmocka_unit_test(test_strmap_grows_and_finds),
	cmocka_unit_test(test_html_escape),
	cmocka_unit_test(test_seconds_parse),
};

NP_TEST_MAIN(tests)
