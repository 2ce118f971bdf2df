#!/usr/bin/env bash
# Build the MicroBlaze cross toolchain (microblaze-elf: GNU binutils 2.40 and
# GCC 12.2, C only, with libgcc for every multilib) from Debian bookworm's own
# source packages, and install it under PREFIX (default /opt/mbtc).
#
#   usage: tools/build-microblaze-toolchain.sh [PREFIX]
#
# Takes 15-30 minutes on two cores.  Needs root for apt-get if the build
# dependencies are missing, and write access to PREFIX.
#
# Environment:
#   MBTC_BUILD_LOG   log file (default: ${TMPDIR:-/tmp}/mbtc-build.log)
#   MBTC_JOBS        parallel make jobs (default: nproc)
#   MBTC_KEEP_BUILD  set to 1 to keep the temporary build directory

set -euo pipefail

PREFIX=${1:-/opt/mbtc}
TARGET=microblaze-elf
JOBS=${MBTC_JOBS:-$(nproc 2>/dev/null || echo 2)}
LOG=${MBTC_BUILD_LOG:-${TMPDIR:-/tmp}/mbtc-build.log}
DEPS="binutils-source gcc-12-source libgmp-dev libmpfr-dev libmpc-dev texinfo flex bison xz-utils patch make gcc g++"

me=build-microblaze-toolchain
say()  { echo "$me: $*"; }
die()  { echo "$me: error: $*" >&2; exit 1; }

case $PREFIX in
    /*) ;;
    *)  PREFIX=$(pwd)/$PREFIX ;;
esac

# ---- build dependencies -------------------------------------------------------
. "$(dirname "$0")/build-lib.sh"
# shellcheck disable=SC2086
install_build_deps $DEPS

shopt -s nullglob
bu_tars=(/usr/src/binutils/binutils-2*.tar.xz)
gcc_tars=(/usr/src/gcc-12/gcc-12*.tar.xz)
shopt -u nullglob
[ ${#bu_tars[@]} -ge 1 ]  || die "no /usr/src/binutils/binutils-*.tar.xz (package binutils-source)"
[ ${#gcc_tars[@]} -ge 1 ] || die "no /usr/src/gcc-12/gcc-12*.tar.xz (package gcc-12-source)"
BU_TAR=${bu_tars[${#bu_tars[@]}-1]}
GCC_TAR=${gcc_tars[${#gcc_tars[@]}-1]}
GFDL_PATCH=/usr/src/gcc-12/patches/gcc-gfdl-build.diff
[ -f "$GFDL_PATCH" ] || die "$GFDL_PATCH not found (package gcc-12-source)"

# ---- prefix, build directory, log ---------------------------------------------
mkdir -p "$PREFIX" 2>/dev/null || die "cannot create $PREFIX (run as root or choose another PREFIX)"
[ -w "$PREFIX" ] || die "$PREFIX is not writable (run as root or choose another PREFIX)"

make_build_dir mbtc "${MBTC_KEEP_BUILD:-0}"

: >"$LOG" || die "cannot write log $LOG"
say "building $TARGET toolchain into $PREFIX (make -j$JOBS, log: $LOG)"

# Unpack a tarball into its own directory and print the single top directory.
unpack() {
    local tarball=$1 dest=$2 top
    mkdir -p "$dest"
    run "unpack $(basename "$tarball")" tar -C "$dest" -xJf "$tarball"
    top=("$dest"/*/)
    if [ ${#top[@]} -ne 1 ] || [ ! -d "${top[0]}" ]; then
        die "unexpected layout in $tarball"
    fi
    echo "${top[0]%/}"
}

export PATH="$PREFIX/bin:$PATH"
start=$SECONDS

# ---- binutils ------------------------------------------------------------------
say "unpacking $(basename "$BU_TAR") ..."
BU_SRC=$(unpack "$BU_TAR" "$BUILD/src-binutils")
mkdir -p "$BUILD/build-binutils"
cd "$BUILD/build-binutils"
say "configuring binutils ..."
run "binutils configure" "$BU_SRC/configure" --target=$TARGET --prefix="$PREFIX" \
    --disable-nls --disable-werror --disable-gdb --disable-sim --disable-gprofng
say "building binutils ..."
run "binutils make" make -j"$JOBS" all
say "installing binutils ..."
run "binutils install" make install
rm -rf "$BUILD/src-binutils" "$BUILD/build-binutils"

# ---- gcc -----------------------------------------------------------------------
say "unpacking $(basename "$GCC_TAR") ..."
GCC_SRC=$(unpack "$GCC_TAR" "$BUILD/src-gcc")
say "applying $(basename "$GFDL_PATCH") ..."
(cd "$GCC_SRC" && run "gcc patch" patch -p2 -i "$GFDL_PATCH")
mkdir -p "$BUILD/build-gcc"
cd "$BUILD/build-gcc"
say "configuring gcc ..."
run "gcc configure" "$GCC_SRC/configure" --target=$TARGET --prefix="$PREFIX" \
    --enable-languages=c --without-headers --disable-nls \
    --disable-shared --disable-threads --disable-libssp --disable-libquadmath --disable-libgomp \
    --disable-libatomic --with-newlib
say "building gcc and libgcc (the long part) ..."
run "gcc make" make -j"$JOBS" all-gcc all-target-libgcc
say "installing gcc and libgcc ..."
run "gcc install" make install-gcc install-target-libgcc

# ---- check ---------------------------------------------------------------------
cd "$BUILD"
echo 'int f(int a, int b) { return a * b + (a >> b); }' >t.c
run "check compile" "$PREFIX/bin/$TARGET-gcc" -mlittle-endian -O2 -c t.c -o t.o
mdir=$("$PREFIX/bin/$TARGET-gcc" -mlittle-endian -print-multi-directory)
libgcc=$("$PREFIX/bin/$TARGET-gcc" -mlittle-endian -print-libgcc-file-name)
case $libgcc in
    */"$mdir"/libgcc.a) [ -f "$libgcc" ] || die "$libgcc missing" ;;
    *) die "no little-endian libgcc (got $libgcc)" ;;
esac

elapsed=$((SECONDS - start))
say "done in $((elapsed / 60))m$((elapsed % 60))s: $("$PREFIX/bin/$TARGET-gcc" --version | head -n 1)"
