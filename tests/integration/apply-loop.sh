#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the policy against the real kernel, on a loop device the test
# attaches: a hand-set kyber is drift (--check exits 1 naming the device),
# apply puts the policy in place with tunables written after the switch,
# --check then exits 0, "noop" lands as "none", a value the kernel refuses
# (read back after every write) is reported with both values and its own
# exit code, a value it keeps in its own form (whole pages) is in place,
# out-of-range values are refused when the policy is read, and a read-only /sys gets its own exit code.
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
echo "$out" | grep -qx "$l: scheduler kyber, want mq-deadline: drift" || t_fail "--check output: $out"
echo "$out" | grep -qx "$l: queue/iosched/read_expire (not known until the scheduler switch), want 300: drift" ||
        t_fail "--check output for a file the switch creates: $out"

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

# a value the kernel refuses: --dry-run says so first with apply's exit and
# words; apply exits 3 with one clear line and writes nothing on the disk
# (blk-sysfs: max_sectors_kb below one page is EINVAL)
ra0=$(cat "$q/read_ahead_kb")
s0=$(t_sched "$l")
want=mq-deadline
[ "$s0" = mq-deadline ] && want=none
printf '[Match]\nName=%s\n[Set]\nScheduler=%s\nqueue/max_sectors_kb=1\nqueue/read_ahead_kb=%s\n' \
        "$l" "$want" $((ra0 + 128)) > "$pol"
page_kb=$(($(getconf PAGESIZE) / 1024))
msg="iosched-apply: $l: cannot set queue/max_sectors_kb to \"1\": value refused by the kernel: at least $page_kb (a page) ($pol:5)"
out=$($APPLY --dry-run --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 3 ] || t_fail "refused write, --dry-run: exit $rc, want 3 ($out)"
echo "$out" | grep -qF "$msg" || t_fail "refused write, --dry-run message: $out"
out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 3 ] || t_fail "refused write: exit $rc, want 3 ($out)"
echo "$out" | grep -qF "$msg" || t_fail "refused write message: $out"
[ "$(cat "$q/read_ahead_kb")" = "$ra0" ] || t_fail "read_ahead_kb written beside a refused value"
[ "$(t_sched "$l")" = "$s0" ] || t_fail "scheduler switched beside a refused value: $(t_sched "$l")"
# nr_requests beyond the tag set's depth under none: refused before the switch
depth=$(cat /sys/block/$l/mq/0/nr_tags 2>/dev/null)
if [ -n "$depth" ] && grep -qw none "$q/scheduler"; then
        printf '[Match]\nName=%s\n[Set]\nScheduler=none\nqueue/nr_requests=%s\n' "$l" $((depth * 8)) > "$pol"
        out=$($APPLY --dry-run --config "$pol" "$l" 2>&1); rc=$?
        [ $rc = 3 ] || t_fail "nr_requests past the tag depth, --dry-run: exit $rc, want 3 ($out)"
        out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
        [ $rc = 3 ] || t_fail "nr_requests past the tag depth: exit $rc, want 3 ($out)"
        echo "$out" | grep -qF "value refused by the kernel: at most $depth without a scheduler" ||
                t_fail "nr_requests past the tag depth: message: $out"
        [ "$(t_sched "$l")" = "$s0" ] || t_fail "switched to none beside a refused nr_requests: $(t_sched "$l")"
fi

# every write is read back; a value the kernel keeps in a form of its own is in
# place, said once with the rule (read_ahead_kb in whole pages: 5 KiB is 4;
# nr_requests below 4 is 4; wbt_lat_usec -1 is the device's default), exit 0,
# and --check calls it compliant (issue 37)
if [ "$(getconf PAGESIZE)" = 4096 ]; then
        printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/nr_requests=2\nqueue/read_ahead_kb=5\nqueue/iosched/fifo_batch=3\nqueue/wbt_lat_usec=-1\n' \
                "$l" > "$pol"
        echo 20000 >"$q/wbt_lat_usec" 2>/dev/null || true
        out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
        [ $rc = 0 ] || t_fail "a value kept in the kernel's form: exit $rc, want 0 ($out)"
        echo "$out" | grep -qx "$l: queue/read_ahead_kb: .* -> 4 ($pol:6); kept as 4: whole pages" ||
                t_fail "read_ahead_kb=5: $out"
        echo "$out" | grep -qx "$l: queue/nr_requests: .* -> 4 ($pol:5); kept as 4: the kernel's minimum" ||
                t_fail "nr_requests=2: $out"
        if [ -e "$q/wbt_lat_usec" ]; then
                echo "$out" | grep -qx "$l: queue/wbt_lat_usec: 20000 -> [0-9]* ($pol:8); kept as [0-9]*: the device's default" ||
                        t_fail "wbt_lat_usec=-1: $out"
        fi
        [ "$(cat "$q/iosched/fifo_batch")" = 3 ] || t_fail "the settings after them were not applied"
        $APPLY --check --config "$pol" "$l" >/dev/null; rc=$?
        [ $rc = 0 ] || t_fail "--check after apply: exit $rc, want 0"
        out=$($APPLY -J --config "$pol" "$l" 2>/dev/null)
        echo "$out" | grep -q '"key": "queue/read_ahead_kb", "before": "4", "wanted": "5", "after": null' ||
                t_fail "JSON: $out"
        # -1 is the default of the disk's rotational flag: the other default is drift, and apply
        # writes -1 again (before: either default was in place)
        if [ -e "$q/wbt_lat_usec" ]; then
                if [ "$(cat "$q/rotational")" = 1 ]; then def=75000 other=2000; else def=2000 other=75000; fi
                echo $other >"$q/wbt_lat_usec"
                $APPLY --check --config "$pol" "$l" >/dev/null; rc=$?
                [ $rc = 1 ] || t_fail "--check with wbt_lat_usec $other for -1 where the default is $def: exit $rc"
                out=$($APPLY --config "$pol" "$l" 2>&1) && [ "$(cat "$q/wbt_lat_usec")" = $def ] ||
                        t_fail "wbt_lat_usec=-1 over $other: $(cat "$q/wbt_lat_usec") after: $out"
                $APPLY --check --config "$pol" "$l" >/dev/null || t_fail "--check after wbt_lat_usec=-1: exit $?"
        fi
        # another value is still drift: 8 KiB is not what 5 KiB becomes
        echo 8 >"$q/read_ahead_kb"
        $APPLY --check --config "$pol" "$l" >/dev/null; rc=$?
        [ $rc = 1 ] || t_fail "--check with read_ahead_kb 8 for 5: exit $rc, want 1"
fi
# io_timeout is kept in ticks (msecs_to_jiffies): 30001 ms is in place as
# whatever the kernel's tick makes of it (30004 at HZ=250), apply exit 0,
# --check 0, and once written a second apply writes nothing
if [ -e "$q/io_timeout" ]; then
        printf '[Match]\nName=%s\n[Set]\nqueue/io_timeout=30001\n' "$l" > "$pol"
        out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
        [ $rc = 0 ] || t_fail "io_timeout=30001: exit $rc, want 0 ($out)"
        $APPLY --check --config "$pol" "$l" >/dev/null; rc=$?
        [ $rc = 0 ] || t_fail "io_timeout=30001: --check exit $rc, want 0 (kernel shows $(cat "$q/io_timeout"))"
        out=$($APPLY --config "$pol" "$l" 2>&1)
        [ -z "$out" ] || t_fail "io_timeout=30001: a second apply wrote again: $out"
fi

# a read-only /sys (as in a container): exit 5, one line; what the failed
# write kept from being reached is "not applied" with the reason (never
# "would set"), and -q silences that
if command -v unshare >/dev/null; then
        printf '[Match]\nName=%s\n[Set]\nScheduler=none\nqueue/read_ahead_kb=128\n' "$l" > "$pol"
        for q_opt in "" -q; do
                out=$(unshare -m --propagation private sh -c \
                        "mount -o remount,bind,ro /sys 2>/dev/null || mount --bind -o ro /sys /sys || exit 99; $APPLY $q_opt --config '$pol' '$l'" 2>&1)
                rc=$?
                [ $rc = 99 ] && break
                [ $rc = 5 ] || t_fail "read-only /sys: exit $rc, want 5 ($out)"
                echo "$out" | grep -q "$l: cannot set scheduler \"none\": /sys is read-only" || t_fail "ro message: $out"
                echo "$out" | grep -q "would set" && t_fail "a real run printed dry-run wording: $out"
                if [ -z "$q_opt" ]; then
                        echo "$out" | grep -qx "iosched-apply: $l: queue/read_ahead_kb: not applied: /sys is read-only (container?)" ||
                                t_fail "not-applied line: $out"
                else
                        [ "$(echo "$out" | wc -l)" = 1 ] || t_fail "-q printed more than the failure: $out"
                fi
                [ "$(t_sched "$l")" = mq-deadline ] || t_fail "changed through a read-only /sys?"
        done
fi

# a config error: file:line, exit 2, nothing of that file applied, the disk held
printf '[Match]\nName=%s\n[Set]\nScheduler=none\nqueue/bogus=1\n' "$l" > "$pol"
out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "config error: exit $rc"
echo "$out" | grep -q "$pol:5: unknown queue tunable \"queue/bogus\"; held: $l keeps every setting" ||
        t_fail "config error message: $out"
[ "$(t_sched "$l")" = mq-deadline ] || t_fail "half-applied a broken config"
# values out of their range are refused when the policy is read, with file:line
for kv in queue/iosched/read_expire=-5 queue/iosched/fifo_batch=-1 queue/nr_requests=0 \
          queue/read_ahead_kb=99999999999999999999; do
        printf '[Match]\nName=%s\n[Set]\nScheduler=none\n%s\n' "$l" "$kv" > "$pol"
        out=$($APPLY --check --config "$pol" "$l" 2>&1); rc=$?
        [ $rc = 2 ] || t_fail "$kv: --check exit $rc, want 2"
        echo "$out" | grep -q "$pol:5: ${kv%%=*}=.* is out of range" || t_fail "$kv: $out"
done
[ "$(t_sched "$l")" = mq-deadline ] || t_fail "an out-of-range file was applied"

# a group-writable config is refused
printf '[Match]\nName=%s\n[Set]\nScheduler=none\n' "$l" > "$pol"
chmod 0664 "$pol"
out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "group-writable config: exit $rc"
echo "$out" | grep -q "writable by group or others" || t_fail "mode message: $out"
echo ok
