#!/bin/sh
# SPDX-License-Identifier: MIT
# wine.sh MODE EXE [ARGS...]
#     Runs a Windows exe under Wine, headless, as Windows MODE (win7 or
#     win10), and exits with the exe's status. One prefix serves every run:
#     build/wine/prefix, created on first use; the Windows version is
#     switched (winecfg -v MODE) before a run in the other mode.
# wine.sh --stop
#     Stops the prefix's wineserver (each Wine test script does so as it
#     ends).
#
# The environment is pinned (docs: /work/shared/research/toolchain.md §4.6):
#   WINEPREFIX  absolute, under build/: Kyua gives each test its own HOME, and
#               a prefix per HOME would be 695 MB and 5-10 s each;
#   TMPDIR      one fixed directory under build/: Debian's wine keeps the
#               wineserver socket under TMPDIR, and Kyua's per-test TMPDIR
#               would start a new server (2.4 s) for every test;
#   WINEDEBUG=-all, and WINEDLLOVERRIDES without Mono, Gecko and winedbg
#               (whose crash dump goes to stdout and would corrupt reports).
# A wineserver stays up for 60 s after the last process (`wineserver -p 60`),
# so that one test's runs share it (0.04 s per process instead of 0.45 s).
#
# Runs are serialised with a lock on the prefix (the Windows version is a
# setting of the prefix, so two runs at once could see each other's).
#
# Failure, whatever the exe's status, when it printed nothing at all: a 32-bit
# exe under a wine64-only install prints nothing and exits 0 (so let reports
# go to stdout rather than --output FILE through this script). A 32-bit exe
# is refused up front when wine32 is missing, with that reason (status 125).
#
# Timings (Debian 12, Wine 8.0): first use, prefix creation included, 12.8 s
# (the prefix is 695 MB); later, with the wineserver up, 0.14-0.17 s per call
# of this script that switches the mode (winecfg 0.10 s, a short exe
# 0.04 s), 0.05 s for one that does not; with the server
# stopped, 0.7 s.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
base=${NTPROF_WINE_DIR:-$root/build/wine}
mkdir -p "$base/tmp"
base=$(cd "$base" && pwd)

export WINEPREFIX="$base/prefix"
export TMPDIR="$base/tmp"
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d"
unset DISPLAY WAYLAND_DISPLAY

die() {
	echo "wine.sh: $*" >&2
	exit 125
}

if [ "${1:-}" = --stop ]; then
	# Under the runs' lock: a script that stops the server when it ends
	# must not kill a run of another script going on beside it.
	exec 9>"$base/lock"
	flock 9
	[ -d "$WINEPREFIX" ] && wineserver -k 2>/dev/null 9>&- || true
	exit 0
fi
[ $# -ge 2 ] || die "usage: wine.sh win7|win10 EXE [ARGS...] | wine.sh --stop"
mode=$1 exe=$2
shift 2
case $mode in
win7 | win10) ;;
*) die "MODE must be win7 or win10, not '$mode'" ;;
esac
[ -f "$exe" ] || die "$exe: no such file"
command -v wine >/dev/null 2>&1 || die "wine is not installed (make deps)"

# The PE machine field: 0x14C i386, 0x8664 x86-64 (at e_lfanew + 4).
pe_machine() {
	off=$(od -An -tu4 -j 60 -N 4 "$1" | tr -d ' ')
	od -An -tx2 -j $((off + 4)) -N 2 "$1" | tr -d ' '
}
machine=$(pe_machine "$exe") || die "$exe: not a PE file"
case $machine in
8664) ;;
014c)
	[ -x /usr/lib/wine/wine ] ||
		die "$exe is a 32-bit (i686) exe and this Wine has no 32-bit loader (wine32 is not installed): it cannot run here"
	;;
*) die "$exe: PE machine 0x$machine is neither i386 nor x86-64" ;;
esac

# Every Wine command below runs with the lock's descriptor closed (9>&-):
# a wineserver it starts lives on and would keep the lock held.
lock="$base/lock"
exec 9>"$lock"
flock 9

# First use: a fresh prefix. The marker is written last, so a creation that
# was interrupted is redone from nothing instead of used half-made.
if [ ! -f "$WINEPREFIX/.ntprof-ready" ]; then
	rm -rf "$WINEPREFIX"
	echo "wine.sh: creating the prefix $WINEPREFIX (once, ~10 s)" >&2
	wineboot --init >/dev/null 2>&1 9>&- || die "wineboot --init failed"
	wineserver -w 9>&-
	: >"$WINEPREFIX/.ntprof-ready"
fi

# Fails (harmlessly) when the server is already up.
wineserver -p 60 9>&- 2>/dev/null || :
# The Windows version is switched only when the prefix is in the other one:
# winecfg is a Wine process of its own (0.10 s), and a script's runs come
# mostly in one mode after another. The prefix's mode is written under the
# lock once winecfg has set it, and goes with the prefix when it is made
# anew; the registry keeps it across wineservers.
mode_file=$WINEPREFIX/.ntprof-mode
if [ "$(cat "$mode_file" 2>/dev/null)" != "$mode" ]; then
	rm -f "$mode_file"
	# Once more after a second when it fails: a wineserver left by an
	# earlier run may be ending (its -p 60 ran out) just as winecfg
	# connects to it.
	wine winecfg -v "$mode" >/dev/null 2>&1 9>&- ||
		{ sleep 1; wine winecfg -v "$mode" >/dev/null 2>&1 9>&-; } || die "winecfg -v $mode failed"
	echo "$mode" >"$mode_file"
fi

out="$TMPDIR/out.$$" err="$TMPDIR/err.$$"
trap 'rm -f "$out" "$err"' EXIT
status=0
wine "$exe" "$@" >"$out" 2>"$err" 9>&- || status=$?
cat "$out"
cat "$err" >&2
if [ ! -s "$out" ] && [ ! -s "$err" ]; then
	echo "wine.sh: $exe printed nothing (exit $status): it did not run" >&2
	exit 125
fi
exit "$status"
