/* SPDX-License-Identifier: MIT */
/* A twin of wine_test_shim.h: 50 todo checks and 45 skips from one line
 * each, and 50 passing checks from a third. The harness prints 42 messages
 * per line and then "Line has been silenced after 42 occurrences"; what it
 * no longer prints it no longer counts: "Silenced 8 todos, 3 skips and 0
 * traces." and "92 tests executed (42 marked as todo, 0 failures), 42
 * skipped." (a passing check prints nothing and is never silenced).
 * conformance/cli/test_export_wine.sh requires those lines. */
#include <windows.h>

#include "wine/test.h"

START_TEST(twin_silenced)
{
	int i;
	for (i = 0; i < 50; i++)
		todo_if(1) ok(0, "todo %d\n", i);
	for (i = 0; i < 45; i++)
		skip("skip %d\n", i);
	for (i = 0; i < 50; i++)
		ok(1, "pass %d\n", i);
}
