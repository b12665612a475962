#!/usr/bin/awk -f
# SPDX-License-Identifier: MIT
# coverage-gate.awk -v root=DIR/ -v min_lines=P -v min_branches=P model.info
# Reads an lcov tracefile; prints one verdict line with the line and branch
# coverage, then, when a threshold is missed, every uncovered line
# (file:line: line not run) or untaken branch (file:line: branch B of block K
# not taken) of that kind, with paths relative to root. Exit 1 when a
# threshold is missed. Integer comparison: hit * 100 >= min * total.
# A tracefile with no line (DA:) records, or with no branch (BRDA:) records
# while a branch threshold is set, fails too: 0 of 0 would pass any
# threshold, and an extract that matched nothing or an lcov that dropped
# branch data would then look like full coverage.
/^SF:/ { file = substr($0, 4); if (index(file, root) == 1) file = substr(file, length(root) + 1) }
/^DA:/ {
	split(substr($0, 4), f, ",")
	lines++
	if (f[2] + 0 > 0) lines_hit++
	else missed_line[++nml] = file ":" f[1] ": line not run"
}
/^BRDA:/ {
	split(substr($0, 6), f, ",")
	branches++
	if (f[4] != "-" && f[4] + 0 > 0) branches_hit++
	else missed_branch[++nmb] = file ":" f[1] ": branch " f[3] " of block " f[2] " not taken"
}
function pct(hit, total) { return total ? sprintf("%.1f%%", 100 * hit / total) : "n/a" }
END {
	no_lines = lines + 0 == 0
	no_branches = branches + 0 == 0 && min_branches + 0 > 0
	lines_ok = !no_lines && lines_hit * 100 >= min_lines * lines
	branches_ok = !no_branches && branches_hit * 100 >= min_branches * branches
	printf "lines %s (%d of %d, need %s%%), branches %s (%d of %d, need %s%%): %s\n",
		pct(lines_hit, lines), lines_hit, lines, min_lines,
		pct(branches_hit, branches), branches_hit, branches, min_branches,
		lines_ok && branches_ok ? "gate passed" : "GATE FAILED"
	if (no_lines)
		print "coverage gate: the tracefile has no line records (DA:): nothing was measured; check that the build has --coverage, that the tests ran and that the extract of model/ matched its files"
	else if (!lines_ok) {
		printf "coverage gate: line coverage of model/ is below %s%%; %d line(s) never run:\n", min_lines, nml
		for (i = 1; i <= nml; i++) print "  " missed_line[i]
		print "coverage gate: add a vector or test that runs them (from SPEC.md's rule), or, for a line that truly cannot run, LCOV_EXCL_LINE with a comment saying why"
	}
	if (no_branches)
		print "coverage gate: the tracefile has no branch records (BRDA:): branch coverage was not measured; lcov 1.16 needs --rc lcov_branch_coverage=1"
	else if (!branches_ok) {
		printf "coverage gate: branch coverage of model/ is below %s%%; %d branch(es) never taken:\n", min_branches, nmb
		for (i = 1; i <= nmb; i++) print "  " missed_branch[i]
	}
	exit !(lines_ok && branches_ok)
}
