#!/bin/bash
# SPDX-License-Identifier: MIT
# kyua-suite.sh LABEL BUILD_DIR TALLY [KYUAFILE]
#     Runs the Kyua suite of one build tree: BUILD_DIR/conformance/KYUAFILE
#     (default Kyuafile, the whole suite; Kyuafile.test is `make test`'s
#     part), results in BUILD_DIR/results-LABEL.db, so that two suites of one
#     tree can run at once; appends one summary line to TALLY.
#     On failure, prints Kyua's details of the failed and broken cases.
# kyua-suite.sh --total TALLY
#     Prints the summary lines, then "N passed, N failed" over all suites.
#
# Counts come from the "Test cases:" line of `kyua report`:
#   passed = total - failed - broken  (skipped and expected failures count as
#   passed, as in Kyua's own "N/M passed"), failed = failed + broken.
set -u

if [ "$1" = --total ]; then
	echo "===> Summary"
	awk '{ p += $1; f += $2; $1 = $2 = ""; sub(/^ +/, ""); print }
	     END { printf "%d passed, %d failed\n", p, f; exit f > 0 }' "$2"
	exit
fi

label=$1 dir=$2 tally=$3 kyuafile=${4:-Kyuafile}
db=$dir/results-$label.db

# The scripts run ntprof from their own tree (plain or sanitizer build),
# and replay the fuzzers of that tree (the sanitizer tree links them with
# conformance/fuzz/replay.c; conformance/trees.txt runs the replay there).
export NTPROF_BIN=$dir/ntprof
export NTPROF_FUZZ_DIR=$dir/conformance/fuzz
# Kyua refuses to overwrite a results file. HOME pinned to the build tree
# keeps Kyua's logs there and ignores a personal ~/.kyua/kyua.conf.
rm -f "$db"
echo "===> kyua: $label suite ($dir/conformance/$kyuafile)"
(cd "$dir/conformance" && HOME=$dir kyua ${KYUA_FLAGS:-} test --kyuafile="$kyuafile" --results-file="$db")
rc=$?

if [ ! -s "$db" ]; then
	# Usage or Kyuafile error (exit 2): nothing ran; count the suite as one failure.
	echo "$label: kyua could not run the suite (exit $rc)" >&2
	printf '0 1 %s: did not run (kyua exit %d)\n' "$label" "$rc" >>"$tally"
	exit 1
fi

counts=$(HOME=$dir kyua report --results-file="$db" | awk '
	/^Test cases:/ {
		sub(/^Test cases: */, "")
		n = split($0, part, /, */)
		for (i = 1; i <= n; i++) { split(part[i], w, " "); c[w[2]] = w[1] }
		print c["total"] + 0, c["skipped"] + 0, c["expected"] + 0, c["broken"] + 0, c["failed"] + 0
	}')
read -r total skipped xfail broken failed <<<"${counts:-0 0 0 0 0}"
bad=$((failed + broken))
good=$((total - bad))
printf '%d %d %s: %d passed (%d skipped, %d expected failures), %d failed (%d broken); %s\n' \
	"$good" "$bad" "$label" "$good" "$skipped" "$xfail" "$bad" "$broken" "$db" >>"$tally"

if [ "$rc" -ne 0 ] || [ "$bad" -ne 0 ]; then
	echo "===> kyua: $label suite, failed and broken cases"
	HOME=$dir kyua report --verbose --results-filter=failed,broken --results-file="$db"
	exit 1
fi
exit 0
