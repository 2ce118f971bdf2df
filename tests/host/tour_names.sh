#!/usr/bin/env bash
# tour_names.sh - docs/tour.md names only what the tree has. Prints TAP;
# exit status 1 on failure.
#
#   1. every `name()` it cites is defined or declared in the source
#      (arch/ mm/ kernel/ fs/ drivers/ include/ tests/kernel/): a C line that
#      starts in column 0 with name( on it (a definition, a prototype, a
#      function-like #define), or an assembly label name: at the start of a line;
#   2. every word of every BOOTARGS='...' it gives is a kernel option in
#      README.md's bootarg table, or a word /init takes that
#      tests/user/README.md documents (`tests=`, `leakcheck=`, ...);
#   3. every NAME=value of a make command it gives is a row of README.md's
#      "make variables" table;
#   4. every file path it cites in backticks exists.
#
# Then the self-check: a copy of the tour with a bogus function, a bogus
# bootarg, a bogus make variable and a bogus path must fail each check.
set -u
cd "$(dirname "$0")/../.."

n=0
fail=0
ok()     { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; fail=1; }

out=build/check
mkdir -p "$out"
defs=$out/tour-defs.txt

# Every name the source defines or declares (a superset: any name( on a
# column-0 line of C, and every assembly label).
{
	grep -rhE '^[A-Za-z_#]' --include=*.c --include=*.h arch mm kernel fs drivers include tests/kernel |
		grep -oE '[A-Za-z_][A-Za-z0-9_]*\(' | tr -d '('
	grep -rhoE '^[A-Za-z_.][A-Za-z0-9_.]*:' --include=*.S arch | tr -d ':'
} | sort -u >"$defs"

# missing_names TOUR: print each cited `name()` the source does not define.
missing_names() {
	grep -oE '`[A-Za-z_][A-Za-z0-9_]*\(\)`' "$1" | tr -d '`()' | sort -u | comm -23 - "$defs"
}

# The option names of README.md's bootarg table, and the words /init documents.
kernel_opts=$(sed -n '/^BOOTARG_TABLE_START/,/^BOOTARG_TABLE_END/p' README.md |
	sed -n -E 's/^\| `([a-z_0-9]+).*/\1/p' | sort -u)

# The in-kernel tests (KTEST(name)) and the user tests (tests/user/NAME.c).
ktests=$(grep -rhoE '^KTEST\([a-z_0-9]+\)' tests/kernel arch/*/kernel | sed -E 's/KTEST\((.*)\)/\1/' | sort -u)

# bad_bootargs TOUR: print each bootarg word of TOUR that is neither a kernel
# option nor a documented /init word, and each ktest= or tests= name that
# names no test. The words are those of BOOTARGS='...' (or BOOTARGS=word)
# and every backticked `name=value` in lower case.
bad_bootargs() {
	local w name t
	for w in $( { grep -oE "BOOTARGS=('[^']*'|[^ \`]+)" "$1" | sed -E "s/^BOOTARGS=//; s/'//g"
		      grep -oE '`[a-z_0-9]+=[^` ]*`' "$1" | tr -d '`'; } ); do
		name=${w%%=*}
		if echo "$kernel_opts" | grep -qx "$name"; then
			if [ "$name" = ktest ] && [ "${w#ktest=}" != all ]; then
				for t in $(echo "${w#ktest=}" | tr ',' ' '); do
					echo "$ktests" | grep -qx "$t" || echo "ktest=$t"
				done
			fi
			continue
		fi
		if grep -qF "\`$name=" tests/user/README.md; then
			if [ "$name" = tests ]; then
				for t in $(echo "${w#tests=}" | tr ',' ' '); do
					[ -f "tests/user/$t.c" ] || echo "tests=$t"
				done
			fi
			continue
		fi
		echo "$w"
	done | sort -u
}

# The make variables README.md's table lists.
make_vars=$(sed -n '/^## make variables/,/^## /p' README.md | sed -n -E 's/^\| `([A-Z_0-9]+)`.*/\1/p')

# bad_make_vars TOUR: print each NAME= of a `make ...` command not in the table.
bad_make_vars() {
	grep -oE '(^|`)make [^`]*' "$1" | grep -oE '(^| )[A-Z][A-Z_0-9]*=' | tr -d ' =' | sort -u |
		while read -r v; do
			echo "$make_vars" | grep -qx "$v" || echo "$v"
		done
}

# missing_paths TOUR: print each backticked path (dir/.../file) that does not exist.
missing_paths() {
	grep -oE '`(arch|mm|kernel|fs|drivers|include|tests|tools|docs|dts|userland|linker)/[A-Za-z0-9_./<>-]*`' "$1" |
		tr -d '`' | grep -v '<' | sort -u | while read -r p; do
			[ -e "$p" ] || echo "$p"
		done
}

# check_all TOUR: the four checks on TOUR, one TAP point each.
check_all() {
	local tour=$1 res
	res=$(missing_names "$tour")
	if [ -z "$res" ]; then ok "every \`name()\` in $tour is defined ($(grep -oE '`[A-Za-z_][A-Za-z0-9_]*\(\)`' "$tour" | sort -u | wc -l) names)"
	else not_ok "$tour cites functions the source does not define: $(echo $res)"; fi
	res=$(bad_bootargs "$tour")
	if [ -z "$res" ]; then ok "every BOOTARGS word in $tour is in README.md's table or tests/user/README.md"
	else not_ok "$tour gives bootargs README.md's table does not have: $(echo $res)"; fi
	res=$(bad_make_vars "$tour")
	if [ -z "$res" ]; then ok "every make variable in $tour's commands is in README.md's table"
	else not_ok "$tour uses make variables README.md does not list: $(echo $res)"; fi
	res=$(missing_paths "$tour")
	if [ -z "$res" ]; then ok "every path $tour cites exists"
	else not_ok "$tour cites paths that do not exist: $(echo $res)"; fi
}

check_all docs/tour.md

# Self-check: each check must fire on a doctored copy.
bad=$out/tour-doctored.md
cp docs/tour.md "$bad"
cat >>"$bad" <<'EOF'
`no_such_function_in_the_tree()` runs, `make run BOOTARGS='ptdump no_such_option=1' NO_SUCH_VAR=1`,
`make run BOOTARGS='ktest=alloc_smoke,no_such_ktest tests=mm,no_such_utest'`,
and `mm/no_such_file.c` holds it.
EOF
[ -n "$(missing_names "$bad")" ] && ok "the name check fires on a bogus function" ||
	not_ok "the name check does not notice a bogus function"
[ "$(bad_bootargs "$bad" | tr '\n' ' ')" = "ktest=no_such_ktest no_such_option=1 tests=no_such_utest " ] &&
	ok "the bootarg check fires on a bogus option, ktest name and user test (and only on them)" ||
	not_ok "the bootarg check does not notice a bogus option, ktest or user test: $(bad_bootargs "$bad" | tr '\n' ' ')"
[ "$(bad_make_vars "$bad")" = "NO_SUCH_VAR" ] && ok "the make-variable check fires on a bogus variable" ||
	not_ok "the make-variable check does not notice a bogus variable"
[ "$(missing_paths "$bad")" = "mm/no_such_file.c" ] && ok "the path check fires on a missing file" ||
	not_ok "the path check does not notice a missing file"

echo "1..$n"
exit $fail
