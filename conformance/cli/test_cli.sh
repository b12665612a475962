#!/bin/sh
# SPDX-License-Identifier: MIT
# The ntprof command line: the `ntprof call` line format, `versions`,
# `explain`, and the exit statuses (0 all well, 1 a difference, 2 bad input)
# with a message that names the bad argument or file:line.
#
# Environment: NTPROF_BIN (the ntprof to test), NTPROF_SOURCE_ROOT (the
# repository). Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

failure_detail() {   # the command and its output, after a failure
	echo "#   command: $cmd"
	echo "#   exit status: $rc"
	sed 's/^/#   stdout: /' "$tmp/out"
	sed 's/^/#   stderr: /' "$tmp/err"
}

# nt ARGS...: runs ntprof; $rc, files $tmp/out and $tmp/err.
nt() {
	cmd="ntprof $*"
	"$NTPROF_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# want_out DESCRIPTION EXPECTED-STDOUT ARGS...: exit 0, exactly that stdout, no stderr.
want_out() {
	desc=$1 want=$2
	shift 2
	nt "$@"
	printf '%s\n' "$want" >"$tmp/want"
	if [ "$rc" -ne 0 ]; then
		not_ok "$desc" "want exit status 0"
	elif ! cmp -s "$tmp/want" "$tmp/out"; then
		not_ok "$desc" "want stdout: $want"
	elif [ -s "$tmp/err" ]; then
		not_ok "$desc" "want nothing on stderr"
	else
		ok "$desc"
	fi
}

# want_error DESCRIPTION STATUS FRAGMENT ARGS...: that exit status, FRAGMENT on stderr.
want_error() {
	desc=$1 status=$2 fragment=$3
	shift 3
	nt "$@"
	if [ "$rc" -ne "$status" ]; then
		not_ok "$desc" "want exit status $status"
	elif ! grep -F -q -e "$fragment" "$tmp/err"; then
		not_ok "$desc" "want on stderr: $fragment"
	else
		ok "$desc"
	fi
}

vec() { # vec FILE: writes a vector file from stdin
	cat >"$1"
}

# ---- ntprof call ----

want_out "call: query prints the canonical line" \
	'NtQueryIntervalProfile -> STATUS_SUCCESS (0x00000000) Interval=39063' \
	call 'NtQueryIntervalProfile Source=ProfileTime'

want_out "call: set without the privilege on 6.2 is refused" \
	'NtSetIntervalProfile -> STATUS_PRIVILEGE_NOT_HELD (0xC0000061)' \
	call --target 6.2 --given privilege=off 'NtSetIntervalProfile Interval=10000 Source=ProfileTime'

want_out "call: the same set on 6.1 succeeds" \
	'NtSetIntervalProfile -> STATUS_SUCCESS (0x00000000)' \
	call --target 6.1 --given privilege=off 'NtSetIntervalProfile Interval=10000 Source=ProfileTime'

want_out "call: Trace* results are Win32 codes in decimal" \
	'TraceSetInformation -> ERROR_BAD_LENGTH (24)' \
	call 'TraceSetInformation Source=ProfileTime Interval=5000 InformationLength=7'

want_out "call: Trace* success" \
	'TraceSetInformation -> ERROR_SUCCESS (0)' \
	call --given privilege=on 'TraceSetInformation Source=ProfileTime Interval=5000'

want_out "call: Trace* before 6.1 is not exported" \
	'TraceSetInformation -> not-exported' \
	call --target 6.0 'TraceSetInformation Source=ProfileTime Interval=5000'

# rules: SI-6
want_out "call: steps share one machine, one line each" \
	'NtSetIntervalProfile -> STATUS_SUCCESS (0x00000000)
ZwQueryIntervalProfile -> STATUS_SUCCESS (0x00000000) Interval=5000
ReadEvents -> Events=0x0F48:0:39063:5000' \
	call --given privilege=on --given tracing=on 'NtSetIntervalProfile Interval=5000' \
	'ZwQueryIntervalProfile ProfileSource=ProfileTime' ReadEvents

want_out "call: without --target, the newest version (x64)" \
	'NtSetIntervalProfile -> STATUS_PRIVILEGE_NOT_HELD (0xC0000061)
TraceQueryInformation -> ERROR_SUCCESS (0) Interval=39063 ReturnLength=8' \
	call --given privilege=off 'NtSetIntervalProfile Interval=1' TraceQueryInformation

# Emon exists on 64-bit 6.1 but not on x86 6.1 (KS-3): VERSION alone means x64
want_out "call: --target VERSION means x64 where it exists" \
	'NtQueryIntervalProfile -> STATUS_SUCCESS (0x00000000) Interval=65536' \
	call --target 6.1 --given hal=emon 'NtQueryIntervalProfile Source=ProfileTotalIssues'

want_out "call: an unwritten out-value is -" \
	'NtQueryIntervalProfile -> STATUS_ACCESS_VIOLATION (0xC0000005) Interval=-' \
	call --target 1809/wow64 'NtQueryIntervalProfile Interval=null'

# rules: QI-0
want_out "call: a not-applicable step says why" \
	'NtQueryIntervalProfile -> not-applicable (3.10 and 3.50 have no ProfileSource argument; only ProfileTime can be meant (SI-0, QI-0)) Interval=-' \
	call --target 3.10 'NtQueryIntervalProfile Source=ProfileAlignmentFixup'

# ---- ntprof call: profile objects ----

# rules: CP-5
want_out "call: the pre-4.0sp4 divide by zero is a kernel fault (CP-5)" \
	'NtCreateProfile -> fault STATUS_INTEGER_DIVIDE_BY_ZERO (0xC0000094) ProfileHandle=-' \
	call --target 4.0/x86 'NtCreateProfile Process=current ProfileBase=0x100 ProfileSize=0x1000 BucketSize=0 BufferSize=2'

# rules: CP-4
want_out "call: the same request from 4.0sp4 is INVALID_PARAMETER_7 (CP-4)" \
	'NtCreateProfile -> STATUS_INVALID_PARAMETER_7 (0xC00000F5) ProfileHandle=-' \
	call --target 4.0sp4/x86 'NtCreateProfile Process=current ProfileBase=0x100 ProfileSize=0x1000 BucketSize=0 BufferSize=2'

want_out "call: captures carry a handle and a buffer through create, start, interrupts, stop and read" \
	'NtCreateProfile -> STATUS_SUCCESS (0x00000000) ProfileHandle=h
NtStartProfile -> STATUS_SUCCESS (0x00000000)
Interrupt -> Counted=1
Interrupt -> Counted=1
Interrupt -> Counted=0
NtStopProfile -> STATUS_SUCCESS (0x00000000)
ReadBuffer -> Buffer=0,2,0*14' \
	call --target 1809/x64 'NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x100 BucketSize=4 Buffer=>b BufferSize=64' \
	'NtStartProfile ProfileHandle=h' 'Interrupt Pc=0x10000010' 'Interrupt Pc=0x1000001F' 'Interrupt Pc=0x10000100' \
	'NtStopProfile ProfileHandle=h' 'ReadBuffer Buffer=b'

# rules: IN-4 IN-7
want_out "call: an increment past the mapped pages is a bug check, and the machine stays stopped (IN-4, IN-7)" \
	'NtCreateProfile -> STATUS_SUCCESS (0x00000000) ProfileHandle=h
NtStartProfile -> STATUS_SUCCESS (0x00000000)
Interrupt -> bugcheck IRQL_NOT_LESS_OR_EQUAL (0x0000000A)
NtStopProfile -> bugcheck IRQL_NOT_LESS_OR_EQUAL (0x0000000A)' \
	call --target 1803/x64 'NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x1000 BucketSize=2 BufferSize=0x1000' \
	'NtStartProfile ProfileHandle=h' 'Interrupt Pc=0x10001000' 'NtStopProfile ProfileHandle=h'

# found by conformance/fuzz/fuzz_model.c: ntprof aborted when the step that
# captures a buffer could not make it (its create was not applicable)
want_out "call: a captured buffer that was never made is not applicable, not a crash" \
	'NtCreateProfile -> not-applicable (the buffer does not fit in the caller'"'"'s address space)
ReadBuffer -> not-applicable (no such buffer: the step that captures it did not make it)' \
	call --target 1803/wow64 'NtCreateProfile ProfileHandle=user Process=other ProfileBase=0x3f ProfileSize=0x87347029 BucketSize=31 Buffer=>b BufferSize=0xF7B9690B' \
	'ReadBuffer Buffer=b'

# found by conformance/fuzz/fuzz_model.c: an input written into a buffer larger
# than 1 MiB (kept in pages) went through a null pointer (segmentation fault)
want_out "call: an input inside a large captured buffer is written as into a small one" \
	'NtCreateProfile -> STATUS_SUCCESS (0x00000000) ProfileHandle=h
NtSetSystemInformation -> STATUS_INVALID_INFO_CLASS (0xC0000003) ProcessorProfileControlArea=0x0' \
	call --target 4.0/x86 'NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000 ProfileSize=0x1000 BucketSize=2 Buffer=>c BufferSize=0x200000' \
	'NtSetSystemInformation SystemInformation=0x140000 SystemInformationLength=8'

want_error "call: a name no earlier step captured is bad input" 2 \
	"step 1 (NtStartProfile ProfileHandle=h): no earlier step captures that name" \
	call 'NtStartProfile ProfileHandle=h'

# ---- ntprof versions ----

nt versions
keys=$(awk '{ print $1 }' "$tmp/out" | tr '\n' ' ')
want_keys='3.10 3.50 3.51 4.0 4.0sp4 5.0 5.1 5.2 5.2sp1 6.0 6.1 6.2 6.3 1507 1511 1607 1703 1709 1803 1809 1903 1909 2004 20H2 21H1 21H2 22H2 srv2022 11-21H2 11-22H2 11-23H2 11-24H2 11-25H2 '
if [ "$rc" -ne 0 ]; then
	not_ok "versions: exit 0" "want exit status 0"
elif [ "$(wc -l <"$tmp/out")" -ne 33 ]; then
	not_ok "versions: 33 keys" "want 33 lines"
elif [ "$keys" != "$want_keys" ]; then
	not_ok "versions: 33 keys" "want keys in order: $want_keys"
elif ! grep -q '^1809 .* 10\.0\.17763 .*x86 x64 wow64$' "$tmp/out" ||
	! grep -q '^4\.0sp4 .* 4\.0\.1381\.133 .*x86 $' "$tmp/out" ||
	! grep -q '^11-24H2 .* 10\.0\.26100 *srv2025 .* x64 wow64$' "$tmp/out" ||
	! grep -q '^srv2022 .* 10\.0\.20348 .* x64 wow64$' "$tmp/out" ||
	! grep -q '^11-25H2 .* 10\.0\.26200 .* x64 wow64$' "$tmp/out"; then
	not_ok "versions: 33 keys" "want builds and architectures of 1809, 4.0sp4, srv2022, 11-24H2 (srv2025) and 11-25H2"
else
	ok "versions: 33 keys in build order, with builds, everyday names and architectures"
fi

# ---- ntprof syscalls ----

want_out "syscalls: NtCreateProfile on 1809/x64 (j00ru)" \
	'NtCreateProfile          1809/x64      0x00B5  (10 1809)' \
	syscalls --target 1809/x64 NtCreateProfile
want_out "syscalls: NtCreateProfile on 1809/x86 (j00ru)" \
	'NtCreateProfile          1809/x86      0x0167  (10 1809)' \
	syscalls --target 1809/x86 NtCreateProfile
want_out "syscalls: NtCreateProfile on 11-25H2/x64 (j00ru)" \
	'NtCreateProfile          11-25H2/x64   0x00C2  (11 25H2)' \
	syscalls --target 11-25H2/x64 NtCreateProfile
# twin: another version, another number
want_out "syscalls: NtCreateProfile on 1703/x64 differs from 1809's" \
	'NtCreateProfile          1703/x64      0x00B3  (10 1703)' \
	syscalls --target 1703/x64 NtCreateProfile
want_out "syscalls: a version alone is every architecture; WOW64 has x64's numbers; srv2025 is 11-24H2" \
	'NtStartProfile           11-24H2/x64   0x01CA  (11 24H2, Server 2025)
NtStartProfile           11-24H2/wow64 0x01CA  (11 24H2, Server 2025)' \
	syscalls --target srv2025 NtStartProfile
want_out "syscalls: a line per number where a service pack changes it; none; unknown" \
	'NtSetIntervalProfile     6.0/x86       0x0138  (Vista SP0)
NtSetIntervalProfile     6.0/x86       0x0134  (Vista SP1, Vista SP2)
NtSetIntervalProfile     3.10/x86      unknown
NtCreateProfileEx        6.0/x86       none    (Vista SP0, Vista SP1, Vista SP2)
NtCreateProfileEx        3.10/x86      unknown' \
	syscalls --target 6.0/x86,3.10 NtSetIntervalProfile NtCreateProfileEx
nt syscalls
if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ] ||
	[ "$(wc -l <"$tmp/out")" -ne 632 ] ||
	[ "$(awk '{ print $1 }' "$tmp/out" | uniq | tr '\n' ' ')" != 'NtCreateProfile NtCreateProfileEx NtStartProfile NtStopProfile NtSetIntervalProfile NtQueryIntervalProfile NtSetSystemInformation NtQuerySystemInformation ' ]; then
	not_ok "syscalls: every function on every target" "want 632 lines (8 functions x 77 targets, and 16 more for 6.0's service packs), function by function"
else
	ok "syscalls: every function on every target"
fi
want_error "syscalls: an unknown function" 2 \
	'ntprof: syscalls: unknown function NtCreateProfil (did you mean NtCreateProfile?)' \
	syscalls NtCreateProfil
want_error "syscalls: a function far from every name lists them" 2 \
	'unknown function Frobnicate (one of: NtCreateProfile, NtCreateProfileEx,' \
	syscalls Frobnicate
want_error "syscalls: an unknown version" 2 '--target 18O9/x64: unknown version (see `ntprof versions`) (did you mean 1809?)' \
	syscalls --target 18O9/x64 NtCreateProfile
want_error "syscalls: no x86 Server 2022" 2 '--target srv2022/x86: that architecture does not exist' \
	syscalls --target srv2022/x86
want_error "syscalls: --target without a value" 2 '--target needs VERSION[/ARCH][,...]' \
	syscalls --target

# ---- ntprof explain ----

nt explain --root "$root" SI-1
if [ "$rc" -ne 0 ]; then
	not_ok "explain SI-1" "want exit status 0"
elif [ "$(head -n 1 "$tmp/out")" != '### SI-1 — Privilege from 6.2' ]; then
	not_ok "explain SI-1" "want the rule heading first"
elif ! grep -q 'STATUS_PRIVILEGE_NOT_HELD' "$tmp/out"; then
	not_ok "explain SI-1" "want the rule text"
elif ! grep -q '^SPEC\.md:[0-9][0-9]*$' "$tmp/out" ||
	! grep -q '^implemented:$' "$tmp/out" || ! grep -q '^vectors:$' "$tmp/out" ||
	! grep -q '^tests:$' "$tmp/out"; then
	not_ok "explain SI-1" "want SPEC.md:LINE and the sections implemented:, vectors:, tests:"
elif ! awk '/^implemented:$/ { s = 1; next } /^vectors:$/ { s = 2; next } /^tests:$/ { s = 3; next }
	s == 1 && /^  model\/[^ ]*\.[ch]:[0-9]+$/ { m++ }
	s == 2 && /^  set-interval\/privilege-threshold \(.*fixtures\/interval\/set-interval\.vec:[0-9]+\)$/ { v++ }
	s == 3 && /^  conformance\/[^ ]*:[0-9]+$/ { t++ }
	END { exit !(m && v && t) }' "$tmp/out"; then
	not_ok "explain SI-1" "want a model/ citation, the privilege-threshold vector and a conformance/ test"
else
	ok "explain SI-1: rule text, implemented:, vectors:, tests:"
fi

want_error "explain: a rule SPEC.md lacks" 2 'explain NOPE-1: SPEC.md has no such rule' \
	explain --root "$root" NOPE-1
want_error "explain: no rule and no --check" 2 'explain needs a RULE' explain --root "$root"
want_error "explain: a directory that is no root" 2 'cannot find SPEC.md and fixtures/' \
	explain --root "$tmp" SI-1

# ---- bad input: exit status 2 and a message naming it ----

want_error "no command" 2 'usage: ntprof run'
want_error "unknown subcommand" 2 'unknown command frobnicate' frobnicate
want_error "run: unknown option" 2 'run: unknown option --bogus' run --bogus
want_error "call: unknown option" 2 'call: unknown option --bogus' call --bogus 'NtQueryIntervalProfile'
want_error "call: unknown version" 2 '--target 9.9: unknown version' call --target 9.9 'NtQueryIntervalProfile'
want_error "run: unknown version" 2 '--target 9.9: unknown version' run --target 9.9 "$root/fixtures"
# 257 FILE|DIR arguments: the 257th is refused by name, not quietly left out
# shellcheck disable=SC2046 # one word per argument
want_error "run: too many paths" 2 'run: 257: too many FILE|DIR arguments (at most 256)' \
	run $(seq 1 257)
# shellcheck disable=SC2046
want_error "matrix: too many paths" 2 'matrix: 257: too many FILE|DIR arguments' matrix $(seq 1 257)
# shellcheck disable=SC2046
want_error "diff: too many paths" 2 'diff: 257: too many FILE|DIR arguments' diff 6.1 6.2 $(seq 1 257)
want_error "call: no x86 Windows 11" 2 '--target 11-24H2/x86: that architecture does not exist' \
	call --target 11-24H2/x86 'NtQueryIntervalProfile'
want_error "run: no x86 Windows 11" 2 '--target 11-24H2/x86: that architecture does not exist' \
	run --target 11-24H2/x86 "$root/fixtures"
want_error "call: --target needs a value" 2 '--target needs VERSION[/ARCH]' call --target
want_error "call: bad given value" 2 '--given privilege=maybe: privilege takes on or off' \
	call --given privilege=maybe 'NtQueryIntervalProfile'
want_error "call: unknown given key" 2 '--given colour=red: unknown given key' \
	call --given colour=red 'NtQueryIntervalProfile'
want_error "call: a state the target cannot take" 2 'that state cannot exist on 5.1/x86' \
	call --target 5.1 --given hal=emon 'NtQueryIntervalProfile'
want_error "call: --target VERSION/x86" 2 'that state cannot exist on 6.1/x86' \
	call --target 6.1/x86 --given hal=emon 'NtQueryIntervalProfile'
want_error "call: malformed step" 2 'step 1 (NtSetIntervalProfile Interval=abc): expected a 32-bit number' \
	call 'NtSetIntervalProfile Interval=abc'
want_error "call: unknown function in the second step" 2 'step 2 (NtFrobnicate): unknown function' \
	call 'NtQueryIntervalProfile' 'NtFrobnicate'
want_error "call: no step" 2 'call needs at least one STEP' call --target 6.2
want_error "run: --format xml" 2 '--format takes text|tap|junit|json' run --format xml "$root/fixtures"
want_error "run: unknown backend" 2 '--backend wine: unknown backend' run --backend wine "$root/fixtures"
want_error "run: a file that does not exist" 2 "$tmp/absent.vec: cannot open: No such file or directory" run "$tmp/absent.vec"

vec "$tmp/bad.vec" <<'EOF'
vector cli/bad
  title   t
  rules   QI-5
  source  s
  call    NtQueryIntervalProfile Source=NoSuchSource
  expect  STATUS_SUCCESS
EOF
nt run "$tmp/bad.vec"
first=$(head -n 1 "$tmp/err")
if [ "$rc" -ne 2 ]; then
	not_ok "run: malformed vector file" "want exit status 2"
else
	case $first in
	"$tmp/bad.vec:5: expected a KPROFILE_SOURCE name"*) ok "run: malformed vector file names file:line" ;;
	*) not_ok "run: malformed vector file" "want stderr to start with $tmp/bad.vec:5: " ;;
	esac
fi
if [ -s "$tmp/out" ]; then
	not_ok "run: malformed vector file prints no report" "want nothing on stdout"
else
	ok "run: malformed vector file prints no report"
fi

vec "$tmp/dup1.vec" <<'EOF'
vector cli/dup
  title   t
  rules   QI-5
  source  s
  call    NtQueryIntervalProfile
  expect  STATUS_SUCCESS
EOF
cp "$tmp/dup1.vec" "$tmp/dup2.vec"
want_error "run: one vector ID in two files" 2 "$tmp/dup2.vec:1: duplicate vector ID cli/dup (first at $tmp/dup1.vec:1)" \
	run "$tmp/dup1.vec" "$tmp/dup2.vec"

# --output with bad input leaves nothing behind, not even its temporary file
mkdir "$tmp/outdir"
nt run --output "$tmp/outdir/out.json" --format json "$tmp/bad.vec"
if [ "$rc" -ne 2 ]; then
	not_ok "run --output: malformed input" "want exit status 2"
elif [ -n "$(ls -A "$tmp/outdir")" ]; then
	not_ok "run --output: malformed input" "want an empty directory, have: $(ls -A "$tmp/outdir" | tr '\n' ' ')"
else
	ok "run --output: malformed input writes no out.json and no *.tmp.*"
fi

want_error "run --output: a directory that does not exist" 2 "--output $tmp/none/out.json: cannot write" \
	run --output "$tmp/none/out.json" "$tmp/dup1.vec"

# ---- good and mismatching runs ----

nt run --output "$tmp/outdir/good.json" --format json --root "$root"
if [ "$rc" -ne 0 ]; then
	not_ok "run --output F --format json on the fixtures" "want exit status 0"
elif [ "$(ls -A "$tmp/outdir")" != good.json ]; then
	not_ok "run --output F --format json on the fixtures" "want good.json only, have: $(ls -A "$tmp/outdir" | tr '\n' ' ')"
elif [ -s "$tmp/out" ]; then
	not_ok "run --output F --format json on the fixtures" "want nothing on stdout"
elif ! head -n 1 "$tmp/outdir/good.json" | grep -q '^{"tool":"ntprof",' ||
	! grep -q '"status-mismatch":0,"output-mismatch":0,' "$tmp/outdir/good.json"; then
	not_ok "run --output F --format json on the fixtures" "want a JSON report without mismatches in F"
else
	ok "run --output F --format json on the fixtures writes F, exit 0"
fi

want_out "run: a good file" \
	"ntprof run: backend model, 1 vectors, 1 targets, 1 results; grouped by cause: function, rule and outcome, its vectors under it (--verbose: a line per target)
summary: 1 match, 0 match-alternative, 0 known, 0 status-mismatch, 0 output-mismatch, 0 not-exported, 0 stub, 0 crashed, 0 not-applicable, 0 skipped" \
	run --target 6.2/x64 "$tmp/dup1.vec"

vec "$tmp/mismatch.vec" <<'EOF'
vector cli/mismatch
  title   t
  rules   SI-1
  source  s
  applies >=6.2
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_SUCCESS
EOF
nt run --target 6.2/x64 --target 1809 "$tmp/mismatch.vec"
if [ "$rc" -ne 1 ]; then
	not_ok "run: a mismatching vector" "want exit status 1"
elif ! grep -q -x -F "status-mismatch   NtSetIntervalProfile: expected STATUS_SUCCESS (0x00000000), got STATUS_PRIVILEGE_NOT_HELD (0xC0000061) <model: decided by SI-1> (1 vector, 4 results)" "$tmp/out" ||
	! grep -q -x -F "    cli/mismatch on 1809/x86, 6.2..1809/x64, 1809/wow64 [SI-1] $tmp/mismatch.vec:6 step 1" "$tmp/out"; then
	not_ok "run: a mismatching vector" "want the status-mismatch heading and the vector's line with file:line"
elif ! grep -q -x 'summary: 0 match, 0 match-alternative, 0 known, 4 status-mismatch, 0 output-mismatch, 0 not-exported, 0 stub, 0 crashed, 0 not-applicable, 0 skipped' "$tmp/out"; then
	not_ok "run: a mismatching vector" "want 4 status mismatches in the summary"
else
	ok "run: a mismatching vector exits 1 and reports it"
fi

# A mismatch names its cause: the vector's hex is printed as the record
# prints numbers (decimal), the model's deciding rule follows on the
# heading, and the unknown the expectation rests on on the vector's line
# under it (with --verbose, both on the row's line); the twin without the
# flag names no unknown.
cat >"$tmp/cause.vec" <<'EOF'
vector cli/cause
  title   a set interval read back
  rules   QI-5 HL-4
  given   privilege=on
  flags   unknown:K-HAL-CLAMP
  source  test_cli.sh
  call    NtSetIntervalProfile Interval=78125
  expect  STATUS_SUCCESS
  call    NtQueryIntervalProfile
  expect  STATUS_SUCCESS Interval=0x9897
EOF
nt run --target 6.2/x64 "$tmp/cause.vec"
sed '/^  flags/d' "$tmp/cause.vec" >"$tmp/cause-noflag.vec"
"$NTPROF_BIN" run --target 6.2/x64 "$tmp/cause-noflag.vec" >"$tmp/out2" 2>&1
"$NTPROF_BIN" run --verbose --target 6.2/x64 "$tmp/cause.vec" >"$tmp/out3" 2>&1
if [ "$rc" -ne 1 ] || ! grep -A1 -F "expected STATUS_SUCCESS (0x00000000) Interval=39063, got STATUS_SUCCESS (0x00000000) Interval=78125 <model: decided by QI-3> (1 vector, 1 result)" "$tmp/out" |
	grep -q -x -F "    cli/cause on 6.2/x64 [QI-5,HL-4] $tmp/cause.vec:9 step 2 <rests on unknown:K-HAL-CLAMP>" ||
	! grep -q -F "Interval=78125 <model: decided by QI-3> <rests on unknown:K-HAL-CLAMP>" "$tmp/out3"; then
	not_ok "run: a mismatch names the model's rule and the unknown it rests on, in one spelling" "$(cat "$tmp/out")"
elif grep -q 'rests on' "$tmp/out2" || ! grep -q -F 'Interval=78125 <model: decided by QI-3>' "$tmp/out2"; then
	not_ok "run: without the flag, a mismatch names no unknown" "$(cat "$tmp/out2")"
else
	ok "run: a mismatch names the model's rule and the unknown it rests on, in one spelling"
fi

# An address reads in hex on both sides, whichever way the vector wrote it
# (here in decimal); no decimal spelling of either value is left.
cat >"$tmp/address.vec" <<'EOF'
vector cli/address
  title   a control area at another address
  rules   SY-8 SY-9
  source  test_cli.sh
  applies >=6.2 arch=x86
  given   mode=kernel
  call    NtSetSystemInformation SystemInformationLength=8
  expect  STATUS_SUCCESS ProcessorProfileControlArea=2317352960
EOF
nt run --target 6.2/x86 "$tmp/address.vec"
if [ "$rc" -ne 1 ] || ! grep -q -F "expected STATUS_SUCCESS (0x00000000) ProcessorProfileControlArea=0x8A200000, got STATUS_SUCCESS (0x00000000) ProcessorProfileControlArea=0x8A100000" "$tmp/out" ||
	grep -q '2317352960\|2316304384' "$tmp/out"; then
	not_ok "run: an address is printed in hex on both sides" "$(cat "$tmp/out")"
else
	ok "run: an address is printed in hex on both sides"
fi

nt run --format tap --target 6.2/x64 "$tmp/mismatch.vec"
if [ "$rc" -ne 1 ] || [ "$(sed -n 2p "$tmp/out")" != '1..1' ] ||
	[ "$(sed -n 3p "$tmp/out")" != 'not ok 1 - cli/mismatch on 6.2/x64 # status-mismatch' ]; then
	not_ok "run --format tap: a mismatching vector" "want exit 1, 1..1 and a not ok line"
else
	ok "run --format tap: a mismatching vector"
fi

# a mismatch also written with --output: the report is complete, the status still 1
nt run --output "$tmp/outdir/mismatch.txt" --target 6.2/x64 "$tmp/mismatch.vec"
if [ "$rc" -ne 1 ] || ! grep -q '^    cli/mismatch on 6.2/x64 ' "$tmp/outdir/mismatch.txt"; then
	not_ok "run --output: a mismatching vector" "want exit 1 and the mismatch in the file"
else
	ok "run --output: a mismatching vector"
fi

# ---- known-divergence files (fixtures/known/README.md) ----

priv='STATUS_PRIVILEGE_NOT_HELD (0xC0000061)'
cat >"$tmp/good.known" <<EOF
# the privilege check from 6.2 on makes cli/mismatch fail everywhere it runs
cli/mismatch  status-mismatch  step 1: $priv  # the vector expects success on purpose
EOF
nt run --known "$tmp/good.known" --target 6.2/x64 --target 1809 "$tmp/mismatch.vec" "$tmp/dup1.vec"
if [ "$rc" -ne 0 ]; then
	not_ok "run --known: every failure listed" "want exit status 0"
elif ! grep -A1 -x -F "known             NtSetIntervalProfile: expected STATUS_SUCCESS (0x00000000), got $priv <model: decided by SI-1> (1 vector, 4 results)" "$tmp/out" |
	grep -q -x -F "    cli/mismatch on 1809/x86, 6.2..1809/x64, 1809/wow64 [SI-1] $tmp/mismatch.vec:6 step 1 {status-mismatch, listed at $tmp/good.known:2}"; then
	not_ok "run --known: every failure listed" "want a known line naming $tmp/good.known:2"
elif ! grep -q -x "known divergences $tmp/good.known: 1 entries, 4 rows known, 0 unlisted, 0 stale, 0 not run" "$tmp/out" ||
	! grep -q -x 'summary: 4 match, 0 match-alternative, 4 known, 0 status-mismatch, 0 output-mismatch, 0 not-exported, 0 stub, 0 crashed, 0 not-applicable, 0 skipped' "$tmp/out"; then
	not_ok "run --known: every failure listed" "want the known-divergence counts and 4 known in the summary"
else
	ok "run --known: listed failures are known, exit 0"
fi

nt run --known "$tmp/good.known" --format json --target 6.2/x64 "$tmp/mismatch.vec"
if [ "$rc" -ne 0 ] || ! grep -q -F '"class":"known","observed":"status-mismatch",' "$tmp/out" ||
	! grep -q -F "\"listed\":{\"file\":\"$tmp/good.known\",\"line\":2}" "$tmp/out" ||
	! grep -q -F '"entries":1,"known":1,"unlisted":0,"stale":0,"not-run":0,"stale-entries":[]' "$tmp/out"; then
	not_ok "run --known --format json" "want class known, observed, listed and the known counts"
else
	ok "run --known --format json: class known, observed class, listed FILE:LINE"
fi

nt run --known "$tmp/good.known" --format tap --target 6.2/x64 "$tmp/mismatch.vec"
if [ "$rc" -ne 0 ] || [ "$(sed -n 3p "$tmp/out")" != "not ok 1 - cli/mismatch on 6.2/x64 # TODO known status-mismatch ($tmp/good.known:2)" ]; then
	not_ok "run --known --format tap" "want exit 0 and a not ok ... # TODO line"
else
	ok "run --known --format tap: a known divergence is an expected failure (# TODO)"
fi

# unlisted: a second vector fails, and the file does not list it
vec "$tmp/query.vec" <<'EOF'
vector cli/query
  title   t
  rules   QI-5
  source  s
  call    NtQueryIntervalProfile
  expect  STATUS_SUCCESS Interval=1221
EOF
nt run --known "$tmp/good.known" --target 6.2/x64 "$tmp/mismatch.vec" "$tmp/query.vec"
if [ "$rc" -ne 1 ]; then
	not_ok "run --known: an unlisted failure" "want exit status 1"
elif ! grep -A1 -x -F "output-mismatch   NtQueryIntervalProfile: expected STATUS_SUCCESS (0x00000000) Interval=1221, got STATUS_SUCCESS (0x00000000) Interval=39063 <model: decided by QI-3> (1 vector, 1 result)" "$tmp/out" |
	grep -q -x -F "    cli/query on 6.2/x64 [QI-5] $tmp/query.vec:5 step 1 {unlisted: not in $tmp/good.known}" ||
	! grep -q -F ' 1 rows known, 1 unlisted, 0 stale, 0 not run' "$tmp/out"; then
	not_ok "run --known: an unlisted failure" "want the failure marked unlisted and counted"
else
	ok "run --known: an unlisted failure fails the run and is named"
fi

# stale: the listed divergence no longer happens (6.1 has no privilege check)
vec "$tmp/stale.vec" <<'EOF'
vector cli/mismatch
  title   t
  rules   SI-1
  source  s
  call    NtSetIntervalProfile Interval=5000
  expect  STATUS_SUCCESS
EOF
nt run --known "$tmp/good.known" --target 6.1/x64 "$tmp/stale.vec"
if [ "$rc" -ne 1 ]; then
	not_ok "run --known: a stale entry" "want exit status 1"
elif ! grep -q -x -F "stale             $tmp/good.known:2: cli/mismatch status-mismatch step 1: $priv: listed divergence no longer happens (now match on 6.1/x64)" "$tmp/out"; then
	not_ok "run --known: a stale entry" "want a stale line with FILE:LINE and what happens now"
else
	ok "run --known: a stale entry fails the run and is named with file:line"
fi

nt run --known "$tmp/good.known" --format junit --target 6.1/x64 "$tmp/stale.vec"
if [ "$rc" -ne 1 ] || ! grep -q -F 'tests="2" failures="1" skipped="0"' "$tmp/out" ||
	! grep -q -F "<testcase classname=\"known-divergences\" name=\"$tmp/good.known:2\"><failure type=\"stale\"" "$tmp/out"; then
	not_ok "run --known --format junit: a stale entry" "want a failing known-divergences testcase"
else
	ok "run --known --format junit: a stale entry is a failing testcase"
fi

# a run of a subset of the targets: an entry whose vector did not run is
# neither known nor stale (cli/mismatch applies from 6.2 on)
nt run --known "$tmp/good.known" --target 6.1/x64 "$tmp/mismatch.vec" "$tmp/query.vec"
if [ "$rc" -ne 1 ] || ! grep -q -F ' 0 rows known, 1 unlisted, 0 stale, 1 not run' "$tmp/out"; then
	not_ok "run --known: an entry whose vector did not run" "want it counted as not run, not stale"
else
	ok "run --known: an entry whose vector did not run is not run, not stale"
fi
# a run of some files: an entry for a vector in none of them, nor in
# fixtures/, names no vector at all, and is refused before anything runs
want_error "run --known: an entry for a vector neither in the files named nor in fixtures/" 2 \
	"$tmp/good.known:2: cli/mismatch: no such vector in the files named or in fixtures/" \
	run --known "$tmp/good.known" --target 6.2/x64 "$tmp/query.vec"

# the fail-twin: the same file with another outcome is caught both ways
sed 's/STATUS_PRIVILEGE_NOT_HELD (0xC0000061)/STATUS_ACCESS_DENIED (0xC0000022)/' "$tmp/good.known" >"$tmp/twin.known"
nt run --known "$tmp/twin.known" --target 6.2/x64 "$tmp/mismatch.vec"
if [ "$rc" -ne 1 ] || ! grep -q -F "{unlisted: $tmp/twin.known:2 lists status-mismatch step 1: STATUS_ACCESS_DENIED (0xC0000022)}" "$tmp/out" ||
	! grep -q -F "stale             $tmp/twin.known:2: " "$tmp/out"; then
	not_ok "run --known: an entry with a wrong outcome" "want exit 1, the row unlisted and the entry stale"
else
	ok "run --known: an entry with a wrong outcome leaves the row unlisted and the entry stale"
fi

# --known-write: every failure, TODO reasons the reader refuses, reasons kept from --known
mkdir "$tmp/kw"
nt run --known-write "$tmp/kw/new.known" --target 6.2/x64 --target 1809 "$tmp/mismatch.vec" "$tmp/query.vec"
if [ "$rc" -ne 1 ] || [ "$(ls -A "$tmp/kw")" != new.known ]; then
	not_ok "run --known-write" "want exit 1 (the failures) and new.known alone in the directory"
elif ! grep -q -x "cli/mismatch  status-mismatch  step 1: $priv  # TODO" "$tmp/kw/new.known" ||
	! grep -q -x "cli/query     output-mismatch  step 1: STATUS_SUCCESS (0x00000000) Interval=39063  # TODO" "$tmp/kw/new.known"; then
	not_ok "run --known-write" "want one line per failing vector with a TODO reason"
else
	ok "run --known-write: one line per failing vector, TODO reasons"
fi
want_error "run --known: a written file with TODO reasons is refused" 2 \
	"$tmp/kw/new.known:4: the reason is still TODO: say why cli/mismatch diverges" \
	run --known "$tmp/kw/new.known" "$tmp/mismatch.vec"
nt run --known "$tmp/good.known" --known-write "$tmp/kw/new.known" --target 6.2/x64 --target 1809 "$tmp/mismatch.vec" "$tmp/query.vec"
if [ "$rc" -ne 1 ] || ! grep -q -x "cli/mismatch  status-mismatch  step 1: $priv  # the vector expects success on purpose" "$tmp/kw/new.known"; then
	not_ok "run --known F --known-write G" "want the reason of F's entry kept in G"
else
	sed 's/# TODO$/# the vector expects the minimum on purpose/' "$tmp/kw/new.known" >"$tmp/kw/done.known"
	nt run --known "$tmp/kw/done.known" --target 6.2/x64 --target 1809 "$tmp/mismatch.vec" "$tmp/query.vec"
	if [ "$rc" -ne 0 ]; then
		not_ok "run --known F --known-write G" "want G, its TODO filled in, to pass the same run"
	else
		ok "run --known F --known-write G: reasons kept; G with its TODO filled in passes"
	fi
fi

# bad input: exit 2, the message names file:line or the argument, nothing written
for f in "$root"/conformance/data/bad-known/*.known; do
	where=$(sed -n '1s/.* => :\([0-9]*\): .*/\1/p' "$f")
	nt run --known "$f" --output "$tmp/kw/report.txt" --known-write "$tmp/kw/w.known" "$tmp/mismatch.vec"
	if [ "$rc" -ne 2 ] || ! head -n 1 "$tmp/err" | grep -q -F "$f:$where: "; then
		not_ok "run --known ${f##*/}" "want exit 2 and $f:$where: on stderr"
	elif [ -e "$tmp/kw/report.txt" ] || [ -e "$tmp/kw/w.known" ] || [ -s "$tmp/out" ]; then
		not_ok "run --known ${f##*/}" "want no report and no known file written"
	else
		ok "run --known ${f##*/}: exit 2, file:$where:, nothing written"
	fi
done
# every malformed vector file of conformance/data/bad: exit 2, the
# message its line 1 (or bad/expected.txt) names as file:line: message, and
# neither the --output file nor its temporary file left in the directory
mkdir -p "$tmp/badvec"
nbad=0
for f in "$root"/conformance/data/bad/*.vec; do
	name=${f##*/}
	want=$(sed -n '1s/^# .* => :\([0-9]*: .*\)/\1/p' "$f" | tr -d '\r')
	[ -n "$want" ] || want=$(sed -n "s/^$name => :\\([0-9]*: .*\\)/\\1/p" "$root/conformance/data/bad/expected.txt")
	nbad=$((nbad + 1))
	nt run --format json --output "$tmp/badvec/out.json" "$f"
	if [ -z "$want" ]; then
		not_ok "run $name" "line 1 must be '# WHAT => :LINE: MESSAGE' (or listed in bad/expected.txt)"
	elif [ "$rc" -ne 2 ]; then
		not_ok "run $name" "want exit status 2"
	elif ! head -n 1 "$tmp/err" | grep -q -F "$f:${want#0:}"; then
		# line 0 is the file as a whole: "FILE: message", no line named
		not_ok "run $name" "want stderr to start with $f:${want#0:}"
	elif [ -n "$(ls -A "$tmp/badvec")" ] || [ -s "$tmp/out" ]; then
		not_ok "run $name" "want nothing written, have: $(ls -A "$tmp/badvec" | tr '\n' ' ')"
	else
		ok "run $name: exit 2, file:${want%%: *}: message, no output file"
	fi
done
if [ "$nbad" -lt 50 ]; then
	not_ok "conformance/data/bad holds at least 50 malformed files" "have $nbad"
else
	ok "conformance/data/bad holds $nbad malformed files"
fi

# an entry must name a vector: checked against the vectors loaded, or, when
# the run names files, against those and fixtures/ (a list written for every
# vector may serve a run of some files: its other entries are not run)
want_error "run --known: an entry for no vector, every vector loaded" 2 \
	"$root/conformance/data/bad-known/no-such-vector.known:3: set-interval/no-such-vector: no such vector in the vectors loaded" \
	run --known "$root/conformance/data/bad-known/no-such-vector.known" --output "$tmp/kw/report.txt"
printf 'create/good-baseline status-mismatch step 1: STATUS_SUCCESS (0x00000000) # r\n' >"$tmp/other.known"
nt run --known "$tmp/other.known" --target 6.2/x64 "$tmp/mismatch.vec"
if [ "$rc" -ne 1 ] || ! grep -q -x "known divergences $tmp/other.known: 1 entries, 0 rows known, 1 unlisted, 0 stale, 1 not run" "$tmp/out"; then
	not_ok "run --known F FILE: an entry for a vector of fixtures/ the run did not load" "want it counted not run (and the unlisted row exit 1)"
else
	ok "run --known F FILE: an entry for a vector of fixtures/ the run did not load is not run"
fi
want_error "run --known: a file that does not exist" 2 "$tmp/absent.known: cannot open: No such file or directory" \
	run --known "$tmp/absent.known" "$tmp/mismatch.vec"
want_error "run --known needs a file" 2 '--known needs a known-divergence file' run --known
want_error "run --known-write needs a file" 2 '--known-write needs a file' run --known-write
want_error "run --output and --known-write one file" 2 '--output and --known-write name the same file' \
	run --output "$tmp/kw/x" --known-write "$tmp/kw/x" "$tmp/mismatch.vec"
nt run --output "$tmp/kw/report.txt" --known-write "$tmp/none/w.known" "$tmp/mismatch.vec"
if [ "$rc" -ne 2 ] || ! grep -q -F -- "--known-write $tmp/none/w.known: cannot write" "$tmp/err"; then
	not_ok "run --known-write into a missing directory" "want exit 2 and the argument named"
elif [ -n "$(ls -A "$tmp/kw" | grep -v -x -e new.known -e done.known)" ]; then
	not_ok "run --known-write into a missing directory" "want no report left: $(ls -A "$tmp/kw" | tr '\n' ' ')"
else
	ok "run --known-write into a missing directory: exit 2, no report written either"
fi

# ---- ntprof compare ----

mkdir "$tmp/cmp"
"$NTPROF_BIN" run --format json --output "$tmp/cmp/win8.json" --target 6.2/x64 "$tmp/mismatch.vec" "$tmp/query.vec" "$tmp/dup1.vec"
"$NTPROF_BIN" run --format json --output "$tmp/cmp/same.json" --target 6.2/x64 "$tmp/mismatch.vec" "$tmp/query.vec" "$tmp/dup1.vec"
"$NTPROF_BIN" run --format json --output "$tmp/cmp/rs5.json" --known "$tmp/good.known" --target 1809/x64 "$tmp/mismatch.vec" "$tmp/query.vec"

want_out "compare: two runs that agree, exit 0" \
"ntprof compare: 2 files, 2 columns, 3 vectors, 0 differ
  vector        win8                                                   same
  cli/mismatch  status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD      status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD
  cli/query     output-mismatch step 1: STATUS_SUCCESS Interval=39063  output-mismatch step 1: STATUS_SUCCESS Interval=39063
  cli/dup       match                                                  match" \
	compare "$tmp/cmp/win8.json" "$tmp/cmp/same.json"

# a known divergence is the same behaviour as the unlisted one; a vector one run lacks differs
nt compare --differences "$tmp/cmp/win8.json" "$tmp/cmp/rs5.json"
if [ "$rc" -ne 1 ]; then
	not_ok "compare --differences: runs that differ" "want exit status 1"
elif [ "$(cat "$tmp/out")" != "ntprof compare: 2 files, 2 columns, 3 vectors, 1 differ (only those are shown)
  vector   win8   rs5
* cli/dup  match  -" ]; then
	not_ok "compare --differences: runs that differ" "want the header and the one differing row"
else
	ok "compare --differences: only the differing row, marked, exit 1"
fi

nt compare --format markdown --output "$tmp/cmp/table.md" "$tmp/cmp/win8.json" "$tmp/cmp/rs5.json"
if [ "$rc" -ne 1 ] || [ -s "$tmp/out" ] || [ -s "$tmp/err" ]; then
	not_ok "compare --format markdown --output F" "want exit 1 and nothing on stdout or stderr"
elif [ "$(sed -n 3,4p "$tmp/cmp/table.md")" != '| | vector | win8 | rs5 |
|---|---|---|---|' ] ||
	! grep -q -x -F '|   | `cli/mismatch` | `status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD` | `known status-mismatch step 1: STATUS_PRIVILEGE_NOT_HELD` |' "$tmp/cmp/table.md" ||
	! grep -q -F '| `cli/dup` | `match` | `-` |' "$tmp/cmp/table.md"; then
	not_ok "compare --format markdown --output F" "want a markdown table in F"
else
	ok "compare --format markdown --output F: a markdown table in F"
fi

nt compare "$tmp/outdir/good.json"
# as many vectors as the fixtures hold (counted here, so that a new vector
# does not need this test edited)
nvec=$(cat "$root"/fixtures/*/*.vec | grep -c '^vector ')
if [ "$rc" -eq 2 ] || [ "$(head -n 1 "$tmp/out")" != "ntprof compare: 1 files, 77 columns, $nvec vectors, ""$(sed -n '1s/.*, \([0-9]*\) differ$/\1/p' "$tmp/out")"' differ' ]; then
	not_ok "compare: a run of every fixture on every target" "want 77 columns (one per target) and $nvec vectors"
else
	ok "compare: a run of every fixture on every target has a column per target"
fi

for f in "$root"/conformance/data/bad-json/*.json; do
	name=${f##*/}
	want=$(sed -n "s/^$name => :\\([0-9]*\\): .*/\\1/p" "$root/conformance/data/bad-json/expected.txt")
	nt compare --output "$tmp/cmp/bad.txt" "$tmp/cmp/win8.json" "$f"
	if [ -z "$want" ]; then
		not_ok "compare $name" "expected.txt has no line for it"
	elif [ "$rc" -ne 2 ] || ! head -n 1 "$tmp/err" | grep -q -F "$f:$want: "; then
		not_ok "compare $name" "want exit 2 and $f:$want: on stderr"
	elif [ -e "$tmp/cmp/bad.txt" ] || [ -s "$tmp/out" ]; then
		not_ok "compare $name" "want nothing written"
	else
		ok "compare $name: exit 2, file:$want:, nothing written"
	fi
done
want_error "compare: a file that does not exist" 2 "$tmp/cmp/absent.json: cannot open: No such file or directory" compare "$tmp/cmp/absent.json"
want_error "compare: no file" 2 'compare needs at least one JSON result file' compare --differences
want_error "compare: --format json" 2 'compare: --format takes text or markdown' compare --format json "$tmp/cmp/win8.json"
want_error "compare: unknown option" 2 'compare: unknown option --bogus' compare --bogus "$tmp/cmp/win8.json"
want_error "compare --output: a directory that does not exist" 2 "--output $tmp/none/t.txt: cannot write" \
	compare --output "$tmp/none/t.txt" "$tmp/cmp/win8.json"

# ---- ntprof matrix and ntprof diff ----
si="$root/fixtures/interval/set-interval.vec"

# SI-1: the 6.2 cell of set-interval/privilege-threshold is marked (text: *)
nt matrix "$si"
row=$(grep '^set-interval/privilege-threshold  *1 ' "$tmp/out")
# rules: SI-1
if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
	not_ok "matrix: text" "want exit 0 and nothing on stderr"
elif ! printf '%s\n' "$row" | grep -q -E '  SUCCESS +\*PRIVILEGE_NOT_HELD +PRIVILEGE_NOT_HELD '; then
	not_ok "matrix: text" "want SUCCESS, *PRIVILEGE_NOT_HELD (6.2), PRIVILEGE_NOT_HELD (6.3) in: $row"
elif printf '%s\n' "$row" | grep -q -F '*SUCCESS'; then
	not_ok "matrix: text" "the first version a vector applies to is no change: $row"
else
	ok "matrix: text marks SI-1's change at 6.2"
fi

nt matrix --format markdown "$si"
# rules: SI-1
if [ "$rc" -ne 0 ] || ! grep -q -F '| `SUCCESS` | ≠ `PRIVILEGE_NOT_HELD` | `PRIVILEGE_NOT_HELD` |' "$tmp/out" ||
	! grep -q -F '| vector | step | function | rules | 3.10 | 3.50 |' "$tmp/out"; then
	not_ok "matrix: markdown" "want the header and ≠ before the 6.2 cell"
else
	ok "matrix: markdown marks SI-1's change at 6.2"
fi

nt matrix --arch x64 "$si"
if [ "$rc" -ne 0 ] || ! head -n 1 "$tmp/out" | grep -q 'architectures x64$' ||
	sed 1,5d "$tmp/out" | grep -q 'x86: '; then
	not_ok "matrix --arch x64" "want one architecture and no split cell"
else
	ok "matrix --arch x64: one architecture"
fi

# HTML: one self-contained page, written atomically
nt matrix --format html --output "$tmp/m.html"
page="$tmp/m.html"
if [ "$rc" -ne 0 ] || [ -s "$tmp/out" ] || [ ! -s "$page" ]; then
	not_ok "matrix --format html --output" "want exit 0, the page in the file, nothing on stdout"
elif grep -q -i -E 'src=|<script|<link|<base|<img|<iframe|<object|<embed|@import|url\(' "$page" ||
	grep -o -i -E '<[a-z]+ [^>]*href="?(https?:|//)' "$page" | grep -q -v '^<a href="http'; then
	# a URL out of the page (SPEC.md's sources) may only be a link, followed when clicked
	not_ok "matrix --format html" "the page fetches something: $(grep -o -i -E 'src=[^ ]*|<script|<link|<base|<img|<iframe|<object|<embed|@import|url\(|<[a-z]+ [^>]*href="?(https?:|//)[^ ]*' "$page" | grep -v '^<a href="http' | head -n 1)"
elif ! grep -q -F '<a href="#rule-SI-1" title="SI-1 — Privilege from 6.2">SI-1</a>' "$page" ||
	! grep -q -F '<div class="rule" id="rule-SI-1">' "$page" ||
	! grep -q -F 'x" colspan="22" title="6.2 to 11-25H2; was SUCCESS on 6.1"><span class="t">PRIVILEGE_NOT_HELD</span></td>' "$page"; then
	not_ok "matrix --format html" "want SI-1 linked to its embedded text and the 6.2 change marked"
else
	# every in-page link has its anchor (the links' targets less the ids, in one pass each)
	grep -o 'id="[^"]*"' "$page" | sed 's/^id="//; s/"$//' | sort -u >"$tmp/m.ids"
	missing=$(grep -o 'href="#[^"]*"' "$page" | sed 's/href="#//; s/"$//' | sort -u | comm -23 - "$tmp/m.ids")
	if [ -n "$missing" ]; then
		not_ok "matrix --format html" "links without an anchor: $missing"
	elif ls "$tmp" | grep -q 'm.html.tmp'; then
		not_ok "matrix --format html" "a temporary file is left"
	else
		ok "matrix --format html: self-contained, rules linked and embedded, change marked"
	fi
fi

want_error "matrix: unknown architecture" 2 '--arch x86,arm64: unknown architecture arm64' matrix --arch x86,arm64 "$si"
want_error "matrix: empty architecture" 2 '--arch x86,: expected x86, x64 or wow64' matrix --arch x86, "$si"
want_error "matrix: --format pdf" 2 'matrix: --format takes text, markdown or html' matrix --format pdf "$si"
want_error "matrix: unknown option" 2 'matrix: unknown option --bogus' matrix --bogus
want_error "matrix: a file that does not exist" 2 "$tmp/absent.vec: cannot open: No such file or directory" matrix "$tmp/absent.vec"
want_error "matrix --output: a directory that does not exist" 2 "--output $tmp/none/m.html: cannot write" \
	matrix --format html --output "$tmp/none/m.html" "$si"
want_error "matrix --format html: a root without SPEC.md" 2 'cannot find SPEC.md for the rule texts' \
	matrix --format html --root "$tmp" "$si"

# diff: 6.1 -> 6.2 (SI-1), grouped by function, both outcomes; exit 1 as diff(1)
nt diff 6.1 6.2
# rules: SI-1
if [ "$rc" -ne 1 ] || [ -s "$tmp/err" ]; then
	not_ok "diff 6.1 6.2" "want exit 1 (differences) and nothing on stderr"
elif ! grep -q '^NtSetIntervalProfile: SI-1 ' "$tmp/out" ||
	! grep -A 2 '^  set-interval/privilege-threshold step 1 (SI-1 MC-1 VR-1)$' "$tmp/out" |
		tr '\n' '|' | grep -q -F '    6.1  SUCCESS|    6.2  PRIVILEGE_NOT_HELD|'; then
	not_ok "diff 6.1 6.2" "want set-interval/privilege-threshold under NtSetIntervalProfile with both outcomes"
elif awk '/^[^ ]/ { if (seen[$1]++) exit 1 }' "$tmp/out"; then
	ok "diff 6.1 6.2: SI-1 under NtSetIntervalProfile, one group per function"
else
	not_ok "diff 6.1 6.2" "a function heads two groups"
fi

nt diff 1803 1809
# rules: IN-4
if [ "$rc" -ne 1 ] || ! grep -A 2 '^  counting/end-of-region step 4 ' "$tmp/out" | tr '\n' '|' |
	grep -q -F '    1803  corruption Counted=1|    1809  Counted=0|'; then
	not_ok "diff 1803 1809" "want IN-4's inclusive end: corruption Counted=1 on 1803, Counted=0 on 1809"
else
	ok "diff 1803 1809: the inclusive end of IN-4"
fi

nt diff 6.2 6.2
if [ "$rc" -ne 0 ] || [ -s "$tmp/out" ] || [ -s "$tmp/err" ]; then
	not_ok "diff 6.2 6.2" "want exit 0 and nothing printed"
else
	ok "diff 6.2 6.2: nothing, exit 0"
fi
nt diff 1909 1909/x64
if [ "$rc" -ne 0 ] || [ -s "$tmp/out" ]; then
	not_ok "diff: one architecture of a version with itself" "want exit 0 and nothing"
else
	ok "diff 1909 1909/x64: nothing, exit 0"
fi
nt diff 4.0/x86 11-24H2/x64
if [ "$rc" -ne 1 ] || ! grep -q -E '^    4\.0/x86  +' "$tmp/out" || ! grep -q -E '^    11-24H2/x64  +' "$tmp/out"; then
	not_ok "diff 4.0/x86 11-24H2/x64" "want exit 1 and sides labelled VERSION/ARCH"
else
	ok "diff 4.0/x86 11-24H2/x64: sides on architectures of their own"
fi

want_error "diff: unknown first version" 2 'diff: VERSION_A 7.5: unknown version' diff 7.5 6.2
want_error "diff: unknown second version" 2 'diff: VERSION_B 6.9: unknown version' diff 6.1 6.9
want_error "diff: unknown architecture of a side" 2 'diff: VERSION_B 6.2/arm: unknown architecture' diff 6.1 6.2/arm
want_error "diff: an architecture a side lacks" 2 'diff: VERSION_A 4.0/x64: x64 does not exist on 4.0 (VR-3)' \
	diff 4.0/x64 6.1
want_error "diff: no architecture in common" 2 '4.0 and 11-24H2 have no architecture in common' diff 4.0 11-24H2
want_error "diff: --arch a version lacks" 2 '--arch x64: x64 does not exist on 4.0' diff --arch x64 4.0 6.1
want_error "diff: --arch and VERSION/ARCH" 2 'not both' diff --arch x64 6.1/x64 6.2
want_error "diff: one version" 2 'diff needs two versions' diff 6.1
want_error "diff: unknown option" 2 'diff: unknown option --format' diff --format html 6.1 6.2

echo "1..$n"
if [ "$failed" -ne 0 ]; then
	echo "# $failed of $n checks failed" >&2
	exit 1
fi
exit 0
