#!/usr/bin/env bash
# mkdebian-initramfs.sh - an initramfs of Debian's own arm64 programs: the
# tree tools/fetch-debian-root.sh unpacked (libc6, the dynamically linked
# busybox, ...), a symbolic link /bin/<applet> -> busybox for every applet
# of its busybox, and the given extra files (our /init script, test
# scripts and programs).
#
#   mkdebian-initramfs.sh OUT.cpio ROOT [/PATH=HOSTFILE | /PATH/ ...]
#
# Documentation, manual pages, locales and glibc's gconv modules are left
# out (nothing here reads them), which keeps the archive small.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 OUT.cpio ROOT [/PATH=HOSTFILE]..." >&2; exit 2; }
out=$1 root=$2
shift 2
here=$(dirname "$0")
[ -x "$root/bin/busybox" ] || { echo "mkdebian-initramfs: no bin/busybox in $root" >&2; exit 1; }

args=(/tmp/ /etc/ /root/ /sys/ /proc/ /dev/)
while IFS= read -r -d '' f; do
	rel=${f#"$root"}
	case $rel in
	/usr/share/*|*/gconv/*|/.complete) continue ;;
	esac
	if [ -L "$f" ]; then
		args+=("$rel->$(readlink "$f")")
	elif [ -d "$f" ]; then
		args+=("$rel/")
	elif [ -f "$f" ]; then
		args+=("$rel=$f")
	fi
done < <(cd "$root" && find "$root" -mindepth 1 -print0 | sort -z)
for a in $(python3 "$here/busybox-applets.py" "$root/bin/busybox"); do
	[ "$a" = busybox ] || [ -e "$root/bin/$a" ] || args+=("/bin/$a->busybox")
done
bash "$here/mkinitramfs.sh" "$out" "${args[@]}" "$@"
echo "  CPIO [debian] $out"
