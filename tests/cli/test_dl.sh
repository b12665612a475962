#!/bin/sh
# SPDX-License-Identifier: MIT
# `ntprof run --backend dl:PATH`: implementations in shared objects.
#   dl_faithful.so forwards to the model: it must match everything the model
#     matches, so the interface (ntprof/impl.h) carries all a vector needs.
#   dl_faulty.so has four bugs (see tests/dl/dl_faulty.c); the run must
#     fail and name, vector by vector, at least the vectors listed below for
#     each bug, with the model's outcome beside the wrong one, and nothing
#     outside the two functions the bugs live in.
#   A missing object, one without the entry point and one of another ABI are
#     refused with exit status 2 before anything runs.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
dir=$(dirname "$NTPROF_BIN")/tests/dl
fixtures=$NTPROF_SOURCE_ROOT/fixtures

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-dl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n - $1"
	echo "#   $2"
	sed 's/^/#   out: /' "$tmp/out" | head -20
	sed 's/^/#   err: /' "$tmp/err" | head -5
}
run() { "$NTPROF_BIN" run "$@" "$fixtures" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# The steps of profile/situations.vec (SetCpus, SetIntervalElsewhere,
# Protect) are members ntprof/impl.h appends after `interrupts`, which an
# ABI 1 object's table may lack, so `dl:` never reads them and the steps are
# not applicable there: the faithful object is compared on the other files.
whole=$fixtures
fixtures=$tmp/fixtures
cp -R "$whole" "$fixtures" && rm "$fixtures/profile/situations.vec" || exit 1
# The model's own figures are the reference for the faithful object.
run --backend model
model_summary=$(grep '^summary:' "$tmp/out")
run --backend "dl:$dir/dl_faithful.so"
if [ "$rc" -eq 0 ] && [ "$(grep '^summary:' "$tmp/out")" = "$model_summary" ]; then
	ok "dl_faithful.so matches exactly what the model matches ($model_summary)"
else
	not_ok "dl_faithful.so matches exactly what the model matches" "rc $rc, model: $model_summary"
fi
if grep -q '^ntprof run: backend dl-faithful,' "$tmp/out"; then
	ok "the report names the object's backend"
else
	not_ok "the report names the object's backend" "no 'backend dl-faithful' header"
fi
fixtures=$whole

run --backend "dl:$dir/dl_faulty.so"
cp "$tmp/out" "$tmp/faulty"
if [ "$rc" -eq 1 ]; then ok "dl_faulty.so: the run fails (exit 1)"; else not_ok "dl_faulty.so: the run fails (exit 1)" "rc $rc"; fi

# caught BUG VECTOR TARGET EXPECTED GOT: that row is a status mismatch with
# the model's outcome beside it.
caught() {
	line=$(grep "^status-mismatch *$2 on $3 " "$tmp/faulty" | head -1)
	case $line in
	*"expected $4"*", got $5"*"[model: $4"*) ok "bug $1 caught by $2 on $3" ;;
	*) not_ok "bug $1 caught by $2 on $3" "want expected $4, got $5, [model: $4]; row: ${line:-none}" ;;
	esac
}
caught "1 (probe before validation)" create/buffersize-zero-vs-handle-probe 1809/x64 \
	"STATUS_INVALID_PARAMETER_7" "STATUS_ACCESS_VIOLATION"
caught "2 (pre-1703 capacity formula)" create/capacity-odd-buffer-size 1703/x64 \
	"STATUS_BUFFER_TOO_SMALL" "STATUS_SUCCESS"
caught "3 (privilege not checked)" set-interval/privilege-threshold 6.2/x64 \
	"STATUS_PRIVILEGE_NOT_HELD" "STATUS_SUCCESS"
caught "4 (WOW64 -1 as every processor)" create/affinity-all 6.1/wow64 \
	"STATUS_INVALID_PARAMETER" "STATUS_SUCCESS"

others=$(grep -E '^(status|output)-mismatch' "$tmp/faulty" |
	grep -v -E 'step [0-9]+ (NtCreateProfile|NtSetIntervalProfile|ZwSetIntervalProfile):' | head -3)
if [ -z "$others" ]; then
	ok "dl_faulty.so: every difference is in NtCreateProfile or NtSetIntervalProfile"
else
	not_ok "dl_faulty.so: every difference is in NtCreateProfile or NtSetIntervalProfile" "$others"
fi

# Judged by a mirrored model (--reference model --given): the model with 32
# processors is the expectation, not the fixture's single-processor one.
run --backend "dl:$dir/dl_faithful.so" --reference model --given cpus=32 --target 6.1/wow64
if [ "$rc" -eq 0 ] && grep -q '^env cpus: 32$' "$tmp/out" &&
	grep -q '^summary: [1-9][0-9]* match, 0 match-alternative, 0 known, 0 status-mismatch, 0 output-mismatch' "$tmp/out"; then
	ok "mirrored: dl_faithful.so matches the model with 32 processors"
else
	not_ok "mirrored: dl_faithful.so matches the model with 32 processors" "rc $rc"
fi
run --backend "dl:$dir/dl_faulty.so" --reference model --given cpus=32 --target 6.1/wow64
if [ "$rc" -eq 1 ] &&
	grep -q '^status-mismatch *create/affinity-all-wow64-31-processors on 6.1/wow64 .*expected STATUS_INVALID_PARAMETER' "$tmp/out"; then
	ok "mirrored: bug 4 caught where the vector's own cpus=31 holds"
else
	not_ok "mirrored: bug 4 caught where the vector's own cpus=31 holds" "rc $rc"
fi
"$NTPROF_BIN" run --reference model --given cpus=2 "$fixtures" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'need exactly one --target' "$tmp/err"; then
	ok "--reference without one --target is refused"
else
	not_ok "--reference without one --target is refused" "rc $rc"
fi

# refused OBJECT MESSAGE: exit 2, the message on stderr, nothing on stdout.
refused() {
	run --backend "dl:$1"
	if [ "$rc" -eq 2 ] && grep -q -- "$2" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "dl:$(basename "$1") refused: $2"
	else
		not_ok "dl:$(basename "$1") refused: $2" "rc $rc"
	fi
}
refused "$tmp/none.so" "cannot load it"
refused "libm.so.6" "does not export ntprof_impl_entry"
refused "$dir/dl_wrong_abi.so" "its ABI is 2; this ntprof speaks 1"

echo "1..$n"
[ "$failed" -eq 0 ]
