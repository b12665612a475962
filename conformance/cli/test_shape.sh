#!/bin/sh
# SPDX-License-Identifier: MIT
# The shape of the sources: small files, short functions, no include circles.
#   - no .c or .h file under harness/ or model/ over 600 lines;
#   - no function body over 80 lines, counted from a `{` at column 0 to the
#     next `}` at column 0, both lines included;
#   - no circle of `#include "..."` among harness/ sources. A name is looked
#     up in the including file's folder, then in harness/, harness/include/
#     and model/include/. A .c file and the .h of the same name in the same
#     folder are one unit (a.c including b.h while b.c includes a.h is a
#     circle); a public header of harness/include/ is a unit of its own, so
#     that a folder's internal header may include its public one.
# conformance/data/shape-exceptions.txt lists files let off the size limits
# for now, a path and the reason per line; a listed file that keeps to the
# limits, or no longer exists, is reported too, so that the list cannot go
# stale. Problems are printed as FILE:LINE: WHAT.
#
# Twins on a copy of harness/ and model/ prove each check can fail: a file of
# 601 lines, a function of 81 lines, a two-unit include circle and a stale
# exception must each be reported, and a file of 600 lines, a function of 80
# lines and a listed long file must not.
#
# Environment: NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-shape.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

MAX_FILE_LINES=600
MAX_FUNCTION_LINES=80
EXCEPTIONS=conformance/data/shape-exceptions.txt

# The check: reads the paths of the sources (relative to the tree) on stdin.
# shellcheck disable=SC2016 # the program is awk's: its $ are not the shell's
SHAPE_AWK='
function problem(text) { print text; problems++ }

function exists(path,    line, r) {
	r = (getline line < path)
	close(path)
	return r >= 0
}

# A limit broken at file:line; a listed file is let off, and noted as still
# needing its exception.
function limit(file, line, what) {
	if (file in listed)
		breaks[file] = 1
	else
		problem(file ":" line ": " what)
}

function function_name(signature,    s) {
	s = signature
	sub(/\(.*/, "", s)
	if (match(s, /[A-Za-z_][A-Za-z_0-9]*[ \t]*$/)) {
		s = substr(s, RSTART, RLENGTH)
		sub(/[ \t]+$/, "", s)
		return "function " s
	}
	return "a function"
}

function unit(path) { sub(/\.[ch]$/, "", path); return path }

# The file an #include "name" of file means, or "" when none is found.
function resolve(file, name,    dir, i, n, candidate) {
	dir = file
	sub(/\/[^\/]*$/, "", dir)
	n = split(dir "/" name "|harness/" name "|harness/include/" name "|model/include/" name, candidate, "|")
	for (i = 1; i <= n; i++)
		if (exists(tree "/" candidate[i]))
			return candidate[i]
	return ""
}

function add_edge(from, to, loc, name,    u, v) {
	u = unit(from)
	v = unit(to)
	if (u == v || ((u, v) in edge))
		return
	edge[u, v] = 1
	if (!(u in nout)) {
		nout[u] = 0
		nodes[++nnodes] = u
	}
	nout[u]++
	out[u, nout[u]] = v
	where[u, nout[u]] = loc
	included[u, nout[u]] = name
}

function scan(file,    path, line, n, open, signature, name, target) {
	path = tree "/" file
	n = 0
	open = 0
	signature = ""
	while ((getline line < path) > 0) {
		n++
		if (line ~ /^[A-Za-z_]/ && index(line, "("))
			signature = line
		if (line ~ /^\{/ && !open)
			open = n
		else if (line ~ /^\}/ && open) {
			if (n - open + 1 > max_function)
				limit(file, open, function_name(signature) " is " (n - open + 1) \
				      " lines, over " max_function)
			open = 0
		}
		if (file ~ /^harness\// && line ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
			name = line
			sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", name)
			sub(/".*/, "", name)
			target = resolve(file, name)
			if (target ~ /^harness\//)
				add_edge(file, target, file ":" n, name)
		}
	}
	close(path)
	if (n > max_file)
		limit(file, max_file + 1, n " lines, over " max_file)
}

# Depth first from u; a unit met again while still on the path closes a
# circle, reported at its first include, each include with its file:line.
function visit(u,    i, k, v, text) {
	state[u] = 1
	path_unit[++depth] = u
	for (i = 1; i <= nout[u]; i++) {
		v = out[u, i]
		path_edge[depth] = i
		if (state[v] == 1) {
			for (k = depth; path_unit[k] != v; k--)
				;
			text = where[path_unit[k], path_edge[k]] ": an include circle: "
			for (; k <= depth; k++)
				text = text (path_unit[k] == v ? "" : ", ") where[path_unit[k], path_edge[k]] \
				       " includes \"" included[path_unit[k], path_edge[k]] "\""
			problem(text)
		} else if (!state[v])
			visit(v)
	}
	depth--
	state[u] = 2
}

BEGIN {
	while ((getline line < (tree "/" exceptions)) > 0) {
		lineno++
		if (line ~ /^[ \t]*(#|$)/)
			continue
		file = line
		sub(/[ \t].*/, "", file)
		reason = line
		sub(/^[^ \t]*[ \t]*/, "", reason)
		listed[file] = exceptions ":" lineno
		if (reason == "")
			problem(exceptions ":" lineno ": " file " is listed without a reason")
	}
	close(tree "/" exceptions)
}

{
	scanned[$0] = 1
	scan($0)
}

END {
	for (i = 1; i <= nnodes; i++)
		if (!state[nodes[i]])
			visit(nodes[i])
	for (file in listed)
		if (!(file in scanned))
			problem(listed[file] ": " file " is listed, but there is no such source")
		else if (!(file in breaks))
			problem(listed[file] ": " file " keeps to the limits now: take it off the list")
	exit problems > 0
}
'

# shape DIR: the check on the tree at DIR; its problems in $tmp/shape.out, $rc.
shape() {
	(cd "$1" && find harness model -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort) |
		LC_ALL=C awk -v tree="$1" -v exceptions="$EXCEPTIONS" -v max_file="$MAX_FILE_LINES" \
			-v max_function="$MAX_FUNCTION_LINES" "$SHAPE_AWK" >"$tmp/shape.out" 2>&1
	rc=$?
}

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

failure_detail() {   # the check's exit status and output, after a failure
	echo "#   exit status: $rc"
	sed 's/^/#   | /' "$tmp/shape.out"
}

# ---- the real tree ----

shape "$root"
if [ "$rc" -ne 0 ] || [ -s "$tmp/shape.out" ]; then
	not_ok "harness/ and model/ keep to the limits and have no include circle" "want no problems, exit 0"
else
	ok "harness/ and model/ keep to the limits and have no include circle"
fi

# ---- twins on a copy ----

fresh_copy() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/conformance/data" &&
		cp -R "$root/harness" "$root/model" "$tmp/tree/" &&
		cp "$root/$EXCEPTIONS" "$tmp/tree/$EXCEPTIONS"
}

if ! fresh_copy; then
	echo "Bail out! cannot copy the tree to $tmp/tree"
	exit 1
fi
shape "$tmp/tree"
if [ "$rc" -ne 0 ] || [ -s "$tmp/shape.out" ]; then
	not_ok "the copied tree checks like the source tree" "want no problems, exit 0"
else
	ok "the copied tree checks like the source tree"
fi

lines() { # lines N: N numbered comment lines
	awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf "/* line %d */\n", i }'
}

function_of() { # function_of NAME N: a C function whose body is N lines long
	printf 'int %s(void);\n\nint %s(void)\n{\n' "$1" "$1"
	lines $(($2 - 3))
	printf '\treturn 0;\n}\n'
}

# twin DESCRIPTION LINE: the check must exit 1 and report exactly LINE.
twin() {
	if [ "$rc" -ne 1 ]; then
		not_ok "$1" "want exit status 1"
	elif [ "$(cat "$tmp/shape.out")" != "$2" ]; then
		not_ok "$1" "want only the line: $2"
	else
		ok "$1"
	fi
}

# no_problem DESCRIPTION: the check must pass.
no_problem() {
	if [ "$rc" -ne 0 ] || [ -s "$tmp/shape.out" ]; then
		not_ok "$1" "want no problems, exit 0"
	else
		ok "$1"
	fi
}

# 1. File size.
mkdir "$tmp/tree/harness/zz"
lines 600 >"$tmp/tree/harness/zz/zz_long.c"
shape "$tmp/tree"
no_problem "a file of 600 lines is within the limit"
echo '/* one more */' >>"$tmp/tree/harness/zz/zz_long.c"
shape "$tmp/tree"
twin "a file of 601 lines is reported" "harness/zz/zz_long.c:601: 601 lines, over 600"
rm "$tmp/tree/harness/zz/zz_long.c"
lines 601 >"$tmp/tree/model/zz_long.h"
shape "$tmp/tree"
twin "a model header of 601 lines is reported" "model/zz_long.h:601: 601 lines, over 600"
rm "$tmp/tree/model/zz_long.h"

# 2. Function length.
function_of zz_short 80 >"$tmp/tree/harness/zz/zz_function.c"
shape "$tmp/tree"
no_problem "a function body of 80 lines is within the limit"
function_of zz_long 81 >"$tmp/tree/harness/zz/zz_function.c"
shape "$tmp/tree"
twin "a function body of 81 lines is reported" \
	"harness/zz/zz_function.c:4: function zz_long is 81 lines, over 80"
rm "$tmp/tree/harness/zz/zz_function.c"

# 3. An include circle of two units: zz_a.c includes zz_b.h (by its path
# under harness/), zz_b.c includes zz_a.h (from its own folder).
printf '#include "zz/zz_b.h"\n' >"$tmp/tree/harness/zz/zz_a.c"
printf '/* a */\n' >"$tmp/tree/harness/zz/zz_a.h"
printf '/* b */\n\n#include "zz_b.h"\n' >"$tmp/tree/harness/zz/zz_b.c"
printf '/* b */\n' >"$tmp/tree/harness/zz/zz_b.h"
shape "$tmp/tree"
no_problem "includes of two units one way only are no circle"
printf '/* b */\n\n#include "zz_a.h"\n' >"$tmp/tree/harness/zz/zz_b.c"
shape "$tmp/tree"
twin "an include circle of two units is reported" \
	"harness/zz/zz_a.c:1: an include circle: harness/zz/zz_a.c:1 includes \"zz/zz_b.h\", harness/zz/zz_b.c:3 includes \"zz_a.h\""
rm -r "$tmp/tree/harness/zz"

# 4. The exceptions: a listed long file is let off; a listed file within
# the limits, a listed file that does not exist and a listing without a
# reason are reported.
mkdir "$tmp/tree/harness/zz"
lines 601 >"$tmp/tree/harness/zz/zz_long.c"
printf 'harness/zz/zz_long.c  a twin of test_shape.sh\n' >>"$tmp/tree/$EXCEPTIONS"
shape "$tmp/tree"
no_problem "a file listed in the exceptions is let off"
entry=$(wc -l <"$tmp/tree/$EXCEPTIONS" | tr -d ' ')
lines 600 >"$tmp/tree/harness/zz/zz_long.c"
shape "$tmp/tree"
twin "a listed file within the limits is reported" \
	"$EXCEPTIONS:$entry: harness/zz/zz_long.c keeps to the limits now: take it off the list"
rm "$tmp/tree/harness/zz/zz_long.c"
shape "$tmp/tree"
twin "a listed file that does not exist is reported" \
	"$EXCEPTIONS:$entry: harness/zz/zz_long.c is listed, but there is no such source"
fresh_copy
mkdir "$tmp/tree/harness/zz"
lines 601 >"$tmp/tree/harness/zz/zz_long.c"
printf 'harness/zz/zz_long.c\n' >>"$tmp/tree/$EXCEPTIONS"
entry=$(wc -l <"$tmp/tree/$EXCEPTIONS" | tr -d ' ')
shape "$tmp/tree"
twin "a listing without a reason is reported" \
	"$EXCEPTIONS:$entry: harness/zz/zz_long.c is listed without a reason"

echo "1..$n"
if [ "$failed" -ne 0 ]; then
	echo "# $failed of $n checks failed" >&2
	exit 1
fi
exit 0
