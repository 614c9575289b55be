#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd yields to iosched-bench.  With drift enforcement
# every 200 ms on a loop device of its own, a real iosched-bench --compare
# on that disk keeps each scheduler it switches to for the whole run (the
# daemon says once that it leaves the disk alone, with the benchmark's pid,
# and restores nothing behind its back); a policy edit during the
# benchmark is applied to the disk once the benchmark has ended (said
# once).  A lock held by a non-benchmark (util-linux flock, shared) does
# not stop the benchmark.  Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

BENCH_BIN="$top/$BUILDDIR/iosched-bench"
d_require
[ -x "$BENCH_BIN" ] || t_skip "no $BUILDDIR/iosched-bench"
t_loop L 32
grep -qw none "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no none"
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
P=$T_TMP/policy.conf
MAJMIN=$(cat "/sys/block/$L/dev")

d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
queue/iosched/read_expire=300
[Daemon]
DriftInterval=200ms"
echo none > "/sys/block/$L/queue/scheduler"
d_start --config "$P" --no-builtin
d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "$L: scheduler not set at start: $(t_sched "$L")"
d_wait 1000 d_attr_is "$L" iosched/read_expire 300 || t_fail "$L: read_expire not set at start"

# the benchmark: none then mq-deadline, 1.5 s each
"$BENCH_BIN" --filename="/dev/$L" --rw=randread --runtime=1500ms --time_based --ramp_time=0 --loops=1 \
        --compare=none,mq-deadline >"$T_TMP/bench.out" 2>"$T_TMP/bench.err" &
BPID=$!
D_EXTRA_CLEANUP="kill -TERM $BPID 2>/dev/null; wait $BPID 2>/dev/null"
# the longest stretch on "none" while the benchmark runs, sampled every 20 ms
longest=0 run=0 t0=$(d_now_ms) prev=$t0 edited=0
while kill -0 "$BPID" 2>/dev/null; do
        now=$(d_now_ms)
        if d_sched_is "$L" none; then
                run=$((run + now - prev))
                [ $run -gt $longest ] && longest=$run
        else
                run=0
        fi
        prev=$now
        # an edit of the policy half-way: reloaded, but the disk is left alone
        if [ $edited = 0 ] && [ $((now - t0)) -gt 700 ]; then
                d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
queue/iosched/read_expire=400
[Daemon]
DriftInterval=200ms"
                edited=1
        fi
        sleep 0.02
done
D_EXTRA_CLEANUP=""
wait "$BPID"
rc=$?
[ $rc = 0 ] || t_fail "iosched-bench: exit $rc: $(cat "$T_TMP/bench.err")"
grep -q 'none' "$T_TMP/bench.out" || t_fail "the benchmark printed no result for none"
echo "the disk stayed on none for $longest ms in a row under drift enforcement every 200 ms"
[ $longest -ge 1000 ] || t_fail "the daemon took the disk back from the benchmark ($longest ms on none)"
d_log_has "$L: iosched-bench (pid $BPID) is comparing schedulers on it; left alone until it ends" ||
        t_fail "the daemon did not say it leaves the disk to the benchmark"
[ "$(grep -c "comparing schedulers on it" "$D_LOG")" = 1 ] || t_fail "the yield is said more than once"
d_log_has "$L: scheduler was changed behind our back" && t_fail "the daemon restored the scheduler during the benchmark"
d_log_has "reloading the policy (policy file changed)" || t_fail "the edit was not reloaded"

# ended: the edited policy reaches the disk, said once
d_wait 3000 d_attr_is "$L" iosched/read_expire 400 || t_fail "the edit did not reach the disk after the benchmark"
d_wait 1000 d_log_has "$L: iosched-bench has ended; checking the disk against the policy" ||
        t_fail "the end of the benchmark is not said"
d_sched_is "$L" mq-deadline || t_fail "$L is on $(t_sched "$L") after the benchmark"
d_log_has "$L: queue/iosched/read_expire: 300 -> 400 ($P:5) [bench-ended]" ||
        t_fail "the change after the benchmark is not logged as such"
d_log_has "behind our back" && t_fail "what the benchmark left was taken for a change behind our back"

# a shared hold of the lock (what the daemon's question looks like) does not refuse a benchmark
flock -s "/run/iosched-bench/$MAJMIN.lock" sleep 0.05 &
"$BENCH_BIN" --filename="/dev/$L" --rw=randread --runtime=50ms --ramp_time=0 --loops=1 --compare=none \
        >/dev/null 2>"$T_TMP/bench2.err" || t_fail "a benchmark beside a shared hold: $(cat "$T_TMP/bench2.err")"
wait $!

d_stop
d_check_host_untouched
echo "PASS"
