#!/bin/sh
# SPDX-License-Identifier: MIT
# The steps of .github/workflows/windows.yml, run here as the workflow runs
# them (the same make targets, with Wine where the workflow has a Windows
# runner), so that the workflow, which cannot run here, only names paths
# that work:
#   - make export-test has built the exported test for both architectures
#     (make check builds it with the plain tree);
#   - make live-results, through tools/wine.sh as Windows 10: the live JSON
#     result (which passes the schema and says live), its log, and the
#     exported test's log with its summary line. Live runs one file's
#     vectors (LIVE_VECTORS): what is checked here is the targets' plumbing,
#     and live on every vector under Wine is test_wine.sh's (a sixth of the
#     time); the result holds rows of that file's vectors and of no other;
#   - the i686 exes cannot run under this Wine (no wine32), and the target
#     fails saying why instead of keeping an empty result;
#   - bad input (an architecture not built, a name that is not a file name)
#     fails naming it, with nothing written;
#   - make observed-pages: compare.md, matrix.md (the file as an observed
#     column) and export.md (the test's summary line);
#   - twins: a truncated result file fails observed-pages, naming the file,
#     and leaves the pages already there as they were; an exported test
#     that printed no summary is reported as not run.
#
# Environment: NTPROF_BIN (the Linux ntprof of this tree), NTPROF_SOURCE_ROOT.
# Plain tree only (make's targets write under build/ of the plain tree).
# Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
wine=$root/tools/wine.sh
check=$(dirname "$NTPROF_BIN")/conformance/schema/json_schema_check
# make is run as the workflow runs it, not as a sub-make of make check.
unset MAKEFLAGS MFLAGS MAKELEVEL VARIANT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-windows-ci.XXXXXX") || exit 1
trap '"$wine" --stop; rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
target() {   # TARGET VAR=VALUE...: make's output in $tmp/make.out, its status returned
	make -C "$root" --no-print-directory "$@" >"$tmp/make.out" 2>&1
}

echo "1..8"

# ---- make export-test --------------------------------------------------------
exes=
for arch in x86_64 i686; do
	e=$root/build/win/$arch/profile.exe
	[ -f "$e" ] && [ "$e" -nt "$root/build/win/profile.c" ] || exes="$exes $arch"
done
if [ -z "$exes" ] && grep -q 'START_TEST' "$root/build/win/profile.c"; then
	ok "make export-test built the exported test for x86_64 and i686 (build/win/ARCH/profile.exe)"
else
	not_ok "make export-test built the exported test for x86_64 and i686" "missing or stale:$exes"
fi

# ---- make live-results under Wine ---------------------------------------------
results=$tmp/results
vectors=$root/fixtures/interval/query-interval.vec
target live-results RESULTS_DIR="$results" RESULTS_NAME=wine-win10 WIN_RUN="$wine win10" LIVE_VECTORS="$vectors"
rc=$?
json=$results/wine-win10.live.json
summary=$(tr -d '\r' <"$results/wine-win10.export.log" 2>/dev/null | grep 'tests executed')
# the result's vectors, and the file's (vectors scoped to other versions
# than Wine's have no row)
grep -o '"vector":"[^"]*"' "$json" 2>/dev/null | sed 's/.*:"//; s/"$//' | sort -u >"$tmp/ran"
sed -n 's/^vector  *//p' "$vectors" | sort -u >"$tmp/file"
if [ $rc -eq 0 ] && "$check" "$root/schema/run-result-v3.schema.json" "$json" >"$tmp/schema.out" 2>&1 &&
	grep -q '^{"tool":"ntprof","format":3,"command":"live","backend":"live","system":"[^"]*Wine' "$json" &&
	grep -q '^ntprof live: ' "$results/wine-win10.live.log" && [ -n "$summary" ] &&
	[ -s "$tmp/ran" ] && [ -z "$(comm -23 "$tmp/ran" "$tmp/file")" ]; then
	ok "make live-results under Wine: a live result file of LIVE_VECTORS that passes the schema, its log, the test's log ($summary)"
else
	not_ok "make live-results under Wine: a live result file of LIVE_VECTORS, its log, the test's log" "exit $rc" \
		"$(tail -n 5 "$tmp/make.out")" "$(head -n 3 "$tmp/schema.out")" "summary: ${summary:-none}" \
		"vectors run: $(wc -l <"$tmp/ran"); not in the file: $(comm -23 "$tmp/ran" "$tmp/file" | head -n 5 | tr '\n' ' ')"
fi

# The i686 exes need wine32, which this Wine lacks: the target fails with
# wine.sh's reason rather than keep an empty result.
target live-results RESULTS_DIR="$tmp/i686" RESULTS_NAME=wine-i686 WIN_ARCH=i686 WIN_RUN="$wine win10"
rc=$?
if [ -x /usr/lib/wine/wine ]; then
	ok "the i686 exes under Wine # SKIP wine32 is installed: nothing to refuse"
elif [ $rc -ne 0 ] && grep -q 'wine-i686: live exited 125: .*cannot run here' "$tmp/make.out"; then
	ok "the i686 exes cannot run under this Wine, and make live-results fails saying why"
else
	not_ok "the i686 exes cannot run under this Wine, and make live-results fails saying why" "exit $rc" \
		"$(tail -n 3 "$tmp/make.out")"
fi

# Bad input: named, nothing written.
target live-results RESULTS_DIR="$tmp/bad1" WIN_ARCH=arm64
rc1=$?
out1=$(tail -n 3 "$tmp/make.out")
target live-results RESULTS_DIR="$tmp/bad2" RESULTS_NAME=a/b
rc2=$?
out2=$(tail -n 3 "$tmp/make.out")
if [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && [ ! -e "$tmp/bad1" ] && [ ! -e "$tmp/bad2" ] &&
	echo "$out1" | grep -q "build/win/arm64/ntprof.exe: no such file (make windows builds it)" &&
	echo "$out2" | grep -q "NAME 'a/b' must be letters"; then
	ok "bad input to make live-results (an architecture not built, a name with a /) is named, nothing written"
else
	not_ok "bad input to make live-results is named, nothing written" "exits $rc1 $rc2" "$out1" "$out2"
fi

# ---- make observed-pages -------------------------------------------------------
pages=$tmp/pages
target observed-pages RESULTS_DIR="$results" PAGES_DIR="$pages"
rc=$?
if [ $rc -eq 0 ] && grep -q "^| | vector | wine 8.0 [0-9][^|]* x64 |\$" "$pages/compare.md" &&
	grep -q "^observed: wine 8.0 [0-9][^(]* x64 ([0-9A-Z]*/x64)\$" "$pages/matrix.md" &&
	grep -q "^| \`query-interval/timer-default\` | 1 | .* | ≠ \`n/e\` |\$" "$pages/matrix.md" &&
	grep -q -F -- "- wine-win10: $summary" "$pages/export.md"; then
	ok "make observed-pages: compare.md, matrix.md with the result as an observed column, export.md"
else
	not_ok "make observed-pages: compare.md, matrix.md with the result as an observed column, export.md" \
		"exit $rc" "$(tail -n 3 "$tmp/make.out")"
	for f in compare.md matrix.md export.md; do
		[ -f "$pages/$f" ] && sed -n '1,4s/^/#   '"$f"': /p' "$pages/$f"
	done
fi

# ---- twins -------------------------------------------------------------------
# A truncated result file: observed-pages fails naming it, and the pages
# already there are kept as they were.
mkdir -p "$tmp/broken"
cp "$json" "$tmp/broken/good.live.json"
head -c 2000 "$json" >"$tmp/broken/cut.live.json"
cp -R "$pages" "$tmp/pages.before"
target observed-pages RESULTS_DIR="$tmp/broken" PAGES_DIR="$pages"
rc=$?
if [ $rc -ne 0 ] && grep -q "cut.live.json" "$tmp/make.out" && diff -r "$tmp/pages.before" "$pages" >/dev/null; then
	ok "twin: a truncated result file fails make observed-pages, named, and the pages are left as they were"
else
	not_ok "twin: a truncated result file fails make observed-pages, named, pages left as they were" "exit $rc" \
		"$(tail -n 3 "$tmp/make.out")" "$(diff -r "$tmp/pages.before" "$pages" | head -n 3)"
fi

# An exported test that printed no summary did not run, and export.md says so.
mkdir -p "$tmp/silent"
cp "$json" "$tmp/silent/mute.live.json"
echo 'wine: could not load the exe' >"$tmp/silent/mute.export.log"
target observed-pages RESULTS_DIR="$tmp/silent" PAGES_DIR="$tmp/silent-pages"
rc=$?
if [ $rc -eq 0 ] && grep -q -x -- '- mute: no summary line: the test did not run' "$tmp/silent-pages/export.md"; then
	ok "twin: an exported test that printed no summary is reported as not run"
else
	not_ok "twin: an exported test that printed no summary is reported as not run" "exit $rc" \
		"$(cat "$tmp/silent-pages/export.md" 2>/dev/null)"
fi

# No result files at all is bad input, not an empty page.
mkdir -p "$tmp/empty"
target observed-pages RESULTS_DIR="$tmp/empty" PAGES_DIR="$tmp/empty-pages"
rc=$?
if [ $rc -ne 0 ] && grep -q "$tmp/empty: no \*.live.json result files in it" "$tmp/make.out" &&
	[ ! -e "$tmp/empty-pages" ]; then
	ok "make observed-pages refuses a directory with no result files, writing nothing"
else
	not_ok "make observed-pages refuses a directory with no result files, writing nothing" "exit $rc" \
		"$(tail -n 3 "$tmp/make.out")"
fi

[ "$failed" -eq 0 ]
