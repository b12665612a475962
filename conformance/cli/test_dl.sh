#!/bin/sh
# SPDX-License-Identifier: MIT
# `ntprof run --backend dl:PATH`: implementations in shared objects.
#   dl_faithful.so (ABI 2, claiming everything) forwards to the model: it
#     must match everything the model matches but what is not required of
#     it, so the interface (ntprof/impl.h) carries all a vector needs, and
#     its coverage line must show every function fully exercised.
#   dl_nothing.so answers not-applicable to every call: the run fails,
#     every row "unanswered", saying nothing was exercised; its table has no
#     protect, so the page-form vectors are not asked of it.
#   dl_partial.so (ABI 2) implements four functions on two targets and
#     answers one of them not-applicable: not-implemented rows, its targets
#     by default, another --target refused, --allow-not-applicable.
#   dl_crash.so and dl_hang.so crash in one call and hang in another: the
#     run completes with those rows crashed and timed out, the rest judged.
#     A crashing child writes no core file (call's, the twin, does).
#     A step timeout in seconds with decimals is taken (0.3); one written
#     otherwise, in --step-timeout or NTPROF_STEP_TIMEOUT, is refused.
#   dl_stateful.so keeps a count of the systems it opened: each vector's
#     child starts from the object as it was opened, never as another
#     vector left it.
#   dl_faulty.so has four bugs (see conformance/dl/dl_faulty.c); the run must
#     fail and name, vector by vector, at least the vectors listed below for
#     each bug, with the model's outcome beside the wrong one, and nothing
#     outside the two functions the bugs live in.
#   dl_faithful.so declares every capability: at least 95% of the rows are
#     exercised, every counting vector; dl_inclusive_end.so, its twin with
#     the region end inclusive, is caught on the default fixtures.
#   dl_hal_rate.so declares the reading of K-HAL-RATE it implements and is
#     judged against the model under it; without the claim it fails, and
#     dl_hal_rate_false.so, the claim over the default reading, is caught;
#     dl_bad_reading.so, a misspelt reading, is refused.
#   `call --backend` reproduces one divergence: the object's record, the
#     model's beneath where they differ.
#   A missing object, one without the entry point and one of another ABI
#     (the first, ABI 1, or a later one) are refused with exit status 2
#     before anything runs, naming the ABI found.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
dir=$(dirname "$NTPROF_BIN")/conformance/dl
fixtures=$NTPROF_SOURCE_ROOT/fixtures

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-dl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
failure_detail() {   # the command's output, after a failure
	sed 's/^/#   out: /' "$tmp/out" | head -20
	sed 's/^/#   err: /' "$tmp/err" | head -5
}
run() { "$NTPROF_BIN" run "$@" "$fixtures" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# tally CLASS [FILE]: the count of CLASS in the summary line of FILE ($tmp/out).
tally() {
	sed -n 's/^summary: //p' "${2:-$tmp/out}" | tr ',' '\n' | sed -n "s/^ *\([0-9]*\) $1\$/\1/p"
}
# under HEADING LINE FILE: the text report FILE has a vector line matching
# LINE (a regular expression, after its indent) under a heading matching
# HEADING (from the start of the heading).
under() {
	awk -v heading="^$1" -v line="^    $2" '/^[a-z]/ { h = $0 } $0 ~ line && h ~ heading { found = 1 }
		END { exit !found }' "$3"
}
# failures [FILE]: the rows of the failing classes.
failures() {
	f=0
	for c in status-mismatch output-mismatch not-exported stub crashed unanswered timeout; do
		f=$((f + $(tally "$c" "${1:-$tmp/out}")))
	done
	echo "$f"
}
# full_coverage [FILE]: the coverage line shows N of N rows (N > 0), and
# a/a for each function.
full_coverage() {
	awk '/^exercised: / {
		seen = 1
		if ($2 != $4 || $2 == 0) bad = 1
		line = $0; sub(/^[^;]*;/, "", line)
		n = split(line, part, ",")
		for (i = 1; i <= n; i++) { k = split(part[i], w, " "); split(w[k], f, "/"); if (f[1] != f[2]) bad = 1 }
	} END { exit !(seen && !bad) }' "${1:-$tmp/out}"
}

# The model's own figures are the reference for the faithful object: every
# row the model has, the faithful object matches or is not required to.
run --backend model
model_match=$(tally match)
model_results=$(sed -n 's/^ntprof run: .*, \([0-9]*\) results[;]*.*$/\1/p' "$tmp/out")
run --backend "dl:$dir/dl_faithful.so"
cp "$tmp/out" "$tmp/faithful"
got=$(( $(tally match) + $(tally not-required) ))
if [ "$rc" -eq 0 ] && [ "$got" -eq "$model_results" ] && [ "$(failures)" -eq 0 ] &&
	[ "$(tally match)" -gt 0 ] && [ "$(tally match)" -le "$model_match" ]; then
	ok "dl_faithful.so matches every row of the model but those not required ($got of $model_results)"
else
	not_ok "dl_faithful.so matches every row of the model but those not required" \
		"rc $rc, $got of $model_results rows"
fi
# Capabilities: dl_faithful.so declares every one, so all but the model-only
# vectors and the steps the model cannot answer are asked of it: at least 95%
# of the run's rows exercised, every counting vector among them.
pct=$(sed -n 's/^exercised: \([0-9]*\) of [0-9]* vector-targets (.* of the run.s \([0-9]*\)).*/\1 \2/p' "$tmp/out")
set -- $pct
if [ "$#" -eq 2 ] && [ $(($1 * 100)) -ge $(($2 * 95)) ] &&
	"$NTPROF_BIN" run --verbose --backend "dl:$dir/dl_faithful.so" "$fixtures/profile/counting.vec" \
		"$fixtures/profile/counting-runs.vec" >"$tmp/verbose" 2>&1 &&
	grep -q '^match  *counting/end-of-region ' "$tmp/verbose" &&
	! grep -q '^not-required  *counting/' "$tmp/verbose"; then
	ok "dl_faithful.so: exercised on at least 95% of the rows ($1 of $2), every counting vector"
else
	not_ok "dl_faithful.so: exercised on at least 95% of the rows, every counting vector" "$pct"
fi
# Its twin: the region end inclusive on every version, one ULONG counted past
# the counters; the default fixtures catch it, now that Interrupt is declared
# (asked on 1809's architectures: the row the check reads).
"$NTPROF_BIN" run --backend "dl:$dir/dl_inclusive_end.so" --target 1809 "$fixtures" >"$tmp/inclusive" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && under status-mismatch 'counting/end-of-region on .*1809' "$tmp/inclusive" &&
	grep -q '; not declared (vector-targets it keeps out): .*Inject [0-9]' "$tmp/inclusive"; then
	ok "dl_inclusive_end.so: the inclusive region end is caught; the coverage line names what it could declare"
else
	not_ok "dl_inclusive_end.so: the inclusive region end is caught" "rc $rc: $(grep '^summary' "$tmp/inclusive")"
fi
if full_coverage; then
	ok "dl_faithful.so: the coverage line shows every function fully exercised"
else
	not_ok "dl_faithful.so: the coverage line shows every function fully exercised" \
		"$(grep '^exercised' "$tmp/out")"
fi
if grep -q '^not-required' "$tmp/out"; then
	not_ok "not-required rows are left out of the text report without --verbose" "listed"
else
	ok "not-required rows are left out of the text report without --verbose"
fi
if grep -q '^ntprof run: backend dl-faithful,' "$tmp/out"; then
	ok "the report names the object's backend"
else
	not_ok "the report names the object's backend" "no 'backend dl-faithful' header"
fi

# No false pass: an object that answers every call not-applicable fails,
# every row unanswered, and says nothing was exercised, even when
# not-applicable answers are allowed. One target: it answers nothing on
# any, and each run of all 77 cost a fork per vector and target.
run --backend "dl:$dir/dl_nothing.so" --target 1809/x64
if [ "$rc" -eq 1 ] && [ "$(tally unanswered)" -gt 0 ] && [ "$(tally match)" -eq 0 ] &&
	grep -q '^exercised: 0 of [1-9][0-9]* vector-targets: nothing was exercised;' "$tmp/out" &&
	grep -q 'nothing was exercised' "$tmp/err"; then
	ok "dl_nothing.so: exit 1, every row unanswered, nothing was exercised"
else
	not_ok "dl_nothing.so: exit 1, every row unanswered, nothing was exercised" "rc $rc"
fi
if full_coverage; then
	not_ok "full_coverage refuses dl_nothing.so's coverage line" "$(grep '^exercised' "$tmp/out")"
else
	ok "full_coverage refuses dl_nothing.so's coverage line"
fi
if grep -q 'nothing was exercised' "$tmp/faithful"; then
	not_ok "dl_faithful.so's report does not say nothing was exercised" "it does"
else
	ok "dl_faithful.so's report does not say nothing was exercised"
fi
run --backend "dl:$dir/dl_nothing.so" --allow-not-applicable --target 1809/x64
if [ "$rc" -eq 1 ] && [ "$(tally unanswered)" -eq 0 ] && [ "$(tally not-applicable)" -gt 0 ] &&
	grep -q 'nothing was exercised' "$tmp/err"; then
	ok "dl_nothing.so --allow-not-applicable: not-applicable rows, and still exit 1"
else
	not_ok "dl_nothing.so --allow-not-applicable: not-applicable rows, and still exit 1" "rc $rc"
fi

# A capability (ntprof/capability.h) an object's table cannot take is not
# asked of it: dl_nothing.so's table has no protect, which the page forms of
# situations.vec need, so those vectors are not required, naming Protect.
# Its twin, the faithful object, takes every such step.
sit=$fixtures/profile/situations.vec
"$NTPROF_BIN" run --verbose --allow-not-applicable --backend "dl:$dir/dl_nothing.so" "$sit" \
	>"$tmp/out" 2>"$tmp/err"
if [ "$(tally unanswered)" -eq 0 ] &&
	grep -q '^not-required .*(needs Protect, which it does not declare)' "$tmp/out"; then
	ok "an object lacking protect: the page-form vectors are not required of it"
else
	not_ok "an object lacking protect: the page-form vectors are not required of it" \
		"$(grep '^summary' "$tmp/out")"
fi
"$NTPROF_BIN" run --backend "dl:$dir/dl_faithful.so" "$sit" >"$tmp/out" 2>"$tmp/err"
if [ "$(tally not-applicable)" -eq 0 ] && [ "$(tally match)" -gt 0 ] && [ "$(failures)" -eq 0 ]; then
	ok "twin: the faithful object takes the situation steps"
else
	not_ok "twin: the faithful object takes the situation steps" "$(grep '^summary' "$tmp/out")"
fi

# What an ABI 2 table claims: its targets, its functions.
run --backend "dl:$dir/dl_partial.so" --verbose
cp "$tmp/out" "$tmp/partial"
if grep -q '^ntprof run: backend dl-partial, [0-9]* vectors, 2 targets,' "$tmp/out" &&
	! grep -E '^[a-z-]+ +[^ ]+ on ' "$tmp/out" | grep -v -E ' on (1809/x64|6\.1/x86) ' | grep -q .; then
	ok "dl_partial.so: without --target, the run is of the targets it emulates"
else
	not_ok "dl_partial.so: without --target, the run is of the targets it emulates" "$(head -1 "$tmp/out")"
fi
if [ "$(tally not-implemented)" -gt 0 ] &&
	! grep '^not-implemented' "$tmp/out" | grep -v -E 'calls (NtCreateProfile|NtCreateProfileEx|NtStartProfile|NtStopProfile|NtSetSystemInformation|NtQuerySystemInformation), which is not implemented' | grep -q .; then
	ok "dl_partial.so: the vectors of a function it does not implement are not-implemented"
else
	not_ok "dl_partial.so: the vectors of a function it does not implement are not-implemented" \
		"$(grep '^not-implemented' "$tmp/out" | head -1)"
fi
if [ "$rc" -eq 1 ] && [ "$(tally unanswered)" -gt 0 ] &&
	! grep '^unanswered' "$tmp/out" | grep -v 'TraceQueryInformation: ' | grep -q . &&
	! grep -q '^exercised: .*NtCreateProfile' "$tmp/out"; then
	ok "dl_partial.so: a claimed function answering not-applicable is unanswered, exit 1"
else
	not_ok "dl_partial.so: a claimed function answering not-applicable is unanswered, exit 1" "rc $rc"
fi
run --backend "dl:$dir/dl_partial.so" --allow-not-applicable
if [ "$rc" -eq 0 ] && [ "$(tally unanswered)" -eq 0 ] && [ "$(tally not-applicable)" -gt 0 ]; then
	ok "dl_partial.so --allow-not-applicable: exit 0"
else
	not_ok "dl_partial.so --allow-not-applicable: exit 0" "rc $rc"
fi
run --backend "dl:$dir/dl_partial.so" --target 6.2/x64
if [ "$rc" -eq 2 ] && grep -q -- '--target 6.2/x64: --backend dl:.*dl_partial.so emulates only 1809/x64,6.1/x86' "$tmp/err" &&
	[ ! -s "$tmp/out" ]; then
	ok "dl_partial.so: a --target it does not emulate is refused (exit 2)"
else
	not_ok "dl_partial.so: a --target it does not emulate is refused (exit 2)" "rc $rc"
fi

# A known divergence listed for a vector not asked of the object is not
# run, never stale; the twin, listed for a vector that ran and matched, is.
cat >"$tmp/partial.known" <<'EOF'
create/ex-element-checks on 1809 status-mismatch step 1: STATUS_SUCCESS # not implemented there
query-interval/timer-default on 1809 status-mismatch step 1: STATUS_SUCCESS # never happens
EOF
run --backend "dl:$dir/dl_partial.so" --target 1809/x64 --allow-not-applicable --known "$tmp/partial.known"
if [ "$rc" -eq 1 ] && grep -q 'partial.known: 2 entries, 0 rows known, 0 unlisted, 1 stale, 1 not run$' "$tmp/out" &&
	grep -q '^stale .*partial.known:2: query-interval/timer-default' "$tmp/out"; then
	ok "a listed divergence of a not-implemented vector is not run; one that ran and matched is stale"
else
	not_ok "a listed divergence of a not-implemented vector is not run; one that ran and matched is stale" \
		"rc $rc, $(grep '^known divergences' "$tmp/out")"
fi

# Isolation: each vector in a child process. Judged on one target against
# the faithful object there: a crashed or timed-out row is a row the
# faithful object matched, and every other row is as it was.
run --backend "dl:$dir/dl_faithful.so" --target 1809/x64
cp "$tmp/out" "$tmp/faithful-1809"
run --verbose --backend "dl:$dir/dl_crash.so" --target 1809/x64
if [ "$rc" -eq 1 ] && [ "$(tally crashed)" -gt 0 ] &&
	[ $(( $(tally match) + $(tally crashed) )) -eq "$(tally match "$tmp/faithful-1809")" ] &&
	[ "$(tally not-required)" -eq "$(tally not-required "$tmp/faithful-1809")" ] &&
	! grep '^crashed' "$tmp/out" | grep -v -E 'step [0-9]+ (Nt|Zw)StartProfile: .*got crashed( <[^>]*>)* \(SIGSEGV \(signal 11\) in step [0-9]+ (Nt|Zw)StartProfile\)' | grep -q .; then
	ok "dl_crash.so: the run completes, each crash a row naming its signal and step"
else
	not_ok "dl_crash.so: the run completes, each crash a row naming its signal and step" "rc $rc"
fi
# Each hang costs the step timeout, so the hang case runs two files of
# vectors, two of which hang, with 0.3 s for a step: a hang
# ends, the run goes on past it to the next one and to the end, and every
# other row is the faithful object's (none of its steps comes near that).
hang_files="$fixtures/interval/query-interval.vec $fixtures/interval/sources.vec"
# shellcheck disable=SC2086 # two paths
"$NTPROF_BIN" run --backend "dl:$dir/dl_faithful.so" --target 1809/x64 $hang_files >"$tmp/faithful-hang" 2>&1
start=$(date +%s)
# shellcheck disable=SC2086
NTPROF_STEP_TIMEOUT=0.3 "$NTPROF_BIN" run --verbose --backend "dl:$dir/dl_hang.so" --target 1809/x64 $hang_files \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(( $(date +%s) - start ))
if [ "$rc" -eq 1 ] && [ "$(tally timeout)" -ge 2 ] && [ "$(tally match "$tmp/faithful-hang")" -gt 2 ] &&
	[ $(( $(tally match) + $(tally timeout) )) -eq "$(tally match "$tmp/faithful-hang")" ] &&
	! grep '^timeout' "$tmp/out" | grep -v -E 'step [0-9]+ (Nt|Zw)QueryIntervalProfile: .*did not return within 0.3 s' | grep -q .; then
	ok "dl_hang.so: the run completes, each hang a timeout row naming its step (${took} s)"
else
	not_ok "dl_hang.so: the run completes, each hang a timeout row naming its step" "rc $rc"
fi
# Nothing shared between vectors: dl_stateful.so fails NtSetIntervalProfile
# from the second system it opens in one process. On one target each
# vector's child opens one: every row matches (exit 0); its twin, on two
# targets, shows the state a vector's first target left to its second, as
# a child reused for the next vector would (exit 1).
"$NTPROF_BIN" run --backend "dl:$dir/dl_stateful.so" --target 1809/x64 "$fixtures/interval" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
stateful=$(tally match)
"$NTPROF_BIN" run --backend "dl:$dir/dl_stateful.so" --target 1809/x64 --target 1903/x64 \
	"$fixtures/interval" >"$tmp/out" 2>"$tmp/err"
rc2=$?
if [ "$rc" -eq 0 ] && [ "$stateful" -gt 0 ] && [ "$rc2" -eq 1 ] && [ "$(tally status-mismatch)" -gt 0 ] &&
	! grep '^status-mismatch' "$tmp/out" | grep -v 'got STATUS_UNSUCCESSFUL' | grep -q .; then
	ok "dl_stateful.so: no state passes from one vector to the next; its twin shows it within one"
else
	not_ok "dl_stateful.so: no state passes from one vector to the next" "rc $rc ($stateful match), twin rc $rc2"
fi
# A step timeout is seconds with at most three decimals (the hang case
# above gives 0.3); anything else is refused, naming where it was given,
# before a vector runs.
for bad in 0 0.0001 1.5s .5 86401; do
	run --backend "dl:$dir/dl_hang.so" --step-timeout "$bad" --target 1809/x64
	if [ "$rc" -eq 2 ] && grep -q -- '--step-timeout takes seconds, 0.001 to 86400' "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "--step-timeout $bad is refused"
	else
		not_ok "--step-timeout $bad is refused" "rc $rc"
	fi
done
NTPROF_STEP_TIMEOUT=0,2 "$NTPROF_BIN" run --backend "dl:$dir/dl_hang.so" --target 1809/x64 "$fixtures" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q -- '^ntprof: NTPROF_STEP_TIMEOUT=0,2: NTPROF_STEP_TIMEOUT takes seconds' "$tmp/err" &&
	[ ! -s "$tmp/out" ]; then
	ok "a malformed NTPROF_STEP_TIMEOUT is refused (exit 2), nothing run"
else
	not_ok "a malformed NTPROF_STEP_TIMEOUT is refused (exit 2), nothing run" "rc $rc"
fi

run --allow-not-applicable --target 1809/x64
if [ "$rc" -eq 2 ] && grep -q -- '--step-timeout and --allow-not-applicable are for --backend dl:PATH' "$tmp/err"; then
	ok "--allow-not-applicable without a dl: backend is refused"
else
	not_ok "--allow-not-applicable without a dl: backend is refused" "rc $rc"
fi

# The coverage in the other formats, on two files of vectors (the text
# report's line is checked above on them all).
formats() { # formats FORMAT: the faithful object on 1809/x64, in FORMAT
	"$NTPROF_BIN" run --backend "dl:$dir/dl_faithful.so" --target 1809/x64 --format "$1" \
		"$fixtures/interval/set-interval.vec" "$fixtures/profile/create.vec" >"$tmp/out" 2>"$tmp/err"
}
formats json
if grep -q '"coverage":{"exercised":[1-9][0-9]*,"vector-targets":[1-9][0-9]*,"functions":{"NtSetIntervalProfile":{' "$tmp/out"; then
	ok "json: the coverage object"
else
	not_ok "json: the coverage object" "no coverage"
fi
formats tap
if grep -q '^# exercised: [1-9][0-9]* of ' "$tmp/out"; then ok "tap: the coverage line"; else not_ok "tap: the coverage line" "none"; fi
formats junit
if grep -q '<property name="exercised NtCreateProfile" value="[1-9][0-9]* of ' "$tmp/out"; then
	ok "junit: the coverage properties"
else
	not_ok "junit: the coverage properties" "none"
fi
run --target 1809/x64
if grep -q '^exercised' "$tmp/out"; then
	not_ok "the model's own run has no coverage line" "it has"
else
	ok "the model's own run has no coverage line"
fi

# On the versions each bug is caught on and those before their thresholds
# (6.2, 1703), every architecture of each: 15 of the 77 targets, a child
# process per vector and target. That no row of a function without a bug
# differs on every target is the faithful object's run above.
run --backend "dl:$dir/dl_faulty.so" --target 6.1 --target 6.2 --target 1607 --target 1703 --target 1809 \
	--verbose   # a line per target, for `caught`
cp "$tmp/out" "$tmp/faulty"
if [ "$rc" -eq 1 ]; then ok "dl_faulty.so: the run fails (exit 1)"; else not_ok "dl_faulty.so: the run fails (exit 1)" "rc $rc"; fi

# caught BUG VECTOR TARGET EXPECTED GOT: that row is a status mismatch with
# the model's outcome beside it.
caught() {
	line=$(grep "^status-mismatch *$2 on $3 " "$tmp/faulty" | head -1)
	case $line in
	*"expected $4"*", got $5"*"[model: $4"*) ok "bug $1 caught by $2 on $3" ;;
	*) not_ok "bug $1 caught by $2 on $3" "want expected $4, got $5, [model: $4]; row: ${line:-none}" ;;
	esac
}
caught "1 (probe before validation)" create/buffersize-zero-vs-handle-probe 1809/x64 \
	"STATUS_INVALID_PARAMETER_7" "STATUS_ACCESS_VIOLATION"
caught "2 (pre-1703 capacity formula)" create/capacity-odd-buffer-size 1703/x64 \
	"STATUS_BUFFER_TOO_SMALL" "STATUS_SUCCESS"
caught "3 (privilege not checked)" set-interval/privilege-threshold 6.2/x64 \
	"STATUS_PRIVILEGE_NOT_HELD" "STATUS_SUCCESS"
caught "4 (WOW64 -1 as every processor)" create/affinity-all 6.1/wow64 \
	"STATUS_INVALID_PARAMETER" "STATUS_SUCCESS"

others=$(grep -E '^(status|output)-mismatch' "$tmp/faulty" |
	grep -v -E 'step [0-9]+ (NtCreateProfile|NtSetIntervalProfile|ZwSetIntervalProfile):' | head -3)
if [ -z "$others" ]; then
	ok "dl_faulty.so: every difference is in NtCreateProfile or NtSetIntervalProfile"
else
	not_ok "dl_faulty.so: every difference is in NtCreateProfile or NtSetIntervalProfile" "$others"
fi

# Judged by a mirrored model (--reference model --given): the model with 32
# processors is the expectation, not the fixture's single-processor one.
run --backend "dl:$dir/dl_faithful.so" --reference model --given cpus=32 --target 6.1/wow64
if [ "$rc" -eq 0 ] && grep -q '^env cpus: 32$' "$tmp/out" &&
	grep -q '^summary: [1-9][0-9]* match, 0 match-alternative, 0 known, 0 status-mismatch, 0 output-mismatch' "$tmp/out"; then
	ok "mirrored: dl_faithful.so matches the model with 32 processors"
else
	not_ok "mirrored: dl_faithful.so matches the model with 32 processors" "rc $rc"
fi
# With 31 processors the widened 0xFFFFFFFF names one that is not there
# (CP-17): create/affinity-all, written for one processor, catches bug 4.
# (create/affinity-all-wow64-31-processors sets cpus=31 itself.)
run --backend "dl:$dir/dl_faulty.so" --reference model --given cpus=31 --target 6.1/wow64
if [ "$rc" -eq 1 ] &&
	under 'status-mismatch .*expected STATUS_INVALID_PARAMETER .*got STATUS_SUCCESS' 'create/affinity-all on 6.1/wow64 ' "$tmp/out"; then
	ok "mirrored: bug 4 caught where the mirrored model has 31 processors"
else
	not_ok "mirrored: bug 4 caught where the mirrored model has 31 processors" "rc $rc"
fi
"$NTPROF_BIN" run --reference model --given cpus=2 "$fixtures" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'need exactly one --target' "$tmp/err"; then
	ok "--reference without one --target is refused"
else
	not_ok "--reference without one --target is refused" "rc $rc"
fi

# `ntprof call --backend dl:PATH`: one divergence reproduced without a vector.
# dl_faulty.so's bug 3 (no privilege check): its line, then the model's, exit 1;
# the faithful twin: its line alone, exit 0; dl_crash.so: the steps it
# finished, the signal named, exit 1; a function it does not implement: exit 2.
setint='NtSetIntervalProfile Interval=10000'
"$NTPROF_BIN" call --target 1809/x64 --given privilege=off --backend "dl:$dir/dl_faulty.so" "$setint" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(sed -n 1p "$tmp/out")" = 'NtSetIntervalProfile -> STATUS_SUCCESS (0x00000000)' ] &&
	[ "$(sed -n 2p "$tmp/out")" = '  model: NtSetIntervalProfile -> STATUS_PRIVILEGE_NOT_HELD (0xC0000061)' ]; then
	ok "call --backend dl_faulty.so: its record, the model's beneath, exit 1"
else
	not_ok "call --backend dl_faulty.so: its record, the model's beneath, exit 1" "rc $rc"
fi
"$NTPROF_BIN" call --target 1809/x64 --given privilege=off --backend "dl:$dir/dl_faithful.so" "$setint" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = 'NtSetIntervalProfile -> STATUS_PRIVILEGE_NOT_HELD (0xC0000061)' ]; then
	ok "twin: call --backend dl_faithful.so: the model's record alone, exit 0"
else
	not_ok "twin: call --backend dl_faithful.so: the model's record alone, exit 0" "rc $rc"
fi
create='NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x1000 BucketSize=2 Buffer=>b BufferSize=0x1000'
# Under ASan (the sanitizer tree) the planted SIGSEGV would be ASan's report
# and exit 1: handle_segv=0 leaves the signal to kill the child, as it does
# in a plain build. It crashes in $tmp/cores with no limit on a core's size,
# for the check of core files below.
mkdir "$tmp/cores"
(
	cd "$tmp/cores" || exit 2
	ulimit -c unlimited 2>/dev/null
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" "$NTPROF_BIN" call --target 1809/x64 \
		--backend "dl:$dir/dl_crash.so" "$create" 'NtStartProfile ProfileHandle=h' >"$tmp/out" 2>"$tmp/err"
)
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^NtCreateProfile -> STATUS_SUCCESS' "$tmp/out" &&
	grep -q 'dl-crash ended by signal 11 in a step' "$tmp/err"; then
	ok "call --backend dl_crash.so: the steps it finished, then the signal, exit 1"
else
	not_ok "call --backend dl_crash.so: the steps it finished, then the signal, exit 1" "rc $rc"
fi
# A crash is reported, not dumped: the children of run and explore write no
# core file even where the system would write one into the working directory
# (no size limit, as Kyua sets for its tests). The twin is call's child above,
# which leaves the setting alone: its crash, in that directory, must leave one;
# where it does not (cores elsewhere, a core's size limited, or a sanitizer
# turning them off), the check cannot tell and is skipped.
if [ -z "$(ls "$tmp/cores")" ]; then
	skip "a crashing child writes no core file" "call's crash left no core in its directory here"
else
	rm -f "$tmp/cores"/*
	(
		cd "$tmp/cores" && ulimit -c unlimited &&
			"$NTPROF_BIN" run --target 1809/x64 --backend "dl:$dir/dl_crash.so" \
				"$fixtures/profile/start-stop.vec" >/dev/null 2>&1
		"$NTPROF_BIN" explore --target 1809/x64 --budget 20 --against "dl:$dir/dl_crash.so" >/dev/null 2>&1
	)
	left=$(ls "$tmp/cores")
	if [ -z "$left" ]; then
		ok "a crashing child of run or explore writes no core file (call's child did)"
	else
		not_ok "a crashing child of run or explore writes no core file (call's child did)" "left: $left"
	fi
fi
"$NTPROF_BIN" call --target 1809/x64 --backend "dl:$dir/dl_partial.so" "$create" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'dl-partial does not implement NtCreateProfile' "$tmp/err" && [ ! -s "$tmp/out" ]; then
	ok "call --backend: a function the object does not implement is refused (exit 2)"
else
	not_ok "call --backend: a function the object does not implement is refused (exit 2)" "rc $rc"
fi

# refused OBJECT MESSAGE: exit 2, the message on stderr, nothing on stdout.
refused() {
	run --backend "dl:$1"
	if [ "$rc" -eq 2 ] && grep -q -- "$2" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "dl:$(basename "$1") refused: $2"
	else
		not_ok "dl:$(basename "$1") refused: $2" "rc $rc"
	fi
}
refused "$tmp/none.so" "cannot load it"
refused "libm.so.6" "does not export ntprof_impl_entry"
refused "$dir/dl_wrong_abi.so" "its ABI is 3; this ntprof loads only ABI 2"
refused "$dir/dl_old_abi.so" "its ABI is 1; this ntprof loads only ABI 2"
refused "$dir/dl_bad_claim.so" 'its implements lists "Interupt", neither a function'
refused "$dir/dl_bad_reading.so" 'its implements lists "reading:K-HAL-RATE=power-of-2", neither a function'
# its twin: every other object's claims are functions and capabilities (an
# object's list is read as it is loaded, before any vector: one file will do)
claims_refused=
for so in dl_faithful dl_partial dl_inclusive_end dl_qi_align dl_stateful dl_hal_rate; do
	"$NTPROF_BIN" run --backend "dl:$dir/$so.so" --target 1809/x64 "$fixtures/interval/set-interval.vec" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && claims_refused="$claims_refused $so"
done
if [ -z "$claims_refused" ]; then
	ok "twin: the other objects' implements lists are accepted"
else
	not_ok "twin: the other objects' implements lists are accepted" "refused:$claims_refused"
fi

# A declared reading of a knob: dl_hal_rate.so implements the power-of-two
# reading of K-HAL-RATE and says so; the vectors resting on the knob are
# judged against the model under that reading, each row saying so. Without
# the claim the same object fails the default fixtures; claiming the reading
# over the default one is caught.
reading() {   # reading OBJECT: its run on the interval fixtures into $tmp/reading.out
	"$NTPROF_BIN" run --verbose --backend "dl:$dir/$1.so" "$fixtures/interval" >"$tmp/reading.out" 2>"$tmp/err"
	rc=$?
}
threshold='privilege-threshold on 6.1/x86 .*'
reading dl_hal_rate
if [ "$rc" -eq 0 ] && [ "$(failures "$tmp/reading.out")" -eq 0 ] &&
   grep -q "^match .*$threshold\[judged under its reading K-HAL-RATE=power-of-two\]" "$tmp/reading.out"; then
	ok "dl_hal_rate.so, declaring reading:K-HAL-RATE=power-of-two, passes, judged under that reading"
else
	not_ok "dl_hal_rate.so, declaring reading:K-HAL-RATE=power-of-two, passes, judged under that reading" \
		"rc $rc, $(failures "$tmp/reading.out") failing rows"
fi
reading dl_hal_rate_unclaimed
if [ "$rc" -eq 1 ] && grep -q "^output-mismatch .*${threshold}expected .*Interval=5000, got .*Interval=4883" "$tmp/reading.out" &&
   ! grep -q "judged under" "$tmp/reading.out"; then
	ok "twin: the same object without the claim fails the default reading"
else
	not_ok "twin: the same object without the claim fails the default reading" "rc $rc"
fi
reading dl_hal_rate_false
if [ "$rc" -eq 1 ] &&
   grep -q "^output-mismatch .*${threshold}expected .*Interval=4883, got .*Interval=5000.*\[judged under its reading K-HAL-RATE=power-of-two\]" "$tmp/reading.out"; then
	ok "twin: claiming the reading over the default one is caught"
else
	not_ok "twin: claiming the reading over the default one is caught" "rc $rc"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
