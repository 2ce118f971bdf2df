#!/usr/bin/env bash
# Build a MicroBlaze debugger (microblaze-elf-gdb, GNU gdb 13.1) from Debian
# bookworm's own source package (gdb-source: /usr/src/gdb.tar.xz) and install
# it under PREFIX (default /opt/mbtc, next to the cross toolchain).
#
#   usage: tools/build-microblaze-gdb.sh [PREFIX]
#
# Debian's gdb-multiarch knows no MicroBlaze, hence this.  The build is kept
# small: only gdb (no binutils, gdbserver or simulator), one target, no
# Python/Guile/TUI/source highlighting/debuginfod, no manuals, no debug
# information.  Needs root for apt-get if the build dependencies are missing,
# and write access to PREFIX.  Time it took: see README.md ("Debugging").
#
# Environment:
#   MBGDB_BUILD_LOG   log file (default: ${TMPDIR:-/tmp}/mbgdb-build.log)
#   MBGDB_JOBS        parallel make jobs (default: 2)
#   MBGDB_KEEP_BUILD  set to 1 to keep the temporary build directory

set -euo pipefail

PREFIX=${1:-/opt/mbtc}
TARGET=microblaze-elf
JOBS=${MBGDB_JOBS:-2}
LOG=${MBGDB_BUILD_LOG:-${TMPDIR:-/tmp}/mbgdb-build.log}
# GMP is mandatory for gdb 13; expat lets gdb read the XML register
# descriptions that QEMU's gdb stub sends.
DEPS="gdb-source libgmp-dev libexpat1-dev xz-utils make gcc g++"
GDB_TAR=/usr/src/gdb.tar.xz

me=build-microblaze-gdb
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
[ -f "$GDB_TAR" ] || die "no $GDB_TAR (package gdb-source)"

# ---- prefix, build directory, log ---------------------------------------------
mkdir -p "$PREFIX/bin" 2>/dev/null || die "cannot create $PREFIX/bin (run as root or choose another PREFIX)"
[ -w "$PREFIX/bin" ] || die "$PREFIX/bin is not writable (run as root or choose another PREFIX)"

make_build_dir mbgdb "${MBGDB_KEEP_BUILD:-0}"

: >"$LOG" || die "cannot write log $LOG"
say "building $TARGET-gdb into $PREFIX (make -j$JOBS, log: $LOG)"

start=$SECONDS

# ---- unpack --------------------------------------------------------------------
say "unpacking $(basename "$GDB_TAR") ..."
mkdir -p "$BUILD/src"
run "unpack" tar -C "$BUILD/src" -xJf "$GDB_TAR"
SRC=$BUILD/src/gdb
[ -x "$SRC/configure" ] && [ -d "$SRC/gdb" ] || die "unexpected layout in $GDB_TAR"

# ---- configure -----------------------------------------------------------------
# Everything optional is off; -O2 without -g makes a smaller binary sooner.
mkdir -p "$BUILD/build"
cd "$BUILD/build"
say "configuring gdb ..."
run "configure" env CFLAGS=-O2 CXXFLAGS=-O2 "$SRC/configure" \
    --target=$TARGET --prefix="$PREFIX" \
    --disable-nls --disable-werror --disable-sim --disable-gdbserver \
    --disable-tui --disable-source-highlight --disable-inprocess-agent \
    --without-python --without-guile --without-debuginfod --without-babeltrace \
    --without-intel-pt --without-xxhash --without-lzma --without-zstd \
    --without-mpfr --with-expat --disable-libctf --disable-libbacktrace

# ---- build ---------------------------------------------------------------------
# MAKEINFO=true: Debian's source has no prebuilt manuals; skip making them.
say "building gdb (the long part) ..."
run "make" make -j"$JOBS" all-gdb MAKEINFO=true

# ---- install: the program and its data directory, nothing else -----------------
say "installing $PREFIX/bin/$TARGET-gdb ..."
run "install gdb" install -s -m 755 gdb/gdb "$PREFIX/bin/$TARGET-gdb"
run "install data-directory" make -C gdb/data-directory install MAKEINFO=true

# ---- check ---------------------------------------------------------------------
"$PREFIX/bin/$TARGET-gdb" -nx -batch -ex 'set architecture MicroBlaze' >>"$LOG" 2>&1 \
    || die "$PREFIX/bin/$TARGET-gdb refuses 'set architecture MicroBlaze'"

elapsed=$((SECONDS - start))
say "done in $((elapsed / 60))m$((elapsed % 60))s: $("$PREFIX/bin/$TARGET-gdb" --version | head -n 1)"
