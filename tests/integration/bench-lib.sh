# SPDX-License-Identifier: LGPL-2.1-or-later
# Helpers for the iosched-bench integration tests (sourced, not run).  Every
# loop device, mount and background process a test uses is one it created,
# and b_cleanup undoes all of them on every exit path (trap).
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILDDIR=${BUILDDIR:-build}
BENCH_BIN="$top/$BUILDDIR/iosched-bench"
BENCH="${IOS_VALGRIND:-} $BENCH_BIN"
B_LOOPS="" B_MOUNTS="" B_PIDS="" B_DM=""
B_TMP=$(mktemp -d /tmp/iosched-bench-it-XXXXXX)

b_skip() { echo "SKIP: $*"; exit 77; }
b_fail() { echo "FAIL: $*"; exit 1; }

b_cleanup() {
        for p in $B_PIDS; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
        for m in $B_MOUNTS; do umount "$m" 2>/dev/null; done
        for d in $B_DM; do dmsetup remove "$d" 2>/dev/null; done
        for l in $B_LOOPS; do losetup -d "/dev/$l" 2>/dev/null; done
        rm -rf "$B_TMP" /dev/shm/iosched-bench-it-"${B_TMP##*-}"-* 2>/dev/null
}
trap b_cleanup EXIT
trap 'exit 1' INT TERM HUP

b_require_root() {
        [ "$(id -u)" = 0 ] || b_skip "needs root"
        command -v losetup >/dev/null || b_skip "no losetup"
        [ -e /dev/loop-control ] || b_skip "no loop devices"
}

# b_loop VAR SIZE_MB [losetup options...]: attach a new loop device backed by
# a sparse (all-zero) file in /dev/shm, set VAR to its name (no subshell, so
# the cleanup knows about it)
b_loop() {
        var=$1; size=$2; shift 2
        dir=/dev/shm
        [ -w /dev/shm ] || dir=$B_TMP
        f=$(mktemp "$dir/iosched-bench-it-${B_TMP##*-}-XXXXXX")
        truncate -s "${size}M" "$f" || b_fail "truncate"
        dev=$(losetup -f --show "$@" "$f" 2>/dev/null) || b_skip "cannot attach a loop device"
        name=${dev#/dev/}
        B_LOOPS="$B_LOOPS $name"
        # a udev rule may still set its scheduler: let it finish first
        udevadm settle 2>/dev/null
        eval "$var=\$name"
}

# every writable queue/ and queue/iosched/ attribute of a disk, "name=value"
b_queue_state() {
        q=/sys/block/$1/queue
        for f in "$q"/* "$q"/iosched/*; do
                [ -f "$f" ] && [ -w "$f" ] || continue
                v=$(cat "$f" 2>/dev/null) || continue
                echo "${f#"$q"/}=$v"
        done
}

b_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }

# JSON check without requiring jq: python3 if present, else jq, else skip
b_json() {
        if command -v jq >/dev/null; then jq -e "$2" "$1" >/dev/null
        elif command -v python3 >/dev/null; then python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"
        else return 0; fi
}

# b_in_mode MODE CMD...: CMD with Landlock as the kernel has it (landlock), or as on a kernel without it
# (unconfined: IOSCHED_BENCH_LANDLOCK=0; the bench then needs --unconfined for what only fio knows)
b_in_mode() {
        case $1 in
        landlock) shift; env -u IOSCHED_BENCH_LANDLOCK "$@" ;;
        *) shift; env IOSCHED_BENCH_LANDLOCK=0 "$@" ;;
        esac
}

# wait_for MS CMD...: CMD true within MS milliseconds (a hang guard: returns as soon as it holds)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
wait_for() {
        ms=$1; shift
        end=$(( $(now_ms) + ms ))
        while ! "$@"; do
                [ "$(now_ms)" -lt $end ] || return 1
                sleep 0.02
        done
}

# b_unix_listener SOCKET RECORD: a unix socket listening at SOCKET in the background (a cleanup pid),
# which appends "connected" to RECORD for every connection; returns once it listens (RECORD.ready)
b_unix_listener() {
        python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(8)
open(sys.argv[2] + ".ready", "w").close()
while True:
    c, _ = s.accept()
    with open(sys.argv[2], "a") as f:
        f.write("connected\n")
    c.close()
' "$1" "$2" &
        B_PIDS="$B_PIDS $!"
        i=0
        while [ ! -e "$2.ready" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
        [ -e "$2.ready" ] || b_fail "the unix listener did not start"
}
