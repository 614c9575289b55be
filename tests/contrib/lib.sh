# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared helpers for the configuration-management tests (sourced, not run):
# the tool under test, a temporary policy root, loop devices on files in
# /dev/shm that the test creates and detaches on every exit path, and the
# installation of a Debian package the test needs (skip 77 only when it
# cannot be installed).
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILDDIR=${BUILDDIR:-build}
case $BUILDDIR in /*) TOOL=$BUILDDIR/iosched-apply ;; *) TOOL=$top/$BUILDDIR/iosched-apply ;; esac
C_LOOPS=""
C_TMP=$(mktemp -d /tmp/iosched-contrib-XXXXXX)
C_SHM=$(mktemp -d /dev/shm/iosched-contrib-XXXXXX)
chmod 0755 "$C_TMP"

c_skip() { echo "SKIP: $*"; exit 77; }
c_fail() { echo "FAIL: $*"; exit 1; }

c_cleanup() {
        [ -n "${C_KEEP:-}" ] && cp -r "$C_TMP" "$C_KEEP"
        for l in $C_LOOPS; do
                losetup -d "/dev/$l" 2>/dev/null
        done
        rm -rf "$C_TMP" "$C_SHM"
}
trap c_cleanup EXIT
trap 'exit 1' INT TERM

c_require() {
        [ "$(id -u)" = 0 ] || c_skip "needs root"
        command -v losetup >/dev/null || c_skip "no losetup"
        [ -x "$TOOL" ] || c_fail "$TOOL not built (make)"
}

# c_apt PKG...: install Debian packages, skip (77) when that is not possible
c_apt() {
        command -v apt-get >/dev/null 2>&1 || c_skip "cannot install $* (no apt-get)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
                c_skip "cannot install $*"
}

# c_need CMD PKG...: install the Debian packages when CMD is missing
c_need() {
        cmd=$1; shift
        command -v "$cmd" >/dev/null 2>&1 && return 0
        c_apt "$@"
        command -v "$cmd" >/dev/null 2>&1 || c_skip "$cmd: not found after installing $*"
}

# c_loop VAR SIZE_MB: attach a new loop device on a file in /dev/shm, set VAR
# to its name, and put it in a known state (scheduler none, read_ahead_kb 128)
c_loop() {
        var=$1
        f=$(mktemp "$C_SHM/backing-XXXXXX")
        truncate -s "${2}M" "$f" || c_fail "truncate"
        dev=$(losetup -f --show "$f" 2>/dev/null) || c_skip "cannot attach a loop device"
        name=${dev#/dev/}
        C_LOOPS="$C_LOOPS $name"
        udevadm settle 2>/dev/null
        echo none > "/sys/block/$name/queue/scheduler" || c_fail "$name: cannot set none"
        echo 128 > "/sys/block/$name/queue/read_ahead_kb" || c_fail "$name: read_ahead_kb"
        eval "$var=\$name"
}

c_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }
c_ra() { cat "/sys/block/$1/queue/read_ahead_kb"; }

# c_state L...: "loopN=SCHED/RA ..." for the devices, for before/after comparisons
c_state() {
        for l in "$@"; do printf '%s=%s/%s ' "$l" "$(c_sched "$l")" "$(c_ra "$l")"; done
}

# c_time: seconds since the test started
C_T0=$(date +%s)
c_time() { echo $(( $(date +%s) - C_T0 )); }
