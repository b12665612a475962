#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh ROOT: the suites of `make check`, once its trees are built.
#
# Four legs: the plain tree's Kyua suite (which runs the Windows exe under
# Wine and the golden outputs), the sanitizer tree's suite (which replays
# the fuzzers' corpora), the coverage tree's suite with its gate
# (tools/coverage.sh) and the plain tree under valgrind (tools/valgrind.sh,
# its representative set; `make valgrind` runs every program). Which tests
# each suite runs is conformance/trees.txt's to say.
# They run in two lanes at once, each lane one leg after another, and each
# suite two or three cases at a time (below), so that a machine of two
# cores stays busy to the end, when one leg is left.
# Each leg writes its output to build/check/LEG.log and its summary lines
# to build/check/LEG.tally; each log is printed whole, once its leg has
# ended, in the fixed order below, whatever order they end in. Then the
# tallies, in the same order, are summed: the last line of stdout is
# "N passed, N failed". Exits 1 when any leg failed (each runs even if
# another fails), 2 for bad arguments.
set -u

[ $# -eq 1 ] || { echo "usage: check.sh ROOT" >&2; exit 2; }
root=$1
here=$(cd "$(dirname "$0")" && pwd)
logs=$root/build/check
order="plain asan coverage valgrind"
rm -rf "$logs"
mkdir -p "$logs" || exit 2
# Kyua's flags: KYUA_FLAGS when given, for every leg; else two cases at a
# time, and three in the plain leg: its Wine scripts wait on the prefix's
# lock (tools/wine.sh runs one exe at a time), and a third case uses the
# processor meanwhile.
flags() { echo "${KYUA_FLAGS:--v parallelism=$1}"; }

# leg NAME COMMAND...: runs COMMAND with its output in NAME.log; NAME.rc,
# written last, holds its exit status and says that it has ended. The last
# line of the log gives the leg's wall time and its CPU time (user + system
# of the processes it waited for, from the shell's `times`): on a loaded
# machine the CPU time is the figure to compare.
leg() {
	name=$1
	shift
	start=$(date +%s)
	("$@" >"$logs/$name.log" 2>&1; status=$?; times >"$logs/$name.times"; exit $status)
	status=$?
	cpu=$(awk 'function s(t) { split(t, p, "m"); return p[1] * 60 + p[2] }
		NR == 2 { printf "%.0f", s($1) + s($2) }' "$logs/$name.times")
	echo "===> $name: exit $status after $(($(date +%s) - start)) s, CPU ${cpu:-?} s" >>"$logs/$name.log"
	echo "$status" >"$logs/$name.rc.tmp"
	mv "$logs/$name.rc.tmp" "$logs/$name.rc"
}

# Two lanes, each taking the next leg not yet taken, longest first (CPU
# seconds of a fresh clone: plain 351, ASan about 300, valgrind's
# representative set under 100, coverage 18), so that neither lane idles
# while two legs are left; mkdir claims a leg atomically.
claim_order="plain asan valgrind coverage"
run_leg() {
	case $1 in
	plain) KYUA_FLAGS=$(flags 3) leg plain "$here/kyua-suite.sh" plain "$root/build" "$logs/plain.tally" ;;
	asan) KYUA_FLAGS=$(flags 2) leg asan "$here/kyua-suite.sh" asan "$root/build/asan" "$logs/asan.tally" ;;
	valgrind) VALGRIND_SET=check leg valgrind "$here/valgrind.sh" "$root" "$root/build" "$logs/valgrind.tally" ;;
	coverage) KYUA_FLAGS=$(flags 2) leg coverage "$here/coverage.sh" --tally "$logs/coverage.tally" "$root" "$root/build/cov" \
		"$root/build/coverage" ;;
	esac
}
lane() {
	for name in $claim_order; do
		if mkdir "$logs/$name.claimed" 2>/dev/null; then
			run_leg "$name"
		fi
	done
}
lane &
lane1=$!
lane &
lane2=$!
trap 'kill "$lane1" "$lane2" 2>/dev/null; exit 130' INT TERM

rc=0
for name in $order; do
	while [ ! -e "$logs/$name.rc" ]; do
		sleep 1
	done
	cat "$logs/$name.log"
	if [ "$(cat "$logs/$name.rc")" -ne 0 ]; then
		rc=1
	fi
	# A leg that could not even write its line counts as one failure.
	[ -s "$logs/$name.tally" ] ||
		printf '0 1 %s: wrote no summary (exit %s)\n' "$name" "$(cat "$logs/$name.rc")" \
			>"$logs/$name.tally"
done
wait
trap - INT TERM

tally=$root/build/suites.tally
for name in $order; do
	cat "$logs/$name.tally"
done >"$tally"
"$here/kyua-suite.sh" --total "$tally" || rc=1
exit "$rc"
