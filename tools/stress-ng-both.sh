#!/usr/bin/env bash
# stress-ng-both.sh - Debian's stress-ng (arm64, dynamically linked, with
# its 22 libraries) on our kernel and on Debian's Linux 6.12 in the same
# QEMU, one memory-management stressor at a time with --verify
# (tests/debian/stress/stress-ng.sh), and a table of what each kernel made
# of each stressor: the exit status, stress-ng's verdict ("successful" /
# "unsuccessful run"), the bogo-op count, and the "fail:" lines. Not part
# of `make check` (two boots of a few minutes); `make stress-ng-both`.
#
# Environment: DEBIAN_TIMEOUT (seconds per boot, default 600),
# STRESS_BOOTARGS (our kernel's, default "leakcheck=1").
set -u
cd "$(dirname "$0")/.."
out=build/debian
mkdir -p "$out"
pkgs=(libc6 busybox stress-ng libegl1 libgles2 libjudydebian1 libapparmor1 libbsd0 libcrypt1 libgbm1
      libjpeg62-turbo libkmod2 libsctp1 libxxhash0 zlib1g libglvnd0 libmd0 liblzma5 libzstd1 libssl3 libdrm2
      libwayland-server0 libexpat1 libffi8)
root=$(bash tools/fetch-debian-root.sh "${pkgs[@]}") || { echo "stress-ng-both: fetching the packages failed"; exit 1; }
vmlinuz=$(bash tools/fetch-linux.sh) || { echo "stress-ng-both: fetching Linux failed"; exit 1; }
bash tools/mkdebian-initramfs.sh "$out/stress.cpio" "$root" /init=tests/debian/init \
	/tests/stress-ng.sh=tests/debian/stress/stress-ng.sh >/dev/null || exit 1
make --no-print-directory -s kernel ARCH=arm64 || exit 1
ours=$(make --no-print-directory -s qemu-cmd ARCH=arm64 INITRD="$out/stress.cpio" BOOTARGS="${STRESS_BOOTARGS:-leakcheck=1}")
eval "bash tools/run-qemu.sh --name stress-teachos --arch arm64 --timeout ${DEBIAN_TIMEOUT:-600} \
	--log $out/stress-teachos.log -- $ours" >"$out/stress-teachos.out" 2>&1 &
bash tools/run-qemu.sh --name stress-linux --arch arm64 --timeout "${DEBIAN_TIMEOUT:-600}" --log "$out/stress-linux.log" -- \
	qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -m 512M -nographic -no-reboot -kernel "$vmlinuz" \
	-initrd "$out/stress.cpio" -append "console=ttyAMA0 quiet loglevel=1 panic=-1 poweroff=1" \
	>"$out/stress-linux.out" 2>&1
wait
summary() {	# summary LOG STRESSOR: "status verdict bogo-ops fails"
	tr -d '\r' <"$1" | sed -n "/^-- $2\$/,/^-- $2 status/p" | awk -v s="$2" '
		$1 == "metrc:" && $3 == s && ops == "" { ops = $4 }
		/successful run completed/ { v = ($3 == "unsuccessful") ? "unsuccessful" : "successful" }
		/^fail:/ { f++ }
		/^-- .* status/ { st = $4 }
		END { printf "%s %s %s %d\n", st == "" ? "-" : st, v == "" ? "-" : v, ops == "" ? "-" : ops, f }'
}
printf '%-8s | %-34s | %-34s\n' stressor "ours: status verdict bogo-ops fails" "Linux 6.12: the same"
for s in vm mmap mremap madvise mlock brk stack fork; do
	printf '%-8s | %-34s | %-34s\n' "$s" "$(summary "$out/stress-teachos.log" "$s")" "$(summary "$out/stress-linux.log" "$s")"
done
echo "system calls our kernel lacked:"
tr -d '\r' <"$out/stress-teachos.log" | grep -a -o 'syscall [0-9]* (unknown) not implemented' | sort -u | sed 's/^/  /'
