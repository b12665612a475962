#!/bin/sh
# SPDX-License-Identifier: MIT
# syscall-table.sh X86_CSV X64_CSV: writes model/syscall_table.c, the data of
# `ntprof syscalls`, on stdout, from local copies of the system-call tables
# of https://github.com/j00ru/windows-syscalls (x86/csv/nt.csv and
# x64/csv/nt.csv; the j00ru files themselves are not kept in this
# repository). Each CSV has a header row ("System call,Windows XP (SP1),...")
# and a row per function ("NtClose,0x000c,..."), an empty field where the
# system has no such function.
#
# The COLUMNS table below gives each system column of j00ru's header the
# version key it belongs to (SPEC.md, System-call numbers) and a short name
# `ntprof syscalls` prints. A column that names no key of ours (Windows
# Server 23H2, build 25398) is left out, and so is every function but the
# eight of the catalog. A header this table does not know is an error (exit
# 1): a newer j00ru file needs its columns placed by hand, never guessed.
#
#   tools/syscall-table.sh x86-nt.csv x64-nt.csv > model/syscall_table.c
set -u

[ $# -eq 2 ] || { echo "usage: syscall-table.sh X86_CSV X64_CSV" >&2; exit 2; }
for f in "$1" "$2"; do
	[ -r "$f" ] || { echo "syscall-table.sh: cannot read '$f'" >&2; exit 2; }
done

# arch|j00ru header|key enumerator|short name
COLUMNS='x86|Windows NT (SP3 TS)|NP_V4_0|NT 4.0 SP3 TS
x86|Windows NT (SP3)|NP_V4_0|NT 4.0 SP3
x86|Windows NT (SP4)|NP_V4_0SP4|NT 4.0 SP4
x86|Windows NT (SP5)|NP_V4_0SP4|NT 4.0 SP5
x86|Windows NT (SP6)|NP_V4_0SP4|NT 4.0 SP6
x86|Windows 2000 (SP0)|NP_V5_0|2000 SP0
x86|Windows 2000 (SP1)|NP_V5_0|2000 SP1
x86|Windows 2000 (SP2)|NP_V5_0|2000 SP2
x86|Windows 2000 (SP3)|NP_V5_0|2000 SP3
x86|Windows 2000 (SP4)|NP_V5_0|2000 SP4
x86|Windows XP (SP0)|NP_V5_1|XP SP0
x86|Windows XP (SP1)|NP_V5_1|XP SP1
x86|Windows XP (SP2)|NP_V5_1|XP SP2
x86|Windows XP (SP3)|NP_V5_1|XP SP3
x86|Windows Server 2003 (SP0)|NP_V5_2|Server 2003 SP0
x86|Windows Server 2003 (SP1)|NP_V5_2SP1|Server 2003 SP1
x86|Windows Server 2003 (SP2)|NP_V5_2SP1|Server 2003 SP2
x86|Windows Server 2003 (R2)|NP_V5_2SP1|Server 2003 R2
x86|Windows Server 2003 (R2 SP2)|NP_V5_2SP1|Server 2003 R2 SP2
x86|Windows Vista (SP0)|NP_V6_0|Vista SP0
x86|Windows Vista (SP1)|NP_V6_0|Vista SP1
x86|Windows Vista (SP2)|NP_V6_0|Vista SP2
x86|Windows Server 2008 (SP0)|NP_V6_0|Server 2008 SP0
x86|Windows Server 2008 (SP2)|NP_V6_0|Server 2008 SP2
x86|Windows 7 (SP0)|NP_V6_1|7 SP0
x86|Windows 7 (SP1)|NP_V6_1|7 SP1
x86|Windows 8 (8.0)|NP_V6_2|8
x86|Windows 8 (8.1)|NP_V6_3|8.1
x86|Windows 10 (1507)|NP_V1507|10 1507
x86|Windows 10 (1511)|NP_V1511|10 1511
x86|Windows 10 (1607)|NP_V1607|10 1607
x86|Windows 10 (1703)|NP_V1703|10 1703
x86|Windows 10 (1709)|NP_V1709|10 1709
x86|Windows 10 (1803)|NP_V1803|10 1803
x86|Windows 10 (1809)|NP_V1809|10 1809
x86|Windows 10 (1903)|NP_V1903|10 1903
x86|Windows 10 (1909)|NP_V1909|10 1909
x86|Windows 10 (2004)|NP_V2004|10 2004
x86|Windows 10 (20H2)|NP_V20H2|10 20H2
x86|Windows 10 (21H1)|NP_V21H1|10 21H1
x86|Windows 10 (21H2)|NP_V21H2|10 21H2
x86|Windows 10 (22H2)|NP_V22H2|10 22H2
x64|Windows XP (SP1)|NP_V5_2SP1|XP x64 SP1
x64|Windows XP (SP2)|NP_V5_2SP1|XP x64 SP2
x64|Windows Server 2003 (SP0)|NP_V5_2SP1|Server 2003 SP0
x64|Windows Server 2003 (SP2)|NP_V5_2SP1|Server 2003 SP2
x64|Windows Server 2003 (R2)|NP_V5_2SP1|Server 2003 R2
x64|Windows Server 2003 (R2 SP2)|NP_V5_2SP1|Server 2003 R2 SP2
x64|Windows Vista (SP0)|NP_V6_0|Vista SP0
x64|Windows Vista (SP1)|NP_V6_0|Vista SP1
x64|Windows Vista (SP2)|NP_V6_0|Vista SP2
x64|Windows 7 (SP0)|NP_V6_1|7 SP0
x64|Windows 7 (SP1)|NP_V6_1|7 SP1
x64|Windows 8 (8.0)|NP_V6_2|8
x64|Windows 8 (8.1)|NP_V6_3|8.1
x64|Windows 10 (1507)|NP_V1507|10 1507
x64|Windows 10 (1511)|NP_V1511|10 1511
x64|Windows 10 (1607)|NP_V1607|10 1607
x64|Windows 10 (1703)|NP_V1703|10 1703
x64|Windows 10 (1709)|NP_V1709|10 1709
x64|Windows 10 (1803)|NP_V1803|10 1803
x64|Windows 10 (1809)|NP_V1809|10 1809
x64|Windows 10 (1903)|NP_V1903|10 1903
x64|Windows 10 (1909)|NP_V1909|10 1909
x64|Windows 10 (2004)|NP_V2004|10 2004
x64|Windows 10 (20H2)|NP_V20H2|10 20H2
x64|Windows 10 (21H1)|NP_V21H1|10 21H1
x64|Windows 10 (21H2)|NP_V21H2|10 21H2
x64|Windows 10 (22H2)|NP_V22H2|10 22H2
x64|Windows 11 and Server (Server 2022)|NP_VSRV2022|Server 2022
x64|Windows 11 and Server (11 21H2)|NP_V11_21H2|11 21H2
x64|Windows 11 and Server (11 22H2)|NP_V11_22H2|11 22H2
x64|Windows 11 and Server (11 23H2)|NP_V11_23H2|11 23H2
x64|Windows 11 and Server (Server 23H2)|-|-
x64|Windows 11 and Server (11 24H2)|NP_V11_24H2|11 24H2
x64|Windows 11 and Server (Server 2025)|NP_V11_24H2|Server 2025
x64|Windows 11 and Server (11 25H2)|NP_V11_25H2|11 25H2'

# The catalog's functions, in the order of the generated rows.
FUNCTIONS='NtCreateProfile NtCreateProfileEx NtStartProfile NtStopProfile NtSetIntervalProfile
NtQueryIntervalProfile NtSetSystemInformation NtQuerySystemInformation'

table() { # table ARCH CSV: the columns and the rows of one architecture
	printf '%s\n' "$COLUMNS" | awk -F'|' -v arch="$1" -v functions="$FUNCTIONS" -v csv="$2" '
	BEGIN {
		while ((getline line < "/dev/stdin") > 0) {
			split(line, c, "|")
			if (c[1] != arch)
				continue
			key[c[2]] = c[3]
			name[c[2]] = c[4]
		}
		nf = split(functions, fn, /[ \n]+/)
		for (i = 1; i <= nf; i++)
			wanted[fn[i]] = i
		if ((getline header < csv) <= 0) {
			print "syscall-table.sh: " csv ": empty" > "/dev/stderr"
			exit 1
		}
		sub(/\r$/, "", header)
		ncol = split(header, h, ",")
		printf "const np_syscall_column np_syscall_%s_columns[NP_SYSCALL_MAX_COLUMNS] = {\n", arch
		kept = 0
		for (i = 2; i <= ncol; i++) {
			if (!(h[i] in key)) {
				print "syscall-table.sh: " csv ": unknown column \"" h[i] "\"" > "/dev/stderr"
				exit 1
			}
			if (key[h[i]] == "-")
				continue
			use[i] = 1
			kept++
			printf "\t{ %s, \"%s\" },\n", key[h[i]], name[h[i]]
		}
		printf "};\nconst unsigned np_syscall_%s_column_count = %d;\n\n", arch, kept
		while ((getline line < csv) > 0) {
			sub(/\r$/, "", line)
			split(line, f, ",")
			if (f[1] in wanted)
				row[wanted[f[1]]] = line
		}
		printf "const np_syscall_row np_syscall_%s_rows[NP_SYSCALL_FUNCTIONS + 1] = {\n", arch
		for (r = 1; r <= nf; r++) {
			if (!(r in row)) {
				print "syscall-table.sh: " csv ": no row for " fn[r] > "/dev/stderr"
				exit 1
			}
			n = split(row[r], f, ",")
			if (n != ncol) {
				print "syscall-table.sh: " csv ": " fn[r] " has " n " fields, the header " ncol > "/dev/stderr"
				exit 1
			}
			printf "\t{ \"%s\", {", fn[r]
			out = 0
			for (i = 2; i <= ncol; i++) {
				if (!use[i])
					continue
				if (f[i] !~ /^(0x[0-9a-fA-F]+)?$/) {
					print "syscall-table.sh: " csv ": " fn[r] ": bad number \"" f[i] "\"" > "/dev/stderr"
					exit 1
				}
				printf "%s%s", out % 8 ? " " : "\n\t\t", f[i] == "" ? "NONE," : "0x" toupper(substr(f[i], 3)) ","
				out++
			}
			printf "\n\t} },\n"
		}
		printf "};\n"
	}'
}

x86=$(table x86 "$1") || exit 1
x64=$(table x64 "$2") || exit 1
cat <<EOF
/* SPDX-License-Identifier: MIT */
/* The system-call numbers of the catalog's functions (SPEC.md, System-call
 * numbers): data, generated by tools/syscall-table.sh from j00ru's public
 * tables, https://github.com/j00ru/windows-syscalls x86/csv/nt.csv and
 * x64/csv/nt.csv. Regenerate rather than edit. NONE: the system's table
 * has no such function. */
#include "syscall_table.h"

#define NONE NP_SYSCALL_NONE

EOF
printf '%s\n\n%s\n' "$x86" "$x64"
