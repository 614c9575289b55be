#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: nothing in a --sysroot tree leads a read or a write outside
# it or into a device.  A loop device the test attaches stands for the
# running system; in a copy of the virtio-blk fixture, "queue" and
# "queue/iosched" are made links (absolute and "../..") to that loop device's
# queue, a block device node of the loop device replaces
# queue/read_ahead_kb, and FIFOs replace attributes.  iosched-apply must
# fail those settings (never exit 0 having written elsewhere), the loop
# device must keep its scheduler, read-ahead, tunables and data, and list
# must not hang on a FIFO.  Run with openat2 and with the component walk
# (the test shim's IOS_FAULT_NO_OPENAT2=1, as on a kernel before 5.6 or under valgrind).
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 16
echo mq-deadline > "/sys/block/$l/queue/scheduler" 2>/dev/null || t_skip "no mq-deadline"
ra0=$(cat "/sys/block/$l/queue/read_ahead_kb")
re0=$(cat "/sys/block/$l/queue/iosched/read_expire")
majmin=$(cat "/sys/block/$l/dev")
printf 'LOOPDATA-%s\n' "$l" | dd of="/dev/$l" conv=notrunc status=none
modprobe bfq 2>/dev/null

policy=$T_TMP/p.conf
cat > "$policy" <<P
[Match]
Name=vdb
[Set]
Scheduler=bfq
queue/read_ahead_kb=1234
queue/iosched/read_expire=77
P

fresh() {       # a new copy of the fixture; prints the disk's queue directory
        rm -rf "$T_TMP/tree"
        cp -a "$IOS_FIXTURES/virtio-blk" "$T_TMP/tree" || t_fail "copy fixture"
        q=$(find "$T_TMP/tree/sys/devices" -path '*/block/vdb/queue' -type d) || t_fail "no vdb queue"
        [ -n "$q" ] || t_fail "no vdb queue in the fixture"
        echo "$q"
}

unchanged() {   # the loop device is as the test left it
        [ "$(t_sched "$l")" = mq-deadline ] || t_fail "$1: loop scheduler changed to $(t_sched "$l")"
        [ "$(cat "/sys/block/$l/queue/read_ahead_kb")" = "$ra0" ] || t_fail "$1: loop read_ahead_kb changed"
        [ "$(cat "/sys/block/$l/queue/iosched/read_expire")" = "$re0" ] || t_fail "$1: loop read_expire changed"
        head -c 13 "/dev/$l" | grep -q "^LOOPDATA-" || t_fail "$1: loop data overwritten"
}

apply_fails() { # case: iosched-apply on the tree must not succeed
        out=$($APPLY --sysroot "$T_TMP/tree" --config "$policy" vdb 2>&1); rc=$?
        echo "[$mode] $1: exit $rc: $out"
        # 2 (a setting could not be read) or 3 (not applied): never 0, never a crash
        case $rc in 2|3) ;; *) t_fail "$1: exit $rc, want 2 or 3" ;; esac
        echo "$out" | grep -q "LOOPDATA" && t_fail "$1: printed the loop device's data"
        unchanged "$1"
}

for mode in openat2 walk; do
        if [ $mode = walk ]; then
                t_shim IOS_FAULT_NO_OPENAT2=1
        fi

        q=$(fresh); rm -rf "$q"; ln -s "/sys/block/$l/queue" "$q"
        apply_fails "queue -> /sys/block/$l/queue"

        q=$(fresh); rm -rf "$q"
        ln -s "../../../../../../../../../../../../../../../sys/block/$l/queue" "$q"
        apply_fails "queue -> ../../../sys/block/$l/queue"

        q=$(fresh); rm -rf "$q/iosched"; ln -s "/sys/block/$l/queue/iosched" "$q/iosched"
        sed -i 's/^Scheduler=.*/Scheduler=mq-deadline/' "$policy"
        apply_fails "queue/iosched -> /sys/block/$l/queue/iosched"
        sed -i 's/^Scheduler=.*/Scheduler=bfq/' "$policy"

        q=$(fresh); rm -f "$q/read_ahead_kb"
        mknod "$q/read_ahead_kb" b "${majmin%:*}" "${majmin#*:}" || t_fail "mknod"
        apply_fails "block device node at queue/read_ahead_kb"

        q=$(fresh); rm -f "$q/read_ahead_kb"; ln -s "/sys/block/$l/queue/read_ahead_kb" "$q/read_ahead_kb"
        apply_fails "queue/read_ahead_kb -> the loop device's"

        # a FIFO nobody writes: list and apply must neither hang nor use it
        q=$(fresh); rm -f "$q/rotational" "$q/scheduler"
        mkfifo "$q/rotational" "$q/scheduler" || t_fail "mkfifo"
        out=$(timeout 20 $APPLY --sysroot "$T_TMP/tree" list -n -r -o NAME,ROTA,SCHED 2>&1); rc=$?
        echo "[$mode] FIFO: list exit $rc: $out"
        # listed without the FIFOs' values, or the disk's facts refused loudly (exit 2,
        # naming the disk and why): never a hang, never a value read from one
        case $rc in
        0) echo "$out" | grep -q "^vdb *$" || t_fail "list shows a value read from a FIFO: $out" ;;
        2) echo "$out" | grep -q "vdb: not a regular file (a FIFO, socket or device node)" ||
                t_fail "list exit 2 without naming the disk and why: $out" ;;
        *) t_fail "list exit $rc with a FIFO (124: it hangs)" ;;
        esac
        q=$(fresh); rm -f "$q/read_ahead_kb"; mkfifo "$q/read_ahead_kb" || t_fail "mkfifo"
        out=$(timeout 20 $APPLY --sysroot "$T_TMP/tree" --config "$policy" vdb 2>&1); rc=$?
        echo "[$mode] FIFO: apply exit $rc: $out"
        case $rc in 2|3) ;; *) t_fail "apply with a FIFO at queue/read_ahead_kb: exit $rc (124: it hangs)" ;; esac
        echo "$out" | grep -q "read_ahead_kb: not a regular file (a FIFO, socket or device node)" ||
                t_fail "FIFO not refused: $out"
        unchanged "FIFO"
done
echo "ok: the loop device kept scheduler, read-ahead, tunables and data in every case"
