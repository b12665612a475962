#!/bin/sh
# SPDX-License-Identifier: MIT
# Two builds of one commit in two directories give the same ntprof, byte for
# byte: the tree's path is neither compiled in (ntprof finds its tree at run
# time) nor in the debug information (NP_PREFIX_MAP). The fail twin builds
# the second copy without the prefix map: its ntprof must differ and hold
# the copy's path, which shows that cmp and the path check can fail.
# Each copy's ntprof must still find its own tree with no environment.
#
# Environment: NTPROF_SOURCE_ROOT (the repository); needs make and cc.
# Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-repro.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# The make that runs this script (make check) must not steer the ones below.
unset MAKEFLAGS MFLAGS MAKELEVEL VARIANT

echo "1..5"

# Two copies at paths of different lengths, build/ and .git left out.
a=$tmp/a b=$tmp/second-copy/of-the-tree
mkdir -p "$a" "$b"
(cd "$root" && tar --exclude=./build --exclude=./.git --exclude=./config.mak -cf - .) >"$tmp/tree.tar"
tar -C "$a" -xf "$tmp/tree.tar"
tar -C "$b" -xf "$tmp/tree.tar"

built=ok
for d in "$a" "$b"; do
	make -C "$d" -j2 build/ntprof >"$d.log" 2>&1 || built="$d: $(tail -5 "$d.log")"
done
check "two copies build" "$built"
check "their ntprof binaries are the same bytes" "$(cmp "$a/build/ntprof" "$b/build/ntprof" 2>&1 && echo ok)"

# Each finds its own tree from where the executable is, from anywhere.
# (SPEC.md is read at run time: marking the copy's shows which tree was read.
# The rule is spelled apart so that the rule index does not take this script
# for a test of it.)
rule=$(printf '%s-%s' SI 1)
sed -i "s/^### $rule .*/&, as read from the copy/" "$b/SPEC.md"
out=$(cd / && env -u NTPROF_ROOT -u NTPROF_SOURCE_ROOT "$b/build/ntprof" explain "$rule" 2>&1 | head -1)
check "the copy's ntprof finds its tree from its own path" \
	"$(case $out in "### $rule"*', as read from the copy') echo ok ;; *) echo "got: $out" ;; esac)"

# The fail twin: without the prefix map, the path is in the binary.
make -C "$b" -j2 build/ntprof NP_PREFIX_MAP= >"$b.twin.log" 2>&1
if cmp -s "$a/build/ntprof" "$b/build/ntprof"; then
	check "without the prefix map the binaries differ (the check can fail)" "they are the same"
else
	check "without the prefix map the binaries differ (the check can fail)" ok
fi
if grep -q -F "$b" "$b/build/ntprof" && ! grep -q -F "$a" "$a/build/ntprof"; then
	check "and the twin holds its tree's path, the reproducible one none" ok
else
	check "and the twin holds its tree's path, the reproducible one none" "path check failed"
fi

[ "$failed" -eq 0 ] || exit 1
exit 0
