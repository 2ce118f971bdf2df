#!/usr/bin/env bash
# Idempotent set-up of everything the project needs on a Debian (bookworm) host:
#
#  1. host packages (cross compiler for arm64, QEMU for arm64 and MicroBlaze,
#     dtc/libfdt, gdb-multiarch, cpio, ...), installed with apt-get if missing;
#  2. the MicroBlaze cross toolchain in /opt/mbtc (microblaze-elf-gcc, binutils
#     2.40 + GCC 12.2, C only, with libgcc), unpacked from a prebuilt archive
#     when one is available, otherwise built from Debian's source packages with
#     tools/build-microblaze-toolchain.sh (15-30 minutes on two cores);
#  3. Debian's busybox-static for arm64 (tools/fetch-busybox.sh), the shell
#     arm64's `make run` boots, fetched into ~/.cache/teachos/busybox;
#  4. with --with-gdb only: the MicroBlaze debugger /opt/mbtc/bin/microblaze-elf-gdb
#     (Debian's gdb-multiarch has no MicroBlaze), built from Debian's gdb-source
#     with tools/build-microblaze-gdb.sh if it is missing (see README.md for
#     how long that takes).
#
#   usage: tools/setup.sh [--with-gdb]
#
# When everything is already there it only looks (well under a second) and
# changes nothing.  The top-level Makefile runs it before `make run` and
# `make setup`, and with --with-gdb before `make check`, `make setup-gdb` and
# `make gdb ARCH=microblaze`.
#
# Environment:
#   MBTC_PREBUILT   path of a prebuilt toolchain archive (.tar.xz holding
#                   opt/mbtc/...).  Default, if it exists:
#                   <repo>/../shared/toolchains/microblaze-elf-binutils2.40-gcc12.2.tar.xz

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")

MBTC=/opt/mbtc
MBTC_GCC=$MBTC/bin/microblaze-elf-gcc
MBTC_GDB=$MBTC/bin/microblaze-elf-gdb
DEFAULT_PREBUILT=$repo/../shared/toolchains/microblaze-elf-binutils2.40-gcc12.2.tar.xz

say() { echo "setup: $*"; }
die() { echo "setup: error: $*" >&2; exit 1; }

with_gdb=0
for a in "$@"; do
    case $a in
        --with-gdb) with_gdb=1 ;;
        *) die "unknown option '$a' (usage: tools/setup.sh [--with-gdb])" ;;
    esac
done

is_root() { [ "$(id -u)" -eq 0 ]; }

# ---- 1. host packages ------------------------------------------------------------
# "what-to-check package": a command name, or an absolute path of a file.
# ipxe-qemu is only a Recommends of the QEMU packages, but without its
# efi-virtio.rom `qemu-system-aarch64 -M virt` refuses to start unless given
# -nic none; libc6-dev is only a Recommends of gcc (host-side tests need it).
REQUIREMENTS="
make                                make
gcc                                 gcc
/usr/include/stdio.h                libc6-dev
timeout                             coreutils
tar                                 tar
xz                                  xz-utils
cpio                                cpio
dtc                                 device-tree-compiler
/usr/include/libfdt.h               libfdt-dev
aarch64-linux-gnu-gcc               gcc-aarch64-linux-gnu
aarch64-linux-gnu-ld                binutils-aarch64-linux-gnu
qemu-system-aarch64                 qemu-system-arm
qemu-system-microblaze              qemu-system-misc
qemu-system-microblazeel            qemu-system-misc
/usr/lib/ipxe/qemu/efi-virtio.rom   ipxe-qemu
gdb-multiarch                       gdb-multiarch
/usr/aarch64-linux-gnu/lib/libc.a   libc6-dev-arm64-cross
dpkg-deb                            dpkg
clang                               clang
/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-$(uname -m).a  libclang-rt-14-dev
python3                             python3
xmllint                             libxml2-utils
rsvg-convert                        librsvg2-bin
"

# Print the packages (one per line, no duplicates) whose check fails.
missing_packages() {
    local what pkg seen=" "
    while read -r what pkg; do
        [ -n "$what" ] || continue
        case $what in
            /*) [ -e "$what" ] && continue ;;
            *)  command -v "$what" >/dev/null 2>&1 && continue ;;
        esac
        case $seen in *" $pkg "*) continue ;; esac
        seen="$seen$pkg "
        echo "$pkg"
    done <<<"$REQUIREMENTS"
}

apt_install() {
    local log
    command -v apt-get >/dev/null 2>&1 \
        || die "apt-get not found: install by hand: $*"
    log=$(mktemp)
    export DEBIAN_FRONTEND=noninteractive
    say "apt-get update ..."
    if ! apt-get update >"$log" 2>&1; then
        tail -n 20 "$log" >&2; rm -f "$log"
        die "apt-get update failed"
    fi
    say "installing $* ..."
    if ! apt-get install -y --no-install-recommends "$@" >"$log" 2>&1; then
        tail -n 20 "$log" >&2; rm -f "$log"
        die "apt-get install $* failed"
    fi
    rm -f "$log"
}

mapfile -t missing < <(missing_packages)
if [ ${#missing[@]} -gt 0 ]; then
    if ! is_root; then
        echo "setup: missing packages: ${missing[*]}" >&2
        echo "setup: as root run:  apt-get install --no-install-recommends ${missing[*]}" >&2
        echo "setup: (or run this script as root: sudo bash tools/setup.sh)" >&2
        exit 1
    fi
    apt_install "${missing[@]}"
    mapfile -t still < <(missing_packages)
    [ ${#still[@]} -eq 0 ] || die "still missing after apt-get install: ${still[*]}"
    say "host packages installed"
else
    say "host packages ok"
fi

# ---- 2. MicroBlaze toolchain -------------------------------------------------------
# Works if it compiles a little-endian object and has the little-endian
# libgcc (gcc falls back to the big-endian one if that multilib is missing).
mbtc_ok() {
    local t lib mdir rc=1
    [ -x "$MBTC_GCC" ] || return 1
    t=$(mktemp -d) || return 1
    if "$MBTC_GCC" -mlittle-endian -O2 -x c -c -o "$t/t.o" - \
           <<<'int f(int a, int b) { return a * b + (a >> b); }' >/dev/null 2>&1 &&
       mdir=$("$MBTC_GCC" -mlittle-endian -print-multi-directory 2>/dev/null) &&
       lib=$("$MBTC_GCC" -mlittle-endian -print-libgcc-file-name 2>/dev/null) &&
       [ -f "$lib" ] && [ "$(basename "$(dirname "$lib")")" = "$(basename "$mdir")" ]; then
        rc=0
    fi
    rm -rf "$t"
    return $rc
}

# mbtc_writable: may we write /opt/mbtc (or create it)?
mbtc_writable() {
    is_root || { [ -d "$MBTC" ] && [ -w "$MBTC" ]; } || { [ ! -e "$MBTC" ] && [ -w "$(dirname "$MBTC")" ]; }
}

if mbtc_ok; then
    say "microblaze toolchain ok ($MBTC)"
else
    mbtc_writable || die "the MicroBlaze toolchain in $MBTC is missing or broken and $MBTC is not writable; run as root: sudo bash tools/setup.sh"

    prebuilt=""
    if [ -n "${MBTC_PREBUILT:-}" ]; then
        [ -f "$MBTC_PREBUILT" ] || die "MBTC_PREBUILT=$MBTC_PREBUILT: no such file"
        prebuilt=$MBTC_PREBUILT
    elif [ -f "$DEFAULT_PREBUILT" ]; then
        prebuilt=$DEFAULT_PREBUILT
    fi

    if [ -n "$prebuilt" ]; then
        say "unpacking microblaze toolchain from $prebuilt into $MBTC ..."
        tar -C / -xJf "$prebuilt" || die "unpacking $prebuilt failed"
        mbtc_ok || die "$MBTC_GCC does not work after unpacking $prebuilt"
    else
        say "no prebuilt microblaze toolchain; building it from Debian's sources (15-30 minutes) ..."
        bash "$here/build-microblaze-toolchain.sh" "$MBTC" \
            || die "building the microblaze toolchain failed"
        mbtc_ok || die "$MBTC_GCC does not work after building it"
    fi
    say "microblaze toolchain ok ($MBTC)"
fi

# ---- 3. Debian's busybox-static for arm64 (the shell of `make run`) ---------------
# tools/fetch-busybox.sh: downloaded once into ~/.cache/teachos/busybox, then
# only looked at. A failure here is reported and set-up goes on (MicroBlaze
# does not need it); arm64's `make run` tries again and stops if it fails.
bblog=$(mktemp)
if busybox=$(bash "$here/fetch-busybox.sh" 2>"$bblog"); then
    say "busybox ok ($busybox)"
else
    cat "$bblog" >&2
    echo "setup: warning: could not fetch Debian's busybox-static (arm64 make run needs it)" >&2
fi
rm -f "$bblog"

# ---- 4. MicroBlaze debugger (--with-gdb) -------------------------------------------
# Works if it starts and accepts the MicroBlaze architecture.
mbgdb_ok() {
    [ -x "$MBTC_GDB" ] &&
        "$MBTC_GDB" -nx -batch -ex 'set architecture MicroBlaze' >/dev/null 2>&1
}

[ "$with_gdb" = 1 ] || exit 0
if ! mbgdb_ok; then
    mbtc_writable || die "$MBTC_GDB is missing or broken and $MBTC is not writable; run as root: sudo bash tools/setup.sh --with-gdb"
    # One build at a time (two worktrees' set-ups share /opt/mbtc): a second
    # one waits here, then finds the debugger the first one installed.
    exec 8>"$MBTC/.gdb-build.lock"
    flock 8
    if ! mbgdb_ok; then
        say "no microblaze-elf-gdb; building it from Debian's gdb-source (about 10 minutes on two cores) ..."
        bash "$here/build-microblaze-gdb.sh" "$MBTC" \
            || die "building microblaze-elf-gdb failed"
        mbgdb_ok || die "$MBTC_GDB does not work after building it"
    fi
    exec 8>&-
fi
say "microblaze debugger ok ($MBTC_GDB)"
