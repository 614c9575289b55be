#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: what iosched-bench measures is storage.  A file on a
# filesystem that is a kernel interface (a loop device's
# queue/read_ahead_kb in sysfs, /proc/kmsg) is refused, read or write,
# with --allow-write too (exit 3), on the native backend and on fio's,
# as are a directory there for new files (directory=, a native target
# directory) and an opendir= tree there; the attribute keeps its value
# (before: a write job with --allow-write set it).  A character device
# of no storage class (/dev/kmsg, a node with no driver) is refused with
# --allow-write too; /dev/zero reads as before.  fio's with Landlock and
# on the path without it (IOSCHED_BENCH_LANDLOCK=0 --unconfined).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 64
ra=/sys/block/$l/queue/read_ahead_kb
[ -w "$ra" ] || b_skip "no writable $ra"
was=$(cat "$ra")
new=$((was + 4))
printf '%s' "$new" >"$B_TMP/value"
cd "$B_TMP" || b_fail "cd"

# refused WHAT TEXT [ARGS]: exit 3 saying TEXT, the attribute unchanged
refused() {
        what=$1 text=$2
        shift 2
        "$@" >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$what: exit $rc, want 3: $(cat "$B_TMP/err")"
        grep -q "$text" "$B_TMP/err" || b_fail "$what: the refusal does not say '$text': $(cat "$B_TMP/err")"
        [ "$(cat "$ra")" = "$was" ] || { echo "$was" >"$ra"; b_fail "$what: $ra was written"; }
}

# the native backend
refused "native write of $ra" "^iosched-bench: refusing $ra: it is on sysfs, a kernel interface" \
        $BENCH --allow-write --filename="$ra" --rw=write --direct=0 --size=4k --runtime=1
refused "native read of /proc/kmsg" "^iosched-bench: refusing /proc/kmsg: it is on procfs" \
        $BENCH --filename=/proc/kmsg --rw=read --direct=0 --size=4k --runtime=1
refused "native file in /proc" "^iosched-bench: refusing /proc/: it is on procfs" \
        $BENCH --allow-write --filename=/proc/new --rw=write --direct=0 --size=4k --runtime=1
refused "native directory /proc" "^iosched-bench: refusing /proc: it is on procfs" \
        $BENCH --allow-write --filename=/proc --rw=write --direct=0 --size=4k --runtime=1

command -v fio >/dev/null || exit 0
mknod "$B_TMP/door" c 60 0 || b_fail "mknod"   # local/experimental: no driver, no class
for mode in landlock unconfined; do
        case $mode in
        landlock) set -- env -u IOSCHED_BENCH_LANDLOCK $BENCH --backend=fio ;;
        *) set -- env IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined ;;
        esac
        # the value fio would write, as the attribute takes it
        refused "$mode: fio write of $ra" "^iosched-bench: job 'a': $ra is on sysfs, a kernel interface" \
                "$@" --allow-write --name=a --filename="$ra" --rw=write --bs=${#new} --size=${#new} \
                --buffer_pattern="'$B_TMP/value'" --runtime=1
        refused "$mode: fio read of /proc/kmsg" "^iosched-bench: job 'k': /proc/kmsg is on procfs" \
                "$@" --name=k --filename=/proc/kmsg --rw=read --size=4k --runtime=1
        refused "$mode: directory= in sysfs" "would make the files of job 'd' in /sys/.*, which is on sysfs" \
                "$@" --allow-write --name=d --directory="/sys/block/$l/queue" --rw=write --size=4k --runtime=1
        refused "$mode: opendir= in sysfs" "^iosched-bench: job 'o': /sys/block/$l/queue is on sysfs" \
                "$@" --name=o --opendir="/sys/block/$l/queue" --rw=read --size=4k --runtime=1
        for c in /dev/kmsg "$B_TMP/door"; do
                refused "$mode: $c" "^iosched-bench: job 'c': $c is a character device of class [a-z]*, not" \
                        "$@" --allow-write --name=c --filename="$c" --rw=read --size=4k --runtime=1
        done
        "$@" --name=z --filename=/dev/zero --rw=read --size=1m --runtime=1 >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: a read job on /dev/zero: exit $?: $(cat "$B_TMP/err")"
done
exit 0
