# SPDX-License-Identifier: MIT
# What the scripts that build and run an exported test share, sourced after
# tap.sh, with $tmp a scratch directory and $root the repository
# (not a test itself: the Makefile leaves it out of the scripts Kyua runs).
# They need `make export-test` of the plain tree (make check builds it):
# build/win/include/wine/test.h, which reaches the stand-in by the name a
# Wine tree uses, and build/win/ARCH/export-test/testlist.o, the test list
# of `profile` compiled once per architecture.
#   testlist NAME FILE     the test list Wine's makedep generates for a
#                          program of one test: the unit that compiles the
#                          harness (STANDALONE) and names func_NAME
#   build CC NAME.c EXE [TESTLIST.c]
#                          0 when NAME.c compiles warning-free at -O2
#                          against the stand-in (at $BUILD_O when set: the
#                          twins, whose build asserts nothing, at -O0),
#                          linked with the test list: `profile`'s of the
#                          build tree, or TESTLIST.c compiled once per
#                          compiler and kept beside it; the compiler's
#                          messages in $tmp/cc.err
#   summary FILE           the harness's last line, "NAME: N tests executed
#                          (T marked as todo, F failures), S skipped."

include=$root/build/win/include

testlist() {
	printf '#define STANDALONE\n#include "wine/test.h"\nextern void func_%s(void);\n' "$1" >"$2"
	printf 'const struct test winetest_testlist[] = { { "%s", func_%s }, { 0, 0 } };\n' "$1" "$1" >>"$2"
}

build() {
	build_arch=${1##*/}
	build_arch=${build_arch%%-*}
	build_obj=$root/build/win/$build_arch/export-test/testlist.o
	if [ -n "${4:-}" ]; then
		build_obj=$4.$build_arch.o
		if [ ! -e "$build_obj" ] || [ "$4" -nt "$build_obj" ]; then
			"$1" -std=c11 -Wall -Wextra -Werror -O2 -I"$include" -c -o "$build_obj" "$4" 2>"$tmp/cc.err" ||
				return 1
		fi
	elif [ ! -f "$build_obj" ]; then
		echo "$build_obj: no such file (make export-test builds it)" >"$tmp/cc.err"
		return 1
	fi
	"$1" -std=c11 -Wall -Wextra -Werror "${BUILD_O:--O2}" -I"$include" -o "$3" "$2" "$build_obj" 2>"$tmp/cc.err"
}

summary() {
	tr -d '\r' <"$1" | grep 'tests executed' | tail -1
}
