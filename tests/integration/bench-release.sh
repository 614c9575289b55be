#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the benchmark releases the device when it exits.  A write
# run opens the device O_EXCL, so a run started right after another one is
# refused ("device is in use") if anything of the first (an io_uring ring's
# registered file, an aio context, a thread) still holds the device once
# the first process has exited.  On a loop device the test attaches, ten
# back-to-back --allow-write runs per engine (io_uring, libaio, psync) must
# all exit 0, at the default depth and again with deep queues and two
# threads (more I/O in flight when the run stops); io_uring also without
# its fixed file and buffers.  Afterwards nothing holds the device.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 16
dev=/dev/$l
N=10

# runs LABEL ARGS...: N back-to-back runs, each must exit 0
runs() {
        label=$1; shift
        i=1
        start=$(date +%s%N)
        while [ $i -le $N ]; do
                $BENCH --filename=$dev --rw=randwrite --allow-write --runtime=100ms "$@" \
                        >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
                [ $rc = 0 ] || b_fail "$label: run $i of $N exited $rc: $(cat "$B_TMP/err")"
                i=$((i + 1))
        done
        ms=$((($(date +%s%N) - start) / 1000000))
        echo "$label: $N/$N back-to-back runs exit 0 (${ms} ms in all)"
}

for e in io_uring libaio psync; do
        runs "$e" --ioengine=$e
done
for e in io_uring libaio; do
        runs "$e iodepth=32 numjobs=2" --ioengine=$e --iodepth=32 --numjobs=2
done
runs "io_uring registerfiles=0 fixedbufs=0" --ioengine=io_uring --registerfiles=0 --fixedbufs=0 --iodepth=32

# nothing is left holding the device: an exclusive open works at once
[ -z "$(ls -A /sys/block/$l/holders 2>/dev/null)" ] || b_fail "holders: $(ls /sys/block/$l/holders)"
if command -v python3 >/dev/null; then
        python3 -c 'import os,sys; os.close(os.open(sys.argv[1], os.O_RDWR | os.O_EXCL))' "$dev" 2>"$B_TMP/err" ||
                b_fail "the device is still claimed after the last run: $(cat "$B_TMP/err")"
fi
echo ok
