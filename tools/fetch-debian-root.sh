#!/usr/bin/env bash
# fetch-debian-root.sh - a root file system tree of Debian's own arm64
# programs, for the dynamic-executable tests (tools/check-debian.sh), and
# print its path.
#
#   fetch-debian-root.sh [PACKAGE...]   default: libc6 busybox
#
# The packages come from Debian's archive with `apt-get download` through
# the apt configuration of tools/linux-apt.sh (arm64 only, package lists
# and cache of its own; the machine's apt state is never touched) and are
# unpacked with `dpkg-deb -x` into one tree, in the order given, under
#
#   DEBIAN_ROOT_CACHE   default ${XDG_CACHE_HOME:-$HOME/.cache}/teachos/debian-root
#
# as root-<names>/ (outside the source tree: nothing of it is committed).
# Later runs reuse the tree without the network (DEBIAN_ROOT_REFRESH=1
# downloads again). `busybox` is Debian's dynamically linked busybox (PIE,
# interpreter /lib/ld-linux-aarch64.so.1), not busybox-static.
#
# Messages go to stderr; stdout is only the path of the tree.
set -euo pipefail

pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(libc6 busybox)
dcache=${DEBIAN_ROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/teachos/debian-root}
mkdir -p "$dcache/debs"
dcache=$(cd "$dcache" && pwd)
root="$dcache/root-$(IFS=-; echo "${pkgs[*]}")"
[ ${#root} -lt 200 ] || root="$dcache/root-${pkgs[0]}-and-$((${#pkgs[@]} - 1))-more-$(echo "${pkgs[*]}" | md5sum | cut -c1-8)"

say() { echo "fetch-debian-root: $*" >&2; }
die() { echo "fetch-debian-root: error: $*" >&2; exit 1; }

if [ "${DEBIAN_ROOT_REFRESH:-0}" != 1 ] && [ -f "$root/.complete" ]; then
	echo "$root"
	exit 0
fi

. "$(dirname "$0")/linux-apt.sh"	# $cache (the apt state) and apt_opts

updated=0
debs=()
for p in "${pkgs[@]}"; do
	deb=$(ls "$dcache/debs/${p}_"*_arm64.deb "$dcache/debs/${p}_"*_all.deb 2>/dev/null | sort -V | tail -n 1 || true)
	if [ -z "$deb" ] || [ "${DEBIAN_ROOT_REFRESH:-0}" = 1 ]; then
		if [ "$updated" = 0 ]; then
			say "updating the arm64 package lists in $cache/lists ..."
			apt-get "${apt_opts[@]}" update >&2 || die "apt-get update (arm64 view) failed"
			updated=1
		fi
		say "downloading $p ..."
		(cd "$dcache/debs" && apt-get "${apt_opts[@]}" download "$p") >&2 || die "apt-get download $p failed"
		deb=$(ls "$dcache/debs/${p}_"*_arm64.deb "$dcache/debs/${p}_"*_all.deb 2>/dev/null | sort -V | tail -n 1 || true)
		[ -n "$deb" ] || die "apt-get download $p gave no package"
	fi
	debs+=("$deb")
done

rm -rf "$root.tmp"
mkdir -p "$root.tmp"
for deb in "${debs[@]}"; do
	say "unpacking $(basename "$deb") ..."
	dpkg-deb -x "$deb" "$root.tmp"
done
rm -rf "$root"
mv "$root.tmp" "$root"
touch "$root/.complete"
echo "$root"
