#!/bin/sh
# SPDX-License-Identifier: MIT
# The result files against their schema (schema/run-result-v3.schema.json),
# checked by conformance/schema/json_schema_check (harness/report/json_schema.c):
#   - real outputs pass: a model run on every fixture and target, a run of
#     dl_faulty.so (mismatches, the model beside them), a run with a
#     known-divergence list (known rows, a stale entry), and the live file
#     ntprof.exe wrote under Wine (conformance/data/live-wine-8.0-win10.json);
#   - twins: each of those made wrong in one place is refused, exit 1, with
#     the JSON path of the value named;
#   - compare reads the live file beside the model, and refuses format 1;
#     matrix --observed shows it as a column beside the model;
#   - a malformed SOURCE_DATE_EPOCH is refused before anything runs.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
build=$(dirname "$NTPROF_BIN")
check=$build/conformance/schema/json_schema_check
schema=$root/schema/run-result-v3.schema.json
live=$root/conformance/data/live-wine-8.0-win10.json

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-schema.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# valid NAME FILE: FILE passes the schema.
valid() {
	if "$check" "$schema" "$2" >"$tmp/check.out" 2>"$tmp/check.err"; then
		ok "$1 passes the schema"
	else
		not_ok "$1 passes the schema" "exit $?" "$(head -3 "$tmp/check.err")"
	fi
}

# refused NAME FILE WANT: FILE is refused (exit 1) with WANT in the message.
refused() {
	"$check" "$schema" "$2" >"$tmp/check.out" 2>"$tmp/check.err"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q -F -- "$3" "$tmp/check.err"; then
		ok "twin: $1 is refused ($3)"
	else
		not_ok "twin: $1 is refused" "want exit 1 and '$3', have exit $rc:" "$(head -3 "$tmp/check.err")"
	fi
}

# twin NAME FROM SED WANT: FROM edited by the sed expression SED is refused with WANT.
twin() {
	sed -e "$3" "$2" >"$tmp/twin.json"
	if cmp -s "$2" "$tmp/twin.json"; then
		not_ok "twin: $1" "the edit '$3' changed nothing"
		return
	fi
	refused "$1" "$tmp/twin.json" "$4"
}

[ -x "$check" ] || { not_ok "$check is built"; echo "1..$n"; exit 1; }

"$NTPROF_BIN" run --format json --output "$tmp/model.json" "$root/fixtures"
valid "a model run on every fixture and target" "$tmp/model.json"
# The twins edit its summary (line 1) and its first result (line 2): a run
# on the first target alone has the same two lines and a sixtieth of the
# size, which each twin's validation reads whole.
"$NTPROF_BIN" run --format json --target 3.10/x86 --output "$tmp/one.json" "$root/fixtures"
"$NTPROF_BIN" run --format json --backend "dl:$build/conformance/dl/dl_faulty.so" --target 6.2/x64 \
	--output "$tmp/faulty.json" "$root/fixtures"
if grep -q '"class":"status-mismatch"' "$tmp/faulty.json" && grep -q '"model":{"kind"' "$tmp/faulty.json"; then
	valid "a dl_faulty.so run (mismatches, the model beside them)" "$tmp/faulty.json"
else
	not_ok "a dl_faulty.so run passes the schema" "no mismatch with the model beside it in $tmp/faulty.json"
fi
cat >"$tmp/k.vec" <<'EOF'
vector schema/mismatch
  title   t
  rules   SI-1
  source  s
  given   privilege=off
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_SUCCESS
vector schema/match
  title   t
  rules   QI-5
  source  s
  call    NtQueryIntervalProfile
  expect  STATUS_SUCCESS Interval=39063
EOF
cat >"$tmp/k.known" <<'EOF'
schema/mismatch status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD (0xC0000061) # why
schema/match output-mismatch step 1: STATUS_SUCCESS (0x00000000) Interval=1 # stale
EOF
"$NTPROF_BIN" run --format json --known "$tmp/k.known" --target 6.2/x64 --output "$tmp/known.json" "$tmp/k.vec"
if grep -q '"class":"known"' "$tmp/known.json" && grep -q '"stale":1' "$tmp/known.json"; then
	valid "a run with a known-divergence list (a known row, a stale entry)" "$tmp/known.json"
else
	not_ok "a run with a known-divergence list passes the schema" "no known row or stale entry in it"
fi
if grep -q '^{"tool":"ntprof","format":3,"command":"live",' "$live"; then
	valid "the live file of ntprof.exe under Wine" "$live"
else
	not_ok "the live file of ntprof.exe under Wine passes the schema" "$live is no live file of format 3"
fi

# The twins: one keyword each, the path named.
twin "a wrong kind" "$tmp/faulty.json" '0,/"kind":"status"/s//"kind":"statuz"/' \
	'.expected.kind: enum: "statuz" is none of the values allowed'
twin "rules as text" "$tmp/one.json" '2s/"rules":\["\([^"]*\)"[^]]*\]/"rules":"\1"/' \
	'$.results[0].rules: type: want array, not a string'
twin "an absent value as \"\"" "$tmp/one.json" '2s/"expected":null/"expected":""/' \
	'$.results[0].expected: type: want object or null, not a string'
twin "a member the schema lacks" "$tmp/one.json" '2s/"note":/"notes":1,"note":/' \
	'$.results[0].notes: additionalProperties: no member of this name is allowed here'
twin "a result without got" "$tmp/one.json" '2s/"got":null,//' '$.results[0]: required: no member "got"'
twin "a count that is not a whole number" "$tmp/one.json" '1s/"match":\([0-9]*\)/"match":\1.5/' \
	'$.summary.match: type: want integer, not a number'
twin "a class the summary does not know" "$tmp/one.json" '1s/"skipped":/"passed":/' \
	'$.summary.passed: enum: "passed" is none of the values allowed'
twin "a timestamp that is no ISO 8601" "$tmp/one.json" '1s/"timestamp":"\([0-9]*\)-/"timestamp":"\1\//' \
	'$.environment.timestamp: pattern:'
twin "the format of another version" "$tmp/one.json" '1s/"format":3/"format":1/' \
	'$.format: enum: 1 is none of the values allowed'
twin "an environment value that is no string" "$live" '1s/"build":"\([0-9]*\)"/"build":\1/' \
	'$.environment.build: type: want string, not a number'
twin "a hex code in lower case" "$tmp/faulty.json" '0,/"hex":"0xC/s//"hex":"0xc/' \
	'.hex: pattern: "0xc'
twin "a stale entry without its target" "$tmp/known.json" 's/,"now-target":"[^"]*"//' \
	'$.known["stale-entries"][0]: required: no member "now-target"'

# A schema the validator cannot check in full is refused (exit 2), not passed.
sed 's/"type": "integer"/"type": "integer", "minimum": 0/' "$schema" >"$tmp/more.schema.json"
"$check" "$tmp/more.schema.json" "$tmp/one.json" >/dev/null 2>"$tmp/check.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'schema: a keyword this validator does not check: "minimum"' "$tmp/check.err"; then
	ok "a schema keyword the validator does not check is refused, exit 2"
else
	not_ok "a schema keyword the validator does not check is refused, exit 2" "exit $rc" "$(head -2 "$tmp/check.err")"
fi

# compare: the live file beside the model at its target; format 1 refused.
target=$(sed -n '1s/.*"version":"\([^"]*\)".*"arch":"\([^"]*\)".*/\1\/\2/p' "$live")
"$NTPROF_BIN" run --format json --target "$target" --output "$tmp/beside.json" \
	"$root/fixtures/interval/set-interval.vec" "$root/fixtures/interval/trace.vec"
"$NTPROF_BIN" compare "$tmp/beside.json" "$live" >"$tmp/cmp.txt" 2>"$tmp/cmp.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "^  vector  *beside  *wine 8.0 .* x64\$" "$tmp/cmp.txt" &&
	grep -q '^\* set-interval/privilege-threshold  *match  *status-mismatch step 1: STATUS_SUCCESS$' "$tmp/cmp.txt" &&
	grep -q '^  set-interval/privilege-held  *match  *match$' "$tmp/cmp.txt"; then
	ok "compare shows the live file beside the model on $target, its mismatches marked"
else
	not_ok "compare shows the live file beside the model on $target" "exit $rc" "$(head -5 "$tmp/cmp.txt")" \
		"$(head -2 "$tmp/cmp.err")"
fi
cat >"$tmp/old.json" <<'EOF'
{"tool":"ntprof","format":1,"backend":"model","environment":{},"summary":{},"results":[
{"vector":"set-interval/privilege-threshold","version":"1903","arch":"x64","class":"status-mismatch","observed":"status-mismatch","rules":"SI-1","file":"f","line":1,"step":1,"expected":"x","got":"STATUS_SUCCESS (0x00000000)","model":"","fixture":"","note":"","listed":""}
]}
EOF
"$NTPROF_BIN" compare "$tmp/old.json" "$live" >"$tmp/cmp.txt" 2>"$tmp/cmp.err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/cmp.txt" ] &&
	grep -q -F "$tmp/old.json:1: \"format\" 1 is no longer read" "$tmp/cmp.err"; then
	ok "compare refuses format 1, naming the file, the line and the format (exit 2)"
else
	not_ok "compare refuses format 1, naming the file, the line and the format" "exit $rc" \
		"$(cat "$tmp/cmp.txt" "$tmp/cmp.err" | head -5)"
fi
# Its twin: the same file of format 2 is read, its cells beside the live file's.
sed '1s/"format":1/"format":2/; s/"got":\("STATUS_SUCCESS[^"]*"\)/"got":{"kind":"status","code":0,"out":{},"text":\1}/' \
	"$tmp/old.json" >"$tmp/two.json"
"$NTPROF_BIN" compare "$tmp/two.json" "$live" >"$tmp/cmp.txt" 2>"$tmp/cmp.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^  set-interval/privilege-threshold  *status-mismatch step 1: STATUS_SUCCESS  *status-mismatch step 1: STATUS_SUCCESS$' "$tmp/cmp.txt"; then
	ok "twin: compare reads the same file as format 2"
else
	not_ok "twin: compare reads the same file as format 2" "exit $rc" "$(cat "$tmp/cmp.txt" "$tmp/cmp.err" | head -5)"
fi

# matrix --observed: the live file as a column beside the model on its
# version, marked where the system disagrees; a bad file and html refused.
"$NTPROF_BIN" matrix --observed "$live" "$root/fixtures/interval/set-interval.vec" >"$tmp/matrix.txt" 2>"$tmp/matrix.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q "^observed: wine 8.0 1903 18362 x64 (1903/x64)\$" "$tmp/matrix.txt" &&
	grep -q '^set-interval/privilege-threshold  *1  *NtSetIntervalProfile .* PRIVILEGE_NOT_HELD  *!SUCCESS$' "$tmp/matrix.txt" &&
	grep -q '^set-interval/privilege-held  *1  *NtSetIntervalProfile .* SUCCESS  *SUCCESS$' "$tmp/matrix.txt" &&
	head -n 1 "$tmp/matrix.txt" | grep -q ', 1 versions,'; then
	ok "matrix --observed: the live file beside the model on 1903 only, ! where it disagrees"
else
	not_ok "matrix --observed: the live file beside the model" "exit $rc" "$(head -9 "$tmp/matrix.txt" "$tmp/matrix.err")"
fi
printf '{"tool":"ntprof","format":2,\n"results":[{"vector":"x"}]}\n' >"$tmp/bad.json"
"$NTPROF_BIN" matrix --observed "$tmp/bad.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
"$NTPROF_BIN" matrix --format html --observed "$live" >"$tmp/out2" 2>"$tmp/err2"
rc2=$?
if [ "$rc" -eq 2 ] && grep -q "^$tmp/bad.json:2: a result without \"version\"" "$tmp/err" && [ ! -s "$tmp/out" ] &&
	[ "$rc2" -eq 2 ] && grep -q 'matrix: --observed takes --format text or markdown' "$tmp/err2"; then
	ok "matrix --observed: a bad result file is refused with file:line, html with a usage error (exit 2)"
else
	not_ok "matrix --observed refuses a bad file and html" "exit $rc, $rc2" "$(head -2 "$tmp/err" "$tmp/err2")"
fi

# SOURCE_DATE_EPOCH: honoured, and refused when malformed, before anything runs.
SOURCE_DATE_EPOCH=1767225600 "$NTPROF_BIN" run --format json --target 6.2/x64 "$tmp/k.vec" >"$tmp/date.json"
if grep -q '"timestamp":"2026-01-01T00:00:00Z"' "$tmp/date.json"; then
	ok "SOURCE_DATE_EPOCH=1767225600 dates the report 2026-01-01T00:00:00Z"
else
	not_ok "SOURCE_DATE_EPOCH dates the report" "$(head -c 300 "$tmp/date.json")"
fi
SOURCE_DATE_EPOCH=yesterday "$NTPROF_BIN" run --format json --output "$tmp/never.json" "$tmp/k.vec" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -e "$tmp/never.json" ] && grep -q '^ntprof: SOURCE_DATE_EPOCH=yesterday: want' "$tmp/err"; then
	ok "a malformed SOURCE_DATE_EPOCH is refused (exit 2), nothing written"
else
	not_ok "a malformed SOURCE_DATE_EPOCH is refused (exit 2), nothing written" "exit $rc" "$(head -2 "$tmp/err")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
