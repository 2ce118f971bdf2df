#!/usr/bin/env bash
# layouts.sh - `make layouts`: build and boot every arm64 page-table layout
# (arch/arm64/arch.mk LAYOUTS) and every MicroBlaze page size on ml605
# (arch/microblaze/arch.mk MB_PAGE_SIZES), and print one table of what each
# costs per architecture.
#
# Every boot runs BOOTARGS=ptdump (rodata=full, the default) under
# -icount shift=0 (CLOCK_MONOTONIC counts guest instructions, so the bench
# figures repeat exactly), with /init = tests/bench/layoutprobe.c (a region
# of anonymous memory touched page by page, then tests/bench/mmbench.c).
#   arm64       MEM=4G, the region 1 GiB; the glibc builds of both programs
#   MicroBlaze  BOARD=ml605 MEM=256M, the region 64 MiB (probe_mib=64: 1 GiB
#               does not fit the board's RAM); the test libc's builds
#               (make ARCH=microblaze layouts-bins)
# Columns (both tables unless marked):
#   levels        translation levels (arm64: the boot banner's "layout:"
#                 line; MicroBlaze: the levels in "ptdump: levels:")
#   lm tables     page-table pages of the linear map (ptdump summary)
#   user tables   page-table pages the touched region added (MADV_NOHUGEPAGE)
#   largest leaf  the largest block the layout has (MicroBlaze: the largest
#                 level marked "leaf" in "ptdump: levels:")
#   TLB/1G lm     arm64: TLB entries to cover 1 GiB of the linear map
#                 (largest block, or a contiguous run of PMD blocks where that
#                 is larger and still fits in the 1 GiB)
#   largest UTLB slot in lm  MicroBlaze: the largest UTLB slot the linear
#                 map uses: the largest block or contiguous run in the ptdump
#                 summary with a count above 0, at most 16 MiB (the largest
#                 slot size)
#   UTLB/1G lm    MicroBlaze: 1 GiB divided by that slot (computed; the
#                 linear map itself is only MEM)
#   user pages    MicroBlaze: the pages in the touched region (the probe's count)
#   TLB/1G user   (MicroBlaze: UTLB/1G user) entries for 1 GiB of user pages,
#                 one per page (computed from the page size; MicroBlaze's UTLB
#                 has 64 slots)
#   fault, mprotect  mmbench's anon_fault_page and mprotect_1page (instructions)
# Every figure but the computed TLB columns is read from the boot's log:
# build/layouts/<name>.log, name arm64-<granule>-<va bits> or mb-ml605-<page size>.
# Environment: LAYOUTS_TIMEOUT (seconds per boot, default 900), LAYOUTS_ONLY
# (the selections to measure instead of all: GRANULE-VA_BITS pairs for arm64,
# mb-PAGE_SIZE for MicroBlaze, e.g. "64K-52 mb-16K").
set -u
cd "$(dirname "$0")/.."

out=build/layouts
mkdir -p "$out"
tmo=${LAYOUTS_TIMEOUT:-900}
icount='-icount shift=0,align=off,sleep=off'
mb_mem=256M
mb_mib=64

# mk_var FILE VAR: VAR's value as FILE (an arch.mk, with its defaults) sets it.
mk_var() {
	make --no-print-directory -s -f - <<MK
include $1
x: ; @echo \$($2)
MK
}

all="$(mk_var arch/arm64/arch.mk LAYOUTS) $(mk_var arch/microblaze/arch.mk MB_PAGE_SIZES | sed 's/[^ ]*/mb-&/g')"
selected=${LAYOUTS_ONLY:-$all}

# logval LOG PREFIX: the third word of LOG's first line starting with PREFIX
# (e.g. "layout: user_tables" or "bench: anon_fault_page"), or "?".
logval() {
	local v
	v=$(grep -a -m1 -E "^$2 " "$1" | tr -d '\r' | awk '{print $3}')
	echo "${v:-?}"
}

# boot NAME ARCH MAKEVARS...: build the kernel for MAKEVARS into
# $out/NAME.build.log, then boot it with MAKEVARS' qemu-cmd, the console in
# $out/NAME.log (tools/run-qemu.sh, LAYOUTS_TIMEOUT). Fails, showing the
# build log's tail, when the build fails.
boot() {
	local name=$1 arch=$2 cmd
	shift 2
	echo "== $name"
	if ! make --no-print-directory -s -j2 ARCH="$arch" "$@" kernel >"$out/$name.build.log" 2>&1; then
		tail -n 20 "$out/$name.build.log"
		return 1
	fi
	cmd=$(make --no-print-directory -s ARCH="$arch" "$@" QEMU_EXTRA="$icount" qemu-cmd)
	# One string for eval, so the quoted -append "..." stays one word.
	eval "bash tools/run-qemu.sh --name \"\$name\" --arch \"\$arch\" --timeout \"\$tmo\" --log \"\$out/\$name.log\" -- $cmd" >/dev/null
	return 0
}

# region_ok LOG MIB: the probe in LOG says it touched MIB MiB.
region_ok() {
	[ "$(logval "$1" 'layout: region_mib')" = "$2" ]
}

# arm64_row GRANULE VA_BITS: boot that layout and print its table row.
arm64_row() {
	local g=$1 v=$2 name log lv big contb nb pmd lmt ut up tlb run
	name="arm64-${g,,}-$v"
	boot "$name" arm64 GRANULE="$g" VA_BITS="$v" MEM=4G BOOTARGS=ptdump INITRD="$out/probe.cpio" >&2 ||
		{ echo "$g/$v | build failed"; return; }
	log="$out/$name.log"
	lv=$(grep -a -o -E '[0-9]+ levels' "$log" | head -n 1 | cut -d' ' -f1)
	big=$(grep -a -o -E 'largest leaf [0-9]+ MiB' "$log" | head -n 1 | awk '{print $3}')
	contb=$(grep -a -o -E 'and [0-9]+ blocks of [0-9]+ MiB' "$log" | head -n 1)
	nb=$(echo "$contb" | awk '{print $2}'); pmd=$(echo "$contb" | awk '{print $5}')
	lmt=$(grep -a -o -E 'ptdump: linear map: [0-9]+ page-table pages' "$log" | grep -o -E '[0-9]+' | head -n 1)
	ut='?'; region_ok "$log" 1024 && ut=$(logval "$log" 'layout: user_tables')
	up=$(logval "$log" 'layout: user_pages')
	tlb='?'
	if [ -n "$big" ] && [ -n "$pmd" ]; then
		run=$big
		# a contiguous run of PMD blocks, where it fits in the 1 GiB (16K: 32 x 32M)
		[ "$big" = "$pmd" ] && [ $((pmd * nb)) -le 1024 ] && run=$((pmd * nb))
		[ "$run" -ge 1024 ] && tlb=1 || tlb=$((1024 / run))
	fi
	echo "$g/$v | ${lv:-?} | ${lmt:-?} | $ut | ${big:-?}M | $tlb | $up |" \
		"$(logval "$log" 'bench: anon_fault_page') | $(logval "$log" 'bench: mprotect_1page')"
}

# kib SIZE: a ptdump size (e.g. 16K, 64M, 1G) in KiB.
kib() {
	local n=${1%[KMG]}
	case $1 in *K) echo "$n" ;; *M) echo $((n * 1024)) ;; *G) echo $((n * 1024 * 1024)) ;; esac
}

# mb_row PAGE_SIZE: boot ml605 with that page size and print its table row.
mb_row() {
	local p=$1 name log levels lv leaf sum slot=0 s n k lmt ut pg tlb_lm='?' tlb_user='?'
	name="mb-ml605-${p,,}"
	boot "$name" microblaze BOARD=ml605 PAGE_SIZE="$p" MEM="$mb_mem" BOOTARGS="ptdump probe_mib=$mb_mib" \
		INITRD="$out/mb-probe.cpio" >&2 || { echo "$p | build failed"; return; }
	log="$out/$name.log"
	# "ptdump: levels: PGD 64M x64 leaf, PTE 16K x4096 leaf cont 1024"
	levels=$(grep -a -m1 '^ptdump: levels:' "$log" | tr -d '\r' | sed 's/^ptdump: levels://')
	[ -n "$levels" ] && lv=$(echo "$levels" | tr ',' '\n' | wc -l)
	leaf=$(echo "$levels" | tr ',' '\n' | grep -m1 ' leaf' | awk '{print $2}')
	# "ptdump: linear map: 1 page-table pages; 64M blocks: 3, 16M cont runs: 3, 16K pages: 1024"
	sum=$(grep -a -m1 '^ptdump: linear map:' "$log" | tr -d '\r')
	lmt=$(echo "$sum" | grep -o -E '[0-9]+ page-table pages' | cut -d' ' -f1)
	while read -r s n; do
		k=$(kib "$s")
		[ "$n" -gt 0 ] && [ "$k" -gt "$slot" ] && slot=$k
	done < <(echo "$sum" | grep -o -E '[0-9]+[KMG] (blocks|cont runs): [0-9]+' | sed -E 's/ (blocks|cont runs):/ /')
	[ "$slot" -gt 16384 ] && slot=16384
	[ "$slot" -gt 0 ] && tlb_lm=$((1024 * 1024 / slot))
	ut='?'; region_ok "$log" "$mb_mib" && ut=$(logval "$log" 'layout: user_tables')
	pg=$(logval "$log" 'layout: page_size')
	[[ $pg =~ ^[1-9][0-9]*$ ]] && tlb_user=$(((1 << 30) / pg))
	echo "$p | ${lv:-?} | ${lmt:-?} | $ut | ${leaf:-?} | $([ "$slot" -gt 0 ] && echo "$((slot / 1024))M" || echo '?') |" \
		"$tlb_lm | $(logval "$log" 'layout: user_pages') | $tlb_user |" \
		"$(logval "$log" 'bench: anon_fault_page') | $(logval "$log" 'bench: mprotect_1page')"
}

arm_rows=()
mb_rows=()
case " $selected " in *" mb-"*)
	make --no-print-directory -s ARCH=microblaze BOARD=ml605 layouts-bins >"$out/mb-bins.build.log" 2>&1 ||
		{ tail -n 20 "$out/mb-bins.build.log"; echo "layouts: could not build the MicroBlaze probe"; exit 1; }
	bash tools/mkinitramfs.sh "$out/mb-probe.cpio" /init=build/microblaze-ml605/bench/layoutprobe \
		/bin/mmbench=build/microblaze-ml605/bench/mmbench >/dev/null ;;
esac
case " $selected " in *" "[0-9]*)
	bash tools/mkinitramfs.sh "$out/probe.cpio" /init=build/linux-arm64/bench/layoutprobe \
		/bin/mmbench=build/linux-arm64/bench/mmbench >/dev/null ;;
esac
for l in $selected; do
	case $l in
	mb-*) mb_rows+=("$(mb_row "${l#mb-}")") ;;
	*) arm_rows+=("$(arm64_row "${l%-*}" "${l#*-}")") ;;
	esac
done

# table TITLE HEADER ROW...: print TITLE, then a Markdown table with the
# columns of HEADER ("a | b | c") and one line per ROW; nothing without rows.
table() {
	local title=$1 header=$2 cols r
	shift 2
	[ $# -gt 0 ] || return 0
	cols=$(($(printf '%s' "$header" | tr -cd '|' | wc -c) + 1))
	printf '\n%s\n| %s |\n|' "$title" "$header"
	printf -- '---|%.0s' $(seq "$cols")
	echo
	for r in "$@"; do echo "| $r |"; done
}

table "arm64 (virt, MEM=4G):" \
	"layout | levels | lm tables (4G, rodata=full) | user tables (1 GiB touched) | largest leaf | TLB/1G lm | TLB/1G user | fault (instr/page) | mprotect (instr/call)" \
	${arm_rows[@]+"${arm_rows[@]}"}
table "MicroBlaze (ml605, MEM=$mb_mem; UTLB: 64 slots of at most 16 MiB; the TLB/1G columns are computed):" \
	"page size | levels | lm tables ($mb_mem, rodata=full) | user tables ($mb_mib MiB touched) | largest leaf | largest UTLB slot in lm | UTLB/1G lm (largest slot) | user pages ($mb_mib MiB) | UTLB/1G user (1 per page) | fault (instr/page) | mprotect (instr/call)" \
	${mb_rows[@]+"${mb_rows[@]}"}
