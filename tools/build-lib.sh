# build-lib.sh - sourced by the tools/build-microblaze-*.sh scripts.
#
#   install_build_deps PKG...   install the Debian packages among PKG that are
#                               missing (apt-get, as root), or stop with the
#                               exact apt-get command when not root.
#   make_build_dir TAG KEEP     a fresh $BUILD under $TMPDIR, removed at exit
#                               unless KEEP is 1.
#   run STEP CMD...             run CMD with its output appended to $LOG; on
#                               failure show the log's tail and exit.
#
# Needs $me, say() and die() from the including script, and $LOG for run.

# Is the Debian package $1 installed?
pkg_installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

install_build_deps() {
    local p missing="" aptlog
    for p in "$@"; do
        pkg_installed "$p" || missing="$missing $p"
    done
    [ -n "$missing" ] || return 0
    if [ "$(id -u)" -ne 0 ]; then
        die "missing build dependencies; as root run:
    apt-get install --no-install-recommends$missing"
    fi
    say "installing$missing ..."
    export DEBIAN_FRONTEND=noninteractive
    aptlog=$(mktemp)
    # shellcheck disable=SC2086
    if ! { apt-get update && apt-get install -y --no-install-recommends $missing; } >"$aptlog" 2>&1; then
        tail -n 20 "$aptlog" >&2
        rm -f "$aptlog"
        die "apt-get install$missing failed"
    fi
    rm -f "$aptlog"
}

make_build_dir() {
    BUILD=$(mktemp -d "${TMPDIR:-/tmp}/$1-build.XXXXXX")
    BUILD_KEEP=$2
    trap build_dir_cleanup EXIT
}

build_dir_cleanup() {
    if [ "$BUILD_KEEP" = 1 ]; then
        say "build directory kept: $BUILD"
    else
        rm -rf "$BUILD"
    fi
}

run() {
    local step=$1; shift
    echo "==== $step: $*" >>"$LOG"
    if ! "$@" >>"$LOG" 2>&1; then
        echo "$me: error: $step failed; last lines of $LOG:" >&2
        tail -n 40 "$LOG" >&2
        exit 1
    fi
}
