#!/bin/sh
# SPDX-License-Identifier: MIT
# The manual pages, man/ntprof.1 and man/ntprof-vectors.5: lint-clean under
# mandoc -T lint (every message but the cross-reference of the two pages to
# each other, which mandoc looks for among the installed manuals) and under
# groff -ww -z; ntprof.1 names every command of harness/cli/commands.c and
# every option of the commands' tables (harness/cli/cmd_*.c, run_shared.c);
# run and live spell --format as the table of report formats lists them
# (harness/include/ntprof/report_formats.h), each format with its entry.
# Fail twins: a page with a mandoc error, an option no page names, a format
# the table gains and a --format line that lost one are caught.
#
# Environment: NTPROF_SOURCE_ROOT (the repository); needs mandoc and groff.
# Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# lint PAGE: mandoc's messages but the two pages' references to each other.
lint() {
	mandoc -T lint "$1" 2>&1 | grep -v -e 'referenced manual not found: Xr ntprof 1' \
		-e 'referenced manual not found: Xr ntprof-vectors 5'
}

# The options and commands the page must name: each table row's "--name"
# and the commands' .name = "...".
options() {
	sed -n 's/^[[:space:]]*{ "\(--[a-z-]*\)".*/\1/p' "$root"/harness/cli/cmd_*.c \
		"$root/harness/cli/run_shared.c" | sort -u
}
commands() {
	sed -n 's/^[[:space:]]*\.name = "\([a-z]*\)".*/\1/p' "$root"/harness/cli/cmd_*.c \
		"$root/harness/cli/commands.c" | sort -u
}
# unnamed PAGE: the options and commands PAGE does not name (as mandoc prints it).
unnamed() {
	mandoc -T ascii "$1" | col -b >"$tmp/page.txt"
	for o in $(options); do
		grep -q -e "$o\\b" "$tmp/page.txt" || echo "option $o"
	done
	for c in $(commands); do
		grep -q -e "ntprof $c\\b" "$tmp/page.txt" || echo "command $c"
	done
}

# The report formats of TABLE, in its order, one a line.
formats() {
	sed -n 's/^[[:space:]]*\(FIRST\|OTHER\)([A-Z0-9_]*, *"\([a-z0-9-]*\)".*/\2/p' "$1"
}
# format_drift PAGE TABLE: where PAGE's run and live spell --format otherwise
# than TABLE lists the formats, and the formats PAGE gives no entry
# (".It Cm NAME").
format_drift() {
	want=$(formats "$2" | paste -sd'|' | sed 's/|/ | /g')
	awk -v want="$want" '
		/^\.Cm [a-z]+$/ { cmd = $2 }
		/^\.It Cm [a-z]+$/ { cmd = $3 }
		(cmd == "run" || cmd == "live") && /^\.(Op|It) Fl -format Cm / {
			n++
			spelled = $0
			sub(/^\.(Op|It) Fl -format Cm /, "", spelled)
			if (spelled != want)
				print "line " NR ": " cmd " --format " spelled ", not " want
		}
		END { if (n < 3) print "run and live spell --format " n " times, not 3 or more" }' "$1"
	for f in $(formats "$2"); do
		grep -q -x -e ".It Cm $f" "$1" || echo "no entry .It Cm $f"
	done
}

echo "1..10"

for page in man/ntprof.1 man/ntprof-vectors.5; do
	out=$(lint "$root/$page")
	check "mandoc -T lint $page" "${out:-ok}"
	out=$(groff -ww -z -mdoc "$root/$page" 2>&1)
	check "groff -ww -z $page" "${out:-ok}"
done

nopt=$(options | wc -l)
ncmd=$(commands | wc -l)
out=$(unnamed "$root/man/ntprof.1")
if [ "$nopt" -ge 20 ] && [ "$ncmd" -ge 9 ]; then
	check "ntprof.1 names all $ncmd commands and $nopt options" "${out:-ok}"
else
	check "ntprof.1 names all $ncmd commands and $nopt options" "too few found: the tables moved?"
fi

table=$root/harness/include/ntprof/report_formats.h
nfmt=$(formats "$table" | wc -l)
out=$(format_drift "$root/man/ntprof.1" "$table")
if [ "$nfmt" -ge 4 ]; then
	check "ntprof.1: run and live spell the $nfmt report formats of the table, each with its entry" "${out:-ok}"
else
	check "ntprof.1: run and live spell the report formats of the table" "only $nfmt found: the table moved?"
fi

# Fail twins: a broken page, an option the page lacks, a format the table
# gains and a --format line that lost one.
sed 's/^\.Sh DESCRIPTION$/.Bl -tag\n&/' "$root/man/ntprof.1" >"$tmp/broken.1"
out=$(lint "$tmp/broken.1")
check "a page with a mandoc error is caught" "$([ -n "$out" ] && echo ok || echo 'not caught')"
grep -v -e 'known-write' "$root/man/ntprof.1" >"$tmp/lacking.1"
out=$(unnamed "$tmp/lacking.1")
check "an option the page does not name is caught" \
	"$(case $out in *'option --known-write'*) echo ok ;; *) echo "not caught: $out" ;; esac)"

awk '{ line[NR] = $0 } /^[[:space:]]*OTHER\(/ { last = NR }
	END { for (i = 1; i <= NR; i++) { print line[i]; if (i == last) print "\tOTHER(ZZZ, \"zzz\", np_report_zzz, \"a twin\")" } }' \
	"$table" >"$tmp/formats.h"
out=$(format_drift "$root/man/ntprof.1" "$tmp/formats.h")
check "a format the table gains and the page lacks is caught" \
	"$(case $out in *'live --format '*', not '*' | zzz'*'no entry .It Cm zzz'*) echo ok ;;
		*) echo "not caught: $out" ;; esac)"
sed '/^\.Cm live$/,/Fl -format/s/ | [a-z0-9-]*$//' "$root/man/ntprof.1" >"$tmp/stale.1"
out=$(format_drift "$tmp/stale.1" "$table")
check "a --format line that lost a format is caught" \
	"$(case $out in *'live --format '*', not '*) echo ok ;; *) echo "not caught: $out" ;; esac)"

[ "$failed" -eq 0 ] || exit 1
exit 0
