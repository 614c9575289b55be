#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: --compare restores exactly what it found on a loop device the
# test attaches and tunes first (a non-default scheduler, elevator tunables,
# nr_requests, read_ahead_kb): after a complete run, after SIGINT and SIGTERM
# mid-run, and after a refused --compare; and the comparison table names a
# best scheduler.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 32
q=/sys/block/$l/queue
avail=$(sed 's/[][]//g' $q/scheduler)
[ "$(echo $avail | wc -w)" -ge 2 ] || b_skip "$l offers only: $avail"

# a state nobody would get by default
for s in mq-deadline kyber bfq; do
        case " $avail " in *" $s "*) echo $s >$q/scheduler && break ;; esac
done
case $(b_sched $l) in
mq-deadline) echo 7 >$q/iosched/fifo_batch; echo 333 >$q/iosched/read_expire ;;
kyber) echo 1234567 >$q/iosched/read_lat_nsec ;;
bfq) echo 3 >$q/iosched/quantum ;;
esac
echo 32 >$q/nr_requests
echo 1024 >$q/read_ahead_kb
b_queue_state $l >"$B_TMP/before"
grep -q "nr_requests=32" "$B_TMP/before" || b_fail "could not set nr_requests: $(grep nr_requests "$B_TMP/before")"

same() {
        b_queue_state $l >"$B_TMP/after"
        diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "$1: state differs: $(cat "$B_TMP/diff")"
}

# a complete run: two loops, table and verdict, state as before
$BENCH --filename=/dev/$l --rw=randread --iodepth=8 --runtime=150ms --time_based --ramp_time=50ms --compare \
        --loops=2 >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "compare: $(cat "$B_TMP/err")"
grep -q "^  best: " "$B_TMP/out" || b_fail "no verdict: $(cat "$B_TMP/out")"
grep -q "restored $l" "$B_TMP/out" || b_fail "no restore line: $(cat "$B_TMP/out")"
same "complete run"

# the same as JSON
$BENCH --filename=/dev/$l --rw=randread --iodepth=8 --runtime=100ms --ramp_time=0 --compare \
        --loops=1 -J >"$B_TMP/out.json" 2>"$B_TMP/err" || b_fail "compare -J: $(cat "$B_TMP/err")"
b_json "$B_TMP/out.json" '.compare.restored == true and (.compare.schedulers | length) >= 2 and
        (.compare.best | length) > 0 and (.jobs | length) == (.compare.schedulers | length) and
        .jobs[0].read.iops > 0' || b_fail "compare JSON: $(head -c 800 "$B_TMP/out.json")"
same "JSON run"

# interrupted mid-run: the run is long, the signal comes during it
for sig in INT TERM; do
        $BENCH --filename=/dev/$l --rw=randrw --iodepth=8 --runtime=10s --time_based --ramp_time=0 --compare --loops=3 \
                --allow-write >"$B_TMP/out" 2>"$B_TMP/err" &
        pid=$!
        B_PIDS="$B_PIDS $pid"
        # wait until it has switched away from the original state
        i=0
        while [ $i -lt 100 ]; do
                b_queue_state $l >"$B_TMP/now"
                cmp -s "$B_TMP/before" "$B_TMP/now" || break
                sleep 0.05
                i=$((i + 1))
        done
        cmp -s "$B_TMP/before" "$B_TMP/now" && b_fail "SIG$sig: the run never changed the state"
        sleep 0.3
        kill -$sig $pid
        wait $pid
        rc=$?
        [ $rc = 1 ] || b_fail "SIG$sig: exit $rc, want 1 ($(cat "$B_TMP/err"))"
        grep -q "interrupted; $l restored" "$B_TMP/err" || b_fail "SIG$sig message: $(cat "$B_TMP/err")"
        same "SIG$sig"
done

# a scheduler the device does not offer: a usage error before anything is
# switched (exit 2), state untouched; a switch that fails mid-run is covered
# by bench-restore-order.sh (a tunable the kernel stores differently)
$BENCH --filename=/dev/$l --rw=randread --runtime=100ms --ramp_time=0 --compare=none,nosuchsched \
        --loops=1 >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] || b_fail "bad scheduler: exit $rc"
grep -q "nosuchsched is not available on $l" "$B_TMP/err" || b_fail "bad scheduler message: $(cat "$B_TMP/err")"
same "refused --compare"
echo ok
