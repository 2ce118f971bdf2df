#!/usr/bin/env bash
# fuzz-campaign.sh - a long survival run of the address-space fuzzer on our
# kernel: ten seeds per boot in driver mode (tests/fuzz/README.md, "Campaigns").
#
#   fuzz-campaign.sh [--arch arm64|microblaze] [--board ml605|s3adsp1800]
#                    --base N --boots A-B [--calls N] [--opts "BOOTARGS"] [--out DIR]
#
# Boot g (A <= g <= B) runs seeds base+10g .. base+10g+9, each for --calls
# calls (default 20000), digests only, with /init's leak check after the
# ten (leakcheck=1), norandmaps and THP on madvise (arm64: 8 huge pages of
# 2 MiB too); --opts adds bootargs, e.g. "mm_check=1000 fuzz_files=1".
# Each boot appends one line to DIR/summary (default build/fuzz/campaign-
# <target>): seeds, how many completed, whether the leak check passed, the
# checker's counts, seconds. The boot log is DIR/<g>.log. Ends with the
# totals and exits non-zero if any boot failed (a panic, a hang, a seed
# that did not complete, a leak).
set -u
cd "$(dirname "$0")/.."

arch=arm64 board= base= boots= calls=20000 opts= out=
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=$2; shift 2 ;;
	--board) board=$2; shift 2 ;;
	--base) base=$2; shift 2 ;;
	--boots) boots=$2; shift 2 ;;
	--calls) calls=$2; shift 2 ;;
	--opts) opts=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "fuzz-campaign.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -n "$base" ] && [[ "$boots" =~ ^[0-9]+-[0-9]+$ ]] || { echo "fuzz-campaign.sh: --base N and --boots A-B are needed" >&2; exit 2; }

if [ "$arch" = arm64 ]; then
	target=arm64 kvars="ARCH=arm64 MEM=512M" pool="hugepages=8 transparent_hugepage=madvise"
	image=build/arm64/fuzz/initramfs.cpio
else
	board=${board:-ml605} target=microblaze-$board
	kvars="ARCH=microblaze BOARD=$board MEM=128M" pool="transparent_hugepage=madvise"
	image=build/$target/fuzz/initramfs.cpio
fi
out=${out:-build/fuzz/campaign-$target}
mkdir -p "$out"
# shellcheck disable=SC2086
make --no-print-directory -s kernel $kvars >"$out/build.log" 2>&1 &&
	make --no-print-directory -s -f tests/user/user.mk ARCH=$arch ${board:+BOARD=$board} fuzz-images \
		>>"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; echo "fuzz-campaign: build failed"; exit 1; }
# Ten seeds: about 0.6-1.5 ms a call on arm64, 1-3 ms on MicroBlaze, more
# with the checker; a generous bound, so only a hang reaches it.
timeout=$((120 + calls * 10 * 6 / 1000))

nboots=0 nfail=0
for g in $(seq "${boots%-*}" "${boots#*-}"); do
	s0=$((base + 10 * g))
	seeds=$(seq -s, "$s0" $((s0 + 9)))
	log=$out/$g.log
	# shellcheck disable=SC2086
	cmd=$(make --no-print-directory -s qemu-cmd $kvars INITRD=$image \
		BOOTARGS="leakcheck=1 norandmaps $pool fuzz_seeds=$seeds fuzz_calls=$calls fuzz_log=0 $opts")
	t0=$(date +%s)
	eval "bash tools/run-qemu.sh --name campaign-$g --arch $arch --timeout $timeout --log $log -- $cmd" \
		>"$log.out" 2>&1
	rc=$?
	ok=$(grep -a -c -E "^ok [0-9]+ - mmfuzz: seed [0-9]+: $calls calls, exit 0" "$log")
	leak=$(grep -a -c -E '^ok [0-9]+ - mmfuzz: no memory leaked' "$log")
	checks=$(grep -a -m1 '^mm_check: all passed' "$log" | sed 's/^mm_check: all passed: //')
	leakmsg="failed or missing"
	[ "$leak" = 1 ] && leakmsg=passed
	line="boot $g: seeds $s0-$((s0 + 9)) x $calls: $ok/10 completed, leak check $leakmsg, exit $rc, $(($(date +%s) - t0)) s${checks:+; checks: $checks}"
	nboots=$((nboots + 1))
	if [ "$rc" != 0 ] || [ "$ok" != 10 ] || [ "$leak" != 1 ]; then
		nfail=$((nfail + 1))
		line="$line: FAILED (see $log)"
	fi
	echo "$line" | tee -a "$out/summary"
done
echo "fuzz-campaign: $nboots boots of 10 seeds x $calls calls on $target: $nfail failed"
[ "$nfail" = 0 ]
