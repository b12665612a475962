#!/bin/sh
# SPDX-License-Identifier: MIT
# The command line's conventions: --help and help COMMAND on stdout with
# exit 0, --version, a usage error showing one command's usage, the
# did-you-mean of every kind of name, the OS reason of a file that cannot
# be opened, outputs that never damage a device or a symlink, lost stdout,
# an empty fixtures directory, and friendly version names. Each check has
# its twin: the wrong input that must be refused, or the output that must
# differ.
#
# Environment: NTPROF_BIN, NTPROF_SOURCE_ROOT. Prints TAP; exits 1 when any
# check fails.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-conv.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
failure_detail() {   # the command and its output, after a failure
	echo "#   command: $cmd"
	echo "#   exit status: $rc"
	sed 's/^/#   stdout: /' "$tmp/out"
	sed 's/^/#   stderr: /' "$tmp/err"
}
nt() { cmd="ntprof $*"; "$NTPROF_BIN" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# want_stdout DESC FRAGMENT ARGS...: exit 0, FRAGMENT on stdout, nothing on stderr.
want_stdout() {
	desc=$1 fragment=$2; shift 2
	nt "$@"
	if [ "$rc" -ne 0 ]; then not_ok "$desc" "want exit status 0"
	elif ! grep -F -q -e "$fragment" "$tmp/out"; then not_ok "$desc" "want on stdout: $fragment"
	elif [ -s "$tmp/err" ]; then not_ok "$desc" "want nothing on stderr"
	else ok "$desc"; fi
}
# want_error DESC STATUS FRAGMENT ARGS...
want_error() {
	desc=$1 status=$2 fragment=$3; shift 3
	nt "$@"
	if [ "$rc" -ne "$status" ]; then not_ok "$desc" "want exit status $status"
	elif ! grep -F -q -e "$fragment" "$tmp/err"; then not_ok "$desc" "want on stderr: $fragment"
	else ok "$desc"; fi
}
# want_no DESC FRAGMENT: the last command's stderr lacks FRAGMENT.
want_no() {
	if grep -F -q -e "$2" "$tmp/err"; then not_ok "$1" "want not on stderr: $2"; else ok "$1"; fi
}

# ---- help and version ----
want_stdout "--help: every usage on stdout" "ntprof versions" --help
want_stdout "help: every usage on stdout" "ntprof explain" help
for c in run compare matrix diff call explore explain trace versions; do
	want_stdout "$c --help: its usage on stdout" "usage: ntprof $c" "$c" --help
	want_stdout "help $c: its usage on stdout" "usage: ntprof $c" help "$c"
done
want_stdout "run --help lists each option with its help" "--known-write FILE" run --help
want_stdout "explore --help: an option's help text" "combinations per function" explore --help
version=$(sed -n 's/^VERSION *= *//p' "$root/Makefile")
want_stdout "--version: ntprof VERSION of the Makefile" "ntprof $version" --version
want_stdout "run --version" "ntprof $version" run --version
want_error "help of no command: exit 2" 2 "unknown command runn (did you mean run?)" help runn

# ---- usage errors show one usage ----
want_error "a usage error: the error line" 2 "--format takes text|tap|junit|json" run --format bogus
if grep -q "ntprof versions" "$tmp/err" || ! grep -q "usage: ntprof run" "$tmp/err"; then
	not_ok "a usage error shows that command's usage only" "want run's usage and no other"
else
	ok "a usage error shows that command's usage only"
fi
want_error "versions refuses arguments" 2 "versions: takes no arguments (got extra)" versions extra
want_error "unknown command: did you mean" 2 "unknown command runn (did you mean run?)" runn
want_error "unknown option: did you mean" 2 "unknown option --fromat (did you mean --format?)" run --fromat text
want_error "call: options after the steps" 2 "--target after the steps" call NtQueryIntervalProfile --target 6.1

# ---- did you mean ----
want_error "function: did you mean" 2 "(did you mean NtSetIntervalProfile?)" call NtSetIntervalProfil
want_error "function: the name quoted" 2 '`NtSetIntervalProfil`' call NtSetIntervalProfil
want_error "argument name: did you mean" 2 '`Intervl` (did you mean Interval?)' call 'NtSetIntervalProfile Intervl=1'
want_error "unknown argument: the valid ones listed" 2 "NtSetIntervalProfile takes Interval, Source" \
	call 'NtSetIntervalProfile Intervl=1'
want_error "a missing argument is named" 2 "a required argument is missing: NtStartProfile needs ProfileHandle" \
	call NtStartProfile
want_error "given key: did you mean" 2 '`privlege` (did you mean privilege?)' call --given privlege=on NtQueryIntervalProfile
want_error "version: did you mean" 2 "(did you mean win7?)" run --target wim7
want_error "source: did you mean" 2 "Source=ProfileTim (did you mean ProfileTime?)" \
	call 'NtQueryIntervalProfile Source=ProfileTim'
want_error "rule: did you mean" 2 "(did you mean SI-1?)" explain --root "$root" si-1x
want_error "a word far from every name gets no guess" 2 'unknown function (see fixtures/README.md, Steps): `Zzzzzzzzzz`' \
	call Zzzzzzzzzz
want_no "no guess for a word far from every name" "did you mean"
want_stdout "explain: a rule ID in lower case" "### SI-1" explain --root "$root" si-1
mkdir -p "$tmp/st"
printf 'vector e/x\n  title t\n  rules SI-1\n  source s\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCES\n' >"$tmp/st/a.vec"
want_error "status: quoted, did you mean" 2 "a.vec:6: unknown NTSTATUS \`STATUS_SUCCES\` (did you mean STATUS_SUCCESS?)" run "$tmp/st/a.vec"
printf 'vector e/x\n  title t\n  rules SI-1\n  source s\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS Other=1\n' >"$tmp/st/a.vec"
want_error "an out-value the function lacks: file:line at read time" 2 \
	"a.vec:6: NtQueryIntervalProfile has no out-value Other (it reports: Interval)" run "$tmp/st/a.vec"
printf 'vector e/x\n  title t\n  rules SI-1\n  source s\n  call NtQueryIntervalProfile\n  expect STATUS_SUCCESS Interval=39063\n' >"$tmp/st/a.vec"
nt run --target 6.2/x64 "$tmp/st/a.vec"
if [ "$rc" -eq 0 ]; then ok "an out-value the function has: reads and runs"; else not_ok "an out-value the function has: reads and runs" "want exit 0"; fi

# ---- OS reasons, hints ----
want_error "a missing file: the OS reason, no line 0" 2 "$tmp/absent.vec: cannot open: No such file or directory" run "$tmp/absent.vec"
want_no "a missing file: no line 0" ":0:"
want_error "dl: without a slash: the hint" 2 "write dl:./impl.so" run --backend dl:impl.so
want_error "--output into a missing directory: the OS reason" 2 "cannot write: No such file or directory" \
	run --target 6.1 --output "$tmp/no/such/dir/r.txt" "$root/fixtures/interval"

# ---- values ----
a=$("$NTPROF_BIN" call 'NtCreateProfile Process=current ProfileBase=0x100 ProfileSize=0x1000 BucketSize=2 BufferSize=0x1000 Affinity=-1' 2>&1)
b=$("$NTPROF_BIN" call 'NtCreateProfile Process=current ProfileBase=0x100 ProfileSize=0x1000 BucketSize=2 BufferSize=0x1000 Affinity=all' 2>&1)
cmd="call ... Affinity=-1"; rc=0; : >"$tmp/out"; : >"$tmp/err"
if [ "$a" = "$b" ] && [ -n "$a" ]; then ok "Affinity=-1 is all"; else not_ok "Affinity=-1 is all" "got '$a', want '$b'"; fi
c=$("$NTPROF_BIN" call 'NtCreateProfile Process=current ProfileBase=0x100 ProfileSize=0x1000 BucketSize=2 BufferSize=0x1000 Affinity=-2' 2>&1)
if [ "$c" != "$b" ]; then ok "Affinity=-2 is not all (refused)"; else not_ok "Affinity=-2 is not all (refused)" "got '$c'"; fi
nt run --target 6.1 --target 6.1 "$root/fixtures/interval"
once=$("$NTPROF_BIN" run --target 6.1 "$root/fixtures/interval" | tail -n 2)
if [ "$(tail -n 2 "$tmp/out")" = "$once" ]; then ok "--target 6.1 --target 6.1: the results of one"
else not_ok "--target 6.1 --target 6.1: the results of one" "want: $once"; fi
for pair in nt4:4.0 2000:5.0 xp:5.1 2003:5.2 vista:6.0 win7:6.1 win8:6.2 win8.1:6.3 10:1507 11:11-21H2 srv2025:11-24H2; do
	name=${pair%%:*} key=${pair#*:}
	a=$("$NTPROF_BIN" diff "$name" "$key" 2>&1); st=$?
	cmd="ntprof diff $name $key"; rc=$st; printf '%s\n' "$a" >"$tmp/err"; : >"$tmp/out"
	if [ "$st" -eq 0 ] && [ -z "$a" ]; then ok "friendly version $name is $key"
	else not_ok "friendly version $name is $key" "want no difference between them"; fi
done
nt diff win7 win8
if [ "$rc" -eq 1 ]; then ok "friendly versions differ where their keys do (win7, win8)"
else not_ok "friendly versions differ where their keys do (win7, win8)" "want exit 1"; fi
want_stdout "versions shows the friendly names" "win8.1" versions
# srv2025 names 11-24H2 wherever a version is read: a vector's applies and
# expect ranges here (srv2022..srv2025 is the five x64 targets from Server
# 2022, which sits after 22H2, to 11 24H2); a name near it is refused
vec_names() { # vec_names RANGE: a vector applying to RANGE on x64
	cat >"$tmp/names.vec" <<VEC
vector names/server-releases
  title   Server 2022 and Server 2025 by name
  rules   VR-1
  flags   documented
  source  GC-KHIST
  applies $1 arch=x64
  call    NtQueryIntervalProfile Source=ProfileTime
  expect  STATUS_SUCCESS Interval=39063 on srv2025
  expect  STATUS_SUCCESS Interval=39063
VEC
}
vec_names srv2022..srv2025
want_stdout "a vector from srv2022 to srv2025: the five x64 targets from Server 2022 to 11 24H2" \
	"1 vectors, 77 targets, 5 results" run "$tmp/names.vec"
vec_names 22H2..srv2025
want_stdout "a vector from 22H2 to srv2025: one target more" "1 vectors, 77 targets, 6 results" \
	run "$tmp/names.vec"
vec_names srv2024..11-25H2
want_error "a vector naming srv2024: an unknown version" 2 "unknown version in range" run "$tmp/names.vec"
want_error "explore --function ,,,: an error" 2 "names no function" explore --function ,,,

# ---- empty fixtures ----
mkdir -p "$tmp/empty"
for c in run matrix; do
	want_error "$c on an empty directory: no vectors" 2 "no vectors" "$c" "$tmp/empty"
	want_no "$c on an empty directory: no sanitizer report" "runtime error"
done
want_error "diff on an empty directory: no vectors" 2 "no vectors" diff 6.1 6.2 "$tmp/empty"
asan=$root/build/asan/ntprof
if [ -x "$asan" ]; then
	cmd="asan run $tmp/empty"
	"$asan" run "$tmp/empty" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ "$rc" -eq 2 ] && ! grep -q "runtime error\|AddressSanitizer" "$tmp/err"; then
		ok "asan: an empty directory, exit 2, no report"
	else
		not_ok "asan: an empty directory, exit 2, no report" "want exit 2 and no sanitizer report"
	fi
else
	skip "asan: an empty directory, exit 2, no report" "no build/asan/ntprof"
fi

# ---- outputs never damage ----
nt versions
cmd="ntprof versions > /dev/full"
if [ -w /dev/full ]; then
	"$NTPROF_BIN" versions >/dev/full 2>"$tmp/err"; rc=$?
	if [ "$rc" -eq 2 ] && grep -q "output to stdout was lost" "$tmp/err"; then ok "versions > /dev/full: exit 2, a message"
	else not_ok "versions > /dev/full: exit 2, a message" "want exit 2 and the loss named"; fi
else
	skip "versions > /dev/full: exit 2, a message" "no /dev/full"
fi
echo keep >"$tmp/real.txt"
ln -s real.txt "$tmp/link"
nt run --target 6.1 --output "$tmp/link" "$root/fixtures/interval"
if [ "$rc" -eq 0 ] && [ -L "$tmp/link" ] && grep -q "ntprof run" "$tmp/real.txt"; then
	ok "--output a symlink: written through, the link stays"
else
	not_ok "--output a symlink: written through, the link stays" "want the link kept and real.txt written"
fi
ln -s nowhere "$tmp/dangling"
want_error "--output a dangling symlink: refused" 2 "a symlink to nothing" run --target 6.1 --output "$tmp/dangling" "$root/fixtures/interval"
if [ -L "$tmp/dangling" ]; then ok "the dangling symlink stays"; else not_ok "the dangling symlink stays" "it was replaced"; fi
mkfifo "$tmp/fifo" 2>/dev/null && {
	cat "$tmp/fifo" >"$tmp/fifo.out" &
	nt run --target 6.1 --output "$tmp/fifo" "$root/fixtures/interval"
	wait
	if [ "$rc" -eq 0 ] && [ -p "$tmp/fifo" ] && grep -q "ntprof run" "$tmp/fifo.out"; then ok "--output a FIFO: written into, still a FIFO"
	else not_ok "--output a FIFO: written into, still a FIFO" "want the report through the FIFO"; fi
}
if [ "$(id -u)" -eq 0 ] && mknod "$tmp/null" c 1 3 2>/dev/null; then
	nt run --target 6.1 --output "$tmp/null" "$root/fixtures/interval"
	if [ "$rc" -eq 0 ] && [ -c "$tmp/null" ]; then ok "--output a character device: it survives"
	else not_ok "--output a character device: it survives" "want exit 0 and still a character device"; fi
else
	skip "--output a character device: it survives" "not root (mknod)"
fi
want_error "--output a directory: refused" 2 "cannot write: a directory" run --target 6.1 --output "$tmp" "$root/fixtures/interval"

echo "1..$n"
[ "$failed" -eq 0 ]
