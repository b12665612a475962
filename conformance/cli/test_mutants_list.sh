#!/bin/sh
# SPDX-License-Identifier: MIT
# The two lists of `make mutants`, the equivalent mutants
# (conformance/data/mutants-equivalent.txt) and the untestable ones
# (conformance/data/mutants-untestable.txt), against the mutants
# tools/mutants-gen.awk makes of model/ as it is now: an edit that changes
# a listed mutant fails make check at once, not at the next long
# `make mutants`. Nothing is built: this is tools/mutants.sh with
# MUTANTS_CHECK_ONLY=1. It is also shown to fail, on copies of the lists
# with an entry anchored on other text (in either list), an entry's
# mutation changed, an entry naming no file, and an ID in both lists. IDs
# are keyed by the mutated line's text: on a copy of model/ with a line
# inserted above a listed mutant, the lists still hold; with that mutant's
# own line edited, its entry is stale.
#
# Environment: NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
list=$root/conformance/data/mutants-equivalent.txt
untestable=$root/conformance/data/mutants-untestable.txt

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-mutlist.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
# check DESCRIPTION RC EQUIVALENCE-FILE UNTESTABLE-FILE [LINE]: exit status
# RC, and LINE (a fixed string) in what it printed.
check() {
	MUTANTS_CHECK_ONLY=1 MUTANTS_EQUIVALENT=$3 MUTANTS_UNTESTABLE=$4 "$root/tools/mutants.sh" \
		"$root" "$tmp/build" "$tmp/out" >"$tmp/said" 2>&1
	rc=$?
	why=
	[ "$rc" -eq "$2" ] || why="want exit status $2, got $rc"
	[ $# -lt 5 ] || grep -q -F -e "$5" "$tmp/said" || why="$why; want: $5"
	if [ -z "$why" ]; then
		ok "$1"
	else
		not_ok "$1: $why"
		sed 's/^/# /' "$tmp/said"
	fi
}
# has_entries FILE: a TAP line saying whether FILE holds an entry.
has_entries() {
	if [ -s "$1" ] && grep -q -v '^#' "$1"; then
		ok "$1 has entries"
	else
		not_ok "no entries in $1"
	fi
}
# move FILE: FILE with its first entry anchored on a text no line has.
move() {
	awk -F ' [|] ' 'BEGIN { OFS = " | " }
		!/^#/ && !done { split($1, a, /[:.]/); $1 = a[1] ":00000000." a[3]; done = 1 } 1' "$1"
}

echo "1..12"
check "every entry of both lists names a mutant of model/ with its mutation" 0 "$list" "$untestable" \
	" 0 stale"
has_entries "$list"
has_entries "$untestable"

# Stale entries, planted together in copies of the lists, each in an entry
# of its own so that none can hide another: each is reported by its own
# line, and counted once. In the equivalence list: the first entry anchored
# on a text no line has, the second with the mutation of another, an entry
# naming no model file; in the untestable list: its first entry anchored
# elsewhere, and the equivalence list's third entry, an ID in both lists.
entry() { # entry FILE N: the ID of FILE's Nth entry
	grep -v '^#' "$1" | sed -n "$2{s/ .*//p;q}"
}
{
	move "$list" | awk -F ' [|] ' 'BEGIN { OFS = " | " } !/^#/ && ++e == 2 { $2 = $2 " twice" } 1'
	printf 'nosuchfile:1.1 | x | y\n'
} >"$tmp/stale-equivalent"
{ move "$untestable"; grep -v '^#' "$list" | sed -n 3p; } >"$tmp/stale-untestable"
MUTANTS_CHECK_ONLY=1 MUTANTS_EQUIVALENT=$tmp/stale-equivalent MUTANTS_UNTESTABLE=$tmp/stale-untestable \
	"$root/tools/mutants.sh" "$root" "$tmp/build" "$tmp/out" >"$tmp/stale-said" 2>&1
stale_rc=$?
# stale DESCRIPTION LINE: that run exited 1 and printed LINE (a fixed string).
stale() {
	if [ "$stale_rc" -eq 1 ] && grep -q -F -e "$2" "$tmp/stale-said"; then
		ok "$1"
	else
		not_ok "$1: want exit status 1 (got $stale_rc) and: $2"
		sed 's/^/# /' "$tmp/stale-said"
	fi
}
stale "an entry anchored on another text is stale" \
	"$tmp/stale-equivalent: $(entry "$tmp/stale-equivalent" 1): no such mutant (its line changed?)"
stale "an untestable entry anchored on another text is stale" \
	"$tmp/stale-untestable: $(entry "$tmp/stale-untestable" 1): no such mutant"
stale "an entry whose mutation is not its ID's is stale" \
	"$(entry "$list" 2): the mutant is now"
stale "an entry naming no model file is stale" "nosuchfile:1.1: no such mutant"
stale "an ID in both lists is stale" \
	"$tmp/stale-untestable: $(entry "$list" 3): also listed in $tmp/stale-equivalent"
stale "each stale entry is counted once" ", 5 stale"

# A copy of the tree whose model/ the lists are checked against: the first
# entry's file, with a line inserted above its mutant, then with the
# mutant's own line edited.
mkdir "$tmp/tree"
cp -R "$root/model" "$tmp/tree/model"
ln -s "$root/tools" "$tmp/tree/tools"
ln -s "$root/conformance" "$tmp/tree/conformance"
first=$(grep -v -m1 '^#' "$list" | cut -d' ' -f1)   # FILE:ANCHOR.N
base=${first%%:*} anchor=${first#*:}
anchor=${anchor%.*}
src=model/$base.c
[ -f "$root/$src" ] || src=model/include/ntprof/$base.h
at=$(awk -v versions= -f "$root/tools/mutants-gen.awk" "$root/$src" | awk -F '\t' -v a="$anchor" '$3 == a { print $2; exit }')
# check_tree DESCRIPTION RC [LINE]: check against the copy's model/.
check_tree() {
	MUTANTS_CHECK_ONLY=1 MUTANTS_EQUIVALENT=$list MUTANTS_UNTESTABLE=$untestable "$root/tools/mutants.sh" \
		"$tmp/tree" "$tmp/build" "$tmp/out" >"$tmp/said" 2>&1
	rc=$?
	why=
	[ -n "$at" ] || why="no line of $src has the anchor of $first"
	[ "$rc" -eq "$2" ] || why="$why; want exit status $2, got $rc"
	[ $# -lt 3 ] || grep -q -F -e "$3" "$tmp/said" || why="$why; want: $3"
	if [ -z "$why" ]; then
		ok "$1"
	else
		not_ok "$1: $why"
		sed 's/^/# /' "$tmp/said"
	fi
}
sed "${at:-1}i\\
/* a line inserted above a listed mutant */" "$root/$src" >"$tmp/tree/$src"
check_tree "a line inserted above $first (line ${at:-?} of $src) leaves every entry valid" 0 " 0 stale"
sed "${at:-1}s|\$| /* the listed line edited */|" "$root/$src" >"$tmp/tree/$src"
check_tree "twin: with the line of $first edited, its entry is stale" 1 "$first: no such mutant"

if [ ! -e "$tmp/out" ] && [ ! -e "$tmp/build" ]; then
	ok "nothing built or written"
else
	not_ok "nothing built or written" "the check wrote $tmp/out or $tmp/build"
fi
[ "$failed" -eq 0 ]
