#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz.sh ROOT FUZZ_DIR SECONDS [NAME...]
#     Runs each libFuzzer fuzzer FUZZ_DIR/fuzz_NAME (default: all) for
#     SECONDS, two at a time (FUZZ_JOBS, a pool), from its seeds in
#     ROOT/conformance/fuzz/NAME/ and the directories conformance/fuzz/SEEDS
#     names (the malformed files of conformance/data/bad*/). What it learns goes to
#     FUZZ_DIR/corpus/NAME/ (kept between runs), a finding to
#     FUZZ_DIR/findings/NAME-*: add it to the seeds once fixed, as the
#     regression input `make check` replays. Prints one line per fuzzer:
#     executions, their rate and the findings; exits 1 when any was found.
#     FUZZ_RUNS=N stops each at N executions instead (SECONDS still bounds it).
set -u
root=$1 dir=$2 seconds=$3
shift 3
jobs=${FUZZ_JOBS:-2}

names=$*
if [ -z "$names" ]; then
	for f in "$dir"/fuzz_*; do
		case $f in *.o | *.d) continue ;; esac
		[ -x "$f" ] && names="$names ${f##*/fuzz_}"
	done
fi

# conformance/fuzz/NAME/ and the directories conformance/fuzz/SEEDS adds.
seeds_of() {
	echo "$root/conformance/fuzz/$1"
	sed -n "s|^$1 ||p" "$root/conformance/fuzz/SEEDS" | tr ' ' '\n' | sed "s|^|$root/|"
}

one() {
	name=$1
	mkdir -p "$dir/corpus/$name" "$dir/findings"
	log=$dir/findings/$name.log
	# shellcheck disable=SC2046 # the seed directories are words
	"$dir/fuzz_$name" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} \
		-print_final_stats=1 -artifact_prefix="$dir/findings/$name-" \
		"$dir/corpus/$name" $(seeds_of "$name") >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	found=$(grep -c '^artifact_prefix=.*Test unit written to' "$log")
	printf '%s: %s executions (%s/s), %s finding(s)%s\n' "$name" "${execs:-0}" "${rate:-0}" "$found" \
		"$([ "$rc" -ne 0 ] && echo "; exit $rc, see $log")"
	[ "$rc" -eq 0 ] && [ "$found" -eq 0 ]
}

# FUZZ_ONE=1: this process runs the one fuzzer it names (the pool's worker).
if [ -n "${FUZZ_ONE:-}" ]; then
	one "$1"
	exit
fi

echo "===> fuzz: $seconds s${FUZZ_RUNS:+ or $FUZZ_RUNS executions} per fuzzer, $jobs at a time ($dir)"
# A pool, not batches: the next fuzzer starts as soon as any one ends, so a
# slow fuzzer does not hold a core idle. xargs exits 123 when any worker failed.
# shellcheck disable=SC2086 # the names are words
printf '%s\n' $names | FUZZ_ONE=1 xargs -P "$jobs" -n 1 "$0" "$root" "$dir" "$seconds"
[ $? -eq 0 ]
