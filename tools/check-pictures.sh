#!/usr/bin/env bash
# check-pictures.sh - draw the address-space pictures from logs that make
# check's own boots left, and prove they are right and that they draw.
# Prints TAP, then "run: pictures: P passed, F failed" (tools/check.sh counts it).
#
#   check-pictures.sh [DIR]     DIR: make check's results (default build/check)
#
# The logs: DIR/arm64-4G-ptdump.log (BOOTARGS=ptdump), DIR/session-busybox.log
# (tests/sessions/busybox.session ends with the shell's maps and pagetables)
# and DIR/arm64-pte-trace.log (a block split under pte_trace=1; both from
# tests/qemu-configs). Checks:
#   - tools/pictures.py --verify: the numbers drawn against the logs;
#   - xmllint --noout on every SVG; rsvg-convert renders one to a PNG;
#   - a boot without pte_trace printed no trace line (off by default);
#   - each checker fires: a truncated SVG fails xmllint, an SVG whose
#     drawn sizes or entries were changed fails --verify, and so does a
#     maps that lacks a VMA the page tables map.
set -u
cd "$(dirname "$0")/.."
dir=${1:-build/check}
out=$dir/pictures
n=0
fail=0
ok() {	# ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - pictures: $2"; else echo "not ok $n - pictures: $2"; fail=$((fail + 1)); fi
}
finish() {
	echo "1..$n"
	echo "run: pictures: $((n - fail)) passed, $fail failed"
	exit $((fail > 0))
}

kernel=$dir/arm64-4G-ptdump.log user=$dir/session-busybox.log trace=$dir/arm64-pte-trace.log
for f in "$kernel" "$user" "$trace"; do
	[ -s "$f" ] || { ok 1 "$f exists (the boot that writes it ran)"; finish; }
done
rm -rf "$out"
mkdir -p "$out"

# The tool's own checks (TAP of its own, renumbered into ours).
python3 tools/pictures.py --kernel "$kernel" --user "$user" --trace "$trace" --out "$out" --verify \
	>"$out/verify.log" 2>&1
rc=$?
while IFS= read -r l; do
	case "$l" in
	'ok '*) ok 0 "${l#ok * - }" ;;
	'not ok'*) ok 1 "${l#not ok * - }" ;;
	esac
done <"$out/verify.log"
ok "$rc" "tools/pictures.py --verify exits 0"
[ "$rc" = 0 ] || sed 's/^/  | /' "$out/verify.log"

svgs=("$out"/*.svg)
ok "$([ ${#svgs[@]} -ge 5 ] && echo 0 || echo 1)" "${#svgs[@]} SVGs drawn (kernel space and tree, user space and tree, a split)"
for s in "${svgs[@]}"; do
	xmllint --noout "$s" 2>"$out/xmllint.err"
	ok $? "xmllint: $(basename "$s") is well-formed XML"
done
xmllint --noout --html "$out/index.html" 2>/dev/null
ok $? "xmllint: index.html parses"

# Render one: a PNG of the expected size, not blank.
rsvg-convert -o "$out/kernel-tree.png" "$out/kernel-tree.svg" 2>"$out/rsvg.err"
rc=$?
want_w=$(grep -o -m1 '<svg [^>]* width="[0-9]*"' "$out/kernel-tree.svg" | grep -o 'width="[0-9]*"' | grep -o '[0-9]*')
got=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
print(struct.unpack(">I", d[16:20])[0], len(d))' "$out/kernel-tree.png" 2>/dev/null)
[ "$rc" = 0 ] && [ "${got%% *}" = "$want_w" ] && [ "${got##* }" -gt 10000 ]
ok $? "rsvg-convert draws kernel-tree.svg: a PNG ${want_w} px wide (got: ${got:-none})"

! grep -a -q '^pte_trace:' "$kernel"
ok $? "pte_trace is off by default: the ptdump boot printed no trace line"
grep -a -q '^pte_trace: #[0-9]* kernel va=0x[0-9a-f]* level=[0-9] n=1 break old=0x[0-9a-f]*(block) new=0x0(invalid)' "$trace"
ok $? "pte_trace=1 traced a block's break"

# The checkers fire.
bad=$out/broken
mkdir -p "$bad"
head -c 2000 "$out/kernel-tree.svg" >"$bad/truncated.svg"
! xmllint --noout "$bad/truncated.svg" 2>/dev/null
ok $? "xmllint rejects a truncated SVG"
cp "$out"/*.svg "$bad/"
# The first region of the kernel space drawn with another size (4096 appended to its digits).
sed -i -E '0,/data-bytes="([0-9]+)"/s//data-bytes="\14096"/' "$bad/kernel-space.svg"
# The first group of pages of the user tree drawn with more entries (a 1 put before its count).
sed -i -E '0,/data-kind="page"/{s/data-count="([0-9]+)" data-kind="page"/data-count="1\1" data-kind="page"/}' "$bad/user-tree.svg"
python3 tools/pictures.py --kernel "$kernel" --user "$user" --trace "$trace" --out "$bad" --verify --no-draw \
	>"$bad/verify.log" 2>&1
grep -q '^not ok .*kernel-space.svg: their sizes add up' "$bad/verify.log"
ok $? "--verify notices a region drawn with the wrong size"
grep -q '^not ok .*user-tree.svg: the entries drawn count' "$bad/verify.log"
ok $? "--verify notices a tree drawn with the wrong number of entries"
# A maps without its [heap] line: the heap's mapped pages lie in no VMA.
grep -a -v '\[heap\]' "$user" >"$bad/no-heap.log"
python3 tools/pictures.py --user "$bad/no-heap.log" --out "$bad/no-heap" --verify >"$bad/no-heap.out" 2>&1
grep -q '^not ok .*every mapped user page lies in a VMA' "$bad/no-heap.out"
ok $? "--verify notices mapped pages outside every VMA (maps without [heap])"
finish
