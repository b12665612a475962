#!/bin/sh
# SPDX-License-Identifier: MIT
# valgrind.sh ROOT BUILD_DIR
#     Runs the suite's programs under valgrind's memcheck: every
#     CMocka test program of BUILD_DIR/conformance/{model,harness}, then ntprof over the
#     fixtures on the model and through a dl: shared object, a `call`, the
#     version matrix and a malformed file. Any memcheck report (invalid
#     access, uninitialised value, leak of any kind) fails the program it
#     came from; exits 1 when any did. Logs in BUILD_DIR/valgrind/.
#     The plain tree (-O2 -g): the sanitizer tree's shadow memory and
#     valgrind do not mix. VALGRIND_JOBS programs at a time (default 2).
#     With a third argument TALLY, appends "PASSED FAILED valgrind: ..." to
#     it (tools/kyua-suite.sh --total sums it with the suites).
#     First its twin: a planted program that leaks must be reported, or the
#     run fails (a report that fails no program would make "clean" empty).
#     VALGRIND_SET=check (make check) runs a representative set: every
#     program but those whose code another program of the set already runs
#     under memcheck, and which cost most there (CPU seconds under
#     memcheck, of about 620 for every program: ntprof-run-dl 145,
#     ntprof-run-dl-faulty 130, test_compare 80, test_runner 71,
#     test_explore 61, ntprof-run 23, ntprof-matrix 23, test_matrix 18,
#     test_matrix_html 13; every other program 7 at most): test_runner
#     (the fixtures on the model: ntprof-run), test_compare (its runs of the fixtures: ntprof-run; its
#     JSON reading and table: ntprof-compare), test_matrix and
#     test_matrix_html (the matrix: ntprof-matrix), test_explore (the
#     explorer: ntprof-explore, one function on two targets) and
#     ntprof-run-dl (the dl: glue: ntprof-run-dl-faulty, which runs only
#     set-interval.vec on 1803/x64, 3 CPU seconds: on every fixture and
#     target it costs 130, nearly all in the forked children that
#     memcheck keeps silent; the glue runs in the parent, whatever the
#     vectors, and finds the object's bugs there too). ntprof-matrix
#     draws the interval fixtures only (3 CPU seconds, 10 on every
#     fixture): the table's code is the same whatever the vectors, and
#     the model's runs of every vector are ntprof-run's. It also leaves
#     out --track-origins, which only says where an uninitialised value
#     came from, at a fifth of the time: `make valgrind` (VALGRIND_SET=all,
#     the default) runs every program with it, to read a report by.
#     What the set runs under memcheck, then: every CMocka program of the
#     model (its calls, one file each) and of harness/ but those five, and
#     ntprof on every fixture (run), through the dl: glue, a call, the
#     matrix, compare, explore and bad input: every part of ntprof that
#     a program of the tree holds. About 55 CPU seconds, of which some 0.8
#     for each program is memcheck's own start and leak check.
set -u
root=$1 dir=$2 tally=${3:-}
jobs=${VALGRIND_JOBS:-2}
set_name=${VALGRIND_SET:-all}
case $set_name in
all) skip= dl_args= matrix_args= ;;
check) skip=" test_runner test_compare test_matrix test_matrix_html test_explore ntprof-run-dl "
	dl_args="--target 1803/x64 $root/fixtures/interval/set-interval.vec"
	matrix_args=$root/fixtures/interval ;;
*) echo "valgrind.sh: VALGRIND_SET is all or check, not '$set_name'" >&2; exit 2 ;;
esac
logs=$dir/valgrind
rm -rf "$logs"
mkdir -p "$logs"
export NTPROF_SOURCE_ROOT="$root"

origins=yes
[ "$set_name" = check ] && origins=no
VG="valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --show-leak-kinds=all
	--errors-for-leak-kinds=all --track-origins=$origins --quiet"
start=$(date +%s)

# vg NAME WANT-STATUS COMMAND...: the program's own status must be WANT-STATUS
# and valgrind must have nothing to say (run in the background, jobs at a time).
# A dl: run runs each vector in a child process (harness/run/isolate.c; the
# fork server of harness/run/zygote.c, which test_zygote drives, forks it),
# which leaves with _exit() holding the heap it inherited: memcheck would
# list all of it as still reachable, once per child. For the programs that
# fork so (and test_impl_helpers_memory, whose child measures its own RSS),
# the children are silent (--child-silent-after-fork) and memcheck
# judges the parent; the code the children run (the interpreter, the dl:
# glue) is checked here in ntprof-run, which does not fork, and in the
# sanitizer tree's run of conformance/cli/test_dl.sh, where children are checked.
forks() {
	case $1 in
	test_under_test | test_zygote | test_impl_helpers_memory | ntprof-run-dl | ntprof-run-dl-faulty) echo --child-silent-after-fork=yes ;;
	esac
}

check_one() {
	name=$1 want=$2
	shift 2
	t0=$(date +%s)
	# shellcheck disable=SC2086 # VG and forks' output are words
	$VG $(forks "$name") --log-file="$logs/$name.log" "$@" >"$logs/$name.out" 2>&1 3>&-
	rc=$?
	if [ "$rc" -eq 99 ] || [ -s "$logs/$name.log" ]; then
		{ echo "valgrind: $name: memcheck reports (exit $rc; make valgrind adds origins):"
		  sed 's/^/    /' "$logs/$name.log" | head -n 40; } >"$logs/$name.failed"
	elif [ "$rc" -ne "$want" ]; then
		echo "valgrind: $name: exit $rc, want $want (see $logs/$name.out)" >"$logs/$name.failed"
	else
		echo "valgrind: $name: clean ($(($(date +%s) - t0)) s)" >"$logs/$name.clean"
	fi
	cat "$logs/$name".clean "$logs/$name".failed 2>/dev/null
}

# A pool of $jobs: a program starts as soon as one has ended, not once the
# last batch has all ended, so that a long program does not hold a core
# idle beside it. The pool is a FIFO holding a token per free place: a
# program takes one to start and gives it back as it ends (no polling).
mkfifo "$logs/pool" || exit 2
exec 3<>"$logs/pool"
rm -f "$logs/pool"
i=0
while [ "$i" -lt "$jobs" ]; do
	echo >&3
	i=$((i + 1))
done
vg() {
	case $skip in *" $1 "*) return ;; esac
	read -r _ <&3
	{ check_one "$@"; echo >&3; } &
}

# The twin, before the rest: a program that loses 16 bytes must be reported,
# or a report here would not fail a program (a flag lost on the way, a tool
# that is not memcheck) and every "clean" below would mean nothing.
if ! printf '#include <stdlib.h>\nint main(void) { char *volatile p = malloc(16); p = 0; return p != 0; }\n' |
	${CC:-cc} -O0 -x c - -o "$logs/planted-leak" 2>"$logs/planted-leak.cc"; then
	echo "valgrind: planted-leak: cannot build it (${CC:-cc}: $logs/planted-leak.cc)" | tee "$logs/twin.failed"
elif check_one planted-leak 0 "$logs/planted-leak" >/dev/null; [ -f "$logs/planted-leak.failed" ]; then
	rm -f "$logs/planted-leak.failed"
	echo "valgrind: planted-leak: reported, as it must be (the twin)"
else
	rm -f "$logs/planted-leak.clean"
	echo "valgrind: planted-leak: a program that leaks 16 bytes passed: no report here fails a program" |
		tee "$logs/twin.failed"
fi

# The longest first (ntprof's runs), so that the pool's tail is short.
vg ntprof-run 0 "$dir/ntprof" run --root "$root"
vg ntprof-run-dl 0 "$dir/ntprof" run --root "$root" --backend "dl:$dir/conformance/dl/dl_faithful.so"
# shellcheck disable=SC2086 # dl_args is words
vg ntprof-run-dl-faulty 1 "$dir/ntprof" run --root "$root" --backend "dl:$dir/conformance/dl/dl_faulty.so" $dl_args
# shellcheck disable=SC2086 # matrix_args is words
vg ntprof-matrix 0 "$dir/ntprof" matrix --root "$root" --format html --output "$logs/matrix.html" $matrix_args
vg ntprof-compare 0 "$dir/ntprof" compare --format markdown "$root/conformance/data/live-wine-8.0-win10.json" \
	"$root/conformance/data/live-wine-8.0-win10.json"
vg ntprof-call 0 "$dir/ntprof" call --target 1803/x64 \
	'NtCreateProfile ProfileHandle=>h Process=current ProfileBase=0x10000000 ProfileSize=0x1000 BucketSize=2 Buffer=>b BufferSize=0x1000' \
	'NtStartProfile ProfileHandle=h' 'Interrupt Pc=0x10000004' 'ReadBuffer Buffer=b Count=3'
vg ntprof-explore 1 "$dir/ntprof" explore --function NtSetIntervalProfile --targets 6.1,6.2 \
	--output "$logs/explore.vec"
vg ntprof-bad-input 2 "$dir/ntprof" run --output "$logs/none.json" "$root/conformance/data/bad/truncated.vec"
for t in "$dir"/conformance/model/test_* "$dir"/conformance/harness/test_*; do
	case $t in *.o | *.d | *.sh) continue ;; esac
	[ -x "$t" ] && vg "${t##*/}" 0 "$t"
done

wait
clean=$(find "$logs" -name '*.clean' | wc -l)
failed=$(find "$logs" -name '*.failed' | wc -l)
summary="valgrind ($set_name): $clean of $((clean + failed)) programs clean in $(($(date +%s) - start)) s"
echo "$summary"
[ -n "$tally" ] && printf '%d %d %s\n' "$clean" "$failed" "$summary" >>"$tally"
[ "$failed" -eq 0 ] && [ "$clean" -gt 0 ]
