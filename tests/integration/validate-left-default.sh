#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: `iosched-apply validate` with the real iosched-bench, on a
# loop device the test attaches, of a policy whose tunable one candidate
# scheduler refuses: queue/nr_requests=1024 is fine under mq-deadline (at
# most 2048 with a scheduler) and beyond the tag depth under none.  The
# none rounds run with nr_requests at none's default and the verdict says
# so (text and -J); the mq-deadline rounds run with 1024; the disk is as
# found afterwards.  On the old code every candidate got the policy's value
# and the run stopped: "cannot switch to none: ... value refused by the
# kernel", no verdict.
. "$(dirname "$0")/lib.sh"
t_require_root
[ -x "$top/$BUILDDIR/iosched-bench" ] || t_skip "no iosched-bench built"
unset IOSCHED_BENCH

t_loop l 64
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
tags=$(cat "/sys/block/$l/mq/0/nr_tags" 2>/dev/null) || t_skip "no mq/0/nr_tags"
[ "$tags" -lt 1024 ] || t_skip "the loop device's tag depth $tags takes 1024 under none"
echo none > "$q/scheduler"
before=$(cat "$q/scheduler" "$q/nr_requests")

root=$T_TMP/root
mkdir -p "$root/etc/iosched.d"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/nr_requests=1024\n' "$l" \
        > "$root/etc/iosched.d/50-loop.conf"
chmod 0644 "$root/etc/iosched.d/50-loop.conf"

# nr_requests looked at while it runs: 1024 under mq-deadline, never under none
$APPLY validate --config-root "$root" "$l" -- --rw=randread --runtime=300ms --time_based --ramp_time=0 \
        --loops=2 --eta=never > "$T_TMP/out" 2> "$T_TMP/err" &
pid=$!
: > "$T_TMP/seen"
while kill -0 $pid 2>/dev/null; do
        printf '%s %s\n' "$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")" "$(cat "$q/nr_requests")" >> "$T_TMP/seen"
        sleep 0.02
done
wait $pid
rc=$?
out=$(cat "$T_TMP/out" "$T_TMP/err")
[ $rc = 0 ] || [ $rc = 1 ] || t_fail "validate exit $rc: $out"
grep -q "^$l: the policy's mq-deadline: " "$T_TMP/out" || t_fail "no verdict: $out"
grep -qx "  none ran with queue/nr_requests at its default: the kernel refuses the policy's 1024 there: at most $tags without a scheduler.*" \
        "$T_TMP/out" || t_fail "the refused value not said: $out"
grep -qx "mq-deadline 1024" "$T_TMP/seen" || t_fail "mq-deadline never ran with 1024: $(sort -u "$T_TMP/seen")"
grep -q "^none 1024" "$T_TMP/seen" && t_fail "none got 1024: $(sort -u "$T_TMP/seen")"
[ "$before" = "$(cat "$q/scheduler" "$q/nr_requests")" ] || t_fail "not restored: [$before] [$(cat "$q/scheduler" "$q/nr_requests")]"

# -J: the same, as left_at_default
out=$($APPLY validate -J --config-root "$root" "$l" -- --rw=randread --runtime=200ms --time_based --ramp_time=0 \
        --loops=2 --eta=never 2>/dev/null)
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || t_fail "-J: exit $rc: $out"
echo "$out" | grep -q '"left_at_default": \[{"scheduler": "none", "key": "queue/nr_requests", "value": "1024", "why": "at most ' ||
        t_fail "-J: no left_at_default: $out"
[ "$before" = "$(cat "$q/scheduler" "$q/nr_requests")" ] || t_fail "-J: not restored"
echo ok
