#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: "in place" is what the kernel would show for the wanted value,
# on a loop device the test attaches.  bfq keeps slice_idle and
# fifo_expire_sync exactly (in ns): a policy asking slice_idle=4 or 0 against
# the default 8, or fifo_expire_sync=120 against 125, is written, read back
# and then compliant (a fixed 10 ms tolerance called them "ok" and never
# wrote them).  mq-deadline keeps read_expire in ticks: 250 reads back as
# the kernel's next tick, the applied line says so, and --check is then 0.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 64
q=/sys/block/$l/queue
grep -q bfq "$q/scheduler" || modprobe bfq 2>/dev/null
grep -q bfq "$q/scheduler" || t_skip "no bfq on this kernel"
pol=$T_TMP/policy.conf

for v in 4 0; do
        printf '[Match]\nName=%s\n[Set]\nScheduler=bfq\nqueue/iosched/slice_idle=%s\nqueue/iosched/fifo_expire_sync=120\n' \
                "$l" "$v" > "$pol"
        chmod 0644 "$pol"
        echo bfq > "$q/scheduler"
        echo 8 > "$q/iosched/slice_idle"
        echo 125 > "$q/iosched/fifo_expire_sync"
        out=$($APPLY --check --config "$pol" "$l"); rc=$?
        [ $rc = 1 ] || t_fail "slice_idle=$v against 8: --check exit $rc, want 1 (drift): $out"
        $APPLY --check -J --config "$pol" "$l" | grep -q '"compliant": false' || t_fail "slice_idle=$v: -J says compliant"
        out=$($APPLY --config "$pol" "$l") || t_fail "apply slice_idle=$v: exit $?: $out"
        echo "$out" | grep -q "queue/iosched/slice_idle: 8 -> $v" || t_fail "apply slice_idle=$v said: $out"
        echo "$out" | grep -q "queue/iosched/fifo_expire_sync: 125 -> 120" || t_fail "fifo_expire_sync: $out"
        [ "$(cat "$q/iosched/slice_idle")" = "$v" ] || t_fail "slice_idle is $(cat "$q/iosched/slice_idle"), want $v"
        [ "$(cat "$q/iosched/fifo_expire_sync")" = 120 ] || t_fail "fifo_expire_sync $(cat "$q/iosched/fifo_expire_sync")"
        $APPLY --check --config "$pol" "$l" >/dev/null || t_fail "slice_idle=$v: --check after apply: exit $?"
done

# read_expire is kept in ticks: whatever the kernel's HZ, what it shows is compliant, and a
# rounding is said on the applied line
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/iosched/read_expire=250\n' "$l" > "$pol"
echo mq-deadline > "$q/scheduler"
echo 500 > "$q/iosched/read_expire"
out=$($APPLY --config "$pol" "$l") || t_fail "apply read_expire=250: exit $?: $out"
now=$(cat "$q/iosched/read_expire")
echo "$out" | grep -q "queue/iosched/read_expire: 500 -> $now" || t_fail "read_expire line: $out"
if [ "$now" != 250 ]; then
        echo "$out" | grep -q "the kernel keeps 250 ms as $now, its next tick" || t_fail "rounding not said: $out"
else
        echo "$out" | grep -q "next tick" && t_fail "a rounding said where there is none: $out"
fi
$APPLY --check --config "$pol" "$l" >/dev/null || t_fail "read_expire=250 ($now): --check exit $?"
# a value that is no tick's rendering of 250 is drift
echo 280 > "$q/iosched/read_expire"
$APPLY --check --config "$pol" "$l" >/dev/null && t_fail "read_expire 280 for 250: --check says compliant"
exit 0
