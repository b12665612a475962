#!/bin/sh
# SPDX-License-Identifier: MIT
# The libFuzzer fuzzers (conformance/fuzz/fuzz_*.c) over their seed corpora only:
# every seed, and every regression input of a fixed finding, runs once
# under ASan and UBSan and must pass the fuzzer's checks. `make fuzz` is the
# long run; this is the fast replay make check does.
#
# Environment: NTPROF_SOURCE_ROOT (the repository), NTPROF_FUZZ_DIR (where the
# fuzzers are; default: the repository's build/fuzz/conformance/fuzz, which
# `make check` builds with `make VARIANT=fuzz fuzzers`). Prints TAP.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
dir=${NTPROF_FUZZ_DIR:-$root/build/fuzz/conformance/fuzz}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$root/conformance/cli/tap.sh"
# one fuzzer per seed directory
names=$(cd "$root/conformance/fuzz" && for d in */; do printf '%s ' "${d%/}"; done)
for name in $names; do
	bin=$dir/fuzz_$name
	seeds="$root/conformance/fuzz/$name $(sed -n "s|^$name ||p" "$root/conformance/fuzz/SEEDS" |
		tr ' ' '\n' | sed "s|^|$root/|" | tr '\n' ' ')"
	# shellcheck disable=SC2086 # the seed directories are words
	files=$(find $seeds -type f | sort)
	count=$(echo "$files" | grep -c .)
	if [ ! -x "$bin" ]; then
		not_ok "fuzz_$name over its corpus" "no $bin: build it with make VARIANT=fuzz fuzzers"
		continue
	fi
	if [ "$count" -lt 5 ]; then
		not_ok "fuzz_$name over its corpus" "only $count seeds in $seeds"
		continue
	fi
	# each file runs once; a crash, a sanitizer report or a broken check
	# stops the fuzzer with a nonzero status
	# shellcheck disable=SC2086 # one file a word (the names have no blanks)
	"$bin" -runs=1 -artifact_prefix="$tmp/" $files >"$tmp/$name.log" 2>&1
	rc=$?
	ran=$(grep -c '^Executed ' "$tmp/$name.log")
	if [ "$rc" -ne 0 ] || [ "$ran" -ne "$count" ]; then
		not_ok "fuzz_$name over its corpus" "exit $rc, $ran of $count seeds ran; the end of its output:"
		tail -n 30 "$tmp/$name.log" | sed 's/^/#   /'
	else
		ok "fuzz_$name: $count seeds ran clean"
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
