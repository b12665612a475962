#!/bin/sh
# SPDX-License-Identifier: MIT
# A rule named in code is a value of ntprof/rule.h: NP_RULE(SI_1) compiles,
# and a misspelt or unknown ID, NP_RULE(SI_99), does not (the twin).
#
# Environment: NTPROF_SOURCE_ROOT (the repository); needs cc. Prints TAP;
# exits 1 when any check fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-ruleids.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

compiles() {
	printf '#include "ntprof/rule.h"\nint main(void) { return NP_RULE(%s) == NP_RULE_NONE; }\n' "$1" \
		>"$tmp/use.c"
	${CC:-cc} -std=c11 -Wall -Werror -I"$root/model/include" -c -o "$tmp/use.o" "$tmp/use.c" 2>"$tmp/err"
}

. "$root/conformance/cli/tap.sh"
failure_detail() {   # the compiler's errors, after a failure
	sed 's/^/#   err: /' "$tmp/err" | head -5
}

if compiles SI_1; then ok "NP_RULE(SI_1) compiles"; else not_ok "NP_RULE(SI_1) compiles"; fi
if compiles SI_99; then
	not_ok "NP_RULE(SI_99) does not compile"
elif grep -q 'NP_RULE_SI_99' "$tmp/err"; then
	ok "NP_RULE(SI_99) does not compile"
else
	not_ok "NP_RULE(SI_99) does not compile" "it fails, but not on the ID"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
