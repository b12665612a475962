#!/bin/sh
# SPDX-License-Identifier: MIT
# The coverage gate of make check (tools/coverage-gate.awk) on made-up lcov
# tracefiles: it passes at the thresholds, fails one line or one branch short
# of them, and then names each line never run (or branch never taken) as
# file:line, relative to the root.
#
# Environment: NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
gate=$NTPROF_SOURCE_ROOT/tools/coverage-gate.awk

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-gate.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# run LINES% BRANCHES% TRACEFILE: $rc and $tmp/out
run() {
	awk -f "$gate" -v root=/r/ -v min_lines="$1" -v min_branches="$2" "$3" >"$tmp/out" 2>&1
	rc=$?
}

# expect DESCRIPTION RC LINE...: exit status RC and every LINE in the output.
expect() {
	what=$1 want=$2
	shift 2
	why=
	[ "$rc" -eq "$want" ] || why="want exit status $want, got $rc"
	for l in "$@"; do
		grep -q -x -F -e "$l" "$tmp/out" || why="$why; want the line: $l"
	done
	if [ -z "$why" ]; then
		ok "$what"
	else
		not_ok "$what" "$why"
		sed 's/^/#   | /' "$tmp/out"
	fi
}

# Two files: 4 lines and 20 branches each; a.c all run and taken.
tracefile() { # tracefile OUT A_LINE3_COUNT B_UNTAKEN_BRANCHES
	{
		echo "TN:"
		echo "SF:/r/model/a.c"
		for l in 1 2 3 4; do
			if [ "$l" -eq 3 ]; then echo "DA:$l,$2"; else echo "DA:$l,5"; fi
		done
		b=0
		while [ "$b" -lt 20 ]; do echo "BRDA:2,0,$b,1"; b=$((b + 1)); done
		echo "end_of_record"
		echo "SF:/r/model/b.c"
		for l in 10 11 12 13; do echo "DA:$l,1"; done
		b=0
		while [ "$b" -lt 20 ]; do
			if [ "$b" -lt "$3" ]; then
				if [ "$b" -eq 0 ]; then echo "BRDA:12,1,$b,-"; else echo "BRDA:12,1,$b,0"; fi
			else
				echo "BRDA:12,1,$b,3"
			fi
			b=$((b + 1))
		done
		echo "end_of_record"
	} >"$1"
}

tracefile "$tmp/full.info" 1 2
run 100 95 "$tmp/full.info"
expect "8 of 8 lines and 38 of 40 branches pass 100%/95%" 0 \
	"lines 100.0% (8 of 8, need 100%), branches 95.0% (38 of 40, need 95%): gate passed"

tracefile "$tmp/line.info" 0 2
run 100 95 "$tmp/line.info"
expect "one line never run fails the line gate and is named" 1 \
	"lines 87.5% (7 of 8, need 100%), branches 95.0% (38 of 40, need 95%): GATE FAILED" \
	"coverage gate: line coverage of model/ is below 100%; 1 line(s) never run:" \
	"  model/a.c:3: line not run"

tracefile "$tmp/branch.info" 1 3
run 100 95 "$tmp/branch.info"
expect "a third untaken branch fails the branch gate, and each is named ('-' and 0 alike)" 1 \
	"lines 100.0% (8 of 8, need 100%), branches 92.5% (37 of 40, need 95%): GATE FAILED" \
	"coverage gate: branch coverage of model/ is below 95%; 3 branch(es) never taken:" \
	"  model/b.c:12: branch 0 of block 1 not taken" \
	"  model/b.c:12: branch 2 of block 1 not taken"
if grep -q "line coverage" "$tmp/out"; then
	not_ok "a failed branch gate alone does not list lines"
fi

run 87 95 "$tmp/line.info"
expect "a lower line threshold lets 7 of 8 lines pass" 0 \
	"lines 87.5% (7 of 8, need 87%), branches 95.0% (38 of 40, need 95%): gate passed"

# Nothing to measure is no pass: 0 of 0 meets any threshold.
: >"$tmp/empty.info"
run 100 95 "$tmp/empty.info"
expect "an empty tracefile fails the gate and says nothing was measured" 1 \
	"lines n/a (0 of 0, need 100%), branches n/a (0 of 0, need 95%): GATE FAILED" \
	"coverage gate: the tracefile has no line records (DA:): nothing was measured; check that the build has --coverage, that the tests ran and that the extract of model/ matched its files"

printf 'TN:\nSF:/r/model/a.c\nend_of_record\n' >"$tmp/nolines.info"
run 0 0 "$tmp/nolines.info"
expect "a file record without lines fails even at 0% thresholds" 1 \
	"lines n/a (0 of 0, need 0%), branches n/a (0 of 0, need 0%): GATE FAILED"

grep -v '^BRDA:' "$tmp/full.info" >"$tmp/nobranch.info"
run 100 95 "$tmp/nobranch.info"
expect "lines without branch records fail a branch threshold (branch data not recorded)" 1 \
	"lines 100.0% (8 of 8, need 100%), branches n/a (0 of 0, need 95%): GATE FAILED" \
	"coverage gate: the tracefile has no branch records (BRDA:): branch coverage was not measured; lcov 1.16 needs --rc lcov_branch_coverage=1"
run 100 0 "$tmp/nobranch.info"
expect "lines without branch records pass when no branch threshold is set" 0 \
	"lines 100.0% (8 of 8, need 100%), branches n/a (0 of 0, need 0%): gate passed"

echo "1..$n"
if [ "$failed" -ne 0 ]; then
	echo "# $failed of $n checks failed" >&2
	exit 1
fi
exit 0
