#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: after a kill -9 of iosched-bench, ioschedd puts the policy
# back.  ioschedd runs with a policy that sets mq-deadline on a loop device
# of the test's own, without drift enforcement (so only an event can make
# it look at the disk again); a --compare=none on that disk is killed with
# SIGKILL in its round, the disk left on none; the guard's "change" uevent
# makes ioschedd apply the policy, and the disk is on mq-deadline again
# (waited for up to 60 s, as is the guard's line, which it writes after
# its restore: no order between the two is assumed).  Exit 0 pass, 77
# skip, 1 fail.
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
lock=/run/iosched-bench/$(cat "/sys/block/$L/dev").lock

d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline"
echo none > "/sys/block/$L/queue/scheduler"
d_start --config "$P" --no-builtin
d_wait 2000 d_sched_is "$L" mq-deadline || t_fail "$L: scheduler not set at start: $(t_sched "$L")"

"$BENCH_BIN" --filename="/dev/$L" --rw=randread --runtime=8 --time_based --ramp_time=0 --loops=1 --compare=none \
        >"$T_TMP/bench.out" 2>"$T_TMP/bench.err" &
BPID=$!
D_EXTRA_CLEANUP="kill -KILL $BPID 2>/dev/null; wait $BPID 2>/dev/null"
lock_held() { ! flock -n -s "$lock" true; }
d_wait 10000 lock_held || t_fail "the benchmark never took the lock: $(cat "$T_TMP/bench.err")"
d_wait 10000 d_sched_is "$L" none || t_fail "the benchmark never switched to none"
sleep 1
d_sched_is "$L" none || t_fail "the daemon took the disk from the benchmark: $(t_sched "$L")"
kill -9 $BPID
wait $BPID 2>/dev/null
D_EXTRA_CLEANUP=""
d_wait 60000 d_sched_is "$L" mq-deadline ||
        t_fail "$L is on $(t_sched "$L") 60 s after the benchmark was killed: $(cat "$T_TMP/bench.err")"
guard_said() { grep -q "guard: iosched-bench ended without its cleanup" "$T_TMP/bench.err"; }
d_wait 60000 guard_said || t_fail "the guard said nothing: $(cat "$T_TMP/bench.err")"
d_stop
d_check_host_untouched
echo "PASS"
