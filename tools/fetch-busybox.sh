#!/usr/bin/env bash
# fetch-busybox.sh - fetch Debian's busybox-static for arm64 (the shell that
# arm64's `make run` boots) and print the path of its /bin/busybox.
#
#   fetch-busybox.sh          print the path, downloading the package if needed
#
# The package comes from Debian's archive with `apt-get download` through the
# same apt configuration of its own as the Linux kernel (tools/linux-apt.sh:
# arm64 only, separate package lists and cache, the machine's apt state is
# never touched). The package and the extracted binary live in
#
#   BUSYBOX_CACHE   default ${XDG_CACHE_HOME:-$HOME/.cache}/teachos/busybox
#
# outside the source tree (the binary is never committed). Once extracted,
# later runs reuse it without the network (BUSYBOX_REFRESH=1 looks again).
#
# Messages go to stderr; stdout is only the path of the binary.
set -euo pipefail

bcache=${BUSYBOX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/teachos/busybox}
mkdir -p "$bcache"
bcache=$(cd "$bcache" && pwd)
bin="$bcache/bin/busybox"

say() { echo "fetch-busybox: $*" >&2; }
die() { echo "fetch-busybox: error: $*" >&2; exit 1; }

if [ "${BUSYBOX_REFRESH:-0}" != 1 ] && [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

. "$(dirname "$0")/linux-apt.sh"	# $cache (the apt state) and apt_opts

pkg=busybox-static
deb=$(ls "$bcache/${pkg}_"*_arm64.deb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$deb" ] || [ "${BUSYBOX_REFRESH:-0}" = 1 ]; then
	# The package lists may be missing (a fresh machine) or old: update them.
	say "updating the arm64 package lists in $cache/lists ..."
	apt-get "${apt_opts[@]}" update >&2 || die "apt-get update (arm64 view) failed"
	say "downloading $pkg (about 0.8 MB) ..."
	(cd "$bcache" && apt-get "${apt_opts[@]}" download "$pkg") >&2 \
		|| die "apt-get download $pkg failed"
	deb=$(ls "$bcache/${pkg}_"*_arm64.deb | sort -V | tail -n 1)
fi

say "extracting $(basename "$deb") ..."
rm -rf "$bcache/root.tmp"
dpkg-deb -x "$deb" "$bcache/root.tmp"
[ -x "$bcache/root.tmp/bin/busybox" ] || die "$(basename "$deb") holds no /bin/busybox"
mkdir -p "$bcache/bin"
mv "$bcache/root.tmp/bin/busybox" "$bin.tmp"
mv "$bin.tmp" "$bin"
rm -rf "$bcache/root.tmp"
echo "$bin"
