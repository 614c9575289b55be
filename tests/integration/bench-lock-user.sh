#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: iosched-bench's lock cannot be turned against the policy.
# 1. An unprivileged user holding the disk's lock file (flock -x through a
#    descriptor opened while an older iosched-bench left it 0644) does not
#    make `iosched-apply --udev` or ioschedd leave the disk alone: the
#    policy is applied, nothing says "left alone", also once the file is
#    0600 again (the holder is no iosched-bench) and for root's own flock(1).
# 2. iosched-bench makes a pre-created 0644 lock file (and one of another
#    group) root's 0600 on open, and refuses one owned by another user, a
#    symlink and a directory in its place, exit 3, changing nothing.
# 3. A real iosched-bench's lock still counts (the daemon yields, naming its
#    pid), and once it has ended the file is root's 0600.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

BENCH_BIN="$top/$BUILDDIR/iosched-bench"
d_require
[ -x "$BENCH_BIN" ] || t_skip "no $BUILDDIR/iosched-bench"
command -v setpriv >/dev/null || t_skip "no setpriv"
command -v flock >/dev/null || t_skip "no flock"
t_loop L 32
grep -qw none "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no none"
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
MAJMIN=$(cat "/sys/block/$L/dev")
LOCK=/run/iosched-bench/$MAJMIN.lock
P=$T_TMP/policy.conf
HOLD=""
D_EXTRA_CLEANUP='[ -n "$HOLD" ] && kill $HOLD 2>/dev/null; rm -rf "$LOCK"'

d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
[Daemon]
DriftInterval=200ms"

# flock -x on the lock file for as long as the test needs, by CMD... (the
# user to run as) through a descriptor that the process exec'd into sleep
# keeps: HOLD is the one process, so nothing outlives its kill
hold() {
        "$@" sh -c 'exec 9<"$1" && flock -x 9 && exec sleep 300' sh "$LOCK" &
        HOLD=$!
        d_wait 2000 sh -c "! flock -n -s '$LOCK' true" || t_fail "flock as ${1:-root} never took the lock"
}
hold_as_nobody() { hold setpriv --reuid=65534 --regid=65534 --clear-groups; }
unhold() {
        kill "$HOLD" 2>/dev/null
        wait "$HOLD" 2>/dev/null
        HOLD=""
}

# --- 1. a user's lock
mkdir -p /run/iosched-bench
rm -rf "$LOCK"
printf '1\n' >"$LOCK"           # as an older iosched-bench left it: 0644, a stale pid (init's)
chmod 0644 "$LOCK"
hold_as_nobody
for mode in 0644 0600; do
        chmod "$mode" "$LOCK"
        echo none >"/sys/block/$L/queue/scheduler"
        $APPLY --config "$P" --no-builtin --udev "$L" >"$T_TMP/udev.out" 2>&1
        rc=$?
        [ $rc = 0 ] || t_fail "--udev with a user's lock ($mode): exit $rc: $(cat "$T_TMP/udev.out")"
        grep -q "left alone" "$T_TMP/udev.out" && t_fail "--udev left the disk alone: $(cat "$T_TMP/udev.out")"
        d_sched_is "$L" mq-deadline || t_fail "--udev with a user's lock ($mode) left $L on $(t_sched "$L")"
        echo "ok: --udev applies the policy beside a user's lock on a $mode file"
done
echo none >"/sys/block/$L/queue/scheduler"
d_start --config "$P" --no-builtin
d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "ioschedd left $L on $(t_sched "$L") beside a user's lock"
echo none >"/sys/block/$L/queue/scheduler"
d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "ioschedd's drift check left $L on $(t_sched "$L")"
# (other tests' benchmarks on other loop devices may be named too)
grep -q "^ioschedd: $L: .*left alone" "$D_LOG" && t_fail "ioschedd left the disk alone for a user's lock"
echo "ok: ioschedd applies and enforces the policy beside a user's lock"
unhold

# root's flock(1) is no iosched-bench either
hold
echo none >"/sys/block/$L/queue/scheduler"
$APPLY --config "$P" --no-builtin --udev "$L" >"$T_TMP/udev.out" 2>&1 || t_fail "--udev: $(cat "$T_TMP/udev.out")"
d_sched_is "$L" mq-deadline || t_fail "--udev left $L on $(t_sched "$L") for root's flock(1)"
unhold
d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "ioschedd did not put mq-deadline back"
echo "ok: a lock held by root's flock(1) does not count"

# --- 2. the file as iosched-bench opens it
bench() {
        "$BENCH_BIN" --filename="/dev/$L" --rw=randread --runtime=50ms --ramp_time=0 --loops=1 --compare=none \
                >"$T_TMP/bench.out" 2>"$T_TMP/bench.err"
}
rm -rf "$LOCK"
printf '1\n' >"$LOCK"
chmod 0644 "$LOCK"
chgrp 65534 "$LOCK"
bench || t_fail "iosched-bench beside a 0644 lock file: $(cat "$T_TMP/bench.err")"
# root's 0600, and emptied when the disk was given back (lock.c)
[ "$(stat -c '%a %u %g %F' "$LOCK")" = "600 0 0 regular empty file" ] ||
        t_fail "the lock file after a run: $(stat -c '%a %u %g %F' "$LOCK")"
echo "ok: a pre-created 0644 lock file is root's 0600 after a run"
chown 65534 "$LOCK"
for kind in user symlink directory; do
        case $kind in
        symlink) rm -f "$LOCK"; ln -s "$T_TMP/elsewhere" "$LOCK" ;;
        directory) rm -f "$LOCK"; mkdir "$LOCK" ;;
        esac
        before=$(t_sched "$L")
        bench
        rc=$?
        [ $rc = 3 ] || t_fail "iosched-bench with a $kind lock file: exit $rc, want 3 ($(cat "$T_TMP/bench.err"))"
        grep -q "$LOCK" "$T_TMP/bench.err" || t_fail "the refusal does not name the file: $(cat "$T_TMP/bench.err")"
        [ "$(t_sched "$L")" = "$before" ] || t_fail "a refused benchmark switched $L"
        [ -e "$T_TMP/elsewhere" ] && t_fail "iosched-bench followed the symlink"
        echo "ok: a $kind lock file is refused: $(cat "$T_TMP/bench.err")"
done
rm -rf "$LOCK"

# --- 3. a real benchmark's lock still counts
# (a run that lasts until the daemon has said so, however long that takes; then ended with SIGTERM, which
# the bench answers by restoring the disk)
"$BENCH_BIN" --filename="/dev/$L" --rw=randread --runtime=120s --time_based --ramp_time=0 --loops=1 --compare=none \
        >"$T_TMP/bench.out" 2>"$T_TMP/bench.err" &
BPID=$!
HOLD=$BPID
d_wait 100000 d_log_has "$L: iosched-bench (pid $BPID) is comparing schedulers on it; left alone until it ends" ||
        t_fail "ioschedd did not yield to a real benchmark"
kill -TERM "$BPID"
wait "$BPID"
grep -q "restored $L: scheduler mq-deadline" "$T_TMP/bench.out" "$T_TMP/bench.err" ||
        t_fail "iosched-bench did not restore $L: $(cat "$T_TMP/bench.out" "$T_TMP/bench.err")"
HOLD=""
[ "$(stat -c '%a %u' "$LOCK")" = "600 0" ] || t_fail "the lock file a run created: $(stat -c '%a %u' "$LOCK")"
d_wait 60000 d_log_has "$L: iosched-bench has ended" || t_fail "the end of the benchmark is not said"
d_wait 60000 d_sched_is "$L" mq-deadline || t_fail "$L is on $(t_sched "$L") after the benchmark"
echo "ok: a real benchmark is yielded to"

d_stop
d_check_host_untouched
echo PASS
