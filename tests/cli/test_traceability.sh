#!/bin/sh
# Rule traceability: `ntprof explain --check` and `ntprof trace` must find
# every SPEC.md rule implemented (model/), proved by a vector (fixtures/) and
# tested (tests/), and nothing citing a rule SPEC.md lacks or retired.
# trace gives the same lines as explain --check (one implementation, checked
# on every tree below) and writes the rule matrix, rules.md and rules.html.
#
# Negative twins run the check on a copy of the tree with one defect added
# each (an unproved rule, a vector citing an unknown rule, a test citing an
# unknown rule, a vector citing a retired rule) and require exactly that
# defect to be reported. The fake rule IDs are assembled at run time so that
# this file itself cites none of them.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-trace.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

n=0
failed=0

pass() {
	n=$((n + 1))
	echo "ok $n - $1"
}

fail() { # fail DESCRIPTION WHY: shows the check's output too
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
	echo "#   $2"
	echo "#   exit status: $rc"
	sed 's/^/#   | /' "$tmp/check.out"
}

# check DIR: runs the check there; $rc, $tmp/check.out, $problems. Runs
# `trace` too, into $tmp/out: its stdout and exit status must be the check's,
# and it must have written both reports (a failure of its own if not).
check() {
	"$NTPROF_BIN" explain --check --root "$1" >"$tmp/check.out" 2>&1
	rc=$?
	problems=$(sed -n 's/^rules: [0-9][0-9]*, problems: \([0-9][0-9]*\)$/\1/p' "$tmp/check.out")
	rm -rf "$tmp/out"
	"$NTPROF_BIN" trace --root "$1" --output-dir "$tmp/out" >"$tmp/trace.out" 2>&1
	trace_rc=$?
	if [ "$trace_rc" -ne "$rc" ] || ! cmp -s "$tmp/trace.out" "$tmp/check.out"; then
		fail "trace on $1 reports what explain --check does" \
			"trace exit $trace_rc; trace output: $(head -c 400 "$tmp/trace.out")"
	elif [ ! -s "$tmp/out/rules.md" ] || [ ! -s "$tmp/out/rules.html" ]; then
		fail "trace on $1 writes rules.md and rules.html" "a report is missing or empty"
	fi
}

# in_report TEXT: both reports of the last check show TEXT (HTML-escaped there).
in_report() {
	html=$(printf '%s' "$1" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g')
	grep -q -F -e "$1" "$tmp/out/rules.md" && grep -q -F -e "$html" "$tmp/out/rules.html"
}

fake() { # fake NUMBER: an SI rule ID that SPEC.md does not have
	printf 'SI-%s' "$1"
}

# ---- the real tree ----

check "$root"
if [ "$rc" -ne 0 ]; then
	fail "explain --check on the source tree" "want exit status 0 and no problems"
elif [ "$(wc -l <"$tmp/check.out")" -ne 1 ] || [ "$problems" != 0 ]; then
	fail "explain --check on the source tree" "want only the line 'rules: N, problems: 0'"
else
	pass "explain --check on the source tree: no problems"
fi

# ---- the rule matrix of the real tree ----

nrules=$(sed -n 's/^rules: \([0-9][0-9]*\), problems: .*$/\1/p' "$tmp/check.out")
rows=$(grep -c '^| [A-Z][A-Z]*-[0-9][0-9a-z]* (SPEC.md:[0-9][0-9]*) |' "$tmp/out/rules.md")
if [ -z "$nrules" ] || [ "$rows" != "$nrules" ]; then
	fail "rules.md has one row per rule" "want $nrules rows, got $rows"
else
	pass "rules.md has one row per rule ($rows)"
fi
# Every file:line the matrix gives for SI-1's code must cite SI-1 there.
row=$(grep '^| SI-1 (SPEC.md:' "$tmp/out/rules.md")
code=$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $4 }')
bad=
for group in $(printf '%s' "$code" | tr -d ' ' | tr ';' ' '); do
	file=${group%%:*}
	for l in $(printf '%s' "${group#*:}" | tr ',' ' '); do
		sed -n "${l}p" "$root/$file" | grep -q 'SI-1\([^0-9a-z]\|$\)' || bad="$bad $file:$l"
	done
done
if [ -z "$code" ] || [ -n "$bad" ]; then
	fail "rules.md gives SI-1's implementing lines" "row: $row; lines without SI-1:$bad"
else
	pass "rules.md gives SI-1's implementing lines, each citing SI-1"
fi
if ! printf '%s\n' "$row" | grep -q '| ok | ' ||
	! printf '%s\n' "$row" | grep -q 'set-interval/[a-z-]* (fixtures/interval/set-interval.vec:[0-9]*)' ||
	! printf '%s\n' "$row" | grep -q 'tests/model/test_set_interval.c:[0-9]'; then
	fail "rules.md shows SI-1 as ok with its vectors and tests" "row: $row"
else
	pass "rules.md shows SI-1 as ok with its vectors and tests"
fi
# Self-contained: nothing loaded from elsewhere.
if grep -q -i -e '<link' -e '<script' -e 'src=' -e 'url(' "$tmp/out/rules.html" ||
	! grep -q '<tr id="SI-1">' "$tmp/out/rules.html"; then
	fail "rules.html is one self-contained page with a row per rule" "see $tmp/out/rules.html"
else
	pass "rules.html is one self-contained page with a row per rule"
fi
# Its links: each file:line to a file of the tree (relative to build/reports/,
# two levels down) that has that line, SI-1's code links to lines citing
# SI-1, and every in-page link to an anchor of the page.
bad_links() { # bad_links PAGE: the links of PAGE that lead nowhere
	grep -o 'href="[^"]*"' "$1" | sed 's/^href="//; s/"$//' | sort -u | while read -r url; do
		case $url in
		'#'*)	grep -q -F "id=\"${url#\#}\"" "$1" || echo "$url" ;;
		../../*'#L'*)
			file=${url#../../}; l=${file##*#L}; file=${file%#L*}
			[ -f "$root/$file" ] && [ "$(wc -l <"$root/$file")" -ge "$l" ] || echo "$url" ;;
		../../*) [ -f "$root/${url#../../}" ] || echo "$url" ;;
		esac
	done
}
bad=$(bad_links "$tmp/out/rules.html")
si1=$(grep '<tr id="SI-1">' "$tmp/out/rules.html" | sed 's#</td><td class="files">#\n#g' | sed -n 2p |
	grep -o 'href="../../[^"]*"' | sed 's/^href="..\/..\///; s/"$//')
for link in $si1; do
	sed -n "${link##*#L}p" "$root/${link%#L*}" | grep -q 'SI-1\([^0-9a-z]\|$\)' || bad="$bad $link"
done
# the twin: a page with a link to a line past a file's end and one to no anchor
nowhere=$(fake 0x)
sed "s#<a href=\"../../SPEC.md\\#L\\([0-9]*\\)\">#<a href=\"../../SPEC.md\\#L9\\1\">#; s#<a href=\"\\#SI-1\">#<a href=\"\\#$nowhere\">#" \
	"$tmp/out/rules.html" >"$tmp/twin.html"
twin=$(bad_links "$tmp/twin.html" | tr '\n' ' ')
if [ -n "$bad" ] || [ -z "$si1" ]; then
	fail "rules.html links each citation to its file and line" "links that lead nowhere:$bad"
elif ! printf '%s' "$twin" | grep -q "#$nowhere" || ! printf '%s' "$twin" | grep -q 'SPEC.md#L9'; then
	fail "rules.html's link check refuses links that lead nowhere" "the twin's bad links: $twin"
else
	pass "rules.html links each citation to its file and line, SI-1's code to lines citing it"
fi
# An output directory that cannot be made is bad input: exit 2, nothing written.
: >"$tmp/plainfile"
"$NTPROF_BIN" trace --root "$root" --output-dir "$tmp/plainfile/reports" >"$tmp/bad.out" 2>&1
brc=$?
if [ "$brc" -ne 2 ] || ! grep -q -F "ntprof: --output-dir $tmp/plainfile/reports: cannot create it" "$tmp/bad.out"; then
	fail "trace names an output directory it cannot make, exit 2" "exit $brc: $(cat "$tmp/bad.out")"
else
	pass "trace names an output directory it cannot make, exit 2"
fi

# ---- negative twins on a copy ----

fresh_copy() {
	rm -rf "$tmp/tree"
	mkdir "$tmp/tree" &&
		cp -R "$root/SPEC.md" "$root/fixtures" "$root/model" "$root/tests" "$tmp/tree/"
}

if ! fresh_copy; then
	echo "Bail out! cannot copy the tree to $tmp/tree"
	exit 1
fi
check "$tmp/tree"
base_rc=$rc base=$problems
if [ -z "$base" ] || { [ "$base" -eq 0 ] && [ "$rc" -ne 0 ]; }; then
	fail "the copied tree checks like the source tree" "want a 'rules: N, problems: P' line"
	base=0
else
	pass "the copied tree checks ($base problems before the twins)"
fi

# twin_result DESCRIPTION LINE: the check must exit 1 and report LINE as the one new problem.
twin_result() {
	if [ "$rc" -ne 1 ]; then
		fail "$1" "want exit status 1"
	elif ! grep -q -x -F -e "$2" "$tmp/check.out"; then
		fail "$1" "want the line: $2"
	elif [ "$problems" != $((base + 1)) ]; then
		fail "$1" "want $((base + 1)) problems (one more than the copy without the defect)"
	else
		pass "$1"
	fi
}

# 1. A rule that nothing implements, proves or tests.
r99=$(fake 99)
printf '\n### %s — test\nA rule made up by test_traceability.sh.\n' "$r99" >>"$tmp/tree/SPEC.md"
line=$(grep -n -F "### $r99 — test" "$tmp/tree/SPEC.md" | cut -d: -f1)
check "$tmp/tree"
twin_result "a rule without implementation, vector or test is reported" \
	"SPEC.md:$line: rule $r99 lacks an implementation (model/) a vector (fixtures/) a test (tests/)"

# 1b. A rule implemented and proved by a vector, but tested nowhere.
fresh_copy
printf '\n### %s — test\nA rule made up by test_traceability.sh.\n' "$r99" >>"$tmp/tree/SPEC.md"
line=$(grep -n -F "### $r99 — test" "$tmp/tree/SPEC.md" | cut -d: -f1)
printf '/* %s */\n' "$r99" >"$tmp/tree/model/zz_twin.h"
cat >"$tmp/tree/fixtures/zz-twin.vec" <<EOF
vector twin/untested-rule
  title   proves a rule no test cites
  rules   $r99
  source  test_traceability.sh
  call    NtQueryIntervalProfile
  expect  STATUS_SUCCESS
EOF
check "$tmp/tree"
twin_result "a rule without a test is reported" "SPEC.md:$line: rule $r99 lacks a test (tests/)"

# 1c. A rule only a test cites.
rm "$tmp/tree/model/zz_twin.h" "$tmp/tree/fixtures/zz-twin.vec"
printf '#!/bin/sh\n# %s\nexit 0\n' "$r99" >"$tmp/tree/tests/zz_twin.sh"
check "$tmp/tree"
twin_result "a rule with only a test is reported" \
	"SPEC.md:$line: rule $r99 lacks an implementation (model/) a vector (fixtures/)"

# 2. A vector citing a rule SPEC.md lacks.
fresh_copy
r98=$(fake 98)
cat >"$tmp/tree/fixtures/zz-twin.vec" <<EOF
# A vector made up by test_traceability.sh.
vector twin/unknown-rule
  title   cites a rule SPEC.md does not have
  rules   SI-1 $r98
  source  test_traceability.sh
  given   privilege=on
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_SUCCESS
EOF
check "$tmp/tree"
twin_result "a vector citing an unknown rule is reported" \
	"$tmp/tree/fixtures/zz-twin.vec:2: vector twin/unknown-rule cites unknown rule $r98"

# 3. A test citing a rule SPEC.md lacks.
fresh_copy
r97=$(fake 97)
printf '#!/bin/sh\n# proves nothing\n# %s: a rule SPEC.md does not have\nexit 0\n' "$r97" >"$tmp/tree/tests/zz_twin.sh"
check "$tmp/tree"
twin_result "a test citing an unknown rule is reported" \
	"tests/zz_twin.sh:3: test cites $r97, which SPEC.md does not have"

# 4. A model comment citing a rule SPEC.md lacks.
fresh_copy
printf '/* %s: a rule SPEC.md does not have */\n' "$r97" >"$tmp/tree/model/zz_twin.h"
check "$tmp/tree"
twin_result "model code citing an unknown rule is reported" \
	"model/zz_twin.h:1: model cites $r97, which SPEC.md does not have"

# 5. A vector citing a retired rule (the retired rule itself needs nothing).
fresh_copy
r96=$(fake 96)
printf '\n### %s — old\nRetired: replaced by SI-1.\n' "$r96" >>"$tmp/tree/SPEC.md"
check "$tmp/tree"
if [ "$problems" != "$base" ] || [ "$rc" -ne "$base_rc" ]; then
	fail "a retired rule needs no implementation, vector or test" "want $base problems as before"
else
	pass "a retired rule needs no implementation, vector or test"
fi
sed "s/SI-1 $r98/$r96/" >"$tmp/tree/fixtures/zz-twin.vec" <<EOF
# A vector made up by test_traceability.sh.
vector twin/retired-rule
  title   cites a retired rule
  rules   SI-1 $r98
  source  test_traceability.sh
  given   privilege=on
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_SUCCESS
EOF
check "$tmp/tree"
twin_result "a vector citing a retired rule is reported" \
	"$tmp/tree/fixtures/zz-twin.vec:2: vector twin/retired-rule cites retired rule $r96"

# 6. Code and a test citing a retired rule (the SPEC.md copy has it retired).
printf '/* %s: an old rule */\n' "$r96" >"$tmp/tree/model/zz_twin.h"
rm "$tmp/tree/fixtures/zz-twin.vec"
check "$tmp/tree"
twin_result "model code citing a retired rule is reported" \
	"model/zz_twin.h:1: model cites retired rule $r96"
rm "$tmp/tree/model/zz_twin.h"
printf '#!/bin/sh\n# %s\nexit 0\n' "$r96" >"$tmp/tree/tests/zz_twin.sh"
check "$tmp/tree"
twin_result "a test citing a retired rule is reported" \
	"tests/zz_twin.sh:2: test cites retired rule $r96"
if in_report "tests/zz_twin.sh:2: test cites retired rule $r96" &&
	grep -q "^| $r96 (SPEC.md:[0-9]*) | old | retired | " "$tmp/out/rules.md"; then
	pass "the reports list the problem and show the rule as retired"
else
	fail "the reports list the problem and show the rule as retired" "see $tmp/out/rules.md"
fi

# 7. A vector citing a rule of a prefix SPEC.md does not use at all.
fresh_copy
xx=$(printf 'XX-%s' 99)
cat >"$tmp/tree/fixtures/zz-twin.vec" <<EOF
vector twin/foreign-rule
  title   cites a rule of a section SPEC.md does not have
  rules   SI-1 $xx
  source  test_traceability.sh
  given   privilege=on
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_SUCCESS
EOF
check "$tmp/tree"
twin_result "a vector citing $xx is reported" \
	"$tmp/tree/fixtures/zz-twin.vec:1: vector twin/foreign-rule cites unknown rule $xx"

# 8. A rule removed from SPEC.md: everything that cites it is reported, and
# the matrix no longer has its row.
fresh_copy
awk '/^### / { skip = ($2 == "QI-1") } !skip' "$root/SPEC.md" >"$tmp/tree/SPEC.md"
check "$tmp/tree"
if [ "$rc" -ne 1 ] ||
	! grep -q '^model/[a-z_/]*\.[ch]:[0-9]*: model cites QI-1, which SPEC.md does not have$' "$tmp/check.out" ||
	! grep -q '^tests/[a-z]*/test_[a-z_]*\.[a-z]*:[0-9]*: test cites QI-1, which SPEC.md does not have$' "$tmp/check.out" ||
	! grep -q "^$tmp/tree/fixtures/[a-z/_-]*\.vec:[0-9]*: vector [a-z/-]* cites unknown rule QI-1$" "$tmp/check.out" ||
	grep -q '^| QI-1 ' "$tmp/out/rules.md"; then
	fail "a rule removed from SPEC.md: its code, vectors and tests are reported" "see output"
else
	pass "a rule removed from SPEC.md: its code, vectors and tests are reported ($problems problems)"
fi

echo "1..$n"
if [ "$failed" -ne 0 ]; then
	echo "# $failed of $n checks failed" >&2
	exit 1
fi
exit 0
