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
# Negative twins run the check on a copy of the tree with defects added
# that cannot mask one another, each by its own rule ID or file (an
# unproved rule, a rule only mentioned in tests' comments and code, a rules
# tag in the wrong place or naming something else, a second heading of one
# rule ID, a vector or test citing an unknown or retired rule), and require
# each defect to be reported by its own line and nothing else; a positive
# twin shows a tag making a test. The fake rule IDs are assembled at run
# time, and the tags the twins write are printed by printf, so that this
# file itself cites none of them and holds no tag.
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
		not_ok "trace on $1 reports what explain --check does" \
			"trace exit $trace_rc; trace output: $(head -c 400 "$tmp/trace.out")"
	elif [ ! -s "$tmp/out/rules.md" ] || [ ! -s "$tmp/out/rules.html" ]; then
		not_ok "trace on $1 writes rules.md and rules.html" "a report is missing or empty"
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
real_rc=$rc real_problems=$problems
if [ "$rc" -ne 0 ]; then
	not_ok "explain --check on the source tree" "want exit status 0 and no problems"
elif [ "$(wc -l <"$tmp/check.out")" -ne 1 ] || [ "$problems" != 0 ]; then
	not_ok "explain --check on the source tree" "want only the line 'rules: N, problems: 0'"
else
	ok "explain --check on the source tree: no problems"
fi

# ---- the rule matrix of the real tree ----

nrules=$(sed -n 's/^rules: \([0-9][0-9]*\), problems: .*$/\1/p' "$tmp/check.out")
rows=$(grep -c '^| [A-Z][A-Z]*-[0-9][0-9a-z]* (SPEC.md:[0-9][0-9]*) |' "$tmp/out/rules.md")
if [ -z "$nrules" ] || [ "$rows" != "$nrules" ]; then
	not_ok "rules.md has one row per rule" "want $nrules rows, got $rows"
else
	ok "rules.md has one row per rule ($rows)"
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
	not_ok "rules.md gives SI-1's implementing lines" "row: $row; lines without SI-1:$bad"
else
	ok "rules.md gives SI-1's implementing lines, each applying SI-1"
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
	not_ok "rules.md gives SI-1's tests as rules tags" "tests: $tests; not a tag of SI-1 before a test:$bad"
else
	ok "rules.md gives SI-1's tests, each a rules tag naming SI-1 before a test"
fi
if ! printf '%s\n' "$row" | grep -q '| ok | ' ||
	! printf '%s\n' "$row" | grep -q 'set-interval/[a-z-]* (fixtures/interval/set-interval.vec:[0-9]*)' ||
	! printf '%s\n' "$row" | grep -q 'conformance/model/test_set_interval.c:[0-9]'; then
	not_ok "rules.md shows SI-1 as ok with its vectors and tests" "row: $row"
else
	ok "rules.md shows SI-1 as ok with its vectors and tests"
fi
# Self-contained: nothing loaded from elsewhere.
if grep -q -i -e '<link' -e '<script' -e 'src=' -e 'url(' "$tmp/out/rules.html" ||
	! grep -q '<tr id="SI-1">' "$tmp/out/rules.html"; then
	not_ok "rules.html is one self-contained page with a row per rule" "see $tmp/out/rules.html"
else
	ok "rules.html is one self-contained page with a row per rule"
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
	not_ok "rules.html links each citation to its file and line" "links that lead nowhere:$bad"
elif ! printf '%s' "$twin" | grep -q "#$nowhere" || ! printf '%s' "$twin" | grep -q 'SPEC.md#L9'; then
	not_ok "rules.html's link check refuses links that lead nowhere" "the twin's bad links: $twin"
else
	ok "rules.html links each citation to its file and line, SI-1's code to lines citing it"
fi
# An output directory that cannot be made is bad input: exit 2, nothing written.
: >"$tmp/plainfile"
"$NTPROF_BIN" trace --root "$root" --output-dir "$tmp/plainfile/reports" >"$tmp/bad.out" 2>&1
brc=$?
if [ "$brc" -ne 2 ] || ! grep -q -F "ntprof: --output-dir $tmp/plainfile/reports: cannot create it" "$tmp/bad.out"; then
	not_ok "trace names an output directory it cannot make, exit 2" "exit $brc: $(cat "$tmp/bad.out")"
else
	ok "trace names an output directory it cannot make, exit 2"
fi

# ---- negative twins on copies ----
#
# The defects below cannot mask one another: each cites its own made-up rule
# ID (or its own file, or its own line), so all but one are planted in one
# copy, checked once: each must be reported by its own line, and the count
# of problems must be the copy's without them plus one per defect (nothing
# reported twice, nothing else reported). Removing a rule the model applies
# (section 8) reports many lines, so it has a copy of its own.

fresh_copy() {
	rm -rf "$tmp/tree"
	mkdir "$tmp/tree" &&
		cp -R "$root/SPEC.md" "$root/fixtures" "$root/model" "$root/conformance" "$tmp/tree/"
}
# spec_line HEADING: the line of SPEC.md's copy that is that heading.
spec_line() {
	grep -n -x -F "$1" "$tmp/tree/SPEC.md" | cut -d: -f1
}

if ! fresh_copy; then
	echo "Bail out! cannot copy the tree to $tmp/tree"
	exit 1
fi

# 5a. A retired rule needs nothing: a copy with two retired rules added
# checks like the source tree (the copy of the twins below, before them).
r96=$(fake 96) r95=$(fake 95)
printf '\n### %s — old\nRetired: replaced by SI-1.\n' "$r96" "$r95" >>"$tmp/tree/SPEC.md"
check "$tmp/tree"
base=$problems
base_rules=$(sed -n 's/^rules: \([0-9][0-9]*\), problems: .*$/\1/p' "$tmp/check.out")
if [ -z "$base" ] || [ "$base" != "$real_problems" ] || [ "$rc" -ne "$real_rc" ]; then
	not_ok "the copied tree checks like the source tree" \
		"want $real_problems problems and exit $real_rc as on the source tree"
	base=${base:-0}
else
	ok "the copied tree checks like the source tree ($base problems before the twins)"
fi
if grep -q -e "$r96\([^0-9]\|\$\)" -e "$r95\([^0-9]\|\$\)" "$tmp/check.out"; then
	not_ok "a retired rule needs no implementation, vector or test" "a line names $r96 or $r95"
else
	ok "a retired rule needs no implementation, vector or test"
fi

# A made-up vector: vec FILE ID TITLE RULES
vec() {
	cat >"$tmp/tree/fixtures/$1" <<EOF
# A vector made up by test_traceability.sh.
vector $2
  title   $3
  rules   $4
  source  test_traceability.sh
  given   privilege=on
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_SUCCESS
EOF
}
# A made-up rule: rule ID; its heading's line in $line.
rule() {
	printf '\n### %s — test\nA rule made up by test_traceability.sh.\n' "$1" >>"$tmp/tree/SPEC.md"
	line=$(spec_line "### $1 — test")
}
want=   # the lines the check must print, one per defect
expect() { # expect DESCRIPTION LINE: a defect planted, its line to be reported
	want="$want$1	$2
"
}

# 1. A rule that nothing implements, proves or tests.
r99=$(fake 99)
rule "$r99"
expect "a rule without implementation, vector or test is reported" \
	"SPEC.md:$line: rule $r99 lacks an application (no vector's run on the model applies it) a vector (fixtures/) a test (a rules tag in conformance/)"

# 1b. A rule proved by a vector, but tested nowhere. A comment in model/
# is no implementation: only a run of the vectors on the model applying the
# rule is, and this copy's model (the built one) never applies it.
r94=$(fake 94)
rule "$r94"
printf '/* %s */\n' "$r94" >"$tmp/tree/model/zz_twin_b.h"
vec zz-twin-b.vec twin/untested-rule "proves a rule no test cites" "$r94"
expect "a rule without a test is reported, a comment in model/ is no implementation" \
	"SPEC.md:$line: rule $r94 lacks an application (no vector's run on the model applies it) a test (a rules tag in conformance/)"

# 1c. Mentions are no test: the rule named in the description of a CMocka
# test, in a comment of its body, and in a shell script's comment and code.
r93=$(fake 93)
rule "$r93"
printf '/* %s */\n' "$r93" >"$tmp/tree/model/zz_twin_c.h"
vec zz-twin-c.vec twin/mentioned-rule "proves a rule tests only mention" "$r93"
printf '/* %s: what the test is about. */\nstatic void test_twin_c(void **state)\n{\n\t(void)state;   /* %s */\n}\n' \
	"$r93" "$r93" >"$tmp/tree/conformance/zz_twin_c.c"
printf '#!/bin/sh\n# %s: a comment\necho %s\n' "$r93" "$r93" >"$tmp/tree/conformance/zz_twin_c.sh"
expect "a rule only mentioned in tests (comments, code) is reported as lacking a test" \
	"SPEC.md:$line: rule $r93 lacks an application (no vector's run on the model applies it) a test (a rules tag in conformance/)"

# 1d. A rules tag right before the test's definition makes it the rule's
# test, and the matrix lists the tag's file:line; but a tagged test and a
# vector are no evidence that the model does it: a rule no vector's run on
# the model applies is still reported (the twin of the semantic check).
r92=$(fake 92)
rule "$r92"
line_d=$line
vec zz-twin-d.vec twin/tagged-rule "proves a rule a test is tagged with" "$r92"
printf '/* %s: what the test is about. */\n/%s rules: %s */\nstatic void test_twin_d(void **state)\n{\n\t(void)state;\n}\n' \
	"$r92" '*' "$r92" >"$tmp/tree/conformance/zz_twin_d.c"
expect "a rule tagged in a test and listed by a vector, but applied by no run, is reported" \
	"SPEC.md:$line: rule $r92 lacks an application (no vector's run on the model applies it)"

# 1e. A rule only a test (a shell script's tag) checks.
r91=$(fake 91)
rule "$r91"
printf '#!/bin/sh\n# rules: %s\nexit 0\n' "$r91" >"$tmp/tree/conformance/zz_twin_e.sh"
expect "a rule with only a test is reported" \
	"SPEC.md:$line: rule $r91 lacks an application (no vector's run on the model applies it) a vector (fixtures/)"

# 1f. Tags the parser cannot take as a test's: each one is reported.
printf '/%s rules: SI-1 */\n\nstatic void test_twin_f(void **state)\n{\n\t(void)state;\n}\n' '*' >"$tmp/tree/conformance/zz_twin_f1.c"
expect "a C rules tag not right before a test's definition is reported" \
	"conformance/zz_twin_f1.c:1: rules tag is not right before a test's definition (static void test_NAME(void **state))"
printf '#!/bin/sh\n# rules: SI-1\n# a comment, not the check\nexit 0\n' >"$tmp/tree/conformance/zz_twin_f2.sh"
expect "a shell rules tag not right before a line of code is reported" \
	"conformance/zz_twin_f2.sh:2: rules tag is not right before a line of code (the check)"
printf '#!/bin/sh\n# rules: SI-1, QI-1\nexit 0\n' >"$tmp/tree/conformance/zz_twin_f3.sh"
expect "a rules tag with something other than rule IDs is reported" \
	'conformance/zz_twin_f3.sh:2: rules tag has "SI-1,", which is not a rule ID'
printf '#!/bin/sh\n# rules: %s\nexit 0\n' "$xx" >"$tmp/tree/conformance/zz_twin_f4.sh"
expect "a rules tag naming $xx (a prefix SPEC.md does not use) is reported" \
	"conformance/zz_twin_f4.sh:2: test cites $xx, which SPEC.md does not have"

# 1g. A second heading of one rule ID.
first=$(grep -n '^### SI-1 ' "$root/SPEC.md" | head -n 1 | cut -d: -f1)
printf '\n### SI-1 — again\nA second heading made up by test_traceability.sh.\n' >>"$tmp/tree/SPEC.md"
expect "a second heading of a rule ID is reported" \
	"SPEC.md:$(spec_line '### SI-1 — again'): rule SI-1 has a second heading (the first is SPEC.md:$first)"

# 2. A vector citing a rule SPEC.md lacks.
r98=$(fake 98)
vec zz-twin-2.vec twin/unknown-rule "cites a rule SPEC.md does not have" "SI-1 $r98"
expect "a vector citing an unknown rule is reported" \
	"$tmp/tree/fixtures/zz-twin-2.vec:2: vector twin/unknown-rule cites unknown rule $r98"

# 3. A test citing a rule SPEC.md lacks.
r97=$(fake 97)
printf '#!/bin/sh\n# proves nothing\n# %s: a rule SPEC.md does not have\nexit 0\n' "$r97" >"$tmp/tree/conformance/zz_twin_3.sh"
expect "a test citing an unknown rule is reported" \
	"conformance/zz_twin_3.sh:3: test cites $r97, which SPEC.md does not have"

# 4. A model comment citing a rule SPEC.md lacks is nothing now: code names
# a rule as NP_RULE(ID), which does not compile for an unknown ID
# (conformance/cli/test_rule_ids.sh); section 8 below removes a rule the
# model applies.

# 5b. A vector citing a retired rule.
vec zz-twin-5.vec twin/retired-rule "cites a retired rule" "$r96"
expect "a vector citing a retired rule is reported" \
	"$tmp/tree/fixtures/zz-twin-5.vec:2: vector twin/retired-rule cites retired rule $r96"

# 6. A test citing a retired rule (the SPEC.md copy has it retired).
printf '#!/bin/sh\n# %s\nexit 0\n' "$r95" >"$tmp/tree/conformance/zz_twin_6.sh"
expect "a test citing a retired rule is reported" \
	"conformance/zz_twin_6.sh:2: test cites retired rule $r95"

# 7. A vector citing a rule of a prefix SPEC.md does not use at all (not
# the one of 1f's tag).
xy=$(printf "XX-%s" 98)
vec zz-twin-7.vec twin/foreign-rule "cites a rule of a section SPEC.md does not have" "SI-1 $xy"
expect "a vector citing $xy is reported" \
	"$tmp/tree/fixtures/zz-twin-7.vec:2: vector twin/foreign-rule cites unknown rule $xy"

check "$tmp/tree"
ndefects=0
tab=$(printf '\t')
while IFS=$tab read -r what text; do
	[ -n "$what" ] || continue   # the here-document's last, empty line
	ndefects=$((ndefects + 1))
	if [ "$rc" -ne 1 ]; then
		not_ok "$what" "want exit status 1"
	elif ! grep -q -x -F -e "$text" "$tmp/check.out"; then
		not_ok "$what" "want the line: $text"
	else
		ok "$what"
	fi
done <<EOF
$want
EOF
if [ "$problems" != $((base + ndefects)) ]; then
	not_ok "each defect is one problem, nothing else is reported" \
		"want $((base + ndefects)) problems (the copy's $base and one per defect)"
else
	ok "each defect is one problem, nothing else is reported ($ndefects defects)"
fi
if ! grep "^| $r92 (SPEC.md:$line_d) | test | " "$tmp/out/rules.md" |
	grep -q "| twin/tagged-rule (fixtures/zz-twin-d.vec:2) | conformance/zz_twin_d.c:2 |\$"; then
	not_ok "a rules tag before a test's definition is the rule's test" "row: $(grep "^| $r92 " "$tmp/out/rules.md")"
else
	ok "a rules tag before a test's definition is the rule's test, listed as conformance/zz_twin_d.c:2"
fi
# five made-up rules, and SI-1's second heading no rule of its own
if ! grep -q -x -F "rules: $((base_rules + 5)), problems: $((base + ndefects))" "$tmp/check.out"; then
	not_ok "a second heading is no rule of its own" "want 'rules: $((base_rules + 5)), problems: $((base + ndefects))'"
else
	ok "a second heading is no rule of its own ($((base_rules + 5)) rules)"
fi
if in_report "conformance/zz_twin_6.sh:2: test cites retired rule $r95" &&
	grep -q "^| $r95 (SPEC.md:[0-9]*) | old | retired | " "$tmp/out/rules.md"; then
	ok "the reports list the problem and show the rule as retired"
else
	not_ok "the reports list the problem and show the rule as retired" "see $tmp/out/rules.md"
fi

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
	not_ok "a rule removed from SPEC.md: its code, vectors and tests are reported" "see output"
else
	ok "a rule removed from SPEC.md: its code, vectors and tests are reported ($problems problems)"
fi

echo "1..$n"
if [ "$failed" -ne 0 ]; then
	echo "# $failed of $n checks failed" >&2
	exit 1
fi
exit 0
