#!/usr/bin/env bash
# readme_params.sh - the README's bootarg table lists exactly the options of
# kernel/params.c (the kernel's table). Prints TAP; exit status 1 on failure.
#
#   readme_params.sh [README]   (default README.md)
#
# Last, it checks itself: a copy of the README with the "help" row removed
# must make it fail.
set -u
cd "$(dirname "$0")/../.."
readme_file=${1:-README.md}

# Option names from the kernel's table: lines like `{ "name", BA_...`.
kernel=$(grep -o -E '^\s*\{ "[a-z_0-9]+", BA_' kernel/params.c | sed -E 's/.*"([a-z_0-9]+)".*/\1/' | sort)
# Option names from the README table between the two markers: "| `name...`".
readme=$(sed -n '/BOOTARG_TABLE_START/,/BOOTARG_TABLE_END/p' "$readme_file" |
	grep -o -E '^\| `[a-z_0-9]+' | sed -E 's/^\| `//' | sort)
n=0
fail=0
[ -n "$kernel" ] || { echo "not ok 1 - kernel/params.c: no options found"; exit 1; }
for o in $kernel; do
	n=$((n + 1))
	if echo "$readme" | grep -qx "$o"; then
		echo "ok $n - README documents bootarg '$o'"
	else
		echo "not ok $n - README's bootarg table lacks '$o' (kernel/params.c has it)"
		fail=1
	fi
done
for o in $readme; do
	if ! echo "$kernel" | grep -qx "$o"; then
		n=$((n + 1))
		echo "not ok $n - README documents '$o', which kernel/params.c does not have"
		fail=1
	fi
done
if [ $# -eq 0 ]; then	# the self-check, only in the top-level run
	n=$((n + 1))
	tmp=$(mktemp)
	grep -v '^| `help`' README.md >"$tmp"
	if bash "$0" "$tmp" 2>/dev/null | grep -q "^not ok .*lacks 'help'"; then
		echo "ok $n - the check fires on a README whose table lacks 'help'"
	else
		echo "not ok $n - the check does not notice a README whose table lacks 'help'"
		fail=1
	fi
	rm -f "$tmp"
fi
echo "1..$n"
exit $fail
