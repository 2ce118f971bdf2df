# linux-apt.sh - sourced by fetch-linux.sh and check-linux-selftests.sh:
# the cache directory for Debian's arm64 kernel packages (created, made
# absolute) in $cache, and in apt_opts an apt configuration of its own
# (arm64 only, separate lists and archives, no locks on the system's), so
# the machine's own apt state is never touched.
#
#   LINUX_CACHE   default ${XDG_CACHE_HOME:-$HOME/.cache}/teachos/linux

cache=${LINUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/teachos/linux}
mkdir -p "$cache/lists/partial" "$cache/apt-cache/archives/partial"
cache=$(cd "$cache" && pwd)

apt_opts=(
	-oAPT::Architecture=arm64
	-oAPT::Architectures=arm64
	"-oDir::State::Lists=$cache/lists"
	"-oDir::Cache=$cache/apt-cache"
	-oDebug::NoLocking=1
	-oAPT::Sandbox::User=root
	-qq
)
