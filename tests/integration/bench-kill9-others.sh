#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: after a kill -9 of iosched-bench, its guard keeps what
# another program set after the last switch, as the bench's own restore
# does.  A --compare of two mq-deadline variants through fio on a loop
# device the test attaches, found with nr_requests=100 and fifo_batch=7;
# once fio runs (the round's switch is over), another program sets
# nr_requests=200; a kill -9 of the bench then: the guard puts fifo_batch
# back to 7 (the variant set it) and keeps nr_requests at 200, and says so
# (before: the guard wrote the 100 it found over the other program's 200);
# found on none, it says the 200 was not kept, as the switch back to none
# resets it.
# A second bench started at once after the kill -9 is refused while the
# guard puts the disk back (it holds the bench lock for that), or runs
# after it: the disk ends as found, three times (before: the second bench
# saved the disk halfway put back, and restored that); and where the lock
# is taken before the guard could, the lock file's killed bench and guard
# (its pid and start time) refuse the disk while that guard lives, and a
# pid used again does not, and one held after its bench and guard are
# gone is said so.  Killed in its own final restore (after the
# scheduler, before the tunables), the bench's guard puts the rest back
# as found, taking none of the bench's writes for another program's.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
b_loop l 64
q=/sys/block/$l/queue
grep -qw mq-deadline $q/scheduler || b_skip "no mq-deadline on $l"
grep -qw none $q/scheduler || b_skip "no none on $l"
echo mq-deadline >$q/scheduler
echo 100 >$q/nr_requests 2>/dev/null && [ "$(cat $q/nr_requests)" = 100 ] || b_skip "$l takes no nr_requests=100"
echo 7 >$q/iosched/fifo_batch
# second: another bench's compare on the disk, its output in out2 and err2
second() {
        "$BENCH_BIN" --filename=/dev/$l --rw=randread --time_based --runtime=1 --ramp_time=0 --loops=1 \
                --compare=mq-deadline:fifo_batch=13 >"$B_TMP/out2" 2>"$B_TMP/err2"
}

"$BENCH_BIN" --backend=fio --filename=/dev/$l --rw=randread --time_based --runtime=600 --loops=1 \
        --compare=mq-deadline:fifo_batch=9,mq-deadline:fifo_batch=11 >"$B_TMP/out" 2>"$B_TMP/err" &
bench=$!
B_PIDS="$B_PIDS $bench"
# fio runs the round (not its reading of the job): the round's switch, and what it left, told to the
# guard, is over
round() {
        for p in $(pgrep -P $bench -x fio); do
                { tr '\0' ' ' </proc/$p/cmdline; } 2>/dev/null | grep -q -- "--output-format=json+" && return 0
        done
        return 1
}
wait_for 60000 round || b_fail "fio never ran a round: $(cat "$B_TMP/err")"
[ "$(cat $q/iosched/fifo_batch)" != 7 ] || b_fail "the variant did not set fifo_batch"
echo 200 >$q/nr_requests || b_fail "another program cannot set nr_requests=200"
kill -9 $bench
wait $bench 2>/dev/null
said() { grep -q "guard: iosched-bench ended without its cleanup" "$B_TMP/err"; }
wait_for 60000 said || b_fail "the guard said nothing: $(cat "$B_TMP/err")"
grep -q "put its scheduler and tunables back as found but what another program set after the last switch" \
        "$B_TMP/err" && grep -q "queue/nr_requests=200" "$B_TMP/err" ||
        b_fail "the guard did not say what it kept: $(cat "$B_TMP/err")"
[ "$(cat $q/nr_requests)" = 200 ] || b_fail "nr_requests is $(cat $q/nr_requests), not the other program's 200"
[ "$(cat $q/iosched/fifo_batch)" = 7 ] || b_fail "fifo_batch is $(cat $q/iosched/fifo_batch), not 7 as found"
echo "ok: after a kill -9 the guard kept nr_requests=200 and put fifo_batch back to 7"

# found on none: another program's nr_requests=200 under the mq-deadline round does not outlive the
# guard's switch back to none (the kernel resets it to the tag depth), and the guard says so, as the
# bench's own restore does (before: "(queue/nr_requests=200)", said kept, and the disk had 128)
echo none >$q/scheduler
depth=$(cat $q/nr_requests)
"$BENCH_BIN" --backend=fio --filename=/dev/$l --rw=randread --time_based --runtime=600 --loops=1 \
        --compare=mq-deadline:fifo_batch=9 >"$B_TMP/out" 2>"$B_TMP/err" &
bench=$!
B_PIDS="$B_PIDS $bench"
wait_for 60000 round || b_fail "none: fio never ran a round: $(cat "$B_TMP/err")"
[ "$(b_sched $l)" = mq-deadline ] || b_fail "none: the round runs on $(b_sched $l)"
echo 200 >$q/nr_requests || b_fail "none: another program cannot set nr_requests=200"
kill -9 $bench
wait $bench 2>/dev/null
wait_for 60000 said || b_fail "none: the guard said nothing: $(cat "$B_TMP/err")"
[ "$(b_sched $l) $(cat $q/nr_requests)" = "none $depth" ] ||
        b_fail "none: $(b_sched $l), nr_requests $(cat $q/nr_requests), not none and $depth"
grep -q "after the last switch (queue/nr_requests=200 not kept: the kernel has $depth)" "$B_TMP/err" ||
        b_fail "none: the guard: $(grep guard: "$B_TMP/err")"
wait_for 60000 flock -n "/run/iosched-bench/$(cat /sys/block/$l/dev).lock" true || b_fail "none: the lock is held"
echo mq-deadline >$q/scheduler
echo 7 >$q/iosched/fifo_batch
echo "ok: found on none, the guard says the other program's nr_requests=200 was not kept"

# a bench started at once after the kill -9 waits for the guard's restore (refused while the guard holds
# the lock, exit 3) and never saves a disk put back halfway as what it found: three times
for i in 1 2 3; do
        echo 100 >$q/nr_requests
        echo 7 >$q/iosched/fifo_batch
        # on none first: the guard's restore switches the scheduler, then writes the tunables
        "$BENCH_BIN" --backend=fio --filename=/dev/$l --rw=randread --time_based --runtime=600 --loops=1 \
                --compare=none,mq-deadline:fifo_batch=11 >"$B_TMP/out" 2>"$B_TMP/err" &
        bench=$!
        B_PIDS="$B_PIDS $bench"
        wait_for 60000 round || b_fail "$i: fio never ran a round: $(cat "$B_TMP/err")"
        kill -9 $bench
        second
        rc=$?
        wait $bench 2>/dev/null
        case $rc in
        0) ;;
        3) grep -q "the guard (pid [0-9]*) of an iosched-bench killed on this disk is putting it back" \
                "$B_TMP/err2" || b_fail "$i: the second bench: $(cat "$B_TMP/err2")" ;;
        *) b_fail "$i: the second bench: exit $rc: $(cat "$B_TMP/err2")" ;;
        esac
        wait_for 60000 said || b_fail "$i: the guard said nothing: $(cat "$B_TMP/err")"
        wait_for 60000 flock -n "/run/iosched-bench/$(cat /sys/block/$l/dev).lock" true ||
                b_fail "$i: the lock is still held"
        [ "$(cat $q/nr_requests) $(cat $q/iosched/fifo_batch)" = "100 7" ] ||
                b_fail "$i: after the guard and a second bench (exit $rc): nr_requests $(cat $q/nr_requests)," \
                        "fifo_batch $(cat $q/iosched/fifo_batch), not 100 and 7 as found: $(cat "$B_TMP/err2")"
done
echo "ok: a bench started at once after a kill -9 never took the guard's restore halfway for what it found"

# the lock taken before the guard could: the lock file still names a killed bench and its guard, alive
# (a program of that name here), so the disk is not saved as found; once the guard is gone, it is
lockf=/run/iosched-bench/$(cat /sys/block/$l/dev).lock
mkdir "$B_TMP/fg" && cp "$(command -v sleep)" "$B_TMP/fg/iosched-guard" || b_fail "cp sleep"
"$B_TMP/fg/iosched-guard" 600 &
guard=$!
B_PIDS="$B_PIDS $guard"
sh -c 'exit 0' &
dead=$!
wait $dead
# a guard is a pid and its start time: the same pid started at another time (used again) is none
echo "$dead $guard 1" >"$lockf"
second ||
        b_fail "a pid used again taken for a killed bench's guard: exit $?: $(cat "$B_TMP/err2")"
echo "$dead $guard $(awk '{ print $22 }' /proc/$guard/stat)" >"$lockf"
second
rc=$?
[ $rc = 3 ] && grep -q "the guard (pid $guard) of an iosched-bench killed on this disk is putting it back: try" \
        "$B_TMP/err2" || b_fail "a killed bench's guard alive: exit $rc: $(cat "$B_TMP/err2")"
kill $guard
wait $guard 2>/dev/null
second ||
        b_fail "its guard gone: exit $?: $(cat "$B_TMP/err2")"
[ ! -s "$lockf" ] || b_fail "the lock file was not emptied when the disk was given back: $(cat "$lockf")"
echo "ok: a killed bench's guard alive, the disk is not taken; gone, it is"

# the lock still held after its bench is gone, by no guard that lives (here flock(1), as the guard or a
# fio ending would): refused, said as it is (before: "another iosched-bench (pid N) is comparing
# schedulers on this disk", of a pid that was gone)
echo "$dead" >"$lockf"
(flock 9 && exec sleep 600) 9<"$lockf" &     # the sleep itself holds it: killed, it is let go
holder=$!
B_PIDS="$B_PIDS $holder"
wait_for 60000 sh -c "! flock -n '$lockf' true" || b_fail "flock(1) did not take the lock"
second
rc=$?
[ $rc = 3 ] && grep -q "the iosched-bench (pid $dead) that locked this disk is gone, and $lockf is still held" \
        "$B_TMP/err2" || b_fail "a gone bench's lock held: exit $rc: $(cat "$B_TMP/err2")"
kill $holder
wait $holder 2>/dev/null
: >"$lockf"
echo "ok: a gone bench's lock still held is said so"

# a kill -9 in the middle of the bench's own restore, right after it put the scheduler back and before
# the tunables (the test shim's IOS_FAULT_KILL: the second write of queue/scheduler): the guard writes
# the rest, none of the bench's own writes taken for another program's
shim=$top/$BUILDDIR/tests/libiosfault.so
[ -r "$shim" ] || b_fail "$shim is not built (make tests)"
echo 100 >$q/nr_requests
echo 7 >$q/iosched/fifo_batch
env LD_PRELOAD="$shim" IOS_FAULT_KILL=queue/scheduler:2 \
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
        "$BENCH_BIN" --filename=/dev/$l --rw=randread --time_based --runtime=1 --ramp_time=0 --loops=1 \
        --compare=none >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
[ $rc = 137 ] || b_fail "the bench was not killed in its restore: exit $rc: $(cat "$B_TMP/err")"
wait_for 60000 said || b_fail "killed in its restore: the guard said nothing: $(cat "$B_TMP/err")"
grep -q "put its scheduler and tunables back as found;" "$B_TMP/err" && ! grep -q "another program" "$B_TMP/err" ||
        b_fail "killed in its restore: the guard: $(grep guard: "$B_TMP/err")"
[ "$(b_sched $l) $(cat $q/nr_requests) $(cat $q/iosched/fifo_batch)" = "mq-deadline 100 7" ] ||
        b_fail "killed in its restore: $(b_sched $l), nr_requests $(cat $q/nr_requests), fifo_batch" \
                "$(cat $q/iosched/fifo_batch), not mq-deadline, 100 and 7 as found"
echo "ok: killed in its own restore, the guard put the rest back as found"
