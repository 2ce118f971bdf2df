#!/usr/bin/env bash
# check-linux-selftests.sh - Linux's own mm selftests on our kernel and on
# Debian's Linux 6.12, compared case by case (`make check-linux-selftests`).
#
#  1. Fetch Debian's linux-source-6.12 (arch all) with `apt-get download`,
#     through the same separate arm64 apt configuration and cache directory
#     as tools/fetch-linux.sh, and extract only the files the tests need
#     (below) into the cache. Nothing of it enters the source tree.
#  2. Build them static against glibc (aarch64-linux-gnu-gcc), unmodified;
#     tests/selftests/compat.h is forced in for the syscall numbers that
#     the cross glibc's 6.1 UAPI headers lack. Add tests/selftests/mm_probe.c
#     and /init (tests/user/init.c with this program list).
#  3. Boot the initramfs on our kernel (`make -s qemu-cmd INITRD=...`) and
#     on Linux 6.12 (as tools/check-linux.sh does), each under a timeout.
#  4. Compare: /init prints every point as "ok N - PROG: TEXT"; the k-th
#     point of PROG on our kernel must have the same result (pass, fail or
#     skip) as on Linux, and the same text once kselftest's "# SKIP" and
#     ": line:N" are set aside (mm_probe's texts carry the values seen).
#     A case Linux skips may only be skipped by us too; a case missing on
#     either side is a failure.
#
# Output: one TAP line per case, then "run: linux-selftests: N passed, N failed".
#
# Environment:
#   LINUX_CACHE          as in tools/fetch-linux.sh
#   SELFTESTS_TIMEOUT    seconds one boot may take (default 240)
#   SELFTESTS_PROGS      programs to run (default: all four)
set -u
cd "$(dirname "$0")/.."

name=linux-selftests
out=build/selftests
progs=${SELFTESTS_PROGS:-"mseal_test mremap_dontunmap map_fixed_noreplace mm_probe"}
tmo=${SELFTESTS_TIMEOUT:-240}
CC=aarch64-linux-gnu-gcc

# The files taken from the source package, relative to its top directory.
SRC_FILES="tools/testing/selftests/kselftest.h
tools/testing/selftests/mm/mseal_test.c
tools/testing/selftests/mm/mseal_helpers.h
tools/testing/selftests/mm/mremap_dontunmap.c
tools/testing/selftests/mm/map_fixed_noreplace.c"

give_up() {	# give_up MESSAGE: the comparison could not even start
	echo "not ok 1 - $name: $1"
	echo "run: $name: 0 passed, 1 failed"
	exit 1
}

mkdir -p "$out"

# ---- 1. sources ----------------------------------------------------------------
vmlinuz=$(bash tools/fetch-linux.sh) || give_up "could not fetch Debian's Linux kernel"

cache=${LINUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/teachos/linux}
mkdir -p "$cache/lists/partial" "$cache/apt-cache/archives/partial" "$cache/debs"
cache=$(cd "$cache" && pwd)
apt_opts=(
	-oAPT::Architecture=arm64
	-oAPT::Architectures=arm64
	"-oDir::State::Lists=$cache/lists"
	"-oDir::Cache=$cache/apt-cache"
	-oDebug::NoLocking=1
	-oAPT::Sandbox::User=root
	-qq
)

# fetch_sources: print the directory holding SRC_FILES, extracting once.
fetch_sources() {
	local deb ver dir
	deb=$(ls "$cache/debs/"linux-source-6.12_*_all.deb 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$deb" ]; then
		if ! apt-cache "${apt_opts[@]}" show linux-source-6.12 >/dev/null 2>&1; then
			echo "selftests: updating the arm64 package lists in $cache/lists ..." >&2
			apt-get "${apt_opts[@]}" update >&2 || return 1
		fi
		echo "selftests: downloading linux-source-6.12 (about 150 MB) ..." >&2
		(cd "$cache/debs" && apt-get "${apt_opts[@]}" download linux-source-6.12) >&2 || return 1
		deb=$(ls "$cache/debs/"linux-source-6.12_*_all.deb | sort -V | tail -n 1)
	fi
	ver=$(basename "$deb" _all.deb)
	ver=${ver#linux-source-6.12_}
	dir="$cache/selftests-$ver"
	if [ ! -f "$dir/.complete" ]; then
		echo "selftests: extracting the selftest files from $(basename "$deb") ..." >&2
		rm -rf "$dir"
		mkdir -p "$dir"
		# shellcheck disable=SC2086
		dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.12.tar.xz | xz -dc |
			tar -x -C "$dir" --strip-components=1 \
				$(for f in $SRC_FILES; do echo "linux-source-6.12/$f"; done) || return 1
		for f in $SRC_FILES; do
			[ -f "$dir/$f" ] || { echo "selftests: $f missing from the package" >&2; return 1; }
		done
		echo "$ver" >"$dir/.complete"
	fi
	echo "$dir"
}
src=$(fetch_sources) || give_up "could not fetch or extract linux-source-6.12"
echo "# selftests from $src"

# ---- 2. build -------------------------------------------------------------------
cflags=(-static -O2 -g -Wall -Wno-unused-function -include "$PWD/tests/selftests/compat.h")
build_log="$out/build.log"
: >"$build_log"
bin="$out/bin"
mkdir -p "$bin"
build() {	# build NAME SOURCE...
	local n=$1
	shift
	echo "  CC [selftest] $n" >>"$build_log"
	$CC "${cflags[@]}" -o "$bin/$n.debug" "$@" >>"$build_log" 2>&1 &&
		aarch64-linux-gnu-strip -o "$bin/$n" "$bin/$n.debug"
}
mm="$src/tools/testing/selftests/mm"
entries=()
list=""
for p in $progs; do
	case $p in
	mm_probe) srcs=(tests/selftests/mm_probe.c) ;;
	*) srcs=("$mm/$p.c") ;;
	esac
	build "$p" "${srcs[@]}" || { tail -n 30 "$build_log"; give_up "could not build $p"; }
	entries+=("/bin/$p=$bin/$p")
	list="$list\"$p\","
done
printf '/* generated by tools/check-linux-selftests.sh */\n#define INIT_TESTS %s\n' "$list" >"$out/init_tests.h"
$CC -std=gnu11 -O2 -static -D_GNU_SOURCE -I"$out" -o "$bin/init" tests/user/init.c >>"$build_log" 2>&1 ||
	{ tail -n 30 "$build_log"; give_up "could not build /init"; }
initrd="$out/initramfs.cpio"
bash tools/mkinitramfs.sh "$initrd" /init="$bin/init" "${entries[@]}" || give_up "could not make the initramfs"

# ---- 3. the two boots ---------------------------------------------------------
make --no-print-directory ARCH=arm64 kernel >"$out/kernel-build.log" 2>&1 ||
	{ tail -n 30 "$out/kernel-build.log"; give_up "could not build our kernel"; }
ours_cmd=$(make --no-print-directory -s ARCH=arm64 qemu-cmd INITRD="$initrd" BOOTARGS=)
bash tools/run-qemu.sh --name "$name-ours" --arch arm64 --timeout "$tmo" --log "$out/ours.log" -- \
	$ours_cmd >"$out/ours.out" 2>&1 &
ours_pid=$!
bash tools/run-qemu.sh --name "$name-linux" --arch arm64 --timeout "$tmo" --log "$out/linux.log" -- \
	qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -m "${LINUX_MEM:-512M}" -nographic \
	-no-reboot -kernel "$vmlinuz" -initrd "$initrd" \
	-append "console=ttyAMA0 quiet panic=-1 poweroff=1" >"$out/linux.out" 2>&1
wait "$ours_pid"

# ---- 4. compare -----------------------------------------------------------------
# results LOG: "PROG<TAB>K<TAB>STATUS<TAB>TEXT" per point, STATUS pass|fail|skip.
results() {
	tr -d '\r' <"$1" | awk '
	/^(not )?ok [0-9]+ - [^:]+: / {
		st = ($1 == "not") ? "fail" : "pass"
		line = $0
		sub(/^(not )?ok [0-9]+ - /, "", line)
		prog = line; sub(/: .*/, "", prog)
		text = line; sub(/^[^:]+: /, "", text)
		if (text ~ /^# SKIP/) { st = (st == "pass") ? "skip" : st; sub(/^# SKIP */, "", text) }
		if (text ~ / # SKIP/) { st = (st == "pass") ? "skip" : st; sub(/ # SKIP.*/, "", text) }
		sub(/: line:[0-9]+$/, "", text)
		sub(/ +$/, "", text)
		k[prog]++
		printf "%s\t%d\t%s\t%s\n", prog, k[prog], st, text
	}'
}
results "$out/linux.log" >"$out/linux.res"
results "$out/ours.log" >"$out/ours.res"

passed=0
failed=0
n=0
declare -A ours_st ours_text
while IFS=$'\t' read -r prog k st text; do
	ours_st["$prog/$k"]=$st
	ours_text["$prog/$k"]=$text
done <"$out/ours.res"
declare -A seen
while IFS=$'\t' read -r prog k st text; do
	key="$prog/$k"
	seen[$key]=1
	n=$((n + 1))
	o=${ours_st[$key]:-missing}
	ot=${ours_text[$key]:-}
	if [ "$o" = "$st" ] && [ "$ot" = "$text" ]; then
		passed=$((passed + 1))
		echo "ok $n - $prog $k: $text: linux $st, ours $o"
	elif [ "$o" = "$st" ]; then
		failed=$((failed + 1))
		echo "not ok $n - $prog $k: linux '$text', ours '$ot' ($st)"
	else
		failed=$((failed + 1))
		echo "not ok $n - $prog $k: $text: linux $st, ours $o${ot:+ ($ot)}"
	fi
done <"$out/linux.res"
# Points only our kernel printed.
while IFS=$'\t' read -r prog k st text; do
	[ -n "${seen[$prog/$k]:-}" ] && continue
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $prog $k: $text: ours $st, absent on Linux"
done <"$out/ours.res"
if [ ! -s "$out/linux.res" ]; then
	failed=$((failed + 1))
	echo "not ok $((n + 1)) - $name: no results from Linux (see $out/linux.log)"
	tail -n 20 "$out/linux.log" | tr -d '\r' | sed 's/^/  | /'
fi
for side in ours linux; do
	if ! grep -q -a 'kernel-exit: status=' "$out/$side.log"; then
		echo "# $side: the boot did not finish (see $out/$side.log)"
		tail -n 20 "$out/$side.log" | tr -d '\r' | sed 's/^/  | /'
	fi
done
for p in $progs; do
	echo "# $p: linux $(awk -F'\t' -v p="$p" '$1 == p { c[$3]++ } END { printf "%d pass, %d fail, %d skip", c["pass"], c["fail"], c["skip"] }' "$out/linux.res"); ours $(awk -F'\t' -v p="$p" '$1 == p { c[$3]++ } END { printf "%d pass, %d fail, %d skip", c["pass"], c["fail"], c["skip"] }' "$out/ours.res")"
done
echo "run: $name: $passed passed, $failed failed"
[ "$failed" = 0 ]
