#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/embed-fixtures.sh, which compiles the fixtures into the Windows exe:
# every byte of every *.vec survives (NUL, quotes, backslashes, trigraphs,
# bytes above 0x7F, no final newline), names with spaces too, other files are
# left out, the order is the loader's (a directory's files where its name
# sorts), and the output is the same byte for byte when run twice.
#
# Environment: NTPROF_SOURCE_ROOT (the repository); needs cc. Prints TAP;
# exits 1 when any check fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
gen=$root/tools/embed-fixtures.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-embed.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

echo "1..5"

# A tree whose order tests the loader's rule: a/ (a directory) before a.vec,
# since the loader compares "a" with "a.vec"; "b c.vec" has a space.
t=$tmp/tree
mkdir -p "$t/fixtures/a" "$t/fixtures/z"
printf 'all\000bytes"\\??=\r\n' >"$t/fixtures/a/x.vec"
awk 'BEGIN { for (i = 0; i < 256; i++) printf "%c", i }' >"$t/fixtures/a.vec"
printf 'no final newline' >"$t/fixtures/b c.vec"
: >"$t/fixtures/z/empty.vec"
echo 'not a vector file' >"$t/fixtures/README.md"

if "$gen" "$t" "$tmp/one.c" 2>"$tmp/err"; then
	check "the generator runs" ok
else
	check "the generator runs" "$(cat "$tmp/err")"
fi

# A program that prints every entry: its name, a newline, its bytes.
cat >"$tmp/dump.c" <<'EOF'
#include <stdio.h>
#include "win/fixtures_embedded.h"
int main(void)
{
	for (unsigned i = 0; i < np_embedded_fixture_count; i++) {
		const np_embedded_file *f = &np_embedded_fixtures[i];
		printf("%s\n", f->path);
		fwrite(f->text, 1, f->len, stdout);
		if (f->text[f->len] != '\0')
			return 1;
	}
	return np_embedded_fixtures[np_embedded_fixture_count].path != NULL;
}
EOF
if cc -std=c11 -Wall -Wextra -Werror -I"$root/harness" -o "$tmp/dump" "$tmp/dump.c" "$tmp/one.c" \
	2>"$tmp/err" && "$tmp/dump" >"$tmp/got"; then
	check "the generated C compiles warning-free and its table ends in a zero entry" ok
else
	check "the generated C compiles warning-free and its table ends in a zero entry" "$(cat "$tmp/err")"
fi

# What the table must hold, in this order.
: >"$tmp/want"
for f in fixtures/a/x.vec fixtures/a.vec "fixtures/b c.vec" fixtures/z/empty.vec; do
	printf '%s\n' "$f" >>"$tmp/want"
	cat "$t/$f" >>"$tmp/want"
done
if cmp -s "$tmp/got" "$tmp/want"; then
	check "every byte and name survives, in the loader's order, *.vec only" ok
else
	check "every byte and name survives, in the loader's order, *.vec only" \
		"got $(od -c "$tmp/got" | head -5 | tr '\n' ' ')"
fi

"$gen" "$t" "$tmp/two.c" 2>/dev/null
if cmp -s "$tmp/one.c" "$tmp/two.c"; then
	check "the output is deterministic" ok
else
	check "the output is deterministic" "two runs differ"
fi

mkdir -p "$tmp/none/fixtures"
if "$gen" "$tmp/none" "$tmp/none.c" 2>"$tmp/err"; then
	check "no *.vec at all is an error" "the generator succeeded"
elif [ -e "$tmp/none.c" ]; then
	check "no *.vec at all is an error" "it left $tmp/none.c behind"
else
	check "no *.vec at all is an error" ok
fi

[ "$failed" -eq 0 ]
