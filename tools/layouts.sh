#!/usr/bin/env bash
# layouts.sh - `make layouts`: build and boot every arm64 page-table layout
# (arch/arm64/arch.mk LAYOUTS) and print one table of what each costs.
#
# Each boot: MEM=4G, BOOTARGS=ptdump (rodata=full, the default), under
# -icount shift=0 (CLOCK_MONOTONIC counts guest instructions, so the bench
# figures repeat exactly), with /init = tests/bench/layoutprobe.c (1 GiB of
# anonymous memory touched page by page, then tests/bench/mmbench.c).
# Columns:
#   levels        translation levels (the boot banner's "layout:" line)
#   lm tables     page-table pages of the linear map at 4 GiB (ptdump summary)
#   user tables   page-table pages the 1 GiB touched region added (MADV_NOHUGEPAGE)
#   largest leaf  the largest block the layout has
#   TLB/1G lm     TLB entries to cover 1 GiB of the linear map (largest block,
#                 or a contiguous run of PMD blocks where that is larger and
#                 still fits in the 1 GiB)
#   TLB/1G user   TLB entries for the 1 GiB of user pages (one per page)
#   fault, mprotect  mmbench's anon_fault_page and mprotect_1page (instructions)
# Logs: build/layouts/<layout>.log. Environment: LAYOUTS_TIMEOUT (default 900 s),
# LAYOUTS_ONLY (a list of GRANULE-VA_BITS pairs to measure instead of all, e.g. "64K-52").
set -u
cd "$(dirname "$0")/.."

out=build/layouts
mkdir -p "$out"
tmo=${LAYOUTS_TIMEOUT:-900}
layouts=$(make --no-print-directory -s -f - <<'MK'
include arch/arm64/arch.mk
x: ; @echo $(LAYOUTS)
MK
)
layouts=${LAYOUTS_ONLY:-$layouts}
bash tools/mkinitramfs.sh "$out/probe.cpio" /init=build/linux-arm64/bench/layoutprobe \
	/bin/mmbench=build/linux-arm64/bench/mmbench >/dev/null

rows=()
for l in $layouts; do
	g=${l%-*}; v=${l#*-}
	name="arm64-${g,,}-$v"
	echo "== $name"
	if ! make --no-print-directory -s -j2 ARCH=arm64 GRANULE="$g" VA_BITS="$v" kernel >"$out/$name.build.log" 2>&1; then
		tail -n 20 "$out/$name.build.log"; rows+=("$g/$v | build failed"); continue
	fi
	cmd=$(make --no-print-directory -s ARCH=arm64 GRANULE="$g" VA_BITS="$v" MEM=4G BOOTARGS=ptdump \
		INITRD="$out/probe.cpio" QEMU_EXTRA='-icount shift=0,align=off,sleep=off' qemu-cmd)
	# One string for eval, so the quoted -append "ptdump" stays one word.
	eval "bash tools/run-qemu.sh --name \"\$name\" --arch arm64 --timeout \"\$tmo\" --log \"\$out/\$name.log\" -- $cmd" >/dev/null
	log="$out/$name.log"
	lv=$(grep -a -o -E '[0-9]+ levels' "$log" | head -n 1 | cut -d' ' -f1)
	big=$(grep -a -o -E 'largest leaf [0-9]+ MiB' "$log" | head -n 1 | awk '{print $3}')
	contb=$(grep -a -o -E 'and [0-9]+ blocks of [0-9]+ MiB' "$log" | head -n 1)
	nb=$(echo "$contb" | awk '{print $2}'); pmd=$(echo "$contb" | awk '{print $5}')
	lmt=$(grep -a -o -E 'ptdump: linear map: [0-9]+ page-table pages' "$log" | grep -o -E '[0-9]+' | head -n 1)
	ut=$(grep -a -E '^layout: user_tables_1g' "$log" | awk '{print $3}' | tr -d '\r')
	up=$(grep -a -E '^layout: user_pages_1g' "$log" | awk '{print $3}' | tr -d '\r')
	fault=$(grep -a -E '^bench: anon_fault_page' "$log" | awk '{print $3}' | tr -d '\r')
	mprot=$(grep -a -E '^bench: mprotect_1page' "$log" | awk '{print $3}' | tr -d '\r')
	tlb='?'
	if [ -n "$big" ] && [ -n "$pmd" ]; then
		run=$big
		# a contiguous run of PMD blocks, where it fits in the 1 GiB (16K: 32 x 32M)
		[ "$big" = "$pmd" ] && [ $((pmd * nb)) -le 1024 ] && run=$((pmd * nb))
		[ "$run" -ge 1024 ] && tlb=1 || tlb=$((1024 / run))
	fi
	rows+=("$g/$v | ${lv:-?} | ${lmt:-?} | ${ut:-?} | ${big:-?}M | $tlb | ${up:-?} | ${fault:-?} | ${mprot:-?}")
done

echo
echo "| layout | levels | lm tables (4G, rodata=full) | user tables (1 GiB touched) | largest leaf | TLB/1G lm | TLB/1G user | fault (instr/page) | mprotect (instr/call) |"
echo "|---|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do echo "| $r |"; done
