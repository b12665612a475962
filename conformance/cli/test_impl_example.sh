#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/impl_minimal.c, the interval calls of 1809/x64 written on the
# implementers' helpers (ntprof/impl_helpers.h), run as a dl: object:
#   - on the interval vectors for its target it matches, with no mismatch,
#     the vectors that exercise what the helpers give it (the probe of a
#     user pointer, its alignment, a vanishing page, a kernel-mode caller,
#     a NULL pointer), and every vector it does not match is not required
#     of it (it needs a capability the example does not declare), none
#     refused by its open();
#   - on another target every vector is refused by its open();
#   - the twin built with -DIMPL_MINIMAL_BUG (no privilege check, SI-1) is
#     caught: exit 1, with the model's outcome beside the wrong one, and no
#     difference outside NtSetIntervalProfile.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
dir=$(dirname "$NTPROF_BIN")/examples
vecs="$NTPROF_SOURCE_ROOT/fixtures/interval/set-interval.vec $NTPROF_SOURCE_ROOT/fixtures/interval/query-interval.vec"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-example.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
failure_detail() {   # the command's output, after a failure
	sed 's/^/#   out: /' "$tmp/out" | head -20
	sed 's/^/#   err: /' "$tmp/err" | head -5
}
# shellcheck disable=SC2086 # $vecs is two paths
run() { "$NTPROF_BIN" run --verbose "$@" $vecs >"$tmp/out" 2>"$tmp/err"; rc=$?; }

echo "1..6"

run --backend "dl:$dir/impl_minimal.so" --target 1809/x64
mismatches=$(grep -c -E '^(status|output)-mismatch' "$tmp/out")
if [ "$rc" -eq 0 ] && [ "$mismatches" -eq 0 ] && grep -q '^ntprof run: backend impl-minimal,' "$tmp/out"; then
	ok "impl_minimal.so on 1809/x64: exit 0, no mismatch"
else
	not_ok "impl_minimal.so on 1809/x64: exit 0, no mismatch" "rc $rc, $mismatches mismatches"
fi

missing=
for v in set-interval/privilege-threshold set-interval/timer-boundaries-low \
	set-interval/alignment-fixup-kept query-interval/null-pointer query-interval/kernel-pointer \
	query-interval/readonly-pointer query-interval/unmapped-pointer query-interval/misaligned-pointer; do
	grep -q "^match  *$v on 1809/x64 " "$tmp/out" || missing="$missing $v"
done
# It declares a kernel-mode caller and the two knobs (ntprof/capability.h):
# their vectors are asked of it and match; memory that vanishes once probed
# it does not declare, so those vectors are not required of it.
for v in set-interval/kernel-mode-caller query-interval/misaligned-knob-checked; do
	grep -q "^match  *$v on 1809/x64 " "$tmp/out" || missing="$missing $v"
done
for v in query-interval/write-faults-after-probe query-interval/write-fault-knob-exception \
	query-interval/kernel-mode-not-probed; do
	grep -q "^not-required  *$v on 1809/x64 .*(needs pointer:vanishing, which it does not declare)" \
		"$tmp/out" || missing="$missing $v"
done
if [ -z "$missing" ]; then
	ok "the vectors of the probes and of what it declares match; the others are not required"
else
	not_ok "the vectors of the probes and of what it declares match; the others are not required" \
		"not so:$missing"
fi

others=$(grep -E '^[a-z-]+ ' "$tmp/out" | grep -v -E '^(match|not-required|summary:|ntprof run:|exercised:)' |
	head -3)
if [ -z "$others" ] && grep -q '^match ' "$tmp/out"; then
	ok "every other vector is not required of it: none refused or unanswered"
else
	not_ok "every other vector is not required of it: none refused or unanswered" "${others:-no match at all}"
fi

# It emulates 1809/x64 (ABI 2): another target is refused before anything runs.
run --backend "dl:$dir/impl_minimal.so" --target 6.2/x64
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q -e '--target 6.2/x64: .*impl_minimal.so emulates only 1809/x64' "$tmp/err"; then
	ok "another target is refused (exit 2): the example emulates 1809/x64 only"
else
	not_ok "another target is refused (exit 2): the example emulates 1809/x64 only" "rc $rc"
fi

run --backend "dl:$dir/impl_minimal_bug.so" --target 1809/x64
line=$(grep '^status-mismatch *set-interval/privilege-threshold on 1809/x64 ' "$tmp/out")
case $rc/$line in
1/*"expected STATUS_PRIVILEGE_NOT_HELD"*", got STATUS_SUCCESS"*"[model: STATUS_PRIVILEGE_NOT_HELD"*)
	ok "the twin without the privilege check is caught (exit 1, SI-1)" ;;
*) not_ok "the twin without the privilege check is caught (exit 1, SI-1)" "rc $rc; row: ${line:-none}" ;;
esac

outside=$(grep -E '^(status|output)-mismatch' "$tmp/out" |
	grep -v -E 'step [0-9]+ (Nt|Zw)SetIntervalProfile:' | head -3)
if [ -z "$outside" ]; then
	ok "the twin differs in NtSetIntervalProfile only"
else
	not_ok "the twin differs in NtSetIntervalProfile only" "$outside"
fi

[ "$failed" -eq 0 ] || exit 1
exit 0
