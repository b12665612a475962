#!/bin/sh
# SPDX-License-Identifier: MIT
# Known-divergence lists that scale (fixtures/known/README.md): an entry's
# GOT compared by value, pattern entries (IDs with `*`, `step FUNCTION:`,
# `step *:`, GOT `*`), and `--known-write` merging lines into exact
# patterns, read back on dl_faulty.so.
#
# Environment: NTPROF_BIN (the ntprof to test), NTPROF_SOURCE_ROOT (the
# repository). Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
dl=$(dirname "$NTPROF_BIN")/conformance/dl

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-known.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
cmd= rc=0
: >"$tmp/out"
: >"$tmp/err"

failure_detail() {   # the command and its output, after a failure
	echo "#   command: $cmd"
	echo "#   exit status: $rc"
	sed 's/^/#   stdout: /' "$tmp/out"
	sed 's/^/#   stderr: /' "$tmp/err"
}

# nt ARGS...: runs ntprof; $rc, files $tmp/out and $tmp/err.
nt() {
	cmd="ntprof $*"
	"$NTPROF_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# Two vectors of one family that fail alike (no privilege check expected
# where there is one), one of another family that calls the same function
# and matches: a pattern for the family is exact, `*` would not be.
cat >"$tmp/fam.vec" <<'VEC'
vector fam/one
  title   t
  rules   SI-1
  source  s
  applies >=6.2
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_SUCCESS
vector fam/two
  title   t
  rules   SI-1
  source  s
  applies >=6.2
  call    NtSetIntervalProfile Interval=6000
  expect  STATUS_SUCCESS
vector other/fine
  title   t
  rules   SI-1
  source  s
  applies >=6.2
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_PRIVILEGE_NOT_HELD
VEC
run_fam() { nt run --target 6.2/x64 --target 1809 "$@" "$tmp/fam.vec"; }

# ---- GOT by value ----
printf 'fam/one status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD # no code\nfam/two status-mismatch step 1: 0xC0000061 # a number\n' >"$tmp/value.known"
run_fam --known "$tmp/value.known"
if [ "$rc" -ne 0 ] || ! grep -q -x "known divergences $tmp/value.known: 2 entries, 8 rows known, 0 unlisted, 0 stale, 0 not run" "$tmp/out"; then
	not_ok "run --known: a status without its code, or as a number, is the report's status" "want exit 0, 8 rows known"
else
	ok "run --known: a status without its code, or as a number, is the report's status"
fi
# the twin: another status by name alone is no match: unlisted and stale
sed 's/STATUS_PRIVILEGE_NOT_HELD/STATUS_ACCESS_DENIED/' "$tmp/value.known" >"$tmp/value-twin.known"
run_fam --known "$tmp/value-twin.known"
if [ "$rc" -ne 1 ] || ! grep -q -F "stale             $tmp/value-twin.known:1: fam/one status-mismatch step 1: STATUS_ACCESS_DENIED: listed divergence no longer happens" "$tmp/out"; then
	not_ok "run --known: another status without its code" "want exit 1 and line 1 stale"
else
	ok "run --known: another status without its code is stale, not known"
fi

# ---- patterns ----
printf 'fam/* status-mismatch step NtSetIntervalProfile: STATUS_PRIVILEGE_NOT_HELD (0xC0000061) # one reason for the family\n' >"$tmp/pattern.known"
run_fam --known "$tmp/pattern.known"
if [ "$rc" -ne 0 ] || ! grep -q -F "{status-mismatch, listed at $tmp/pattern.known:1}" "$tmp/out" ||
	! grep -q -x "known divergences $tmp/pattern.known: 1 entries, 8 rows known, 0 unlisted, 0 stale, 0 not run" "$tmp/out"; then
	not_ok "run --known: a pattern entry lists every matching vector's divergence" "want exit 0, 8 rows known by line 1"
else
	ok "run --known: a pattern entry lists every matching vector's divergence"
fi
printf '* status-mismatch step *: * # anything that fails so\n' >"$tmp/any.known"
run_fam --known "$tmp/any.known"
if [ "$rc" -ne 0 ] || ! grep -q -F " 1 entries, 8 rows known, 0 unlisted, 0 stale" "$tmp/out"; then
	not_ok "run --known: * status-mismatch step *: *" "want exit 0, 8 rows known"
else
	ok "run --known: * status-mismatch step *: * lists a class whatever the step and outcome"
fi
# twins: the wrong outcome, the wrong family, the wrong class
for twin in 'fam/* status-mismatch step NtSetIntervalProfile: STATUS_ACCESS_DENIED # r' \
	'fam/o* status-mismatch step NtSetIntervalProfile: STATUS_PRIVILEGE_NOT_HELD # r' \
	'* output-mismatch step *: * # r'; do
	printf '%s\n' "$twin" >"$tmp/twin.known"
	run_fam --known "$tmp/twin.known"
	if [ "$rc" -eq 0 ] || ! grep -q ' [1-9][0-9]* unlisted' "$tmp/out"; then
		not_ok "run --known: a pattern wrong in one field" "want exit 1 and unlisted rows for: $twin"
	else
		ok "run --known: a pattern wrong in one field fails the run (${twin%% #*})"
	fi
done
# a pattern that names vectors whose rows all match is stale
printf 'other/* status-mismatch step 1: * # it used to fail\nfam/* status-mismatch step 1: * # r\n' >"$tmp/stale.known"
run_fam --known "$tmp/stale.known"
if [ "$rc" -ne 1 ] || ! grep -q -F "stale             $tmp/stale.known:1: other/* status-mismatch step 1: *: listed divergence no longer happens (now match on" "$tmp/out"; then
	not_ok "run --known: a pattern whose vectors no longer diverge" "want exit 1 and line 1 stale"
else
	ok "run --known: a pattern whose vectors no longer diverge is stale"
fi
# a pattern that names no vector is refused before anything runs
printf 'fam/* status-mismatch step 1: * # r\nfan/* status-mismatch step 1: * # a typo\n' >"$tmp/none.known"
nt run --known "$tmp/none.known" --output "$tmp/report.txt" "$tmp/fam.vec"
if [ "$rc" -ne 2 ] || ! grep -q -F "$tmp/none.known:2: fan/*: the pattern matches no vector" "$tmp/err" || [ -e "$tmp/report.txt" ]; then
	not_ok "run --known: a pattern for no vector" "want exit 2, file:2 named, no report"
else
	ok "run --known: a pattern for no vector is an error naming file:line"
fi

# ---- --known-write: exact patterns, a summary on stderr ----
run_fam --known-write "$tmp/fam.known"
if [ "$rc" -ne 1 ] || ! grep -q -x "fam/\*  status-mismatch  step NtSetIntervalProfile: STATUS_PRIVILEGE_NOT_HELD (0xC0000061)  # TODO" "$tmp/fam.known" ||
	[ "$(grep -c -v '^#' "$tmp/fam.known")" -ne 1 ] ||
	! grep -q -x "ntprof: --known-write: 1 entry covering 8 divergences -> $tmp/fam.known" "$tmp/err"; then
	not_ok "run --known-write: one pattern for the family" "want fam/* alone (other/ matches) and the summary on stderr"
else
	ok "run --known-write: one exact pattern for a family, never one naming a vector that matched"
fi

# a pattern entry that listed the run's failures is written back once, as it was
run_fam --known "$tmp/pattern.known" --known-write "$tmp/again.known"
if [ "$rc" -ne 0 ] || [ "$(grep -v '^#' "$tmp/again.known")" != "fam/*  status-mismatch  step NtSetIntervalProfile: STATUS_PRIVILEGE_NOT_HELD (0xC0000061)  # one reason for the family" ]; then
	not_ok "run --known P --known-write: a pattern kept" "want the pattern line once, with its reason"
else
	ok "run --known P --known-write: the pattern entry is written back once, with its reason"
fi

# ---- dl_faulty.so: the written list, its TODOs filled in, passes ----
# On the versions around its bugs' thresholds (6.2, 1703), every
# architecture of each: 12 of the 77 targets, a child process per vector and
# target, and still several divergences to an entry.
faulty() { nt run --backend "dl:$dl/dl_faulty.so" --target 6.1 --target 6.2 --target 1607 --target 1703 "$@"; }
faulty --known-write "$tmp/faulty.known"
summary=$(grep '^ntprof: --known-write: ' "$tmp/err")
entries=$(printf '%s\n' "$summary" | sed -n 's/^ntprof: --known-write: \([0-9]*\) entr.* covering \([0-9]*\) divergences* -> .*/\1/p')
rows=$(printf '%s\n' "$summary" | sed -n 's/^ntprof: --known-write: \([0-9]*\) entr.* covering \([0-9]*\) divergences* -> .*/\2/p')
lines=$(grep -c -v '^#' "$tmp/faulty.known")
if [ "$rc" -ne 1 ] || [ -z "$entries" ] || [ "$entries" -ne "$lines" ] || [ "$entries" -ge "$rows" ]; then
	not_ok "run --known-write on dl_faulty.so" "want N entries covering M divergences, N < M, N the lines written"
else
	ok "run --known-write on dl_faulty.so: $entries entries covering $rows divergences"
fi
sed 's/# TODO$/# a bug dl_faulty.so has on purpose/' "$tmp/faulty.known" >"$tmp/faulty-done.known"
faulty --known "$tmp/faulty-done.known"
if [ "$rc" -ne 0 ] || ! grep -q -x "known divergences $tmp/faulty-done.known: $entries entries, $rows rows known, 0 unlisted, 0 stale, 0 not run" "$tmp/out"; then
	not_ok "run --known on dl_faulty.so with its written list" "want exit 0, every divergence known"
else
	ok "run --known on dl_faulty.so with its written list: exit 0"
fi
# the twin: the list without its first entry leaves rows unlisted
awk '!done && !/^#/ { done = 1; next } { print }' "$tmp/faulty-done.known" >"$tmp/faulty-less.known"
faulty --known "$tmp/faulty-less.known"
if [ "$rc" -ne 1 ] || ! grep -q ' 0 stale' "$tmp/out" || grep -q ' 0 unlisted' "$tmp/out"; then
	not_ok "run --known on dl_faulty.so without one entry" "want exit 1 and unlisted rows"
else
	ok "run --known on dl_faulty.so without one entry: its rows are unlisted"
fi

echo "1..$n"
if [ "$failed" -ne 0 ]; then
	echo "# $failed of $n checks failed" >&2
	exit 1
fi
exit 0
