#!/bin/sh
# SPDX-License-Identifier: MIT
# The default text report of `run` groups its rows by cause: a heading per
# class, deciding function, expected and got outcome and the rule the model
# decided by, then a line per vector under it, its targets as version
# ranges per architecture. On dl_faulty.so (four bugs,
# conformance/dl/dl_faulty.c) it must stay short (at most 100 lines), still
# name each bug under a heading with what was expected and got, on a vector
# line whose ranges cover a target where test_dl.sh catches it, and account
# for every failing target of --verbose exactly once, under the heading of
# its own cause; its summary still counts targets, as --verbose's does. On
# three vectors the model fails for two causes (two rules, one outcome) it
# writes two headings, the one with two vectors under it. Each check has a
# twin that shows it failing: --verbose is over 100 lines, a target outside
# the ranges is not covered, the report of dl_faithful.so names no bug, a
# line with another got and a heading whose cause left out the rule no
# longer account for their targets, and a report without headings has
# more than two.
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
# the faithful object only where bug 3 would show, for its twin below
"$NTPROF_BIN" run --backend "dl:$dir/dl_faithful.so" "$fixtures/interval/set-interval.vec" >"$tmp/faithful" 2>&1
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
grep -q '^ntprof run: backend dl-faulty, .* results; grouped by cause: function, rule and outcome, its vectors under it (--verbose: a line per target)$' \
	"$tmp/grouped" && ! grep -q 'grouped by' "$tmp/verbose"
check "the header says the lines are grouped by cause and that --verbose expands them" $? \
	"header: $(head -1 "$tmp/grouped")"

# ---- what a heading and its lines cover ----

# awk functions: the targets of a --verbose line or a vector's line
# (between " on " and " ["), a line's text after them (the model's outcome
# aside: a grouped line leaves out one that is the expectation itself), and
# whether ranges ("6.2..22H2/x86, 1809/x64") cover a target ("6.3/x86"), by
# rank[] in the version table. The grouped report is read as the --verbose
# lines it stands for: each vector line under its heading gives
# expand[] = "CLASS VECTOR" and text[] = its where, then the heading's
# cause, then its own details, as --verbose writes them.
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
function grouped(line,    rest) {
	if (line ~ /^[a-z]+(-[a-z]+)* +[^ ]/ && line !~ /^(ntprof|stale|not-run|known divergences) /) {
		class = line; sub(/ .*/, "", class)
		cause = substr(line, length(class) + 1); sub(/^ +/, "", cause)
		sub(/ \([0-9]+ vectors?, [0-9]+ results?\)$/, "", cause)
		return
	}
	if (line !~ /^    [^ ]/) return
	g++
	rest = line; sub(/^    /, "", rest)
	expand[g] = class " " substr(rest, 1, index(rest, " ") - 1)
	ranges[g] = targets(rest)
	rest = substr(rest, index(rest, " [") + 1)
	if (match(rest, / step [0-9]+/)) {
		text[g] = substr(rest, 1, RSTART + RLENGTH - 1) " " cause substr(rest, RSTART + RLENGTH)
	} else {
		text[g] = rest " (" cause ")"
	}
	text[g] = tail(" " text[g])
}
FILENAME == ARGV[1] { rank[$1] = FNR; next }'

# covers REPORT CLASS VECTOR TARGET EXPECTED GOT: REPORT has a CLASS heading
# that says "expected EXPECTED ..., got GOT" with a line of VECTOR under it
# whose ranges cover TARGET.
covers() {
	awk -v want="$2 $3" -v target="$4" -v expected="expected $5" -v got=", got $6" "$lib"'
		{ grouped($0) }
		END {
			for (i = 1; i <= g; i++)
				if (expand[i] == want && index(text[i], expected) && index(text[i], got) &&
				    covered(ranges[i], target))
					found = 1
			exit !found
		}' "$tmp/versions" "$1"
}

# caught BUG VECTOR TARGET EXPECTED GOT: the grouped report names the bug.
caught() {
	covers "$tmp/grouped" status-mismatch "$2" "$3" "$4" "$5"
	check "bug $1 named: $2 under its heading, on a range covering $3, expected $4, got $5" $? \
		"no status-mismatch heading with a line of $2 covering $3: $(grep " $2 on " "$tmp/grouped" | head -2)"
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

# ---- every failing target, once, under its own cause ----

# same_rows GROUPED VERBOSE: each failure row of VERBOSE (a line per target)
# is covered by exactly one vector line of GROUPED that, read with its
# heading, says what the row says: class, vector, where, cause (function,
# expected, got, the rule the model decided by) and details.
same_rows() {
	awk "$lib"'
		FILENAME == ARGV[2] { grouped($0); next }
		!/^(status|output)-mismatch / { next }
		{
			rows++
			hits = 0
			for (i = 1; i <= g; i++)
				if (expand[i] == $1 " " $2 && text[i] == tail($0) && covered(ranges[i], targets($0)))
					hits++
			if (hits != 1 && ++bad <= 3)
				print "#   " hits " grouped lines for: " $0
		}
		END { exit bad > 0 || rows == 0 }' "$tmp/versions" "$1" "$2"
}
same_rows "$tmp/grouped" "$tmp/verbose"
check "each of the $(grep -c -E '^(status|output)-mismatch ' "$tmp/verbose") failing targets of --verbose is under exactly one of the $(grep -c -E '^(status|output)-mismatch ' "$tmp/grouped") headings, on one line" $? \
	"see the rows above"
sed '0,/got STATUS_SUCCESS/s//got STATUS_UNSUCCESSFUL/' "$tmp/grouped" >"$tmp/altered"
! same_rows "$tmp/altered" "$tmp/verbose" >/dev/null
check "twin: a heading with another got leaves its targets unaccounted for" $? \
	"the comparison ignores what a heading says"

# ---- one heading per cause ----

# Three vectors the model fails on two targets, all for one outcome
# (STATUS_ACCESS_VIOLATION where STATUS_SUCCESS is expected): two because
# it probes ProfileHandle (CP-12), one because it probes Buffer (CP-13).
call='NtCreateProfile Process=current ProfileBase=0x10000000 ProfileSize=0x1000 BucketSize=8 BufferSize=64'
for v in handle-null:ProfileHandle=null:Buffer=user:CP-12 handle-readonly:ProfileHandle=readonly:Buffer=user:CP-12 \
	buffer-readonly:ProfileHandle=\>h:Buffer=readonly:CP-13; do
	IFS=: read -r name handle buffer rule <<EOF
$v
EOF
	printf 'vector cause/%s\n  title   t\n  rules   %s\n  source  s\n  call    %s %s %s\n  expect  STATUS_SUCCESS ProfileHandle=-\n\n' \
		"$name" "$rule" "$call" "$handle" "$buffer"
done >"$tmp/cause.vec"
"$NTPROF_BIN" run --target 6.1/x64 --target 6.2/x64 "$tmp/cause.vec" >"$tmp/cause" 2>&1
"$NTPROF_BIN" run --target 6.1/x64 --target 6.2/x64 --verbose "$tmp/cause.vec" >"$tmp/cause-verbose" 2>&1

# headings REPORT: its status-mismatch headings.
headings() { grep -c '^status-mismatch   NtCreateProfile: ' "$1"; }
cause='NtCreateProfile: expected STATUS_SUCCESS (0x00000000) ProfileHandle=-, got STATUS_ACCESS_VIOLATION (0xC0000005) ProfileHandle=-'
[ "$(headings "$tmp/cause")" -eq 2 ] &&
	[ "$(sed -n 2,4p "$tmp/cause" | sed 's/ \[.*//')" = "status-mismatch   $cause <model: decided by CP-12> (2 vectors, 4 results)
    cause/handle-null on 6.1..6.2/x64
    cause/handle-readonly on 6.1..6.2/x64" ] &&
	sed -n 5p "$tmp/cause" | grep -q -F "$cause <model: decided by CP-13> (1 vector, 2 results)"
check "two causes of one outcome, two headings; the two vectors of one under it" $? \
	"$(sed -n 2,6p "$tmp/cause" | cut -c1-150 | tr '\n' '|')"
! [ "$(headings "$tmp/cause-verbose")" -eq 2 ]
check "twin: a report without headings (--verbose) does not have two" $? "the count reads vector lines as headings"
same_rows "$tmp/cause" "$tmp/cause-verbose"
check "each failing target is under the heading of its own rule" $? "see the rows above"
# A cause that ignored the rule would write the CP-13 vector under the
# CP-12 heading: the heading of its own rule gone.
grep -v -F 'decided by CP-13' "$tmp/cause" >"$tmp/one-heading"
! same_rows "$tmp/one-heading" "$tmp/cause-verbose" >/dev/null
check "twin: a heading whose cause ignores the rule leaves the CP-13 rows unaccounted for" $? \
	"the comparison ignores the rule the model decided by"

# A dl: object gives no rule of its own: its headings name the model's, the
# rule that decides the step where the object went wrong.
grep -q -F 'NtSetIntervalProfile: expected STATUS_PRIVILEGE_NOT_HELD (0xC0000061), got STATUS_SUCCESS (0x00000000) <model: decided by SI-1> (' "$tmp/grouped"
check "dl_faulty.so: a heading names the model's deciding rule (SI-1 for the missing privilege check)" $? \
	"$(grep -m1 '^status-mismatch   NtSetIntervalProfile' "$tmp/grouped")"

echo "1..$n"
[ "$failed" -eq 0 ]
