#!/bin/sh
# Description: iosched-bench on a loop device the test attaches: every engine
# and workload runs and reports through fio's JSON fields, numjobs runs one
# ring or context per thread, writes are refused (exit 3) without
# --allow-write, and with it nothing is written outside --offset/--size: the
# bytes before and after the region stay zero.
# SPDX-License-Identifier: LGPL-2.1-or-later
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 16
dev=/dev/$l

for e in io_uring libaio psync; do
        for rw in read randread; do
                $BENCH --filename=$dev --ioengine=$e --rw=$rw --iodepth=8 --runtime=200ms -J \
                        >"$B_TMP/$e-$rw.json" 2>"$B_TMP/err" || b_fail "$e $rw: $(cat "$B_TMP/err")"
                b_json "$B_TMP/$e-$rw.json" '.jobs[0].read.iops > 0 and .jobs[0].read.total_ios > 0 and
                        .jobs[0].read.clat_ns.percentile["50.000000"] > 0 and .jobs[0].write.total_ios == 0 and
                        .jobs[0].usr_cpu >= 0 and (.disk_util[0].name | length > 0)' ||
                        b_fail "$e $rw JSON: $(head -c 800 "$B_TMP/$e-$rw.json")"
        done
done

# two threads, mixed, each with its own context; bs per direction
$BENCH --filename=$dev --ioengine=libaio --rw=randrw --rwmixread=70 --bs=4k,8k --iodepth=4 --numjobs=2 \
        --runtime=300ms --allow-write -J >"$B_TMP/mix.json" 2>"$B_TMP/err" || b_fail "randrw: $(cat "$B_TMP/err")"
b_json "$B_TMP/mix.json" '.jobs[0].read.iops > .jobs[0].write.iops and .jobs[0].write.iops > 0 and
        (.jobs[0].write.io_bytes / .jobs[0].write.total_ios) == 8192 and
        (.jobs[0].read.io_bytes / .jobs[0].read.total_ios) == 4096' ||
        b_fail "randrw JSON: $(head -c 800 "$B_TMP/mix.json")"

# writes without --allow-write: refused, nothing written
$BENCH --filename=$dev --rw=write --runtime=200ms >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 3 ] || b_fail "write without --allow-write: exit $rc"
grep -q "^iosched-bench: refusing to write to $dev without --allow-write" "$B_TMP/err" || b_fail "$(cat "$B_TMP/err")"

# the region: zero the device, write [1m, 3m) sequentially and randomly
b_loop z 8
zdev=/dev/$z
for rw in write randwrite; do
        $BENCH --filename=$zdev --rw=$rw --bs=4k --iodepth=16 --offset=1m --size=2m --runtime=300ms \
                --allow-write --ioengine=io_uring >"$B_TMP/out" 2>&1 || b_fail "$rw region: $(cat "$B_TMP/out")"
done
$BENCH --filename=$zdev --rw=randwrite --bs=64k --offset=1m --size=2m --io_size=4m --allow-write \
        --ioengine=libaio --iodepth=4 >"$B_TMP/out" 2>&1 || b_fail "io_size region: $(cat "$B_TMP/out")"
cmp -s -n 1048576 "$zdev" /dev/zero || b_fail "bytes before --offset were written"
dd if="$zdev" bs=1M skip=3 count=5 status=none | cmp -s - /dev/zero -n 5242880 ||
        b_fail "bytes after --offset + --size were written"
dd if="$zdev" bs=1M skip=1 count=2 status=none | cmp -s - /dev/zero -n 2097152 &&
        b_fail "nothing was written inside the region"

# a region beyond the device is a usage error
$BENCH --filename=$zdev --offset=6m --size=4m --runtime=100ms >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] || b_fail "region beyond the end: exit $rc"
grep -q "beyond the end" "$B_TMP/err" || b_fail "$(cat "$B_TMP/err")"
echo ok
