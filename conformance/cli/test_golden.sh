#!/bin/sh
# SPDX-License-Identifier: MIT
# Behaviour kept across refactors: the outputs of ntprof's commands (run in
# every format, matrix, diff, explore, compare, explain, trace, versions, the
# `call` examples of docs/compare-versions.md, usage errors) must hash to the
# sums recorded in conformance/data/golden.sums (tools/golden.sh says what runs). A change
# that means to alter an output records new sums in its own commit:
#   tools/golden.sh . build/ntprof conformance/data/golden.sums --record /tmp/golden
# The twin proves the comparison can fail: one recorded sum altered must be
# reported, by the name of its output, with exit status 1.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
sums=$root/conformance/data/golden.sums

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-golden.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

echo "1..2"
failed=0
"$root/tools/golden.sh" "$root" "$NTPROF_BIN" "$sums" > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	echo "ok 1 - every recorded output unchanged ($(wc -l < "$sums") outputs)"
else
	failed=1
	echo "not ok 1 - outputs differ from conformance/data/golden.sums (exit $rc)"
	sed 's/^/#   | /' "$tmp/out"
fi

# the twin: the sum of `versions` altered by one digit
awk '$2 == "versions" { $1 = (substr($1, 1, 1) == "0" ? "1" : "0") substr($1, 2) } { print }' "$sums" > "$tmp/twin.sums"
"$root/tools/golden.sh" "$root" "$NTPROF_BIN" "$tmp/twin.sums" > "$tmp/twin.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -qx '  versions' "$tmp/twin.out" && [ "$(grep -c '^  ' "$tmp/twin.out")" -eq 1 ] &&
	! cmp -s "$sums" "$tmp/twin.sums"; then
	echo "ok 2 - an altered sum is reported by name (fail twin)"
else
	failed=1
	echo "not ok 2 - an altered sum was not reported as the one change (exit $rc)"
	sed 's/^/#   | /' "$tmp/twin.out"
fi
exit $failed
