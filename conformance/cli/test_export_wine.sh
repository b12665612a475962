#!/bin/sh
# SPDX-License-Identifier: MIT
# `ntprof export --format wine` for real: the interval, profile-object and
# system-information vectors exported with Wine 8.0's known lists as
# todo_wine, the text make export-test compiled with x86_64-w64-mingw32-gcc
# -O2 -Wall -Wextra -Werror against conformance/win/wine_test_shim.h (and
# with i686-w64-mingw32-gcc, which builds but cannot run here: no wine32;
# this script checks the text is its own and the flags those), that build's
# x86_64 exe run under Wine as Windows 7 and
# as Windows 10 (tools/wine.sh): every ok() passes and every todo_wine
# fails as expected (0 failures, which counts a todo that succeeds, and
# some todos run), and no line silenced (each step's messages are reported
# at its row's line). The same with --hal-dependent (the model's default
# HAL), as Windows 10. Twins, each of which the checks must catch under Wine:
#   - the loop's messages reported at its own lines: silenced after 42;
#   - a planted wrong expectation: a scratch copy of set-interval.vec whose
#     set-interval/privilege-held drops the privilege, so that the model
#     (and the test) expects STATUS_PRIVILEGE_NOT_HELD, which Wine's stub
#     does not return and no known list excuses; its message names the
#     line of that step's row;
#   - a stale todo: a known entry for that vector as it is (Wine passes
#     it), so that its todo_wine check succeeds;
#   - the exports Wine lacks, without the known lists: win_skip, which fails
#     on Wine;
#   - the same test run as if on Windows (WINETEST_PLATFORM=windows): the
#     known divergences are failures there, as broken() and todo_wine no
#     longer excuse them.
#
# Environment: NTPROF_BIN (the Linux ntprof of this tree), NTPROF_SOURCE_ROOT;
# make export-test of the plain tree (make check builds it). Prints TAP;
# exits 1 when any check fails.
set -u

: "${NTPROF_BIN:?NTPROF_BIN must name the ntprof binary}"
: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT
wine=$root/tools/wine.sh
known7=$root/fixtures/known/wine-8.0.win7.known
known10=$root/fixtures/known/wine-8.0.win10.known

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-export-wine.XXXXXX") || exit 1
trap '"$wine" --stop; rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# testlist, build and summary: the test list, a warning-free build against
# the stand-in, the harness's summary line
. "$NTPROF_SOURCE_ROOT/conformance/cli/export_build.sh"

# run_twin NAME.c: the exe's exit status and summary under Wine as Windows 10
# (built at -O0: a twin's build asserts nothing, its run does)
run_twin() {
	BUILD_O=-O0 build x86_64-w64-mingw32-gcc "$1" "$tmp/twin.exe" || { echo "build failed"; return; }
	"$wine" win10 "$tmp/twin.exe" >"$tmp/twin.out" 2>/dev/null
	echo "exit $?: $(summary "$tmp/twin.out")"
}

# ---- each known list alone (the part test_export_wine_lists.sh runs) ---------
# A list says which Windows its expectations are for (`# env version:`); on
# Wine the test checks that Windows's results, so each list alone serves.
if [ "${NTPROF_EXPORT_WINE_PART:-}" = lists ]; then
	echo "1..5"
	for list in win10 win7; do
		"$NTPROF_BIN" export --known "$root/fixtures/known/wine-8.0.$list.known" --output "$tmp/$list.c" \
			"$root/fixtures/interval" "$root/fixtures/profile" "$root/fixtures/sysinfo" 2>"$tmp/counts"
		# (i686 builds the file with both lists, in the main part: the
		# lists change only checks, and this part's time is short)
		if ! build x86_64-w64-mingw32-gcc "$tmp/$list.c" "$tmp/$list.exe"; then
			not_ok "the export with the $list list alone builds" "$(head -5 "$tmp/cc.err")"
			continue
		fi
		line7= line10= rc=0
		for mode in win7 win10; do
			"$wine" "$mode" "$tmp/$list.exe" >"$tmp/$list.$mode.out" 2>/dev/null || rc=1
			eval "line${mode#win}=\$(summary \"\$tmp/\$list.\$mode.out\")"
		done
		if [ $rc -eq 0 ] && echo "$line7" | grep -q '([1-9][0-9]* marked as todo, 0 failures)' &&
			echo "$line10" | grep -q '([1-9][0-9]* marked as todo, 0 failures)'; then
			ok "with the $list list alone, under Wine as win7 and win10: $line7 / $line10"
		else
			not_ok "with the $list list alone, under Wine as win7 and win10" "win7: $line7" "win10: $line10"
			grep -h 'Test failed\|succeeded inside' "$tmp/$list.win7.out" "$tmp/$list.win10.out" | show /dev/stdin
		fi
	done
	# twin: the win7 list said to be for 1903: its entries judged against
	# 6.1's results no longer fit the results the test checks on Wine
	sed 's/^# env version: .*/# env version: 1903/' "$root/fixtures/known/wine-8.0.win7.known" >"$tmp/mislabelled.known"
	"$NTPROF_BIN" export --known "$tmp/mislabelled.known" --output "$tmp/mislabelled.c" \
		"$root/fixtures/interval" "$root/fixtures/profile" "$root/fixtures/sysinfo" 2>/dev/null
	got=$(run_twin "$tmp/mislabelled.c")
	if echo "$got" | grep -q '^exit [1-9].*, [1-9][0-9]* failures*)'; then
		ok "twin: the win7 list said to be for 1903 fails under Wine: $got"
	else
		not_ok "twin: the win7 list said to be for 1903 fails under Wine" "$got"
	fi
	# the Windows a list is for is required, and read as a version
	grep -v '^# env version:' "$root/fixtures/known/wine-8.0.win7.known" >"$tmp/unlabelled.known"
	"$NTPROF_BIN" export --known "$tmp/unlabelled.known" --output "$tmp/unlabelled.c" \
		"$root/fixtures/interval" 2>"$tmp/unlabelled.err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -e "$tmp/unlabelled.c" ] &&
		grep -q "unlabelled.known: no line \`# env version: VERSION\`" "$tmp/unlabelled.err"; then
		ok "a list that does not say which Windows it is for is refused (exit 2, naming it, nothing written)"
	else
		not_ok "a list that does not say which Windows it is for is refused" "exit $rc: $(cat "$tmp/unlabelled.err")"
	fi
	# ReactOS marks its own failures with todo_ros (--known-ros). Wine run as
	# if it were ReactOS (WINETEST_PLATFORM=reactos: broken() true, todo_wine
	# off) stands in for it, with a list of what it lacks; the list's entry
	# for a status the step accepts on an older Windows must not be a todo
	# (ReactOS passes it through broken()), else it would succeed as one.
	cat >"$tmp/ros.known" <<-'EOF'
	trace/*                           status-mismatch  step TraceSetInformation: ERROR_CALL_NOT_IMPLEMENTED  # the stand-in implements no class
	trace/*                           stub             step TraceQueryInformation: stub  # the stand-in's is a stub
	set-interval/zw-alias             status-mismatch  step 1: STATUS_SUCCESS  # the stand-in checks no privilege
	set-interval/privilege-threshold  status-mismatch  step 1: STATUS_SUCCESS  # accepted before 6.2: no todo
	EOF
	for with in yes no; do
		"$NTPROF_BIN" export --since 5.2 $([ $with = yes ] && echo --known-ros "$tmp/ros.known") \
			--output "$tmp/ros-$with.c" "$root/fixtures/interval" 2>/dev/null
		if build x86_64-w64-mingw32-gcc "$tmp/ros-$with.c" "$tmp/ros-$with.exe"; then
			WINETEST_PLATFORM=reactos "$wine" win10 "$tmp/ros-$with.exe" >"$tmp/ros-$with.out" 2>/dev/null
			eval "ros_$with=\$?"
		fi
	done
	line=$(summary "$tmp/ros-yes.out")
	if [ "${ros_yes:-x}" = 0 ] && echo "$line" | grep -q '([1-9][0-9]* marked as todo, 0 failures)' &&
		[ "${ros_no:-0}" -gt 0 ]; then
		ok "todo_ros from a ReactOS list: as ReactOS, $line; without the list, $ros_no failures (twin)"
	else
		not_ok "todo_ros from a ReactOS list, and its twin without it" "with: ${ros_yes:-} $line" "without: ${ros_no:-}"
		grep -h 'Test failed\|succeeded inside' "$tmp/ros-yes.out" | show /dev/stdin
	fi
	exit $((failed > 0))
fi

echo "1..12"

# ---- the export of the three folders, with both known lists ------------------
# It is make export-test's build/win/profile.c, which make compiled for
# each architecture with the flags of build/win/export-test.flags (once:
# the exes run here are those): the same text, the flags asked for, and
# each exe newer than the text. (Run as make runs it, from the tree with
# paths under it: the file names the known lists it was made with.)
(cd "$root" && "$NTPROF_BIN" export --known fixtures/known/wine-8.0.win10.known \
	--known fixtures/known/wine-8.0.win7.known --output "$tmp/profile.c" \
	fixtures/interval fixtures/profile fixtures/sysinfo) 2>"$tmp/counts"
export_rc=$?
made=$root/build/win/profile.c flags=$(cat "$root/build/win/export-test.flags" 2>/dev/null)
built() {   # ARCH [TEXT]: make export-test compiled TEXT (this export) for ARCH at -O2 -Wall -Wextra -Werror
	[ $export_rc -eq 0 ] && cmp -s "${2:-$tmp/profile.c}" "$made" && [ "$root/build/win/$1/profile.exe" -nt "$made" ] &&
		case " $flags " in *" -Wall -Wextra -Werror -O2 "*) true ;; *) false ;; esac
}
profile_exe=$root/build/win/x86_64/profile.exe
sed 1d "$tmp/profile.c" >"$tmp/other.c"   # the twin: another text is not the one built
if built x86_64 && ! built x86_64 "$tmp/other.c"; then
	ok "the export ($(sed 's/^ntprof: export: //' "$tmp/counts")) built with x86_64-w64-mingw32-gcc $flags"
else
	not_ok "the export built with x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror (make export-test)" \
		"export exit $export_rc; flags: ${flags:-none}" "$(cmp "$tmp/profile.c" "$made" 2>&1)" \
		"$(ls -l --time-style=full-iso "$made" "$root/build/win/x86_64/profile.exe" 2>&1)"
fi
if built i686; then
	ok "it built as a 32-bit test too (i686-w64-mingw32-gcc $flags)"
else
	not_ok "it built as a 32-bit test too (i686-w64-mingw32-gcc -O2 -Wall -Wextra -Werror, make export-test)" \
		"flags: ${flags:-none}" "$(ls -l --time-style=full-iso "$made" "$root/build/win/i686/profile.exe" 2>&1)"
fi

for mode in win7 win10; do
	"$wine" "$mode" "$profile_exe" >"$tmp/$mode.out" 2>"$tmp/$mode.err"
	rc=$?
	line=$(summary "$tmp/$mode.out")
	todos=$(echo "$line" | sed -n 's/.*(\([0-9]*\) marked as todo.*/\1/p')
	# and nothing silenced: each step's messages come from its own row's line
	if [ $rc -eq 0 ] && echo "$line" | grep -q ', 0 failures)' && [ "${todos:-0}" -gt 0 ] &&
		! grep -qi 'silenced' "$tmp/$mode.out"; then
		ok "as $mode under Wine: every ok() passes, every todo_wine fails as expected, none silenced: $line"
	else
		not_ok "as $mode under Wine: every ok() passes, every todo_wine fails as expected" "exit $rc: $line"
		grep -v 'marked todo' "$tmp/$mode.out" | show /dev/stdin
	fi
done

"$NTPROF_BIN" export --hal-dependent --known "$known10" --known "$known7" --output "$tmp/hal.c" \
	"$root/fixtures/interval" "$root/fixtures/profile" "$root/fixtures/sysinfo" 2>/dev/null
if build x86_64-w64-mingw32-gcc "$tmp/hal.c" "$tmp/hal.exe"; then
	"$wine" win10 "$tmp/hal.exe" >"$tmp/hal.out" 2>/dev/null
	rc=$?
else
	rc=build
fi
line=$(summary "$tmp/hal.out" 2>/dev/null)
if [ "$rc" = 0 ] && echo "$line" | grep -q ', 0 failures)'; then
	ok "with --hal-dependent too (the model's default HAL), as win10 under Wine: $line"
else
	not_ok "with --hal-dependent too, as win10 under Wine" "exit $rc: $line"
	grep -v 'marked todo' "$tmp/hal.out" | show /dev/stdin
fi

# ---- twins ----------------------------------------------------------------
# the loop's messages at its own lines instead of the rows': the harness
# silences them after 42 (the check of "none silenced" above can fail)
sed 's/_(__FILE__, t->line)/_(__FILE__, __LINE__)/' "$tmp/profile.c" >"$tmp/oneline.c"
got=$(run_twin "$tmp/oneline.c")
if ! cmp -s "$tmp/profile.c" "$tmp/oneline.c" && tr -d '\r' <"$tmp/twin.out" | grep -q 'Line has been silenced after 42 occurrences' &&
	tr -d '\r' <"$tmp/twin.out" | grep -q 'Silenced [1-9][0-9]* todos'; then
	ok "twin: the loop's messages reported at its own lines are silenced after 42: $(tr -d '\r' <"$tmp/twin.out" | grep 'Silenced' | head -1)"
else
	not_ok "twin: the loop's messages reported at its own lines are silenced after 42" "$got"
fi

mkdir -p "$tmp/scratch"
awk '/^vector /{in_held = ($2 == "set-interval/privilege-held")}
	in_held && /^  given/ {print "  given   privilege=off"; next}
	in_held && /^  expect/ {print "  expect  STATUS_PRIVILEGE_NOT_HELD on >=6.2"; print "  expect  STATUS_SUCCESS on <6.2"; next}
	{print}' "$root/fixtures/interval/set-interval.vec" >"$tmp/scratch/set-interval.vec"
"$NTPROF_BIN" export --known "$known10" --known "$known7" --output "$tmp/planted.c" "$tmp/scratch" 2>/dev/null
got=$(run_twin "$tmp/planted.c")
# reported at the line of the vector's test row, its step's row under it
at=$(tr -d '\r' <"$tmp/twin.out" | sed -n 's/^.*planted\.c:\([0-9]*\): Test failed: set-interval\/privilege-held: step 1: .*/\1/p')
if echo "$got" | grep -q '^exit 1: .*, 1 failure)' && [ -n "$at" ] &&
	sed -n "${at}p" "$tmp/planted.c" | grep -q '^    { "set-interval/privilege-held", __LINE__, ' &&
	sed -n "$((at + 1))p" "$tmp/planted.c" | grep -q '^        { NX_NtSetIntervalProfile, '; then
	ok "twin: a planted wrong expectation (privilege-held without the privilege) fails under Wine, at its test's row: $got"
else
	not_ok "twin: a planted wrong expectation fails under Wine" "$got"
	show "$tmp/twin.out"
fi

cp "$known10" "$tmp/stale.known"
printf 'set-interval/privilege-held  status-mismatch  step 1: STATUS_PRIVILEGE_NOT_HELD (0xC0000061)  # planted: Wine is not known to differ here\n' \
	>>"$tmp/stale.known"
"$NTPROF_BIN" export --known "$tmp/stale.known" --known "$known7" --output "$tmp/stale.c" "$root/fixtures/interval/set-interval.vec" 2>/dev/null
got=$(run_twin "$tmp/stale.c")
if echo "$got" | grep -q '^exit 1: .*, 1 failure)' &&
	grep -q 'Test succeeded inside todo block: set-interval/privilege-held' "$tmp/twin.out"; then
	ok "twin: a todo_wine that Wine passes (a stale known entry) fails: $got"
else
	not_ok "twin: a todo_wine that Wine passes (a stale known entry) fails" "$got"
	show "$tmp/twin.out"
fi

"$NTPROF_BIN" export --output "$tmp/unlisted.c" "$root/fixtures/interval/query-interval.vec" 2>/dev/null
got=$(run_twin "$tmp/unlisted.c")
if echo "$got" | grep -q '^exit [1-9]' && grep -q 'Test failed: query-interval/timer-default: step 1: NtQueryIntervalProfile is not exported' "$tmp/twin.out"; then
	ok "twin: without the known lists, an export Wine lacks is a win_skip that fails on Wine: $got"
else
	not_ok "twin: without the known lists, an export Wine lacks is a win_skip that fails on Wine" "$got"
	show "$tmp/twin.out"
fi

WINETEST_PLATFORM=windows "$wine" win10 "$profile_exe" >"$tmp/as-windows.out" 2>/dev/null
rc=$?
line=$(summary "$tmp/as-windows.out")
if [ $rc -ne 0 ] && ! echo "$line" | grep -q ', 0 failures)'; then
	ok "twin: run as if on Windows, Wine's known divergences fail (exit $rc): $line"
else
	not_ok "twin: run as if on Windows, Wine's known divergences fail" "exit $rc: $line"
fi

# ---- the stand-in behaves as the real harness where a test meets it ----------
# out_of_line OBJ: the checks are calls the compiler cannot see into (undefined
# in the test's object, as with Wine's header, whose bodies live in the test list)
out_of_line() {
	syms=$(x86_64-w64-mingw32-nm "$1") || return 1
	for f in winetest_ok winetest_skip winetest_win_skip broken winetest_todo_push; do
		echo "$syms" | grep -q " U $f\$" || return 1
	done
}
# (the test's object is make export-test's, of this text; the twin is it
# compiled with the harness's bodies)
x86_64-w64-mingw32-gcc -std=c11 -O2 -I"$include" -DSTANDALONE -c -o "$tmp/inline.o" "$tmp/profile.c" 2>/dev/null
if built x86_64 && out_of_line "$root/build/win/x86_64/export-test/profile.o" && ! out_of_line "$tmp/inline.o"; then
	ok "the stand-in's ok, skip, win_skip, broken and todo are calls out of the test's unit (and a unit holding their bodies is caught)"
else
	not_ok "the stand-in's checks are calls out of the test's unit, and a unit holding their bodies is caught"
fi

# twin_silenced.c: 50 todos and 45 skips from one line each; the real harness
# prints 42 of each and counts no more
testlist twin_silenced "$tmp/tl-silenced.c"
if build x86_64-w64-mingw32-gcc "$root/conformance/win/twin_silenced.c" "$tmp/silenced.exe" "$tmp/tl-silenced.c"; then
	"$wine" win10 "$tmp/silenced.exe" 2>/dev/null | tr -d '\r' >"$tmp/silenced.out"
fi
if [ "$(grep -c 'Line has been silenced after 42 occurrences' "$tmp/silenced.out" 2>/dev/null)" = 2 ] &&
	grep -q ':twin_silenced: Silenced 8 todos, 3 skips and 0 traces\.$' "$tmp/silenced.out" &&
	grep -q ':twin_silenced: 92 tests executed (42 marked as todo, 0 failures), 42 skipped\.$' "$tmp/silenced.out"; then
	ok "the stand-in silences a line after 42 messages and says so, as Wine's harness does"
else
	not_ok "the stand-in silences a line after 42 messages and says so" "$(tail -3 "$tmp/silenced.out" 2>/dev/null)"
fi

[ "$failed" -eq 0 ]
