#!/bin/bash
# SPDX-License-Identifier: MIT
# coverage.sh [--tally FILE] ROOT COV_BUILD_DIR HTML_DIR
# Runs the Kyua suite of a --coverage build tree, then reports line and branch
# coverage of model/ only (lcov 1.16: branches need lcov_branch_coverage=1;
# the lcov-2 spelling is silently ignored), and gates them: line coverage must
# be at least COVERAGE_MIN_LINES percent (default 100), branch coverage at
# least COVERAGE_MIN_BRANCHES (default 95). A failed gate names every
# uncovered line (or untaken branch) as file:line; a tracefile with nothing
# to measure (no lines, or no branches) fails it. Exits non-zero if a test
# failed or the gate did, after the HTML report is written.
# --tally FILE: appends the suite's line and the gate's line to FILE, as
# tools/kyua-suite.sh does, so that make check sums them with its other suites.
set -uo pipefail

tally=
if [ "${1:-}" = --tally ]; then
	tally=$2
	shift 2
fi
root=$1 cov=$2 html=$3
min_lines=${COVERAGE_MIN_LINES:-100}
min_branches=${COVERAGE_MIN_BRANCHES:-95}
here=$(dirname "$0")
lcov_rc=(--rc lcov_branch_coverage=1)

# lcov 1.16 on perl 5.36 prints "Subroutine ... redefined" warnings on every
# run; they are harmless and would bury real errors.
quiet() {
	local err rc
	err=$(mktemp)
	"$@" 2>"$err"
	rc=$?
	grep -v '^Subroutine .* redefined at ' "$err" >&2
	rm -f "$err"
	return $rc
}

# The notes of a source since deleted (a build tree older than the deletion)
# would show as lines no test runs: only objects whose source exists count.
find "$cov" -name '*.gcno' | while read -r note; do
	rel=${note#"$cov"/}
	rel=${rel#pic/}    # the position-independent copies of the dl: objects
	[ -f "$root/${rel%.gcno}.c" ] || rm -f "$note" "${note%.gcno}.gcda" "${note%.gcno}.o"
done
# Counts from an earlier run would add up.
find "$cov" -name '*.gcda' -delete
# Zero baseline, so files no test reaches still show, at 0%.
quiet lcov -q --capture --initial --directory "$cov" --base-directory "$root" \
	-o "$cov/base.info" "${lcov_rc[@]}" || exit 1

rm -f "$cov/suites.tally"
"$here/kyua-suite.sh" coverage "$cov" "$cov/suites.tally"
tests_rc=$?
"$here/kyua-suite.sh" --total "$cov/suites.tally" >/dev/null || tests_rc=1
[ -n "$tally" ] && cat "$cov/suites.tally" >>"$tally"

# Counts whose notes the loop above removed (an object of no source of its
# own, such as the examples' dl: objects, built from examples/impl_minimal.c
# in one step, whose notes are named after the .so) have nothing to be
# read against: lcov would stop at them.
find "$cov" -name '*.gcda' | while read -r counts; do
	[ -f "${counts%.gcda}.gcno" ] || rm -f "$counts"
done
quiet lcov -q --capture --directory "$cov" --base-directory "$root" \
	-o "$cov/test.info" "${lcov_rc[@]}" || exit 1
quiet lcov -q -a "$cov/base.info" -a "$cov/test.info" -o "$cov/total.info" "${lcov_rc[@]}" || exit 1
quiet lcov -q --extract "$cov/total.info" "$root/model/*" -o "$cov/model.info" "${lcov_rc[@]}" || exit 1

rm -rf "$html"
quiet genhtml -q "$cov/model.info" --branch-coverage --function-coverage --legend \
	--title "ntprof model" --prefix "$root" -o "$html" "${lcov_rc[@]}" || exit 1

echo "===> coverage of model/ ($html/index.html)"
quiet lcov --summary "$cov/model.info" "${lcov_rc[@]}" || exit 1
if [ "$tests_rc" -ne 0 ]; then
	echo "coverage: some tests failed; the numbers above are from a failing run" >&2
fi

# The gate, from the tracefile itself (DA:line,count and
# BRDA:line,block,branch,taken, where taken is "-" when the block never ran).
# Lines marked LCOV_EXCL_* are already left out by lcov.
awk -f "$here/coverage-gate.awk" -v root="$root/" -v min_lines="$min_lines" \
	-v min_branches="$min_branches" "$cov/model.info" >"$cov/gate.out"
gate_rc=$?
cat "$cov/gate.out"
# one result in the tally: passed 1 and failed 0, or the other way round
[ -n "$tally" ] && printf '%d %d coverage gate: %s\n' $((gate_rc == 0)) $((gate_rc != 0)) \
	"$(head -n 1 "$cov/gate.out")" >>"$tally"
[ "$gate_rc" -eq 0 ] || exit 1
exit "$tests_rc"
