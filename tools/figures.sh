#!/bin/sh
# SPDX-License-Identifier: MIT
# figures.sh [--quick] ROOT BUILD OUT: writes OUT (docs/figures.md, `make
# figures`), the project's measured figures, by running what it reports:
#   - the commit (and whether the tree differs from it), the date, the
#     machine (nproc, CPU model) and its load average as the run starts;
#   - `make test`: wall time and Kyua's case count (not in --quick);
#   - an explore sweep against a dl: object, a child of the fork server per
#     combination: its combinations and time (not in --quick);
#   - counts: SPEC.md's rules (ntprof explain --check), the vectors of
#     fixtures/ (ntprof run's summary), the Kyua cases of make check's
#     suite and of make test's;
#   - the benchmark (BUILD/bench/bench): its whole output, ratios with
#     their spread.
# --quick, for the test (conformance/cli/test_figures.sh): no `make test`, no sweep,
# a benchmark of two short repetitions without the explorer. BUILD is the
# build tree (build/), built. OUT is written only when everything ran:
# exit 1 (and OUT untouched) when a command failed, 2 for bad arguments.
set -u

quick=0
if [ "${1:-}" = --quick ]; then
	quick=1
	shift
fi
if [ $# -ne 3 ]; then
	echo "usage: figures.sh [--quick] ROOT BUILD OUT" >&2
	exit 2
fi
root=$1 build=$2 out=$3
for need in "$root/SPEC.md" "$build/ntprof" "$build/bench/bench" "$build/conformance/Kyuafile"; do
	if [ ! -e "$need" ]; then
		echo "figures.sh: $need: not found (ROOT is the repository, BUILD its built tree)" >&2
		exit 2
	fi
done
outdir=$(dirname "$out")
if [ ! -d "$outdir" ] || [ ! -w "$outdir" ]; then
	echo "figures.sh: $out: its directory is not a writable directory" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-figures.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# fail WHAT: says which command failed, with the end of its output; exit 1.
fail() {
	echo "figures.sh: $1 failed; OUT not written. Its output ends:" >&2
	tail -n 15 "$tmp/cmd.out" >&2
	exit 1
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo "unknown (not a git tree)")
# Uncommitted changes, but the page itself (a new page differs from the last).
case $out in /*) page=$out ;; *) page=$(pwd)/$out ;; esac
page=${page#"$(cd "$root" && pwd)"/}
dirty=
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | awk -v page="$page" '$2 != page')" ]; then
	dirty=", with uncommitted changes"
fi

# The benchmark first: on its own, before make test loads the machine.
if [ "$quick" -eq 0 ]; then
	"$build/bench/bench" >"$tmp/cmd.out" 2>&1 || fail "the benchmark"
else
	"$build/bench/bench" --reps 2 --batch-ms 1 --no-explorer >"$tmp/cmd.out" 2>&1 || fail "the benchmark"
fi
cp "$tmp/cmd.out" "$tmp/bench.out"

# What isolation costs: a sweep against the model behind the dl: interface,
# each combination in its own child of the fork server (harness/run/zygote.c).
isolated_line="explore against a dl: object: not run (--quick)"
if [ "$quick" -eq 0 ]; then
	sweep="--function NtCreateProfile --targets 1809/x64,6.1/x86"
	"$build/ntprof" explore --against "dl:$build/conformance/dl/dl_faithful.so" $sweep >"$tmp/cmd.out" 2>&1 ||
		fail "ntprof explore --against dl_faithful.so"
	isolated_line="\`ntprof explore --against dl:dl_faithful.so $sweep\`, a child per combination: $(
		sed -n "s/^ntprof explore: //p" "$tmp/cmd.out" | tail -n 1)"
fi

if [ "$quick" -eq 0 ]; then
	start=$(date +%s.%N)
	make -C "$root" --no-print-directory test >"$tmp/cmd.out" 2>&1 || fail "make test"
	end=$(date +%s.%N)
	wall=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
	# its last line: "N passed, N failed"
	cases=$(tail -n 1 "$tmp/cmd.out" | awk '/^[0-9]+ passed, [0-9]+ failed$/ { print $1 + $3 }')
	[ -n "$cases" ] || fail "make test (no count of cases)"
	test_line="\`make test\`: $wall s wall, $cases Kyua cases ($(tail -n 1 "$tmp/cmd.out"))"
else
	test_line="\`make test\`: not run (--quick)"
fi

NTPROF_SOURCE_ROOT=$root "$build/ntprof" explain --check >"$tmp/cmd.out" 2>&1 || fail "ntprof explain --check"
rules=$(sed -n 's/^rules: \([0-9]*\), problems: 0$/\1/p' "$tmp/cmd.out")
[ -n "$rules" ] || fail "ntprof explain --check (no rule count)"
NTPROF_SOURCE_ROOT=$root "$build/ntprof" run --root "$root" >"$tmp/cmd.out" 2>&1 || fail "ntprof run"
vectors=$(sed -n 's/^ntprof run: backend model, \([0-9]* vectors, [0-9]* targets, [0-9]* results\);.*/\1/p' "$tmp/cmd.out")
summary=$(sed -n 's/^summary: //p' "$tmp/cmd.out")
[ -n "$vectors" ] && [ -n "$summary" ] || fail "ntprof run (no count or summary)"
for list in Kyuafile Kyuafile.test; do
	(cd "$build/conformance" && HOME=$build kyua list --kyuafile="$list") >"$tmp/cmd.out" 2>&1 ||
		fail "kyua list $list"
	wc -l <"$tmp/cmd.out" | tr -d ' ' >"$tmp/$list.count"
done

{
	echo "# Figures"
	echo
	echo "Written by \`make figures\` (tools/figures.sh$([ "$quick" -eq 1 ] && echo " --quick")), which ran what this page"
	echo "reports; never edited by hand. Timings depend on the machine and its load: compare"
	echo "ratios taken in one run, not nanoseconds across runs."
	echo
	echo "- commit: $commit$dirty"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: nproc $(nproc), ${cpu:-unknown processor}"
	echo "- load average at the start: $load"
	echo "- $test_line"
	echo "- $isolated_line"
	echo
	echo "## Counts"
	echo
	echo "- rules in SPEC.md: $rules"
	echo "- fixtures/ on the model (ntprof run): $vectors"
	echo "- their outcomes: $summary"
	echo "- Kyua cases: $(cat "$tmp/Kyuafile.count") in the plain tree's whole suite (make check), $(cat "$tmp/Kyuafile.test.count") in make test's"
	echo
	echo "## Benchmark (\`make bench\`)"
	echo
	echo '```'
	cat "$tmp/bench.out"
	echo '```'
} >"$tmp/figures.md"
mv "$tmp/figures.md" "$out.tmp" && mv "$out.tmp" "$out" || { rm -f "$out.tmp"; exit 1; }
echo "figures.sh: wrote $out"
