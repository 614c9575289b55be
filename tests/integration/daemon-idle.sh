#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd idle with drift enforcement off: no timer is armed
# (the only timerfd, the policy-edit debounce, reads it_value (0, 0)), and over
# 5 s it wakes up only for uevents other processes cause (each wakeup logs a
# line at -v, so voluntary context switches <= new log lines).  Prints the
# idle RSS.  Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
t_loop L 16
P=$T_TMP/policy.conf
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline"

d_start --config "$P" --no-builtin -v
sleep 0.5

# every timerfd of the daemon must be disarmed
ntimers=0
for fd in /proc/"$D_PID"/fd/*; do
        [ "$(readlink "$fd")" = "anon_inode:[timerfd]" ] || continue
        ntimers=$((ntimers + 1))
        grep -q '^it_value: (0, 0)' "/proc/$D_PID/fdinfo/${fd##*/}" ||
                t_fail "a timer is armed with drift enforcement off: $(cat "/proc/$D_PID/fdinfo/${fd##*/}")"
done
[ $ntimers -le 1 ] || t_fail "$ntimers timerfds with drift enforcement off (expected the debounce timer only)"

ctxt() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$D_PID/status"; }
c0=$(ctxt)
l0=$(wc -l < "$D_LOG")
sleep 5
c1=$(ctxt)
l1=$(wc -l < "$D_LOG")
wakeups=$((c1 - c0))
lines=$((l1 - l0))
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$D_PID/status")
echo "idle 5 s: $wakeups wakeup(s), $lines log line(s) (uevents of other processes), RSS $rss kB ($BUILDDIR)"
[ $wakeups -le $lines ] || t_fail "$wakeups wakeups in 5 s idle, only $lines explained by uevents"

d_stop
d_check_host_untouched
echo "PASS"
