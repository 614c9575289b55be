#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: hotplug: while ioschedd runs, a NEW loop device is created and
# attached (real "add" and "change" uevents); the policy, which matches only
# that device's name, is in force within a second.  Then an event storm on the
# device (SIGSTOP, thousands of synthetic "change" uevents, SIGCONT) is
# coalesced into a few batches, with bounded memory.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
command -v perl >/dev/null || t_skip "no perl (needed to remove the loop device again)"
[ -e /dev/loop-control ] || t_skip "no /dev/loop-control"

n=$(d_free_loop_number)
L=loop$n
P=$T_TMP/policy.conf
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=kyber mq-deadline"

d_start --config "$P" --no-builtin -v
grep -q "listening to .* block/disk events" "$D_LOG" || t_fail "ioschedd does not listen to uevents"
monitor=$(sed -n 's/.*ready (monitor \([a-z]*\).*/\1/p' "$D_LOG")

f=$(mktemp "$T_TMP/backing-XXXXXX")
truncate -s 16M "$f"
t0=$(d_now_ms)
D_NEW_LOOPS="$n"
losetup "/dev/$L" "$f" || t_skip "cannot create /dev/$L"
T_LOOPS="$T_LOOPS $L"
d_wait 1000 d_sched_is "$L" kyber || {
        d_sched_is "$L" mq-deadline || t_fail "$L: policy not applied within 1 s of hotplug: $(t_sched "$L")"
}
ms=$(( $(d_now_ms) - t0 ))
d_log_has "$L: scheduler: " || t_fail "the hotplug change is not logged"
echo "hotplug: $L got its policy $ms ms after losetup (monitor $monitor)"

# event storm: the daemon is stopped while 3000 uevents queue up, then it must
# read them all and handle the disk in a few batches
want=$(t_sched "$L")
rss0=$(awk '/^VmRSS/ { print $2 }' "/proc/$D_PID/status")
lines0=$(wc -l < "$D_LOG")
echo none > "/sys/block/$L/queue/scheduler"
kill -STOP "$D_PID"
i=0
while [ $i -lt 3000 ]; do
        echo change > "/sys/block/$L/uevent"
        i=$((i + 1))
done
kill -CONT "$D_PID"
d_wait 5000 d_sched_is "$L" "$want" || t_fail "$L: policy not re-applied after the storm"
sleep 0.5
# the passes that handled this device: batches with one of its uevents since
# the previous batch (other programs' loop devices on a shared machine have
# batches of their own in the same seconds, the more the slower the daemon
# runs, e.g. under valgrind: they are not this storm's)
batches=$(awk -v l0="$lines0" -v dev="$L" 'NR > l0 {
        if (index($0, "uevent ") && index($0, " " dev " (")) mine = 1
        if (index($0, "batch: ")) { if (mine) n++; mine = 0 } } END { print n + 0 }' "$D_LOG")
events=$(sed -n 's/.*; \([0-9]*\) uevent(s) since start/\1/p' "$D_LOG" | tail -n 1)
rss1=$(awk '/^VmRSS/ { print $2 }' "/proc/$D_PID/status")
echo "storm: 3000 uevents written, $events received in all, handled in $batches batch(es); RSS $rss0 -> $rss1 kB"
[ "$batches" -ge 1 ] && [ "$batches" -le 10 ] || t_fail "the storm was not coalesced ($batches batches)"
# (under AddressSanitizer freed memory sits in its quarantine: no bound there)
if ldd "$top/$BUILDDIR/ioschedd" 2>/dev/null | grep -q libasan; then
        echo "ASan build: RSS bound not checked"
elif [ -n "${IOS_VALGRIND:-}" ]; then
        echo "under valgrind the RSS is valgrind's (shadow memory, translations): bound not checked"
else
        [ $((rss1 - rss0)) -lt 4096 ] || t_fail "RSS grew by $((rss1 - rss0)) kB in the storm"
fi
kill -0 "$D_PID" || t_fail "ioschedd died in the storm"

d_stop
d_check_host_untouched
echo "PASS"
