#!/bin/sh
# SPDX-License-Identifier: MIT
# The live side's save, set and restore of the profile intervals, run for
# real under Wine. Wine's ntdll has no NtQueryIntervalProfile (nothing can
# be saved there), so the exe binds the interval calls from a stand-in,
# build/win/x86_64/conformance/win/ntdll_standin.dll (conformance/win/ntdll_standin.c),
# through NTPROF_NTDLL; the stand-in keeps the intervals in a state file
# that every process of the run shares and that this script reads. The
# exe's own binding, save, set and restore code runs; only the two exports
# are the stand-in's.
#
#   - unset, NTPROF_NTDLL changes nothing (the intervals cannot be saved and
#     the vectors that set them are skipped); a path that does not load
#     stops the run with exit 2, naming it;
#   - a normal run restores each interval after the vector that set it and
#     at the end: the state after equals the state before, and the calls
#     come in that order;
#   - a vector whose child crashes, or hangs until the step timeout ends it,
#     is restored all the same;
#   - Ctrl-C (SIGINT to the exe's Wine process, which Wine turns into a
#     CTRL_C_EVENT for the console handlers), twice, restores and reads back
#     each interval once, says so and exits 130;
#   - a restore that fails, refused by the set or rounded by the "HAL" (a
#     set that returns success, but the interval read back is another),
#     exits 3 and names the source left changed, on stderr and in the
#     report; so does Ctrl-C when its restore is refused.
#   - the ETW time-profile interval (a separate variable in the stand-in) is
#     saved, restored and read back through the Trace* class 5 calls;
#   - a started profile of a 16-bit-narrowed source and a class 0x81
#     allocation are skipped as hazardous unless --allow-hazard; a
#     model-only vector is never run (not-required).
#
# Environment: NTPROF_SOURCE_ROOT (NTPROF_BIN is not needed). Plain tree only
# (the exe is the same for every tree). Prints TAP; exits 1 when a check
# fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
wine=$root/tools/wine.sh
exe=$root/build/win/x86_64/ntprof.exe
dll=$root/build/win/x86_64/conformance/win/ntdll_standin.dll

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-wine-restore.XXXXXX") || exit 1
trap '"$wine" --stop; rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

echo "1..13"
for f in "$exe" "$dll"; do
	if [ ! -f "$f" ]; then
		echo "Bail out! $f is missing: build it with make windows"
		exit 1
	fi
done

# Two vectors, each setting one source; the first has a second step for
# NTPROF_CHILD_FAULT to make misbehave after its set.
cat >"$tmp/sets.vec" <<'EOF'
vector restore-test/sets-time
  title   Sets the ProfileTime interval, then closes a handle
  rules   SI-1
  source  conformance/cli/test_wine_restore.sh
  call    NtSetIntervalProfile Interval=5000 Source=ProfileTime
  expect  STATUS_PRIVILEGE_NOT_HELD on >=6.2
  expect  STATUS_SUCCESS on <6.2
  call    NtClose Handle=invalid
  expect  STATUS_INVALID_HANDLE
vector restore-test/sets-fixup
  title   Sets the ProfileAlignmentFixup interval
  rules   SI-1
  source  conformance/cli/test_wine_restore.sh
  call    NtSetIntervalProfile Interval=50 Source=ProfileAlignmentFixup
  expect  STATUS_PRIVILEGE_NOT_HELD on >=6.2
  expect  STATUS_SUCCESS on <6.2
EOF
state=$tmp/state
winpath() {   # Wine maps / to Z:
	echo "Z:$1"
}

# Writes the state file: the intervals (ProfileTime TIME, ProfileAlignmentFixup
# 777), then the extra lines given.
fresh() {   # TIME EXTRA-LINE...
	printf 'interval 0 %s\ninterval 1 777\n' "$1" >"$state"
	shift
	for line in "$@"; do
		echo "$line" >>"$state"
	done
	grep '^interval ' "$state" >"$tmp/before"
}
# Whether the intervals now are those before the run.
unchanged() {
	grep '^interval ' "$state" | tr -d '\r' | cmp -s - "$tmp/before"
}
# The sets the run made, in order, on one line.
calls() {
	sed -n 's/^set \([0-9]*\) \([0-9]*\) .*/\1:\2/p' "$state" | tr -d '\r' | tr '\n' ' '
}
# Runs ntprof.exe live on the vectors, as Windows 7 (6.1: the sets need no
# privilege, so the vectors match the model), into out and err without the
# CRs of the exe's text mode; live() with the stand-in.
# under CLASS VECTOR TEXT: the text report has VECTOR's line under a heading of
# CLASS, and TEXT on that heading or that line (a cause heading, its vectors
# under it, indented).
under() {
	awk -v cls="$1" -v vec="$2" -v text="$3" '/^[a-z]/ { h = $1; head = $0; next }
		h == cls && index($0, "    " vec " ") == 1 && (index($0, text) || index(head, text)) { found = 1 }
		END { exit !found }' "$tmp/out"
}

run_exe() {
	"$wine" win7 "$exe" live "$tmp/sets.vec" >"$tmp/out.crlf" 2>"$tmp/err.crlf"
	rc=$?
	tr -d '\r' <"$tmp/out.crlf" >"$tmp/out"
	tr -d '\r' <"$tmp/err.crlf" >"$tmp/err"
	return $rc
}
live() {
	NTPROF_NTDLL=$(winpath "$dll") NTPROF_STANDIN_STATE=$(winpath "$state") run_exe
}
# Each vector's set, then its restore; at the end both again.
restored_calls="0:5000 0:10000 1:50 1:777 0:10000 1:777 "

# ---- the switch -------------------------------------------------------------
# (the state file is there: only the switch is missing)
fresh 10000
(unset NTPROF_NTDLL; NTPROF_STANDIN_STATE=$(winpath "$state") run_exe)
rc=$?
if [ $rc -eq 0 ] && unchanged && [ -z "$(calls)" ] &&
	grep -q 'not saved (NtQueryIntervalProfile: not-exported' "$tmp/out" &&
	under skipped restore-test/sets-time "" && ! grep -q 'stand-in' "$tmp/out"; then
	ok "NTPROF_NTDLL unset: Wine's own exports, nothing saved, the setting vectors skipped"
else
	not_ok "NTPROF_NTDLL unset: Wine's own exports, nothing saved, the setting vectors skipped" \
		"exit $rc, calls: $(calls)" "$(show "$tmp/out")" "$(show "$tmp/err")"
fi

NTPROF_NTDLL='Z:/nonexistent/ntdll_standin.dll' NTPROF_STANDIN_STATE=$(winpath "$state") run_exe
rc=$?
if [ $rc -eq 2 ] && grep -q 'NTPROF_NTDLL=Z:/nonexistent/ntdll_standin.dll: the DLL cannot be loaded' \
	"$tmp/err" && ! grep -q '^summary:' "$tmp/out"; then
	ok "NTPROF_NTDLL naming no DLL stops the run with exit 2, naming it"
else
	not_ok "NTPROF_NTDLL naming no DLL stops the run with exit 2, naming it" "exit $rc" \
		"$(show "$tmp/out")" "$(show "$tmp/err")"
fi

# ---- restores that succeed --------------------------------------------------
fresh 10000
live
rc=$?
if [ $rc -eq 0 ] && unchanged && [ "$(calls)" = "$restored_calls" ] &&
	grep -q '^env ntdll stand-in: ' "$tmp/out" &&
	grep -q '^env intervals saved: ProfileTime=10000, ProfileAlignmentFixup=777$' "$tmp/out" &&
	grep -q '^env intervals restored: ProfileTime=10000 2 times, ProfileAlignmentFixup=777 2 times; after 2 vectors and at the end' "$tmp/out" &&
	grep -q '^summary: 2 match' "$tmp/out" && ! grep -q 'left changed' "$tmp/out" "$tmp/err"; then
	ok "a normal run restores each interval after its vector and at the end (exit 0)"
else
	not_ok "a normal run restores each interval after its vector and at the end (exit 0)" \
		"exit $rc, calls: $(calls)" "$(show "$tmp/out")" "$(show "$tmp/err")"
fi

fault_case() {   # WHAT TEXT
	fresh 10000
	NTPROF_CHILD_FAULT="$1@NtClose" NTPROF_STEP_TIMEOUT=2 live
	rc=$?
	if [ $rc -eq 1 ] && unchanged && [ "$(calls)" = "$restored_calls" ] &&
		under crashed restore-test/sets-time "$2"; then
		ok "a vector whose child does '$1' is restored before the next one runs (exit 1)"
	else
		not_ok "a vector whose child does '$1' is restored before the next one runs (exit 1)" \
			"exit $rc, calls: $(calls)" "$(show "$tmp/out")" "$(show "$tmp/err")"
	fi
}
fault_case crash 'unhandled exception 0xC0000005'
fault_case hang 'no record within 2 s'

# ---- Ctrl-C -------------------------------------------------------------------
# The first vector's child hangs after its set; once the set is in the state
# file, SIGINT goes to the exe's process (wine.sh's child running the exe).
interrupt() {   # EXTRA-STATE-LINE...
	fresh 10000 "$@"
	NTPROF_CHILD_FAULT=hang@NtClose NTPROF_STEP_TIMEOUT=30 live &
	bg=$!
	i=0
	# (up to 2 min: a run of test_wine.sh beside this one holds the prefix)
	until grep -q '^set 0 5000 ' "$state" || [ $i -ge 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.5   # the child is in its hang now
	exe_pid=   # $bg is the subshell, its child wine.sh, whose child the exe
	for p in $(ps -o pid= --ppid "$bg" 2>/dev/null); do
		for q in $(ps -o pid= --ppid "$p" 2>/dev/null); do
			ps -o args= -p "$q" | grep -q 'ntprof\.exe live' && exe_pid=$q
		done
	done
	if [ -n "$exe_pid" ]; then
		kill -INT "$exe_pid"
		[ -z "${TWICE:-}" ] || { sleep 0.2; kill -INT "$exe_pid" 2>/dev/null; }
	fi
	wait "$bg"
	rc=$?
}
# Each restore is read back: a get of the value after its set.
verified() {
	tr -d "\r" <"$state" | awk '$1 == "set" { want[$2] = $3 } $1 == "get" && want[$2] == $3 { delete want[$2] }
		END { for (s in want) exit 1 }'
}
TWICE=1 interrupt
if [ -n "$exe_pid" ] && [ $rc -eq 130 ] && unchanged && verified && [ "$(calls)" = "0:5000 0:10000 1:777 " ] &&
	grep -q '^ntprof live: interrupted; intervals restored: ProfileTime=10000 1 times, ProfileAlignmentFixup=777 1 times; after 0 vectors and on Ctrl-C' "$tmp/err" &&
	! grep -q '^summary:' "$tmp/out"; then
	ok "Ctrl-C twice in a vector restores and reads back each interval once, says so and exits 130"
else
	not_ok "Ctrl-C twice in a vector restores and reads back each interval once, says so and exits 130" \
		"exe pid '${exe_pid}', exit $rc, calls: $(calls)" "$(show "$tmp/out")" "$(show "$tmp/err")"
fi

# ---- restores that fail -------------------------------------------------------
# `unchanged` must see these states as changed: its fail twin.
fail_case() {   # TITLE TIME STATE-LINE LEFT-TEXT
	fresh "$2" "$3"
	live
	rc=$?
	left="ProfileTime (saved $2): $4"
	if [ $rc -eq 3 ] && ! unchanged &&
		grep -q "^ntprof live: intervals left changed: $left" "$tmp/err" &&
		grep -q "^env intervals left changed: $left" "$tmp/out" &&
		grep -q '^summary: 1 match, .* 1 skipped, 0 not-required, 0 not-implemented, 0 unanswered, 0 timeout$' "$tmp/out" &&
		grep -q '^env stopped: 1 vectors not run after a restore failed' "$tmp/out" &&
		under skipped restore-test/sets-fixup "the run stopped: a restore failed (ProfileTime"; then
		ok "$1: exit 3, the run stopped there, the source left changed named on stderr and in the report"
	else
		not_ok "$1: exit 3, the run stopped there, the source left changed named on stderr and in the report" \
			"exit $rc, calls: $(calls)" "$(show "$tmp/out")" "$(show "$tmp/err")"
	fi
}
fail_case "a restore the set refuses" 10000 "refuse 10000" \
	'NtSetIntervalProfile: STATUS_ACCESS_DENIED (0xC0000022); the interval reads 5000'
fail_case "a restore the HAL rounds (success, but another value read back)" 12345 "round 1000" \
	'NtSetIntervalProfile returned success, but the interval reads 12000'

interrupt "refuse 10000"
if [ -n "$exe_pid" ] && [ $rc -eq 130 ] && ! unchanged &&
	grep -q '^ntprof live: intervals left changed: ProfileTime (saved 10000): NtSetIntervalProfile: STATUS_ACCESS_DENIED' "$tmp/err"; then
	ok "Ctrl-C whose restore is refused names the source left changed"
else
	not_ok "Ctrl-C whose restore is refused names the source left changed" \
		"exe pid '${exe_pid}', exit $rc, calls: $(calls)" "$(show "$tmp/out")" "$(show "$tmp/err")"
fi


# ---- the ETW time-profile interval (TR-4) -----------------------------------
# The stand-in keeps it apart from ProfileTime (K-ETW-TIME=separate): put back
# through NtSetIntervalProfile it would stay changed. As Windows 10 (the class
# 5 calls need 6.2 on, TR-1).
cat >"$tmp/etw.vec" <<'VEC'
vector restore-test/sets-etw
  title   Sets the ETW time-profile interval through TraceSetInformation class 5
  rules   TR-4
  source  conformance/cli/test_wine_restore.sh
  applies >=6.2
  given   privilege=on
  call    TraceSetInformation Source=ProfileTime Interval=5000
  expect  ERROR_SUCCESS
VEC
printf 'interval 0 10000\netw 20000\n' >"$state"
NTPROF_NTDLL=$(winpath "$dll") NTPROF_STANDIN_STATE=$(winpath "$state") \
	"$wine" win10 "$exe" live "$tmp/etw.vec" >"$tmp/out.crlf" 2>"$tmp/err.crlf"
rc=$?
tr -d '\r' <"$tmp/out.crlf" >"$tmp/out"
etw_log=$(sed -n 's/^etw\(set\|get\) \([0-9]*\).*/\1:\2/p' "$state" | tr -d '\r' | tr '\n' ' ')
if [ $rc -eq 0 ] && grep -q '^etw 20000' "$state" && grep -q '^interval 0 10000' "$state" &&
	[ -z "$(calls)" ] &&
	[ "$etw_log" = "get:20000 set:5000 set:20000 get:20000 set:20000 get:20000 " ] &&
	grep -q '^env intervals saved: ETW time-profile=20000$' "$tmp/out" &&
	grep -q '^env intervals restored: ETW time-profile=20000 2 times' "$tmp/out"; then
	ok "an ETW-interval vector is restored through TraceSetInformation class 5 and read back"
else
	not_ok "an ETW-interval vector is restored through TraceSetInformation class 5 and read back" \
		"exit $rc, etw calls: $etw_log, interval calls: $(calls)" "$(show "$tmp/out")" "$(show "$state")"
fi

# ---- what is not run live ------------------------------------------------------
# As Windows 7 (6.1): a started profile of source 0x10000 (kept in 16 bits,
# K-SRC16), a class 0x81 allocation, a model-only vector.
cat >"$tmp/unsafe.vec" <<'VEC'
vector restore-test/src16
  title   Starts a profile of source 0x10000 on 6.1
  rules   IN-2
  source  conformance/cli/test_wine_restore.sh
  applies 6.1
  call    NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x100 BucketSize=4 Buffer=>b BufferSize=64 Source=0x10000
  expect  STATUS_SUCCESS ProfileHandle=h
  call    NtStartProfile ProfileHandle=h
  expect  STATUS_SUCCESS
  call    NtStopProfile ProfileHandle=h
  expect  STATUS_SUCCESS
vector restore-test/ppca-alloc
  title   Asks for a control area from user mode
  rules   SY-7
  source  conformance/cli/test_wine_restore.sh
  call    NtSetSystemInformation InformationClass=0x81 Allocate=1
  expect  STATUS_ACCESS_DENIED on >=6.2
  expect  STATUS_INVALID_INFO_CLASS on <6.2
vector restore-test/model-only
  title   A model-only vector
  rules   SI-1
  flags   model-only
  source  conformance/cli/test_wine_restore.sh
  call    NtClose Handle=invalid
  expect  STATUS_INVALID_HANDLE
VEC
unsafe() {   # OPTION...
	fresh 10000
	NTPROF_NTDLL=$(winpath "$dll") NTPROF_STANDIN_STATE=$(winpath "$state") \
		"$wine" "${MODE:-win7}" "$exe" live --verbose "$@" "$tmp/unsafe.vec" >"$tmp/out.crlf" 2>"$tmp/err.crlf"
	rc=$?
	tr -d '\r' <"$tmp/out.crlf" >"$tmp/out"
}
unsafe
if [ $rc -eq 0 ] &&
	grep -q '^skipped *restore-test/src16 .*starts a profile of source 0x10000, kept in 16 bits.*--allow-hazard runs it anyway' "$tmp/out" &&
	grep -q '^skipped *restore-test/ppca-alloc .*class 0x81 control area (Allocate=1).*nothing would free it; --allow-hazard runs it anyway' "$tmp/out" &&
	grep -q '^not-required *restore-test/model-only .*(model-only vector)' "$tmp/out" &&
	grep -q '^summary: 0 match.* 2 skipped, 1 not-required' "$tmp/out"; then
	ok "a 16-bit-narrowed profile and a class 0x81 allocation are skipped as hazardous, a model-only vector not required"
else
	not_ok "a 16-bit-narrowed profile and a class 0x81 allocation are skipped as hazardous, a model-only vector not required" \
		"exit $rc" "$(show "$tmp/out")"
fi
# the fail twin: --allow-hazard runs the first two
unsafe --allow-hazard
if grep -q '^not-required *restore-test/model-only' "$tmp/out" && ! grep -q '^skipped *restore-test/src16' "$tmp/out" &&
	! grep -q '^skipped *restore-test/ppca-alloc' "$tmp/out"; then
	ok "--allow-hazard runs them (the model-only vector stays not required)"
else
	not_ok "--allow-hazard runs them (the model-only vector stays not required)" "exit $rc" "$(show "$tmp/out")"
fi
# A build newer than the version table (NTPROF_PROBE_BUILD, as Windows 10): the
# model may misjudge it, so --allow-hazard does not apply and the report says
# so; the twin above is the same run on a known build.
NTPROF_PROBE_BUILD=99999 MODE=win10 unsafe --allow-hazard
if grep -q '^env newer build: ' "$tmp/out" &&
	grep -q '^skipped *restore-test/ppca-alloc .*(newer build, --allow-hazard does not apply: hazardous: .*class 0x81 control area (Allocate=1)' "$tmp/out"; then
	ok "on a build newer than the table --allow-hazard does not apply, and the report says so"
else
	not_ok "on a build newer than the table --allow-hazard does not apply, and the report says so" \
		"exit $rc" "$(show "$tmp/out")"
fi
[ "$failed" -eq 0 ]
