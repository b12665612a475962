/* SPDX-License-Identifier: MIT */
/* Shared test support: NP_TEST_MAIN(tests) is every test program's main.
 *
 * A test program built with it speaks two protocols:
 *   prog                 plain CMocka: runs every test (CMocka's own output)
 *   prog NAME            plain CMocka, only the test NAME
 *   prog -l              ATF: lists the tests, one Kyua case per CMocka test
 *   prog -rFILE NAME     ATF: runs NAME in a child, writes its result to FILE
 * Kyua's atf_test_program uses the last two (see the generated Kyuafile).
 *
 * The ATF result file holds one line: "passed", "skipped: why",
 * "failed: why" or "broken: why". Kyua checks it against our exit status
 * (passed/skipped need 0, failed needs exactly 1), so the parent exits so.
 * The child ends by returning from main (exit(), never _exit()), so gcov
 * and LeakSanitizer run in it. */
#ifndef NTPROF_NP_TEST_H
#define NTPROF_NP_TEST_H

/* fork/waitpid/dup2 are POSIX; the Makefile defines this on the command
 * line, this only helps when np_test.h is the first include. */
#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

/* Copies a captured stream back to where it belongs, keeping the first
 * line that starts with key1 (and key2) without that prefix: CMocka's
 * markers for a skip, or for where and why a test failed. */
static inline void np_atf_relay(FILE *from, FILE *to, const char *key1, char *found1,
				const char *key2, char *found2, size_t size)
{
	const char *keys[2] = { key1, key2 };
	char *found[2] = { found1, found2 };
	char line[512];

	rewind(from);
	while (fgets(line, sizeof line, from) != NULL) {
		fputs(line, to);
		for (int k = 0; k < 2; k++) {
			size_t n = keys[k] != NULL ? strlen(keys[k]) : 0;
			if (n > 0 && found[k][0] == '\0' && strncmp(line, keys[k], n) == 0) {
				snprintf(found[k], size, "%s", line + n);
				found[k][strcspn(found[k], "\r\n")] = '\0';
			}
		}
	}
	fflush(to);
}

/* Parent side of "-r FILE NAME": runs the child, judges it, writes FILE. */
static inline int np_atf_judge(pid_t child, FILE *out, FILE *err, const char *result_file)
{
	char ran[256] = "", skipped[256] = "", where[256] = "", what[256] = "", reason[800];
	int status, rc = 1;
	FILE *f;

	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("waitpid");
			return 2;
		}
	}
	np_atf_relay(out, stdout, "[ RUN      ] ", ran, "[  SKIPPED ] ", skipped, sizeof ran);
	np_atf_relay(err, stderr, "[   LINE   ] --- ", where, "[  ERROR   ] --- ", what, sizeof where);
	fclose(out);
	fclose(err);

	if (WIFSIGNALED(status)) {
		snprintf(reason, sizeof reason, "broken: killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (ran[0] == '\0') {
		snprintf(reason, sizeof reason, "broken: CMocka ran no test (exit status %d)",
			 WEXITSTATUS(status));
	} else if (WEXITSTATUS(status) == 0) {
		rc = 0;
		snprintf(reason, sizeof reason, "%s", skipped[0] ? "skipped: skip() called" : "passed");
	} else if (where[0] || what[0]) {
		snprintf(reason, sizeof reason, "failed: %s%s%s", where, where[0] && what[0] ? " -- " : "", what);
	} else {
		/* CMocka saw no failure, yet the process did not exit 0: a
		 * sanitizer or leak report (on stderr) is the usual cause. */
		snprintf(reason, sizeof reason, "failed: exit status %d without a CMocka failure "
			 "(sanitizer report on stderr?)", WEXITSTATUS(status));
	}
	f = fopen(result_file, "w");
	if (f == NULL || fprintf(f, "%s\n", reason) < 0 || fclose(f) != 0) {
		perror(result_file);
		return 2;
	}
	return rc;
}

/* Returns 1 when this process is done (*rc is its exit status), 0 when the
 * caller must run cmocka_run_group_tests: plain mode, or the ATF child with
 * the filter set. */
static inline int np_atf_dispatch(int argc, char **argv, const struct CMUnitTest *tests,
				  size_t count, int *rc)
{
	const char *result_file = NULL, *name = NULL;
	size_t name_len = 0;
	FILE *out, *err;
	size_t i;
	pid_t child;

	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a];
		if (strcmp(arg, "-l") == 0) {
			printf("Content-Type: application/X-atf-tp; version=\"1\"\n");
			for (i = 0; i < count; i++)
				printf("\nident: %s\n", tests[i].name);
			*rc = fflush(stdout) == 0 ? 0 : 1;
			return 1;
		} else if (arg[0] == '-' && arg[1] != '\0' && strchr("rsv", arg[1]) != NULL) {
			const char *value = arg[2] ? arg + 2 : (a + 1 < argc ? argv[++a] : NULL);
			if (value == NULL) {
				fprintf(stderr, "%s: %s needs a value\n", argv[0], arg);
				*rc = 2;
				return 1;
			}
			if (arg[1] == 'r')
				result_file = value; /* -s srcdir and -v var=value: not needed */
		} else if (arg[0] == '-' || name != NULL) {
			fprintf(stderr, "usage: %s [-l | [-r result_file] test_name]\n", argv[0]);
			*rc = 2;
			return 1;
		} else {
			/* ATF may append ":body"; our cases have no cleanup part. */
			name = arg;
			name_len = strcspn(arg, ":");
		}
	}
	if (name == NULL)
		return 0;
	for (i = 0; i < count; i++)
		if (strncmp(tests[i].name, name, name_len) == 0 && tests[i].name[name_len] == '\0')
			break;
	if (i == count) {
		fprintf(stderr, "%s: no test named '%.*s'\n", argv[0], (int)name_len, name);
		*rc = 2;
		return 1;
	}
	/* CMocka keeps the pointer, so pass one that lives as long as main.
	 * The filter is a glob; names are [a-z0-9_], so it selects exactly one. */
	cmocka_set_test_filter(tests[i].name);
	if (result_file == NULL)
		return 0;

	/* The child's streams go to files so the parent can read CMocka's
	 * verdict, then hand them on unchanged for Kyua to store. */
	out = tmpfile();
	err = tmpfile();
	if (out == NULL || err == NULL) {
		perror("tmpfile");
		*rc = 2;
		return 1;
	}
	fflush(NULL);
	child = fork();
	if (child == 0) {
		unsetenv("CMOCKA_MESSAGE_OUTPUT"); /* the markers above are CMocka's default format */
		cmocka_set_message_output(CM_OUTPUT_STDOUT);
		if (dup2(fileno(out), STDOUT_FILENO) < 0 || dup2(fileno(err), STDERR_FILENO) < 0)
			exit(2);
		setvbuf(stdout, NULL, _IOLBF, 0); /* keep what was printed if the test dies */
		return 0;
	}
	if (child < 0) {
		perror("fork");
		*rc = 2;
		return 1;
	}
	*rc = np_atf_judge(child, out, err, result_file);
	return 1;
}

/* Makes a fresh directory $TMPDIR/ntprof-NAME.XXXXXX (TMPDIR defaults to
 * /tmp; Kyua sets it per test) in dir; false when it cannot. */
static inline bool np_test_tmpdir(char *dir, size_t cap, const char *name)
{
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	int n = snprintf(dir, cap, "%s/ntprof-%s.XXXXXX", base, name);
	return n > 0 && (size_t)n < cap && mkdtemp(dir) != NULL;
}

/* The step timeout, in milliseconds, of a test whose step hangs on purpose
 * and so waits all of it: tenths of a second. Under valgrind (its preload
 * in LD_PRELOAD) a child translates its code anew, and open() alone takes
 * more than that on a loaded machine: two seconds there. */
static inline unsigned np_test_hang_ms(void)
{
	const char *preload = getenv("LD_PRELOAD");
	return preload && strstr(preload, "vgpreload") ? 2000u : 300u;
}

#define NP_TEST_MAIN(tests)                                                           \
	int main(int argc, char **argv)                                               \
	{                                                                             \
		int np_rc_;                                                           \
		if (np_atf_dispatch(argc, argv, (tests), sizeof(tests) / sizeof((tests)[0]), \
				    &np_rc_))                                         \
			return np_rc_;                                                \
		return cmocka_run_group_tests(tests, NULL, NULL);                     \
	}

#endif
