#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd on a loop device of its own: the policy is applied at
# start; with [Daemon] DriftInterval=200ms a scheduler or tunable changed by
# hand is put back within a second and logged (device, key, found, wanted);
# an edit of the policy file is picked up by inotify; DriftInterval=off stops
# enforcement; SIGHUP re-applies; a broken edit changes nothing and is logged;
# SIGTERM exits 0.  Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
t_loop L 16
grep -qw kyber "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no kyber"
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
P=$T_TMP/policy.conf

# multiples of 100 ms: mq-deadline keeps expiries in jiffies, and 100 ms is a
# whole number of jiffies for HZ 100, 250, 300 and 1000
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
queue/iosched/read_expire=300
[Daemon]
DriftInterval=200ms"

echo none > "/sys/block/$L/queue/scheduler"     # a reused loop device keeps its last one
d_start --config "$P" --no-builtin
d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "$L: scheduler not set at start: $(t_sched "$L")"
d_wait 1000 d_attr_is "$L" iosched/read_expire 300 || t_fail "$L: read_expire not set at start"
d_log_has "$L: scheduler: " || t_fail "the start change is not logged"
echo "start: $L is on mq-deadline, read_expire 300"

# 1. somebody else switches the scheduler
echo kyber > "/sys/block/$L/queue/scheduler" || t_fail "cannot set kyber by hand"
t0=$(d_now_ms)
d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "$L: scheduler not restored within 1 s"
echo "drift: scheduler restored after $(( $(d_now_ms) - t0 )) ms"
d_wait 1000 d_attr_is "$L" iosched/read_expire 300 || t_fail "$L: read_expire not restored after the switch"
d_wait 1000 d_log_has "$L: scheduler was changed behind our back: found 'kyber', policy wants 'mq-deadline'" ||
        t_fail "the scheduler drift is not logged with device, key, found and wanted value"

# 2. somebody else changes a tunable
echo 500 > "/sys/block/$L/queue/iosched/read_expire" || t_fail "cannot set read_expire by hand"
d_wait 1000 d_attr_is "$L" iosched/read_expire 300 || t_fail "$L: read_expire not restored within 1 s"
d_wait 1000 d_log_has "$L: queue/iosched/read_expire was changed behind our back: found '500', policy wants '300'" ||
        t_fail "the tunable drift is not logged"

# 3. a policy edit is noticed without a signal (inotify), and drift goes off
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
queue/iosched/read_expire=400
[Daemon]
DriftInterval=off"
d_wait 2000 d_attr_is "$L" iosched/read_expire 400 || t_fail "the edited policy was not applied"
d_log_has "reloading the policy (policy file changed)" || t_fail "the reload is not logged"
d_wait 1000 d_log_has "drift enforcement off" || t_fail "DriftInterval=off did not turn enforcement off"

# 4. with drift off a change by hand stays ...
echo kyber > "/sys/block/$L/queue/scheduler"
sleep 0.6
d_sched_is "$L" kyber || t_fail "drift enforcement still on after DriftInterval=off"
# ... until SIGHUP re-applies the policy
kill -HUP "$D_PID"
d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "SIGHUP did not re-apply the policy"
d_wait 1000 d_attr_is "$L" iosched/read_expire 400 || t_fail "SIGHUP did not re-apply the tunable"
d_log_has "reloading the policy (SIGHUP)" || t_fail "the SIGHUP reload is not logged"

# 5. a broken edit is reported with file:line, nothing of it is applied
#    (its valid Scheduler= line is not used: the policy in force is kept)
#    and the daemon runs on
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=bfq none
NoSuchKey=1"
d_wait 2000 d_log_has "policy error: $P:5: unknown key" || t_fail "the policy error does not name file:line"
d_log_has "keeping the policy in force" || t_fail "keeping the policy in force is not said"
kill -0 "$D_PID" || t_fail "ioschedd died on a broken policy"
kill -HUP "$D_PID"
sleep 0.3
d_sched_is "$L" mq-deadline || t_fail "the broken file was half-applied: $(t_sched "$L")"

d_stop
d_check_host_untouched
echo "PASS"
