#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/ensure-debs.sh (make deps), which asks dpkg-query once for every
# package, on a stand-in dpkg-query that knows a few made-up packages (one
# installed on two architectures, one with only its configuration files
# left, one installed) and stand-ins for id and apt-get: every package
# installed passes silently, installing nothing. Fail twins: a package left
# with its configuration files only and one dpkg has never heard of are
# missing, named in the command printed to a user who is not root (exit 1),
# and given to apt-get install, and only they, as root.
#
# Environment: NTPROF_SOURCE_ROOT. Prints TAP; exits 1 on failure.
set -u

: "${NTPROF_SOURCE_ROOT:?NTPROF_SOURCE_ROOT must name the repository}"
ensure=$NTPROF_SOURCE_ROOT/tools/ensure-debs.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-debs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

. "$NTPROF_SOURCE_ROOT/conformance/cli/tap.sh"
failure_detail() {   # the command's output, after a failure
	sed 's/^/#   | /' "$tmp/out" "$tmp/err" | head -n 20
}

# The stand-ins: dpkg-query prints the status lines of the packages it
# knows (the format ensure-debs asks for) and fails on the others, as the
# real one does; id says the user of $FAKE_UID; apt-get logs its arguments.
mkdir "$tmp/bin"
cat >"$tmp/bin/dpkg-query" <<'STUB'
#!/bin/sh
rc=0
shift 2
for p in "$@"; do
	case $p in
	np-multi) echo "installed np-multi"; echo "installed np-multi" ;;
	np-config) echo "config-files np-config" ;;
	np-plain) echo "installed np-plain" ;;
	*) echo "dpkg-query: no packages found matching $p" >&2; rc=1 ;;
	esac
done
exit $rc
STUB
printf '#!/bin/sh\necho "$FAKE_UID"\n' >"$tmp/bin/id"
printf '#!/bin/sh\necho "$*" >>"$APT_LOG"\n' >"$tmp/bin/apt-get"
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/id" "$tmp/bin/apt-get"
export APT_LOG="$tmp/apt.log"
debs() {   # UID PACKAGE...: ensure-debs with the stand-ins, as that user
	uid=$1
	shift
	rm -f "$APT_LOG"
	FAKE_UID=$uid PATH="$tmp/bin:$PATH" sh "$ensure" "$@" >"$tmp/out" 2>"$tmp/err"
}

debs 0 np-multi np-plain
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && [ ! -e "$APT_LOG" ]; then
	ok "every package installed (one on two architectures): silent, exit 0, nothing installed"
else
	not_ok "every package installed: silent, exit 0, nothing installed" "exit $rc"
fi

debs 1000 np-multi np-config np-plain np-unknown
rc=$?
if [ "$rc" -eq 1 ] && grep -q 'missing Debian packages: np-config np-unknown$' "$tmp/err" &&
	grep -q 'apt-get install -y np-config np-unknown$' "$tmp/err" && [ ! -e "$APT_LOG" ]; then
	ok "twin: config files only and unknown are missing, named to a user who is not root (exit 1)"
else
	not_ok "twin: config files only and unknown are missing, named to a user who is not root" "exit $rc"
fi

debs 0 np-config np-plain np-unknown
rc=$?
if [ "$rc" -eq 0 ] && grep -qx 'install -y np-config np-unknown' "$APT_LOG"; then
	ok "twin: as root, apt-get installs the missing packages and only them"
else
	not_ok "twin: as root, apt-get installs the missing packages and only them" "exit $rc" \
		"$(cat "$APT_LOG" 2>/dev/null)"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
