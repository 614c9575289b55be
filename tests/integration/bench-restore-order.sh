#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: --compare restores through the library's plan, in the one
# order the kernel allows (scheduler, nr_requests, other queue/ tunables,
# then iosched/): mq-deadline's async_depth, which a write of nr_requests
# resets, set unlike its default on a loop device the test attaches,
# survives a comparison of two other schedulers, and so does everything
# else under queue/; exit 0.  With --policy, each candidate runs with the
# policy's tunables, and a tunable the kernel stores differently is a
# failure naming both values.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 32
q=/sys/block/$l/queue
grep -q mq-deadline $q/scheduler || b_skip "no mq-deadline on this kernel"
for s in kyber bfq; do
        grep -qw $s $q/scheduler || modprobe "$([ $s = kyber ] && echo kyber-iosched || echo bfq)" 2>/dev/null
done
others=""
for s in none kyber bfq; do grep -qw $s $q/scheduler && others="$others${others:+,}$s"; done
[ "$(echo "$others" | tr , ' ' | wc -w)" -ge 2 ] || b_skip "fewer than two other schedulers: $(cat $q/scheduler)"
others=$(echo "$others" | cut -d, -f1-2)

echo mq-deadline >$q/scheduler
[ -e $q/iosched/async_depth ] || b_skip "no mq-deadline async_depth on this kernel"
echo 48 >$q/nr_requests
echo 5 >$q/iosched/async_depth
echo 250 >$q/iosched/read_expire
[ "$(cat $q/iosched/async_depth)" = 5 ] || b_skip "async_depth did not take 5: $(cat $q/iosched/async_depth)"
b_queue_state $l >"$B_TMP/before"

$BENCH --filename=/dev/$l --rw=randread --iodepth=4 --runtime=100ms --time_based --compare="$others" \
        >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
[ $rc = 0 ] || b_fail "compare $others: exit $rc: $(cat "$B_TMP/err")"
b_queue_state $l >"$B_TMP/after"
diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "not restored: $(cat "$B_TMP/diff")"
[ "$(b_sched $l)" = mq-deadline ] || b_fail "scheduler $(b_sched $l)"
[ "$(cat $q/iosched/async_depth)" = 5 ] || b_fail "async_depth $(cat $q/iosched/async_depth), want 5"

# --policy: the policy's queue/ tunable is written with each candidate and
# read back; a value the kernel refuses (max_sectors_kb below one page) stops
# the comparison with the value and the kernel's word, and the state is
# restored
if [ "$(getconf PAGESIZE)" = 4096 ]; then
        pol=$B_TMP/policy.conf
        printf '[Match]\nName=%s\n[Set]\nqueue/max_sectors_kb=1\n' "$l" >"$pol"
        chmod 0644 "$pol"
        $BENCH --filename=/dev/$l --rw=randread --runtime=100ms --time_based --compare="$others" --policy="$pol" \
                >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
        [ $rc = 1 ] || b_fail "--policy with a value the kernel refuses: exit $rc: $(cat "$B_TMP/err")"
        grep -q "queue/max_sectors_kb.*\"1\"" "$B_TMP/err" || b_fail "message: $(cat "$B_TMP/err")"
        b_queue_state $l >"$B_TMP/after"
        diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "not restored after a failed tune: $(cat "$B_TMP/diff")"
fi
echo ok
