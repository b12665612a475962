# SPDX-License-Identifier: MIT
# The TAP helpers of the scripts in conformance/cli, sourced by each after
# it has checked its environment:
#   . "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
# (not a test itself: the Makefile leaves it out of the scripts Kyua runs).
#
#   ok DESC                 "ok N - DESC"
#   not_ok DESC [WHY...]    "not ok N - DESC", then each WHY, line by line,
#                           as a "#   " comment, then what the script's own
#                           failure_detail prints, when it defines one (the
#                           output of the command that failed); counts a
#                           failure in $failed
#   check DESC RESULT       ok when RESULT is "ok", else not_ok DESC RESULT
#   skip DESC WHY           "ok N - DESC # SKIP WHY": a check that cannot
#                           tell here (TAP counts it as passed)
#   show FILE               FILE's first 40 lines as comments
# $n counts the tests so far, for a plan printed last ("1..$n").

n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	for why in "$@"; do
		printf '%s\n' "$why" | sed 's/^/#   /'
	done
	if command -v failure_detail > /dev/null; then
		failure_detail
	fi
}

check() {
	if [ "$2" = ok ]; then
		ok "$1"
	else
		not_ok "$1" "$2"
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

show() {
	sed -n '1,40s/^/#   /p' "$1"
}
