#!/bin/bash
# coverage.sh ROOT COV_BUILD_DIR HTML_DIR
# Runs the Kyua suite of a --coverage build tree, then reports line and branch
# coverage of model/ only (lcov 1.16: branches need lcov_branch_coverage=1;
# the lcov-2 spelling is silently ignored). Exits non-zero if a test failed,
# after the report is written.
set -uo pipefail

root=$1 cov=$2 html=$3
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

# Counts from an earlier run would add up.
find "$cov" -name '*.gcda' -delete
# Zero baseline, so files no test reaches still show, at 0%.
quiet lcov -q --capture --initial --directory "$cov" --base-directory "$root" \
	-o "$cov/base.info" "${lcov_rc[@]}" || exit 1

rm -f "$cov/suites.tally"
"$here/kyua-suite.sh" coverage "$cov" "$cov/suites.tally"
tests_rc=$?
"$here/kyua-suite.sh" --total "$cov/suites.tally" >/dev/null || tests_rc=1

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
exit "$tests_rc"
