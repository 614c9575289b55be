#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a transient error is not a missing disk.  openat2() with
# RESOLVE_IN_ROOT fails with EAGAIN whenever a rename anywhere on the system
# races a ".." of the lookup (every sysfs link has one), and udevd renames
# files on every event.  With rename loops running beside it: 300 runs of
# "iosched-apply --udev" and 300 of "--dry-run" on the test's loop device all
# exit 0, and every --udev run leaves the policy's scheduler; ioschedd gives
# every one of 100 hot-added loop devices its policy.  And a disk named on the
# command line that does not exist is reported on one line without stopping
# the others: they are applied, and the exit status is 2.
# Exit 0 pass, 77 skip, 1 fail.  IOS_EAGAIN_RUNS and IOS_EAGAIN_HOTPLUG
# override the two counts.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
command -v perl >/dev/null || t_skip "no perl (needed to remove the loop devices again)"
[ -e /dev/loop-control ] || t_skip "no /dev/loop-control"
RUNS=${IOS_EAGAIN_RUNS:-300}
NHOT=${IOS_EAGAIN_HOTPLUG:-100}
# under valgrind (make valgrind) the programs resolve with the walk, where the
# openat2 EAGAIN race cannot happen, and each run costs a second or more: a
# tenth of the runs checks the same code for memory errors within the timeout
if [ -n "${IOS_VALGRIND:-}" ]; then
        RUNS=${IOS_EAGAIN_RUNS:-30}
        NHOT=${IOS_EAGAIN_HOTPLUG:-10}
fi

t_loop L 16
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
P=$T_TMP/policy.conf
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline"

# --- a missing disk named beside a real one -------------------------------
miss=nosuchdisk$$
for order in "$miss $L" "$L $miss"; do
        echo none > "/sys/block/$L/queue/scheduler"
        # shellcheck disable=SC2086
        out=$($APPLY --config "$P" $order 2>&1); rc=$?
        [ $rc = 2 ] || t_fail "apply $order: exit $rc, want 2: $out"
        [ "$(t_sched "$L")" = mq-deadline ] || t_fail "apply $order: $L not applied: $(t_sched "$L")"
        [ "$(printf '%s\n' "$out" | grep -c "^iosched-apply: $miss: not a block device$")" = 1 ] ||
                t_fail "apply $order: the missing disk is not reported on one line: $out"
done
out=$($APPLY --check --config "$P" "$L" "$miss" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "--check of a compliant disk and a missing one: exit $rc, want 2: $out"
out=$($APPLY --dry-run --config "$P" "$miss" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "--dry-run of a missing disk alone: exit $rc, want 2: $out"
$APPLY --udev "$miss" --config "$P" 2>/dev/null; rc=$?
[ $rc = 4 ] || t_fail "--udev of a disk that does not exist: exit $rc, want 4"
echo "missing disk: reported, the others applied, exit 2 (--udev: 4)"

# --- rename loops ---------------------------------------------------------
# the plain shell loop of the bug report, and a tight rename(2) loop that makes
# the race far more frequent (before the fix: ~1% and ~90% of runs failed)
R=$T_TMP/rename
mkdir "$R" && touch "$R/a" "$R/c" || t_fail "cannot set up the rename directory"
( while :; do mv -f "$R/a" "$R/b"; mv -f "$R/b" "$R/a"; done ) >/dev/null 2>&1 &
RENAMERS=$!
perl -e 'chdir $ARGV[0] or exit 1; while (1) { rename "c", "d"; rename "d", "c" }' "$R" >/dev/null 2>&1 &
RENAMERS="$RENAMERS $!"
D_EXTRA_CLEANUP='kill $RENAMERS 2>/dev/null; wait $RENAMERS 2>/dev/null'
sleep 0.2
for p in $RENAMERS; do
        kill -0 "$p" 2>/dev/null || t_fail "a rename loop did not start"
done

# --- iosched-apply --udev and --dry-run -----------------------------------
fail_dry=0 fail_udev=0 fail_sched=0 codes="" i=0
while [ $i -lt "$RUNS" ]; do
        echo none > "/sys/block/$L/queue/scheduler"
        $APPLY --dry-run --config "$P" "$L" >/dev/null 2>"$T_TMP/err"; rc=$?
        if [ $rc != 0 ]; then
                fail_dry=$((fail_dry + 1)); codes="$codes dry-run:$rc"
                [ $fail_dry -le 3 ] && sed 's/^/  dry-run: /' "$T_TMP/err"
        fi
        $APPLY --udev "$L" --config "$P" 2>"$T_TMP/err"; rc=$?
        if [ $rc != 0 ]; then
                fail_udev=$((fail_udev + 1)); codes="$codes udev:$rc"
                [ $fail_udev -le 3 ] && sed 's/^/  udev: /' "$T_TMP/err"
        fi
        [ "$(t_sched "$L")" = mq-deadline ] || fail_sched=$((fail_sched + 1))
        i=$((i + 1))
done
echo "--dry-run: $fail_dry of $RUNS failed"
echo "--udev: $fail_udev of $RUNS failed, $fail_sched of $RUNS left $L off mq-deadline"
# shellcheck disable=SC2086
[ -n "$codes" ] && echo "exit codes (what:code count):$(printf '%s\n' $codes | sort | uniq -c |
                                                      awk '{ printf " %s %s", $2, $1 }')"

# --- ioschedd: hot-added loop devices -------------------------------------
# NHOT loop numbers nobody uses, far from the ones other tests pick (200-700)
n=$(( 2000 + ($$ % 40) * 250 ))
nums="" names=""
k=0
while [ $k -lt "$NHOT" ]; do
        while [ -e "/sys/block/loop$n" ] || [ -e "/dev/loop$n" ]; do
                n=$((n + 1))
        done
        nums="$nums $n"
        names="${names:+$names }loop$n"
        n=$((n + 1)); k=$((k + 1))
done
H=$T_TMP/hotplug.conf
d_policy "$H" "[Match]
Name=$names
[Set]
Scheduler=mq-deadline"
d_start --config "$H" --no-builtin -v
for n in $nums; do
        truncate -s 1M "$T_TMP/hot-$n" || t_fail "truncate"
done
t0=$(d_now_ms)
for n in $nums; do
        [ -e "/sys/block/loop$n" ] && t_fail "loop$n appeared meanwhile (not ours: left alone)"
        if losetup "/dev/loop$n" "$T_TMP/hot-$n" 2>"$T_TMP/err"; then
                D_NEW_LOOPS="$D_NEW_LOOPS $n"
                T_LOOPS="$T_LOOPS loop$n"
        elif [ -e "/sys/block/loop$n" ]; then
                t_fail "losetup loop$n: $(cat "$T_TMP/err") (device left alone: it may not be ours)"
        else
                t_skip "cannot create /dev/loop$n: $(cat "$T_TMP/err")"
        fi
done
added=$(( $(d_now_ms) - t0 ))
all_applied() {
        for n in $nums; do
                d_sched_is "loop$n" mq-deadline || return 1
        done
}
d_wait 20000 all_applied
missed=""
for n in $nums; do
        d_sched_is "loop$n" mq-deadline || missed="$missed loop$n($(t_sched "loop$n"))"
done
nmissed=$(echo "$missed" | wc -w)
ms=$(( $(d_now_ms) - t0 ))
echo "ioschedd: $nmissed of $NHOT hot-added disks without their policy (added in $added ms, all checked after $ms ms)"
top_attempt=$(sed -n 's/.*retrying in .*(attempt \([0-9]*\) of.*/\1/p' "$D_LOG" | sort -n | tail -n 1)
echo "ioschedd: $(grep -c "retrying in" "$D_LOG") retry line(s) (highest attempt ${top_attempt:-none})," \
     "$(grep -c "giving up" "$D_LOG") give-up line(s), $(grep -c "not a disk here" "$D_LOG") 'not a disk here'"
grep -m 3 -E "retrying in|giving up|not a disk here" "$D_LOG" | sed 's/^/  /'
kill -0 "$D_PID" || t_fail "ioschedd died"
d_stop

[ "$fail_dry" = 0 ] || t_fail "--dry-run failed $fail_dry of $RUNS times"
[ "$fail_udev" = 0 ] && [ "$fail_sched" = 0 ] ||
        t_fail "--udev failed $fail_udev of $RUNS times ($fail_sched without the policy's scheduler)"
[ "$nmissed" = 0 ] || t_fail "ioschedd: $nmissed of $NHOT hot-added disks missed their policy:$missed"
grep -q "giving up" "$D_LOG" && t_fail "ioschedd gave up on a disk"
d_check_host_untouched
echo "PASS"
