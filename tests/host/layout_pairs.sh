#!/usr/bin/env bash
# layout_pairs.sh - the arm64 build accepts exactly the layouts it lists:
# arch/arm64/arch.mk refuses any other GRANULE/VA_BITS pair with the list
# of valid ones, and asm/layout.h's own check (#error) agrees with that
# list, for every valid pair (4K/52 among them: FEAT_LPA2 with a fifth
# level) and for impossible ones (4K/47, 16K/42 and 64K/47 are no layout
# at all).
set -u
cd "$(dirname "$0")/../.."
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }

valid=$(make --no-print-directory -s -f - <<'MK'
include arch/arm64/arch.mk
x: ; @echo $(LAYOUTS)
MK
)
ok $([ "$valid" = "4K-39 4K-48 4K-52 16K-47 16K-48 16K-52 64K-42 64K-48 64K-52" ]; echo $?) "arch.mk lists the layouts: $valid"

for bad in 4K-47 16K-42 64K-47 8K-48; do
	g=${bad%-*}; v=${bad#*-}
	msg=$(make --no-print-directory -s ARCH=arm64 GRANULE="$g" VA_BITS="$v" print-arch 2>&1)
	rc=$?
	ok $([ "$rc" != 0 ] && echo "$msg" | grep -q "GRANULE=$g VA_BITS=$v is not a supported layout; valid GRANULE-VA_BITS pairs: $valid"; echo $?) \
		"make refuses GRANULE=$g VA_BITS=$v and lists the valid pairs"
done

shift_of() { case $1 in 4K) echo 12 ;; 16K) echo 14 ;; 64K) echo 16 ;; *) echo 13 ;; esac; }
cc_layout() {	# cc_layout GRANULE VA_BITS: does asm/layout.h accept the pair?
	echo '#include <asm/layout.h>' | ${HOSTCC:-cc} -x c -fsyntax-only -Iarch/arm64/include \
		-DGRANULE_SHIFT="$(shift_of "$1")" -DVA_BITS="$2" - 2>&1
}
for l in $valid; do
	out=$(cc_layout "${l%-*}" "${l#*-}"); rc=$?
	ok "$rc" "asm/layout.h accepts $l${out:+ ($out)}"
done
for bad in 4K-47 16K-42 64K-47; do
	out=$(cc_layout "${bad%-*}" "${bad#*-}"); rc=$?
	ok $([ "$rc" != 0 ] && echo "$out" | grep -q "unsupported GRANULE/VA_BITS pair"; echo $?) "asm/layout.h refuses $bad"
done
echo "1..$n"
