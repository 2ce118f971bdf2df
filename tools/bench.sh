#!/usr/bin/env bash
# bench.sh - `make bench`: tests/bench/mmbench.c on our kernel and on
# Debian's Linux 6.12, side by side. Figures, not pass/fail: the script
# fails only when a run produced no figures.
#
# Every boot runs under -icount shift=0,align=off,sleep=off, where
# CLOCK_MONOTONIC advances one nanosecond per guest instruction, so the
# figures are guest instructions and repeat exactly from run to run.
#   ours-arm64   our kernel, the glibc (static) build as /init
#   linux-arm64  Linux 6.12 (tools/fetch-linux.sh), the very same binary,
#                -cpu max,pauth-impdef=on -m 512M
#   ours-mb-*    the tests/lib build on the MicroBlaze boards, only when
#                tests/qemu-configs has mb-*-user lines (user processes
#                run there); otherwise the output says they were skipped.
# Logs: build/bench/<name>.log.
#
# Environment: BENCH_TIMEOUT (seconds per boot, default 300).
set -u
cd "$(dirname "$0")/.."

out=build/bench
mkdir -p "$out"
tmo=${BENCH_TIMEOUT:-300}
icount='-icount shift=0,align=off,sleep=off'
runs=()

make --no-print-directory ARCH=arm64 kernel bench-bins >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log"; echo "bench: could not build"; exit 1; }
bash tools/mkinitramfs.sh "$out/glibc.cpio" /init=build/linux-arm64/bench/mmbench

echo "== ours-arm64"
cmd=$(make --no-print-directory -s ARCH=arm64 MEM=512M CPU=max qemu-cmd INITRD="$out/glibc.cpio" QEMU_EXTRA="$icount")
bash tools/run-qemu.sh --name ours-arm64 --arch arm64 --timeout "$tmo" --log "$out/ours-arm64.log" -- $cmd >/dev/null
runs+=(ours-arm64)

echo "== linux-arm64"
if vmlinuz=$(bash tools/fetch-linux.sh); then
	bash tools/run-qemu.sh --name linux-arm64 --arch arm64 --timeout "$tmo" --log "$out/linux-arm64.log" -- \
		qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -m 512M -nographic -no-reboot $icount \
		-kernel "$vmlinuz" -initrd "$out/glibc.cpio" \
		-append "console=ttyAMA0 quiet panic=-1 poweroff=1" >/dev/null
	runs+=(linux-arm64)
else
	echo "# could not fetch Debian's Linux kernel: no Linux column"
fi

# MicroBlaze: only where user processes run (a mb-*-user configuration).
mb_boards=$(grep -E '^mb-[^ ]*-user' tests/qemu-configs | grep -o -E 'BOARD=[a-z0-9]+' | sort -u | cut -d= -f2)
if [ -z "$mb_boards" ]; then
	echo "# MicroBlaze: skipped: tests/qemu-configs has no mb-*-user configuration, so user"
	echo "#   processes do not run there yet (mmbench builds with tests/lib: make ARCH=microblaze bench-bins)"
fi
for b in $mb_boards; do
	echo "== ours-mb-$b"
	if ! make --no-print-directory ARCH=microblaze BOARD="$b" MEM=256M kernel bench-bins >>"$out/build.log" 2>&1; then
		echo "# ours-mb-$b: could not build"
		continue
	fi
	tgt=microblaze-$b
	bash tools/mkinitramfs.sh "$out/$tgt.cpio" /init="build/$tgt/bench/mmbench"
	cmd=$(make --no-print-directory -s ARCH=microblaze BOARD="$b" MEM=256M qemu-cmd INITRD="$out/$tgt.cpio" QEMU_EXTRA="$icount")
	bash tools/run-qemu.sh --name "ours-mb-$b" --arch microblaze --timeout "$tmo" --log "$out/ours-mb-$b.log" -- $cmd >/dev/null
	runs+=("ours-mb-$b")
done

# ---- the tables -------------------------------------------------------------------
declare -A val
for r in "${runs[@]}"; do
	while read -r _ key v; do
		val[$r/$key]=$v
	done < <(tr -d '\r' <"$out/$r.log" | grep -a -E '^bench: [A-Za-z0-9_]+ -?[0-9]+$')
	if [ -z "${val[$r/mmap_munmap_128k]:-}" ]; then
		echo "# $r: no figures; last lines of $out/$r.log:"
		tail -n 15 "$out/$r.log" | tr -d '\r' | sed 's/^/#   | /'
	fi
done
get() { echo "${val[$1/$2]:--}"; }
ratio() {	# ratio A B: A/B with one decimal, or -
	if [[ "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ && "$2" != 0 ]]; then
		awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
	else
		echo -
	fi
}

echo
echo "Guest instructions per operation (-icount shift=0; Linux = Debian 6.12.117, same binary)"
printf '%-30s %12s %12s %12s' "measure" "ours" "linux" "linux/ours"
for r in "${runs[@]}"; do case $r in ours-mb-*) printf ' %14s' "$r" ;; esac; done
echo
for key in clock_gettime mmap_munmap_128k mprotect_1page quarantine_iter quarantine_minflt \
	mmap_munmap_few_vmas mmap_munmap_10000_vmas fork_exit_wait_16m anon_fault_page cow_fault_page; do
	o=$(get ours-arm64 $key) l=$(get linux-arm64 $key)
	printf '%-30s %12s %12s %12s' "$key" "$o" "$l" "$(ratio "$l" "$o")"
	for r in "${runs[@]}"; do case $r in ours-mb-*) printf ' %14s' "$(get "$r" $key)" ;; esac; done
	echo
done

echo
echo "Seal check overhead: the op over N VMAs, without (t) and with (t_seal) an unrelated sealed VMA"
printf '%-9s %4s | %9s %9s %7s %7s %8s | %9s %9s %7s %7s %8s\n' op vmas "ours t" t_seal delta per_vma "%" \
	"linux t" t_seal delta per_vma "%"
worst=
for op in mprotect munmap madvise; do
	for n in 1 2 4 8 16 32; do
		line=$(printf '%-9s %4s' "$op" "$n")
		for r in ours-arm64 linux-arm64; do
			t=$(get $r ${op}_${n}vma) s=$(get $r ${op}_${n}vma_sealed)
			if [[ "$t" =~ ^[0-9]+$ && "$s" =~ ^[0-9]+$ && "$t" != 0 ]]; then
				d=$((s - t))
				pct=$(awk -v s="$s" -v t="$t" 'BEGIN { printf "%.1f%%", 100 * s / t }')
				line="$line | $(printf '%9s %9s %7s %7s %8s' "$t" "$s" "$d" "$((d / n))" "$pct")"
				[ $r = ours-arm64 ] && worst=$(awk -v w="${worst:-0}" -v s="$s" -v t="$t" \
					'BEGIN { x = 100 * (s - t) / t; if (x < 0) x = -x; printf "%.2f", (x > w ? x : w) }')
			else
				line="$line | $(printf '%9s %9s %7s %7s %8s' "$t" "$s" - - -)"
			fi
		done
		echo "$line"
	done
done

echo
echo "Targets (reported, not asserted):"
o=$(get ours-arm64 mmap_munmap_128k) l=$(get linux-arm64 mmap_munmap_128k)
echo "  mmap+munmap: Linux/ours = $(ratio "$l" "$o") (target >= 3)"
o=$(get ours-arm64 mprotect_1page) l=$(get linux-arm64 mprotect_1page)
echo "  mprotect:    Linux/ours = $(ratio "$l" "$o") (target >= 3)"
echo "  quarantine loop minor faults: ours $(get ours-arm64 quarantine_minflt), linux $(get linux-arm64 quarantine_minflt) (target 0)"
echo "  seal check: largest |t_seal - t| / t on ours = ${worst:--}% (target <= 1%)"
o=$(get ours-arm64 mmap_munmap_10000_vmas) l=$(get ours-arm64 mmap_munmap_few_vmas)
echo "  10,000 VMAs vs few: ours x$(ratio "$o" "$l") (target <= 1.3), linux x$(ratio "$(get linux-arm64 mmap_munmap_10000_vmas)" "$(get linux-arm64 mmap_munmap_few_vmas)")"
for key in fork_exit_wait_16m anon_fault_page cow_fault_page mmap_munmap_10000_vmas; do
	echo "  $key: ours/Linux = $(ratio "$(get ours-arm64 $key)" "$(get linux-arm64 $key)") (target <= 0.5)"
done
[ -n "$(get ours-arm64 mmap_munmap_128k | tr -d -)" ]

# SMP and BBML2 (arch/arm64/kernel/ktests_smp.c, ktest smp_bench): 4 CPUs, 4 GiB, the kernel's
# figures in guest instructions (all CPUs' instructions, the waiting ones' spinning included).
echo
echo "SMP and BBML2 (4 CPUs, 4 GiB; guest instructions per operation)"
for m in auto secondary-lacks; do
	cmd=$(make --no-print-directory -s ARCH=arm64 MEM=4G SMP=4 CPU=max qemu-cmd \
		BOOTARGS="ktest=smp_bench bbml2=$m" QEMU_EXTRA="$icount")
	# eval: the command's -append "..." holds a space and must stay one word.
	eval "bash tools/run-qemu.sh --name smp-$m --arch arm64 --timeout $tmo --log $out/smp-$m.log -- $cmd" >/dev/null
	while read -r _ key v; do
		val[smp/$key]=$v
	done < <(tr -d '\r' <"$out/smp-$m.log" | grep -a -E '^bench: [A-Za-z0-9_]+ -?[0-9]+$')
done
for key in set_memory_ro_in_1g_bbml2 set_memory_ro_in_1g_bbml2_breaks set_memory_ro_in_1g_nobbml2 \
	set_memory_ro_in_1g_nobbml2_breaks set_memory_page_tlbi_is ipi_call_roundtrip rendezvous_hold_release \
	repaint_linear_map_ns repaint_blocks_split; do
	printf '%-36s %12s\n' "$key" "$(get smp $key)"
done

# Huge pages: pool fill + populate with init_on_alloc=0 and =1 (tools/hugebench.sh).
bash "$(dirname "$0")/hugebench.sh"
