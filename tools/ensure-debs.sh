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

missing=
for pkg in "$@"; do
	# One status line per installed architecture; any "installed" will do.
	if ! dpkg-query -W -f='${db:Status-Status}\n' "$pkg" 2>/dev/null | grep -qx installed; then
		missing="$missing $pkg"
	fi
done
[ -z "$missing" ] && exit 0
missing=${missing# }

command="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "ensure-debs: missing Debian packages: $missing" >&2
	echo "ensure-debs: run as root:  $command" >&2
	exit 1
fi
echo "ensure-debs: installing $missing"
apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
