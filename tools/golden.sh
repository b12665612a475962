#!/bin/sh
# SPDX-License-Identifier: MIT
# golden.sh ROOT NTPROF GOLDEN [--record]: the outputs of ntprof's commands,
# kept as text, for refactors that must leave behaviour unchanged.
#
# Runs a fixed list of commands (run in every format, matrix in every format,
# diff of five version pairs, explore with its default seed, compare, explain
# --check, trace, versions, syscalls, every `call` example of
# docs/compare-versions.md, and a few usage errors) and writes each one's
# stdout, stderr, exit status and the files it wrote to one text file,
# NAME.out. The commands run on frozen inputs: a tree whose fixtures/ is
# ROOT/conformance/data/golden-input/fixtures (a copy of fixtures/ as it was,
# .vec files only) and every other entry ROOT's own, so that a vector added
# to fixtures/ changes no output; run and matrix take two of those files, to
# keep the outputs small. Paths under that tree and ROOT are written as
# @ROOT@, SOURCE_DATE_EPOCH fixes the JSON reports' timestamp, and the
# explorer's timing line (stderr) is left out, so the outputs do not depend
# on where or how fast it runs; in `trace` and `explain`, the code and tests
# citing a rule keep their file names but not their line numbers, which
# every edit of such a file moves.
#
# Without --record it compares the outputs with GOLDEN/NAME.out, prints each
# one that changed with a unified diff (the first 40 lines of each) and
# exits 0 when none did, 1 when one did, 2 for bad arguments. With --record
# it replaces GOLDEN/*.out with the outputs (written whole first, so an
# interrupted recording leaves GOLDEN as it was). A change that means to
# alter an output records it in a commit of its own, after reading the diff:
#   tools/golden.sh . build/ntprof conformance/data/golden            # the diff
#   tools/golden.sh . build/ntprof conformance/data/golden --record   # then record
#   git diff conformance/data/golden                                  # what changed
# GOLDEN_SKIP, a list of names, leaves those outputs out, neither run nor
# compared (conformance/cli/test_golden.sh's twin skips the slowest); not
# with --record.
# To change the frozen inputs, copy fixtures/ anew (its .vec files) into
# conformance/data/golden-input/fixtures/ and record, in one commit.
set -u

usage() { echo "usage: golden.sh ROOT NTPROF GOLDEN [--record]" >&2; exit 2; }
[ $# -eq 3 ] || [ $# -eq 4 ] || usage
root=$1 ntprof=$2 golden=$3 record=
if [ $# -eq 4 ]; then
	[ "$4" = --record ] || usage
	record=yes
fi
frozen=$root/conformance/data/golden-input/fixtures
[ -d "$frozen" ] || { echo "golden.sh: ROOT: no conformance/data/golden-input/fixtures/ in '$root'" >&2; exit 2; }
[ -x "$ntprof" ] || { echo "golden.sh: NTPROF: '$ntprof' is not an executable" >&2; exit 2; }
[ -n "$record" ] || [ -d "$golden" ] || { echo "golden.sh: GOLDEN: no directory '$golden'" >&2; exit 2; }
skip=" ${GOLDEN_SKIP:-} "
[ -z "$record" ] || [ "$skip" = "  " ] || { echo "golden.sh: GOLDEN_SKIP and --record: a recording is whole" >&2; exit 2; }
case $ntprof in /*) ;; *) ntprof=$(pwd)/$ntprof ;; esac
# JSON reports carry a timestamp: SOURCE_DATE_EPOCH (the reproducible-builds
# convention, https://reproducible-builds.org/specs/source-date-epoch/) pins
# it, so that the outputs do not depend on when the commands run.
SOURCE_DATE_EPOCH=1767225600   # 2026-01-01T00:00:00Z
export SOURCE_DATE_EPOCH
root=$(cd "$root" && pwd)

work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/now"
# The tree the commands run in: ROOT's entries, but fixtures/ the frozen one.
tree=$work/tree
mkdir "$tree"
for e in "$root"/* "$root"/.[!.]*; do
	[ -e "$e" ] || continue
	case ${e##*/} in fixtures) ;; *) ln -s "$e" "$tree/${e##*/}" ;; esac
done
ln -s "$frozen" "$tree/fixtures"
# The commands that find a tree of their own (explain, trace, and run,
# matrix and diff without a path) find this one, not ROOT nor the tree of
# NTPROF's directory.
NTPROF_ROOT=$tree
export NTPROF_ROOT

# unlined NAME: where `trace` and `explain` cite a rule in code and tests,
# the files but not their lines, which any edit of a citing file moves
# (rules.html links each line: "file:<a href="../../file#L12">12</a>,...").
unlined() {
	case $1 in
	trace|explain-*)
		sed -e 's%<a href="\.\./\.\./\(model\|harness\|conformance\|bench\|tools\)/[A-Za-z0-9_/.]*#L[0-9]*">[0-9]*</a>,\{0,1\}%%g' \
		    -e 's#\(\(model\|harness\|conformance\|bench\|tools\)/[A-Za-z0-9_/.]*\):[0-9][0-9,]*#\1#g' ;;
	*)	cat ;;
	esac
}

# one NAME CMD...: runs CMD in the frozen tree (with ntprof for N) and
# writes its normalised stdout, stderr and status to NAME.out. Files the
# command writes into $work/out are part of its output too.
one() {
	name=$1; shift
	case $skip in *" $name "*) return ;; esac
	rm -rf "$work/out"; mkdir "$work/out"
	(cd "$tree" && "$@") > "$work/stdout" 2> "$work/stderr"
	status=$?
	{
		printf 'status %s\n--- stdout\n' "$status"
		cat "$work/stdout"
		printf -- '--- stderr\n'
		grep -v '^ntprof explore: [0-9]* combinations' "$work/stderr"
		for f in $(cd "$work/out" && find . -type f | LC_ALL=C sort); do
			printf -- '--- file %s\n' "$f"
			cat "$work/out/$f"
		done
	} | sed -e "s|$tree|@ROOT@|g" -e "s|$work|@WORK@|g" -e "s|$frozen|@ROOT@/fixtures|g" -e "s|$root|@ROOT@|g" |
		unlined "$name" > "$work/now/$name.out"
}
N=$ntprof
O=$work/out

# The two vector files of the runs and matrices in every format.
some="fixtures/interval/set-interval.vec fixtures/profile/situations.vec"

for f in text json tap junit; do
	# shellcheck disable=SC2086 # two files
	one "run-$f" "$N" run --format "$f" $some
done
one run-verbose "$N" run --verbose --target 6.1 fixtures/interval
one run-target-json "$N" run --format json --target 1809/x64 fixtures/interval/query-interval.vec
one run-reference "$N" run --reference model --given K-HAL-CLAMP=store fixtures/interval
for f in text markdown html; do
	# shellcheck disable=SC2086 # two files
	one "matrix-$f" "$N" matrix --format "$f" $some
done
one matrix-arch "$N" matrix --arch x86,wow64 fixtures/interval
for pair in "3.10 3.51" "4.0 4.0sp4" "6.1 6.2" "1607 1703" "4.0/x86 11-24H2/x64"; do
	# shellcheck disable=SC2086 # the pair is two words
	one "diff-$(echo "$pair" | tr ' /' '_-')" "$N" diff $pair
done
one explore "$N" explore
one explore-create "$N" explore --function NtCreateProfile --seed 7
one explore-against "$N" explore --function NtSetIntervalProfile --against model
mkdir -p "$work/keep"
"$N" run --format json --target 6.1 --output "$work/keep/a.json" "$tree/fixtures/interval" >/dev/null
"$N" run --format json --target 6.2 --output "$work/keep/b.json" "$tree/fixtures/interval" >/dev/null
one compare "$N" compare "$work/keep/a.json" "$work/keep/b.json"
one compare-markdown "$N" compare --format markdown --differences "$work/keep/a.json" "$work/keep/b.json"
one explain-check "$N" explain --check
one explain-si1 "$N" explain SI-1
one trace "$N" trace --output-dir "$O"
one versions "$N" versions
one syscalls "$N" syscalls
one call-1 "$N" call --target 6.2 --given privilege=off 'NtSetIntervalProfile Interval=10000 Source=ProfileTime'
one call-2 "$N" call --given privilege=on 'NtSetIntervalProfile Interval=1000' 'NtQueryIntervalProfile'
one call-3 "$N" call --target 6.2/x64 --given mode=kernel 'NtSetSystemInformation Allocate=1' \
	'NtSetSystemInformation Allocate=1'
one call-4 "$N" call --target 4.0/x86 \
	'NtCreateProfile Process=current ProfileBase=0x100 ProfileSize=0x1000 BucketSize=0 BufferSize=2'
one call-5 "$N" call --target 1803/x64 \
	'NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x1000 BucketSize=2 Buffer=>b BufferSize=0x1000' \
	'NtStartProfile ProfileHandle=h' 'Interrupt Pc=0x10000004' 'ReadBuffer Buffer=b Count=3' 'Interrupt Pc=0x10001000'
one usage-none "$N"
one usage-help "$N" --help
one usage-unknown "$N" bogus
one usage-run-format "$N" run --format bogus
one usage-call-given "$N" call --given nokey=1 'NtQueryIntervalProfile'
one usage-call-step "$N" call 'NtQueryIntervalProfile Bogus=1'
printf 'id: bad/one\nstep NtNoSuchCall\n' > "$work/keep/bad.vec"
one usage-bad-vector "$N" run "$work/keep/bad.vec"
one run-output "$N" run --format json --target 6.1 --output "$O/r.json" fixtures/interval

count=$(find "$work/now" -name "*.out" | wc -l)
if [ -n "$record" ]; then
	mkdir -p "$golden" && rm -rf "$golden.new" && cp -R "$work/now" "$golden.new" || exit 2
	rm -rf "$golden.old" && mv "$golden" "$golden.old" && mv "$golden.new" "$golden" && rm -rf "$golden.old" || exit 2
	echo "golden.sh: $count outputs recorded in $golden/"
	exit 0
fi
changed=0
for f in "$work/now"/*.out "$golden"/*.out; do
	name=${f##*/}
	[ -e "$f" ] || continue
	case $skip in *" ${name%.out} "*) continue ;; esac
	case $f in "$golden"/*) [ -e "$work/now/$name" ] || { echo "  ${name%.out} (no longer run)"; changed=1; }; continue ;; esac
	if [ ! -e "$golden/$name" ]; then
		echo "  ${name%.out} (new: not recorded)"
		changed=1
	elif ! cmp -s "$golden/$name" "$f"; then
		echo "  ${name%.out}"
		diff -u "$golden/$name" "$f" | sed -e '1,2d' -e 's/^/    /' | head -40
		changed=1
	fi
done
if [ "$changed" -eq 0 ]; then
	echo "golden.sh: $count outputs unchanged"
	exit 0
fi
echo "golden.sh: outputs that changed, above (record them with --record: see the top of tools/golden.sh)"
exit 1
