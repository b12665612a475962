#!/bin/sh
# Every vector under fixtures/ must match the model on every version and
# architecture it applies to (SPEC.md rules cited by the vectors themselves),
# in every report format. Run by Kyua as a plain test program.
set -u
here=$(dirname "$0")
bin=${NTPROF_BIN:-$here/../../ntprof}
root=${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
status=0
for fmt in text tap junit json; do
	"$bin" run --root "$root" --format "$fmt" --output "$out/report.$fmt"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "ntprof run --format $fmt exited $rc"
		status=1
	fi
done
cat "$out/report.text"
# The summary must count matches and nothing that fails.
grep -Eq '^summary: [1-9][0-9]* match, [0-9]+ match-alternative, 0 known, 0 status-mismatch, 0 output-mismatch, 0 not-exported, 0 stub, 0 crashed' "$out/report.text" || {
	echo "unexpected summary"; status=1; }
grep -q '^1\.\.[1-9]' "$out/report.tap" || { echo "TAP report has no plan"; status=1; }
grep -q '^not ok' "$out/report.tap" && { echo "TAP report has failures"; status=1; }
grep -q 'failures="0"' "$out/report.junit" || { echo "JUnit report has failures"; status=1; }
grep -q '"status-mismatch":0,"output-mismatch":0' "$out/report.json" || { echo "JSON summary has mismatches"; status=1; }
exit $status
