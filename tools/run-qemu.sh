#!/usr/bin/env bash
# run-qemu.sh - boot one QEMU configuration, save its console to a log, and
# judge the run.
#
#   run-qemu.sh [--name N] [--arch A] [--timeout S] [--log FILE] [--stream]
#               [--expect-fail] -- qemu-system-... args
#
# The kernel ends every boot with a line "kernel-exit: status=N" and then
# powers off (arm64, PSCI) or waits to be stopped (MicroBlaze has no
# power-off device; the runner ends QEMU once it sees the line).
#
# Exit status: the kernel's status; 124 on timeout; 125 when QEMU ended
# without the exit line (a crash or a hang in QEMU itself).
# Without --stream it also reports the run's TAP lines, prefixed with the
# configuration name, and a line "run: NAME: N passed, N failed"; on failure it
# shows the tail of the log.
#   --expect-fail   the run must stop with a non-zero status (a boot error
#                   that is the point of the test); TAP is still checked.
#   --expect TEXT   the log must contain TEXT (repeatable).
set -u

name=qemu
arch=arm64
timeout=60
log=
stream=0
expect_fail=0
expects=()
while [ $# -gt 0 ]; do
	case "$1" in
	--name) name=$2; shift 2 ;;
	--arch) arch=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--stream) stream=1; shift ;;
	--expect-fail) expect_fail=1; shift ;;
	--expect) expects+=("$2"); shift 2 ;;
	--) shift; break ;;
	*) echo "run-qemu.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "run-qemu.sh: no QEMU command given" >&2; exit 2; }
[ -n "$log" ] || log=$(mktemp)
mkdir -p "$(dirname "$log")"
: >"$log"

marker='kernel-exit: status='

# Start QEMU. In stream mode the console is also copied to our stdout and
# QEMU keeps our stdin (an interactive console); otherwise stdin is empty.
if [ "$stream" = 1 ]; then
	# An asynchronous command's stdin would be /dev/null: hand ours on.
	"$@" <&0 >"$log" 2>&1 &
	qpid=$!
	tail -n +1 -f --pid="$qpid" "$log" &
	tpid=$!
else
	"$@" >"$log" 2>&1 </dev/null &
	qpid=$!
	tpid=
fi

start=$SECONDS
status=
timed_out=0
while kill -0 "$qpid" 2>/dev/null; do
	if grep -q -a "$marker" "$log"; then
		# The kernel is done. arm64 powers off by itself; give it a
		# moment, then end QEMU (MicroBlaze, or a power-off that failed).
		[ "$arch" = microblaze ] && sleep 0.2 || sleep 3
		kill "$qpid" 2>/dev/null
		break
	fi
	if [ "$timeout" != 0 ] && [ $((SECONDS - start)) -ge "$timeout" ]; then
		timed_out=1
		kill "$qpid" 2>/dev/null
		sleep 1
		kill -9 "$qpid" 2>/dev/null
		break
	fi
	sleep 0.1
done
wait "$qpid" 2>/dev/null
qrc=$?
[ -n "$tpid" ] && { sleep 0.2; kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null; }

line=$(grep -a -o "${marker}[0-9]*" "$log" | tail -n 1)
if [ -n "$line" ]; then
	status=${line#"$marker"}
elif [ "$timed_out" = 1 ]; then
	status=124
else
	status=125
fi

[ "$stream" = 1 ] && exit "$status"

# Judge the run. Each TAP point counts; the boot itself counts as one more.
problems=()
[ "$timed_out" = 1 ] && problems+=("timed out after ${timeout}s")
[ "$status" = 125 ] && problems+=("QEMU ended (rc $qrc) without '$marker'")
if grep -q -a '^Unexpected exception' "$log"; then
	[ "$expect_fail" = 1 ] || problems+=("unexpected exception")
fi
if grep -q -a '^panic:' "$log"; then
	[ "$expect_fail" = 1 ] || problems+=("$(grep -a -m1 '^panic:' "$log" | tr -d '\r')")
fi
if [ "$expect_fail" = 1 ]; then
	case "$status" in 0|124|125) problems+=("expected a failing exit status, got $status") ;; esac
elif [ "$status" != 0 ] && [ "$status" != 124 ] && [ "$status" != 125 ]; then
	problems+=("kernel exit status $status")
fi
for e in "${expects[@]+"${expects[@]}"}"; do
	grep -q -a -F -- "$e" "$log" || problems+=("log lacks: $e")
done

passed=0
failed=0
while IFS= read -r tap; do
	tap=${tap%$'\r'}
	case "$tap" in
	"ok "*) passed=$((passed + 1)); echo "  $name: $tap" ;;
	"not ok "*) failed=$((failed + 1)); echo "  $name: $tap" ;;
	esac
done < <(grep -a -E '^(not )?ok [0-9]+' "$log")
plan=$(grep -a -E '^1\.\.[0-9]+' "$log" | tail -n 1 | tr -d '\r')
if [ -n "$plan" ] && [ "${plan#1..}" != $((passed + failed)) ]; then
	problems+=("TAP plan $plan but $((passed + failed)) test points")
fi

if [ ${#problems[@]} -eq 0 ]; then
	passed=$((passed + 1))
	echo "ok - $name: boot (exit status $status, $((SECONDS - start)) s)"
else
	failed=$((failed + 1))
	echo "not ok - $name: boot: $(IFS=';'; echo "${problems[*]}")"
	echo "---- $name: last lines of $log ----"
	tail -n 40 "$log" | tr -d '\r' | sed 's/^/  | /'
	echo "----"
fi
echo "run: $name: $passed passed, $failed failed"
[ "$failed" = 0 ]
