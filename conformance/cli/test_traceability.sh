#!/bin/sh
# SPDX-License-Identifier: MIT
# Rule traceability: `ntprof explain --check` and `ntprof trace` must find
# every SPEC.md rule implemented (applied by the model, model/, in a run of
# the vectors on it), proved by a vector (fixtures/) and
# tested (a rules tag in conformance/, conformance/README.md), and nothing citing a rule
# SPEC.md lacks or retired. trace gives the same lines as explain --check (one
# implementation, checked on every tree below) and writes the rule matrix,
# rules.md and rules.html, whose tests column gives the tags' file:line.
#
# Negative twins run the check on a copy of the tree with one defect added
# each (an unproved rule, a rule only mentioned in tests' comments and code,
# a rules tag in the wrong place or naming something else, a second heading
# of one rule ID, a vector or test citing an unknown or retired rule) and
# require exactly that defect to be reported; a positive twin shows a tag
# making a test. The fake rule IDs are assembled at run time, and the tags
# the twins write are printed by printf, so that this file itself cites none
# of them and holds no tag.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-trace.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

pass() { ok "$1"; }

fail() { not_ok "$1" "$2"; }
failure_detail() {   # the check's exit status and output, after a failure
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
# A rule ID of a prefix SPEC.md does not use.
xx=$(printf "XX-%s" 99)

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
# Every file:line the matrix gives for SI-1's code must apply SI-1 there
# (NP_RULE symbol SI_1: the model names a rule as a value, not in a comment).
row=$(grep '^| SI-1 (SPEC.md:' "$tmp/out/rules.md")
code=$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $4 }')
bad=
for group in $(printf '%s' "$code" | tr -d ' ' | tr ';' ' '); do
	file=${group%%:*}
	for l in $(printf '%s' "${group#*:}" | tr ',' ' '); do
		sed -n "${l}p" "$root/$file" | grep -q 'SI_1\([^0-9a-z]\|$\)' || bad="$bad $file:$l"
	done
done
if [ -z "$code" ] || [ -n "$bad" ]; then
	fail "rules.md gives SI-1's implementing lines" "row: $row; lines without SI-1:$bad"
else
	pass "rules.md gives SI-1's implementing lines, each applying SI-1"
fi
# Every file:line the matrix gives for SI-1's tests must be a rules tag naming
# SI-1, right before a test's definition (C) or a line of code (shell).
tests=$(printf '%s\n' "$row" | awk -F' [|] ' '{ print $6 }' | sed 's/ [|]$//')
bad=
for group in $(printf '%s' "$tests" | tr -d ' ' | tr ';' ' '); do
	file=${group%%:*}
	for l in $(printf '%s' "${group#*:}" | tr ',' ' '); do
		case $file in
		*.sh) next='^[ 	]*[^ 	#]' tag='^[ 	]*# rules: \(.* \)*SI-1\( .*\)*$' ;;
		*) next='^static void test_[A-Za-z0-9_]*(void \*\*state)' tag='^[ 	]*/\* rules: \(.* \)*SI-1\( .*\)* \*/$' ;;
		esac
		sed -n "${l}p" "$root/$file" | grep -q -e "$tag" &&
			sed -n "$((l + 1))p" "$root/$file" | grep -q -e "$next" || bad="$bad $file:$l"
	done
done
if [ -z "$tests" ] || [ -n "$bad" ]; then
	fail "rules.md gives SI-1's tests as rules tags" "tests: $tests; not a tag of SI-1 before a test:$bad"
else
	pass "rules.md gives SI-1's tests, each a rules tag naming SI-1 before a test"
fi
if ! printf '%s\n' "$row" | grep -q '| ok | ' ||
	! printf '%s\n' "$row" | grep -q 'set-interval/[a-z-]* (fixtures/interval/set-interval.vec:[0-9]*)' ||
	! printf '%s\n' "$row" | grep -q 'conformance/model/test_set_interval.c:[0-9]'; then
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
# two levels down) that has that line, SI-1's code links to lines applying
# SI-1, and every in-page link to an anchor of the page.
bad_links() { # bad_links PAGE: the links of PAGE that lead nowhere (one awk: a page has ~1600)
	grep -o 'href="[^"]*"' "$1" | sed 's/^href="//; s/"$//' | sort -u | awk -v root="$root" -v page="$1" '
		BEGIN {   # the anchors of the page
			while ((getline s < page) > 0)
				while (match(s, /id="[^"]*"/)) {
					id[substr(s, RSTART + 4, RLENGTH - 5)] = 1
					s = substr(s, RSTART + RLENGTH)
				}
		}
		function lines(file,   n, s, r) {   # its line count, -1 when it cannot be read; once per file
			if (!(file in count)) {
				n = 0
				while ((r = getline s < file) > 0)
					n++
				close(file)
				count[file] = r < 0 ? -1 : n
			}
			return count[file]
		}
		/^#/ { if (!(substr($0, 2) in id)) print; next }
		/^\.\.\/\.\.\/.*#L/ {
			file = substr($0, 7); l = file; sub(/.*#L/, "", l); sub(/#L[^#]*$/, "", file)
			if (lines(root "/" file) < l + 0) print
			next
		}
		/^\.\.\/\.\.\// { if (lines(root "/" substr($0, 7)) < 0) print }'
}
bad=$(bad_links "$tmp/out/rules.html")
si1=$(grep '<tr id="SI-1">' "$tmp/out/rules.html" | sed 's#</td><td class="files">#\n#g' | sed -n 2p |
	grep -o 'href="../../[^"]*"' | sed 's/^href="..\/..\///; s/"$//')
for link in $si1; do
	sed -n "${link##*#L}p" "$root/${link%#L*}" | grep -q 'SI_1\([^0-9a-z]\|$\)' || bad="$bad $link"
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
		cp -R "$root/SPEC.md" "$root/fixtures" "$root/model" "$root/conformance" "$tmp/tree/"
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
	"SPEC.md:$line: rule $r99 lacks an application (no vector's run on the model applies it) a vector (fixtures/) a test (a rules tag in conformance/)"

# 1b. A rule proved by a vector, but tested nowhere. A comment in model/
# is no implementation: only a run of the vectors on the model applying the
# rule is, and this copy's model (the built one) never applies it.
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
twin_result "a rule without a test is reported, a comment in model/ is no implementation" \
	"SPEC.md:$line: rule $r99 lacks an application (no vector's run on the model applies it) a test (a rules tag in conformance/)"

# 1c. Mentions are no test: the rule named in the description of a CMocka
# test, in a comment of its body, and in a shell script's comment and code.
printf '/* %s: what the test is about. */\nstatic void test_twin(void **state)\n{\n\t(void)state;   /* %s */\n}\n' \
	"$r99" "$r99" >"$tmp/tree/conformance/zz_twin.c"
printf '#!/bin/sh\n# %s: a comment\necho %s\n' "$r99" "$r99" >"$tmp/tree/conformance/zz_twin.sh"
check "$tmp/tree"
twin_result "a rule only mentioned in tests (comments, code) is reported as lacking a test" \
	"SPEC.md:$line: rule $r99 lacks an application (no vector's run on the model applies it) a test (a rules tag in conformance/)"

# 1d. A rules tag right before the test's definition makes it the rule's
# test, and the matrix lists the tag's file:line; but a tagged test and a
# vector are no evidence that the model does it: a rule no vector's run on
# the model applies is still reported (the twin of the semantic check).
printf '/* %s: what the test is about. */\n/%s rules: %s */\nstatic void test_twin(void **state)\n{\n\t(void)state;\n}\n' \
	"$r99" '*' "$r99" >"$tmp/tree/conformance/zz_twin.c"
check "$tmp/tree"
twin_result "a rule tagged in a test and listed by a vector, but applied by no run, is reported" \
	"SPEC.md:$line: rule $r99 lacks an application (no vector's run on the model applies it)"
if ! grep "^| $r99 (SPEC.md:$line) | test | " "$tmp/out/rules.md" |
	grep -q "| twin/untested-rule (fixtures/zz-twin.vec:1) | conformance/zz_twin.c:2 |\$"; then
	fail "a rules tag before a test's definition is the rule's test" "row: $(grep "^| $r99 " "$tmp/out/rules.md")"
else
	pass "a rules tag before a test's definition is the rule's test, listed as conformance/zz_twin.c:2"
fi

# 1e. A rule only a test (a shell script's tag) checks.
rm "$tmp/tree/model/zz_twin.h" "$tmp/tree/fixtures/zz-twin.vec" "$tmp/tree/conformance/zz_twin.c"
printf '#!/bin/sh\n# rules: %s\nexit 0\n' "$r99" >"$tmp/tree/conformance/zz_twin.sh"
check "$tmp/tree"
twin_result "a rule with only a test is reported" \
	"SPEC.md:$line: rule $r99 lacks an application (no vector's run on the model applies it) a vector (fixtures/)"

# 1f. Tags the parser cannot take as a test's: each one is reported.
fresh_copy
printf '/%s rules: SI-1 */\n\nstatic void test_twin(void **state)\n{\n\t(void)state;\n}\n' '*' >"$tmp/tree/conformance/zz_twin.c"
check "$tmp/tree"
twin_result "a C rules tag not right before a test's definition is reported" \
	"conformance/zz_twin.c:1: rules tag is not right before a test's definition (static void test_NAME(void **state))"
rm "$tmp/tree/conformance/zz_twin.c"
printf '#!/bin/sh\n# rules: SI-1\n# a comment, not the check\nexit 0\n' >"$tmp/tree/conformance/zz_twin.sh"
check "$tmp/tree"
twin_result "a shell rules tag not right before a line of code is reported" \
	"conformance/zz_twin.sh:2: rules tag is not right before a line of code (the check)"
printf '#!/bin/sh\n# rules: SI-1, QI-1\nexit 0\n' >"$tmp/tree/conformance/zz_twin.sh"
check "$tmp/tree"
twin_result "a rules tag with something other than rule IDs is reported" \
	'conformance/zz_twin.sh:2: rules tag has "SI-1,", which is not a rule ID'
printf '#!/bin/sh\n# rules: %s\nexit 0\n' "$xx" >"$tmp/tree/conformance/zz_twin.sh"
check "$tmp/tree"
twin_result "a rules tag naming $xx (a prefix SPEC.md does not use) is reported" \
	"conformance/zz_twin.sh:2: test cites $xx, which SPEC.md does not have"

# 1g. A second heading of one rule ID.
fresh_copy
first=$(grep -n '^### SI-1 ' "$root/SPEC.md" | head -n 1 | cut -d: -f1)
printf '\n### SI-1 — again\nA second heading made up by test_traceability.sh.\n' >>"$tmp/tree/SPEC.md"
line=$(grep -n -F '### SI-1 — again' "$tmp/tree/SPEC.md" | cut -d: -f1)
check "$tmp/tree"
twin_result "a second heading of a rule ID is reported" \
	"SPEC.md:$line: rule SI-1 has a second heading (the first is SPEC.md:$first)"
if ! grep -q -x -F "rules: $nrules, problems: $((base + 1))" "$tmp/check.out"; then
	fail "a second heading is no rule of its own" "want 'rules: $nrules, problems: $((base + 1))'"
else
	pass "a second heading is no rule of its own ($nrules rules)"
fi

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
printf '#!/bin/sh\n# proves nothing\n# %s: a rule SPEC.md does not have\nexit 0\n' "$r97" >"$tmp/tree/conformance/zz_twin.sh"
check "$tmp/tree"
twin_result "a test citing an unknown rule is reported" \
	"conformance/zz_twin.sh:3: test cites $r97, which SPEC.md does not have"

# 4. A model comment citing a rule SPEC.md lacks is nothing now: code names
# a rule as NP_RULE(ID), which does not compile for an unknown ID
# (conformance/cli/test_rule_ids.sh); section 8 below removes a rule the
# model applies.

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

# 6. A test citing a retired rule (the SPEC.md copy has it retired).
rm "$tmp/tree/fixtures/zz-twin.vec"
printf '#!/bin/sh\n# %s\nexit 0\n' "$r96" >"$tmp/tree/conformance/zz_twin.sh"
check "$tmp/tree"
twin_result "a test citing a retired rule is reported" \
	"conformance/zz_twin.sh:2: test cites retired rule $r96"
if in_report "conformance/zz_twin.sh:2: test cites retired rule $r96" &&
	grep -q "^| $r96 (SPEC.md:[0-9]*) | old | retired | " "$tmp/out/rules.md"; then
	pass "the reports list the problem and show the rule as retired"
else
	fail "the reports list the problem and show the rule as retired" "see $tmp/out/rules.md"
fi

# 7. A vector citing a rule of a prefix SPEC.md does not use at all.
fresh_copy
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
	! grep -q '^conformance/[a-z]*/test_[a-z_]*\.[a-z]*:[0-9]*: test cites QI-1, which SPEC.md does not have$' "$tmp/check.out" ||
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
