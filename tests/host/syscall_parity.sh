#!/usr/bin/env bash
# syscall_parity.sh - the two architectures' system-call tables agree (TAP).
#
# Reads the names wired in arch/arm64/kernel/syscall_table.c and
# arch/microblaze/kernel/syscall_table.c (SYS(nr, name) and
# ADAPT(nr, fn, "name") entries; NOSYS entries are not wired) and prints:
#   - one point per call wired on arm64: it is wired on MicroBlaze too,
#     under its own name or under the name the 32-bit ABI gives it there
#     (the EQUIV table below: fstat is fstat64, ftruncate ftruncate64, ...);
#   - one point per call wired only on MicroBlaze: it is one Linux's arm64
#     table does not have (MB_ONLY below, with the reason), so a call wired
#     on MicroBlaze alone is either justified there or wired on arm64.
# Every call found on one side and not the other is listed as a comment.
#
# Two more points prove the check fires: run on a copy of the MicroBlaze
# table without fallocate, and on one with an unlisted call added, it fails.
#
#   syscall_parity.sh [ARM64_TABLE MICROBLAZE_TABLE]   (other tables: no self-test)
set -u
cd "$(dirname "$0")/../.."
arm=${1:-arch/arm64/kernel/syscall_table.c}
mb=${2:-arch/microblaze/kernel/syscall_table.c}

n=0
fails=0
ok() {	# ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi
}

# The names a table wires, one per line.
names() {
	sed -n -E -e 's/^[[:space:]]*SYS\([0-9]+, *([a-z0-9_]+)\).*/\1/p' \
		-e 's/^[[:space:]]*ADAPT\([0-9]+, *[a-z0-9_]+, *"([a-z0-9_]+)"\).*/\1/p' "$1" | sort -u
}

# arm64 name -> the MicroBlaze names that provide it (any one is enough).
declare -A EQUIV=(
	[fstat]="fstat64"
	[newfstatat]="fstatat64"
	[fcntl]="fcntl64 fcntl"
	[mmap]="mmap2 mmap"
	[ftruncate]="ftruncate64"
	[lseek]="_llseek"
	[getuid]="getuid32"
	[getgid]="getgid32"
	[geteuid]="geteuid32"
	[getegid]="getegid32"
	[statfs]="statfs64"
	[fstatfs]="fstatfs64"
	[truncate]="truncate64 truncate"
	[fchown]="fchown32 fchown"
	[sendfile]="sendfile sendfile64"
)

# MicroBlaze-only calls: Linux's arm64 table has no such number.
declare -A MB_ONLY=(
	[fork]="arm64 has clone only"
	[vfork]="arm64 has clone only"
	[getpgrp]="arm64 has getpgid(0)"
	[alarm]="arm64 has setitimer only"
	[mmap2]="32-bit: the offset in pages"
	[fstat64]="32-bit: struct stat64"
	[sendfile64]="32-bit: the 64-bit offset (arm64: sendfile)"
	[fstatat64]="32-bit: struct stat64"
	[fcntl64]="32-bit: 64-bit locks"
	[ftruncate64]="32-bit: the length in a register pair"
	[_llseek]="32-bit: the offset in two registers"
	[getuid32]="32-bit uid_t calls"
	[getgid32]="32-bit uid_t calls"
	[geteuid32]="32-bit uid_t calls"
	[getegid32]="32-bit uid_t calls"
	[clock_gettime64]="32-bit: the 64-bit time_t calls"
	[clock_getres_time64]="32-bit: the 64-bit time_t calls"
	[clock_nanosleep_time64]="32-bit: the 64-bit time_t calls"
	[ppoll_time64]="32-bit: the 64-bit time_t calls"
	[pselect6_time64]="32-bit: the 64-bit time_t calls"
	[ugetrlimit]="32-bit struct rlimit (arm64: prlimit64)"
	[setrlimit]="32-bit struct rlimit (arm64: prlimit64)"
	[nanosleep]="arm64 wires it at 101; here it is the time32 one at 162"
	[open]="arm64 has openat only"
	[link]="arm64 has linkat only"
	[unlink]="arm64 has unlinkat only"
	[chmod]="arm64 has fchmodat only"
	[access]="arm64 has faccessat only"
	[rename]="arm64 has renameat only"
	[mkdir]="arm64 has mkdirat only"
	[rmdir]="arm64 has unlinkat only"
	[symlink]="arm64 has symlinkat only"
	[readlink]="arm64 has readlinkat only"
	[stat64]="32-bit: struct stat64 (arm64: newfstatat)"
	[lstat64]="32-bit: struct stat64 (arm64: newfstatat)"
	[statfs64]="32-bit: struct statfs64"
	[fstatfs64]="32-bit: struct statfs64"
	[truncate64]="32-bit: the length in a register pair"
	[fchown32]="32-bit uid_t calls"
	[utimensat_time64]="32-bit: the 64-bit time_t calls"
	[futex_time64]="32-bit: the 64-bit time_t calls"
)

[ -r "$arm" ] && [ -r "$mb" ] || { echo "not ok 1 - the syscall tables are readable"; echo "1..1"; exit 1; }
mapfile -t arm_names < <(names "$arm")
mapfile -t mb_names < <(names "$mb")
declare -A on_mb on_arm
for x in "${mb_names[@]}"; do on_mb[$x]=1; done
for x in "${arm_names[@]}"; do on_arm[$x]=1; done
ok $(( ${#arm_names[@]} > 0 && ${#mb_names[@]} > 0 ? 0 : 1 )) \
	"read ${#arm_names[@]} arm64 and ${#mb_names[@]} MicroBlaze calls"

for x in "${arm_names[@]}"; do
	found=
	[ -n "${on_mb[$x]:-}" ] && found=$x
	for e in ${EQUIV[$x]:-}; do
		[ -z "$found" ] && [ -n "${on_mb[$e]:-}" ] && found=$e
	done
	if [ -n "$found" ]; then
		ok 0 "$x: wired on MicroBlaze${found:+ ($found)}"
	else
		echo "# on arm64, not on MicroBlaze: $x"
		ok 1 "$x: wired on MicroBlaze"
	fi
done
for x in "${mb_names[@]}"; do
	[ -n "${on_arm[$x]:-}" ] && continue
	# a MicroBlaze name that stands for an arm64 call is covered above
	covered=
	for a in "${!EQUIV[@]}"; do
		for e in ${EQUIV[$a]}; do
			[ "$e" = "$x" ] && [ -n "${on_arm[$a]:-}" ] && covered=$a
		done
	done
	echo "# on MicroBlaze, not on arm64: $x${covered:+ (arm64: $covered)}"
	if [ -n "${MB_ONLY[$x]:-}" ]; then
		ok 0 "$x: MicroBlaze only (${MB_ONLY[$x]})"
	else
		ok 1 "$x: MicroBlaze only, and not a call Linux's arm64 table lacks: wire it on arm64 or list why"
	fi
done
if [ $# = 0 ]; then
	tmp=$(mktemp -d)
	grep -v '"fallocate"' "$mb" >"$tmp/no-fallocate.c"
	sed 's/^\(\s*\)SYS(1, exit),/&\n\1SYS(999, frobnicate),/' "$mb" >"$tmp/extra.c"
	out1=$(bash "$0" "$arm" "$tmp/no-fallocate.c"); rc1=$?
	out2=$(bash "$0" "$arm" "$tmp/extra.c"); rc2=$?
	rm -rf "$tmp"
	echo "$out1" | grep -q '^not ok .* fallocate: wired on MicroBlaze$' && [ $rc1 != 0 ]
	ok $? "self-test: a MicroBlaze table without fallocate fails the check"
	echo "$out2" | grep -q '^not ok .* frobnicate: MicroBlaze only' && [ $rc2 != 0 ]
	ok $? "self-test: an unlisted MicroBlaze-only call fails the check"
fi
echo "1..$n"
[ "$fails" = 0 ]
