#!/bin/sh
# SPDX-License-Identifier: MIT
# What a packager and a library user see: a copy of the tree (build/ left
# out) built and installed the way a Debian package would be, with the
# builder's flags in the environment, PREFIX=/usr, a multiarch LIBDIR and a
# DESTDIR, then used from the installed tree only:
#   - the builder's CFLAGS, CPPFLAGS and LDFLAGS reach every compile and link,
#     beside the project's own (-std=c11, -Werror); WERROR=0 drops -Werror;
#   - every public header is installed (the model's, impl.h, the dl: ABI,
#     and impl_helpers.h, its helpers) and opens extern "C";
#   - a C++ program includes them all, links libntprof.a and
#     libntprof_impl_helpers.a through pkg-config and runs; the same program
#     against the headers with their extern "C" taken out must fail to link
#     (the check can fail);
#   - the "Using the model from C" block of docs/implementations.md is
#     examples/model_call.c, which builds with `pkg-config --cflags --libs
#     ntprof` against the installed tree and prints what the guide says it prints;
#   - ntprof.pc and ntprof_impl_helpers.pc name LIBDIR; the man pages are
#     installed under MANDIR;
#   - examples/impl_minimal.c, an implementation of the interval calls on
#     the helpers, builds as a dl: object (C99, pedantic) with `pkg-config
#     --cflags --libs ntprof_impl_helpers` against the installed tree alone,
#     and the installed ntprof runs it on the installed interval vectors for
#     its target with no mismatch; its -DIMPL_MINIMAL_BUG twin is caught;
#     so does examples/impl_kernel.c, on the kernel services;
#   - the installed ntprof holds no path of the build tree and reads its data
#     from the installed datadir (--root here, since DESTDIR is not /).
#
# Environment: NTPROF_SOURCE_ROOT (the repository); needs make, cc, g++ and
# pkg-config. Prints TAP; exits 1 when any check fails.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
root=$NTPROF_SOURCE_ROOT

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"

# The make that runs this script (make check) must not steer the one below.
unset MAKEFLAGS MFLAGS MAKELEVEL VARIANT CFLAGS CPPFLAGS LDFLAGS LDLIBS PREFIX DESTDIR LIBDIR

echo "1..18"

src=$tmp/src dest=$tmp/dest
mkdir -p "$src" "$dest"
(cd "$root" && tar --exclude=./build --exclude=./.git --exclude=./config.mak -cf - .) |
	tar -C "$src" -xf -

# Debian's build flags (dpkg-buildflags on bookworm), and a mark in each.
pkg_cflags='-g -O2 -fstack-protector-strong -Wformat -Werror=format-security -DNP_MARK_CFLAGS'
pkg_cppflags='-Wdate-time -D_FORTIFY_SOURCE=2 -DNP_MARK_CPPFLAGS'
pkg_ldflags='-Wl,-z,relro -Wl,--defsym=np_mark_ldflags=0'
libdir=/usr/lib/x86_64-linux-gnu
if CFLAGS=$pkg_cflags CPPFLAGS=$pkg_cppflags LDFLAGS=$pkg_ldflags \
	make -C "$src" -j2 install PREFIX=/usr LIBDIR=$libdir DESTDIR="$dest" >"$tmp/build.log" 2>&1; then
	check "make install with the builder's flags, PREFIX, LIBDIR and DESTDIR" ok
else
	check "make install with the builder's flags, PREFIX, LIBDIR and DESTDIR" "$(tail -20 "$tmp/build.log")"
fi

# Every compile line has the builder's flags and the project's; every link
# line the builder's LDFLAGS.
bad=$(grep -E '^cc .* -c ' "$tmp/build.log" | grep -v -e '-DNP_MARK_CFLAGS' -e '-DNP_MARK_CPPFLAGS' |
	head -3)
bad=$bad$(grep -E '^cc .* -c ' "$tmp/build.log" |
	awk '!/-DNP_MARK_CFLAGS/ || !/-DNP_MARK_CPPFLAGS/ || !/-std=c11/ || !/ -Werror /' | head -3)
links=$(grep -E '^cc .* -o [^ ]*ntprof ' "$tmp/build.log")
compiles=$(grep -cE '^cc .* -c ' "$tmp/build.log")
if [ -z "$bad" ] && [ "$compiles" -gt 20 ] && printf '%s' "$links" | grep -q -e '--defsym=np_mark_ldflags'; then
	check "CFLAGS, CPPFLAGS, LDFLAGS from the environment, the project's -std=c11 -Werror beside them" ok
else
	check "CFLAGS, CPPFLAGS, LDFLAGS from the environment, the project's -std=c11 -Werror beside them" \
		"$compiles compiles; lines lacking a flag: $bad; link: $links"
fi

# WERROR=0 drops -Werror (and nothing else); the command line's CFLAGS win.
make -C "$src" -n -B build/model/hal.o WERROR=0 CFLAGS='-O1 -DNP_MARK_CLI' >"$tmp/n.log" 2>&1
line=$(grep ' -c .*model/hal.c' "$tmp/n.log")
case $line in
*-Werror*|*-O2*) check "WERROR=0 and CFLAGS on the command line" "got: $line" ;;
*-Wall*-O1\ -DNP_MARK_CLI*) check "WERROR=0 and CFLAGS on the command line" ok ;;
*) check "WERROR=0 and CFLAGS on the command line" "got: $line" ;;
esac

# The headers: the model's and impl.h, each opening extern "C" (knobs.h,
# rules.h and predicates.h are X-macro lists included inside other headers, with no declaration of their own).
inc=$dest/usr/include/ntprof
missing=
for h in "$root"/model/include/ntprof/*.h "$root"/harness/include/ntprof/impl.h \
	"$root"/harness/include/ntprof/impl_helpers.h; do
	b=$(basename "$h")
	if ! cmp -s "$h" "$inc/$b"; then
		missing="$missing $b(not installed)"
	elif case $b in knobs.h|rules.h|predicates.h) false ;; *) true ;; esac &&
	     ! grep -q '^extern "C" {$' "$inc/$b"; then
		missing="$missing $b(no extern \"C\")"
	fi
done
[ -f "$inc/runner.h" ] && missing="$missing runner.h(private, installed)"
check "every public header installed, each with extern \"C\"" "${missing:-ok}"

# The pkg-config files and the man pages.
pc=$dest$libdir/pkgconfig/ntprof.pc
hpc=$dest$libdir/pkgconfig/ntprof_impl_helpers.pc
if grep -qx "libdir=$libdir" "$pc" && grep -qx 'includedir=/usr/include' "$pc" &&
	grep -qx "libdir=$libdir" "$hpc" && grep -qx 'includedir=/usr/include' "$hpc" &&
	[ -f "$dest$libdir/libntprof.a" ] && [ -f "$dest$libdir/libntprof_impl_helpers.a" ] &&
	[ -f "$dest/usr/share/man/man1/ntprof.1" ] &&
	[ -f "$dest/usr/share/man/man5/ntprof-vectors.5" ]; then
	check "both .pc files and both libraries in LIBDIR, the man pages under MANDIR" ok
else
	check "both .pc files and both libraries in LIBDIR, the man pages under MANDIR" \
		"$(cat "$pc" 2>&1; find "$dest" -name '*.a' -o -name '*.[15]')"
fi

export PKG_CONFIG_PATH="$dest$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$(pkg-config --cflags --libs ntprof 2>&1 | sed "s/ *$//")
check "pkg-config --cflags --libs ntprof names the installed tree" \
	"$(case $flags in "-I$dest/usr/include -L$dest$libdir -lntprof") echo ok ;; *) echo "got: $flags" ;; esac)"

# A C++ program of every public header, the model's calls and impl.h's types.
cat >"$tmp/use.cpp" <<'EOF'
#include <cstdio>
#include <ntprof/calls.h>
#include <ntprof/configure.h>
#include <ntprof/impl.h>
#include <ntprof/impl_helpers.h>
#include <ntprof/machine.h>
#include <ntprof/names.h>
#include <ntprof/number.h>
#include <ntprof/rule.h>
#include <ntprof/status.h>
#include <ntprof/syscalls.h>
#include <ntprof/version.h>
#include <ntprof/version_predicates.h>

int main()
{
	if (np_syscall_function(0) == nullptr)
		return 4;
	np_machine m;
	if (np_machine_init(&m, NP_V6_2, NP_X64) != nullptr)
		return 2;
	bool malformed = false;
	if (np_machine_configure(&m, "privilege", "off", &malformed) != nullptr)
		return 3;
	np_result r = np_nt_set_interval_profile(&m, 1000, NP_PROFILE_TIME);
	uint64_t n = 0;
	bool parsed = np_number_parse_len("0x10", 4, &n);
	std::printf("%s %s %s %d %u %llu\n", np_status_name(r.code), np_version_key(NP_V6_2),
		    np_source_name(NP_PROFILE_TIME),
		    np_set_interval_checks_privilege(NP_V6_2), NTPROF_IMPL_ABI,
		    parsed ? (unsigned long long)n : 0ull);
	ntprof_impl_entry_fn *entry = nullptr;
	np_machine_fini(&m);
	ntprof_sim sim;
	if (!ntprof_sim_init(&sim, "wow64"))
		return 4;
	std::printf("%u\n", sim.pointer_size);
	ntprof_sim_fini(&sim);
	return entry != nullptr;
}
EOF
want='STATUS_PRIVILEGE_NOT_HELD 6.2 ProfileTime 1 2 16
4'
# shellcheck disable=SC2086 # pkg-config's output is words
if g++ -std=c++11 -Wall -Wextra -Werror -o "$tmp/use" "$tmp/use.cpp" \
	$(pkg-config --cflags --libs ntprof ntprof_impl_helpers) \
	>"$tmp/cxx.err" 2>&1; then
	got=$("$tmp/use" 2>&1)
	check "a C++ program of the installed headers links both libraries and runs" \
		"$([ "$got" = "$want" ] && echo ok || echo "want '$want', got '$got'")"
else
	check "a C++ program of the installed headers links both libraries and runs" "$(head -10 "$tmp/cxx.err")"
fi

# The fail twin: the same headers without their extern "C" must not link.
mkdir -p "$tmp/bare/ntprof"
for h in "$inc"/*.h; do
	awk '/^#ifdef __cplusplus$/ { skip = 3 } skip > 0 { skip--; next } { print }' "$h" \
		>"$tmp/bare/ntprof/$(basename "$h")"
done
# shellcheck disable=SC2086
if g++ -std=c++11 -I"$tmp/bare" -o "$tmp/use-bare" "$tmp/use.cpp" $(pkg-config --libs ntprof ntprof_impl_helpers) \
	>"$tmp/bare.err" 2>&1; then
	check "without extern \"C\" the C++ program fails to link (the check can fail)" "it linked"
else
	check "without extern \"C\" the C++ program fails to link (the check can fail)" \
		"$(grep -q 'undefined reference to .np_machine_init(' "$tmp/bare.err" && echo ok ||
			head -5 "$tmp/bare.err")"
fi

# The guide's example is examples/model_call.c, and prints what it says.
guide=docs/implementations.md
readme_block() { # the guide: the ```c block and the output block after "It prints"
	awk '/^## Using the model from C/ { on = 1; next } on && /^## / { exit }
	on && /^```c$/ { code = 1; next } on && code && /^```$/ { code = 0; next }
	on && code { print }' "$1"
}
readme_output() {
	awk '/^## Using the model from C/ { on = 1; next } on && /^## / { exit }
	on && /^It prints:/ { want = 1; next } want && /^```$/ { if (out) exit; out = 1; next }
	want && out { print }' "$1"
}
readme_block "$root/$guide" >"$tmp/readme.c"
check "$guide's \"Using the model from C\" is examples/model_call.c" \
	"$(cmp "$tmp/readme.c" "$root/examples/model_call.c" 2>&1 && echo ok)"

# The fail twin: a guide whose block differs by one character is caught.
sed '/^## Using the model from C/,/^## /s/NP_V1809/NP_V1803/' "$root/$guide" >"$tmp/guide.twin"
readme_block "$tmp/guide.twin" >"$tmp/twin.c"
check "a guide's block that differs from the file is caught (the check can fail)" \
	"$(cmp -s "$tmp/twin.c" "$root/examples/model_call.c" && echo "not caught" || echo ok)"

# shellcheck disable=SC2086
if cc -std=c11 -Wall -Wextra -Werror -pedantic -o "$tmp/model_call" "$tmp/readme.c" \
	$(pkg-config --cflags --libs ntprof) >"$tmp/cc.err" 2>&1; then
	"$tmp/model_call" >"$tmp/mc.out" 2>&1
	readme_output "$root/$guide" >"$tmp/mc.want"
	check "the guide's example builds with pkg-config against the installed tree and prints its output" \
		"$([ -s "$tmp/mc.want" ] && cmp "$tmp/mc.want" "$tmp/mc.out" 2>&1 && echo ok)"
else
	check "the guide's example builds with pkg-config against the installed tree and prints its output" \
		"$(head -10 "$tmp/cc.err")"
fi

# The installed ntprof: no path of the tree it was built in, its data found
# in datadir (here under DESTDIR, so named with --root).
bin=$dest/usr/bin/ntprof
if grep -q -F "$src" "$bin"; then
	check "the installed ntprof holds no path of its build tree" "$(strings "$bin" | grep -F "$src" | head -3)"
else
	check "the installed ntprof holds no path of its build tree" ok
fi
"$bin" run --root "$dest/usr/share/ntprof" >"$tmp/run.out" 2>&1
status=$?
check "the installed ntprof runs the installed fixtures" \
	"$([ $status -eq 0 ] && echo ok || { echo "exit $status"; tail -3 "$tmp/run.out"; })"

# explain --check on the installed data: every rule applied by a run of the
# installed vectors and named by one; the tests' tags are not installed, and
# it says it cannot check them. Twin: a rule added to the installed SPEC.md
# that no vector names or applies is a problem (exit 1).
"$bin" explain --check --root "$dest/usr/share/ntprof" >"$tmp/explain.out" 2>&1
status=$?
check "the installed ntprof explain --check: 0 problems, and it says the tests' tags are not checked" \
	"$([ $status -eq 0 ] && grep -q '^rules: [0-9]*, problems: 0$' "$tmp/explain.out" &&
	   grep -q 'no conformance/ here (an installed ntprof has no tests): rules tags not checked' "$tmp/explain.out" &&
	   echo ok || { echo "exit $status"; tail -3 "$tmp/explain.out"; })"
mkdir "$tmp/data-twin"
twin_id=SI-$((90 + 9))   # spelt at run time: a literal ID here would be a citation
cp -R "$dest/usr/share/ntprof/." "$tmp/data-twin/"
printf '\n### %s \342\200\224 A rule nothing applies\nA planted rule.\nConfidence: unknown. Source: none.\n' "$twin_id" >>"$tmp/data-twin/SPEC.md"
"$bin" explain --check --root "$tmp/data-twin" >"$tmp/explain-twin.out" 2>&1
status=$?
check "twin: a rule of the installed SPEC.md that no run applies and no vector names is a problem" \
	"$([ $status -eq 1 ] && grep -q "rule $twin_id lacks an application" "$tmp/explain-twin.out" &&
	   echo ok || { echo "exit $status"; tail -3 "$tmp/explain-twin.out"; })"

# examples/impl_minimal.c from the installed tree alone, run by the
# installed ntprof on the installed interval vectors for its target; the
# twin without the privilege check (SI-1) must be caught.
data=$dest/usr/share/ntprof
example() { # NAME [CFLAGS...]: builds $tmp/NAME.so from $example_src, runs it; $rc, $tmp/NAME.out
	name=$1
	shift
	# shellcheck disable=SC2046 # pkg-config's output is words
	if ! cc -std=c99 -pedantic -Wall -Wextra -Werror -fPIC -shared "$@" -o "$tmp/$name.so" \
		"$root/examples/${example_src:-impl_minimal.c}" $(pkg-config --cflags --libs ntprof_impl_helpers) \
		>"$tmp/$name.out" 2>&1; then
		rc=build
		return
	fi
	"$bin" run --root "$data" --backend "dl:$tmp/$name.so" --target 1809/x64 \
		"$data/fixtures/interval/set-interval.vec" "$data/fixtures/interval/query-interval.vec" \
		>"$tmp/$name.out" 2>&1
	rc=$?
}
example impl_minimal
summary=$(grep '^summary:' "$tmp/impl_minimal.out")
case $rc/$summary in
"0/summary: "[1-9]*" match, "*" 0 status-mismatch, 0 output-mismatch,"*)
	check "examples/impl_minimal.c builds from the installed tree and matches on 1809/x64" ok ;;
*) check "examples/impl_minimal.c builds from the installed tree and matches on 1809/x64" \
	"rc $rc; $(tail -5 "$tmp/impl_minimal.out")" ;;
esac
example impl_minimal_bug -DIMPL_MINIMAL_BUG
if [ "$rc" = 1 ] && awk '/^[a-z]/ { h = $1 }
	h == "status-mismatch" && /^    set-interval\/privilege-threshold on 1809\/x64 / { found = 1 }
	END { exit !found }' "$tmp/impl_minimal_bug.out"; then
	check "its twin without the privilege check is caught (exit 1)" ok
else
	check "its twin without the privilege check is caught (exit 1)" "rc $rc; $(tail -5 "$tmp/impl_minimal_bug.out")"
fi

# examples/impl_kernel.c, on the kernel services (<ntprof/kernel_services.h>),
# from the installed tree alone: every vector it takes on those files matches.
example_src=impl_kernel.c
example impl_kernel
summary=$(grep '^summary:' "$tmp/impl_kernel.out")
case $rc/$summary in
"0/summary: "[1-9]*" match, "*" 0 status-mismatch, 0 output-mismatch,"*)
	check "examples/impl_kernel.c builds from the installed tree and matches on 1809/x64" ok ;;
*) check "examples/impl_kernel.c builds from the installed tree and matches on 1809/x64" \
	"rc $rc; $(tail -5 "$tmp/impl_kernel.out")" ;;
esac

[ "$failed" -eq 0 ] || exit 1
exit 0
