#!/usr/bin/env bash
# gdb_stub.sh - the debugger works on every architecture: QEMU starts halted
# with its gdb stub on a free port, the debugger `make gdb` prints (make
# gdb-cmd) attaches in batch mode, breaks at kernel_main, continues, and must
# stop there with a backtrace whose frame #0 is kernel_main.  Prints TAP;
# exit status 1 on failure.
#
#   gdb_stub.sh            arm64 (gdb-multiarch, EL1), MicroBlaze ml605 and
#                          s3adsp1800 (microblaze-elf-gdb), then the self-check
#
# A missing gdb-multiarch is a failure (make setup installs it).  A missing
# microblaze-elf-gdb (`make check` builds it first, but this script may run
# alone) makes its points "ok ... # SKIP", naming `make setup-gdb`.
#
# The breakpoint is an ordinary one at the linked (high) address: QEMU's stub
# keeps breakpoints as guest virtual PCs and never patches guest memory, so it
# fires once the kernel runs there with the MMU on, although gdb sets it while
# the CPU still sits at the physical entry point (README.md, "Debugging").
set -u
cd "$(dirname "$0")/../.."

out=build/check-gdb
mkdir -p "$out"
n=0
fail=0

ok()     { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; fail=1; }

# free_port: print a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
	local p i
	for i in $(seq 1 50); do
		p=$((20000 + RANDOM % 40000))
		ss -Hltn "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return 0; }
	done
	return 1
}

# check_stop LOG: did the gdb session in LOG stop at a breakpoint in
# kernel_main, and does its backtrace start with kernel_main?  Prints one
# line saying what is wrong and returns 1, or returns 0.
check_stop() {
	local log=$1 func=${2:-kernel_main}
	if ! grep -q -E "^(Thread [0-9]+ .* hit )?Breakpoint 1, (0x[0-9a-f]+ in )?$func \(" "$log"; then
		echo "did not stop at breakpoint 1 in $func"
		return 1
	fi
	if ! grep -q -E "^#0 +(0x[0-9a-f]+ in )?$func \(" "$log"; then
		echo "bt does not start with $func"
		return 1
	fi
	return 0
}

# session NAME VARS: boot the kernel of make variables VARS halted under QEMU's
# gdb stub and run the debugger on it; its output is $out/NAME.gdb.
session() {
	local name=$1 vars=$2 port qcmd gcmd qpid try
	for try in 1 2 3; do
		port=$(free_port) || { echo "no free port" >"$out/$name.gdb"; return 1; }
		qcmd=$(eval "make --no-print-directory -s qemu-cmd $vars") || return 1
		gcmd=$(eval "make --no-print-directory -s gdb-cmd $vars GDB_PORT=$port") || return 1
		# QEMU waits (-S) for gdb; the timeout ends it if gdb never comes.
		eval "timeout 120 $qcmd -S -gdb tcp:127.0.0.1:$port" </dev/null >"$out/$name.qemu" 2>&1 &
		qpid=$!
		# gdb retries the connection (set tcp auto-retry) while QEMU starts.
		eval "timeout 90 $gcmd -nx -batch -ex 'set confirm off' -ex 'set pagination off' \
			-ex 'break kernel_main' -ex continue -ex bt -ex kill" </dev/null >"$out/$name.gdb" 2>&1
		kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
		grep -q 'Address already in use' "$out/$name.qemu" || return 0
	done
}

# run_case NAME VARS: one configuration, two TAP points.
run_case() {
	local name=$1 vars=$2 gdb why
	gdb=$(eval "make --no-print-directory -s gdb-cmd $vars" | awk '{print $1}')
	if ! command -v "$gdb" >/dev/null 2>&1; then
		if [ "$gdb" != gdb-multiarch ]; then
			why="$gdb is not installed; 'make setup-gdb' builds it"
			ok "$name: gdb stops at kernel_main # SKIP $why"
			ok "$name: bt names kernel_main # SKIP $why"
		else
			not_ok "$name: $gdb is not installed ('make setup-gdb' installs it)"
			not_ok "$name: bt names kernel_main (no debugger)"
		fi
		return
	fi
	# The build lock: gdb_helpers.sh, run beside this script by make check,
	# builds the same arm64 kernel in the same tree.
	if ! eval "flock build/.build.lock make --no-print-directory -s kernel $vars" >"$out/$name.build" 2>&1; then
		not_ok "$name: kernel build failed ($out/$name.build)"
		not_ok "$name: bt names kernel_main (no kernel)"
		return
	fi
	session "$name" "$vars"
	if why=$(check_stop "$out/$name.gdb"); then
		ok "$name: gdb stops at kernel_main"
		ok "$name: bt names kernel_main: $(grep -m1 -E '^#0 ' "$out/$name.gdb" | cut -c1-60)"
	else
		not_ok "$name: $why"
		sed 's/^/  | /' "$out/$name.gdb" | tail -n 15
		not_ok "$name: bt names kernel_main (see $out/$name.gdb)"
	fi
}

run_case arm64-el1      "ARCH=arm64 EL=1"
run_case mb-ml605       "ARCH=microblaze BOARD=ml605"
run_case mb-s3adsp1800  "ARCH=microblaze BOARD=s3adsp1800"

# Self-check: the arm64 session's output must not pass for a stop in
# start_kernel (kernel_main's caller, frame #1 of that very backtrace), and
# it must have passed for kernel_main, or this proves nothing.
if check_stop "$out/arm64-el1.gdb" >/dev/null &&
   ! check_stop "$out/arm64-el1.gdb" start_kernel >/dev/null; then
	ok "the check fires on a session that stopped elsewhere (start_kernel)"
else
	not_ok "the check does not notice a stop outside the expected function"
fi

echo "1..$n"
exit $fail
