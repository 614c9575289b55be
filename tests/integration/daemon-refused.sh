#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd reads back every write, on a loop device of its own:
# a value the kernel keeps in a form of its own (nr_requests below 4 becomes
# 4, read_ahead_kb is kept in whole pages) is logged once with the rule
# ("kept as 4: whole pages"), and the drift check (every 100 ms here)
# neither "restores" it again and again nor logs it again, while a value
# changed behind its back (8 for 5, 9 for fifo_batch=3) is still put back.
# Exit 0 pass, 77 skip, 1 fail.
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
d_wait 1000 d_attr_is "$L" read_ahead_kb 4 || t_fail "read_ahead_kb=5 not in place as 4"
grep -q "$L: queue/nr_requests: .* -> 4 (.*); kept as 4: the kernel.s minimum" "$D_LOG" ||
        t_fail "nr_requests not logged with its rule: $(cat "$D_LOG")"
grep -q "$L: queue/read_ahead_kb: .* -> 4 (.*); kept as 4: whole pages" "$D_LOG" || t_fail "read_ahead_kb not logged with its rule"
sleep 1.2       # about ten drift checks
n=$(grep -c "queue/read_ahead_kb" "$D_LOG")
[ "$n" = 1 ] || t_fail "the kept value was logged $n times in 1.2 s of drift checks: $(cat "$D_LOG")"
grep -q "read_ahead_kb was changed behind our back" "$D_LOG" && t_fail "the drift check restored a value in place"
# what was changed behind its back is put back, the kept value as the kernel keeps it
echo 9 > "/sys/block/$L/queue/iosched/fifo_batch"
d_wait 1000 d_attr_is "$L" iosched/fifo_batch 3 || t_fail "drift enforcement stopped for the other settings"
echo 8 > "/sys/block/$L/queue/read_ahead_kb"
d_wait 1000 d_attr_is "$L" read_ahead_kb 4 || t_fail "read_ahead_kb 8 for 5 was not put back"
d_stop
d_check_host_untouched
echo "PASS"
