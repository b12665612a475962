#!/bin/sh
# SPDX-License-Identifier: MIT
# Wine, for real: the Windows exe (make windows) under Wine 8.0, headless, in
# the prefix of tools/wine.sh.
#
#   - both exes import system DLLs only; the i686 one cannot run here (no
#     wine32) and tools/wine.sh says so instead of taking its silence for
#     success;
#   - `ntprof.exe run` under Wine gives the model's results row for row as
#     build/ntprof run does on Linux (the cross-compiled model is the model);
#   - a child that crashes, raises Wine's stub exception, exits, hangs or
#     garbles its record is classified (crashed, stub) and the run goes on
#     (the NTPROF_CHILD_FAULT test hook of harness/win/child.c);
#   - the exes: the i686 one is not large-address-aware, the x86_64 one is;
#     both carry the manifest (objdump -p);
#   - the live side: a handle to another process that cannot be made is not
#     applicable (never NULL); an `unmapped` address stays reserved while the
#     step allocates more (NTPROF_CHECK_UNMAPPED); under strict handle
#     checking (conformance/win/ntdll_strict.c) no handle is closed twice;
#   - `ntprof.exe live` as Windows 7 and as Windows 10 matches the model
#     except where fixtures/known/wine-8.0.MODE.known lists the divergence,
#     every listed divergence still happens, and every entry was judged
#     (0 not run: an entry that never runs never fails); an entry for no
#     vector is refused. The reports are kept:
#     build/reports/wine-win7.json, wine-win10.json;
#   - live's reports say `live` and the system (a text one, of a child's
#     fault below, and those two); the JSON ones pass
#     schema/run-result-v3.schema.json and read beside the model in compare;
#     live --help tells how to run it on a real machine.
#
# Environment: NTPROF_BIN (the Linux ntprof of this tree), NTPROF_SOURCE_ROOT.
# Plain tree only (the exe is the same for every tree). Prints TAP; exits 1
# when any check fails.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
wine=$root/tools/wine.sh
exe=$root/build/win/x86_64/ntprof.exe
exe32=$root/build/win/i686/ntprof.exe
reports=$root/build/reports

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-wine.XXXXXX") || exit 1
trap '"$wine" --stop; rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
mkdir -p "$reports"

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
# Shows a file as TAP comments (at most 40 lines).
winpath() {   # Wine maps / to Z:
	echo "Z:$1"
}

echo "1..22"

# ---- the exes --------------------------------------------------------------
for e in "$exe" "$exe32"; do
	if [ ! -f "$e" ]; then
		not_ok "$e exists" "build it with make windows (make check does)"
		continue
	fi
	dlls=$(x86_64-w64-mingw32-objdump -p "$e" | sed -n 's/^.*DLL Name: //p' | tr '\n' ' ')
	extra=$(echo "$dlls" | tr ' ' '\n' | grep -v -i -x -e '' -e KERNEL32.dll -e msvcrt.dll -e ADVAPI32.dll)
	if [ -z "$extra" ]; then
		ok "$(basename "$(dirname "$e")") exe imports system DLLs only: $dlls"
	else
		not_ok "$(basename "$(dirname "$e")") exe imports system DLLs only" "it also imports: $extra"
	fi
done


# ---- the exes' pinned flags and manifest (objdump -p) ----------------------
# The i686 exe is not large-address-aware (Makefile: WIN_LDFLAGS_i686), so
# that the WOW64 `kernel` pointer 0x80001000 is unmapped to it; the x86_64
# one is. Both carry harness/win/ntprof.manifest as RT_MANIFEST (type 24)
# resource 1.
flags() {   # EXE: the Characteristics lines of objdump -p, on one line
	x86_64-w64-mingw32-objdump -p "$1" | sed -n '/^Characteristics/,/^$/p' | tr '\n\t' '  '
}
if flags "$exe32" | grep -q '32 bit words' && ! flags "$exe32" | grep -q 'large address aware' &&
	flags "$exe" | grep -q 'large address aware'; then
	ok "the i686 exe is not large-address-aware, the x86_64 exe is (objdump -p)"
else
	not_ok "the i686 exe is not large-address-aware, the x86_64 exe is (objdump -p)" \
		"i686: $(flags "$exe32")" "x86_64: $(flags "$exe")"
fi
manifest_ok() {   # EXE
	x86_64-w64-mingw32-objdump -p "$1" | tr -d '\n' |
		grep -q 'Type Table:[^E]*Entry: ID: 0x000018[^E]*Entry: ID: 0x000001' &&
		grep -a -q 'requestedExecutionLevel level="highestAvailable"' "$1" &&
		grep -a -q '<longPathAware[^>]*>true</longPathAware>' "$1"
}
# the twin: an exe without the resource (the stand-in DLL) is refused
if manifest_ok "$exe" && manifest_ok "$exe32" &&
	! manifest_ok "$root/build/win/x86_64/conformance/win/ntdll_standin.dll"; then
	ok "both exes carry the manifest (RT_MANIFEST 1: highestAvailable, longPathAware); a DLL without it is refused"
else
	not_ok "both exes carry the manifest (RT_MANIFEST 1: highestAvailable, longPathAware)" \
		"$(x86_64-w64-mingw32-objdump -p "$exe" | grep -A4 'Resource Directory section' | tr '\n' ' ')"
fi

"$wine" win7 "$exe32" versions >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 125 ] && grep -q 'cannot run here' "$tmp/err"; then
	ok "the i686 exe is built but cannot run here (no wine32), and wine.sh says so"
elif [ $rc -eq 0 ] && [ -s "$tmp/out" ]; then
	ok "the i686 exe runs here (wine32 is installed) # SKIP nothing to refuse"
else
	not_ok "wine.sh refuses the i686 exe with the reason (exit 125)" "exit $rc" "$(cat "$tmp/err")"
fi

# ---- the model under Wine is the model -------------------------------------
# The same rows in the same order; only the file names differ (compiled in
# on Windows, read from the tree on Linux).
"$wine" win10 "$exe" run --format json >"$tmp/win.json" 2>"$tmp/err"
rc=$?
"$NTPROF_BIN" run --format json >"$tmp/linux.json" 2>>"$tmp/err"
# (and the exe's stdout is in text mode: CRLF line ends; each has its own timestamp)
strip='s/"file":"[^"]*",//; s/"timestamp":"[^"]*"//; s/\r$//'
sed "$strip" "$tmp/linux.json" >"$tmp/linux.rows"
sed "$strip" "$tmp/win.json" >"$tmp/win.rows"
rows=$(grep -c '^{"vector"' "$tmp/linux.rows")
if [ $rc -eq 0 ] && [ "$rows" -gt 1000 ] && cmp -s "$tmp/linux.rows" "$tmp/win.rows"; then
	ok "ntprof.exe run under Wine gives the Linux model's $rows rows, in order"
else
	diff "$tmp/linux.rows" "$tmp/win.rows" | head -5 >"$tmp/diff"
	not_ok "ntprof.exe run under Wine gives the Linux model's rows, in order" "exit $rc" \
		"$(cat "$tmp/diff" "$tmp/err")"
fi

# ---- a misbehaving child is classified, and the run goes on ----------------
cat >"$tmp/faults.vec" <<'EOF'
vector wine-test/first
  title   The step whose child misbehaves
  rules   SI-1
  source  conformance/cli/test_wine.sh
  call    NtClose Handle=invalid
  expect  STATUS_INVALID_HANDLE
vector wine-test/second
  title   The next vector runs in a fresh child
  rules   SI-1
  source  conformance/cli/test_wine.sh
  call    NtSetIntervalProfile Interval=10000
  expect  STATUS_SUCCESS on <6.2
  expect  STATUS_PRIVILEGE_NOT_HELD on >=6.2
EOF
fault_case() {   # WHAT CLASS TEXT
	# --verbose: a line per result, its class, vector and what the child did on one line
	NTPROF_CHILD_FAULT="$1@NtClose" NTPROF_STEP_TIMEOUT=2 \
		"$wine" win10 "$exe" live --verbose --allow-unsaved-intervals "$tmp/faults.vec" >"$tmp/out" 2>"$tmp/err"
	# the first one's text report, whose first line names the system (below)
	[ -e "$tmp/fault.txt" ] || cp "$tmp/out" "$tmp/fault.txt"
	if grep -q "^$2 *wine-test/first .*$3" "$tmp/out" &&
		grep -q "^summary: .* 1 status-mismatch" "$tmp/out"; then
		ok "a child that does '$1' is classified $2 ($3), and the next vector runs"
	else
		not_ok "a child that does '$1' is classified $2 ($3), and the next vector runs" \
			"$(show "$tmp/out")" "$(show "$tmp/err")"
	fi
}
fault_case crash crashed 'unhandled exception 0xC0000005'
fault_case stub stub 'ntdll.dll.NtTestStub is an unimplemented stub'
fault_case exit crashed 'ended without a record (exit code 0x00000007)'
fault_case hang crashed 'no record within 2 s'
fault_case garbage crashed 'an unreadable record from the child'


# ---- the live side's own mechanics ------------------------------------------
cat >"$tmp/mech.vec" <<'EOF2'
vector wine-test/close-other
  title   A handle to another process, closed by the vector
  rules   SI-1
  source  conformance/cli/test_wine.sh
  call    NtClose Handle=other
  expect  STATUS_SUCCESS
vector wine-test/close-duplicate
  title   A duplicate, closed by the vector
  rules   SI-1
  source  conformance/cli/test_wine.sh
  call    NtDuplicateObject SourceHandle=current DesiredAccess=0 TargetHandle=>d
  expect  STATUS_SUCCESS TargetHandle=d
  call    NtClose Handle=d
  expect  STATUS_SUCCESS
vector wine-test/unmapped-kept
  title   An unmapped pointer, then another allocation in the same step
  rules   SI-1
  source  conformance/cli/test_wine.sh
  call    NtQuerySystemInformation SystemInformation=unmapped ReturnLength=user
  expect  STATUS_ACCESS_VIOLATION
EOF2
live_mech() {   # runs mech.vec (extra environment first): $tmp/mech.json, $tmp/mech.err
	env "$@" "$wine" win10 "$exe" live --allow-unsaved-intervals --format json "$tmp/mech.vec" \
		>"$tmp/mech.json" 2>"$tmp/mech.err"
	tr -d '\r' <"$tmp/mech.json" >"$tmp/mech.rows"
}
row() {   # VECTOR: its row of mech.rows (one result a line; its outcomes are objects)
	grep "^{\"vector\":\"wine-test/$1\"" "$tmp/mech.rows"
}

# One run serves two checks: the rows of mech.vec with nothing planted, and
# the unmapped check's lines (NTPROF_CHECK_UNMAPPED=1 only adds lines on
# stderr).
live_mech NTPROF_CHECK_UNMAPPED=1
twin=$(row close-other)
good=$(grep -c 'ntprof child: unmapped .* is reserved, not committed while' "$tmp/mech.err")
bad=$(grep -c 'NOT RESERVED' "$tmp/mech.err")

# A handle to another process that cannot be made is never passed on as
# NULL (a global profile): the step is not applicable, with the reason. The
# twin: made, the same step runs and matches.
live_mech NTPROF_CHILD_FAULT=noprocess@NtClose
if echo "$twin" | grep -q '"class":"match"' &&
	row close-other | grep -q '"class":"not-applicable".*cannot make a handle to another process (Process=other)'; then
	ok "a handle to another process that cannot be made makes the step not applicable, never NULL"
else
	not_ok "a handle to another process that cannot be made makes the step not applicable, never NULL" \
		"made: $twin" "not made: $(row close-other)"
fi

# `unmapped` stays reserved and uncommitted while the step's next
# allocation is made (NTPROF_CHECK_UNMAPPED, harness/win/impl_windows.c);
# the twin frees it instead, as the exe once did, and the check says so
# (the first run above checked it).
live_mech NTPROF_CHECK_UNMAPPED=twin
if [ "$good" -ge 1 ] && [ "$bad" -eq 0 ] && grep -q 'NOT RESERVED (check failed)' "$tmp/mech.err"; then
	ok "an unmapped address stays reserved, uncommitted, while the step's other allocation is made (twin caught)"
else
	not_ok "an unmapped address stays reserved, uncommitted, while the step's other allocation is made" \
		"$good reserved, $bad not; twin: $(grep -c 'NOT RESERVED' "$tmp/mech.err") not"
fi

# Under strict handle checking (conformance/win/ntdll_strict.c: NtClose of a handle
# not open raises 0xC0000008) a handle the vector closed is not closed again
# at its end. The twin: a vector that closes a handle not open does raise.
strict=$(winpath "$root/build/win/x86_64/conformance/win/ntdll_strict.dll")
live_mech NTPROF_NTDLL="$strict"
raised=$(grep -c '^ntdll_strict: ' "$tmp/mech.err")
closed=$(row close-other)
printf 'vector wine-test/close-invalid\n  title   Closing what is not open\n  rules   SI-1\n  source  conformance/cli/test_wine.sh\n  call    NtClose Handle=invalid\n  expect  STATUS_INVALID_HANDLE\n' \
	>"$tmp/invalid.vec"
NTPROF_NTDLL="$strict" "$wine" win10 "$exe" live --allow-unsaved-intervals "$tmp/invalid.vec" \
	>"$tmp/invalid.out" 2>"$tmp/invalid.err"
if [ "$raised" -eq 0 ] && echo "$closed" | grep -q '"class":"match"' &&
	grep -q '^ntdll_strict: NtClose(.*raised 0xC0000008' "$tmp/invalid.err"; then
	ok "under strict handle checking no handle is closed twice at a vector's end (twin: a bad close raises)"
else
	not_ok "under strict handle checking no handle is closed twice at a vector's end" \
		"$raised raised" "$(grep '^ntdll_strict' "$tmp/mech.err" | head -3)" "twin: $(show "$tmp/invalid.out")"
fi

# ---- Wine as Windows 7 and Windows 10, against the known divergences -------
# Every entry must have been judged: "not-run":0 in the JSON report's known
# object. An entry that never ran (its vector not applicable, skipped, or
# scoped to another version) never fails, so the list would no longer say
# what Wine does. all_judged FILE: true for a JSON report whose known object
# counts 0 unlisted, 0 stale and 0 not run. (One run per mode, in JSON: the
# text report says the same counts from the same rows.)
known_of() {   # FILE: the report's known object
	grep -o '"known":{[^}]*}' "$1" | head -n 1
}
all_judged() {
	known_of "$1" | grep -Eq '"entries":[0-9]+,"known":[0-9]+,"unlisted":0,"stale":0,"not-run":0,'
}

# The fail twin: the win10 list's entries for one file's vectors, with one
# more, scoped to a version Wine as Windows 10 is not, run on that file: the
# entry is not run there, and all_judged must refuse it.
grep -e '^#' -e '^query-interval/' "$root/fixtures/known/wine-8.0.win10.known" >"$tmp/twin.known"
echo 'query-interval/one-argument-form on 3.51 not-exported step 1: not-exported # never on win10' \
	>>"$tmp/twin.known"
"$wine" win10 "$exe" live --allow-unsaved-intervals --known "$tmp/twin.known" --format json \
	"$root/fixtures/interval/query-interval.vec" >"$tmp/twin.json" 2>"$tmp/twin.err"
rc=$?
if [ $rc -eq 0 ] && known_of "$tmp/twin.json" | grep -q '"unlisted":0,"stale":0,"not-run":1,' &&
	! all_judged "$tmp/twin.json"; then
	ok "a listed entry that Wine never runs is caught as not run (the run alone exits 0)"
else
	not_ok "a listed entry that Wine never runs is caught as not run" "exit $rc" \
		"$(known_of "$tmp/twin.json")" "$(show "$tmp/twin.err")"
fi

# live reads the list against its vectors as run does: an entry for no vector
# is refused (exit 2, file:line) before anything runs.
printf 'query-interval/no-such-vector not-exported step 1: not-exported # r\n' >"$tmp/none.known"
"$wine" win10 "$exe" live --allow-unsaved-intervals --known "$tmp/none.known" >"$tmp/none.txt" 2>"$tmp/none.err"
rc=$?
if [ $rc -eq 2 ] && grep -q -F "none.known:1: query-interval/no-such-vector: no such vector in the vectors loaded" "$tmp/none.err" &&
	! grep -q '^summary:' "$tmp/none.txt"; then
	ok "live refuses a listed entry for no vector (exit 2, file:line), running nothing"
else
	not_ok "live refuses a listed entry for no vector (exit 2, file:line), running nothing" "exit $rc" \
		"$(show "$tmp/none.err")"
fi

for mode in win7 win10; do
	known=$root/fixtures/known/wine-8.0.$mode.known
	start=$(date +%s)
	"$wine" $mode "$exe" live --allow-unsaved-intervals --known "$known" --format json \
		>"$tmp/report.json" 2>"$tmp/err.json"
	rc=$?
	seconds=$(($(date +%s) - start))
	tr -d '\r' <"$tmp/report.json" >"$reports/wine-$mode.json"   # text mode's CRLF
	summary=$(grep -o '"summary":{[^}]*}' "$reports/wine-$mode.json" | head -n 1)
	# Wine was the Windows the list is for (tools/wine.sh switches the
	# prefix's version only when it is in the other one)
	want=$(sed -n 's/^# env version: //p' "$known")
	got=$(grep -o '"environment":{[^}]*"version":"[^"]*"' "$reports/wine-$mode.json" | sed 's/.*"version":"//; s/"$//')
	if [ $rc -eq 0 ] && [ -n "$summary" ] && all_judged "$reports/wine-$mode.json" && [ "$got" = "$want" ] &&
		grep -q '"results":\[' "$reports/wine-$mode.json"; then
		ok "Wine as $mode ($got): every divergence listed and every listed one seen, none not run (${seconds} s): $summary"
		echo "#   $(known_of "$reports/wine-$mode.json")"
	else
		grep -E '^ntprof|^wine\.sh' "$tmp/err.json" | head -30 >"$tmp/why"
		not_ok "Wine as $mode: every divergence listed and every listed one seen, none not run" \
			"exit $rc, version $got (the list is for $want); the report in $reports/wine-$mode.json" \
			"${summary:-no summary}" "$(known_of "$reports/wine-$mode.json")" "$(cat "$tmp/why")"
	fi
done

# The live reports name the run and the system, and the JSON one passes the
# schema and reads beside the model; the twin, run's own report, says run.
check=$(dirname "$NTPROF_BIN")/conformance/schema/json_schema_check
first=$(tr -d '\r' <"$tmp/fault.txt" | head -n 1)
if "$check" "$root/schema/run-result-v3.schema.json" "$reports/wine-win7.json" "$reports/wine-win10.json" \
	>"$tmp/schema.out" 2>"$tmp/schema.err" &&
	grep -q '^{"tool":"ntprof","format":3,"command":"live","backend":"live","system":"[0-9.]* SP[0-9]* (version [^,]*, build [0-9]*, x64, Wine [0-9.]*)",' \
		"$reports/wine-win10.json" &&
	case $first in "ntprof live on "*", x64, Wine "*"): "*" vectors, "*" results"|"ntprof live on "*", x64, Wine "*"): "*" vectors, "*" results; grouped by cause"*) true ;; *) false ;; esac; then
	ok "live reports say live and the system (text: $first); both JSON files pass the schema"
else
	not_ok "live reports say live and the system; both JSON files pass the schema" "text: $first" \
		"$(head -3 "$tmp/schema.err")" "$(head -c 300 "$reports/wine-win10.json")"
fi
target=$(sed -n '1s/.*"version":"\([^"]*\)".*"arch":"\([^"]*\)".*/\1\/\2/p' "$reports/wine-win10.json")
"$NTPROF_BIN" run --format json --target "$target" --output "$tmp/model.json" >/dev/null 2>&1
"$NTPROF_BIN" compare "$tmp/model.json" "$reports/wine-win10.json" >"$tmp/cmp.txt" 2>"$tmp/cmp.err"
rc=$?
"$wine" win10 "$exe" run --target 6.2/x64 >"$tmp/run.txt" 2>/dev/null
if [ "$rc" -eq 1 ] && grep -q "^  vector  *model  *wine 8.0 ${target%/*} [0-9]* ${target#*/}\$" "$tmp/cmp.txt" &&
	grep -q '^\* ' "$tmp/cmp.txt" && head -n 1 "$tmp/run.txt" | grep -q '^ntprof run: backend model,'; then
	ok "compare shows the Wine file beside the model on $target, its differences marked; run still says run"
else
	not_ok "compare shows the Wine file beside the model on $target" "exit $rc" "$(head -3 "$tmp/cmp.txt")" \
		"$(head -2 "$tmp/cmp.err")" "run: $(head -n 1 "$tmp/run.txt")"
fi
"$wine" win10 "$exe" live --help >"$tmp/help.txt" 2>/dev/null
tr -d '\r' <"$tmp/help.txt" >"$tmp/help"
if grep -q 'take a snapshot first' "$tmp/help" && grep -q 'elevated console' "$tmp/help" &&
	grep -q -- '--allow-hazard runs those vectors' "$tmp/help" &&
	grep -q 'ntprof.exe live --format json --output ntprof-live.json' "$tmp/help"; then
	ok "live --help says how to run it on a real machine and the one command to send a file back"
else
	not_ok "live --help says how to run it on a real machine" "$(show "$tmp/help")"
fi

# The exe carries what runs on Windows; matrix, diff, compare and trace need
# the Linux libraries, explore and export work on the model only: they say
# so (exit 2) and are not in the usage. The twin: a command the exe has,
# versions, is in the usage and runs.
"$wine" win10 "$exe" matrix >"$tmp/absent.out" 2>"$tmp/absent.err"
rc=$?
"$wine" win10 "$exe" explore >"$tmp/absent.out" 2>"$tmp/explore.err"
rc_explore=$?
"$wine" win10 "$exe" help >"$tmp/usage.txt" 2>/dev/null
tr -d '\r' <"$tmp/usage.txt" >"$tmp/usage"
if [ "$rc" -eq 2 ] && grep -q 'ntprof: matrix is not in this build' "$tmp/absent.err" &&
	[ "$rc_explore" -eq 2 ] && grep -q 'ntprof: explore is not in this build' "$tmp/explore.err" &&
	! grep -Eq 'ntprof (matrix|diff|compare|trace|explore|export)' "$tmp/usage" &&
	grep -q 'ntprof versions' "$tmp/usage" && grep -q 'ntprof live' "$tmp/usage"; then
	ok "the exe leaves out matrix, diff, compare, trace, explore and export, saying so, and lists live and versions"
else
	not_ok "the exe leaves out matrix, diff, compare, trace, explore and export, saying so" "exit $rc, $rc_explore" \
		"$(head -2 "$tmp/absent.err")" "$(head -2 "$tmp/explore.err")" "$(show "$tmp/usage")"
fi

[ "$failed" -eq 0 ]
