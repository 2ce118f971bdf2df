#!/usr/bin/env bash
# include_layers.sh - each directory includes only the headers its layer may
# use (docs/DESIGN.md, "Layering"). Prints TAP; exit status 1 on failure.
#
#   include_layers.sh [ROOT]   (default: this tree)
#
# The rules, for every #include in a .c, .h or .S file:
#   include/   C's freestanding headers and include/ only
#   mm/        include/ (but not arch.h or arch_proc.h, the kernel's
#              interface to the arch), mm/, and of the arch only
#              <asm/pgtable.h>, <asm/tlb.h>, <asm/memlayout.h> and
#              <asm/page_ops.h>
#   fs/        include/, kernel/, mm/, fs/; nothing of the arch
#   kernel/    include/, kernel/, mm/, fs/, drivers/driver.h, and of the arch
#              only <asm/memlayout.h> (the rest goes through include/arch.h
#              and include/arch_proc.h)
#   drivers/   include/, kernel/, drivers/; nothing of the arch or of mm/
#   arch/A/    anything but another arch's headers
# A quoted header is looked up as the compiler does: the including file's
# own directory, then include/, kernel/, mm/, fs/, drivers/, arch/*/include/.
#
# Includes that break a rule today are listed in KNOWN below; each must
# still exist (fixing one means deleting its line). Last, the script checks
# itself on a doctored copy of the tree.
set -u
cd "$(dirname "$0")/../.."
root=${1:-.}

# file|header: today's exceptions, each to be fixed and then deleted here.
KNOWN='
kernel/exec.c|<asm/elf.h>
kernel/extable.c|<asm/extable.h>
kernel/proc.h|<asm/context.h>
kernel/proc.h|<asm/ptrace.h>
drivers/arm_arch_timer.c|"arch_arm64.h"
drivers/gic_v3.c|"arch_arm64.h"
kernel/pkeys.c|<asm/pkeys.h>
mm/mm_check.c|"memfd.h"
mm/mm_check.c|"fs.h"
mm/mm_check.c|"proc.h"
'
# (mm_check.c walks every live process's mm and the pages every file holds:
# a registration interface in mm/ for page holders would remove those three.)

n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
bad() { n=$((n + 1)); echo "not ok $n - $*"; fail=1; }

# where FILE HEADER: set W to the directory (relative to root) a header
# resolves to, "asm" for <asm/...>, "std" for C's freestanding headers, "?"
# if unknown. (A variable, not output: it runs once per #include line, and a
# command substitution would fork each time.)
where() {
	local file=$1 h=$2 name d
	case "$h" in
	\<asm/*) W=asm; return ;;
	\<stdarg.h\>|\<stdint.h\>|\<stddef.h\>|\<stdbool.h\>) W=std; return ;;
	\<*) W="?"; return ;;
	esac
	name=${h//\"/}
	for d in "${file%/*}" include kernel mm fs drivers arch/*/include; do
		if [ -f "$root/$d/$name" ]; then
			W=$d
			return
		fi
	done
	W="?"
}

# allowed FILE HEADER: does FILE's layer allow HEADER?
allowed() {
	local file=$1 h=$2 w
	where "$file" "$h"
	w=$W
	case "$file" in
	include/*) [[ $w == std || $w == include ]] ;;
	mm/*)
		[[ $h != '"arch.h"' && $h != '"arch_proc.h"' ]] || return 1
		[[ $w == std || $w == include || $w == mm ]] ||
			[[ $h == '<asm/pgtable.h>' || $h == '<asm/tlb.h>' || $h == '<asm/memlayout.h>' ||
			   $h == '<asm/page_ops.h>' ]] ;;
	fs/*) [[ $w == std || $w == include || $w == kernel || $w == mm || $w == fs ]] ;;
	kernel/*)
		[[ $w == std || $w == include || $w == kernel || $w == mm || $w == fs || $h == '"driver.h"' ]] ||
			[[ $h == '<asm/memlayout.h>' ]] ;;
	drivers/*) [[ $w == std || $w == include || $w == kernel || $w == drivers ]] ;;
	arch/*)
		local a=${file#arch/}
		a=${a%%/*}
		[[ $w != arch/*/include || $w == "arch/$a/include" ]] ;;
	*) true ;;
	esac
}

checked=0
while IFS= read -r line; do
	file=${line%%:*}
	h=${line#*:}
	[[ $h =~ ^[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*([\<\"][^\>\"]*[\>\"]) ]] &&
		h=${BASH_REMATCH[1]}
	file=${file#"$root"/}
	checked=$((checked + 1))
	if allowed "$file" "$h"; then
		continue
	fi
	if printf '%s\n' "$KNOWN" | grep -qxF -- "$file|$h"; then
		ok "known exception: $file includes $h (to be fixed; see KNOWN)"
	else
		where "$file" "$h"
		bad "$file includes $h ($W), which its layer may not use"
	fi
done < <(grep -rnE '^\s*#\s*include\s*[<"]' "$root"/include "$root"/mm "$root"/fs "$root"/kernel "$root"/drivers "$root"/arch \
	--include='*.[chS]' 2>/dev/null)
[ "$checked" -gt 0 ] && ok "$checked #include lines checked" || bad "no #include lines found under $root"

# A known exception that no longer exists must be deleted from KNOWN.
for k in $KNOWN; do
	f=${k%%|*}
	h=${k#*|}
	grep -qE "^\s*#\s*include\s*$(printf '%s' "$h" | sed 's/[.]/\\./g')" "$root/$f" 2>/dev/null ||
		bad "KNOWN lists $f including $h, which it no longer does: delete that line"
done

if [ $# -eq 0 ]; then	# the self-check, only in the top-level run
	tmp=$(mktemp -d)
	cp -r include mm fs kernel drivers arch "$tmp"/
	echo '#include <asm/sysregs.h>' >>"$tmp/mm/vma.c"
	echo '#include "proc.h"' >>"$tmp/mm/slab.c"
	echo '#include "arch.h"' >>"$tmp/mm/thp.c"
	echo '#include <asm/sysregs.h>' >>"$tmp/fs/inode.c"
	sed -i '/#include <asm\/extable.h>/d' "$tmp/kernel/extable.c"
	out=$(bash "$0" "$tmp" 2>/dev/null)
	if echo "$out" | grep -q '^not ok .* mm/vma.c includes <asm/sysregs.h>'; then
		ok "self-check: fires on mm/ including an arch header other than pgtable/tlb/memlayout/page_ops"
	else
		bad "self-check: does not notice mm/vma.c including <asm/sysregs.h>"
	fi
	if echo "$out" | grep -q '^not ok .* mm/slab.c includes "proc.h" (kernel)'; then
		ok "self-check: fires on mm/ including a kernel/ header"
	else
		bad "self-check: does not notice mm/slab.c including kernel/proc.h"
	fi
	if echo "$out" | grep -q '^not ok .* mm/thp.c includes "arch.h"'; then
		ok "self-check: fires on mm/ including the kernel's arch interface (arch.h)"
	else
		bad "self-check: does not notice mm/thp.c including arch.h"
	fi
	if echo "$out" | grep -q '^not ok .* fs/inode.c includes <asm/sysregs.h>'; then
		ok "self-check: fires on fs/ including an arch header"
	else
		bad "self-check: does not notice fs/inode.c including <asm/sysregs.h>"
	fi
	if echo "$out" | grep -q '^not ok .* KNOWN lists kernel/extable.c'; then
		ok "self-check: fires on a KNOWN exception that was fixed but not deleted"
	else
		bad "self-check: does not notice a stale KNOWN exception"
	fi
	rm -rf "$tmp"
fi
echo "1..$n"
exit $fail
