#!/usr/bin/env bash
# gdb_helpers.sh - the students' gdb commands (tools/gdb/teachos.py, loaded
# by `make gdb`) give true answers. Sessions of gdb-multiarch on QEMU's gdb
# stub, in batch mode, each command's output cut out by markers and checked
# against facts gdb or QEMU know independently:
#
#   arm64 4K/48, the project's shell as /init, stopped at its first read():
#     tos-ps and tos-current name pid 1 "init" as running; tos-vmas lists as
#     many VMAs as mm->nvmas, one of them [stack] holding the saved user SP;
#     tos-regs finds the frame syscall_dispatch() was given, x8 = 63 (read)
#     and ESR's class SVC; tos-walk of a linear-map address gives
#     pt.linear_base + offset, of kernel_main pt.kimage_pa + its offset, of
#     the user SP (also by pid) and of all three what QEMU's own MMU
#     translation says (monitor gva2gpa); an unmapped address is "not mapped"
#     and QEMU agrees. Then "/bin/hello" typed on the console: stopped at
#     hello's exit_group, tos-ps shows it running and the shell asleep,
#     tos-regs 1 the shell's wait4 (x8 = 260) and the context it was
#     switched out in (sleep_on), tos-vmas 2 hello's text;
#   arm64 16K/48 (a 2-entry top table), 64K/42 (two levels) and 4K/39 (three),
#     no /init, stopped at page_alloc_init() just after the linear map is
#     built: tos-walk reads each layout from the ELF, its walks of the linear
#     map and of kernel_main agree with gva2gpa and the kernel's variables,
#     and tos-current says there is no process yet.
#
# Then the self-check: the same comparisons fed a doctored transcript (a wrong
# physical address, a VMA list without [stack]) must fail.
# Prints TAP; exit status 1 on failure. A missing gdb-multiarch is a failure
# (make setup installs it).
set -u
cd "$(dirname "$0")/../.."

out=build/check-gdb
mkdir -p "$out"
n=0
fail=0

ok()     { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; fail=1; }
# check COND-STATUS TEXT: one TAP point from the status of the last command.
check()  { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }

# free_port: print a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
	local p i
	for i in $(seq 1 50); do
		p=$((20000 + RANDOM % 40000))
		ss -Hltn "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return 0; }
	done
	return 1
}

# session NAME VARS SCRIPT [INPUT]: boot the kernel of make variables VARS
# halted under QEMU's gdb stub, with INPUT typed on its console, run gdb (the
# command `make gdb-cmd` prints, which loads teachos.py) with the command
# file SCRIPT; output in $out/NAME.gdb.
session() {
	local name=$1 vars=$2 script=$3 input=${4:-} port qcmd gcmd qpid try
	for try in 1 2 3; do
		port=$(free_port) || { echo "no free port" >"$out/$name.gdb"; return 1; }
		qcmd=$(eval "make --no-print-directory -s qemu-cmd $vars") || return 1
		gcmd=$(eval "make --no-print-directory -s gdb-cmd $vars GDB_PORT=$port") || return 1
		printf '%s' "$input" | eval "timeout 120 $qcmd -S -gdb tcp:127.0.0.1:$port" >"$out/$name.qemu" 2>&1 &
		qpid=$!
		eval "timeout 90 $gcmd -nx -batch -ex 'set confirm off' -ex 'set pagination off' -x $script" \
			</dev/null >"$out/$name.gdb" 2>&1
		kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
		grep -q 'Address already in use' "$out/$name.qemu" || return 0
	done
}

# show_log FILE...: each file's last lines as TAP comments, so a failure seen
# only in make check's output (a CI run whose tree is gone) says what happened.
show_log() {
	local f
	for f in "$@"; do
		echo "# | --- $f (last 25 lines)"
		tail -n 25 "$f" 2>/dev/null | tr -d '\r' | sed 's/^/# | /'
	done
}

# part LOG TAG: the lines between "@@ TAG" and the next "@@" marker.
part() {
	tr -d '\r' <"$1" | awk -v tag="@@ $2" '$0 == tag { on = 1; next } /^@@ / { on = 0 } on'
}
# value LOG KEY: the hex number printed as "KEY 0x..." in LOG.
value() { grep -m1 -E "^$2 0x" "$1" | awk '{print $2}'; }
# walk_pa LOG TAG: the PA tos-walk printed in section TAG ("=> pa 0x...").
walk_pa() { part "$1" "$2" | sed -n -E 's/^=> pa (0x[0-9a-f]+) .*/\1/p'; }
# gpa LOG TAG: what QEMU's gva2gpa printed in section TAG.
gpa() { part "$1" "$2" | sed -n -E 's/^gpa: (0x[0-9a-f]+)$/\1/p'; }
# same A B: two hex numbers, both present and equal.
same() { [ -n "$1" ] && [ -n "$2" ] && [ $(($1)) = $(($2)) ]; }

# walk_agrees LOG TAG WANT: tos-walk's PA in TAG equals WANT and QEMU's.
walk_agrees() {
	local pa q
	pa=$(walk_pa "$1" "$2")
	q=$(gpa "$1" "$2")
	same "$pa" "$3" && same "$pa" "$q"
}

# vmas_ok LOG: tos-vmas printed mm->nvmas lines, one [stack] holding the user SP.
vmas_ok() {
	local log=$1 want got sp
	want=$(part "$log" vmas | sed -n -E 's/^pid 1 \(init\) mm 0x[0-9a-f]+: ([0-9]+) VMAs.*/\1/p')
	got=$(part "$log" vmas | grep -c -E '^[0-9a-f]{16}-[0-9a-f]{16} ')
	sp=$(value "$log" USP)
	[ -n "$want" ] && [ "$want" = "$got" ] && [ "$want" -gt 0 ] || return 1
	local r lo hi
	for r in $(part "$log" vmas | awk '/\[stack\]$/ { print $1 }'); do
		lo=0x${r%-*} hi=0x${r#*-}
		[ $((lo)) -le $((sp)) ] && [ $((sp)) -lt $((hi)) ] && return 0
	done
	return 1
}

if ! command -v gdb-multiarch >/dev/null 2>&1; then
	not_ok "gdb-multiarch is not installed ('make setup' installs it)"
	echo "1..$n"
	exit 1
fi

# Guest time counts instructions (-icount): whether the shell reaches wait4
# before hello's exit_group depends on where the timer interrupts it, and with
# host time that moved with the machine's load (a loaded CI run once stopped
# at exit_group with the shell still runnable).
vars4k="ARCH=arm64 INITRD=build/arm64/sh-initramfs.cpio QEMU_EXTRA='-icount shift=0,align=off,sleep=off'"
# Builds hold build/.build.lock: gdb_stub.sh, run beside this script by make
# check, builds the same arm64 kernel in the same tree.
if ! flock build/.build.lock make --no-print-directory -s kernel sh-initramfs ARCH=arm64 >"$out/helpers-4k.build" 2>&1; then
	not_ok "arm64 kernel or sh-initramfs build failed ($out/helpers-4k.build)"
	echo "1..$n"
	exit 1
fi

cat >"$out/helpers-4k.cmds" <<'EOF'
echo @@ help\n
tos-help
break sys_read
continue
echo @@ ps\n
tos-ps
echo @@ current\n
tos-current
echo @@ vmas\n
tos-vmas
echo @@ regs\n
tos-regs
echo @@ facts\n
printf "ARGS 0x%lx\n", a
printf "LINEAR_BASE 0x%lx\n", 'pgtable.c'::pt.linear_base
printf "KIMAGE_PA 0x%lx\n", 'pgtable.c'::pt.kimage_pa
printf "KMAIN_OFF 0x%lx\n", (unsigned long)&kernel_main - (unsigned long)&_text
set $usp = ((struct pt_regs *)a)->sp
printf "USP 0x%lx\n", $usp
echo @@ walk-linear\n
tos-walk 0xffff000000123456
monitor gva2gpa 0xffff000000123456
echo @@ walk-kmain\n
tos-walk &kernel_main
python gdb.execute("monitor gva2gpa 0x%x" % int(gdb.parse_and_eval("(unsigned long)&kernel_main")))
echo @@ walk-usp\n
tos-walk $usp
set $saved_cpsr = $cpsr
set $cpsr = $cpsr & ~0x400000
python gdb.execute("monitor gva2gpa 0x%x" % (int(gdb.parse_and_eval("$usp")) & (2**64 - 1)))
set $cpsr = $saved_cpsr
echo @@ walk-usp-pid\n
tos-walk $usp 1
echo @@ walk-unmapped\n
tos-walk 0x1000
monitor gva2gpa 0x1000
delete
break sys_exit_group
continue
echo @@ ps2\n
tos-ps
echo @@ regs1\n
tos-regs 1
echo @@ vmas2\n
tos-vmas 2
echo @@ end\n
kill
EOF

cat >"$out/helpers-boot.cmds" <<'EOF'
break page_alloc_init
continue
echo @@ current\n
tos-current
echo @@ facts\n
printf "LINEAR_BASE 0x%lx\n", 'pgtable.c'::pt.linear_base
printf "KIMAGE_PA 0x%lx\n", 'pgtable.c'::pt.kimage_pa
printf "KMAIN_OFF 0x%lx\n", (unsigned long)&kernel_main - (unsigned long)&_text
echo @@ walk-linear\n
tos-walk 0xffff000000123456
monitor gva2gpa 0xffff000000123456
echo @@ walk-kmain\n
tos-walk &kernel_main
python gdb.execute("monitor gva2gpa 0x%x" % int(gdb.parse_and_eval("(unsigned long)&kernel_main")))
echo @@ end\n
kill
EOF

session helpers-4k "$vars4k" "$out/helpers-4k.cmds" $'/bin/hello\n'
log=$out/helpers-4k.gdb
if grep -q -E '^Python Exception|Error occurred in Python|Error in sourced command file' "$log"; then
	not_ok "4K: a command failed:"
	grep -m3 -E 'Python Exception|Error' "$log" | sed 's/^/  | /'
fi
[ "$(part "$log" help | grep -c -E '^tos-(ps|current|vmas|walk|regs) ')" = 5 ]
check $? "4K: teachos.py loaded by make gdb-cmd: tos-help lists the five commands"
grep -q -E '^Breakpoint 1, sys_read ' "$log"
check $? "4K: stopped at init's first read()"
part "$log" ps | grep -q -E '^\* +1 +1 P_RUNNING +init '
check $? "4K: tos-ps marks pid 1 init as running"
part "$log" current | grep -q -E '^pid 1 tgid 1 name init state P_RUNNING '
check $? "4K: tos-current names pid 1 init"
vmas_ok "$log"
check $? "4K: tos-vmas lists mm->nvmas VMAs and a [stack] holding the user SP $(value "$log" USP)"
frame=$(part "$log" regs | sed -n -E 's/.*user frame at (0x[0-9a-f]+) .*/\1/p')
same "$frame" "$(value "$log" ARGS)"
check $? "4K: tos-regs finds the frame syscall_dispatch() got ($frame)"
part "$log" regs | grep -q -E '^  x8  0x000000000000003f ' &&
	part "$log" regs | grep -q 'EC 0x15: SVC'
check $? "4K: tos-regs shows x8 = 63 (read) and ESR class SVC"
lb=$(value "$log" LINEAR_BASE)
walk_agrees "$log" walk-linear "$(printf '0x%x' $((lb + 0x123456)))"
check $? "4K: tos-walk of a linear-map address = linear base + offset = QEMU's ($(walk_pa "$log" walk-linear))"
walk_agrees "$log" walk-kmain "$(printf '0x%x' $(($(value "$log" KIMAGE_PA) + $(value "$log" KMAIN_OFF))))"
check $? "4K: tos-walk of &kernel_main = image PA + offset = QEMU's ($(walk_pa "$log" walk-kmain))"
walk_agrees "$log" walk-usp "$(gpa "$log" walk-usp)"
check $? "4K: tos-walk of the user SP = QEMU's ($(walk_pa "$log" walk-usp))"
same "$(walk_pa "$log" walk-usp-pid)" "$(walk_pa "$log" walk-usp)"
check $? "4K: tos-walk by pid (mm->pt.root) = by TTBR0_EL1"
part "$log" walk-unmapped | grep -q '^=> not mapped' && part "$log" walk-unmapped | grep -q '^Unmapped'
check $? "4K: tos-walk of an unmapped address says not mapped, as QEMU does"
part "$log" ps2 | grep -q -E '^\* +2 +2 P_RUNNING +hello ' && part "$log" ps2 | grep -q -E '^  +1 +1 P_SLEEPING +init '
check $? "4K: the shell ran /bin/hello: tos-ps shows hello (pid 2) running, init asleep"
part "$log" regs1 | grep -q -E '^  x8  0x0000000000000104 ' &&
	part "$log" regs1 | grep -q -E '^kernel context saved by arch_switch\(\): lr 0x[0-9a-f]+ \(sleep_on '
check $? "4K: tos-regs 1 of the switched-out shell: x8 = 260 (wait4), its context saved in sleep_on()"
part "$log" vmas2 | grep -q -E '^pid 2 \(hello\) ' && part "$log" vmas2 | grep -q -E ' r-xp .* /bin/hello$'
check $? "4K: tos-vmas 2 lists hello's own text"
[ "$fail" = 0 ] || show_log "$log" "$out/helpers-4k.qemu"

# layout_case NAME GRANULE VA_BITS LEVELS: the boot-time session on another layout.
layout_case() {
	local name=$1 g=$2 vb=$3 lv=$4 log=$out/helpers-$1.gdb failed_before=$fail
	fail=0
	if ! flock build/.build.lock make --no-print-directory -s kernel ARCH=arm64 GRANULE="$g" VA_BITS="$vb" >"$out/helpers-$name.build" 2>&1; then
		not_ok "$name: kernel build failed ($out/helpers-$name.build)"
		return
	fi
	sed "s/0xffff000000123456/$(printf '0x%x' $(( (~0 << vb) + 0x123456 )))/" "$out/helpers-boot.cmds" \
		>"$out/helpers-$name.cmds"
	session "helpers-$name" "ARCH=arm64 GRANULE=$g VA_BITS=$vb INIT=none" "$out/helpers-$name.cmds"
	grep -q -E '^Python Exception|Error occurred in Python|Error in sourced command file' "$log" &&
		{ not_ok "$name: a command failed:"; grep -m3 -E 'Python Exception|Error' "$log" | sed 's/^/  | /'; }
	part "$log" current | grep -q '^no current process'
	check $? "$name: stopped at page_alloc_init: tos-current says there is no process"
	part "$log" walk-kmain | grep -q "${g} granule, ${vb}-bit VA, $lv levels"
	check $? "$name: tos-walk reads the layout from the ELF ($g granule, $vb-bit VA, $lv levels)"
	walk_agrees "$log" walk-linear "$(printf '0x%x' $(($(value "$log" LINEAR_BASE) + 0x123456)))"
	check $? "$name: tos-walk of a linear-map address = linear base + offset = QEMU's"
	walk_agrees "$log" walk-kmain \
		"$(printf '0x%x' $(($(value "$log" KIMAGE_PA) + $(value "$log" KMAIN_OFF))))"
	check $? "$name: tos-walk of &kernel_main = image PA + offset = QEMU's"
	[ "$fail" = 0 ] || show_log "$log" "$out/helpers-$name.qemu"
	[ "$failed_before" = 0 ] || fail=1
}

layout_case 16k-48 16K 48 4
part "$out/helpers-16k-48.gdb" walk-kmain | grep -q -E '^  level 0 \(hw L0\) table 0x[0-9a-f]+ \[   1\]'
check $? "16k-48: the kernel image is under entry 1 of the 2-entry top table"
layout_case 64k-42 64K 42 2
layout_case 4k-39 4K 39 3

# Self-check: doctored copies of the 4K transcript must fail the same tests.
bad=$out/helpers-doctored.gdb
awk '/^=> pa 0x/ && !done { sub(/0x[0-9a-f]+/, $3 "0"); done = 1 } 1' \
	"$log" >"$bad"
if walk_agrees "$log" walk-linear "$(printf '0x%x' $((lb + 0x123456)))" &&
   ! walk_agrees "$bad" walk-linear "$(printf '0x%x' $((lb + 0x123456)))"; then
	ok "the walk check fires on a wrong physical address"
else
	not_ok "the walk check does not notice a wrong physical address"
fi
sed 's/\[stack\]$/[anon]/' "$log" >"$bad"
if vmas_ok "$log" && ! vmas_ok "$bad"; then
	ok "the VMA check fires on a list without [stack]"
else
	not_ok "the VMA check does not notice a missing [stack]"
fi

echo "1..$n"
exit $fail
