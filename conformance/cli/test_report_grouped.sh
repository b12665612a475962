#!/bin/sh
# SPDX-License-Identifier: MIT
# The default text report of `run` groups its rows: a line per vector, step
# and outcome, its targets as version ranges per architecture. On
# dl_faulty.so (four bugs, conformance/dl/dl_faulty.c) it must stay short (at most
# 100 lines), still name each bug on a line whose ranges cover a target
# where test_dl.sh catches it, with what was expected and got, and account
# for every failing target of --verbose exactly once; its summary still
# counts targets, as --verbose's does. Each check has a twin that shows it
# failing: --verbose is over 100 lines, a target outside the ranges is not
# covered, the report of dl_faithful.so names no bug, and a grouped line
# with another got no longer accounts for its targets.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
dir=$(dirname "$NTPROF_BIN")/conformance/dl
fixtures=$NTPROF_SOURCE_ROOT/fixtures

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-grouped.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
check() { if [ "$2" -eq 0 ]; then ok "$1"; else not_ok "$1" "$3"; fi; }

"$NTPROF_BIN" run --backend "dl:$dir/dl_faulty.so" "$fixtures" >"$tmp/grouped" 2>"$tmp/err"
rc_grouped=$?
"$NTPROF_BIN" run --backend "dl:$dir/dl_faulty.so" --verbose "$fixtures" >"$tmp/verbose" 2>&1
"$NTPROF_BIN" run --backend "dl:$dir/dl_faithful.so" "$fixtures" >"$tmp/faithful" 2>&1
"$NTPROF_BIN" versions | awk '{ print $1 }' >"$tmp/versions"   # the version table, in order

# ---- length, summary, header ----

# at_most MAX FILE: FILE has at most MAX lines.
at_most() { [ "$(wc -l <"$2")" -le "$1" ]; }

at_most 100 "$tmp/grouped"
check "dl_faulty.so: the grouped report is at most 100 lines ($(wc -l <"$tmp/grouped"))" $? \
	"rc $rc_grouped; first lines: $(head -3 "$tmp/grouped" | tr '\n' '|')"
! at_most 100 "$tmp/verbose"
check "twin: the same run with --verbose is over 100 lines ($(wc -l <"$tmp/verbose"))" $? \
	"the line count cannot tell a grouped report from an expanded one"

[ "$rc_grouped" -eq 1 ] && [ ! -s "$tmp/err" ] &&
	[ "$(grep '^summary:' "$tmp/grouped")" = "$(grep '^summary:' "$tmp/verbose")" ]
check "the grouped report fails the run and counts targets in its summary, as --verbose does" $? \
	"rc $rc_grouped; $(grep '^summary:' "$tmp/grouped") / $(grep '^summary:' "$tmp/verbose")"
grep -q '^ntprof run: backend dl-faulty, .* results; lines grouped by vector, step and outcome (--verbose: a line per target)$' \
	"$tmp/grouped" && ! grep -q 'lines grouped' "$tmp/verbose"
check "the header says the lines are grouped and that --verbose expands them" $? \
	"header: $(head -1 "$tmp/grouped")"

# ---- what a line covers ----

# awk functions: the targets of a report line (between " on " and " ["),
# its text after them (the model's outcome aside: a grouped line leaves out
# one that is the expectation itself), and whether ranges ("6.2..22H2/x86,
# 1809/x64") cover a target ("6.3/x86"), by rank[] in the version table.
lib='
function targets(line,    s) {
	s = substr(line, index(line, " on ") + 4)
	return substr(s, 1, index(s, " [") - 1)
}
function tail(line) {
	line = substr(line, index(line, " [") + 1)
	if (index(line, " [model: ")) line = substr(line, 1, index(line, " [model: ") - 1)
	return line
}
function covered(ranges, target,    item, n, i, t, r, lohi) {
	split(target, t, "/")
	n = split(ranges, item, ", ")
	for (i = 1; i <= n; i++) {
		split(item[i], r, "/")
		if (r[2] != t[2]) continue
		if (split(r[1], lohi, "\\.\\.") == 1) lohi[2] = lohi[1]
		if (rank[lohi[1]] <= rank[t[1]] && rank[t[1]] <= rank[lohi[2]]) return 1
	}
	return 0
}
FILENAME == ARGV[1] { rank[$1] = FNR; next }'

# covers REPORT CLASS VECTOR TARGET EXPECTED GOT: a CLASS line of VECTOR in
# REPORT says "expected EXPECTED ..., got GOT" and its ranges cover TARGET.
covers() {
	awk -v class="$2" -v vector="$3" -v target="$4" -v expected="expected $5" -v got=", got $6" "$lib"'
		$1 == class && $2 == vector && $3 == "on" && index($0, expected) && index($0, got) &&
			covered(targets($0), target) { found = 1 }
		END { exit !found }' "$tmp/versions" "$1"
}

# caught BUG VECTOR TARGET EXPECTED GOT: the grouped report names the bug.
caught() {
	covers "$tmp/grouped" status-mismatch "$2" "$3" "$4" "$5"
	check "bug $1 named: $2 on a range covering $3, expected $4, got $5" $? \
		"no status-mismatch line of $2 covering $3: $(grep " $2 on " "$tmp/grouped" | head -2)"
}
# rules: CP-2 CP-12
caught "1 (probe before validation)" create/buffersize-zero-vs-handle-probe 1809/x64 \
	"STATUS_INVALID_PARAMETER_7" "STATUS_ACCESS_VIOLATION"
# rules: CP-9
caught "2 (pre-1703 capacity formula)" create/capacity-odd-buffer-size 1703/x64 \
	"STATUS_BUFFER_TOO_SMALL" "STATUS_SUCCESS"
# rules: SI-1
caught "3 (privilege not checked)" set-interval/privilege-threshold 6.2/x64 \
	"STATUS_PRIVILEGE_NOT_HELD" "STATUS_SUCCESS"
# rules: CP-17
caught "4 (WOW64 -1 as every processor)" create/affinity-all 6.1/wow64 \
	"STATUS_INVALID_PARAMETER" "STATUS_SUCCESS"

# Twins: the same search fails for a target the line does not cover (the
# privilege check starts at 6.2; 6.1 has none to miss), for another got, and
# on the report of an implementation without the bug.
! covers "$tmp/grouped" status-mismatch set-interval/privilege-threshold 6.1/x64 \
	"STATUS_PRIVILEGE_NOT_HELD" "STATUS_SUCCESS"
check "twin: 6.1/x64 is outside bug 3's ranges" $? "the range check covers a target it should not"
! covers "$tmp/grouped" status-mismatch set-interval/privilege-threshold 6.2/x64 \
	"STATUS_PRIVILEGE_NOT_HELD" "STATUS_ACCESS_VIOLATION"
check "twin: bug 3's line is not found with another got" $? "the search ignores what was got"
! covers "$tmp/faithful" status-mismatch set-interval/privilege-threshold 6.2/x64 \
	"STATUS_PRIVILEGE_NOT_HELD" "STATUS_SUCCESS"
check "twin: dl_faithful.so's report names no bug 3" $? "the search finds a bug where there is none"

# ---- every failing target, once ----

# same_rows GROUPED VERBOSE: each failure row of VERBOSE (a line per target)
# is covered by exactly one line of GROUPED with its class, vector and text.
same_rows() {
	awk "$lib"'
		!/^(status|output)-mismatch / { next }
		FILENAME == ARGV[2] { g++; id[g] = $1 " " $2; text[g] = tail($0); ranges[g] = targets($0); next }
		{
			rows++
			hits = 0
			for (i = 1; i <= g; i++)
				if (id[i] == $1 " " $2 && text[i] == tail($0) && covered(ranges[i], targets($0)))
					hits++
			if (hits != 1 && ++bad <= 3)
				print "#   " hits " grouped lines for: " $0
		}
		END { exit bad > 0 || rows == 0 }' "$tmp/versions" "$1" "$2"
}
same_rows "$tmp/grouped" "$tmp/verbose"
check "each of the $(grep -c -E '^(status|output)-mismatch ' "$tmp/verbose") failing targets of --verbose is on exactly one of the $(grep -c -E '^(status|output)-mismatch ' "$tmp/grouped") grouped lines" $? \
	"see the rows above"
sed '0,/got STATUS_SUCCESS/s//got STATUS_UNSUCCESSFUL/' "$tmp/grouped" >"$tmp/altered"
! same_rows "$tmp/altered" "$tmp/verbose" >/dev/null
check "twin: a grouped line with another got leaves its targets unaccounted for" $? \
	"the comparison ignores what a grouped line says"

echo "1..$n"
[ "$failed" -eq 0 ]
