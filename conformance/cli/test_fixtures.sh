#!/bin/sh
# SPDX-License-Identifier: MIT
# Every vector under fixtures/ must match the model on every version and
# architecture it applies to (SPEC.md rules cited by the vectors themselves),
# in every report format, none only through an accept line; and the run fails
# when the model drifts from its vectors. Run by Kyua as a plain test program.
set -u
here=$(dirname "$0")
bin=${NTPROF_BIN:-$here/../../ntprof}
root=${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
status=0
# every format of the table (ntprof/report_formats.h), as run --help lists them
formats=$("$bin" run --help | sed -n 's/^  \([a-z][a-z0-9]*\): .*/\1/p')
for want in text tap junit json; do
	case " $(echo $formats) " in
	*" $want "*) ;;
	*) echo "run --help lists the formats \"$(echo $formats)\", without $want"; status=1 ;;
	esac
done
for fmt in $formats; do
	"$bin" run --root "$root" --format "$fmt" --output "$out/report.$fmt"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "ntprof run --format $fmt exited $rc"
		status=1
	fi
done
cat "$out/report.text"
# The summary must count matches and nothing else that ran: on the model, the
# reference, a row that matches only an accept line is a drift, not a pass.
grep -Eq '^summary: [1-9][0-9]* match, 0 match-alternative, 0 known, 0 status-mismatch, 0 output-mismatch, 0 not-exported, 0 stub, 0 crashed' "$out/report.text" || {
	echo "unexpected summary"; status=1; }
grep -q '^1\.\.[1-9]' "$out/report.tap" || { echo "TAP report has no plan"; status=1; }
grep -q '^not ok' "$out/report.tap" && { echo "TAP report has failures"; status=1; }
grep -q 'failures="0"' "$out/report.junit" || { echo "JUnit report has failures"; status=1; }
grep -q '"status-mismatch":0,"output-mismatch":0' "$out/report.json" || { echo "JSON summary has mismatches"; status=1; }

# The fail twin: the vectors on a model whose default order of the source
# check and the handle probe is swapped (K-ORDER-PROBE=before-source, not the
# default after-source). A scratch copy of fixtures/ gives every vector that
# does not set the knob itself `given K-ORDER-PROBE=before-source`: each then
# runs on a machine with the other default. The rows the swap changes match
# only their accept lines (flag=unknown:K-ORDER-PROBE), none fails outright,
# and the run must fail all the same, saying that the model drifted.
mkdir "$out/drift"
cp -R "$root/fixtures" "$out/drift/fixtures" && cp "$root/SPEC.md" "$out/drift/" || exit 1
find "$out/drift/fixtures" -name '*.vec' | while read -r f; do
	awk -v knob=K-ORDER-PROBE -v value=before-source '
		function flush(i, added) {
			for (i = 1; i <= n; i++) {
				if (!sets && !added && lines[i] ~ /^[ \t]*call[ \t]/) {
					print "  given   " knob "=" value
					added = 1
				}
				print lines[i]
			}
			n = 0
			sets = 0
		}
		/^vector[ \t]/ { flush() }
		{ lines[++n] = $0; if ($0 ~ ("^[ \t]*given[ \t].*" knob "=")) sets = 1 }
		END { flush() }' "$f" >"$f.swapped" && mv "$f.swapped" "$f" || exit 1
done || exit 1
"$bin" run --root "$out/drift" --output "$out/drift.text" 2>"$out/drift.err"
rc=$?
summary=$(grep '^summary:' "$out/drift.text")
if [ "$rc" -ne 1 ]; then
	echo "the vectors on a model with K-ORDER-PROBE swapped: want exit 1 (drift), got $rc: $summary"
	cat "$out/drift.err"
	status=1
elif ! echo "$summary" | grep -Eq ' [1-9][0-9]* match-alternative, 0 known, 0 status-mismatch, 0 output-mismatch, 0 not-exported, 0 stub, 0 crashed'; then
	echo "the vectors on a model with K-ORDER-PROBE swapped: want only match-alternative rows to tell, got $summary"
	status=1
elif ! grep -q 'the model drifted from its vectors' "$out/drift.err"; then
	echo "the vectors on a model with K-ORDER-PROBE swapped: want stderr to say the model drifted"
	cat "$out/drift.err"
	status=1
else
	echo "the vectors on a model with K-ORDER-PROBE swapped fail the run: $summary"
fi
exit $status
