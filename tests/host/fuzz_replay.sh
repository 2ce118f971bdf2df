#!/usr/bin/env bash
# fuzz_replay.sh - the libFuzzer targets in "make check" (TAP):
#   - each builds (tests/host/fuzz.mk);
#   - each replays its corpus (tests/host/corpus/<target>/) without a crash;
#   - each runs a short fixed-seed fuzzing budget (FUZZ_CHECK_RUNS inputs,
#     default 1500) from that corpus without a crash;
#   - fuzz_mm's oracles fire on planted kernel bugs (an extra page
#     reference, a leaked page, a Committed_AS page no VMA accounts for,
#     which only the kernel's checker mm/mm_check.c sees: FUZZ_MM_PLANT in
#     fuzz_mm.c).
# Longer runs: make fuzz-host FUZZ_TIME=seconds.
set -u
cd "$(dirname "$0")/../.."
n=0
fails=0
ok() {	# ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi
}
out=build/fuzz-check
rm -rf "$out"
mkdir -p "$out"
runs=${FUZZ_CHECK_RUNS:-1500}

make --no-print-directory -s fuzz-host-build >"$out/build.log" 2>&1
rc=$?
ok $rc "the libFuzzer targets build (clang -fsanitize=fuzzer)"
if [ $rc != 0 ]; then
	tail -n 20 "$out/build.log" | sed 's/^/# /'
	echo "1..$n"
	exit 1
fi

for t in fuzz_fdt fuzz_mm; do
	corpus=tests/host/corpus/$t
	files=$(find "$corpus" -type f | wc -l)
	build/host/$t -runs=0 "$corpus" >"$out/$t-replay.log" 2>&1
	rc=$?
	[ "$files" -gt 0 ] || rc=1
	ok $rc "$t: replays its corpus of $files inputs"
	[ $rc = 0 ] || tail -n 20 "$out/$t-replay.log" | sed 's/^/# /'
	mkdir -p "$out/$t-new"
	build/host/$t -seed=1 -runs="$runs" -max_len=1000 -len_control=0 -artifact_prefix="$out/$t-" \
		"$out/$t-new" "$corpus" >"$out/$t-fuzz.log" 2>&1
	rc=$?
	ok $rc "$t: $runs fixed-seed fuzzed inputs, no crash ($(grep -o 'cov: [0-9]*' "$out/$t-fuzz.log" | tail -n 1))"
	[ $rc = 0 ] || tail -n 30 "$out/$t-fuzz.log" | sed 's/^/# /'
done

# mmap one private page at the window's start (MAP_FIXED), then a write fault there.
printf '\000\000\000\003\004\010\000\000\000\000' >"$out/plant-input"
for bug in refcount:"fuzz_mm: after op 1" leak:"pages leaked" committed:"Committed_AS: vm_committed_pages"; do
	name=${bug%%:*}
	want=${bug#*:}
	FUZZ_MM_PLANT=$name build/host/fuzz_mm "$out/plant-input" >"$out/plant-$name.log" 2>&1
	rc=$?
	[ $rc != 0 ] && grep -q "$want" "$out/plant-$name.log"
	ok $? "fuzz_mm: a planted $name bug is caught ($(grep -o 'fuzz_mm: after.*' "$out/plant-$name.log" | head -n 1))"
done
build/host/fuzz_mm "$out/plant-input" >"$out/plant-none.log" 2>&1
ok $? "fuzz_mm: the same input without a planted bug passes"
echo "1..$n"
[ $fails = 0 ]
