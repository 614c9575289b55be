#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: iosched-bench refuses (exit 3) to write to a loop device the
# test formats and mounts, even with --allow-write, names the mount point,
# and leaves the file system intact; the same for a whole disk whose
# partition is mounted and for a device held by device-mapper; reads of the
# mounted device are still allowed; after unmounting, the write is allowed.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v mkfs.ext4 >/dev/null || b_skip "no mkfs.ext4"
b_loop l 32
mkfs.ext4 -q -F "/dev/$l" >/dev/null 2>&1 || b_fail "mkfs.ext4"
mkdir "$B_TMP/mnt"
mount "/dev/$l" "$B_TMP/mnt" || b_skip "cannot mount ext4"
B_MOUNTS="$B_TMP/mnt $B_MOUNTS"
echo canary >"$B_TMP/mnt/canary"
sync

$BENCH --filename=/dev/$l --rw=randwrite --allow-write --runtime=200ms >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
[ $rc = 3 ] || b_fail "write to a mounted device: exit $rc ($(cat "$B_TMP/err"))"
grep -q "^iosched-bench: /dev/$l: refusing to write: mounted on $B_TMP/mnt" "$B_TMP/err" ||
        b_fail "message: $(cat "$B_TMP/err")"
# reads are fine
$BENCH --filename=/dev/$l --rw=randread --runtime=200ms >/dev/null 2>"$B_TMP/err" ||
        b_fail "read of a mounted device: $(cat "$B_TMP/err")"
umount "$B_TMP/mnt"
B_MOUNTS=""
fsck.ext4 -n "/dev/$l" >/dev/null 2>&1 || b_fail "the file system was damaged"

# unmounted: allowed
$BENCH --filename=/dev/$l --rw=randwrite --allow-write --runtime=200ms >/dev/null 2>"$B_TMP/err" ||
        b_fail "write after umount: $(cat "$B_TMP/err")"

# a whole disk with a mounted partition
if command -v sfdisk >/dev/null; then
        b_loop p 64 -P
        printf 'label: dos\n,32M\n' | sfdisk -q "/dev/$p" >/dev/null 2>&1
        partprobe "/dev/$p" 2>/dev/null || blockdev --rereadpt "/dev/$p" 2>/dev/null
        udevadm settle 2>/dev/null
        if [ -b "/dev/${p}p1" ] && mkfs.ext4 -q -F "/dev/${p}p1" >/dev/null 2>&1; then
                mkdir "$B_TMP/pmnt"
                mount "/dev/${p}p1" "$B_TMP/pmnt" && B_MOUNTS="$B_TMP/pmnt $B_MOUNTS"
                $BENCH --filename=/dev/$p --rw=write --allow-write --runtime=200ms >/dev/null 2>"$B_TMP/err"
                rc=$?
                [ $rc = 3 ] || b_fail "whole disk with a mounted partition: exit $rc"
                grep -q "refusing to write: mounted on $B_TMP/pmnt" "$B_TMP/err" || b_fail "$(cat "$B_TMP/err")"
                umount "$B_TMP/pmnt"
                B_MOUNTS=""
        fi
fi

# a device with a holder (device-mapper on top)
if command -v dmsetup >/dev/null; then
        b_loop h 16
        dm=iosched-bench-it-${B_TMP##*-}
        if echo "0 $(blockdev --getsz /dev/$h) linear /dev/$h 0" | dmsetup create "$dm" 2>/dev/null; then
                B_DM="$dm"
                $BENCH --filename=/dev/$h --rw=write --allow-write --runtime=200ms >/dev/null 2>"$B_TMP/err"
                rc=$?
                [ $rc = 3 ] || b_fail "device with a holder: exit $rc"
                grep -q "has holders" "$B_TMP/err" || b_fail "$(cat "$B_TMP/err")"
        fi
fi
echo ok
