#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/figures.sh (`make figures`, docs/figures.md) in its --quick mode:
#   - the page names the commit, the machine's nproc and the load, and each
#     count is the one the command it names gives now (rules, vectors);
#   - it holds the benchmark's table: a ratio and a spread for 20 rows and
#     3 counting loops;
#   - twin: a benchmark that fails makes the script fail, exit 1, naming
#     it, and the page already there is left as it was;
#   - bad arguments (a missing build tree, a directory that cannot take
#     the page, a wrong count of arguments) are refused, exit 2.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
build=$(dirname "$NTPROF_BIN")
figures=$root/tools/figures.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-figures-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# has NAME TEXT: the page holds the line TEXT.
has() {
	if grep -q -F -x -- "$2" "$tmp/figures.md"; then
		ok "$1"
	else
		not_ok "$1" "want the line: $2" "have: $(grep -F -- "${2%%:*}" "$tmp/figures.md" | head -2)"
	fi
}

if "$figures" --quick "$root" "$build" "$tmp/figures.md" >"$tmp/out" 2>"$tmp/err"; then
	ok "figures.sh --quick writes the page"
else
	not_ok "figures.sh --quick writes the page" "exit $?" "$(head -5 "$tmp/err")"
fi
if commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null); then
	if grep -q -E "^- commit: $commit(, with uncommitted changes)?\$" "$tmp/figures.md"; then
		ok "the page names the commit ($commit)"
	else
		not_ok "the page names the commit" "want $commit, have: $(grep '^- commit' "$tmp/figures.md")"
	fi
fi
if grep -q -E "^- machine: nproc $(nproc), .+" "$tmp/figures.md"; then
	ok "the page names the machine's processors"
else
	not_ok "the page names the machine's processors" "want nproc $(nproc), have: $(grep '^- machine' "$tmp/figures.md")"
fi
if grep -q -E '^- load average at the start: [0-9.]+ [0-9.]+ [0-9.]+$' "$tmp/figures.md"; then
	ok "the page gives the load at the start"
else
	not_ok "the page gives the load at the start" "have: $(grep '^- load' "$tmp/figures.md")"
fi
rules=$("$NTPROF_BIN" explain --check --root "$root" | sed -n 's/^rules: \([0-9]*\), .*/\1/p')
has "the rule count is explain --check's" "- rules in SPEC.md: $rules"
vectors=$("$NTPROF_BIN" run --root "$root" 2>&1 | sed -n 's/^ntprof run: backend model, \([^;]*\);.*/\1/p')
has "the vector count is ntprof run's" "- fixtures/ on the model (ntprof run): $vectors"
ratios=$(grep -c -E ' [0-9]+\.[0-9]+x +[0-9]+\.[0-9]+-[0-9]+\.[0-9]+' "$tmp/figures.md")
if [ "$ratios" -eq 23 ]; then
	ok "the benchmark's table: a ratio and its spread for 20 rows and 3 counting loops"
else
	not_ok "the benchmark's table: a ratio and its spread for 20 rows and 3 counting loops" "have $ratios"
fi

# The twin: a build tree whose benchmark fails (a row ending otherwise).
mkdir -p "$tmp/broken/bench"
ln -s "$build/ntprof" "$tmp/broken/ntprof"
ln -s "$build/conformance" "$tmp/broken/conformance"
printf '#!/bin/sh\necho "ntprof bench: a row ended otherwise" >&2\nexit 1\n' >"$tmp/broken/bench/bench"
chmod +x "$tmp/broken/bench/bench"
echo "the page as it was" >"$tmp/kept.md"
"$figures" --quick "$root" "$tmp/broken" "$tmp/kept.md" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q -F "figures.sh: the benchmark failed" "$tmp/err" &&
	[ "$(cat "$tmp/kept.md")" = "the page as it was" ]; then
	ok "twin: a failing benchmark fails the script (exit 1) and leaves the page as it was"
else
	not_ok "twin: a failing benchmark fails the script and leaves the page" "exit $rc" "$(head -3 "$tmp/err")"
fi

# refused NAME WANT ARGS...: figures.sh ARGS exits 2 with WANT in its message.
refused() {
	name=$1 want=$2
	shift 2
	"$figures" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q -F -- "$want" "$tmp/err"; then
		ok "$name is refused (exit 2)"
	else
		not_ok "$name is refused (exit 2)" "exit $rc, want '$want'" "$(head -3 "$tmp/err")"
	fi
}
refused "a build tree that is not one" "$tmp/nothing/ntprof: not found" --quick "$root" "$tmp/nothing" "$tmp/f.md"
refused "a page in a missing directory" "$tmp/no/dir/f.md: its directory" --quick "$root" "$build" "$tmp/no/dir/f.md"
refused "a wrong count of arguments" "usage: figures.sh" --quick "$root"

echo "1..$n"
[ "$failed" -eq 0 ]
