/* SPDX-License-Identifier: MIT */
/* A stand-in for the test interface of Wine's conformance tests
 * (include/wine/test.h) and of ReactOS's apitests, so that a file
 * `ntprof export` wrote builds and runs here (mingw-w64, under Wine or on
 * Windows) without either source tree. Written from the interface's public
 * description (https://gitlab.winehq.org/wine/wine/-/wikis/Writing-Conformance-Tests)
 * and from the behaviour measured against the real headers
 * (/work/shared/research/harnesses.md), not from their text. It keeps the
 * points that decide whether a test builds and passes there:
 *
 *   - Out of line. ok(), skip(), win_skip(), trace(), broken() and the todo
 *     machinery are calls into another translation unit, which the compiler
 *     cannot see through: a variable set only on a path that ends in skip()
 *     is "maybe used uninitialized" at -O2, as in Wine's tree. The bodies
 *     are compiled only where STANDALONE is defined: in the test list
 *     (testlist.c) that Wine's makedep generates, and that a build here
 *     writes the same way (docs/export.md).
 *   - Messages per source line. A line that has printed
 *     WINETEST_MUTE_THRESHOLD (default 42) todo, skip or trace messages
 *     prints "Line has been silenced after 42 occurrences" and then nothing
 *     more; what it would have printed is no longer counted in the summary
 *     ("Silenced N todos, N skips and N traces."). WINETEST_DEBUG=2 lifts
 *     the limit. ok_(FILE, LINE) reports at the caller's line.
 *   - The platform. WINETEST_PLATFORM names it ("windows", "wine",
 *     "reactos"); unset, it is "wine" when ntdll exports wine_server_call
 *     (Wine's own ntdll), else "windows". Built with WINETEST_AS_REACTOS, as
 *     ReactOS's header, nothing is detected: under Wine set
 *     WINETEST_PLATFORM=wine.
 *   - broken(X): X where the platform is not Wine (Windows, ReactOS), false
 *     on Wine. todo_wine / todo_wine_if(C): on Wine the checks inside must
 *     fail (a failing one is a todo, a passing one a failure); todo_ros /
 *     todo_ros_if(C) the same on ReactOS. win_skip(): a skip, except on
 *     Wine, where it is a failed check (a todo inside todo_wine).
 *   - The summary, on stdout: "PID:NAME: N tests executed (T marked as todo,
 *     F failures), S skipped."; the exit status is the number of failures
 *     (a todo that succeeded counts), at most 255. */
#ifndef NTPROF_WINE_TEST_SHIM_H
#define NTPROF_WINE_TEST_SHIM_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#if defined(__GNUC__)
#define WINETEST_FORMAT(f, a) __attribute__((format(printf, f, a)))
#else
#define WINETEST_FORMAT(f, a)
#endif

extern const char *winetest_platform;   /* "windows", "wine", "reactos", or what WINETEST_PLATFORM says */
extern int winetest_platform_is_wine;
extern int winetest_debug;              /* WINETEST_DEBUG: 0 quiet, 1 default, 2 and up no silencing */
extern int winetest_mute_threshold;     /* WINETEST_MUTE_THRESHOLD */

void winetest_at(const char *file, int line);
void winetest_ok(int condition, const char *fmt, ...) WINETEST_FORMAT(2, 3);
void winetest_skip(const char *fmt, ...) WINETEST_FORMAT(1, 2);
void winetest_win_skip(const char *fmt, ...) WINETEST_FORMAT(1, 2);
void winetest_trace(const char *fmt, ...) WINETEST_FORMAT(1, 2);
int broken(int condition);
void winetest_todo_push(int applies);
int winetest_todo_first(void);
void winetest_todo_pop(void);

/* X_(FILE, LINE)(ARGS): the check reported at FILE:LINE, a helper's caller. */
#define ok_(file, line) winetest_at(file, line), winetest_ok
#define skip_(file, line) winetest_at(file, line), winetest_skip
#define win_skip_(file, line) winetest_at(file, line), winetest_win_skip
#define trace_(file, line) winetest_at(file, line), winetest_trace
#define ok ok_(__FILE__, __LINE__)
#define skip skip_(__FILE__, __LINE__)
#define win_skip win_skip_(__FILE__, __LINE__)
#define trace trace_(__FILE__, __LINE__)

/* The statement after it runs once, as a todo where COND holds. */
#define todo_if(cond) for (winetest_todo_push((cond) != 0); winetest_todo_first(); winetest_todo_pop())
#define todo_wine todo_if(winetest_platform_is_wine)
#define todo_wine_if(cond) todo_if((cond) && winetest_platform_is_wine)
#define todo_ros todo_if(strcmp(winetest_platform, "reactos") == 0)
#define todo_ros_if(cond) todo_if((cond) && strcmp(winetest_platform, "reactos") == 0)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* A test file defines START_TEST(NAME) { ... }; the test list (STANDALONE)
 * names func_NAME in winetest_testlist[]. */
#define START_TEST(name) void func_##name(void)

struct test {
	const char *name;
	void (*func)(void);
};

#ifdef STANDALONE
#include "wine_test_shim_impl.h"
#endif

#endif
