#!/bin/bash
# SPDX-License-Identifier: MIT
# mutants.sh ROOT BUILD OUT: mutation testing of model/ (`make mutants`).
#
# Each mutant of tools/mutants-gen.awk is applied, one at a time, to a COPY of
# model/ under OUT (model/ itself is only ever read, so an interrupt cannot
# leave it mutated). Only the mutated object is recompiled (for a header of
# $headers, predicates.h or knobs.h, the model objects that include
# it) and linked with the harness and test objects
# of the plain tree BUILD, which were compiled against the real model headers:
# the tests' own use of those headers keeps the true thresholds and defaults. Then:
#   1. ntprof run (every vector on every target); a difference kills it;
#   2. if it survived, the CMocka model tests; a failing test kills it.
# Sanitizers are part of the oracle, as in the asan tree of make check: the
# vectors run on model objects with UBSan (fast: a bound one too far is an
# out-of-bounds index), the tests on objects with ASan and UBSan (a read or
# write past an allocation, or a leak, kills the mutant too).
# A mutant listed in conformance/data/mutants-equivalent.txt with the same mutation
# text counts as equivalent (it does not change what the model does); one
# listed in conformance/data/mutants-untestable.txt counts as untestable (it does,
# but only where no test can go, e.g. a host malloc failure). The kill rate
# is over the mutants that are neither. Report: build/reports/mutants.txt, in
# file and line order.
#
# Environment: CC, MUTANT_CFLAGS (compile and link flags of the model objects
# of the vector run; MUTANT_TEST_CFLAGS for the tests' run), MUTANT_LIBS (the
# libraries the harness links with, the Makefile's NP_PKG_LIBS),
# MUTANTS_FILTER (an extended regex matched against "ID FILE KIND MUTATION";
# only matching mutants run), MUTANT_JOBS (workers, default: processors),
# MUTANT_TIMEOUT (seconds per program, default 20), MUTANTS_EQUIVALENT (the
# equivalence list, default conformance/data/mutants-equivalent.txt),
# MUTANTS_UNTESTABLE (the untestable list, default
# conformance/data/mutants-untestable.txt), MUTANTS_CHECK_ONLY=1 (list the mutants
# and check the entries of both lists against them, build nothing: exit 0, or
# 1 when an entry is stale).
# Exit status: 0 when no mutant survives that neither list names and no entry
# of either list is contradicted, 1 otherwise, 2 when the unmutated build
# already fails.
set -uo pipefail

root=$1 build=$2 out=$3
cc=${CC:-cc}
cflags=${MUTANT_CFLAGS:--std=c11 -O1 -g0 -fsanitize=undefined -fno-sanitize-recover=all}
tflags=${MUTANT_TEST_CFLAGS:--std=c11 -O1 -g0 -fsanitize=address,undefined -fno-sanitize-recover=all}
libs=${MUTANT_LIBS:--lcmark-gfm-extensions -lcmark-gfm -ljansson}
filter=${MUTANTS_FILTER:-}
limit=${MUTANT_TIMEOUT:-20}
jobs=${MUTANT_JOBS:-$(nproc 2>/dev/null || echo 1)}
gen=$root/tools/mutants-gen.awk
equiv_file=${MUTANTS_EQUIVALENT:-$root/conformance/data/mutants-equivalent.txt}
untestable_file=${MUTANTS_UNTESTABLE:-$root/conformance/data/mutants-untestable.txt}
# The headers mutated in place of the objects that include them.
headers="include/ntprof/predicates.h include/ntprof/knobs.h"
report=$root/build/reports/mutants.txt
# The CMocka programs that test the model (conformance/model/; the others test the
# harness): every one of them, so a new model test counts from its first run.
model_tests=$(cd "$root/conformance/model" && ls test_*.c | sed 's/\.c$//' | LC_ALL=C sort)
# A sanitizer report ends the program with this status, told apart from a
# vector mismatch (ntprof run exits 1).
export UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=0
export ASAN_OPTIONS=detect_leaks=1:exitcode=99
export LSAN_OPTIONS=exitcode=99
export NTPROF_SOURCE_ROOT=$root

die() { echo "mutants: $*" >&2; exit 2; }

cd "$root" || die "no $root"
# The include paths are the script's (the copy first, then a mutated header
# ahead of it): an -I of model/ in the flags would compile the real headers
# and make every header mutant a silent no-op.
case " $cflags $tflags " in *" -I"*) die "MUTANT_CFLAGS and MUTANT_TEST_CFLAGS must not carry -I" ;; esac
case $jobs in ''|*[!0-9]*|0) die "MUTANT_JOBS must be a positive number, not '$jobs'" ;; esac
versions=$(sed -n '/typedef enum np_ver {/,/} np_ver;/p' "$root/model/include/ntprof/version.h" |
	grep -o 'NP_V[0-9A-Za-z_]*' | grep -v '^NP_VERSION_COUNT$' | tr '\n' ' ')
[ -n "$versions" ] || die "no version enumeration in model/include/ntprof/version.h"

sources=$(cd model && ls *.c | LC_ALL=C sort)

# The list: ID FILE ORDINAL LINE KIND MUTATION, in file then line order.
# ID is FILE:ANCHOR.N, ANCHOR the hash of the mutated line's text
# (mutants-gen.awk), N the mutant's rank among those of the lines of the
# file with that text: an edit elsewhere in the file leaves it as it was.
list=$(mktemp "${TMPDIR:-/tmp}/ntprof-mutants.XXXXXX") || die "no temporary file"
trap 'rm -f "$list" "$list.f"' EXIT
for f in $sources $headers; do
	awk -v versions="$versions" -f "$gen" "$root/model/$f" |
		sort -t "$(printf '\t')" -k2,2n -k1,1n |
		awk -F '\t' -v f="model/$f" 'BEGIN { OFS = "\t" }
			{ id = f; sub(/^model\//, "", id); sub(/\.[ch]$/, "", id); sub(/^include\/ntprof\//, "", id)
			  n[$3]++; print id ":" $3 "." n[$3], f, $1, $2, $4, $5 }'
done >"$list" || die "mutant generation failed"
if [ -n "$filter" ]; then
	awk -F '\t' -v re="$filter" '($1 " " $2 " " $5 " " $6) ~ re' "$list" >"$list.f" && mv "$list.f" "$list"
fi

# The two lists, ID | MUTATION | REASON each (# comments, blank lines
# ignored): eq_list[ID] is equivalent or untestable, the file it is in.
declare -A eq_mut eq_why eq_list eq_file
stale_ids=0
n_equiv_entries=0 n_untestable_entries=0
read_list() { # read_list CATEGORY FILE
	local line id rest
	[ -f "$2" ] || return 0
	while IFS= read -r line; do
		case $line in ''|'#'*) continue ;; esac
		# ID | MUTATION | REASON, split by the shell: three awk per entry
		# were most of make check's time here
		id=${line%% | *}
		if [ -n "${eq_list[$id]+x}" ]; then
			echo "mutants: $2: $id: also listed in ${eq_file[$id]}" >&2
			stale_ids=$((stale_ids + 1))
		fi
		eq_list[$id]=$1
		eq_file[$id]=$2
		rest=${line#* | }
		eq_mut[$id]=${rest%% | *}
		case $rest in *' | '*) eq_why[$id]=${rest#* | } ;; *) eq_why[$id]= ;; esac
		if [ "$1" = equivalent ]; then
			n_equiv_entries=$((n_equiv_entries + 1))
		else
			n_untestable_entries=$((n_untestable_entries + 1))
		fi
	done <"$2"
}
read_list equivalent "$equiv_file"
read_list untestable "$untestable_file"

# An entry whose ID the full list no longer has (its line changed), or whose
# mutation text is not that ID's, is stale.
if [ -z "$filter" ]; then
	declare -A mutation_of
	while IFS=$'\t' read -r lid _ _ _ _ lmut; do
		mutation_of[$lid]=$lmut
	done <"$list"
	for id in "${!eq_mut[@]}"; do
		now=${mutation_of[$id]:-}
		if [ -z "$now" ]; then
			echo "mutants: ${eq_file[$id]}: $id: no such mutant (its line changed?)" >&2
			stale_ids=$((stale_ids + 1))
		elif [ "$now" != "${eq_mut[$id]}" ]; then
			echo "mutants: ${eq_file[$id]}: $id: the mutant is now '$now', not '${eq_mut[$id]}'" >&2
			stale_ids=$((stale_ids + 1))
		fi
	done
fi

# MUTANTS_CHECK_ONLY=1: the list and the equivalences only, nothing built
# (make check: an edit that changes a listed line fails at once, not at the
# next `make mutants`).
if [ -n "${MUTANTS_CHECK_ONLY:-}" ]; then
	n=$(wc -l <"$list")
	echo "mutants: $n generated, $n_equiv_entries equivalence entries, $n_untestable_entries untestable entries, $stale_ids stale"
	[ "$stale_ids" -eq 0 ]
	exit
fi
[ -x "$build/ntprof" ] || die "$build/ntprof missing: run make all first"
rm -rf "$out"
mkdir -p "$out/base" "$out/base-t" "$root/build/reports" || die "cannot create $out"
mv "$list" "$out/list.tsv" || die "cannot move the list to $out"
list=$out/list.tsv
trap - EXIT
tmp_report=$(mktemp "$root/build/reports/.mutants.XXXXXX")
trap 'rm -f "$tmp_report"; exit 130' INT TERM
cp -R model "$out/src" || die "cannot copy model/"
src=$out/src
inc=(-I"$src/include" -I"$src")

# The unmutated model objects.
for f in $sources; do
	"$cc" $cflags "${inc[@]}" -c -o "$out/base/${f%.c}.o" "$src/$f" || die "$f does not compile"
	"$cc" $tflags "${inc[@]}" -c -o "$out/base-t/${f%.c}.o" "$src/$f" || die "$f does not compile"
done
# The model sources that include each header of $headers (directly or
# through another header).
declare -A header_users
for h in $headers; do
	header_users[$h]=$(for f in $sources; do
		"$cc" "${inc[@]}" -MM "$src/$f" | tr -d '\\\n' | grep -q "$h" && echo "$f"
	done)
	[ -n "${header_users[$h]}" ] || die "no model source includes $h"
done
# The objects of harness/*/*.c (not win/, nor the implementers' helpers, a
# library of their own) as it is now: a build tree that
# predates a deleted source still holds its object, which would be linked twice over.
harness_lib=$(for f in harness/*/*.c; do
	case $f in harness/win/*|harness/impl_helpers/*|harness/cli/main.c) continue ;; esac
	echo "$build/${f%.c}.o"
done)

# Worker W has its own objects, programs and logs under $out/wW.
# Linked from the objects of one worker: ntprof first; the tests only when the
# vectors let the mutant live (most mutants die at the first step).
link() { # link WDIR OBJDIR
	"$cc" $cflags -o "$1/bin/ntprof" "$build/harness/cli/main.o" $harness_lib "$2"/*.o $libs
}
link_tests() { # link_tests WDIR OBJDIR
	local t
	for t in $model_tests; do
		"$cc" $tflags -o "$1/bin/$t" "$build/conformance/model/$t.o" $harness_lib "$2"/*.o -lcmocka $libs || return 1
	done
}
# What a sanitizer reported, in a few words.
sanitizer_said() {
	local said
	said=$(grep -m1 -o -E 'runtime error: .*|ERROR: (Address|Leak)Sanitizer: [a-z-]+' "$1" |
		sed -E 's/^runtime error: /UBSan: /; s/^ERROR: //' | cut -c1-70)
	echo "${said:-sanitizer}"
}
# run_vectors WDIR: nothing printed when every vector matches, else what killed it.
run_vectors() {
	local log=$1/run.log rc first
	timeout "$limit" "$1/bin/ntprof" run >"$log" 2>&1
	rc=$?
	case $rc in
	0)   return 0 ;;
	124) echo "vectors (timeout)" ;;
	99)  echo "vectors ($(sanitizer_said "$log"))" ;;
	*)   if [ $rc -gt 128 ]; then
		     echo "vectors (crash, signal $((rc - 128)))"
	     else
		     first=$(grep -v '^summary' "$log" | grep -m1 -E 'mismatch|crashed|stub|not-exported' |
			     awk '{ for (i = 1; i <= NF; i++) if ($i ~ /\//) { print $i; exit } }')
		     echo "vectors (${first:-exit $rc})"
	     fi ;;
	esac
	return 1
}
run_tests() { # run_tests WDIR: the first failing model test program and case
	local t rc log=$1/test.log what
	for t in $model_tests; do
		(cd "$1" && timeout "$limit" "$1/bin/$t") >"$log" 2>&1
		rc=$?
		[ $rc -eq 0 ] && continue
		case $rc in
		124) what=timeout ;;
		99)  what=$(sanitizer_said "$log") ;;
		*)   what=$(grep -m1 -E '^\[  FAILED  \] test_' "$log" | awk '{ print $NF }') ;;
		esac
		echo "test $t${what:+ ($what)}"
		return 1
	done
	return 0
}

mkdir -p "$out/w0/bin" || die "cannot create $out/w0"
link "$out/w0" "$out/base" && link_tests "$out/w0" "$out/base-t" || die "the unmutated model does not link"
run_vectors "$out/w0" >/dev/null || die "the unmutated model fails the vectors ($out/w0/run.log)"
run_tests "$out/w0" >/dev/null || die "the unmutated model fails a model test ($out/w0/test.log)"

# One mutant in worker directory WDIR: prints CATEGORY <TAB> REPORT LINE.
# build WDIR OBJDIR BASEDIR FLAGS FILE ORDINAL: the model objects of one
# mutant in OBJDIR, the unmutated ones copied from BASEDIR. False when the
# mutant does not compile.
build_mutant() {
	local w=$1 d=$2 flags=$4 file=$5 ord=$6 f base m
	rm -f "$d"/*.o
	mkdir -p "$d"
	cp "$3"/*.o "$d/"
	if [ -n "${header_users[${file#model/}]+x}" ]; then
		# only this header ahead of the copy: not one a previous mutant left
		rm -rf "$w/inc"
		mkdir -p "$w/inc/ntprof"
		awk -v versions="$versions" -v want="$ord" -f "$gen" "$src/${file#model/}" \
			>"$w/inc/ntprof/$(basename "$file")" || return 1
		for f in ${header_users[${file#model/}]}; do
			"$cc" $flags -I"$w/inc" "${inc[@]}" -c -o "$d/${f%.c}.o" "$src/$f" 2>"$w/cc.log" ||
				return 1
		done
		return 0
	fi
	base=$(basename "$file")
	# Beside the original, so that its quoted #includes resolve alike.
	m=$src/.mutant-${w##*/}-$base
	awk -v versions="$versions" -v want="$ord" -f "$gen" "$src/$base" >"$m" &&
		"$cc" $flags "${inc[@]}" -c -o "$d/${base%.c}.o" "$m" 2>"$w/cc.log"
	local rc=$?
	rm -f "$m"
	return $rc
}

one() { # one WDIR ID FILE ORDINAL LINE KIND MUTATION
	local w=$1 id=$2 file=$3 ord=$4 line=$5 kind=$6 what=$7 why result cat
	if build_mutant "$w" "$w/mut" "$out/base" "$cflags" "$file" "$ord" &&
	   link "$w" "$w/mut" 2>>"$w/cc.log"; then
		if why=$(run_vectors "$w"); then
			if build_mutant "$w" "$w/mut-t" "$out/base-t" "$tflags" "$file" "$ord" &&
			   link_tests "$w" "$w/mut-t" 2>>"$w/cc.log"; then
				why=$(run_tests "$w")
			else
				why="invalid (does not compile)"
			fi
		fi
	else
		why="invalid (does not compile)"
	fi
	if [ -z "$why" ]; then
		if [ -n "${eq_mut[$id]+x}" ] && [ "${eq_mut[$id]}" = "$what" ]; then
			cat=${eq_list[$id]} result="${eq_list[$id]}: ${eq_why[$id]}"
		else
			cat=survived result="SURVIVED"
			[ -n "${eq_mut[$id]+x}" ] &&
				result="SURVIVED (the entry for $id in ${eq_file[$id]##*/} is for another mutation: ${eq_mut[$id]})"
		fi
	elif [ "${why#invalid}" != "$why" ]; then
		cat=invalid result=$why
	else
		case $why in vectors*) cat=vectors ;; *) cat=tests ;; esac
		result="killed by $why"
		if [ -n "${eq_mut[$id]+x}" ]; then
			cat=$cat-stale result="$result (listed as ${eq_list[$id]}: remove the entry)"
		fi
	fi
	printf '%s\t%s  %s:%s  %s  %s  =>  %s\n' "$cat" "$id" "$file" "$line" "$kind" "$what" "$result"
}

worker() { # worker N: every JOBS-th mutant from the N-th, results in $out/wN/results
	local w=$out/w$1 n=0 id file ord line kind what
	mkdir -p "$w/mut" "$w/bin"
	: >"$w/results"
	while IFS=$'\t' read -r id file ord line kind what; do
		n=$((n + 1))
		[ $(((n - 1) % jobs)) -eq "$1" ] || continue
		printf '%d\t%s\n' "$n" "$(one "$w" "$id" "$file" "$ord" "$line" "$kind" "$what")" >>"$w/results"
		case $(tail -n1 "$w/results") in
		*$'\t'survived$'\t'*) tail -n1 "$w/results" | cut -f3- | sed 's/^/SURVIVED /; s/  =>  SURVIVED.*$//' ;;
		esac
	done <"$list"
}

start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
pids=()
for ((j = 0; j < jobs; j++)); do
	worker "$j" &
	pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null; rm -f "$tmp_report" "$src"/.mutant-*; exit 130' INT TERM
wait "${pids[@]}"
secs=$(( $(date +%s) - start ))
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

merged=$out/results.tsv
cat "$out"/w*/results | sort -n >"$merged"
count() { awk -F '\t' -v c="$1" '$2 ~ c' "$merged" | wc -l; }
total=$(wc -l <"$list")
done_n=$(wc -l <"$merged")
[ "$done_n" -eq "$total" ] || die "only $done_n of $total mutants have a result (see $out/w*/)"
by_vec=$(count '^vectors'); by_test=$(count '^tests'); stale=$(count -stale)
equiv=$(count '^equivalent$'); untestable=$(count '^untestable$')
surv=$(count '^survived$'); invalid=$(count '^invalid$')
killed=$((by_vec + by_test))
# kills that were a sanitizer's report (sanitizer_said), of either step
by_san=$(awk -F '\t' '$2 ~ /^(vectors|tests)/ && $3 ~ /=>  killed by [^(]*\((UBSan|AddressSanitizer|LeakSanitizer|sanitizer)/' "$merged" | wc -l)
kinds=$(cut -f5 "$list" | sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')
{
	echo "# ntprof mutation testing of model/ (tools/mutants.sh), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# ID  FILE:LINE  KIND  MUTATION  =>  RESULT"
	cut -f3- "$merged"
} >"$tmp_report"
counted=$((total - invalid - equiv - untestable))
rate=$(awk -v k="$killed" -v n="$counted" 'BEGIN { printf "%.1f", n ? 100 * k / n : 100 }')
summary="mutants: $total generated${filter:+ (filter '$filter')} ($kinds), $killed killed ($by_vec by the vectors, $by_test by the model tests; $by_san of them sanitizer reports), $equiv equivalent, $untestable untestable, $surv surviving, $invalid invalid; kill rate $rate% of the $counted neither equivalent nor untestable; ${secs}s with $jobs workers, load ${load_start:-?} at the start, ${load_end:-?} at the end"
[ "$stale" -gt 0 ] && summary="$summary; $stale list entries are contradicted (the mutant was killed)"
[ "$stale_ids" -gt 0 ] && summary="$summary; $stale_ids list entries name no mutant, or are in both lists"
echo "$summary" >>"$tmp_report"
mv -f "$tmp_report" "$report"
trap - INT TERM
echo "$summary"
echo "report: $report"
[ "$surv" -eq 0 ] && [ "$stale" -eq 0 ] && [ "$stale_ids" -eq 0 ]
