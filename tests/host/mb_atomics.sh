#!/usr/bin/env bash
# mb_atomics.sh - MicroBlaze programs use the test libc's atomics, never the
# cross GCC's inline expansion. Prints TAP; exit status 1 on failure.
#
# The cross GCC's inline compare-and-swap (behind every __atomic builtin on
# an int) takes the branch after its swx the wrong way round: a mismatch
# counts as done, so a fetch-add that met another thread's update lost it
# (tests/user/pthread.c's 4-thread counter once read 79,999 of 80,000), and
# an exchange could return the value it had just stored (a mutex unlock
# that never woke its waiter). QEMU takes interrupts only between
# translation blocks, so a boot shows the race rarely; this check shows the
# cause every time instead. For each board it compiles a probe using the
# builtins with the flags of tests/user/user.mk and asks that no lwx or swx
# be inlined (they must be calls into tests/lib/arch/microblaze/atomic.S),
# that atomic.S defines every call the probe makes, and, to prove the check
# fires, that the same probe without -fno-inline-atomics inlines lwx.
set -u
cd "$(dirname "$0")/../.."
n=0
fail=0
ok() {	# ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

if [ ! -x /opt/mbtc/bin/microblaze-elf-gcc ]; then
	echo "ok 1 - # SKIP no MicroBlaze compiler in /opt/mbtc (make setup)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/probe.c" <<'EOF'
volatile int w;
int probe(int o, int n)
{
	int e = o;

	__atomic_compare_exchange_n(&w, &e, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return e + __atomic_exchange_n(&w, n, __ATOMIC_SEQ_CST) + __atomic_fetch_add(&w, 1, __ATOMIC_SEQ_CST) +
	       __atomic_add_fetch(&w, 1, __ATOMIC_SEQ_CST) + __atomic_load_n(&w, __ATOMIC_SEQ_CST);
}
EOF
objdump=/opt/mbtc/bin/microblaze-elf-objdump
for board in ml605 s3adsp1800; do
	flags=$(make -s --no-print-directory -f tests/user/user.mk ARCH=microblaze BOARD=$board print-cflags)
	# shellcheck disable=SC2086
	$flags -c "$tmp/probe.c" -o "$tmp/probe-$board.o"
	inl=$($objdump -d "$tmp/probe-$board.o" 2>/dev/null | grep -c -E '\s(lwx|swx)\s')
	ok "$([ -s "$tmp/probe-$board.o" ] && [ "$inl" = 0 ] && echo 0 || echo 1)" \
		"$board: the __atomic builtins are calls, no lwx/swx inlined ($inl found)"
	calls=$($objdump -dr "$tmp/probe-$board.o" | grep -o -E '__atomic_[a-z_]+_4' | sort -u)
	# shellcheck disable=SC2086
	$flags -D__ASSEMBLER__ -c tests/lib/arch/microblaze/atomic.S -o "$tmp/atomic-$board.o"
	missing=""
	for c in $calls; do
		/opt/mbtc/bin/microblaze-elf-nm "$tmp/atomic-$board.o" | grep -q -E " T $c\$" || missing="$missing $c"
	done
	ok "$([ -n "$calls" ] && [ -z "$missing" ] && echo 0 || echo 1)" \
		"$board: atomic.S defines every call made ($(echo $calls | wc -w) calls${missing:+; missing$missing})"
	# shellcheck disable=SC2086
	${flags/ -fno-inline-atomics/} -c "$tmp/probe.c" -o "$tmp/probe-inline-$board.o"
	inl=$($objdump -d "$tmp/probe-inline-$board.o" | grep -c -E '\s(lwx|swx)\s')
	ok "$([ "$inl" -gt 0 ] && echo 0 || echo 1)" \
		"$board: the check fires: without -fno-inline-atomics the probe inlines lwx/swx ($inl found)"
done
echo "1..$n"
exit $fail
