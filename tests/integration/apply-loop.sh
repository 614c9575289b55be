#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the policy against the real kernel, on a loop device the test
# attaches: a hand-set kyber is drift (--check exits 1 naming the device),
# apply puts the policy in place with tunables written after the switch,
# --check then exits 0, "noop" lands as "none", a value the kernel refuses
# is reported with its own exit code, and a read-only /sys gets its own.
# Every call names the test's device: the host's disks are never touched.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 64
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
grep -q kyber "$q/scheduler" || modprobe kyber-iosched 2>/dev/null
grep -q kyber "$q/scheduler" || t_skip "no kyber on this kernel"

pol=$T_TMP/policy.conf
cat > "$pol" <<EOP
[Match]
Name=$l
[Set]
Scheduler=deadline
queue/nr_requests=32
queue/read_ahead_kb=512
queue/iosched/read_expire=300
queue/iosched/fifo_batch=1
EOP
chmod 0644 "$pol"

echo kyber > "$q/scheduler"
out=$($APPLY --check --config "$pol" "$l"); rc=$?
[ $rc = 1 ] || t_fail "--check after a hand-set kyber: exit $rc, want 1"
echo "$out" | grep -q "^$l scheduler kyber mq-deadline$" || t_fail "--check output: $out"

# --dry-run changes nothing
$APPLY --dry-run --config "$pol" "$l" | grep -q "would set scheduler: kyber -> mq-deadline" || t_fail "dry-run"
[ "$(t_sched "$l")" = kyber ] || t_fail "--dry-run changed the scheduler"

$APPLY --config "$pol" "$l" || t_fail "apply: exit $?"
[ "$(t_sched "$l")" = mq-deadline ] || t_fail "scheduler $(t_sched "$l") after apply"
[ "$(cat "$q/iosched/read_expire")" = 300 ] || t_fail "read_expire $(cat "$q/iosched/read_expire")"
[ "$(cat "$q/iosched/fifo_batch")" = 1 ] || t_fail "fifo_batch"
[ "$(cat "$q/nr_requests")" = 32 ] || t_fail "nr_requests $(cat "$q/nr_requests")"
[ "$(cat "$q/read_ahead_kb")" = 512 ] || t_fail "read_ahead_kb"

$APPLY --check --config "$pol" "$l" || t_fail "--check after apply: exit $?"
$APPLY --check -J --config "$pol" "$l" | grep -q '"compliant": true' || t_fail "JSON check"

# a second apply is a no-op and prints nothing
out=$($APPLY --config "$pol" "$l") || t_fail "re-apply"
[ -z "$out" ] || t_fail "re-apply printed: $out"

# legacy name in a policy: noop lands as none
printf '[Match]\nName=%s\n[Set]\nScheduler=noop\n' "$l" > "$pol"
$APPLY -q --config "$pol" "$l" || t_fail "apply noop: exit $?"
[ "$(t_sched "$l")" = none ] || t_fail "noop landed as $(t_sched "$l")"

# a value the kernel refuses: exit 3, one clear line, the rest still applied
# (blk-sysfs: wbt_lat_usec below -1 is EINVAL)
[ -e "$q/wbt_lat_usec" ] || t_skip "no queue/wbt_lat_usec on this kernel"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/wbt_lat_usec=-5\nqueue/read_ahead_kb=256\n' \
        "$l" > "$pol"
out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 3 ] || t_fail "refused write: exit $rc, want 3 ($out)"
echo "$out" | grep -q "iosched-apply: $l: cannot set queue/wbt_lat_usec to \"-5\": value refused by the kernel" ||
        t_fail "refused write message: $out"
[ "$(cat "$q/read_ahead_kb")" = 256 ] || t_fail "other settings not applied after a refusal"
[ "$(t_sched "$l")" = mq-deadline ] || t_fail "scheduler not applied after a refusal"

# a read-only /sys (as in a container): exit 5, one line
if command -v unshare >/dev/null; then
        printf '[Match]\nName=%s\n[Set]\nScheduler=none\n' "$l" > "$pol"
        out=$(unshare -m --propagation private sh -c \
                "mount -o remount,bind,ro /sys 2>/dev/null || mount --bind -o ro /sys /sys || exit 99; $APPLY --config '$pol' '$l'" 2>&1)
        rc=$?
        if [ $rc != 99 ]; then
                [ $rc = 5 ] || t_fail "read-only /sys: exit $rc, want 5 ($out)"
                echo "$out" | grep -q "$l: cannot set scheduler \"none\": /sys is read-only" || t_fail "ro message: $out"
                [ "$(t_sched "$l")" = mq-deadline ] || t_fail "changed through a read-only /sys?"
        fi
fi

# a config error: file:line, exit 2, nothing applied
printf '[Match]\nName=%s\n[Set]\nScheduler=none\nqueue/bogus=1\n' "$l" > "$pol"
out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "config error: exit $rc"
echo "$out" | grep -q "$pol:5: unknown queue tunable \"queue/bogus\"" || t_fail "config error message: $out"
[ "$(t_sched "$l")" = mq-deadline ] || t_fail "half-applied a broken config"

# a group-writable config is refused
printf '[Match]\nName=%s\n[Set]\nScheduler=none\n' "$l" > "$pol"
chmod 0664 "$pol"
out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "group-writable config: exit $rc"
echo "$out" | grep -q "writable by group or others" || t_fail "mode message: $out"
echo ok
