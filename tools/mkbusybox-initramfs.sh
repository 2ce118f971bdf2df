#!/usr/bin/env bash
# mkbusybox-initramfs.sh - the initramfs of arm64's `make run`: Debian's
# busybox as /bin/busybox, a link /bin/<applet> to it for every applet the
# binary has, and our own /init script (userland/busybox-init).
#
#   mkbusybox-initramfs.sh OUT.cpio BUSYBOX INIT [LINKS]
#
# LINKS is how the applets are linked to /bin/busybox: "symlink" (as
# `busybox --install -s` does) or "hard" (default for now). Our kernel's
# initramfs reader does not follow symbolic links yet, so an applet run
# through a symlink would fail with EACCES; hard links it reads today.
# Switch the default to symlink once the file system follows them.
#
# The applet names come from the binary itself (tools/busybox-applets.py),
# so the list always matches the binary, which we cannot run on the host.
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 OUT.cpio BUSYBOX INIT [symlink|hard]" >&2; exit 2; }
out=$1 busybox=$2 init=$3 links=${4:-hard}
here=$(dirname "$0")

applets=$(python3 "$here/busybox-applets.py" "$busybox")

args=(/bin/busybox="$busybox" /init="$init" /tmp/ /etc/ /root/ /sys/)
for a in $applets; do
	[ "$a" = busybox ] && continue
	case $links in
	symlink) args+=("/bin/$a->busybox") ;;
	hard) args+=("/bin/$a=>/bin/busybox") ;;
	*) echo "mkbusybox-initramfs: LINKS must be symlink or hard, not '$links'" >&2; exit 2 ;;
	esac
done
bash "$here/mkinitramfs.sh" "$out" "${args[@]}"
echo "  CPIO [busybox] $out ($(echo "$applets" | wc -l) applets, $links links)"
