# build-deps.sh - sourced by the tools/build-microblaze-*.sh scripts.
#
#   install_build_deps PKG...   install the Debian packages among PKG that are
#                               missing (apt-get, as root), or stop with the
#                               exact apt-get command when not root.
#
# Needs say() and die() from the including script.

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
