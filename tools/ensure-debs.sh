#!/bin/sh
# SPDX-License-Identifier: MIT
# ensure-debs.sh PACKAGE...: make sure these Debian packages are installed.
# Quiet when they are. As root it installs the missing ones; otherwise it
# prints the command to run and fails, since nothing can be tested without them.
set -u

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "ensure-debs: dpkg-query not found (not Debian?); install by hand: $*" >&2
	exit 1
fi

# One dpkg-query for them all (one per package took a second for make
# check's list): a status line per known package and installed
# architecture, any "installed" will do; a package dpkg has never heard of
# prints no line, so it is missing too.
missing=$(dpkg-query -W -f='${db:Status-Status} ${Package}\n' "$@" 2>/dev/null | awk -v want="$*" '
	$1 == "installed" { have[$2] = 1 }
	END { n = split(want, w, " "); for (i = 1; i <= n; i++) if (!(w[i] in have)) printf "%s ", w[i] }')
missing=${missing% }
[ -z "$missing" ] && exit 0

command="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "ensure-debs: missing Debian packages: $missing" >&2
	echo "ensure-debs: run as root:  $command" >&2
	exit 1
fi
echo "ensure-debs: installing $missing"
apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
