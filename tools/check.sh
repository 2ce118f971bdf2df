#!/usr/bin/env bash
# check.sh - everything "make check" runs, ending with "N passed, N failed".
#
#  1. host unit tests (tests/host/*.mk), under ASan/UBSan, and the scripted
#     host checks (tests/host/*.sh; gdb_stub.sh attaches the debuggers to QEMU);
#     then the graded labs (tools/lab.py check: docs/labs);
#  2. every QEMU configuration in tests/qemu-configs, two at a time;
#  3. the scripted console sessions (tests/sessions, tools/console-session.py),
#     then the address-space pictures drawn from those logs (check-pictures.sh);
#  4. the user tests on Debian's Linux 6.12, Debian's dynamically linked
#     busybox on both kernels (tools/check-debian.sh), and Linux's mm
#     selftests on both.
#
# Every TAP point counts as one test, and every QEMU boot counts as one more
# (its clean exit). A host test that exits non-zero without a failing TAP
# point (a sanitizer report, a crash) counts as one failure.
#
# CHECK_ONLY=REGEX (make check ONLY=REGEX) runs only the QEMU configurations
# whose name matches (grep -E), with what they need built, and no other phase.
set -u
cd "$(dirname "$0")/.."

out=build/check
# One check at a time in a tree: a second one waits here instead of
# deleting the first one's results under it.
mkdir -p build
exec 9>build/.check.lock
flock 9
rm -rf "$out"
mkdir -p "$out"
jobs=${CHECK_JOBS:-2}
only=${CHECK_ONLY:-}
total_pass=0
total_fail=0
failed_names=()

phase_start=$SECONDS
phases=""
phase_end() {	# phase_end NAME: note how long the phase just ended took
	phases="$phases $1 $((SECONDS - phase_start)) s,"
	phase_start=$SECONDS
}

throttle() {	# after starting a background job: wait for one to end when $jobs run
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
}

count() {	# count FILE NAME: add a result file's "run: NAME: P passed, F failed"
	local line p f
	line=$(grep -a -E "^run: .*: [0-9]+ passed, [0-9]+ failed" "$1" | tail -n 1)
	if [ -z "$line" ]; then
		total_fail=$((total_fail + 1))
		failed_names+=("$2 (no result)")
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/')
	f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/')
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	[ "$f" = 0 ] || failed_names+=("$2")
}

if [ -z "$only" ]; then
	# --- host tests --------------------------------------------------------------
	echo "== host tests"
	make --no-print-directory host-dtbs >"$out/host-dtbs.log" 2>&1 || {
		echo "not ok - host-dtbs: could not make the test device trees"; tail -n 20 "$out/host-dtbs.log"
		total_fail=$((total_fail + 1)); failed_names+=("host-dtbs"); }
	if ! make --no-print-directory -j"$jobs" host-tests >"$out/host-build.log" 2>&1; then
		echo "not ok - host tests: build failed"; tail -n 30 "$out/host-build.log"
		total_fail=$((total_fail + 1)); failed_names+=("host build")
	fi
	# The test programs run $jobs at a time (each into its own log, its exit
	# status into a .rc file); the results are read in list order afterwards.
	mapfile -t host_list < <(make --no-print-directory -s host-test-list)
	running=0
	for l in "${host_list[@]}"; do
		IFS='|' read -r t args <<<"$l"
		[ -n "$t" ] && [ -x "build/host/test_$t" ] || continue
		# shellcheck disable=SC2086
		(timeout 300 "build/host/test_$t" $args >"$out/host-$t.out.log" 2>&1; echo $? >"$out/host-$t.out.rc") &
		throttle
	done
	wait
	for l in "${host_list[@]}"; do
		IFS='|' read -r t args <<<"$l"
		[ -n "$t" ] || continue
		res="$out/host-$t.out"
		if [ ! -x "build/host/test_$t" ]; then
			echo "run: host-$t: 0 passed, 1 failed" >"$res"
		else
			rc=$(cat "$res.rc" 2>/dev/null || echo 1)
			p=$(grep -c -E '^ok [0-9]+' "$res.log")
			f=$(grep -c -E '^not ok [0-9]+' "$res.log")
			grep -E '^not ok' "$res.log" | sed "s/^/  host-$t: /"
			if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
				f=1
				echo "not ok - host-$t: exited with status $rc"
				tail -n 30 "$res.log" | sed 's/^/  | /'
			fi
			echo "run: host-$t: $p passed, $f failed" >"$res"
		fi
		echo "$(tail -n 1 "$res")"
		count "$res" "host-$t"
	done

	# Scripted host checks: tests/host/*.sh, each printing TAP, run $jobs at a
	# time (each writes only its own log; its exit status goes to a .rc file).
	# A point marked "# SKIP" is shown and counts neither as passed nor as failed.
	running=0
	for s in tests/host/*.sh; do
		t=$(basename "$s" .sh)
		(bash "$s" >"$out/host-$t.out.log" 2>&1; echo $? >"$out/host-$t.rc") &
		throttle
	done
	wait
	for s in tests/host/*.sh; do
		t=$(basename "$s" .sh)
		res="$out/host-$t.out"
		rc=$(cat "$out/host-$t.rc" 2>/dev/null || echo 1)
		p=$(grep -E '^ok [0-9]+' "$res.log" | grep -c -v '# SKIP')
		f=$(grep -c -E '^not ok [0-9]+' "$res.log")
		grep -E '^not ok|^ok .*# SKIP' "$res.log" | sed "s/^/  host-$t: /"
		# A failing script's own account of why (its "# |" comment lines).
		[ "$f" = 0 ] || grep -E '^# \|' "$res.log" | head -n 60 | sed "s/^/  host-$t: /"
		[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
		echo "run: host-$t: $p passed, $f failed" >"$res"
		tail -n 1 "$res"
		count "$res" "host-$t"
	done

	phase_end host
	# --- graded labs (docs/labs, tools/lab.py) -----------------------------------
	# Every lab's student tree (build/labs/NAME) builds and scores less than
	# full; this tree scores full. One point per lab (and one for the markers).
	echo "== labs"
	python3 tools/lab.py check --jobs "$jobs" >"$out/labs.out" 2>&1
	grep -a -v -E '^ok |^  # |^1\.\.|^[0-9]+ passed' "$out/labs.out"
	count "$out/labs.out" "check-labs"

	phase_end labs
fi
# --- QEMU configurations -----------------------------------------------------
# tests/qemu-configs: one configuration per line,
#   name | make variables | runner options
echo "== QEMU configurations"
configs=()
while IFS= read -r l; do
	case "$l" in ''|'#'*) continue ;; esac
	if [ -n "$only" ]; then
		IFS='|' read -r name _ <<<"$l"
		echo $name | grep -q -E -- "$only" || continue
	fi
	configs+=("$l")
done <tests/qemu-configs

# What the boots need besides kernels: device trees, user programs and
# their initramfs images (our libc and glibc builds).
for t in boot-dtbs user-all user-linux userland-all; do
	make --no-print-directory "$t" >"$out/$t.log" 2>&1 || {
		echo "not ok - $t: could not build"; tail -n 20 "$out/$t.log"
		total_fail=$((total_fail + 1)); failed_names+=("$t"); }
done

# Build every kernel the configurations need (ARCH/BOARD/MEM: MicroBlaze's
# device tree carries the RAM size; GRANULE/VA_BITS: the arm64 layout; PAGE_SIZE: the
# MicroBlaze page size), once each.
declare -A built
for c in "${configs[@]}"; do
	IFS='|' read -r name vars opts <<<"$c"
	key=$(echo "$vars" | grep -o -E '(ARCH|BOARD|MEM|GRANULE|VA_BITS|PAGE_SIZE)=[^ ]+' | tr '\n' ' ')
	[ -n "${built[$key]:-}" ] && continue
	built[$key]=1
	# shellcheck disable=SC2086
	if ! eval make --no-print-directory -j"$jobs" kernel $key >"$out/build-${key// /_}.log" 2>&1; then
		echo "not ok - kernel build ($key) failed"
		tail -n 30 "$out/build-${key// /_}.log"
		total_fail=$((total_fail + 1)); failed_names+=("build $key")
	fi
done

run_config() {	# run_config LINE: run one configuration into $out/NAME.out
	local name vars opts cmd arch
	IFS='|' read -r name vars opts <<<"$1"
	name=$(echo $name)
	cmd=$(eval "make --no-print-directory -s qemu-cmd $vars")
	arch=$(eval "make --no-print-directory -s print-arch $vars")
	# One string for eval, so quoted options keep their inner spaces.
	eval "bash tools/run-qemu.sh --name \"\$name\" --arch \"\$arch\" --log \"\$out/\$name.log\" $opts -- $cmd" \
		>"$out/$name.out" 2>&1
}

phase_end "builds"
# Longest first, so the two slots do not end with one long boot alone: a
# configuration's --timeout stands for its length (the results are still
# shown in file order below).
mapfile -t by_length < <(for c in "${configs[@]}"; do
	t=$(echo "$c" | grep -o -E -- '--timeout [0-9]+' | grep -o -E '[0-9]+$')
	printf '%s\t%s\n' "${t:-0}" "$c"
done | sort -s -t$'\t' -k1,1nr | cut -f2-)
running=0
for c in "${by_length[@]}"; do
	run_config "$c" &
	throttle
done
wait

for c in "${configs[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	name=$(echo $name)
	if [ -f "$out/$name.out" ]; then
		grep -a -v -E '^  [^ ]+: ok ' "$out/$name.out"
	fi
	count "$out/$name.out" "$name"
done

phase_end qemu
if [ -z "$only" ]; then
	# --- scripted console sessions ----------------------------------------------
	# tests/sessions/*.session: commands typed at a shell's prompt, each output
	# checked (tools/console-session.py); one "run:" line per target.
	echo "== console sessions"
	for s in tests/sessions/*.session; do
		t=$(basename "$s" .session)
		python3 tools/console-session.py --log "$out/session-$t.log" "$s" >"$out/session-$t.out" 2>&1 &
	done
	wait
	for s in tests/sessions/*.session; do
		t=$(basename "$s" .session)
		grep -a -v -E '^ok |^# pending' "$out/session-$t.out"
		grep -q -a -E '^run: ' "$out/session-$t.out" ||
			{ total_fail=$((total_fail + 1)); failed_names+=("session-$t (no result)"); }
		while IFS= read -r line; do
			name=$(echo "$line" | sed -E 's/^run: ([^:]+):.*/\1/')
			echo "$line" >"$out/session-$name.res"
			count "$out/session-$name.res" "$name"
		done < <(grep -a -E '^run: ' "$out/session-$t.out")
	done

	# --- pictures of the address space -------------------------------------------
	# Drawn from the logs of the boots and the session above, then checked
	# (tools/check-pictures.sh: numbers, xmllint, rsvg-convert).
	echo "== pictures"
	bash tools/check-pictures.sh "$out" >"$out/pictures.out" 2>&1
	grep -a -v -E '^ok ' "$out/pictures.out"
	count "$out/pictures.out" "pictures"

	phase_end "sessions+pictures"
	# --- the same user tests on Debian's Linux 6.12 -------------------------------
	# Proves the tests expect what Linux does (tools/check-linux.sh).
	echo "== Linux 6.12 (reference)"
	bash tools/check-linux.sh >"$out/linux.out" 2>&1
	grep -a -v -E '^  [^ ]+: ok ' "$out/linux.out"
	while IFS= read -r line; do
		name=$(echo "$line" | sed -E 's/^run: ([^:]+):.*/\1/')
		echo "$line" >"$out/linux-$name.res"
		count "$out/linux-$name.res" "$name"
	done < <(grep -a -E '^run: ' "$out/linux.out")
	grep -q -a -E '^run: ' "$out/linux.out" || { total_fail=$((total_fail + 1)); failed_names+=("check-linux"); }

	phase_end linux
	# --- Debian's own dynamically linked programs on both kernels, compared --------
	# (tools/check-debian.sh: libc6 and busybox from Debian's archive)
	echo "== Debian programs (ours vs Linux 6.12)"
	bash tools/check-debian.sh >"$out/debian.out" 2>&1
	grep -a -v -E '^ok ' "$out/debian.out"
	count "$out/debian.out" "debian-arm64"

	phase_end debian
	# --- Linux's own mm selftests on both kernels, compared case by case ------------
	# (tools/check-linux-selftests.sh)
	echo "== Linux mm selftests (ours vs Linux 6.12)"
	bash tools/check-linux-selftests.sh >"$out/selftests.out" 2>&1
	grep -a -v -E '^ok ' "$out/selftests.out"
	count "$out/selftests.out" "linux-selftests"

	phase_end selftests
fi
echo
echo "time by phase:${phases%,}"
if [ ${#failed_names[@]} -gt 0 ]; then
	# The failing points again, last, where a reader of only the end sees them.
	echo "failing points (the first 20):"
	grep -h -a -E '^not ok|^  [^ ]+: not ok' "$out"/*.out "$out"/*.out.log 2>/dev/null |
		head -n 20 | cut -c1-200 | sed 's/^/  /'
	echo "failed: ${failed_names[*]}"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
