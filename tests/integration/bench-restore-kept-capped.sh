#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a value another program sets during a --compare that a later
# variant's scheduler caps is still the one kept and restored. nr_requests=200
# written while the run is on mq-deadline; the none variant after it runs with
# the kernel's own depth (none holds nr_requests at the tag set's depth, 128
# on a loop device): the bench does not take that cap for another program's
# value, ends on mq-deadline with nr_requests 200, and says it kept 200 and
# that none ran without it.
# Exit 0 pass, 77 skip, 1 fail.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 32
q=/sys/block/$l/queue
grep -qw none $q/scheduler || b_skip "kernel offers no none"
grep -qw mq-deadline $q/scheduler || b_skip "kernel offers no mq-deadline"
majmin=$(cat /sys/block/$l/dev)
echo none >$q/scheduler
[ "$(cat $q/nr_requests)" -lt 200 ] || b_skip "none keeps nr_requests $(cat $q/nr_requests) here: no cap below 200"
echo mq-deadline >$q/scheduler
echo 64 >$q/nr_requests

$BENCH --filename=/dev/$l --rw=randread --runtime=2s --time_based --ramp_time=0 --loops=2 --compare=mq-deadline,none \
        >"$B_TMP/out" 2>"$B_TMP/err" &
BPID=$!
B_PIDS="$B_PIDS $BPID"
# once the bench runs on mq-deadline (it holds the disk, the disk is on mq-deadline and
# reading: a run, not the switches before the first round): another program's write
reads() { awk '{ print $1 }' /sys/block/$l/stat; }
running() {
        r0=$(reads)
        [ "$(b_sched $l)" = mq-deadline ] || return 1
        sleep 0.05
        ! flock -n -s "/run/iosched-bench/$majmin.lock" true 2>/dev/null && [ "$(reads)" -gt "$r0" ] &&
                [ "$(b_sched $l)" = mq-deadline ]
}
i=0
until running; do
        kill -0 $BPID 2>/dev/null || b_fail "the benchmark ended early: $(cat "$B_TMP/err")"
        i=$((i + 1))
        [ $i -lt 3000 ] || b_fail "the benchmark never ran on mq-deadline"
        sleep 0.02
done
echo 200 >$q/nr_requests
[ "$(b_sched $l)" = mq-deadline ] || b_skip "the write missed the mq-deadline phase (the bench switched meanwhile)"
wait $BPID
rc=$?
[ $rc = 0 ] || b_fail "the benchmark: exit $rc: $(cat "$B_TMP/err")"
[ "$(b_sched $l)" = mq-deadline ] || b_fail "not restored to mq-deadline: $(cat $q/scheduler)"
[ "$(cat $q/nr_requests)" = 200 ] ||
        b_fail "the other program's nr_requests=200 became $(cat $q/nr_requests): $(cat "$B_TMP/err")"
grep -q "^iosched-bench: $l: queue/nr_requests: kept 200, set by another program" "$B_TMP/err" ||
        b_fail "the kept value is not said as 200: $(cat "$B_TMP/err")"
grep -q "queue/nr_requests: kept 200.*the kernel did not take it under none, which ran without it" "$B_TMP/err" ||
        b_fail "that none ran without it is not said: $(cat "$B_TMP/err")"
exit 0
