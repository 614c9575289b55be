# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared helpers for loop-device integration tests (sourced, not run).
# Every device a test uses is one it created; cleanup runs on every exit path.
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILDDIR=${BUILDDIR:-build}
. "$top/tests/shim.sh"        # t_shim, t_shimmed: what the programs have no test hooks for
# IOS_APPLY: an installed iosched-apply instead of the build's (the QEMU guests)
APPLY="${IOS_VALGRIND:-} ${IOS_APPLY:-$top/$BUILDDIR/iosched-apply}"
T_LOOPS=""
T_TMP=$(mktemp -d /tmp/iosched-it-XXXXXX)

t_skip() { echo "SKIP: $*"; exit 77; }
t_fail() { echo "FAIL: $*"; exit 1; }

t_cleanup() {
        for l in $T_LOOPS; do
                losetup -d "/dev/$l" 2>/dev/null
        done
        rm -rf "$T_TMP"
}
trap t_cleanup EXIT INT TERM

t_require_root() {
        [ "$(id -u)" = 0 ] || t_skip "needs root"
        command -v losetup >/dev/null || t_skip "no losetup"
}

# t_loop VAR SIZE_MB [losetup options...]: attach a new loop device, set VAR
# to its name (no subshell, so the cleanup trap knows about it)
t_loop() {
        var=$1; size=$2; shift 2
        f=$(mktemp "$T_TMP/backing-XXXXXX")
        truncate -s "${size}M" "$f" || t_fail "truncate"
        dev=$(losetup -f --show "$@" "$f" 2>/dev/null) || t_skip "cannot attach a loop device"
        name=${dev#/dev/}
        T_LOOPS="$T_LOOPS $name"
        eval "$var=\$name"
}

t_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }
