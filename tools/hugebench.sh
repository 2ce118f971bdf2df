#!/usr/bin/env bash
# hugebench.sh - fill and populate 64 huge pages with init_on_alloc=0 and
# =1, on this kernel (arm64) and on Debian's Linux 6.12, in guest
# instructions (-icount shift=0,align=off,sleep=off), and print the
# ratio init_on_alloc=1 / init_on_alloc=0 for each kernel; then the same on
# both MicroBlaze boards (4 MiB pages, as many as half of MEM=256M holds),
# built with the test libc. Part of `make bench`; figures, not a pass/fail
# test.
#
# A ratio near 1.0 means each huge page was cleared once whatever the
# policy; near 2.0 means init_on_alloc cleared it on entering the pool and
# the first fault cleared it again. On this kernel the bytes zeroed per
# page are shown too (from /proc/zeroed_bytes).
set -u
cd "$(dirname "$0")/.."

out=build/bench
mkdir -p "$out"
bin=$out/hugebench
aarch64-linux-gnu-gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -D_GNU_SOURCE \
	-o "$bin" tests/bench/hugebench.c || exit 1
bash tools/mkinitramfs.sh "$out/hugebench.cpio" "/init=$bin" || exit 1
make --no-print-directory -s kernel ARCH=arm64 || exit 1

icount="-icount shift=0,align=off,sleep=off"
run() {	# run NAME KERNEL APPEND: print the hugebench line of one boot
	local log="$out/$1.log"
	bash tools/run-qemu.sh --name "$1" --arch arm64 --timeout 300 --log "$log" -- \
		qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -m 512M -nographic -no-reboot \
		-nic none $icount -kernel "$2" -initrd "$out/hugebench.cpio" -append "$3" >/dev/null
	grep -a -o 'hugebench: .*' "$log" | head -n 1 | tr -d '\r'
}
field() {	# field LINE NAME: the number after NAME in a hugebench line
	echo "$1" | sed -E "s/.* $2 ([0-9.]+).*/\\1/;t;s/.*/-/"
}
mb_run() {	# mb_run BOARD APPEND: the hugebench line of one MicroBlaze boot
	local cpio="$out/hugebench-$1.cpio" log="$out/mb-$1-$2.log" cmd
	cmd=$(make --no-print-directory -s ARCH=microblaze BOARD="$1" MEM=256M qemu-cmd \
		INITRD="$cpio" BOOTARGS="$2" QEMU_EXTRA="$icount")
	eval "bash tools/run-qemu.sh --name mb-$1 --arch microblaze --timeout 300 --log $log -- $cmd" >/dev/null
	grep -a -o 'hugebench: .*' "$log" | head -n 1 | tr -d '\r'
}

ours0=$(run teachos-alloc0 build/arm64/Image "init_on_alloc=0")
ours1=$(run teachos-alloc1 build/arm64/Image "init_on_alloc=1")
if vmlinuz=$(bash tools/fetch-linux.sh); then
	linux0=$(run linux-alloc0 "$vmlinuz" "console=ttyAMA0 quiet panic=-1 init_on_alloc=0")
	linux1=$(run linux-alloc1 "$vmlinuz" "console=ttyAMA0 quiet panic=-1 init_on_alloc=1")
else
	linux0="" linux1=""
fi

declare -A mb0 mb1
for b in ml605 s3adsp1800; do
	if make --no-print-directory -s ARCH=microblaze BOARD=$b MEM=256M kernel bench-bins >>"$out/hugebench-build.log" 2>&1 &&
	   bash tools/mkinitramfs.sh "$out/hugebench-$b.cpio" "/init=build/microblaze-$b/bench/hugebench"; then
		mb0[$b]=$(mb_run $b "init_on_alloc=0")
		mb1[$b]=$(mb_run $b "init_on_alloc=1")
	fi
done

printf '\nHuge pages: fill the pool and populate it (guest instructions)\n'
printf '%-14s %14s %14s %8s %16s\n' kernel init_on_alloc=0 init_on_alloc=1 ratio clears/page%
for k in teachos linux mb-ml605 mb-s3adsp1800; do
	case $k in
	teachos) a=$ours0 b=$ours1 ;;
	linux) a=${linux0:-} b=${linux1:-} ;;
	mb-*) a=${mb0[${k#mb-}]:-} b=${mb1[${k#mb-}]:-} ;;
	esac
	i0=$(field "$a" instructions)
	i1=$(field "$b" instructions)
	ratio=-
	[ "$i0" != - ] && [ "$i1" != - ] && ratio=$(awk -v x="$i1" -v y="$i0" 'BEGIN { printf "%.3f", x / y }')
	printf '%-14s %14s %14s %8s %16s\n' "$k" "$i0" "$i1" "$ratio" \
		"$(field "$a" clears-per-page-x100)/$(field "$b" clears-per-page-x100)"
done
echo "(arm64: $(field "$ours0" pages) x $(field "$ours0" size) kB pages; MicroBlaze:" \
	"$(field "${mb0[ml605]:-}" pages) x $(field "${mb0[ml605]:-}" size) kB; target: ratio at most 1.05, 100 = one clear per page)"
