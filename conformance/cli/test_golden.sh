#!/bin/sh
# SPDX-License-Identifier: MIT
# Behaviour kept across refactors: the outputs of ntprof's commands (run in
# every format, matrix, diff, explore, compare, explain, trace, versions, the
# `call` examples of docs/compare-versions.md, usage errors), run on the
# frozen inputs of conformance/data/golden-input/, must be those recorded as
# text in conformance/data/golden/ (tools/golden.sh says what runs and how
# to record). The twin proves the comparison can fail, and that fixtures/ is
# not read: on a copy of the tree with a vector added to fixtures/ and one
# line of the recorded `versions` altered, exactly `versions` is reported,
# by name and with the line in its diff, with exit status 1. The twin skips
# `explore` (GOLDEN_SKIP), the sweep of every function, about 60% of the
# run's CPU time, and explore-create, 12% (a sweep of one function):
# explore-against reads the same fixtures (the accept lines) on the same
# path, in about a ninth of explore-create's CPU time.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
golden=$root/conformance/data/golden

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-golden.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$root/conformance/cli/tap.sh"

"$root/tools/golden.sh" "$root" "$NTPROF_BIN" "$golden" > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	ok "every recorded output unchanged ($(find "$golden" -name "*.out" | wc -l) outputs)"
else
	not_ok "outputs differ from conformance/data/golden/ (exit $rc)"
	sed 's/^/#   | /' "$tmp/out" | head -200
fi

# the twin: a tree whose fixtures/ has one vector more, and the recorded
# `versions` with its first line of stdout altered
mkdir "$tmp/tree"
for e in "$root"/*; do
	case ${e##*/} in fixtures) ;; *) ln -s "$e" "$tmp/tree/${e##*/}" ;; esac
done
cp -R "$root/fixtures" "$tmp/tree/fixtures"
cat > "$tmp/tree/fixtures/interval/added.vec" <<'EOF'
vector golden/added
  title   A vector added after the golden inputs were frozen
  rules   SI-1 QI-5
  source  conformance/cli/test_golden.sh (made up)
  call    NtQueryIntervalProfile Source=ProfileTime
  expect  STATUS_SUCCESS Interval=0x9897
EOF
cp -R "$golden" "$tmp/golden"
awk 'prev == "--- stdout" && !done { $0 = $0 " (altered)"; done = 1 } { prev = $0; print }' \
	"$golden/versions.out" > "$tmp/golden/versions.out"
GOLDEN_SKIP='explore explore-create' "$root/tools/golden.sh" "$tmp/tree" "$NTPROF_BIN" "$tmp/golden" > "$tmp/twin.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -qx '  versions' "$tmp/twin.out" && [ "$(grep -c '^  [^ ]' "$tmp/twin.out")" -eq 1 ] &&
	grep -q '^    -.* (altered)$' "$tmp/twin.out" && ! cmp -s "$golden/versions.out" "$tmp/golden/versions.out"; then
	ok "an altered output is reported by name, with its diff; an added vector changes none (fail twin)"
else
	not_ok "an altered output was not reported as the one change (exit $rc)"
	sed 's/^/#   | /' "$tmp/twin.out" | head -60
fi
echo "1..$n"
[ "$failed" -eq 0 ]
