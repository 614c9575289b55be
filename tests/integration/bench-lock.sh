#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: two iosched-bench --compare runs on one loop device: the
# second is refused (exit 3) with one line naming the first one's pid,
# changes nothing and runs no I/O, and the first restores the state it
# found; once the first has ended the disk is free again.  The same for
# --observe against a running --compare.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 32
q=/sys/block/$l/queue
avail=$(sed 's/[][]//g' $q/scheduler)
[ "$(echo $avail | wc -w)" -ge 2 ] || b_skip "$l offers only: $avail"
echo 1024 >$q/read_ahead_kb
b_queue_state $l >"$B_TMP/before"

$BENCH --filename=/dev/$l --rw=randread --runtime=10s --time_based --ramp_time=0 --compare --loops=3 \
        >"$B_TMP/out1" 2>"$B_TMP/err1" &
pid=$!
B_PIDS="$B_PIDS $pid"
# wait until the first one has switched away from the state it found
i=0
while [ $i -lt 200 ]; do
        b_queue_state $l >"$B_TMP/now"
        cmp -s "$B_TMP/before" "$B_TMP/now" || break
        sleep 0.02
        i=$((i + 1))
done
cmp -s "$B_TMP/before" "$B_TMP/now" && b_fail "the first run never changed the state"

for mode in compare observe; do
        b_queue_state $l >"$B_TMP/mid"
        if [ $mode = compare ]; then
                $BENCH --filename=/dev/$l --rw=randread --runtime=100ms --compare --loops=1 \
                        >"$B_TMP/out2" 2>"$B_TMP/err2"
        else
                $BENCH --filename=/dev/$l --observe --compare --runtime=100ms --loops=1 \
                        >"$B_TMP/out2" 2>"$B_TMP/err2"
        fi
        rc=$?
        [ $rc = 3 ] || b_fail "second $mode: exit $rc, want 3 ($(cat "$B_TMP/err2"))"
        [ "$(cat "$B_TMP/err2")" = "iosched-bench: $l: another iosched-bench (pid $pid) is comparing schedulers on this disk" ] ||
                b_fail "second $mode: message: $(cat "$B_TMP/err2")"
        [ -s "$B_TMP/out2" ] && b_fail "second $mode printed: $(cat "$B_TMP/out2")"
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 1 ] || b_fail "first run: exit $rc after SIGINT ($(cat "$B_TMP/err1"))"
b_queue_state $l >"$B_TMP/after"
diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "state differs after the first run: $(cat "$B_TMP/diff")"

# the lock went with the process: the disk is free again
$BENCH --filename=/dev/$l --rw=randread --runtime=50ms --ramp_time=0 --compare --loops=1 \
        >"$B_TMP/out3" 2>"$B_TMP/err3" || b_fail "after the first run: $(cat "$B_TMP/err3")"
b_queue_state $l >"$B_TMP/after"
diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "state differs after the third run: $(cat "$B_TMP/diff")"
echo ok
