#!/bin/bash
# mutants.sh ROOT BUILD OUT: mutation testing of model/ (issue 7, `make mutants`).
#
# Each mutant of tools/mutants-gen.awk is applied, one at a time, to a COPY of
# model/ under OUT (model/ itself is only ever read, so an interrupt cannot
# leave it mutated). Only the mutated object is recompiled (for rules.h, the
# model objects that include it) and linked with the harness and test objects
# of the plain tree BUILD, which were compiled against the real model headers:
# the tests' own use of rules.h keeps the true thresholds. Then:
#   1. ntprof run (every vector on every target); a difference kills it;
#   2. if it survived, the CMocka model tests; a failing test kills it.
# A mutant listed in conformance/mutants-equivalent.txt with the same mutation
# text counts as equivalent. Report: build/reports/mutants.txt.
#
# Environment: CC, MUTANT_CFLAGS (compile flags of the model objects),
# MUTANTS_FILTER (an extended regex matched against "ID FILE KIND MUTATION";
# only matching mutants run), MUTANT_TIMEOUT (seconds per program, default 20).
# Exit status: 0 when no non-equivalent mutant survives, 1 otherwise, 2 when
# the unmutated build already fails (nothing would mean anything).
set -uo pipefail

root=$1 build=$2 out=$3
cc=${CC:-cc}
cflags=${MUTANT_CFLAGS:--std=c11 -O1 -g0}
filter=${MUTANTS_FILTER:-}
limit=${MUTANT_TIMEOUT:-20}
gen=$root/tools/mutants-gen.awk
equiv_file=$root/conformance/mutants-equivalent.txt
report=$root/build/reports/mutants.txt
# The CMocka programs that test the model (the others test the harness).
model_tests="test_create_profile test_profile_control test_profile_interrupt test_set_interval
	test_query_interval test_trace test_sysinfo test_hal test_machine test_memory
	test_model_edges test_native test_versions"

die() { echo "mutants: $*" >&2; exit 2; }

cd "$root" || die "no $root"
[ -x "$build/ntprof" ] || die "$build/ntprof missing: run make all first"
rm -rf "$out"
mkdir -p "$out/base" "$out/mut" "$out/bin" "$root/build/reports" || die "cannot create $out"
tmp_report=$(mktemp "$root/build/reports/.mutants.XXXXXX")
trap 'rm -f "$tmp_report"; exit 130' INT TERM
cp -R model "$out/src" || die "cannot copy model/"
src=$out/src
inc=(-I"$src/include" -I"$src")

versions=$(sed -n '/typedef enum np_ver {/,/} np_ver;/p' "$src/include/ntprof/version.h" |
	grep -o 'NP_V[0-9A-Za-z_]*' | grep -v '^NP_VERSION_COUNT$' | tr '\n' ' ')
[ -n "$versions" ] || die "no version enumeration in model/include/ntprof/version.h"

# The unmutated model objects.
sources=$(cd "$src" && ls *.c | LC_ALL=C sort)
for f in $sources; do
	"$cc" $cflags "${inc[@]}" -c -o "$out/base/${f%.c}.o" "$src/$f" || die "$f does not compile"
done
# Model sources that include rules.h (directly or through internal.h).
rules_users=$(for f in $sources; do
	"$cc" "${inc[@]}" -MM "$src/$f" | tr -d '\\\n' | grep -q 'ntprof/rules.h' && echo "$f"
done)

harness_lib=$(ls "$build"/harness/*.o | grep -v '/main\.o$')
# Linked from the objects in OBJDIR: ntprof first; the tests only when the
# vectors let the mutant live (most mutants die at the first step).
link() { # link OBJDIR
	"$cc" -o "$out/bin/ntprof" "$build/harness/main.o" $harness_lib "$1"/*.o
}
link_tests() { # link_tests OBJDIR
	local d=$1 t
	for t in $model_tests; do
		"$cc" -o "$out/bin/$t" "$build/conformance/$t.o" $harness_lib "$d"/*.o -lcmocka || return 1
	done
}
# run_vectors: empty output when every vector matches, else what killed it.
run_vectors() {
	local log=$out/run.log rc
	timeout "$limit" "$out/bin/ntprof" run >"$log" 2>&1
	rc=$?
	[ $rc -eq 0 ] && return 0
	[ $rc -eq 124 ] && { echo "vectors (timeout)"; return 1; }
	[ $rc -gt 128 ] && { echo "vectors (crash, signal $((rc - 128)))"; return 1; }
	local first
	first=$(grep -m1 -E 'mismatch|crashed|stub|not-exported' "$log" | grep -v '^summary' |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /\//) { print $i; exit } }')
	echo "vectors (${first:-exit $rc})"
	return 1
}
run_tests() { # the first failing model test program and case
	local t rc log=$out/test.log
	for t in $model_tests; do
		(cd "$out" && NTPROF_SOURCE_ROOT=$root timeout "$limit" "$out/bin/$t") >"$log" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			local case
			case=$(grep -m1 -E '^\[  FAILED  \]|^\[  ERROR   \]' "$log" | awk '{ print $NF }')
			[ $rc -eq 124 ] && case="timeout"
			echo "test $t${case:+ ($case)}"
			return 1
		fi
	done
	return 0
}

link "$out/base" && link_tests "$out/base" || die "the unmutated model does not link"
run_vectors >/dev/null || die "the unmutated model fails the vectors ($out/run.log)"
run_tests >/dev/null || die "the unmutated model fails a model test ($out/test.log)"

# The list: ID FILE ORDINAL LINE KIND MUTATION, files in name order.
list=$out/list.tsv
for f in $sources include/ntprof/rules.h; do
	awk -v versions="$versions" -f "$gen" "$src/$f" |
		awk -F '\t' -v f="model/$f" 'BEGIN { OFS = "\t" }
			{ id = f; sub(/^model\//, "", id); sub(/\.[ch]$/, "", id); sub(/^include\/ntprof\//, "", id)
			  n[$2]++; print id ":" $2 "." n[$2], f, $1, $2, $3, $4 }'
done >"$list" || die "mutant generation failed"
if [ -n "$filter" ]; then
	awk -F '\t' -v re="$filter" '($1 " " $2 " " $5 " " $6) ~ re' "$list" >"$list.f" && mv "$list.f" "$list"
fi

# Equivalences: ID | MUTATION | REASON (# comments, blank lines ignored).
declare -A eq_mut eq_why
if [ -f "$equiv_file" ]; then
	while IFS= read -r line; do
		case $line in ''|'#'*) continue ;; esac
		id=$(printf '%s' "$line" | awk -F ' [|] ' '{ print $1 }')
		eq_mut[$id]=$(printf '%s' "$line" | awk -F ' [|] ' '{ print $2 }')
		eq_why[$id]=$(printf '%s' "$line" | awk -F ' [|] ' '{ print $3 }')
	done <"$equiv_file"
fi

total=0 killed=0 by_vec=0 by_test=0 equiv=0 surv=0 invalid=0 stale=0
start=$(date +%s)
{
	echo "# ntprof mutation testing of model/ (tools/mutants.sh), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# ID  FILE:LINE  KIND  MUTATION  =>  RESULT"
} >"$tmp_report"
while IFS=$'\t' read -r id file ord line kind what; do
	total=$((total + 1))
	rm -f "$out"/mut/*.o
	cp "$out"/base/*.o "$out/mut/"
	ok=1
	if [ "$file" = model/include/ntprof/rules.h ]; then
		mkdir -p "$out/inc/ntprof"
		awk -v versions="$versions" -v want="$ord" -f "$gen" "$src/include/ntprof/rules.h" \
			>"$out/inc/ntprof/rules.h" || ok=0
		for f in $rules_users; do
			[ $ok = 1 ] || break
			"$cc" $cflags -I"$out/inc" "${inc[@]}" -c -o "$out/mut/${f%.c}.o" "$src/$f" \
				2>"$out/cc.log" || ok=0
		done
	else
		base=$(basename "$file")
		# Beside the original, so that its quoted #includes resolve alike.
		awk -v versions="$versions" -v want="$ord" -f "$gen" "$src/$base" >"$src/.mutant-$base" &&
			"$cc" $cflags "${inc[@]}" -c -o "$out/mut/${base%.c}.o" "$src/.mutant-$base" \
				2>"$out/cc.log" || ok=0
		rm -f "$src/.mutant-$base"
	fi
	if [ $ok = 1 ] && link "$out/mut" 2>>"$out/cc.log"; then
		if why=$(run_vectors); then
			if link_tests "$out/mut" 2>>"$out/cc.log"; then
				why=$(run_tests)
			else
				why="invalid (does not compile)"
			fi
		fi
	else
		why="invalid (does not compile)"
	fi
	if [ -z "$why" ]; then
		if [ -n "${eq_mut[$id]+x}" ] && [ "${eq_mut[$id]}" = "$what" ]; then
			result="equivalent: ${eq_why[$id]}"; equiv=$((equiv + 1))
		else
			result="SURVIVED"; surv=$((surv + 1))
			[ -n "${eq_mut[$id]+x}" ] && result="SURVIVED (equivalence listed for another mutation: ${eq_mut[$id]})"
		fi
	elif [ "${why#invalid}" != "$why" ]; then
		result=$why; invalid=$((invalid + 1))
	else
		result="killed by $why"; killed=$((killed + 1))
		case $why in vectors*) by_vec=$((by_vec + 1)) ;; *) by_test=$((by_test + 1)) ;; esac
		if [ -n "${eq_mut[$id]+x}" ]; then
			result="$result (listed as equivalent: remove the entry)"; stale=$((stale + 1))
		fi
	fi
	printf '%s  %s:%s  %s  %s  =>  %s\n' "$id" "$file" "$line" "$kind" "$what" "$result" >>"$tmp_report"
	case $result in SURVIVED*) printf 'SURVIVED %s  %s:%s  %s\n' "$id" "$file" "$line" "$what" ;; esac
done <"$list"
secs=$(( $(date +%s) - start ))

valid=$((total - invalid))
nonequiv=$((valid - equiv))
rate=$(awk -v k=$killed -v n=$nonequiv 'BEGIN { printf "%.1f", n ? 100 * k / n : 100 }')
summary="mutants: $total generated${filter:+ (filter '$filter')}, $killed killed ($by_vec by the vectors, $by_test by the model tests), $equiv equivalent, $surv surviving, $invalid invalid; kill rate $rate% of $nonequiv non-equivalent; ${secs}s"
[ $stale -gt 0 ] && summary="$summary; $stale equivalence entries are wrong (killed)"
echo "$summary" >>"$tmp_report"
mv -f "$tmp_report" "$report"
trap - INT TERM
echo "$summary"
echo "report: $report"
[ $surv -eq 0 ] && [ $stale -eq 0 ]
