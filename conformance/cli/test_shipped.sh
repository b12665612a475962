#!/bin/sh
# SPDX-License-Identifier: MIT
# What ships holds no test-only code: no function that the tests' own
# objects define (conformance/schema/'s JSON Schema engine, linked into the
# test programs only) is in ntprof, nor in ntprof.exe when it is built; and
# nor are the helpers that moved from the harness to the tests (np_contrast,
# np_step_arg). The twin: the same look at a test program, which links that
# code, must find it.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
build=$(dirname "$NTPROF_BIN")
moved="np_contrast np_step_arg"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-shipped.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# The global functions of the tests' own objects, one a line, sorted.
for o in "$build"/conformance/schema/*.o; do
	case $o in */json_schema_check.o) continue ;; esac
	nm --defined-only -g "$o" | awk '$2 == "T" { print $3 }'
done > "$tmp/list"
printf '%s\n' $moved >> "$tmp/list"
sort -u "$tmp/list" > "$tmp/test-only"
count=$(wc -l < "$tmp/test-only")

# found NM BINARY: the test-only names BINARY defines, one a line (MinGW's
# i686 names carry a leading underscore).
found() {
	"$1" --defined-only "$2" | awk '{ sub(/^_/, "", $3); print $3 }' | sort -u |
		comm -12 - "$tmp/test-only"
}

if ! grep -qx np_json_schema_check "$tmp/test-only"; then
	not_ok "the tests' own objects define the schema engine" "$count names:" "$(head -5 "$tmp/test-only")"
fi

if [ -n "$(found nm "$NTPROF_BIN" | tee "$tmp/ntprof")" ]; then
	not_ok "ntprof defines none of the $count test-only functions" "$(head -5 "$tmp/ntprof")"
else
	ok "ntprof defines none of the $count test-only functions"
fi

for arch in x86_64 i686; do
	exe=$build/win/$arch/ntprof.exe
	if [ ! -f "$exe" ] || ! command -v "$arch-w64-mingw32-nm" > /dev/null; then
		ok "# SKIP $arch ntprof.exe not built (make windows)"
	elif [ -n "$(found "$arch-w64-mingw32-nm" "$exe" | tee "$tmp/exe")" ]; then
		not_ok "the $arch ntprof.exe defines none of the test-only functions" "$(head -5 "$tmp/exe")"
	else
		ok "the $arch ntprof.exe defines none of the test-only functions"
	fi
done

# the twin: a test program links the schema engine, and the look finds it
twin=$build/conformance/harness/test_json_schema
if found nm "$twin" | grep -qx np_json_schema_check; then
	ok "a test program's schema engine is found (fail twin)"
else
	not_ok "the look did not find the schema engine in $twin (fail twin)"
fi

echo "1..$n"
exit $failed
