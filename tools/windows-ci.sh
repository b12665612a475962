#!/bin/sh
# SPDX-License-Identifier: MIT
# windows-ci.sh: what .github/workflows/windows.yml runs, through the
# Makefile's targets (`make live-results`, `make observed-pages`), which
# make check also runs under Wine (conformance/cli/test_windows_ci.sh).
#
# windows-ci.sh live DIR NAME NTPROF_EXE TEST_EXE [RUN...]
#     On the Windows it runs on, through RUN (nothing on Windows;
#     tools/wine.sh win10 under Wine): `NTPROF_EXE live --format json
#     --output DIR/NAME.live.json [LIVE_VECTORS]`, its output kept in
#     DIR/NAME.live.log (LIVE_VECTORS, from the environment: vector files or
#     directories, words; unset or empty, the vectors built into the exe),
#     then the exported test TEST_EXE, its output in DIR/NAME.export.log.
#     Differences from the model are results, not failures: live's exit
#     status 1 and the test's failures are kept in the files. Fails (1)
#     when live ends otherwise (2 bad input, 3 an interval left changed, a
#     crash) or writes no result file, or when the test prints no summary
#     line: it did not run.
# windows-ci.sh pages DIR PAGES NTPROF
#     Reads every DIR/*.live.json (in DIR or one level down, as the
#     workflow's download leaves them) with the Linux NTPROF and writes
#     into PAGES: compare.md (`ntprof compare`, the files side by side),
#     matrix.md (`ntprof matrix --observed`, each file a column beside the
#     model on its version) and export.md (each exported test's summary
#     line). Each page is replaced whole, only once all are written.
#
# Exit status 2, before anything is run or written, for bad arguments: a
# missing exe or directory, a NAME that is not a file name.
set -u

usage() {
	echo "usage: windows-ci.sh live DIR NAME NTPROF_EXE TEST_EXE [RUN...]" >&2
	echo "       windows-ci.sh pages DIR PAGES NTPROF" >&2
	exit 2
}
bad() {
	echo "windows-ci.sh: $*" >&2
	exit 2
}
fail() {
	echo "windows-ci.sh: $*" >&2
	exit 1
}
need_file() {   # PATH WHAT-BUILDS-IT
	[ -f "$1" ] || bad "$1: no such file ($2 builds it)"
}

# The summary line of a Wine-style test: "NAME: N tests executed (...)".
summary_of() {   # LOG
	tr -d '\r' <"$1" | grep 'tests executed' | tail -n 1
}

live() {
	[ $# -ge 4 ] || usage
	dir=$1 name=$2 exe=$3 test=$4
	shift 4
	case $name in
	'' | *[!A-Za-z0-9._-]*) bad "NAME '$name' must be letters, digits, '.', '_' or '-'" ;;
	esac
	need_file "$exe" "make windows"
	need_file "$test" "make export-test"
	mkdir -p "$dir" || bad "$dir: cannot make the directory"
	json=$dir/$name.live.json log=$dir/$name.live.log testlog=$dir/$name.export.log

	# shellcheck disable=SC2086 # LIVE_VECTORS is words
	"$@" "$exe" live --format json --output "$json" ${LIVE_VECTORS:-} >"$log" 2>&1
	rc=$?
	echo "windows-ci.sh: $name: live exited $rc (0 all match, 1 some differ; $log)"
	case $rc in
	0 | 1) [ -s "$json" ] || fail "$name: live wrote no $json" ;;
	*) fail "$name: live exited $rc: $(tail -n 3 "$log" | tr '\r\n' '  ')" ;;
	esac

	"$@" "$test" >"$testlog" 2>&1
	rc=$?
	line=$(summary_of "$testlog")
	[ -n "$line" ] || fail "$name: the exported test printed no summary (exit $rc): it did not run ($testlog)"
	echo "windows-ci.sh: $name: exported test exited $rc: $line"
}

pages() {
	[ $# -eq 3 ] || usage
	dir=$1 out=$2 ntprof=$3
	[ -d "$dir" ] || bad "$dir: no such directory"
	case $dir in *[[:space:]]*) bad "$dir: a directory whose name has no blanks, please" ;; esac
	[ -x "$ntprof" ] || bad "$ntprof: not an executable (make build/ntprof builds it)"
	files=$(find "$dir" -maxdepth 2 -name '*.live.json' -type f | LC_ALL=C sort)
	[ -n "$files" ] || bad "$dir: no *.live.json result files in it"
	mkdir -p "$out" || bad "$out: cannot make the directory"
	tmp=$(mktemp -d "$out/.pages.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT

	observed=
	for f in $files; do
		observed="$observed --observed $f"
	done
	# compare exits 1 when the files differ, which is what they are for.
	# shellcheck disable=SC2086 # one word per file: the names are the runners'
	"$ntprof" compare --format markdown --output "$tmp/compare.md" $files
	[ $? -le 1 ] || fail "ntprof compare failed on $dir"
	# shellcheck disable=SC2086
	"$ntprof" matrix --format markdown --output "$tmp/matrix.md" $observed ||
		fail "ntprof matrix --observed failed on $dir"

	{
		echo "# The exported test on each system"
		echo
		for f in $files; do
			log=${f%.live.json}.export.log
			name=$(basename "${f%.live.json}")
			if [ -f "$log" ] && line=$(summary_of "$log") && [ -n "$line" ]; then
				echo "- $name: $line"
			else
				echo "- $name: no summary line: the test did not run"
			fi
		done
	} >"$tmp/export.md"

	for page in compare.md matrix.md export.md; do
		mv -f "$tmp/$page" "$out/$page" || fail "$out/$page: cannot write it"
	done
	echo "windows-ci.sh: $(echo "$files" | wc -l | tr -d ' ') result files: $out/compare.md, matrix.md, export.md"
}

[ $# -ge 1 ] || usage
mode=$1
shift
case $mode in
live) live "$@" ;;
pages) pages "$@" ;;
*) usage ;;
esac
