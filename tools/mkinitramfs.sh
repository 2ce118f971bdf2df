#!/usr/bin/env bash
# mkinitramfs.sh - write an uncompressed cpio archive ("newc" format, the one
# Linux's initramfs reads) without needing root or a staging directory.
#
#   mkinitramfs.sh OUT.cpio [/PATH=HOSTFILE | HOSTFILE | /PATH->TARGET | /PATH=>/FILE | /PATH/]...
#
# Each HOSTFILE is stored at /PATH (or at /bin/<its name> when no /PATH is
# given), with mode 0755 if it is executable on the host and 0644 otherwise.
# /PATH->TARGET stores a symbolic link (mode 0777, its data the TARGET
# string); /PATH=>/FILE a hard link to /FILE, a file given earlier in the
# list (newc's way: the entries share an inode number and carry the link
# count, and the contents are stored once, with /FILE); /PATH/ an empty
# directory.
# The archive always holds the directories /, /bin, /dev and /proc, every
# parent directory of a /PATH, the character device /dev/console (5, 1),
# which Linux opens as the first three file descriptors of /init, and
# /dev/tty (5, 0), the opener's controlling terminal. Owners
# are root, timestamps are 0, so the same inputs give the same archive.
#
# newc layout, per entry: the 6 characters "070701", then 13 fields of 8 hex
# digits (inode, mode, uid, gid, nlink, mtime, file size, dev major, dev
# minor, rdev major, rdev minor, name size with its NUL, checksum 0), the
# name and its NUL padded to a multiple of 4, then the data padded to a
# multiple of 4. The entry named "TRAILER!!!" ends the archive.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 OUT.cpio [/PATH=HOSTFILE | HOSTFILE]..." >&2; exit 2; }
out=$1
shift

ino=0
tmp="$out.tmp"
: >"$tmp"

pad4() {	# pad4 N: write zero bytes up to the next multiple of 4 after N
	local n=$(( (4 - $1 % 4) % 4 ))
	[ "$n" = 0 ] || head -c "$n" /dev/zero >>"$tmp"
}

# entry NAME MODE NLINK SIZE RDEVMAJOR RDEVMINOR [HOSTFILE]
# (the inode number is the next one, or $entry_ino when that is set)
entry_ino=
entry() {
	local name=$1 mode=$2 nlink=$3 size=$4 rmaj=$5 rmin=$6 file=${7:-}
	local namesize=$(( ${#name} + 1 )) this
	ino=$((ino + 1))
	this=${entry_ino:-$ino}
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		"$this" "$mode" 0 0 "$nlink" 0 "$size" 0 0 "$rmaj" "$rmin" "$namesize" 0 >>"$tmp"
	printf '%s\0' "$name" >>"$tmp"
	pad4 $((110 + namesize))
	if [ -n "$file" ]; then
		cat "$file" >>"$tmp"
		pad4 "$size"
	fi
}

declare -A dirs=()
dir_list=(. bin dev proc)
for d in "${dir_list[@]}"; do dirs[$d]=1; done
names=()
files=()
links=()
hards=()
declare -A nlinks=() inos=() modes=()
for arg in "$@"; do
	link=
	hard=
	case $arg in
	/*=\>/*) name=${arg%%=>*}; hard=${arg#*=>}; hard=${hard#/}; file=
		[ -n "${nlinks[$hard]:-}" ] ||
			{ echo "mkinitramfs: $name: hard link to $hard, not given before it" >&2; rm -f "$tmp"; exit 1; }
		nlinks[$hard]=$((nlinks[$hard] + 1)) ;;
	/*-\>*) name=${arg%%->*}; link=${arg#*->}; file= ;;
	/*=*) name=${arg%%=*}; file=${arg#*=} ;;
	/*/) name=${arg%/}/.; file= ;;
	*) name=/bin/$(basename "$arg"); file=$arg ;;
	esac
	name=${name#/}
	if [ -z "$file" ] && [ -z "$link" ] && [ -z "$hard" ]; then	# /PATH/: only its directories
		name=${name%/.}
		name=$name/.
	fi
	[ -n "$link" ] || [ -z "$file" ] || [ -f "$file" ] ||
		{ echo "mkinitramfs: no such file: $file" >&2; rm -f "$tmp"; exit 1; }
	[ -z "$file" ] || nlinks[$name]=1
	# parent directories, outermost first
	parent=$(dirname "$name")
	parents=()
	while [ "$parent" != . ]; do
		parents=("$parent" "${parents[@]+"${parents[@]}"}")
		parent=$(dirname "$parent")
	done
	for p in "${parents[@]+"${parents[@]}"}"; do
		[ -n "${dirs[$p]:-}" ] && continue
		dirs[$p]=1
		dir_list+=("$p")
	done
	[ "$(basename "$name")" = . ] && continue	# a directory: done above
	names+=("$name")
	files+=("$file")
	links+=("$link")
	hards+=("$hard")
done

for d in "${dir_list[@]}"; do
	entry "$d" $((0040755)) 2 0 0 0
done
entry dev/console $((0020600)) 1 0 5 1
entry dev/tty $((0020666)) 1 0 5 0
for i in "${!names[@]}"; do
	if [ -n "${links[$i]}" ]; then
		printf '%s' "${links[$i]}" >"$tmp.link"
		entry "${names[$i]}" $((0120777)) 1 "${#links[$i]}" 0 0 "$tmp.link"
		rm -f "$tmp.link"
		continue
	fi
	if [ -n "${hards[$i]}" ]; then
		h=${hards[$i]}
		entry_ino=${inos[$h]} entry "${names[$i]}" "${modes[$h]}" "${nlinks[$h]}" 0 0 0
		continue
	fi
	f=${files[$i]}
	mode=$((0100644))
	[ -x "$f" ] && mode=$((0100755))
	entry "${names[$i]}" "$mode" "${nlinks[${names[$i]}]}" "$(stat -c %s "$f")" 0 0 "$f"
	inos[${names[$i]}]=$ino
	modes[${names[$i]}]=$mode
done
entry TRAILER!!! 0 1 0 0 0

mv "$tmp" "$out"
