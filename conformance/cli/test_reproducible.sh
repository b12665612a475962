#!/bin/sh
# SPDX-License-Identifier: MIT
# Two builds of one commit in two directories give the same ntprof, byte for
# byte: the tree's path is neither compiled in (ntprof finds its tree at run
# time) nor in the debug information (NP_PREFIX_MAP). The first build is the
# tree's own build/ntprof, when it is up to date and was built with the
# flags a copy gets (make check's plain tree is); otherwise a copy of the
# tree is built for it. The second is a copy at a path of another length.
# The fail twin rebuilds one object of the second copy without the prefix
# map: its ntprof must differ and hold the copy's path, which shows that cmp
# and the path check can fail (one object is enough for the path to get in).
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

# copy DIR: the tree, build/, .git and config.mak left out, at DIR.
(cd "$root" && tar --exclude=./build --exclude=./.git --exclude=./config.mak -cf - .) >"$tmp/tree.tar"
copy() {
	mkdir -p "$1" && tar -C "$1" -xf "$tmp/tree.tar"
}

# The second copy, at a path whose length differs from the tree's.
b=$tmp/second-copy/of-the-tree
[ ${#b} -ne ${#root} ] || b=$b-x
built=ok
copy "$b"
make -C "$b" -j2 build/ntprof >"$b.log" 2>&1 || built="$b: $(tail -5 "$b.log")"

# flags DIR: DIR's flags stamp with DIR's path taken out.
flags() {
	sed "s|$1|@TREE@|g" "$1/build/.flags" 2>/dev/null
}
# The first: the tree's own ntprof, if up to date (-o: the stamp is not
# remade, so -q asks about the sources alone) and built with the copy's
# flags; else a copy's.
a=$root
if ! [ -f "$root/build/ntprof" ] || [ "$(flags "$root")" != "$(flags "$b")" ] ||
	! make -C "$root" -q -o build/.flags build/ntprof >/dev/null 2>&1; then
	a=$tmp/a
	echo "# the tree's build/ntprof is missing, stale or of other flags: a copy is built instead"
	copy "$a"
	make -C "$a" -j2 build/ntprof >"$a.log" 2>&1 || built="$a: $(tail -5 "$a.log")"
fi
check "two builds of the tree" "$built"
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

# The fail twin: main.o rebuilt without the prefix map (-o: the flags stamp
# kept, so nothing else is rebuilt), and ntprof linked anew.
rm -f "$b/build/harness/cli/main.o"
make -C "$b" -o build/.flags build/ntprof NP_PREFIX_MAP= >"$b.twin.log" 2>&1
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
