#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the udev rule's program, the daemon and manual runs acting on
# the same disks at the same time end in the policy's state, with no error
# and no flapping.  On three loop devices this test creates (all starting on
# "none"), at once: ioschedd (kernel uevents, its initial apply), a stream of
# "change" uevents the kernel sends for those disks (the daemon applies on
# each), `iosched-apply --udev DISK` run for every disk as udev runs the rule
# (no udevd is needed: the rule's RUN line is what runs), and manual
# `iosched-apply DISK...` runs.  A sampler reads each disk's scheduler and
# read_ahead_kb every few milliseconds meanwhile.  Pass: every run exits 0
# with nothing on stderr, the daemon logs no failure, every disk ends at the
# policy, and no disk ever goes back from the policy's value (one change per
# attribute at most: no flapping).  CONC_ROUNDS sets the rounds (default 20).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"
d_require
ROUNDS=${CONC_ROUNDS:-20}

t_loop L1 16
t_loop L2 16
t_loop L3 16
DISKS="$L1 $L2 $L3"
want=mq-deadline
for s in kyber bfq; do grep -qw "$s" "/sys/block/$L1/queue/scheduler" && { want=$s; break; }; done
for l in $DISKS; do
        echo none >"/sys/block/$l/queue/scheduler" || t_fail "cannot set $l to none"
        echo 128 >"/sys/block/$l/queue/read_ahead_kb"
done
P=$T_TMP/policy.conf
d_policy "$P" "[Match]
Name=$L1 $L2 $L3
[Set]
Scheduler=$want
queue/read_ahead_kb=512"

# the sampler: one line per disk and sample, "disk sched ra"
: >"$T_TMP/go"
# (shell builtins only, no fork per sample: the scheduler is the bracketed word)
( while [ -e "$T_TMP/go" ]; do
        for l in $DISKS; do
                read -r sl <"/sys/block/$l/queue/scheduler"
                read -r ra <"/sys/block/$l/queue/read_ahead_kb"
                s=${sl#*[}; s=${s%%]*}
                printf '%s %s %s\n' "$l" "$s" "$ra"
        done
  done ) >"$T_TMP/samples" &
SAMPLER=$!
D_EXTRA_CLEANUP="rm -f '$T_TMP/go'; kill $SAMPLER 2>/dev/null"

# everything at once
$DAEMON -v --no-builtin --config "$P" --monitor kernel --drift-interval off >"$D_LOG" 2>&1 &
D_PID=$!
( for i in $(seq 1 "$ROUNDS"); do for l in $DISKS; do echo change >"/sys/block/$l/uevent"; done; done ) &
UEV=$!
( rc=0; for i in $(seq 1 "$ROUNDS"); do for l in $DISKS; do
        $APPLY --no-builtin --config "$P" --udev "$l" 2>>"$T_TMP/udev.err" || { echo "udev run $i $l: exit $?"; rc=1; }
  done; done; exit $rc ) >"$T_TMP/udev.out" &
UDEV=$!
( rc=0; for i in $(seq 1 "$ROUNDS"); do
        # shellcheck disable=SC2086
        $APPLY --no-builtin --config "$P" $DISKS >>"$T_TMP/manual.out" 2>>"$T_TMP/manual.err" || { echo "manual run $i: exit $?"; rc=1; }
  done; exit $rc ) >"$T_TMP/manual.rc" &
MANUAL=$!

wait $UEV
wait $UDEV; urc=$?
wait $MANUAL; mrc=$?
d_wait 10000 d_log_has "ready (" || t_fail "ioschedd did not get ready"
# let the daemon finish the uevents it has queued, then stop it
sleep 1
rm -f "$T_TMP/go"
wait $SAMPLER
d_stop

[ $urc = 0 ] || t_fail "a udev run failed: $(cat "$T_TMP/udev.out" "$T_TMP/udev.err")"
[ -s "$T_TMP/udev.err" ] && t_fail "a udev run printed: $(head -n 5 "$T_TMP/udev.err")"
[ $mrc = 0 ] || t_fail "a manual run failed: $(cat "$T_TMP/manual.rc" "$T_TMP/manual.err")"
[ -s "$T_TMP/manual.err" ] && t_fail "a manual run printed on stderr: $(head -n 5 "$T_TMP/manual.err")"
if grep -iE "fail|error|cannot|refused|not applied" "$D_LOG"; then
        t_fail "the daemon logged a failure"
fi
for l in $DISKS; do
        [ "$(t_sched "$l")" = "$want" ] || t_fail "$l ends on $(t_sched "$l"), not $want"
        [ "$(cat "/sys/block/$l/queue/read_ahead_kb")" = 512 ] || t_fail "$l read_ahead_kb is not 512"
done

# flapping: per disk, the sampled values may change once (none -> want, 128 -> 512), never back
samples=$(wc -l <"$T_TMP/samples")
for l in $DISKS; do
        s_changes=$(awk -v d="$l" '$1 == d { if (NR > 0 && p != "" && $2 != p) n++; p = $2 } END { print n + 0 }' "$T_TMP/samples")
        r_changes=$(awk -v d="$l" '$1 == d { if (p != "" && $3 != p) n++; p = $3 } END { print n + 0 }' "$T_TMP/samples")
        [ "$s_changes" -le 1 ] || t_fail "$l: the scheduler changed $s_changes times while sampled (flapping)"
        [ "$r_changes" -le 1 ] || t_fail "$l: read_ahead_kb changed $r_changes times while sampled (flapping)"
done
# and no run ever switched a disk to anything but the policy's value
sw=$(cat "$T_TMP/manual.out" "$D_LOG" | grep -c "scheduler: .* -> ")
away=$(cat "$T_TMP/manual.out" "$D_LOG" | grep "scheduler: .* -> " | grep -vc -- "-> $want ")
[ "$away" = 0 ] || t_fail "$away switches to another scheduler than $want"
d_check_host_untouched
echo "ok: $ROUNDS rounds x 3 disks of udev runs, manual runs and change uevents with the daemon: $samples samples," \
     "every disk on $want/512 with at most one change each, $sw scheduler switches logged, all to $want"
