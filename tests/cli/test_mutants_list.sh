#!/bin/sh
# SPDX-License-Identifier: MIT
# The equivalence list of `make mutants` (tests/data/mutants-equivalent.txt)
# against the mutants tools/mutants-gen.awk makes of model/ as it is now: an
# edit that moves or changes a listed mutant fails make check at once, not at
# the next hour-long `make mutants` (issue 7). Nothing is built: this is
# tools/mutants.sh with MUTANTS_CHECK_ONLY=1. It is also shown to fail, on
# copies of the list with an entry moved, an entry's mutation changed, and an
# entry naming no file.
#
# Environment: NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
list=$root/tests/data/mutants-equivalent.txt

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-mutlist.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

n=0 failed=0
# check DESCRIPTION RC EQUIVALENCE-FILE [LINE]: exit status RC, and LINE (a
# fixed string) in what it printed.
check() {
	n=$((n + 1))
	MUTANTS_CHECK_ONLY=1 MUTANTS_EQUIVALENT=$3 "$root/tools/mutants.sh" "$root" "$tmp/build" \
		"$tmp/out" >"$tmp/said" 2>&1
	rc=$?
	why=
	[ "$rc" -eq "$2" ] || why="want exit status $2, got $rc"
	[ $# -lt 4 ] || grep -q -F -e "$4" "$tmp/said" || why="$why; want: $4"
	if [ -z "$why" ]; then
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1: $why"
		sed 's/^/# /' "$tmp/said"
	fi
}

echo "1..5"
check "every entry of mutants-equivalent.txt names a mutant of model/ with its mutation" 0 "$list" \
	" 0 stale"
[ -s "$list" ] && grep -q -v '^#' "$list" || { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - no entries"; }

# the first entry moved one line down
awk -F ' [|] ' 'BEGIN { OFS = " | " } !/^#/ && !done { split($1, a, /[:.]/); $1 = a[1] ":" a[2] + 1 "." a[3]; done = 1 } 1' \
	"$list" >"$tmp/moved"
check "an entry moved off its line is stale" 1 "$tmp/moved" "no such mutant (the line moved?)"

# the first entry with the mutation of another
awk -F ' [|] ' 'BEGIN { OFS = " | " } !/^#/ && !done { $2 = $2 " twice"; done = 1 } 1' "$list" >"$tmp/changed"
check "an entry whose mutation is not its ID's is stale" 1 "$tmp/changed" "the mutant is now"

printf 'nosuchfile:1.1 | x | y\n' >"$tmp/nofile"
check "an entry naming no model file is stale" 1 "$tmp/nofile" "nosuchfile:1.1: no such mutant"

n=$((n + 1))
if [ ! -e "$tmp/out" ] && [ ! -e "$tmp/build" ]; then
	echo "ok $n - nothing built or written"
else
	failed=$((failed + 1))
	echo "not ok $n - the check wrote $tmp/out or $tmp/build"
fi
[ "$failed" -eq 0 ]
