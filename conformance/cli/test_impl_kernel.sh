#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/impl_kernel.c, kernel-style code of the interval and profile calls
# of 1809/x64 on the kernel services (ntprof/kernel_services.h), run as a dl:
# object on the default fixtures:
#   - it matches every vector it takes, with no mismatch and nothing
#     crashed, and refuses only vectors with a given setting it does not model;
#   - each twin with one planted bug is caught (exit 1) in its own area and
#     nowhere else: the interval (SI-1), create (CP-9), start (ST-2) and
#     counting (IN-3);
#   - its glue (the part below the "glue" line) stays within 150 lines.
# The counting vectors are model-only in the default fixtures, so a dl:
# object is not asked them; the counting twin is run on a copy of
# counting.vec without that flag, and this test says so.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
dir=$(dirname "$NTPROF_BIN")/examples
src=$NTPROF_SOURCE_ROOT/examples/impl_kernel.c

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-kernel.XXXXXX") || exit 1
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
run() { "$NTPROF_BIN" run --verbose "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
mismatches() { grep -E '^(status|output)-mismatch' "$tmp/out"; }

echo "1..7"

run --backend "dl:$dir/impl_kernel.so" --target 1809/x64
bad=$(grep -E '^(status-mismatch|output-mismatch|crashed|timeout|unanswered) ' "$tmp/out" | head -3)
refused=$(grep -E '^not-applicable ' "$tmp/out" | grep -v -F '(this example takes only privilege, mode, cpus and alloc=fail)' | head -3)
matched=$(grep -c '^match ' "$tmp/out")
if [ "$rc" -eq 0 ] && [ -z "$bad" ] && [ -z "$refused" ] && [ "$matched" -ge 80 ]; then
	ok "impl_kernel.so on 1809/x64: $matched vector-targets match, none differs, the rest refused for a given setting"
else
	not_ok "impl_kernel.so on 1809/x64: no mismatch" "rc $rc, $matched matched; ${bad:-}${refused:-}"
fi

# twin area: the function every mismatch must be in, and a vector it must fail
twin() {
	run --backend "dl:$dir/impl_kernel_bug_$1.so" --target 1809/x64 ${4:-}
	outside=$(mismatches | grep -v -E "step [0-9]+ $2:" | head -3)
	if [ "$rc" -eq 1 ] && mismatches | grep -q "^[a-z]*-mismatch *$3 on 1809/x64 " && [ -z "$outside" ]; then
		ok "the $1 twin is caught (exit 1, $3), in $2 only"
	else
		not_ok "the $1 twin is caught (exit 1, $3), in $2 only" "rc $rc; outside: ${outside:-none}"
	fi
}
twin interval '(Nt|Zw)SetIntervalProfile' set-interval/privilege-threshold
twin create '(Nt|Zw)CreateProfile' create/capacity-quarter-bucket-slack
twin start '(Nt|Zw)StartProfile' start-stop/start-twice

sed -e 's/^\(  flags .*\) model-only/\1/' -e 's/^  flags   model-only$/  flags   documented/' \
	"$NTPROF_SOURCE_ROOT/fixtures/profile/counting.vec" >"$tmp/counting.vec"
run --backend "dl:$dir/impl_kernel.so" --target 1809/x64 "$tmp/counting.vec"
if [ "$rc" -eq 0 ] && [ -z "$(mismatches)" ] && grep -q '^match  *counting/end-of-region on' "$tmp/out"; then
	ok "impl_kernel.so matches the counting vectors once asked them (counting.vec less model-only)"
else
	not_ok "impl_kernel.so matches the counting vectors once asked them" "rc $rc"
fi
twin count 'Interrupt' counting/end-of-region "$tmp/counting.vec"

glue=$(sed -n '/^\/\* =* the glue/,$p' "$src" | grep -c -v -E '^[[:space:]]*(/?\*.*)?$')
if [ "$glue" -gt 0 ] && [ "$glue" -le 150 ]; then
	ok "the glue is $glue lines of code (at most 150)"
else
	not_ok "the glue is $glue lines of code (at most 150)" "count the part below the glue line of $src"
fi

[ "$failed" -eq 0 ] || exit 1
exit 0
