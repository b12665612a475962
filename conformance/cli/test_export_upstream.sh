#!/bin/sh
# SPDX-License-Identifier: MIT
# `ntprof export --upstream`: the selection of the interval, profile-object
# and system-information vectors that a Wine reviewer could take into
# dlls/ntdll/tests. It must
#   - stay within $limit lines (twin: the same check fails on the full export),
#     each line within $columns columns (twin: a comment made wider fails);
#   - cover each function's main rules and statuses: every pair (function,
#     rule) where the rule is in the function's block of SPEC.md's "Order of
#     checks", a step of a vector calls the function and the vector lists the
#     rule, and every pair (function, status) where such a step gives the
#     status on the newest Windows (ntprof matrix's last column), for the
#     vectors the full export writes, must be covered by a vector of the
#     selection. Worked out here from SPEC.md, the .vec files and the matrix
#     with awk, apart from the C that chose (twin: the selection less one
#     vector, and the check names the pair it no longer covers);
#   - build with x86_64 and i686 mingw-w64 at -O2 -Wall -Wextra -Werror
#     against the stand-in (conformance/win/);
#   - run under Wine as Windows 7 and 10, with each of Wine 8.0's known lists
#     alone and with both: 0 failures (a todo that succeeds counts as one);
#   - refuse a SPEC.md without the section it reads: exit 2, naming the
#     file, nothing written.
#
# Environment: NTPROF_BIN (the Linux ntprof of this tree), NTPROF_SOURCE_ROOT.
# Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
wine=$root/tools/wine.sh
dirs="$root/fixtures/interval $root/fixtures/profile $root/fixtures/sysinfo"
known7=$root/fixtures/known/wine-8.0.win7.known
known10=$root/fixtures/known/wine-8.0.win10.known

# The most lines the selection may have: 800, a file a reviewer reads whole.
# The emitter writes it in 799: a prelude (types, the exports' table, the
# one step runner nx_call, the loop) of 472 and one table (with START_TEST) of
# 327, whose rows are wrapped at 100 columns.
limit=800
# The widest line the file may have: a reviewer's file keeps to 100
# columns.
columns=100
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-export-upstream.XXXXXX") || exit 1
trap '"$wine" --stop; rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
. "$NTPROF_SOURCE_ROOT/conformance/cli/export_build.sh"

# export OUT [OPTION...]: the three folders exported to OUT; the counts
# (standard error) in OUT.err
export_to() {
	out=$1
	shift
	# shellcheck disable=SC2086 # $dirs is a list of paths without spaces
	"$NTPROF_BIN" export "$@" --output "$out" $dirs 2>"$out.err"
}

# ids FILE: the vectors an exported file runs, one per line (a test's row
# opens with its ID)
ids() {
	sed -n 's|^    { "\([^"]*/[^"]*\)", .*|\1|p' "$1"
}

# newest: "VECTOR FUNCTION OUTCOME" for each step, its outcome on the newest
# Windows (ntprof matrix's last column) for the 64-bit caller and for the
# 32-bit one (WOW64, or x86's last version where WOW64 has none)
newest() {
	for arch in x64 wow64 x86; do
		# shellcheck disable=SC2086 # $dirs is a list of paths without spaces
		"$NTPROF_BIN" matrix --format markdown --arch $arch $dirs 2>/dev/null |
			awk -F'|' -v arch=$arch '
			function first(cell,  w) { gsub(/`|≠/, "", cell); split(cell, w, " "); return w[1] == "" ? "-" : w[1] }
			/^\| `/ {
				last = "-"
				for (i = 6; i < NF; i++) { c = first($i); if (c != "-") last = c }
				if (arch != "x86") last = first($(NF - 1))
				v = $2; f = $4; gsub(/[` ]/, "", v); gsub(/[` ]/, "", f); sub(/^Zw/, "Nt", f)
				print arch, v, $3 + 0, f, last
			}'
	done | awk '{ key = $2 " " $3; cell[$1, key] = $5; fn[key] = $4 }
		END { for (k in fn) {
			split(k, vs, " ")
			print vs[1], fn[k], cell["x64", k]
			print vs[1], fn[k], (cell["wow64", k] != "-" ? cell["wow64", k] : cell["x86", k])
		} }' | awk '$3 ~ /^[A-Z][A-Z0-9_]+$/' | sort -u
}

# idpairs IDS: "VECTOR FUNCTION RULE" for each main rule of a function that
# a vector of IDS calls and lists, and "VECTOR FUNCTION OUTCOME" for each
# status or error such a call gives on the newest Windows; worked out once,
# so that the pairs of any subset are a filter of it
idpairs() {
	awk '
	FILENAME == ARGV[1] {
		if (/^## /) { inorder = /^## Order of checks/; next }
		if (!inorder) next
		if (/^\*\*/) {
			h = $0; sub(/^\*\*/, "", h); sub(/\*\*.*/, "", h)
			nf = 0; n = split(h, w, /[^A-Za-z0-9]+/)
			for (i = 1; i <= n; i++) if (w[i] ~ /^(Nt|Trace)[A-Za-z]+$/) { fn[++nf] = w[i]; hasblock[w[i]] = 1 }
		}
		line = $0
		while (match(line, /[A-Z][A-Z]-[0-9]+[a-z]?/)) {
			for (i = 1; i <= nf; i++) main[fn[i] " " substr(line, RSTART, RLENGTH)] = 1
			line = substr(line, RSTART + RLENGTH)
		}
		next
	}
	FILENAME == ARGV[2] { want[$1] = 1; next }
	FILENAME == ARGV[3] { if ($1 in want && $2 in hasblock) print $1, $2, $3; next }
	/^vector / { v = $2; nr = 0; ncall = 0 }
	/^  rules / { for (i = 2; i <= NF; i++) rule[++nr] = $i }
	/^  call / { f = $2; sub(/^Zw/, "Nt", f)
		for (i = 1; i <= nr; i++) if (v in want && (f " " rule[i]) in main) print v, f, rule[i] }
	' "$root/SPEC.md" "$1" "$tmp/newest" $(find $dirs -name '*.vec' | sort) | sort -u
}

# pairs IDS: "FUNCTION RULE-OR-OUTCOME" of the vectors of IDS, sorted
pairs() {
	awk 'FILENAME == ARGV[1] { want[$1] = 1; next } $1 in want { print $2, $3 }' "$1" "$tmp/id.pairs" | sort -u
}

# missing FULL_IDS SELECTED_IDS: the pairs the first covers and the second does not
missing() {
	pairs "$1" >"$tmp/need.pairs"
	pairs "$2" >"$tmp/have.pairs"
	comm -23 "$tmp/need.pairs" "$tmp/have.pairs"
}

echo "1..11"

# ---- size ---------------------------------------------------------------------
export_to "$tmp/up.c" --upstream --known "$known10" --known "$known7"
rc=$?
export_to "$tmp/full.c" --known "$known10" --known "$known7"
lines=$(wc -l <"$tmp/up.c" 2>/dev/null || echo none)
full=$(wc -l <"$tmp/full.c" 2>/dev/null || echo none)
if [ $rc -eq 0 ] && [ "$lines" -le "$limit" ] 2>/dev/null; then
	ok "--upstream: $lines lines, at most $limit ($(grep -h 'upstream\|ok()' "$tmp/up.c.err" | sed 's/^ntprof: export: //' | tr '\n' ' '))"
else
	not_ok "--upstream: at most $limit lines" "exit $rc, $lines lines" "$(cat "$tmp/up.c.err")"
fi
if [ "$full" -gt "$limit" ] 2>/dev/null; then
	ok "twin: the same limit fails on the full export ($full lines)"
else
	not_ok "twin: the same limit fails on the full export" "$full lines"
fi
# wider FILE: the lines of FILE wider than $columns columns, as "LINE: WIDTH"
wider() {
	awk -v c="$columns" 'length($0) > c { print FNR ": " length($0) }' "$1"
}
sed '0,/^    \/\* /s/^\(    \/\* .*\) \*\/$/\1 (a planted remark that makes this comment wider than the file allows) *\//' \
	"$tmp/up.c" >"$tmp/wide.c"
if [ -s "$tmp/up.c" ] && [ -z "$(wider "$tmp/up.c")" ] && ! cmp -s "$tmp/up.c" "$tmp/wide.c" && [ -n "$(wider "$tmp/wide.c")" ]; then
	ok "no line is wider than $columns columns (twin: a comment made wider is caught at line $(wider "$tmp/wide.c" | head -1))"
else
	not_ok "no line is wider than $columns columns (and a wider one is caught)" "$(wider "$tmp/up.c" | head -5)"
fi

# ---- coverage -------------------------------------------------------------------
newest >"$tmp/newest"
ids "$tmp/full.c" >"$tmp/full.ids"
ids "$tmp/up.c" >"$tmp/up.ids"
idpairs "$tmp/full.ids" >"$tmp/id.pairs"
missing "$tmp/full.ids" "$tmp/up.ids" >"$tmp/missing"
need=$(wc -l <"$tmp/need.pairs")
if [ "$need" -gt 0 ] && [ ! -s "$tmp/missing" ] && [ -s "$tmp/up.ids" ] &&
	[ "$(wc -l <"$tmp/up.ids")" -lt "$(wc -l <"$tmp/full.ids")" ]; then
	ok "it covers all $need (function, main rule or newest status) pairs of the full export's $(wc -l <"$tmp/full.ids") vectors with $(wc -l <"$tmp/up.ids")"
else
	not_ok "it covers every (function, main rule or newest status) pair of the full export" "$need pairs, not covered:" "$(cat "$tmp/missing")"
fi
# twin: less the first vector without which a pair goes uncovered; the check
# names that pair, a rule the dropped vector lists
dropped= named=
while read -r id; do
	grep -vxF "$id" "$tmp/up.ids" >"$tmp/less.ids"
	if missing "$tmp/full.ids" "$tmp/less.ids" >"$tmp/less.missing" && [ -s "$tmp/less.missing" ]; then
		dropped=$id
		named=$(head -1 "$tmp/less.missing")
		break
	fi
done <"$tmp/up.ids"
rules_of_dropped="$(awk -v id="$dropped" '/^vector /{v=$2} v == id && /^  rules /{$1=""; print}' $(find $dirs -name '*.vec')) $(awk -v id="$dropped" '$1 == id {print $3}' "$tmp/newest" | tr '\n' ' ')"
if [ -n "$dropped" ] && echo " $rules_of_dropped " | grep -q " ${named#* } "; then
	ok "twin: without $dropped the coverage check names what is missing, a rule or status of it: $(tr '\n' ';' <"$tmp/less.missing")"
else
	not_ok "twin: the selection less one vector fails the coverage check, naming the rule" \
		"dropped: ${dropped:-none}; named: ${named:-nothing}; its rules: $rules_of_dropped"
fi

# ---- builds and runs under Wine ----------------------------------------------
if build x86_64-w64-mingw32-gcc "$tmp/up.c" "$tmp/both.exe" && build i686-w64-mingw32-gcc "$tmp/up.c" "$tmp/both32.exe"; then
	ok "it builds with x86_64- and i686-w64-mingw32-gcc -O2 -Wall -Wextra -Werror"
else
	not_ok "it builds with x86_64- and i686-w64-mingw32-gcc -O2 -Wall -Wextra -Werror" "$(head -5 "$tmp/cc.err")"
fi
export_to "$tmp/win10.c" --upstream --known "$known10"
export_to "$tmp/win7.c" --upstream --known "$known7"
# the lists change checks, not the selection: each file runs the same vectors
if ids "$tmp/win10.c" | cmp -s - "$tmp/up.ids" && ids "$tmp/win7.c" | cmp -s - "$tmp/up.ids"; then
	ok "each known list alone selects the same $(wc -l <"$tmp/up.ids") vectors"
else
	not_ok "each known list alone selects the same vectors" "$(ids "$tmp/win10.c" | diff - "$tmp/up.ids" | head -5)"
fi
for lists in both win10 win7; do
	c=$tmp/$lists.c with="the $lists list alone"
	[ $lists = both ] && c=$tmp/up.c with="both lists"
	# (i686 builds the file with both lists above: a list changes checks,
	# not the code's shape, and the script's time limit is short)
	if [ $lists != both ] && ! build x86_64-w64-mingw32-gcc "$c" "$tmp/$lists.exe"; then
		not_ok "with $with: it builds" "$(head -5 "$tmp/cc.err")"
		continue
	fi
	rc=0 said=
	for mode in win7 win10; do
		"$wine" "$mode" "$tmp/$lists.exe" >"$tmp/$lists.$mode.out" 2>/dev/null || rc=1
		line=$(summary "$tmp/$lists.$mode.out")
		echo "$line" | grep -q '(.* 0 failures)' || rc=1
		grep -q 'succeeded inside todo block' "$tmp/$lists.$mode.out" && rc=1
		said="$said $mode: $line"
	done
	if [ $rc -eq 0 ]; then
		ok "with $with, under Wine:$said"
	else
		not_ok "with $with, under Wine as win7 and win10: 0 failures, no todo succeeds" "$said"
		grep -h 'Test failed\|succeeded inside' "$tmp/$lists.win7.out" "$tmp/$lists.win10.out" | show /dev/stdin
	fi
done

# ---- bad input ----------------------------------------------------------------
mkdir -p "$tmp/tree"
cp -r "$root/fixtures" "$tmp/tree/"
sed 's/^## Order of checks/## Checks, unordered/' "$root/SPEC.md" >"$tmp/tree/SPEC.md"
"$NTPROF_BIN" export --upstream --root "$tmp/tree" --output "$tmp/bad.c" 2>"$tmp/bad.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/bad.c" ] && grep -q "tree/SPEC.md: no \"## Order of checks\" section" "$tmp/bad.err"; then
	ok "a SPEC.md without its Order of checks is refused (exit 2, naming it, nothing written)"
else
	not_ok "a SPEC.md without its Order of checks is refused" "exit $rc: $(cat "$tmp/bad.err")"
fi

[ "$failed" -eq 0 ]
