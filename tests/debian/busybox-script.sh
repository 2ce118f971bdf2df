# busybox-script.sh - ordinary shell work for Debian's dynamic busybox
# (tools/check-debian.sh runs it on both kernels and compares the output
# line by line): files, ls, cat, sort, uniq, wc, head, tail, tr, cut, sed,
# awk, grep, pipes, here-documents, command substitution, arithmetic,
# functions, loops, subshells, redirections, background jobs and wait.
set -e
mkdir -p /tmp/w/sub
cd /tmp/w
cat > fruits <<'END'
pear
apple
banana
cherry
apple
fig
banana
apple
END
echo "sorted:"; sort fruits
echo "counted:"; sort fruits | uniq -c | sort -k1,1nr -k2
echo "lines words bytes: $(wc -l < fruits) $(wc -w < fruits) $(wc -c < fruits)"
echo "first and last: $(head -n 1 fruits) $(tail -n 1 fruits)"
echo "upper: $(tr a-z A-Z < fruits | sort -u | tr '\n' ' ')"
n=0
while read -r f; do n=$((n + ${#f})); done < fruits
echo "letters: $n"
seq 1 200 > nums
echo "sum: $(awk '{ s += $1 } END { print s }' nums)"
echo "evens over 190: $(awk '$1 % 2 == 0 && $1 > 190' nums | tr '\n' ',')"
echo "grep -c 7: $(grep -c 7 nums)"
sed -n 's/^\(.\)\(.*\)$/\2\1/p' fruits | sort | head -n 3
for i in 3 1 2; do echo "item $i"; done | sort -r
touch sub/b sub/a sub/c
ls sub
ls -1 /tmp/w | sort
printf '%s\n' one two three > list
cut -c1-2 list | paste -s -d: -
sq() { echo $(( $1 * $1 )); }
echo "squares: $(sq 7) $(sq 12)"
( cd sub && echo "in $(pwd)" )
echo "back in $(pwd)"
x=$(cat <<END
here $(echo nested) $((6 * 7))
END
)
echo "$x"
sleep 0.1 & sleep 0.2 & wait
echo "jobs done"
cat fruits nums | wc -l
dd if=/dev/zero bs=4096 count=64 2>/dev/null | wc -c
md5sum fruits | cut -d' ' -f1
echo "exit codes: $(false || echo $?) $(true && echo $?)"
cd / && rm -r /tmp/w && echo "cleaned: $(ls /tmp | wc -l)"
