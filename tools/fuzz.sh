#!/usr/bin/env bash
# fuzz.sh - run the address-space fuzzer (tests/fuzz/mmfuzz.c) on our kernel
# and, on arm64, on Debian's Linux 6.12, and compare (`make fuzz`, `make fuzz-diff`).
#
#   fuzz.sh [--arch arm64|microblaze] [--board ml605|s3adsp1800] [--seeds 1,2,3]
#           [--calls N] [--log 0|1] [--mem SIZE] [--out DIR] [--no-linux]
#           [--hugepages N] [--opts "fuzz_mlock=1 ..."] [--strict]
# FUZZ_TIMEOUT=seconds overrides the per-boot timeout (default 90 + calls/100).
#
# Per seed, one boot of our kernel with the fuzz image and /init's leak check
# (leakcheck=1), judged by tools/run-qemu.sh: no panic, the fuzzer completes,
# no page leaked. On arm64 the same image (the glibc build) also boots on
# Debian's Linux 6.12 (as tools/check-linux.sh does, with norandmaps) and
# tools/fuzzcmp.py names the first divergence (--strict: a raw= difference,
# the same VMAs split into different pieces, is one too). Both kernels get the same
# huge-page pool (--hugepages, default 8 of 2 MiB) and THP policy, and
# fuzz_guard=0 (Linux 6.12 has no guard regions). On MicroBlaze there is no
# Linux to compare with: survival only.
#
# Logs: DIR/<seed>.ours.log, DIR/<seed>.linux.log, DIR/<seed>.cmp
# (default DIR build/fuzz/<target>). Ends with "fuzz: N seeds: ..." and
# exits non-zero if any run on our kernel failed (a divergence alone does
# not fail the run: see tests/fuzz/README.md for the known ones).
set -u
cd "$(dirname "$0")/.."

arch=arm64 board= seeds=1 calls=10000 log= mem= out= linux=1 extra= hugepages=8 strict=
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=$2; shift 2 ;;
	--board) board=$2; shift 2 ;;
	--seeds) seeds=$2; shift 2 ;;
	--calls) calls=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--no-linux) linux=0; shift ;;
	--opts) extra=$2; shift 2 ;;
	--hugepages) hugepages=$2; shift 2 ;;
	--strict) strict=--strict; shift ;;
	*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
	esac
done

if [ "$arch" = arm64 ]; then
	target=arm64 mem=${mem:-512M} log=${log:-1}
	image=build/linux-arm64/fuzz/initramfs.cpio
	kvars="ARCH=arm64 MEM=$mem"
	pool="hugepages=$hugepages transparent_hugepage=madvise"
else
	board=${board:-ml605} target=microblaze-$board mem=${mem:-128M} log=${log:-0} linux=0
	image=build/$target/fuzz/initramfs.cpio
	kvars="ARCH=microblaze BOARD=$board MEM=$mem"
	pool="transparent_hugepage=madvise"
fi
out=${out:-build/fuzz/$target}
mkdir -p "$out"
# Two boots per seed at most; about 0.6 ms a call on arm64 TCG, 1.2 ms or more on MicroBlaze
# (tests/fuzz/README.md; much more with mm_check=1), plus the boot.
timeout=${FUZZ_TIMEOUT:-$((90 + calls / 100))}

# shellcheck disable=SC2086
make --no-print-directory -s kernel $kvars >"$out/build.log" 2>&1 &&
	make --no-print-directory -s -f tests/user/user.mk ARCH=$arch ${board:+BOARD=$board} fuzz-images \
		>>"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; echo "fuzz: build failed"; exit 1; }
if [ "$linux" = 1 ]; then
	vmlinuz=$(bash tools/fetch-linux.sh) || { echo "fuzz: no Linux kernel: --no-linux to run ours only"; exit 1; }
fi

fargs() {	# fargs SEED: the fuzzer's options on a kernel command line
	echo "fuzz_seed=$1 fuzz_calls=$calls fuzz_log=$log fuzz_guard=0 $extra"
}

boot_ours() {	# boot_ours SEED
	local cmd
	# shellcheck disable=SC2086
	cmd=$(make --no-print-directory -s qemu-cmd $kvars INITRD=$image \
		BOOTARGS="leakcheck=1 norandmaps $pool $(fargs "$1")")
	eval "bash tools/run-qemu.sh --name ours-$1 --arch $arch --timeout $timeout --log $out/$1.ours.log -- $cmd" \
		>"$out/$1.ours.out" 2>&1
}

boot_linux() {	# boot_linux SEED
	bash tools/run-qemu.sh --name linux-$1 --arch arm64 --timeout $((timeout + 60)) --log "$out/$1.linux.log" -- \
		qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -m "$mem" -nographic -no-reboot \
		-kernel "$vmlinuz" -initrd "$image" \
		-append "console=ttyAMA0 quiet panic=-1 poweroff=1 norandmaps $pool $(fargs "$1")" \
		>"$out/$1.linux.out" 2>&1
}

nseeds=0 nfail=0 ndiv=0
for seed in ${seeds//,/ }; do
	nseeds=$((nseeds + 1))
	boot_ours "$seed" &
	[ "$linux" = 1 ] && boot_linux "$seed" &
	wait
	res=$(grep -a -E '^run: ' "$out/$seed.ours.out" | tail -n 1)
	if echo "$res" | grep -q -E ': [0-9]+ passed, 0 failed'; then
		ours=ok
	else
		ours="FAILED ($(grep -a -m1 -E '^not ok' "$out/$seed.ours.out" | cut -c1-200))"
		nfail=$((nfail + 1))
	fi
	msg="seed $seed: ours $ours"
	if [ "$linux" = 1 ]; then
		python3 tools/fuzzcmp.py "$out/$seed.ours.log" "$out/$seed.linux.log" $strict >"$out/$seed.cmp"
		case $? in
		0) notes=$(sed -n 's/^notes: \([0-9]*\) .*/\1/p' "$out/$seed.cmp")
		   msg="$msg; same as Linux${notes:+ ($notes raw= notes)}" ;;
		*) ndiv=$((ndiv + 1))
		   first=$(grep -m1 -E '^(result|state) divergence' "$out/$seed.cmp")
		   msg="$msg; differs from Linux: ${first:-see $out/$seed.cmp} ($out/$seed.cmp)" ;;
		esac
	fi
	echo "fuzz: $msg"
done
echo "fuzz: $nseeds seeds of $calls calls on $target: $nfail failed on our kernel, $ndiv differ from Linux"
[ "$nfail" = 0 ]
