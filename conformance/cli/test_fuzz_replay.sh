#!/bin/sh
# SPDX-License-Identifier: MIT
# conformance/fuzz/replay.c, the main() make check's sanitizer tree links
# each fuzzer with to replay its corpus (test_fuzz_corpus.sh), on made-up
# fuzz targets built here with ASan and UBSan:
#   - a target that reads its input whole runs once per file named, each
#     followed by "Executed FILE", libFuzzer's options ignored, exit 0;
#   - twin: a target that reads one byte past its input is stopped by ASan
#     (the input sits in an allocation of exactly its size), nonzero exit;
#   - twin: a target that aborts on one input (a fuzzer's broken check)
#     fails the replay; a file that cannot be read is refused, exit 2,
#     naming it.
#
# Environment: NTPROF_SOURCE_ROOT (the repository); needs cc with ASan.
# Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-replay.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# build NAME BODY: a fuzz target whose body sees data and size
build() {
	printf '#include <stdint.h>\n#include <stddef.h>\n#include <stdlib.h>\n%s\n%s\n' \
		'int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);' \
		"int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { $2 }" >"$tmp/$1.c"
	${CC:-cc} -std=c11 -Wall -Wextra -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=all \
		-o "$tmp/$1" "$tmp/$1.c" "$root/conformance/fuzz/replay.c" 2>"$tmp/$1.err"
}

printf 'abc' >"$tmp/one"
: >"$tmp/empty"
printf 'xyz!' >"$tmp/bang"

if ! build whole 'volatile unsigned s = 0; for (size_t i = 0; i < size; i++) s += data[i]; (void)s; return 0;' ||
	! build past 'volatile uint8_t b = size > 0 ? data[size] : 0; (void)b; return 0;' ||
	! build aborts 'if (size > 0 && data[size - 1] == 0x21) abort(); return 0;'; then
	not_ok "the made-up targets build with replay.c" "$(cat "$tmp"/*.err)"
	echo "1..$n"
	exit 1
fi

ASAN_OPTIONS=detect_leaks=1
export ASAN_OPTIONS
"$tmp/whole" -runs=1 -artifact_prefix="$tmp/" "$tmp/one" "$tmp/empty" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && [ "$(grep -c '^Executed ' "$tmp/out")" -eq 2 ] &&
	grep -qx "Executed $tmp/one" "$tmp/out" && grep -qx "Executed $tmp/empty" "$tmp/out"; then
	ok "each file runs once, \"Executed FILE\" after each, options ignored, exit 0"
else
	not_ok "each file runs once, \"Executed FILE\" after each, exit 0" "exit $rc" "$(head -n 20 "$tmp/out")"
fi

"$tmp/past" "$tmp/one" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'heap-buffer-overflow' "$tmp/out" && ! grep -q '^Executed ' "$tmp/out"; then
	ok "twin: a read one byte past the input is ASan's heap-buffer-overflow (exit $rc)"
else
	not_ok "twin: a read one byte past the input stops the replay" "exit $rc" "$(head -n 20 "$tmp/out")"
fi

"$tmp/aborts" "$tmp/one" "$tmp/bang" "$tmp/empty" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && [ "$(grep -c '^Executed ' "$tmp/out")" -eq 1 ]; then
	ok "twin: an input that breaks a check stops the replay there (exit $rc, 1 file executed)"
else
	not_ok "twin: an input that breaks a check stops the replay" "exit $rc" "$(head -n 20 "$tmp/out")"
fi

"$tmp/whole" "$tmp/one" "$tmp/missing" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q "$tmp/missing: No such file or directory" "$tmp/out"; then
	ok "twin: a file that cannot be read is refused, exit 2, naming it"
else
	not_ok "twin: a file that cannot be read is refused, exit 2" "exit $rc" "$(head -n 20 "$tmp/out")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
