#!/usr/bin/env bash
# labs.sh - every lab of tools/lab.py has its solution regions in the source
# (balanced /* LAB name: begin */ ... /* LAB name: end */ markers) and a
# hand-out listed in docs/labs/README.md, so a lab cannot silently lose its
# regions; and a student tree (lab-start) has exactly that lab's regions
# replaced by their stubs. Prints TAP; exit status 1 on failure.
#
# Then it checks itself on doctored copies of the tree's sources: a missing
# end marker, a lab with no region left, and a missing hand-out must each
# make the lint fail, naming the lab.
set -u
cd "$(dirname "$0")/../.."
n=0
fail=0
point() {	# point OK DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

labs=$(python3 tools/lab.py list | awk '{print $1}')
nlabs=$(echo "$labs" | wc -w)
out=$(python3 tools/lab.py lint 2>&1)
point $? "lint: the $nlabs labs ($(echo $labs)) each have regions in the source and a hand-out${out:+: $(echo "$out" | tr "\n" ";")}"
[ "$nlabs" -ge 8 ]
point $? "at least eight labs ($nlabs)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A copy of what the lint reads: the sources and docs/labs.
copy() {	# copy DIR: the tree's sources and hand-outs into DIR
	mkdir -p "$1"
	git ls-files --cached --others --exclude-standard -- '*.c' '*.h' '*.S' 'docs/labs/*' |
		while read -r f; do [ -e "$f" ] && echo "$f"; done | cpio -pdm --quiet "$1"
}

# A student tree of mseal: its stubs in, its solution out, other labs' regions kept.
python3 tools/lab.py start mseal "$tmp/student" --no-git --no-build >/dev/null 2>&1
grep -q 'return -ENOSYS;' "$tmp/student/mm/mseal.c" &&
	! grep -q 'range_fully_mapped' "$tmp/student/mm/mseal.c" &&
	! grep -q 'LAB mseal: begin' "$tmp/student/mm/mseal.c" &&
	grep -q 'LAB mseal: your code here' "$tmp/student/mm/mmap.c" &&
	grep -q 'LAB cow: begin' "$tmp/student/mm/mm.c" &&
	cmp -s mm/vma.c "$tmp/student/mm/vma.c" && [ "$(cat "$tmp/student/.lab")" = mseal ]
point $? "lab-start mseal: the stubs replace its regions (mm/mseal.c, mm/mmap.c), other labs' regions and files unchanged"

# Doctored copies: each must fail the lint, naming the lab.
copy "$tmp/a"
f=$(grep -l 'LAB cow: end' "$tmp"/a/mm/*.c | head -n 1)
sed -i '0,/LAB cow: end/{/LAB cow: end/d}' "$f"
out=$(python3 tools/lab.py lint --root "$tmp/a" 2>&1)
[ $? != 0 ] && echo "$out" | grep -q -E 'LAB cow(: begin without an end| begins inside)'
point $? "the lint fires on a missing end marker (cow)"

copy "$tmp/b"
grep -rl 'LAB hugetlb:' "$tmp/b" | xargs sed -i '/LAB hugetlb:/d'
out=$(python3 tools/lab.py lint --root "$tmp/b" 2>&1)
[ $? != 0 ] && echo "$out" | grep -q 'lab hugetlb: no solution region'
point $? "the lint fires on a lab whose regions are gone (hugetlb)"

copy "$tmp/c"
rm "$tmp/c/docs/labs/bbm.md"
out=$(python3 tools/lab.py lint --root "$tmp/c" 2>&1)
[ $? != 0 ] && echo "$out" | grep -q 'lab bbm: no hand-out'
point $? "the lint fires on a missing hand-out (bbm)"

echo "1..$n"
exit $fail
