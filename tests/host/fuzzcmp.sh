#!/usr/bin/env bash
# fuzzcmp.sh - tools/fuzzcmp.py, the fuzzer's log comparer, on made-up logs:
# it must call identical logs the same, and name a result divergence, a
# state divergence and a run that did not complete. Prints TAP.
set -u
cd "$(dirname "$0")/../.."
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0 fail=0

log() {	# log FILE RESULT2 MEM END: a small fuzzer log (with /init's prefix on some lines)
	{
		echo "# mmfuzz: mmfuzz: seed=1 calls=3"
		echo "# mmfuzz: 000001 mmap W+0x0 0x1000 0x3 0x32 -1 0x0 = W+0x0"
		echo "000002 munmap W+0x8000 0x1000 = $2"
		echo "# mmfuzz: 000003 touch r W+0x100 = ok 0x00"
		echo "M W+0x0-W+0x1000 rw-p"
		[ -n "${PIECES:-}" ] && echo "M W+0x1000-W+0x2000 rw-p"
		[ -n "${PIECES:-}" ] && echo "000004 munmap W+0x9000 0x1000 = 0"
		echo "@000003 maps=1 raw=2 mem=$3 heap=4 brk=H+0x0 vmas=1/1 log=5"
		[ -n "$4" ] && echo "mmfuzz: done seed=1 calls=3 log=5"
	} >"$1"
}

check() {	# check DESCRIPTION WANT_STATUS PATTERN A B [OPTION]
	local out rc
	n=$((n + 1))
	out=$(python3 tools/fuzzcmp.py "$4" "$5" ${6:+"$6"} 2>&1)
	rc=$?
	if [ "$rc" = "$2" ] && echo "$out" | grep -q -E -- "$3"; then
		echo "ok $n - fuzzcmp: $1"
	else
		echo "not ok $n - fuzzcmp: $1 (status $rc, want $2; output:)"
		echo "$out" | sed 's/^/#   /'
		fail=1
	fi
}

log "$t/a" 0 7 done
log "$t/same" 0 7 done
log "$t/errno" "-EINVAL(22)" 7 done
log "$t/mem" 0 8 done
log "$t/short" 0 7 ""
PIECES=1 log "$t/pieces" 0 7 done
check "identical logs are the same" 0 "^same: " "$t/a" "$t/same"
check "a different result is named with its call" 1 \
	"^result divergence: call 000002 munmap W\+0x8000 0x1000: ours = 0, linux = -EINVAL" "$t/a" "$t/errno"
check "different memory is a state divergence at its digest" 1 "^state divergence at @000003 \(mem\)" "$t/a" "$t/mem"
check "a run without its done line did not complete" 2 "ours: .*no end line" "$t/short" "$t/a"
# One more VMA piece in a dump: not a divergence, and the calls after it still pair up.
PIECES=1 log "$t/pieces-b" 0 7 done
sed -i '/^M W+0x1000-W+0x2000/d' "$t/pieces-b"
check "a dump with fewer VMA pieces does not shift the lines after it" 0 "^same: " "$t/pieces" "$t/pieces-b"
# The same VMAs in different pieces: a note, or with --strict a divergence.
sed 's/raw=2/raw=3/' "$t/a" >"$t/raw"
check "a raw= difference alone is a note" 0 "^notes: 1 digests split differently" "$t/a" "$t/raw"
check "with --strict a raw= difference is a state divergence" 1 \
	"^state divergence at @000003 \(raw\)" "$t/a" "$t/raw" --strict
echo "1..$n"
exit $fail
