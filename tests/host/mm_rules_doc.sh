#!/usr/bin/env bash
# mm_rules_doc.sh - docs/mm-rules.md has a row for every rule ID the tree
# cites (MS-7, MR-14, ...), and its "tests" column tells the truth.
# Prints TAP; exit status 1 on failure.
#
#   mm_rules_doc.sh [DOC [EXTRA_DIR]]   (default docs/mm-rules.md)
#
# A rule ID is two or three capital letters, a dash and a number with an
# optional letter (MP-9a). "MS-26/27" cites MS-26 and MS-27, "MR-16..MR-18"
# or "MR-16..18" cites both ends. Cited means written anywhere in the
# sources, tests, tools and docs (EXTRA_DIR too, for the self-check), except
# in the rules document and in this script.
#
# A row is a table line "| ID | rule | Linux 6.12 | tests |". In the tests
# cell, each `tests/...` path in backticks is a claim: the file must exist
# and name the ID in a string literal (its TAP description). A cell that
# names no file says "untested", or "see XX-N" for a rule with its own row
# that is the same check under another name. And the other way round: a test file that names
# an ID in a string literal must be listed in that ID's row.
#
# Last, it checks itself on doctored copies of the document.
set -u
cd "$(dirname "$0")/../.."
doc=${1:-docs/mm-rules.md}
extra=${2:-}
self=tests/host/mm_rules_doc.sh

# Words that look like rule IDs but are not.
not_ids='^(UTF|ISO|SHA|CVE|RFC|DDI|FNV)-'

# ids: read text on stdin, print each rule ID it cites, one a line.
ids() {
	sed -E 's#\b([A-Z]{2,3})-([0-9]+[a-z]?)(/|\.\.(\1-)?)([0-9]+[a-z]?)\b#\1-\2 \1-\5#g' |
		grep -oE '\b[A-Z]{2,3}-[0-9]+[a-z]?\b' | grep -vE "$not_ids"
}

# Every file that can cite a rule.
sources() {
	find arch drivers include kernel mm tests tools linker dts docs README.md Makefile \
		${extra:+"$extra"} -type f 2>/dev/null | grep -v -e '^build/' -e "^$self\$" -e "^docs/mm-rules.md\$" |
		sort
}

n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
bad() { n=$((n + 1)); echo "not ok $n - $*"; fail=1; }

[ -f "$doc" ] || { echo "not ok 1 - $doc does not exist"; echo "1..1"; exit 1; }

# The rows: "ID<TAB>tests cell".
rows=$(awk -F'|' '$2 ~ /^ *[A-Z][A-Z][A-Z]?-[0-9]+[a-z]? *$/ {
	id = $2; gsub(/ /, "", id); print id "\t" $(NF - 1) }' "$doc")
row_ids=$(printf '%s\n' "$rows" | cut -f1 | sort)
[ -n "$row_ids" ] || { echo "not ok 1 - $doc: no rule rows found"; echo "1..1"; exit 1; }

# 1. Every cited ID has exactly one row.
cited=$(sources | xargs grep -I -h -E '\b[A-Z]{2,3}-[0-9]' 2>/dev/null | ids | sort -u)
[ -n "$cited" ] || bad "no cited rule IDs found (is the tree there?)"
missing=0
for id in $cited; do
	if ! printf '%s\n' "$row_ids" | grep -qx -- "$id"; then
		bad "$id is cited ($(sources | xargs grep -I -l -w -- "$id" | head -n 3 | tr '\n' ' ')) but $doc has no row for it"
		missing=1
	fi
done
[ "$missing" = 1 ] || ok "each of the $(echo "$cited" | wc -w) cited rule IDs has a row"
dups=$(printf '%s\n' "$row_ids" | uniq -d)
if [ -n "$dups" ]; then bad "$doc has more than one row for: $(echo $dups)"; else ok "no rule has two rows"; fi

# Which test files name which IDs in a string literal: "ID<TAB>file".
named=$(for f in $(sources | grep -E '^tests/.*\.(c|h|sh)$'); do
	grep -oE '"([^"\\]|\\.)*"' "$f" | ids | sort -u | sed "s#\$#\t$f#"
done)

# 2. Each row's tests cell: claimed files exist and name the ID; or "untested".
while IFS=$'\t' read -r id cell; do
	claims=$(echo "$cell" | grep -oE '`tests/[^`]+`' | tr -d '`')
	if [ -z "$claims" ]; then
		alias=$(echo "$cell" | grep -oE '\bsee [A-Z]{2,3}-[0-9]+[a-z]?\b' | head -n 1 | cut -d' ' -f2)
		if [ -n "$alias" ]; then
			if printf '%s\n' "$row_ids" | grep -qx -- "$alias"; then
				ok "$id: tested as $alias"
			else
				bad "$id: its row says \"see $alias\", which has no row"
			fi
		elif echo "$cell" | grep -qi 'untested'; then
			ok "$id: marked untested"
		else
			bad "$id: its row names no test (\`tests/...\`) and does not say untested"
		fi
	fi
	for f in $claims; do
		if [ ! -f "$f" ]; then
			bad "$id: its row names $f, which does not exist"
		elif printf '%s\n' "$named" | grep -qx -- "$id	$f"; then
			ok "$id: $f names it in a test"
		else
			bad "$id: its row names $f, but no string in $f names $id"
		fi
	done
	# 3. Every test that names the ID is listed in its row.
	for f in $(printf '%s\n' "$named" | awk -F'\t' -v id="$id" '$1 == id { print $2 }'); do
		echo "$claims" | grep -qx -- "$f" ||
			bad "$id: $f names it in a test, but its row does not list $f"
	done
done <<<"$rows"

# A test naming an ID that has no row is caught by 1 (tests are sources).

if [ $# -eq 0 ]; then	# the self-check, only in the top-level run
	tmp=$(mktemp -d)
	# (a) a cited rule's row removed
	grep -v '^| MR-5 |' "$doc" >"$tmp/no-row.md"
	if bash "$0" "$tmp/no-row.md" 2>/dev/null | grep -q "^not ok .* MR-5 is cited .* no row"; then
		ok "self-check: fires when a cited rule (MR-5) has no row"
	else
		bad "self-check: does not notice a missing row for MR-5"
	fi
	# (b) a row naming a test file that does not exist
	sed -E 's#^(\| MR-5 \|.*)`tests/user/mm_mremap.c`#\1`tests/user/no_such_test.c`#' "$doc" >"$tmp/no-file.md"
	if bash "$0" "$tmp/no-file.md" 2>/dev/null | grep -q "^not ok .* MR-5: .*no_such_test.c, which does not exist"; then
		ok "self-check: fires when a row names a test file that does not exist"
	else
		bad "self-check: does not notice a row naming a missing test file"
	fi
	# (c) a row naming a test that does not check the rule
	sed -E 's#^(\| MR-5 \|.*)`tests/user/mm_mremap.c`#\1`tests/user/mm_brk.c`#' "$doc" >"$tmp/wrong-file.md"
	if bash "$0" "$tmp/wrong-file.md" 2>/dev/null | grep -q "^not ok .* MR-5: .*mm_brk.c, but no string"; then
		ok "self-check: fires when a row names a test that does not name the rule"
	else
		bad "self-check: does not notice a row naming a test that does not name the rule"
	fi
	# (d) a test that names the rule but is left out of its row
	if bash "$0" "$tmp/wrong-file.md" 2>/dev/null | grep -q "^not ok .* MR-5: tests/user/mm_mremap.c names it in a test, but its row does not list"; then
		ok "self-check: fires when a test naming a rule is not listed in its row"
	else
		bad "self-check: does not notice a test left out of a row"
	fi
	# (e) a newly cited ID, in a source file outside the document
	mkdir -p "$tmp/src"
	echo '/* XQ-7: a rule nobody wrote down */' >"$tmp/src/new.c"
	if bash "$0" "$doc" "$tmp/src" 2>/dev/null | grep -q "^not ok .* XQ-7 is cited"; then
		ok "self-check: fires when a source cites a rule with no row (XQ-7)"
	else
		bad "self-check: does not notice a newly cited rule"
	fi
	# (f) a row that names no test and does not say untested
	sed -E 's#^(\| MS-6 \|.*\|)[^|]*\| *$#\1 |#' "$doc" >"$tmp/empty.md"
	if bash "$0" "$tmp/empty.md" 2>/dev/null | grep -q "^not ok .* MS-6: its row names no test"; then
		ok "self-check: fires when a row names no test and is not marked untested"
	else
		bad "self-check: does not notice a row with an empty tests cell"
	fi
	rm -rf "$tmp"
fi
echo "1..$n"
exit $fail
