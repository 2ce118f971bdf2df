#!/bin/sh
# dump-qemu-dtbs.sh OUTDIR - collect the device-tree blobs the FDT host test
# (tests/host/test_fdt.c) cross-checks against libfdt.
#
#  1. QEMU's arm64 "virt" machine builds its device tree at start-up;
#     "-M virt,dumpdtb=FILE" writes that tree to FILE and exits. We dump a
#     few variants (RAM size, GIC version, EL2, EL3, SMP) so the test sees
#     the same trees a real boot gets. The names (qemu-virt-128M.dtb, ...)
#     are known to the test, which checks their memory banks.
#  2. Every dts/*.dts and tests/host/dts/*.dts is compiled with dtc into
#     OUTDIR/<name>.dtb (run through cpp first if it uses #include). The
#     test trees are odd on purpose, so dtc's warnings are silenced for them.
#
# Run from the repository root. Exits non-zero, saying why, if any step fails.
# QEMU_AARCH64 and DTC override the tool names.
set -eu

out=${1:?usage: tools/dump-qemu-dtbs.sh OUTDIR}
qemu=${QEMU_AARCH64:-qemu-system-aarch64}
dtc=${DTC:-dtc}
mkdir -p "$out"

# dump NAME MACHINE-OPTIONS RAM [extra QEMU arguments...]
dump() {
	name=$1 machine=$2 ram=$3
	shift 3
	file=$out/$name.dtb
	log=$out/$name.log
	rm -f "$file"
	if ! timeout 20 "$qemu" -M "$machine,dumpdtb=$file" -cpu max -m "$ram" \
		-nographic "$@" </dev/null >"$log" 2>&1 || [ ! -s "$file" ]; then
		echo "dump-qemu-dtbs: $qemu -M $machine -m $ram $* did not dump $file:" >&2
		cat "$log" >&2
		exit 1
	fi
	rm -f "$log"
}

dump qemu-virt-128M virt 128M
dump qemu-virt-512M virt 512M
dump qemu-virt-4G virt 4G
dump qemu-virt-gicv3 virt,gic-version=3 128M
dump qemu-virt-el2 virt,virtualization=on 128M
dump qemu-virt-secure virt,secure=on 128M
dump qemu-virt-smp4-gicv3 virt,gic-version=3 1G -smp 4

# compile SOURCE.dts [dtc options...] into OUTDIR/SOURCE.dtb
compile() {
	src=$1
	shift
	dst=$out/$(basename "$src" .dts).dtb
	if grep -q '^[[:space:]]*#include' "$src"; then
		cpp -nostdinc -undef -x assembler-with-cpp -I "$(dirname "$src")" -I include \
			"$src" | "$dtc" "$@" -I dts -O dtb -o "$dst" -
	else
		"$dtc" "$@" -I dts -O dtb -o "$dst" "$src"
	fi || {
		echo "dump-qemu-dtbs: $dtc could not compile $src" >&2
		exit 1
	}
}

for src in dts/*.dts; do
	[ -e "$src" ] || continue	# an empty directory leaves the glob as is
	compile "$src"
done
for src in tests/host/dts/*.dts; do
	[ -e "$src" ] || continue
	compile "$src" -q
done
