#!/bin/sh
# SPDX-License-Identifier: MIT
# Which suites run each test: conformance/trees.txt, read by tools/trees.sh.
#   - the list as it is reads clean for every suite, and the plain tree's
#     Kyuafiles are what it says: a script of conformance/cli is in the
#     suite (cli/Kyuafile) and in make test's (cli/Kyuafile.test) exactly
#     when trees.sh does not leave it out of plain, or of test;
#   - twins: a list naming a test that does not exist, a suite that does
#     not exist, a test twice, or a line without its why is refused with
#     exit 2 and LIST:LINE, and so is an unknown suite asked for;
#   - each script that names a dl: object, an example's object, the
#     benchmark or the schema checker is in the Makefile's list of their
#     users (DL_USERS...), which decides the trees that build them; twin: a
#     made-up script naming a dl: object, not in the list, is reported.
#
# Environment: NTPROF_SOURCE_ROOT (the repository), NTPROF_BIN (the plain
# tree's ntprof, whose folder holds the Kyuafiles). Prints TAP; exits 1 when
# any check fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
build=$(dirname "${NTPROF_BIN:-$root/build/ntprof}")
trees=$root/tools/trees.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-trees.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

for suite in plain test asan cov; do
	if "$trees" "$root/conformance/trees.txt" "$suite" >"$tmp/$suite.out" 2>"$tmp/err"; then
		ok "conformance/trees.txt reads clean for $suite ($(wc -l <"$tmp/$suite.out") tests left out)"
	else
		not_ok "conformance/trees.txt reads clean for $suite" "$(cat "$tmp/err")"
	fi
done

# in_kyuafile FILE NAME: the Kyuafile lists the program NAME
in_kyuafile() {
	grep -q "name='$2'" "$1"
}
# agrees SUITE KYUAFILE: every script is in KYUAFILE unless SUITE leaves it out
agrees() {
	bad=
	for path in "$root"/conformance/cli/test_*.sh; do
		name=${path##*/}
		if grep -qx "cli/$name" "$tmp/$1.out"; then want=no; else want=yes; fi
		if in_kyuafile "$2" "$name"; then have=yes; else have=no; fi
		[ "$want" = "$have" ] || bad="$bad $name (listed: $have, want: $want)"
	done
	[ -f "$2" ] || bad="no $2"
	echo "${bad:-ok}"
}
check "the plain tree's suite runs the scripts trees.txt gives plain" \
	"$(agrees plain "$build/conformance/cli/Kyuafile")"
check "make test runs the scripts trees.txt gives test" \
	"$(agrees test "$build/conformance/cli/Kyuafile.test")"

# unlisted DIR MAKEFILE: the scripts of DIR that name a thing the Makefile
# builds in a tree only for the scripts of its KIND_USERS list (a dl:
# object, an example's object, the benchmark, the schema checker) but are
# not in that list: a suite with such a script would lack the thing.
unlisted() {
	bad=
	for kind_pattern in 'DL:dl_[a-z_${}]*\.so' 'EXAMPLE:impl_[a-z_${}]*\.so' 'BENCH:bench/bench' \
		'SCHEMA:json_schema_check'; do
		kind=${kind_pattern%%:*} pattern=${kind_pattern#*:}
		users=$(sed -n "s/^${kind}_USERS *= *//p" "$2")
		for path in $(grep -l "$pattern" "$1"/test_*.sh); do
			# this script names them as patterns, above
			case " $users test_trees.sh " in *" ${path##*/} "*) ;; *) bad="$bad ${path##*/} ($kind)" ;; esac
		done
	done
	echo "${bad:-ok}"
}
check "each script naming a dl: object, an example, the benchmark or the schema checker is its user in the Makefile" \
	"$(unlisted "$root/conformance/cli" "$root/Makefile")"
mkdir "$tmp/cli"
printf '#!/bin/sh\n"$build/conformance/dl/dl_faithful.so"\n' >"$tmp/cli/test_new.sh"
out=$(unlisted "$tmp/cli" "$root/Makefile")
check "twin: a script naming a dl: object that is not among its users is reported" \
	"$([ "$out" = " test_new.sh (DL)" ] && echo ok || echo "got: $out")"

# refused LINE-TEXT WHAT: a list of that one line (after a comment) is
# refused for suite plain with exit 2, naming LIST:2 and WHAT
refused() {
	mkdir -p "$tmp/list/cli"
	: >"$tmp/list/cli/test_here.sh"
	printf '# a list\n%s\n' "$1" >"$tmp/list/trees.txt"
	"$trees" "$tmp/list/trees.txt" plain >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "trees.txt:2: .*$2" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "twin: refused, exit 2, trees.txt:2 names $2"
	else
		not_ok "twin: a list line '$1' is refused naming $2" "exit $rc" "$(cat "$tmp/err" "$tmp/out")"
	fi
}
refused 'cli/test_gone.sh plain  no such script' 'test_gone.sh'
refused 'cli/test_here.sh plain,sanitize  a suite misspelt' 'unknown suite "sanitize"'
refused 'cli/test_here.sh plain' 'want TEST SUITES WHY'
printf 'cli/test_here.sh plain  once\ncli/test_here.sh asan  twice\n' >"$tmp/list/trees.txt"
"$trees" "$tmp/list/trees.txt" plain >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'trees.txt:2: cli/test_here.sh: listed twice' "$tmp/err"; then
	ok "twin: a test listed twice is refused, exit 2, naming the second line"
else
	not_ok "twin: a test listed twice is refused" "exit $rc" "$(cat "$tmp/err")"
fi
printf 'cli/test_here.sh plain  plain only\n' >"$tmp/list/trees.txt"
"$trees" "$tmp/list/trees.txt" asan >"$tmp/out" 2>"$tmp/err"
if [ "$(cat "$tmp/out")" = cli/test_here.sh ]; then
	ok "a test listed for plain only is left out of asan"
else
	not_ok "a test listed for plain only is left out of asan" "$(cat "$tmp/out" "$tmp/err")"
fi
"$trees" "$tmp/list/trees.txt" sanitize >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "unknown suite 'sanitize'" "$tmp/err"; then
	ok "twin: an unknown suite asked for is refused, exit 2"
else
	not_ok "twin: an unknown suite asked for is refused" "exit $rc" "$(cat "$tmp/err")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
