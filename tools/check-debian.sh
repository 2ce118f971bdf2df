#!/usr/bin/env bash
# check-debian.sh - Debian's own dynamically linked programs on our kernel
# and on Debian's Linux 6.12, in the same QEMU, with the outputs compared.
#
# The root file system is assembled at test time from Debian's arm64
# packages (tools/fetch-debian-root.sh: libc6 and busybox, the dynamically
# linked PIE one, unpacked with dpkg-deb into a cache outside the tree)
# plus tests/debian/init and the scripts tests/debian/*.sh
# (tools/mkdebian-initramfs.sh). Both kernels boot that same initramfs,
# two boots at once; /init runs every script between "== begin" and
# "== end ... status=N" lines. Printed as TAP:
#   - each boot itself (tools/run-qemu.sh's judgement: clean exit, no panic);
#   - per script: it ended with status 0 on our kernel, and its output is
#     the same on both kernels line for line (a diff is shown otherwise);
#     a script named *.differ.sh must differ instead (uname.differ.sh: the
#     proof that the comparison fires).
# Ends with "run: debian-arm64: N passed, N failed".
#
# Environment: DEBIAN_TIMEOUT (seconds per boot, default 180), LINUX_CACHE
# and DEBIAN_ROOT_CACHE (see the fetch scripts), DEBIAN_BOOTARGS (our
# kernel's, default "mm_check=1 leakcheck=1").
set -u
cd "$(dirname "$0")/.."
out=build/debian
mkdir -p "$out"
n=0 pass=0 fail=0
point() {	# point STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - debian: $2"; pass=$((pass + 1))
	else echo "not ok $n - debian: $2"; fail=$((fail + 1)); fi
}
finish() { echo "run: debian-arm64: $pass passed, $fail failed"; exit $(( fail > 0 )); }

if ! root=$(bash tools/fetch-debian-root.sh libc6 busybox); then
	point 1 "fetch Debian's libc6 and busybox (arm64)"; finish
fi
if ! vmlinuz=$(bash tools/fetch-linux.sh); then
	point 1 "fetch Debian's Linux kernel"; finish
fi
scripts=(tests/debian/*.sh)
extras=(/init=tests/debian/init)
for s in "${scripts[@]}"; do extras+=("/tests/$(basename "$s")=$s"); done
if ! bash tools/mkdebian-initramfs.sh "$out/initramfs.cpio" "$root" "${extras[@]}" >"$out/build.log" 2>&1 ||
   ! make --no-print-directory -s kernel ARCH=arm64 >>"$out/build.log" 2>&1; then
	tail -n 20 "$out/build.log"; point 1 "build the initramfs and the kernel"; finish
fi

ours=$(make --no-print-directory -s qemu-cmd ARCH=arm64 INITRD="$out/initramfs.cpio" \
	BOOTARGS="${DEBIAN_BOOTARGS:-mm_check=1 leakcheck=1}")
eval "bash tools/run-qemu.sh --name debian-teachos --arch arm64 --timeout ${DEBIAN_TIMEOUT:-180} \
	--log $out/teachos.log -- $ours" >"$out/teachos.out" 2>&1 &
bash tools/run-qemu.sh --name debian-linux --arch arm64 --timeout "${DEBIAN_TIMEOUT:-180}" --log "$out/linux.log" -- \
	qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -m 512M -nographic -no-reboot -kernel "$vmlinuz" \
	-initrd "$out/initramfs.cpio" -append "console=ttyAMA0 quiet loglevel=1 panic=-1 poweroff=1" \
	>"$out/linux.out" 2>&1
wait
for k in teachos linux; do
	grep -a -E '^(not )?ok - ' "$out/$k.out" | grep -q '^ok - ' ; point $? "the $k boot ends cleanly"
	[ "$k" = linux ] || grep -a -E '^not ok - ' "$out/$k.out" | head -n 3
done

section() {	# section LOG SCRIPT: the script's output lines, then its end line
	tr -d '\r' <"$1" | sed -n "\\|^== begin /tests/$2\$|,\\|^== end /tests/$2 |p" | sed '1d'
}
for s in "${scripts[@]}"; do
	b=$(basename "$s")
	section "$out/teachos.log" "$b" >"$out/$b.teachos"
	section "$out/linux.log" "$b" >"$out/$b.linux"
	grep -q "^== end /tests/$b status=0\$" "$out/$b.teachos"
	point $? "$b ends with status 0 on our kernel"
	if [ "${b%.differ.sh}" != "$b" ]; then
		! diff -q "$out/$b.linux" "$out/$b.teachos" >/dev/null && [ -s "$out/$b.linux" ]
		point $? "$b: the comparison finds the two kernels' outputs different"
	elif [ -s "$out/$b.linux" ] && diff -u "$out/$b.linux" "$out/$b.teachos" >"$out/$b.diff"; then
		point 0 "$b: the same output on both kernels ($(($(wc -l <"$out/$b.linux") - 1)) lines)"
	else
		point 1 "$b: the same output on both kernels (diff: Linux -, ours +)"
		head -n 40 "$out/$b.diff" | sed 's/^/  | /'
	fi
done
finish
