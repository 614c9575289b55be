#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: `iosched-apply validate` with the real iosched-bench on a
# loop device the test attaches, the policy in a --config-root of its own
# (the built-in policy leaves loop devices alone): the current scheduler is
# measured against the policy's, the bench runs with the policy's tunables
# (its read_ahead_kb is in force during the run), the verdict line names
# the policy's scheduler and the exit status goes with it (0 best or within
# the noise, 1 beaten), -J says the same, and afterwards the disk is
# exactly as it was found.  A job naming another loop device is refused
# (exit 3) before anything is switched: neither device changes.  Without a
# job after "--" it measures a reader under a deep reader.
# Needs iosched-bench's --target-device and vs_best (issue 27).
. "$(dirname "$0")/lib.sh"
t_require_root
[ -x "$top/$BUILDDIR/iosched-bench" ] || t_skip "no iosched-bench built"
unset IOSCHED_BENCH

t_loop l 128
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
echo none > "$q/scheduler"
echo 2560 > "$q/read_ahead_kb"
before=$(cat "$q/scheduler" "$q/read_ahead_kb" "$q/nr_requests")

root=$T_TMP/root
mkdir -p "$root/etc/iosched.d"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/iosched/fifo_batch=4\nqueue/read_ahead_kb=1236\n' "$l" \
        > "$root/etc/iosched.d/50-loop.conf"
chmod 0644 "$root/etc/iosched.d/50-loop.conf"

# the run in the background; read_ahead_kb looked at while it runs
$APPLY validate --config-root "$root" "$l" -- --rw=randread --runtime=400ms --time_based --ramp_time=0 --loops=3 --eta=never \
        > "$T_TMP/out" 2> "$T_TMP/err" &
pid=$!
: > "$T_TMP/seen"
while kill -0 $pid 2>/dev/null; do
        cat "$q/read_ahead_kb" >> "$T_TMP/seen"
        sleep 0.05
done
wait $pid
rc=$?
out=$(cat "$T_TMP/out" "$T_TMP/err")
[ $rc = 0 ] || [ $rc = 1 ] || t_fail "validate exit $rc: $out"
grep -q "current scheduler none against the policy's mq-deadline" "$T_TMP/err" || t_fail "no plan line: $out"
grep -qx 1236 "$T_TMP/seen" || t_fail "the policy's read_ahead_kb=1236 (--config-root) was never in force: $(sort -u "$T_TMP/seen")"
grep -q "^  mq-deadline .*the policy's" "$T_TMP/out" || t_fail "mq-deadline not measured: $out"
grep -q "^  none " "$T_TMP/out" || t_fail "none not measured: $out"
verdict=$(grep "^$l: the policy's mq-deadline: " "$T_TMP/out") || t_fail "no verdict line about the policy's scheduler: $out"
case $verdict in
*": best ("*|*": within the noise of none ("*) [ $rc = 0 ] || t_fail "exit $rc with: $verdict" ;;
*": beaten by none, "*) [ $rc = 1 ] || t_fail "exit $rc with: $verdict" ;;
*) t_fail "verdict: $verdict" ;;
esac
grep -q "^  restored: scheduler none " "$T_TMP/out" || t_fail "no restore line: $out"
after=$(cat "$q/scheduler" "$q/read_ahead_kb" "$q/nr_requests")
[ "$before" = "$after" ] || t_fail "not restored: before [$before] after [$after]"

# -J: one object, its verdict and exit status those of the run
out=$($APPLY validate -J --config-root "$root" "$l" -- --rw=randread --runtime=300ms --ramp_time=0 --loops=3 \
        --eta=never 2>/dev/null)
rc=$?
echo "$out" | grep -q '"command": "validate"' || t_fail "-J: $out"
echo "$out" | grep -q '"policy_scheduler": "mq-deadline"' || t_fail "-J: $out"
case $out in
*'"verdict": "beaten"'*) [ $rc = 1 ] || t_fail "-J: exit $rc: $out" ;;
*'"verdict": "best"'*|*'"verdict": "within_noise"'*) [ $rc = 0 ] || t_fail "-J: exit $rc: $out" ;;
*) t_fail "-J: no verdict: $out" ;;
esac
echo "$out" | grep -q "\"exit\": $rc," || t_fail "-J: exit $rc not in: $out"

# with no job after "--", a workload that separates schedulers: a reader under a deep reader, judged on
# the reader's p99; 2 rounds are too few for the test: a warning first
out=$($APPLY validate --config-root "$root" "$l" -- --runtime=300ms --ramp_time=0 --loops=2 --eta=never 2>&1)
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || t_fail "bare validate exit $rc: $out"
echo "$out" | grep -q "objective reader:p99" || t_fail "bare validate: not judged on the reader: $out"
echo "$out" | grep -q "warning: 2 rounds per variant cannot show a significant win" || t_fail "no rounds warning: $out"
after=$(cat "$q/scheduler" "$q/read_ahead_kb" "$q/nr_requests")
[ "$before" = "$after" ] || t_fail "bare validate: not restored: before [$before] after [$after]"

# a job naming another device (a second loop device of ours) is refused before anything is switched
t_loop m 16
q2=/sys/block/$m/queue
echo mq-deadline > "$q2/scheduler"
before2=$(cat "$q2/scheduler" "$q2/read_ahead_kb")
printf '[global]\nrw=randread\nbs=4k\nruntime=300ms\n[other]\nfilename=/dev/%s\n' "$m" > "$T_TMP/other.fio"
out=$($APPLY validate --config-root "$root" "$l" -- --loops=1 --eta=never "$T_TMP/other.fio" 2>&1)
rc=$?
[ $rc = 3 ] || t_fail "a job naming /dev/$m: exit $rc: $out"
echo "$out" | grep -q "job 'other': /dev/$m is not --target-device /dev/$l" || t_fail "a job naming /dev/$m: not said: $out"
[ "$before" = "$(cat "$q/scheduler" "$q/read_ahead_kb" "$q/nr_requests")" ] || t_fail "$l changed by a refused run"
[ "$before2" = "$(cat "$q2/scheduler" "$q2/read_ahead_kb")" ] || t_fail "$m changed by a refused run"

# a bio-based or unknown device is refused with one line
out=$($APPLY validate nosuchdisk9 2>&1); rc=$?
[ $rc = 2 ] || t_fail "unknown device exit $rc"
echo ok
