# SPDX-License-Identifier: MIT
# What the scripts that build and run an exported test share, sourced after
# tap.sh, with $tmp a scratch directory and $root the repository
# (not a test itself: the Makefile leaves it out of the scripts Kyua runs):
#   testlist NAME FILE     the test list Wine's makedep generates for a
#                          program of one test: the unit that compiles the
#                          harness (STANDALONE) and names func_NAME
#   build CC NAME.c EXE [TESTLIST]
#                          0 when it compiles warning-free at -O2 against the
#                          stand-in, reached as "wine/test.h" as in a Wine
#                          tree, the test file and the test list as two
#                          units (default $tmp/testlist.c, of `profile`,
#                          compiled once per compiler and kept beside it);
#                          the compiler's messages in $tmp/cc.err
#   summary FILE           the harness's last line, "NAME: N tests executed
#                          (T marked as todo, F failures), S skipped."

mkdir -p "$tmp/include/wine"
printf '#include "%s/conformance/win/wine_test_shim.h"\n' "$root" >"$tmp/include/wine/test.h"

testlist() {
	printf '#define STANDALONE\n#include "wine/test.h"\nextern void func_%s(void);\n' "$1" >"$2"
	printf 'const struct test winetest_testlist[] = { { "%s", func_%s }, { 0, 0 } };\n' "$1" "$1" >>"$2"
}
testlist profile "$tmp/testlist.c"

build() {
	build_list=${4:-$tmp/testlist.c}
	build_obj=$build_list.${1##*/}.o
	# the test list (the harness's bodies) compiled once per compiler: the
	# builds of a script share it
	if [ ! -e "$build_obj" ] || [ "$build_list" -nt "$build_obj" ]; then
		"$1" -std=c11 -Wall -Wextra -Werror -O2 -I"$tmp/include" -c -o "$build_obj" "$build_list" 2>"$tmp/cc.err" || return 1
	fi
	"$1" -std=c11 -Wall -Wextra -Werror -O2 -I"$tmp/include" -o "$3" "$2" "$build_obj" 2>"$tmp/cc.err"
}

summary() {
	tr -d '\r' <"$1" | grep 'tests executed' | tail -1
}
