#!/bin/sh
# SPDX-License-Identifier: MIT
# golden.sh ROOT NTPROF SUMS [--record OUTDIR]: the outputs of ntprof's
# commands, for refactors that must leave behaviour unchanged.
#
# Runs a fixed list of commands (run in every format, matrix in every format,
# diff of five version pairs, explore with its default seed, compare, explain
# --check, trace, versions, syscalls, every `call` example of
# docs/compare-versions.md, and a few
# usage errors) from ROOT and reduces each one's stdout, stderr and exit
# status to one sha256 line. Without --record it compares those lines with
# SUMS and prints each command whose output changed; exit 0 when none did,
# 1 when one did, 2 for bad arguments. With --record it writes the lines to
# SUMS (atomically) and every full output to OUTDIR, so that a changed output
# can be diffed against a recording made at an older commit:
#   git stash; make; tools/golden.sh . build/ntprof /tmp/old.sums --record /tmp/old
#   git stash pop; make; tools/golden.sh . build/ntprof /tmp/new.sums --record /tmp/new
#   diff -r /tmp/old /tmp/new
# Paths under ROOT are written as @ROOT@, SOURCE_DATE_EPOCH fixes the JSON
# reports' timestamp, and the explorer's timing line
# (stderr) is left out, so the sums do not depend on where or how fast it runs;
# in `trace` and `explain`, the code and tests citing a rule keep their file
# names but not their line numbers, which every edit of such a file moves.
set -u

usage() { echo "usage: golden.sh ROOT NTPROF SUMS [--record OUTDIR]" >&2; exit 2; }
[ $# -eq 3 ] || [ $# -eq 5 ] || usage
root=$1 ntprof=$2 sums=$3 record=
if [ $# -eq 5 ]; then
	[ "$4" = --record ] || usage
	record=$5
fi
[ -d "$root/fixtures" ] || { echo "golden.sh: ROOT: no fixtures/ in '$root'" >&2; exit 2; }
[ -x "$ntprof" ] || { echo "golden.sh: NTPROF: '$ntprof' is not an executable" >&2; exit 2; }
[ -n "$record" ] || [ -r "$sums" ] || { echo "golden.sh: SUMS: cannot read '$sums'" >&2; exit 2; }
case $ntprof in /*) ;; *) ntprof=$(pwd)/$ntprof ;; esac
# JSON reports carry a timestamp: SOURCE_DATE_EPOCH (the reproducible-builds
# convention, https://reproducible-builds.org/specs/source-date-epoch/) pins
# it, so that the sums do not depend on when the commands run.
SOURCE_DATE_EPOCH=1767225600   # 2026-01-01T00:00:00Z
export SOURCE_DATE_EPOCH
root=$(cd "$root" && pwd)

work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
now=$work/now.sums
: > "$now"

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

# one NAME CMD...: runs CMD in ROOT (with ntprof for N) and records the sum
# of its normalised stdout, stderr and status under NAME. Files the command
# writes into $work/out are part of its output too.
one() {
	name=$1; shift
	rm -rf "$work/out"; mkdir "$work/out"
	(cd "$root" && "$@") > "$work/stdout" 2> "$work/stderr"
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
	} | sed -e "s|$work|@WORK@|g" -e "s|$root|@ROOT@|g" | unlined "$name" > "$work/normal"
	printf '%s %s\n' "$(sha256sum < "$work/normal" | cut -d' ' -f1)" "$name" >> "$now"
	if [ -n "$record" ]; then
		cp "$work/normal" "$record/$name.out"
	fi
}
N=$ntprof
O=$work/out

[ -z "$record" ] || mkdir -p "$record" || exit 2

for f in text json tap junit; do
	one "run-$f" "$N" run --format "$f"
done
one run-verbose "$N" run --verbose --target 6.1 fixtures/interval
one run-target-json "$N" run --format json --target 1809/x64 fixtures/interval/query-interval.vec
one run-reference "$N" run --reference model --given K-HAL-CLAMP=store fixtures/interval
for f in text markdown html; do
	one "matrix-$f" "$N" matrix --format "$f"
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
"$N" run --format json --target 6.1 --output "$work/keep/a.json" "$root/fixtures/interval" >/dev/null
"$N" run --format json --target 6.2 --output "$work/keep/b.json" "$root/fixtures/interval" >/dev/null
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

if [ -n "$record" ]; then
	cp "$now" "$sums.tmp" && mv "$sums.tmp" "$sums" || exit 2
	echo "golden.sh: $(wc -l < "$now") outputs recorded in $sums and $record/"
	exit 0
fi
if cmp -s "$now" "$sums"; then
	echo "golden.sh: $(wc -l < "$now") outputs unchanged"
	exit 0
fi
echo "golden.sh: outputs that changed (see the comment at the top of tools/golden.sh to diff them):"
diff "$sums" "$now" | sed -n 's/^> [0-9a-f]* /  /p' | sort -u
diff "$sums" "$now" | grep -q '^< ' && diff "$sums" "$now" | sed -n 's/^< [0-9a-f]* /  /p' |
	sort -u | while read -r n; do grep -q " $n\$" "$now" || echo "  $n (no longer run)"; done
exit 1
