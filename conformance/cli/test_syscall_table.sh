#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/syscall-table.sh, which makes model/syscall_table.c from local
# copies of j00ru's tables: on two small tables of that shape (a header of
# system columns, a row per function, an empty field for a system without
# the function) it writes each known column with its key and each of the
# eight functions' numbers, leaving out Server 23H2 and other functions.
# Fail twins: a column it does not know, a function missing, a row of the
# wrong width and a field that is no number are refused (exit 1, the file
# and the trouble named), never guessed.
#
# Environment: NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
gen=$NTPROF_SOURCE_ROOT/tools/syscall-table.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-systable.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
failure_detail() {   # the command's output, after a failure
	sed 's/^/#   | /' "$tmp/out" "$tmp/err" | head -n 20
}

functions='NtCreateProfile NtCreateProfileEx NtStartProfile NtStopProfile NtSetIntervalProfile
NtQueryIntervalProfile NtSetSystemInformation NtQuerySystemInformation'

# table FILE HEADER-COLUMNS: a table whose function K (from 1) has number
# 0x0K00 + the column (from 1), and NtCreateProfileEx none in column 1.
table() {
	file=$1 header=$2
	printf 'System call,%s\n' "$header" >"$file"
	ncol=$(printf '%s\n' "$header" | awk -F, '{ print NF }')
	k=0
	for f in $functions NtClose; do
		k=$((k + 1))
		printf '%s' "$f" >>"$file"
		c=0
		while [ "$c" -lt "$ncol" ]; do
			c=$((c + 1))
			if [ "$f" = NtCreateProfileEx ] && [ "$c" -eq 1 ]; then
				printf ',' >>"$file"
			else
				printf ',0x%02x%02x' "$k" "$c" >>"$file"
			fi
		done
		printf '\n' >>"$file"
	done
}

run() { sh "$gen" "$tmp/x86.csv" "$tmp/x64.csv" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

table "$tmp/x86.csv" 'Windows Vista (SP0),Windows Vista (SP1),Windows 10 (1809)'
table "$tmp/x64.csv" 'Windows 10 (1809),Windows 11 and Server (Server 23H2),Windows 11 and Server (11 25H2)'
run
if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
	not_ok "two small tables: exit 0, nothing on stderr" "exit status $rc"
elif ! grep -q -F '{ NP_V6_0, "Vista SP0" },' "$tmp/out" ||
	! grep -q -F '{ NP_V1809, "10 1809" },' "$tmp/out" ||
	! grep -q -F 'np_syscall_x86_column_count = 3;' "$tmp/out" ||
	! grep -q -F 'np_syscall_x64_column_count = 2;' "$tmp/out" ||
	grep -q -F 'Server 23H2' "$tmp/out"; then
	not_ok "two small tables: each column with its key, Server 23H2 left out" "want the columns"
elif [ "$(grep -c -F '{ "' "$tmp/out")" -ne 16 ] || grep -q NtClose "$tmp/out" ||
	! grep -q -F -x '		NONE, 0x0202, 0x0203,' "$tmp/out" ||
	! grep -q -F -x '		0x0801, 0x0803,' "$tmp/out"; then
	not_ok "two small tables: the eight functions' numbers, none where empty" "want 16 rows"
else
	ok "two small tables: each known column with its key and each function's numbers"
fi

# want_refused DESCRIPTION FRAGMENT: exit 1 and FRAGMENT on stderr.
want_refused() {
	run
	if [ "$rc" -eq 1 ] && grep -q -F -e "$2" "$tmp/err"; then
		ok "$1"
	else
		not_ok "$1" "want exit 1 and: $2 (exit status $rc)"
	fi
}

table "$tmp/x64.csv" 'Windows 10 (1809),Windows 12 (26H2)'
want_refused "a column the script does not know is refused" 'unknown column "Windows 12 (26H2)"'
table "$tmp/x64.csv" 'Windows 10 (1809)'
sed -i '/^NtStopProfile,/d' "$tmp/x64.csv"
want_refused "a function missing is refused" 'no row for NtStopProfile'
table "$tmp/x64.csv" 'Windows 10 (1809)'
sed -i 's/^NtStartProfile,.*/NtStartProfile,0x0101,0x0102/' "$tmp/x64.csv"
want_refused "a row of the wrong width is refused" 'NtStartProfile has 3 fields, the header 2'
table "$tmp/x64.csv" 'Windows 10 (1809)'
sed -i 's/^NtStartProfile,.*/NtStartProfile,0x01G1/' "$tmp/x64.csv"
want_refused "a field that is no number is refused" 'NtStartProfile: bad number "0x01G1"'

echo "1..$n"
[ "$failed" -eq 0 ]
