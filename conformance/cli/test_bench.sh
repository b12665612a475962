#!/bin/sh
# SPDX-License-Identifier: MIT
# The benchmark (bench/, `make bench`) still measures the paths it names:
#   - bench --smoke runs each row once and finds each ends as it names, and
#     counting counts a run of pcs as the bare loop does; nothing is timed;
#   - twin: on a machine where the caller is in kernel mode the probes are
#     skipped, so the rows named after a failed probe (QI-1, SY-1) and the
#     privilege check (SI-1) end otherwise: the smoke test fails, exit 1,
#     naming each such row and what it ended in;
#   - a malformed --given and an unknown option are refused, exit 2;
#   - one brief timed run (two repetitions of 1 ms batches, rows and
#     counting only) prints a ratio and a spread for every row.
#
# Environment: NTPROF_BIN (the bench is beside it, in bench/),
# NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
bench=$(dirname "$NTPROF_BIN")/bench/bench

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# run WANT-STATUS NAME ARGS...: bench ARGS exits WANT-STATUS.
run() {
	want=$1 name=$2
	shift 2
	"$bench" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "$name (exit $rc)"
	else
		not_ok "$name" "want exit $want, have $rc:" "$(head -5 "$tmp/err")"
	fi
}

# says FILE NAME TEXT: FILE holds the line TEXT.
says() {
	if grep -q -F -x -- "$3" "$1"; then
		ok "$2"
	else
		not_ok "$2" "want the line: $3" "have: $(head -5 "$1")"
	fi
}

run 0 "every row ends as it names" --smoke
says "$tmp/out" "the smoke test checked 20 rows and counting" \
	"ntprof bench --smoke: 20 rows and counting, 0 ending otherwise than named"

run 1 "twin: a kernel-mode caller's rows end otherwise" --smoke --given mode=kernel
says "$tmp/err" "twin: the row of QI-1 is named, with what it ended in" \
	"ntprof bench: NtQueryIntervalProfile failure (kernel Interval (QI-1)) ended in STATUS_SUCCESS, not STATUS_ACCESS_VIOLATION"
says "$tmp/err" "twin: the row of SI-1 is named, with what it ended in" \
	"ntprof bench: NtSetIntervalProfile failure (no privilege (SI-1)) ended in STATUS_SUCCESS, not STATUS_PRIVILEGE_NOT_HELD"
says "$tmp/out" "twin: three rows counted as ending otherwise" \
	"ntprof bench --smoke: 20 rows and counting, 3 ending otherwise than named"

run 2 "a given key the model does not know is refused" --smoke --given nokey=1
says "$tmp/err" "the refusal names the setting" "ntprof bench: --given nokey=1: unknown given key"
run 2 "a --reps out of range is refused" --reps 0
says "$tmp/err" "the refusal names the option" "ntprof bench: --reps takes a number from 1 to 101"
run 2 "an unknown option is refused" --fast

run 0 "a brief timed run" --reps 2 --batch-ms 1 --no-explorer
rows=$(grep -c -E ' [0-9]+\.[0-9]+x +[0-9]+\.[0-9]+-[0-9]+\.[0-9]+' "$tmp/out")
if [ "$rows" -eq 23 ]; then
	ok "the brief run printed a ratio and its spread for 20 rows and 3 counting loops"
else
	not_ok "the brief run printed a ratio and its spread for 20 rows and 3 counting loops" \
		"have $rows such lines:" "$(head -12 "$tmp/out")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
