#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/impl_kernel.c, kernel-style code of the interval and profile calls
# of 1809/x64 on the kernel services (ntprof/kernel_services.h), run as a dl:
# object on the default fixtures:
#   - it matches every vector asked of it, with nothing differing, crashed,
#     refused or unanswered, and the counting vectors (Interrupt) are among
#     the matches;
#   - each twin with one planted bug is caught (exit 1) in its own area and
#     nowhere else: the interval (SI-1), create (CP-9), start (ST-2) and
#     counting (IN-3);
#   - its glue (the part below the "glue" line) stays within 150 lines.
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

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
failure_detail() {   # the command's output, after a failure
	sed 's/^/#   out: /' "$tmp/out" | head -20
	sed 's/^/#   err: /' "$tmp/err" | head -5
}
run() { "$NTPROF_BIN" run --verbose "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
mismatches() { grep -E '^(status|output)-mismatch' "$tmp/out"; }

echo "1..6"

run --backend "dl:$dir/impl_kernel.so" --target 1809/x64
bad=$(grep -E '^(status-mismatch|output-mismatch|crashed|timeout|unanswered|not-applicable) ' "$tmp/out" | head -3)
matched=$(grep -c '^match ' "$tmp/out")
counting=$(grep -c '^match  *counting/' "$tmp/out")
counting_asked=$(grep -E '^[a-z-]+  *counting/' "$tmp/out" | grep -c -v -E '^not-(required|implemented) ')
if [ "$rc" -eq 0 ] && [ -z "$bad" ] && [ "$counting" -gt 0 ] && [ "$counting" -eq "$counting_asked" ] &&
	grep -q '^match  *counting/end-of-region on 1809/x64 ' "$tmp/out"; then
	ok "impl_kernel.so on 1809/x64: $matched vector-targets match, $counting of them counting, none differs or is refused"
else
	not_ok "impl_kernel.so on 1809/x64: every vector asked matches, counting included" \
		"rc $rc, $matched matched, counting $counting of $counting_asked asked" "${bad:-}"
fi

# twin area: the steps every mismatch must be in, and a vector it must fail
twin() {
	run --backend "dl:$dir/impl_kernel_bug_$1.so" --target 1809/x64
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
twin count 'Interrupts?' counting/end-of-region

glue=$(sed -n '/^\/\* =* the glue/,$p' "$src" | grep -c -v -E '^[[:space:]]*(/?\*.*)?$')
if [ "$glue" -gt 0 ] && [ "$glue" -le 150 ]; then
	ok "the glue is $glue lines of code (at most 150)"
else
	not_ok "the glue is $glue lines of code (at most 150)" "count the part below the glue line of $src"
fi

[ "$failed" -eq 0 ] || exit 1
exit 0
