#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: `iosched-apply validate` on a loop device the test attaches:
# the current scheduler is measured against the policy's, the policy's
# tunables are written for the policy's scheduler only, and afterwards the
# disk is exactly as it was found (scheduler and queue tunables).  Without a
# job after "--" it measures a reader under a deep reader, every job shown.
. "$(dirname "$0")/lib.sh"
t_require_root
[ -x "$top/$BUILDDIR/iosched-bench" ] || t_skip "no iosched-bench built"

t_loop l 128
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
echo none > "$q/scheduler"
echo 2560 > "$q/read_ahead_kb"
before=$(cat "$q/scheduler" "$q/read_ahead_kb" "$q/nr_requests")

pol=$T_TMP/policy.conf
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/iosched/fifo_batch=4\nqueue/read_ahead_kb=64\n' "$l" > "$pol"
chmod 0644 "$pol"

out=$($APPLY validate --config "$pol" "$l" -- --rw=randread --runtime=300ms --ramp_time=0 --loops=1 --eta=never 2>&1)
rc=$?
[ $rc = 0 ] || t_fail "validate exit $rc: $out"
echo "$out" | grep -q "current scheduler none against the policy's mq-deadline" || t_fail "no plan line: $out"
echo "$out" | grep -q "^  mq-deadline" || t_fail "mq-deadline not measured: $out"
echo "$out" | grep -q "^  none" || t_fail "none not measured: $out"
echo "$out" | grep -q "restored $l" || t_fail "no restore line: $out"
after=$(cat "$q/scheduler" "$q/read_ahead_kb" "$q/nr_requests")
[ "$before" = "$after" ] || t_fail "not restored: before [$before] after [$after]"

# with no job after "--", a workload that separates schedulers: a reader under a deep reader, every
# job shown per scheduler, judged on the reader's p99; 2 rounds are too few for the test: a warning first
out=$($APPLY validate --config "$pol" "$l" -- --runtime=300ms --ramp_time=0 --loops=2 --eta=never 2>&1)
rc=$?
[ $rc = 0 ] || t_fail "bare validate exit $rc: $out"
echo "$out" | grep -q "objective reader:p99" || t_fail "bare validate: not judged on the reader: $out"
echo "$out" | grep -q "job reader .*IOPS" || t_fail "bare validate: no reader row: $out"
echo "$out" | grep -q "job streamer .*IOPS" || t_fail "bare validate: no streamer row: $out"
echo "$out" | grep -q "warning: 2 rounds per variant cannot show a significant win" || t_fail "no rounds warning: $out"
after=$(cat "$q/scheduler" "$q/read_ahead_kb" "$q/nr_requests")
[ "$before" = "$after" ] || t_fail "bare validate: not restored: before [$before] after [$after]"

# a bio-based or unknown device is refused with one line
out=$($APPLY validate nosuchdisk9 2>&1); rc=$?
[ $rc = 2 ] || t_fail "unknown device exit $rc"
echo ok
