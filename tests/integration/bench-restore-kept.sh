#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: iosched-bench restores only what it changed.  A policy that
# iosched-apply applies in the middle of a --compare run (read_ahead_kb, a
# file the variant does not set, so the comparison goes on) survives the
# restore: the benchmark ends with exit 0, puts its scheduler switch back,
# keeps the policy's read_ahead_kb and says so in one line; the run it
# changed has no result; every other file is as found.  The same when the
# policy also switches the scheduler (the comparison stops, exit 1): the
# policy's values stay, nothing else moved.  (Over several rounds and every
# file: bench-kept-rounds.sh.)
# Exit 0 pass, 77 skip, 1 fail.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
APPLY="${IOS_VALGRIND:-} $top/$BUILDDIR/iosched-apply"
b_loop l 32
q=/sys/block/$l/queue
grep -qw none $q/scheduler || b_skip "kernel offers no none"
grep -qw mq-deadline $q/scheduler || b_skip "kernel offers no mq-deadline"
majmin=$(cat /sys/block/$l/dev)
P=$B_TMP/policy.conf

# start a 3 s run on none; return once it holds the lock and runs on none
start_bench() {
        # mq-deadline afresh: its defaults, whatever a reused loop device had
        echo none >$q/scheduler
        echo mq-deadline >$q/scheduler
        echo 512 >$q/read_ahead_kb
        b_queue_state $l >"$B_TMP/before"
        $BENCH --filename=/dev/$l --rw=randread --runtime=3s --time_based --ramp_time=0 --loops=1 --compare=none \
                >"$B_TMP/out" 2>"$B_TMP/err" &
        BPID=$!
        B_PIDS="$B_PIDS $BPID"
        i=0
        while [ $i -lt 500 ]; do
                if ! flock -n -s "/run/iosched-bench/$majmin.lock" true 2>/dev/null &&
                   [ "$(b_sched $l)" = none ]; then
                        sleep 0.3
                        return 0
                fi
                kill -0 $BPID 2>/dev/null || b_fail "the benchmark ended early: $(cat "$B_TMP/err")"
                sleep 0.02
                i=$((i + 1))
        done
        b_fail "the benchmark never took the disk"
}

# the state found, but for the files the policy set
expect_after() {
        b_queue_state $l >"$B_TMP/after"
        grep -v '^read_ahead_kb=' "$B_TMP/before" >"$B_TMP/before.rest"
        grep -v '^read_ahead_kb=' "$B_TMP/after" >"$B_TMP/after.rest"
        diff "$B_TMP/before.rest" "$B_TMP/after.rest" >"$B_TMP/diff" ||
                b_fail "$1: state differs after the run: $(cat "$B_TMP/diff")"
        [ "$(cat $q/read_ahead_kb)" = 4096 ] ||
                b_fail "$1: the policy's read_ahead_kb was undone: $(cat $q/read_ahead_kb)"
        grep -qxF "iosched-bench: $l: queue/read_ahead_kb: kept 4096, set by another program during the none 1/1 run, which has no result (iosched-bench had 512)" \
                "$B_TMP/err" || b_fail "$1: the kept value is not said: $(cat "$B_TMP/err")"
}

# 1. read_ahead_kb only: the run stands
printf '[Match]\nName=%s\n[Set]\nqueue/read_ahead_kb=4096\n' "$l" >"$P"
chmod 0644 "$P"
start_bench
$APPLY --config "$P" --no-builtin $l >"$B_TMP/apply.out" 2>&1 || b_fail "iosched-apply: $(cat "$B_TMP/apply.out")"
[ "$(cat $q/read_ahead_kb)" = 4096 ] || b_fail "iosched-apply did not set read_ahead_kb"
wait $BPID
rc=$?
[ $rc = 0 ] || b_fail "the benchmark: exit $rc: $(cat "$B_TMP/err")"
grep -Eq '^ *none +0 +\(no complete run\)$' "$B_TMP/out" || b_fail "a result for the changed run: $(cat "$B_TMP/out")"
grep -q "^  restored $l: scheduler mq-deadline and [0-9]* queue tunables as found, 1 kept as another program set them$" \
        "$B_TMP/out" || b_fail "the restore line: $(cat "$B_TMP/out")"
[ "$(b_sched $l)" = mq-deadline ] || b_fail "the benchmark's switch to none was not put back: $(b_sched $l)"
expect_after "read_ahead_kb policy"
# (the up-front lines, which disk, how long, what it holds, come first: 3)
[ "$(wc -l <"$B_TMP/err")" = 4 ] || b_fail "more than the kept line on stderr: $(cat "$B_TMP/err")"
echo "ok: the policy's read_ahead_kb survives the restore: $(cat "$B_TMP/err")"

# 2. the policy switches the scheduler too: the run is void, the policy's state stays
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=4096\n' "$l" >"$P"
start_bench
$APPLY --config "$P" --no-builtin $l >"$B_TMP/apply.out" 2>&1 || b_fail "iosched-apply: $(cat "$B_TMP/apply.out")"
wait $BPID
rc=$?
[ $rc = 1 ] || b_fail "the benchmark: exit $rc, want 1 ($(cat "$B_TMP/err"))"
[ "$(b_sched $l)" = mq-deadline ] || b_fail "$l on $(b_sched $l)"
expect_after "scheduler and read_ahead_kb policy"
echo "ok: with a scheduler switch too"
echo PASS
