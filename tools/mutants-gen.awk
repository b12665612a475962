# SPDX-License-Identifier: MIT
# mutants-gen.awk: the mutants of one model source file, for tools/mutants.sh.
#
# POSIX awk (Debian's mawk is Priority: required, so it is on every Debian 12;
# python3 is not a dependency of the project). One file per run:
#
#   awk -v versions="NP_V3_10 NP_V3_50 ..." -f mutants-gen.awk model/x.c
#       lists the mutants: ORDINAL <TAB> LINE <TAB> ANCHOR <TAB> KIND <TAB> MUTATION
#   awk -v versions="..." -v want=ORDINAL -f mutants-gen.awk model/x.c
#       prints the file with mutant ORDINAL applied (nothing else changes)
#
# The enumeration is a pure function of the file's text, so the same ORDINAL
# always names the same mutant of the same text. ANCHOR is a hash of the
# mutated line's text, its blanks trimmed and runs of them made one space
# (the first line of a check for drop and swap): tools/mutants.sh keys a
# mutant by it rather than by LINE, so that an edit elsewhere in the file
# leaves the mutant's ID as it was. A mutation's text names no line either.
# Kinds:
#   cmp    flip a comparison: < <=, > >=, == != (operators written with a
#          space on each side, outside comments, strings and #lines)
#   ver    a version threshold moved to the previous or next key of the
#          ordered table (predicates.h, the knobs' version defaults
#          in knobs.h, and every NP_Vx of a .c file but versions.c)
#   bound  a literal, or an upper-case constant on the right of < <= > >=,
#          off by one: (X + 1), (X - 1)
#   drop   a check removed: `if (C) return ...;` becomes `if (0 && (C))`
#   swap   two adjacent checks (if ... return) of one sequence exchanged

# Comments, strings and character literals blanked to spaces, same length,
# so that columns in the blanked text are columns in the source.
function blank(s,    out, i, n, c, d) {
	out = ""
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		d = substr(s, i, 2)
		if (in_comment) {
			if (d == "*/") { in_comment = 0; out = out "  "; i++ }
			else out = out " "
		} else if (d == "/*") {
			in_comment = 1; out = out "  "; i++
		} else if (d == "//") {
			while (i <= n) { out = out " "; i++ }
		} else if (c == "\"" || c == "'") {
			out = out " "
			for (i++; i <= n && substr(s, i, 1) != c; i++) {
				if (substr(s, i, 1) == "\\") { out = out " "; i++ }
				out = out " "
			}
			out = out " "
		} else {
			out = out c
		}
	}
	return out
}

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

# The anchor of a line: a polynomial hash of its normalised text, modulo the
# prime 2^31 - 1 (every product stays below 2^53, exact in awk's doubles),
# as eight hexadecimal digits.
function anchor(s,    h, i, n) {
	s = trim(s); gsub(/[ \t]+/, " ", s)
	h = 0
	n = length(s)
	for (i = 1; i <= n; i++)
		h = (h * 257 + ord[substr(s, i, 1)]) % 2147483647
	return sprintf("%08x", h)
}

# A mutant: its line, kind, description and edits (line -> new text).
function new_mutant(line, kind, desc) {
	nm++
	m_line[nm] = line; m_kind[nm] = kind; m_desc[nm] = desc; m_n[nm] = 0
	return nm
}
function edit(k, line, text) { m_n[k]++; m_el[k, m_n[k]] = line; m_et[k, m_n[k]] = text }
function replace_at(s, col, len, by) { return substr(s, 1, col - 1) by substr(s, col + len) }

function is_version(tok) { return tok in vindex }

{ src[NR] = $0; code[NR] = blank($0) }

END {
	n = NR
	for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i
	split(versions, vlist, " ")
	for (i = 1; vlist[i] != ""; i++) { vindex[vlist[i]] = i; nvers = i }
	# the predicates, and the default versions of the knobs (K-FIX-1703,
	# K-INCLUSIVE-END), which np_machine_init takes from knobs.h
	is_rules = FILENAME ~ /(predicates|knobs)\.h$/
	# every version named in a .c file is a threshold (the export table, the
	# sub-class table of class 0x1F, the processor limit), except in
	# versions.c, where NP_Vx indexes the table of names and builds rather
	# than comparing with anything
	is_table = FILENAME ~ /\.c$/ && FILENAME !~ /(^|\/)versions\.c$/

	for (i = 1; i <= n; i++) {
		c = code[i]
		if (c ~ /^[ \t]*#/)
			continue
		# cmp and bound
		len = length(c)
		for (p = 1; p < len; p++) {
			if (substr(c, p, 1) != " ")
				continue
			op = ""
			two = substr(c, p + 1, 3)
			if (two == "<= " || two == ">= " || two == "== " || two == "!= ")
				op = substr(two, 1, 2)
			else if (substr(c, p + 1, 2) == "< " || substr(c, p + 1, 2) == "> ")
				op = substr(c, p + 1, 1)
			if (op == "")
				continue
			flip = op == "<" ? "<=" : op == "<=" ? "<" : op == ">" ? ">=" : op == ">=" ? ">" : op == "==" ? "!=" : "=="
			k = new_mutant(i, "cmp", "'" op "' -> '" flip "'")
			edit(k, i, replace_at(src[i], p + 1, length(op), flip))
			# the right operand
			at = p + 1 + length(op) + 1
			rest = substr(c, at)
			if (match(rest, /^(0[xX][0-9A-Fa-f]+|[0-9]+)[uUlL]*/)) {
				lit = substr(rest, 1, RLENGTH)
				k = new_mutant(i, "bound", lit " -> (" lit " + 1)")
				edit(k, i, replace_at(src[i], at, RLENGTH, "(" lit " + 1)"))
				if (lit !~ /^(0[xX])?0+[uUlL]*$/) {
					k = new_mutant(i, "bound", lit " -> (" lit " - 1)")
					edit(k, i, replace_at(src[i], at, RLENGTH, "(" lit " - 1)"))
				}
			} else if (op != "==" && op != "!=" && match(rest, /^[A-Z][A-Z0-9_]*/) &&
				   !is_version(substr(rest, 1, RLENGTH))) {
				id = substr(rest, 1, RLENGTH)
				k = new_mutant(i, "bound", id " -> (" id " + 1)")
				edit(k, i, replace_at(src[i], at, RLENGTH, "(" id " + 1)"))
				k = new_mutant(i, "bound", id " -> (" id " - 1)")
				edit(k, i, replace_at(src[i], at, RLENGTH, "(" id " - 1)"))
			}
			p += length(op)
		}
		# ver: thresholds in predicates.h and the model's tables
		if (is_rules || is_table) {
			rest = c; base = 0
			while (match(rest, /NP_V[0-9A-Za-z_]+/)) {
				tok = substr(rest, RSTART, RLENGTH)
				col = base + RSTART
				if (is_version(tok)) {
					v = vindex[tok]
					if (v > 1) {
						k = new_mutant(i, "ver", tok " -> " vlist[v - 1])
						edit(k, i, replace_at(src[i], col, RLENGTH, vlist[v - 1]))
					}
					if (v < nvers) {
						k = new_mutant(i, "ver", tok " -> " vlist[v + 1])
						edit(k, i, replace_at(src[i], col, RLENGTH, vlist[v + 1]))
					}
				}
				base += RSTART + RLENGTH - 1
				rest = substr(rest, RSTART + RLENGTH)
			}
		}
	}

	# checks: `if (C)` (C may span lines) followed by one `return ...;`
	nc = 0
	for (i = 1; i <= n; i++) {
		if (code[i] !~ /^[ \t]*if \(/)
			continue
		col = index(code[i], "if (") + 3
		depth = 0; e = 0; ecol = 0
		for (j = i; j <= n && !e; j++) {
			from = j == i ? col : 1
			for (q = from; q <= length(code[j]); q++) {
				ch = substr(code[j], q, 1)
				if (ch == "(") depth++
				else if (ch == ")" && --depth == 0) { e = j; ecol = q; break }
			}
		}
		if (!e)
			continue
		after = trim(substr(code[e], ecol + 1))
		if (after ~ /^return[ ;(]/ && after ~ /;$/) {
			last = e
		} else if (after == "" && trim(code[e + 1]) ~ /^return[ ;(]/) {
			for (last = e + 1; last <= n && trim(code[last]) !~ /;$/; last++)
				;
		} else {
			continue
		}
		cond = trim(src[i]); sub(/^if /, "", cond); sub(/[ \t]*\/\*.*$/, "", cond)
		if (e > i) cond = cond " ..."
		if (length(cond) > 60) cond = substr(cond, 1, 57) "..."
		gsub(/\t/, " ", cond)
		k = new_mutant(i, "drop", "drop check: if " cond)
		if (e == i) {
			t = replace_at(src[i], ecol, 1, "))")
			edit(k, i, replace_at(t, col, 1, "(0 && ("))
		} else {
			edit(k, i, replace_at(src[i], col, 1, "(0 && ("))
			edit(k, e, replace_at(src[e], ecol, 1, "))"))
		}
		nc++
		c_start[nc] = i; c_end[nc] = last
		pv = i - 1
		while (pv > 0 && trim(code[pv]) == "") pv--
		# a check that is itself the body of an if/else/loop cannot move
		c_body[nc] = pv > 0 && trim(code[pv]) ~ /(\)|else)$/
		c_indent[nc] = src[i]; sub(/[^ \t].*$/, "", c_indent[nc])
		c_label[nc] = cond
		i = last
	}
	for (k2 = 1; k2 < nc; k2++) {
		a1 = c_start[k2]; a2 = c_end[k2]; b1 = c_start[k2 + 1]; b2 = c_end[k2 + 1]
		if (b1 != a2 + 1 || c_body[k2] || c_indent[k2] != c_indent[k2 + 1])
			continue
		if (trim(code[b2 + 1]) ~ /^else/)
			continue
		k = new_mutant(a1, "swap", "swap checks: if " c_label[k2] " <-> if " c_label[k2 + 1])
		t = a1
		for (j = b1; j <= b2; j++) edit(k, t++, src[j])
		for (j = a1; j <= a2; j++) edit(k, t++, src[j])
	}

	if (want == "") {
		for (k = 1; k <= nm; k++)
			printf "%d\t%d\t%s\t%s\t%s\n", k, m_line[k], anchor(src[m_line[k]]), m_kind[k], m_desc[k]
		exit 0
	}
	if (want < 1 || want > nm) {
		print FILENAME ": no mutant " want > "/dev/stderr"
		exit 2
	}
	for (j = 1; j <= m_n[want]; j++) src[m_el[want, j]] = m_et[want, j]
	for (i = 1; i <= n; i++) print src[i]
}
