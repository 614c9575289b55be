#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd reads back every write, on a loop device of its own:
# a value the kernel stores differently (nr_requests below 4 becomes 4,
# read_ahead_kb is kept in whole pages) is logged once with both values,
# and the drift check (every 100 ms here) neither "restores" it again and
# again nor logs it again, while the settings the kernel keeps are still
# enforced; a reload says it once more.  Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
[ "$(getconf PAGESIZE)" = 4096 ] || t_skip "page size is not 4 KiB"
t_loop L 16
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
P=$T_TMP/policy.conf
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
queue/nr_requests=2
queue/read_ahead_kb=5
queue/iosched/fifo_batch=3
[Daemon]
DriftInterval=100ms"

echo none > "/sys/block/$L/queue/scheduler"
d_start --config "$P" --no-builtin
d_wait 1000 d_attr_is "$L" iosched/fifo_batch 3 || t_fail "fifo_batch not set at start"
d_log_has "$L: queue/nr_requests: kernel stored \"4\", not \"2\"" || t_fail "nr_requests read-back not logged: $(cat "$D_LOG")"
d_log_has "$L: queue/read_ahead_kb: kernel stored \"4\", not \"5\"" || t_fail "read_ahead_kb read-back not logged"
sleep 1.2       # about ten drift checks
n=$(grep -c "queue/read_ahead_kb" "$D_LOG")
[ "$n" = 1 ] || t_fail "the refused value was logged $n times in 1.2 s of drift checks: $(cat "$D_LOG")"
grep -q "read_ahead_kb was changed behind our back" "$D_LOG" && t_fail "the drift check tried to restore a refused value"
# what the kernel keeps is still enforced
echo 9 > "/sys/block/$L/queue/iosched/fifo_batch"
d_wait 1000 d_attr_is "$L" iosched/fifo_batch 3 || t_fail "drift enforcement stopped for the other settings"
kill -HUP "$D_PID"
d_wait 2000 eval '[ "$(grep -c "queue/read_ahead_kb: kernel stored" "$D_LOG")" = 2 ]' ||
        t_fail "after a reload the refused value is not said once more: $(grep read_ahead "$D_LOG")"
d_stop
d_check_host_untouched
echo "PASS"
