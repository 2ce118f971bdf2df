#!/usr/bin/env bash
# pictures.sh - `make pictures`: boot what the address-space pictures need,
# then draw them (tools/pictures.py) into build/pictures, index.html first.
#
#   pictures.sh [--docs]    --docs: also copy the ones docs/DESIGN.md shows
#                           into docs/pictures/
#
# Boots (arm64, each through tools/run-qemu.sh with a timeout; logs in
# build/pictures/logs):
#   ptdump-4G      MEM=4G BOOTARGS=ptdump: the kernel's tables
#   split-bbm      ktest=linear_map_split_one_page bbml2=none rodata=on pte_trace=1:
#                  a linear-map block split by break-before-make
#   split-bbml2    the same with BBML2 (QEMU's max CPU has it): split in place
#   busybox-session  tools/pictures.session: the busybox shell's
#                  /proc/PID/maps and /proc/PID/pagetables
set -eu
cd "$(dirname "$0")/.."
out=build/pictures
logs=$out/logs
timeout=${TIMEOUT:-240}
mkdir -p "$logs"
rm -f "$out"/*.svg "$out"/index.html

make -s --no-print-directory ARCH=arm64 kernel

boot() {	# boot NAME MAKE-VARIABLE...: one QEMU boot into $logs/NAME.log
	local name=$1 cmd
	shift
	cmd=$(make --no-print-directory -s qemu-cmd ARCH=arm64 "$@")
	echo "  BOOT    $name ($*)"
	# One string for eval, so the quoted -append argument stays one word.
	if ! eval "bash tools/run-qemu.sh --name $name --arch arm64 --timeout $timeout --log $logs/$name.log -- $cmd" \
		>"$logs/$name.out" 2>&1; then
		tail -n 20 "$logs/$name.out"
		echo "pictures: the $name boot failed (log: $logs/$name.log)" >&2
		exit 1
	fi
}

boot ptdump-4G MEM=4G 'BOOTARGS=ptdump'
boot split-bbm 'BOOTARGS=ktest=linear_map_split_one_page bbml2=none rodata=on pte_trace=1'
boot split-bbml2 'BOOTARGS=ktest=linear_map_split_one_page rodata=on pte_trace=1'
echo "  SESSION busybox-session (tools/pictures.session)"
if ! python3 tools/console-session.py --log "$logs/busybox-session.log" tools/pictures.session \
	>"$logs/busybox-session.out" 2>&1; then
	tail -n 20 "$logs/busybox-session.out"
	echo "pictures: the busybox session failed (log: $logs/busybox-session.log)" >&2
	exit 1
fi

python3 tools/pictures.py --kernel "$logs/ptdump-4G.log" --user "$logs/busybox-session.log" \
	--trace "$logs/split-bbm.log" --trace "$logs/split-bbml2.log" --out "$out" --verify >"$out/verify.log" || {
	grep -v '^ok ' "$out/verify.log"
	echo "pictures: tools/pictures.py --verify failed ($out/verify.log)" >&2
	exit 1
}
for s in "$out"/*.svg; do
	xmllint --noout "$s"
done
echo "pictures: $(ls "$out"/*.svg | wc -l) SVGs, checked ($(grep -c '^ok ' "$out/verify.log") points); open $out/index.html"

if [ "${1:-}" = --docs ]; then
	mkdir -p docs/pictures
	for f in kernel-space kernel-tree user-space user-tree split-1 split-2; do
		cp "$out/$f.svg" "docs/pictures/$f.svg"
	done
	echo "pictures: copied to docs/pictures/"
fi
