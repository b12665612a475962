/* SPDX-License-Identifier: MIT */
/* The bodies of wine_test_shim.h, compiled once: in the test list
 * (testlist.c, which defines STANDALONE before including the header), never
 * in a test file, so that the compiler sees a test's checks as calls it
 * cannot look into. Also main(): the test named on the command line, or
 * the only one, run; the summary printed; the failures as exit status. */
#ifndef NTPROF_WINE_TEST_SHIM_IMPL_H
#define NTPROF_WINE_TEST_SHIM_IMPL_H

extern const struct test winetest_testlist[];

const char *winetest_platform = "windows";
int winetest_platform_is_wine;
int winetest_debug = 1;
int winetest_mute_threshold = 42;

static const char *winetest_file = "?";
static int winetest_line;
static unsigned winetest_todo_bits;   /* one bit per todo block entered: set where it applies */
static int winetest_todo_pending;
static LONG winetest_passed, winetest_failed, winetest_todo_failed, winetest_todos, winetest_skips;
static LONG winetest_muted_todos, winetest_muted_skips, winetest_muted_traces;
static LONG winetest_line_counts[16384];   /* messages printed, by line number */

void winetest_at(const char *file, int line)
{
	const char *slash = strrchr(file, '/'), *back = strrchr(file, '\\');
	if (back > slash)
		slash = back;
	winetest_file = slash ? slash + 1 : file;
	winetest_line = line;
}

/* Whether the current line may print one more message (and counts it). */
static int winetest_line_speaks(void)
{
	LONG n;
	if (winetest_debug > 1)
		return 1;
	n = winetest_line_counts[winetest_line % 16384]++;
	if (n == winetest_mute_threshold)
		printf("%s:%d: Line has been silenced after %d occurrences\n", winetest_file, winetest_line,
		       winetest_mute_threshold);
	return n < winetest_mute_threshold;
}

static void winetest_say(const char *what, const char *fmt, va_list ap)
{
	printf("%s:%d: %s", winetest_file, winetest_line, what);
	vprintf(fmt, ap);
}

static void winetest_check(int condition, const char *fmt, va_list ap)
{
	if (winetest_todo_bits && condition) {
		winetest_say("Test succeeded inside todo block: ", fmt, ap);
		winetest_todo_failed++;
	} else if (winetest_todo_bits) {
		if (winetest_debug && !winetest_line_speaks()) {
			winetest_muted_todos++;
			return;
		}
		if (winetest_debug > 0)
			winetest_say("Test marked todo: ", fmt, ap);
		winetest_todos++;
	} else if (condition) {
		winetest_passed++;
	} else {
		winetest_say("Test failed: ", fmt, ap);
		winetest_failed++;
	}
}

void winetest_ok(int condition, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	winetest_check(condition, fmt, ap);
	va_end(ap);
}

static void winetest_skipped(const char *fmt, va_list ap)
{
	if (!winetest_line_speaks()) {
		winetest_muted_skips++;
		return;
	}
	winetest_say("Tests skipped: ", fmt, ap);
	winetest_skips++;
}

void winetest_skip(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	winetest_skipped(fmt, ap);
	va_end(ap);
}

void winetest_win_skip(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (winetest_platform_is_wine)
		winetest_check(0, fmt, ap);   /* Wine must not lack what Windows has */
	else
		winetest_skipped(fmt, ap);
	va_end(ap);
}

void winetest_trace(const char *fmt, ...)
{
	va_list ap;
	if (!winetest_debug)
		return;
	if (!winetest_line_speaks()) {
		winetest_muted_traces++;
		return;
	}
	va_start(ap, fmt);
	winetest_say("", fmt, ap);
	va_end(ap);
}

int broken(int condition)
{
	return !winetest_platform_is_wine && condition;
}

void winetest_todo_push(int applies)
{
	winetest_todo_bits = winetest_todo_bits << 1 | (applies != 0);
	winetest_todo_pending = 1;
}

int winetest_todo_first(void)
{
	int first = winetest_todo_pending;
	winetest_todo_pending = 0;
	return first;
}

void winetest_todo_pop(void)
{
	winetest_todo_bits >>= 1;
}

/* The platform: WINETEST_PLATFORM, else Wine's own ntdll export. */
static void winetest_find_platform(void)
{
	static char named[64];
	DWORD n = GetEnvironmentVariableA("WINETEST_PLATFORM", named, sizeof named);
	if (n > 0 && n < sizeof named)
		winetest_platform = named;
#ifndef WINETEST_AS_REACTOS
	else if (GetProcAddress(GetModuleHandleA("ntdll.dll"), "wine_server_call"))
		winetest_platform = "wine";
#endif
	winetest_platform_is_wine = strcmp(winetest_platform, "wine") == 0;
}

static int winetest_env_int(const char *name, int otherwise)
{
	char text[32];
	DWORD n = GetEnvironmentVariableA(name, text, sizeof text);
	return n > 0 && n < sizeof text ? atoi(text) : otherwise;
}

static int winetest_summary(const char *name)
{
	LONG failures = winetest_failed + winetest_todo_failed;
	unsigned pid = (unsigned)GetCurrentProcessId();
	if (winetest_muted_todos || winetest_muted_skips || winetest_muted_traces)
		printf("%04x:%s: Silenced %ld todos, %ld skips and %ld traces.\n", pid, name,
		       (long)winetest_muted_todos, (long)winetest_muted_skips, (long)winetest_muted_traces);
	printf("%04x:%s: %ld tests executed (%ld marked as todo, %ld %s), %ld skipped.\n", pid, name,
	       (long)(winetest_passed + winetest_failed + winetest_todo_failed + winetest_todos),
	       (long)winetest_todos, (long)failures, failures == 1 ? "failure" : "failures",
	       (long)winetest_skips);
	fflush(stdout);
	return failures > 255 ? 255 : (int)failures;
}

int main(int argc, char **argv)
{
	const struct test *t = winetest_testlist;
	setvbuf(stdout, NULL, _IONBF, 0);
	winetest_find_platform();
	winetest_debug = winetest_env_int("WINETEST_DEBUG", winetest_debug);
	winetest_mute_threshold = winetest_env_int("WINETEST_MUTE_THRESHOLD", winetest_mute_threshold);
	if (argc > 1 && strcmp(argv[1], "--list") == 0) {
		for (; t->name; t++)
			printf("    %s\n", t->name);
		return 0;
	}
	while (t->name && argc > 1 && strcmp(t->name, argv[1]) != 0)
		t++;
	if (!t->name || (argc < 2 && t[1].name)) {
		printf("Fatal: name one test of: %s ...\n", winetest_testlist[0].name);
		return 1;
	}
	t->func();
	return winetest_summary(t->name);
}

#endif
