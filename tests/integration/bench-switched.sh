#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: another writer during an iosched-bench --compare run.
# 1. The udev rule's `iosched-apply --udev DISK` (a change event in the
#    middle of a comparison: udevadm trigger, a package install) leaves a
#    disk whose benchmark lock is held alone, exit 0: the run on "none"
#    stays on none and the benchmark ends with exit 0 and its result.
# 2. A manual iosched-apply (which does not look at the lock) switches the
#    scheduler in the middle of the run: the benchmark reads the scheduler
#    back after each run, gives no result for that run, says what moved in
#    one line, exits 1 and still restores the state it found.
# 3. The same for a round of --observe.
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
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\n' "$l" >"$P"
chmod 0644 "$P"

# start a 3 s run on none; return once the benchmark holds the disk's lock
# and has switched to none (learning each scheduler's start values passes
# through mq-deadline first)
start_bench() {
        echo mq-deadline >$q/scheduler
        b_queue_state $l >"$B_TMP/before"
        # shellcheck disable=SC2086
        $BENCH --filename=/dev/$l ${1:---rw=randread} --runtime=3s --time_based --ramp_time=0 --loops=1 --compare=none \
                >"$B_TMP/out" 2>"$B_TMP/err" &
        BPID=$!
        B_PIDS="$B_PIDS $BPID"
        i=0
        while [ $i -lt 500 ]; do
                if ! flock -n -s "/run/iosched-bench/$majmin.lock" true 2>/dev/null &&
                   [ "$(b_sched $l)" = none ]; then
                        sleep 0.3       # inside the run, past the switch
                        return 0
                fi
                kill -0 $BPID 2>/dev/null || b_fail "the benchmark ended early: $(cat "$B_TMP/err")"
                sleep 0.02
                i=$((i + 1))
        done
        b_fail "the benchmark never took the disk"
}

# 1. the udev rule's run yields
start_bench
$APPLY --config "$P" --no-builtin --udev $l >"$B_TMP/udev.out" 2>&1
rc=$?
[ $rc = 0 ] || b_fail "iosched-apply --udev during the benchmark: exit $rc: $(cat "$B_TMP/udev.out")"
[ -s "$B_TMP/udev.out" ] && b_fail "iosched-apply --udev printed: $(cat "$B_TMP/udev.out")"
[ "$(b_sched $l)" = none ] || b_fail "iosched-apply --udev switched the benchmark's disk to $(b_sched $l)"
wait $BPID
rc=$?
[ $rc = 0 ] || b_fail "the benchmark: exit $rc: $(cat "$B_TMP/err")"
grep -q 'none' "$B_TMP/out" || b_fail "no result for none: $(cat "$B_TMP/out")"
b_queue_state $l >"$B_TMP/after"
diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "state differs after the run: $(cat "$B_TMP/diff")"
echo "ok: iosched-apply --udev left the benchmark's disk alone"
# once the benchmark has ended, the rule applies again
echo none >$q/scheduler
$APPLY --config "$P" --no-builtin --udev $l >"$B_TMP/udev.out" 2>&1 || b_fail "iosched-apply --udev after the benchmark"
[ "$(b_sched $l)" = mq-deadline ] || b_fail "iosched-apply --udev after the benchmark left $(b_sched $l)"
echo "ok: and applies the policy once it has ended"

# 2. a writer that does not ask: the run it changed gives no result
start_bench
$APPLY --config "$P" --no-builtin $l >"$B_TMP/apply.out" 2>&1 ||
        b_fail "iosched-apply by hand: $(cat "$B_TMP/apply.out")"
[ "$(b_sched $l)" = mq-deadline ] || b_fail "iosched-apply by hand did not switch $l"
wait $BPID
rc=$?
[ $rc = 1 ] || b_fail "the benchmark: exit $rc, want 1 ($(cat "$B_TMP/err"))"
want="iosched-bench: $l: queue/scheduler went from \"none\" to \"mq-deadline\" during the none 1/1 run: another program changed it (a udev rule, ioschedd, TuneD?); no result is given for it"
# (1 round: the up-front lines and the warning that it cannot show a significant win come first)
[ "$(sed '1,3d' "$B_TMP/err" | grep -v '^iosched-bench: warning: ')" = "$want" ] || b_fail "the benchmark said: $(cat "$B_TMP/err")"
grep -Eq '^ *none +0 +\(no complete run\)$' "$B_TMP/out" || b_fail "a result for the changed run: $(cat "$B_TMP/out")"
b_queue_state $l >"$B_TMP/after"
diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "state differs after the run: $(cat "$B_TMP/diff")"
echo "ok: the benchmark refused the run another program switched, and restored the disk"

# 3. the same for --observe: the round gives no figures
start_bench --observe
$APPLY --config "$P" --no-builtin $l >"$B_TMP/apply.out" 2>&1 ||
        b_fail "iosched-apply by hand: $(cat "$B_TMP/apply.out")"
wait $BPID
rc=$?
[ $rc = 1 ] || b_fail "--observe: exit $rc, want 1 ($(cat "$B_TMP/err"))"
want="iosched-bench: $l: queue/scheduler went from \"none\" to \"mq-deadline\" during the none round 1/1: another program changed it (a udev rule, ioschedd, TuneD?); no result is given for it"
[ "$(sed '1,3d' "$B_TMP/err" | grep -v '^iosched-bench: warning: ')" = "$want" ] || b_fail "--observe said: $(cat "$B_TMP/err")"
b_queue_state $l >"$B_TMP/after"
diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "state differs after --observe: $(cat "$B_TMP/diff")"
echo "ok: --observe too"
echo PASS
