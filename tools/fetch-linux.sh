#!/usr/bin/env bash
# fetch-linux.sh - fetch Debian's arm64 Linux 6.12 kernel (the reference
# kernel the user-space tests are proved against) and print the path of its
# uncompressed arm64 Image.
#
#   fetch-linux.sh            print the path of vmlinuz, downloading it if needed
#
# The package comes from Debian's archive with `apt-get download`, through an
# apt configuration of its own (arm64 only, separate package lists and
# cache), so the machine's own apt state is never touched. Everything lives in
#
#   LINUX_CACHE   default ${XDG_CACHE_HOME:-$HOME/.cache}/teachos/linux
#
# outside the source tree. The package name (linux-image-6.12.<N>+deb12-arm64)
# is resolved from the archive's index, the newest point release winning;
# LINUX_PACKAGE=name overrides it. Once a kernel has been extracted, later
# runs reuse it without touching the network (LINUX_REFRESH=1 looks again).
#
# Messages go to stderr; stdout is only the path of the kernel image.
set -euo pipefail

. "$(dirname "$0")/linux-apt.sh"	# $cache and apt_opts

say() { echo "fetch-linux: $*" >&2; }
die() { echo "fetch-linux: error: $*" >&2; exit 1; }

# A kernel extracted earlier: reuse it.
current="$cache/current"
if [ "${LINUX_REFRESH:-0}" != 1 ] && [ -z "${LINUX_PACKAGE:-}" ] && [ -f "$current" ]; then
	img=$(cat "$current")
	if [ -f "$img" ]; then
		echo "$img"
		exit 0
	fi
fi

say "updating the arm64 package lists in $cache/lists ..."
apt-get "${apt_opts[@]}" update >&2 || die "apt-get update (arm64 view) failed"

pkg=${LINUX_PACKAGE:-}
if [ -z "$pkg" ]; then
	# linux-image-6.12.<N>+deb12-arm64 (not -unsigned, -dbg, -rt-, -16k-).
	pkg=$(apt-cache "${apt_opts[@]}" pkgnames linux-image-6.12 |
		grep -E '^linux-image-6\.12\.[0-9]+\+deb12-arm64$' | sort -V | tail -n 1 || true)
	[ -n "$pkg" ] || die "no linux-image-6.12.*+deb12-arm64 package in the archive"
fi
say "package: $pkg"

# apt-get download writes into the current directory.
debdir="$cache/debs"
mkdir -p "$debdir"
deb=$(ls "$debdir/${pkg}_"*_arm64.deb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$deb" ]; then
	say "downloading $pkg (about 93 MB) ..."
	(cd "$debdir" && apt-get "${apt_opts[@]}" download "$pkg") >&2 \
		|| die "apt-get download $pkg failed"
	deb=$(ls "$debdir/${pkg}_"*_arm64.deb | sort -V | tail -n 1)
fi

root="$cache/root-$pkg"
ver=${pkg#linux-image-}
img="$root/boot/vmlinuz-$ver"
if [ ! -f "$img" ]; then
	say "extracting $(basename "$deb") ..."
	rm -rf "$root.tmp"
	dpkg-deb -x "$deb" "$root.tmp"
	rm -rf "$root"
	mv "$root.tmp" "$root"
fi
[ -f "$img" ] || die "the package holds no $img"
echo "$img" >"$current"
echo "$img"
