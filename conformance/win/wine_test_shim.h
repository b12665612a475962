/* SPDX-License-Identifier: MIT */
/* A stand-in for the test interface of Wine's conformance tests, so that a
 * file `ntprof export --format wine` wrote builds and runs here (mingw-w64,
 * under Wine or on Windows) without a Wine source tree. Written from the
 * interface's public description, not from Wine's header:
 * http://www.winehq.org/docs/winedev-guide/testing-platforms and
 * https://wiki.winehq.org/ConformanceTests. What it keeps of the semantics:
 *
 *   - ok(COND, FMT, ...): a check; a false COND is a failure;
 *   - broken(X): X on Windows, false on Wine, so that an outcome only an
 *     older Windows shows is accepted there and never on Wine;
 *   - todo_wine / todo_wine_if(C): on Wine the checks inside are expected
 *     to fail: a failing one is counted as todo, a passing one is an error
 *     (whatever was wrong has been fixed, and the todo must go);
 *   - skip(FMT, ...): what cannot be tested here, counted apart;
 *   - win_skip(FMT, ...): a skip on Windows (an older version lacks
 *     something), a failure on Wine, which must not lack it (unless inside
 *     todo_wine, where it is the todo);
 *   - trace(FMT, ...): a line of information;
 *   - START_TEST(NAME) { ... }: the test's body, run by the main this
 *     header provides, which prints a summary line and exits with the
 *     number of failures (at most 255).
 *
 * Whether it runs on Wine is decided at run time: ntdll exports
 * wine_get_version on Wine only. WINETEST_PLATFORM=windows or =wine
 * overrides that (to see what a test does on the other side). */
#ifndef NTPROF_WINE_TEST_SHIM_H
#define NTPROF_WINE_TEST_SHIM_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static int winetest_platform_wine = -1;   /* -1: not decided yet */
static unsigned winetest_successes, winetest_failures, winetest_todos, winetest_skips;
static unsigned winetest_todo_depth;      /* nested todo blocks that apply here */
static const char *winetest_name = "test";

static inline int winetest_on_wine(void)
{
	if (winetest_platform_wine < 0) {
		const char *forced = getenv("WINETEST_PLATFORM");
		HMODULE ntdll = GetModuleHandleA("ntdll.dll");
		if (forced && forced[0])
			winetest_platform_wine = strcmp(forced, "wine") == 0;
		else
			winetest_platform_wine = ntdll && GetProcAddress(ntdll, "wine_get_version") != NULL;
	}
	return winetest_platform_wine;
}

static inline void winetest_vprint(const char *file, int line, const char *what, const char *fmt, va_list ap)
{
	printf("%s:%d: %s", file, line, what);
	vprintf(fmt, ap);
	fflush(stdout);
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline void winetest_ok_at(const char *file, int line, int condition, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (winetest_todo_depth) {
		if (condition) {
			winetest_vprint(file, line, "Test succeeded inside todo block: ", fmt, ap);
			winetest_failures++;
		} else {
			winetest_vprint(file, line, "Test marked todo: ", fmt, ap);
			winetest_todos++;
		}
	} else if (condition) {
		winetest_successes++;
	} else {
		winetest_vprint(file, line, "Test failed: ", fmt, ap);
		winetest_failures++;
	}
	va_end(ap);
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline void winetest_skip_at(const char *file, int line, int on_windows_only, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (on_windows_only && winetest_on_wine()) {
		/* a win_skip on Wine: a failure, or the todo inside todo_wine */
		if (winetest_todo_depth) {
			winetest_vprint(file, line, "Test marked todo: ", fmt, ap);
			winetest_todos++;
		} else {
			winetest_vprint(file, line, "Test failed: ", fmt, ap);
			winetest_failures++;
		}
	} else {
		winetest_vprint(file, line, "Tests skipped: ", fmt, ap);
		winetest_skips++;
	}
	va_end(ap);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline void winetest_trace_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	winetest_vprint(file, line, "", fmt, ap);
	va_end(ap);
}

static inline int winetest_broken(int condition)
{
	return !winetest_on_wine() && condition;
}

/* A todo block: entered once; counts only where it applies. */
static inline int winetest_todo_enter(int applies)
{
	if (applies)
		winetest_todo_depth++;
	return applies;
}

static inline int winetest_todo_leave(int applies)
{
	if (applies)
		winetest_todo_depth--;
	return 0;
}

#define ok(condition, ...) winetest_ok_at(__FILE__, __LINE__, (condition) ? 1 : 0, __VA_ARGS__)
#define broken(condition) winetest_broken((condition) ? 1 : 0)
#define skip(...) winetest_skip_at(__FILE__, __LINE__, 0, __VA_ARGS__)
#define win_skip(...) winetest_skip_at(__FILE__, __LINE__, 1, __VA_ARGS__)
#define trace(...) winetest_trace_at(__FILE__, __LINE__, __VA_ARGS__)
#define todo_if(condition)                                                                  \
	for (int winetest_todo_once = 1, winetest_todo_on = winetest_todo_enter((condition) ? 1 : 0); \
	     winetest_todo_once; winetest_todo_once = winetest_todo_leave(winetest_todo_on))
#define todo_wine todo_if(winetest_on_wine())
#define todo_wine_if(condition) todo_if((condition) && winetest_on_wine())

static inline int winetest_summary(void)
{
	printf("%s: %u tests executed (%u marked as todo, %u %s), %u skipped.\n", winetest_name,
	       winetest_successes + winetest_failures + winetest_todos, winetest_todos, winetest_failures,
	       winetest_failures == 1 ? "failure" : "failures", winetest_skips);
	fflush(stdout);
	return winetest_failures > 255 ? 255 : (int)winetest_failures;
}

#define START_TEST(name)                                                \
	static void func_##name(void);                                  \
	int main(void)                                                  \
	{                                                               \
		winetest_name = #name;                                  \
		printf("%s: running on %s\n", winetest_name,            \
		       winetest_on_wine() ? "Wine" : "Windows");        \
		func_##name();                                          \
		return winetest_summary();                              \
	}                                                               \
	static void func_##name(void)

#endif
