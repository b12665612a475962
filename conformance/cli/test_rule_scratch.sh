#!/bin/sh
# SPDX-License-Identifier: MIT
# A new rule costs its own lines only: in a copy of the tree, a rule with a
# version threshold is added as SPEC.md heading, rules.h line, predicates.h
# entry and one model line (a kernel-mode NtStartProfile refused from
# 11-25H2), nothing else; the copy's ntprof is built, and
#   - `explain RULE` names the model line that applies it;
#   - `explore` over 11-24H2..11-25H2 blames the new predicate and writes a
#     vector citing the new rule alone;
#   - `explain --check` reports the rule (no vector, no tagged test), and the
#     twin: a second rule added the same way, whose model line no run
#     reaches (its predicate never true), with a vector and a tagged test,
#     is reported as applied by no run, and as lacking nothing else.
# Both rules are in the one build of the copy: the twin's vector and test
# are files that explain --check reads as it runs. The IDs are assembled at
# run time so that this file cites none.
#
# Environment: NTPROF_SOURCE_ROOT (the repository); needs make and cc.
# Prints TAP; exits 1 when any check fails. Slow: it builds ntprof (-O0).
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-rulescratch.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$root/conformance/cli/tap.sh"

id="ST-$((90 + 9))" sym="ST_$((90 + 9))"
twin="ST-$((90 + 8))" twin_sym="ST_$((90 + 8))"
tree=$tmp/tree
mkdir "$tree" && (cd "$root" && tar --exclude=./build --exclude=./.git --exclude=./config.mak -cf - .) |
	tar -C "$tree" -xf - || { echo "Bail out! cannot copy the tree"; exit 1; }

# The four edits, each where its kind of thing lives, for the rule and for
# the twin's (whose predicate is never true).
awk -v id="$id" -v twin="$twin" '/^### SP-0 / && !done {
	print "### " twin " \342\200\224 A planted rule no run applies"
	print "Never: its predicate is false on every version."
	print "Confidence: unknown. Source: test_rule_scratch.sh"
	print ""
	print "### " id " \342\200\224 Kernel-mode start refused, from 11-25H2"
	print "From 11-25H2 on, a kernel-mode request gets STATUS_ACCESS_DENIED from NtStartProfile."
	print "Confidence: unknown. Source: test_rule_scratch.sh"
	print ""; done = 1 } { print }' "$root/SPEC.md" >"$tree/SPEC.md"
awk -v id="$id" -v sym="$sym" -v twin="$twin" -v twin_sym="$twin_sym" '{ print } /^NP_RULE_DEF\(ST_8,/ {
	print "NP_RULE_DEF(" twin_sym ", \"" twin "\", \"A planted rule no run applies\")"
	print "NP_RULE_DEF(" sym ", \"" id "\", \"Kernel-mode start refused, from 11-25H2\")" }' \
	"$root/model/include/ntprof/rules.h" >"$tree/model/include/ntprof/rules.h"
sed -e "s|^#undef NP_PREDICATE|NP_PREDICATE(np_start_refuses_kernel_mode, V, (NP_RULE($sym)), v >= NP_V11_25H2)\n&|" \
	-e "s|^#undef NP_PREDICATE|NP_PREDICATE(np_start_never_refuses, V, (NP_RULE($twin_sym)), ((void)v, false))\n&|" \
	"$root/model/include/ntprof/predicates.h" >"$tree/model/include/ntprof/predicates.h"
sed -e "s|^\tif (np_has_started_profile_limit(m->version)|\tif (np_start_refuses_kernel_mode(m->version) \&\& m->previous_mode == NP_MODE_KERNEL)\n\t\treturn NP_DECIDE(m, $sym, np_status(NP_STATUS_ACCESS_DENIED));\n&|" \
	-e "s|^\tif (np_has_started_profile_limit(m->version)|\tif (np_start_never_refuses(m->version))\n\t\treturn NP_DECIDE(m, $twin_sym, np_status(NP_STATUS_ACCESS_DENIED));\n&|" \
	"$root/model/profile_control.c" >"$tree/model/profile_control.c"

# At -O0 without debug information: what is checked is what the copy's
# ntprof does, not how it is optimised, and -O0 compiles in well under half the
# CPU time (the plain tree's build checks the warnings at -O2).
build() {
	make -C "$tree" -j2 build/ntprof CFLAGS=-O0 >"$tmp/build.log" 2>&1 ||
		{ echo "Bail out! the copy does not build"; tail -20 "$tmp/build.log" | sed 's/^/# /'; exit 1; }
}
build
nt=$tree/build/ntprof

out=$("$nt" explain --root "$tree" "$id" 2>&1)
if printf '%s\n' "$out" | grep -q '^  model/profile_control.c:[0-9]*$'; then
	ok "explain $id names the model line that applies it"
else
	not_ok "explain $id names the model line that applies it" "$out"
fi

"$nt" explore --function NtStartProfile --targets 11-24H2/x64,11-25H2/x64 \
	>"$tmp/explore.out" 2>/dev/null
if grep -q "^# why: np_start_refuses_kernel_mode ($id) turns true;.*: decided by $id\$" "$tmp/explore.out" &&
	grep -q "^  rules   $id\$" "$tmp/explore.out"; then
	ok "explore blames the new predicate and writes a vector citing $id"
else
	not_ok "explore blames the new predicate and writes a vector citing $id" "$(grep -e '^# \[' -e '^# why' -e rules "$tmp/explore.out")"
fi

"$nt" explain --check --root "$tree" >"$tmp/check.out" 2>&1
if grep -q "rule $id lacks a vector (fixtures/) a test" "$tmp/check.out" &&
	! grep -q "rule $id lacks an application" "$tmp/check.out"; then
	ok "explain --check: $id is applied by the model, and lacks a vector and a test"
else
	not_ok "explain --check: $id is applied by the model, and lacks a vector and a test" "$(cat "$tmp/check.out")"
fi

# The twin: a vector and a tagged test, but no run applies the rule.
cat >"$tree/fixtures/zz-scratch.vec" <<EOF
vector scratch/kernel-start
  title   a kernel-mode start from 11-25H2
  rules   $twin
  source  test_rule_scratch.sh
  given   mode=kernel
  call    NtQueryIntervalProfile
  expect  STATUS_SUCCESS Interval=39063
EOF
printf '/%s rules: %s */\nstatic void test_scratch(void **state)\n{\n\t(void)state;\n}\n' '*' "$twin" \
	>"$tree/conformance/zz_scratch.c"
"$nt" explain --check --root "$tree" >"$tmp/check.out" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "rule $twin lacks an application (no vector's run on the model applies it)\$" "$tmp/check.out" &&
	[ "$(grep -c "rule $twin " "$tmp/check.out")" -eq 1 ]; then
	ok "explain --check fails for $twin, tagged in a test and listed by a vector but applied by no run"
else
	not_ok "explain --check fails for $twin, tagged in a test and listed by a vector but applied by no run" \
		"exit $rc; $(cat "$tmp/check.out")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
