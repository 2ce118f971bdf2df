#!/usr/bin/env bash
# check-linux.sh - run the user-space tests on real Linux (`make check-linux`).
#
# Proves that what the tests expect is what Linux does. Debian's arm64
# Linux 6.12 kernel (fetched by tools/fetch-linux.sh into a cache outside
# the tree) boots in QEMU twice, each time with an initramfs holding /init
# and the programs of tests/user:
#   linux-arm64           built against glibc (static): the expectations
#                         are Linux's, whatever our libc does;
#   linux-arm64-testlibc  built with the project's test libc (tests/lib):
#                         the very binaries our kernel runs, so the libc
#                         is proved against Linux too.
# tools/run-qemu.sh judges each boot like any other: /init prints
# "kernel-exit: status=N" (poweroff=1 on the command line tells it to) and
# powers off; every TAP point must pass. Each boot ends with a line
# "run: NAME: N passed, N failed".
#
# Environment:
#   LINUX_CACHE     where the kernel package is kept (see tools/fetch-linux.sh)
#   LINUX_TIMEOUT   seconds one boot may take (default 120)
#   LINUX_MEM       QEMU -m (default 512M)
#   LINUX_SMP       QEMU -smp (default 1)
#   LINUX_APPEND    extra kernel command-line words, e.g. "tests=proc,signal"
#   LINUX_VARIANTS  which boots to run (default "glibc testlibc")
set -u
cd "$(dirname "$0")/.."

fail() {	# fail NAME MESSAGE: report a boot that could not even start
	echo "not ok - $1: $2"
	echo "run: $1: 0 passed, 1 failed"
}

boot() {	# boot NAME INITRAMFS LOG
	bash tools/run-qemu.sh --name "$1" --arch arm64 --timeout "${LINUX_TIMEOUT:-120}" --log "$3" -- \
		qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -m "${LINUX_MEM:-512M}" -smp "${LINUX_SMP:-1}" -nographic \
		-no-reboot -kernel "$vmlinuz" -initrd "$2" \
		-append "console=ttyAMA0 quiet panic=-1 poweroff=1 ${LINUX_APPEND:-}"
}

if ! vmlinuz=$(bash tools/fetch-linux.sh); then
	fail linux-arm64 "could not fetch Debian's Linux kernel"
	exit 1
fi
echo "linux: $vmlinuz"

# Both builds first, then both boots at once (each into its own file,
# shown in order afterwards).
status=0
boots=()
for variant in ${LINUX_VARIANTS:-glibc testlibc}; do
	case $variant in
	glibc)
		name=linux-arm64 target=user-linux dir=build/linux-arm64 ;;
	testlibc)
		name=linux-arm64-testlibc target="user ARCH=arm64" dir=build/arm64 ;;
	*)
		echo "check-linux: unknown variant $variant" >&2; exit 2 ;;
	esac
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	if ! make --no-print-directory -f tests/user/user.mk $target >"$dir/linux-build.log" 2>&1; then
		tail -n 30 "$dir/linux-build.log"
		fail "$name" "could not build the tests (glibc: is libc6-dev-arm64-cross installed?)"
		status=1
		continue
	fi
	boot "$name" "$dir/initramfs.cpio" "$dir/linux-run.log" >"$dir/linux-run.out" 2>&1 &
	boots+=("$!:$dir/linux-run.out")
done
for b in "${boots[@]+"${boots[@]}"}"; do
	wait "${b%%:*}" || status=1
	cat "${b#*:}"
done
exit $status
