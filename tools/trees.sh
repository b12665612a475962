#!/bin/sh
# SPDX-License-Identifier: MIT
# trees.sh LIST SUITE
#     Prints the tests that SUITE leaves out, one a line, as paths under
#     conformance/ (cli/test_x.sh, harness/test_x), from LIST
#     (conformance/trees.txt), for the Makefile's Kyuafiles. SUITE is plain,
#     test, asan or cov (the suites of conformance/trees.txt).
#     Exits 2, naming LIST:LINE, when a line is not "TEST SUITES WHY", names
#     an unknown suite, a test twice, or a test that has no source beside
#     LIST (cli/test_x.sh, or harness/test_x.c for a CMocka program): a
#     renamed test must not slip into or out of a suite unnoticed.
set -u

[ $# -eq 2 ] || { echo "usage: trees.sh LIST plain|test|asan|cov" >&2; exit 2; }
list=$1 suite=$2
case $suite in
plain | test | asan | cov) ;;
*) echo "trees.sh: unknown suite '$suite' (plain, test, asan or cov)" >&2; exit 2 ;;
esac
[ -r "$list" ] || { echo "trees.sh: $list: cannot be read" >&2; exit 2; }
dir=$(dirname "$list")

awk -v list="$list" -v dir="$dir" -v suite="$suite" '
function bad(why) { printf "%s:%d: %s\n", list, FNR, why > "/dev/stderr"; failed = 1 }
/^[ \t]*(#|$)/ { next }
NF < 3 { bad("want TEST SUITES WHY, not \"" $0 "\""); next }
{
	test = $1
	src = test ~ /\.sh$/ ? test : test ".c"
	if (system("test -f \"" dir "/" src "\"") != 0) bad(test ": no " dir "/" src)
	if (test in seen) bad(test ": listed twice (line " seen[test] ")")
	seen[test] = FNR
	n = split($2, s, ",")
	here = 0
	for (i = 1; i <= n; i++) {
		if (s[i] !~ /^(plain|test|asan|cov)$/) bad(test ": unknown suite \"" s[i] "\"")
		if (s[i] == suite) here = 1
	}
	if (!here) out[++count] = test
}
END {
	if (failed) exit 2
	for (i = 1; i <= count; i++) print out[i]
}' "$list"
