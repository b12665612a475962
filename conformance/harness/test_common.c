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

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_fnv1a_known_values),
	cmocka_unit_test(test_strmap_grows_and_finds),
	cmocka_unit_test(test_html_escape),
};

NP_TEST_MAIN(tests)
