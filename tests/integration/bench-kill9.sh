#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a run never outlives iosched-bench.  A kill -9 of
# iosched-bench in the middle of a --compare round on a loop device the
# test attaches, with fio (--backend=fio) and with the native engine:
# within a second no fio process remains (fio and its job processes,
# each in a session of its own), the bench
# lock is free (flock -n), the guard has sent a "change" uevent for the
# disk (so the udev rule and ioschedd apply the policy again; seen by
# udevadm monitor), has put the disk's scheduler and tunables back as it
# found them itself (where no udevd runs, nothing else would) and has ended itself, and it said so on stderr; what the
# udev rule runs on that event (iosched-apply --udev) then applies a policy.
# A run (native, fio) killed on a file it made: the file is removed.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v udevadm >/dev/null || b_skip "no udevadm"
b_loop l 64
grep -qw mq-deadline /sys/block/$l/queue/scheduler || b_skip "no mq-deadline on $l"
grep -qw none /sys/block/$l/queue/scheduler || b_skip "no none on $l"
lock=/run/iosched-bench/$(cat /sys/block/$l/dev).lock

# none of the pids in $1 is a live fio process any more (a zombie is dead: its new parent
# may not reap it in a container)
no_fio() {
        for p in $1; do
                case $(ps -o stat=,comm= -p "$p") in Z*) ;; *fio) return 1 ;; esac
        done
        return 0
}
# asked shared, for an instant, as ioschedd asks (an exclusive probe would refuse a starting bench)
lock_free() { flock -n -s "$lock" true; }
lock_held() { ! flock -n -s "$lock" true; }
gone() { ! kill -0 "$1" 2>/dev/null; }
changed() { grep -q "change .*/$l (block)" "$B_TMP/mon.$1"; }

kill9() {
        mode=$1; shift
        udevadm monitor --kernel --subsystem-match=block >"$B_TMP/mon.$mode" 2>&1 &
        mon=$!
        B_PIDS="$B_PIDS $mon"
        sleep 0.3
        # what the bench finds: not the kernel's defaults, to be put back by the guard itself
        echo 1024 >/sys/block/$l/queue/read_ahead_kb
        echo mq-deadline >/sys/block/$l/queue/scheduler
        echo 7 >/sys/block/$l/queue/iosched/fifo_batch
        b_queue_state $l >"$B_TMP/found.$mode"
        "$BENCH_BIN" --filename=/dev/$l --rw=randread --time_based --runtime=6 --loops=1 --compare=none,mq-deadline "$@" \
                >"$B_TMP/out.$mode" 2>"$B_TMP/err.$mode" &
        bench=$!
        B_PIDS="$B_PIDS $bench"
        # in a round: the lock held and (fio) fio running
        wait_for 10000 lock_held || b_fail "$mode: the bench never took the lock: $(cat "$B_TMP/err.$mode")"
        fios=""
        if [ "$mode" = fio ]; then
                wait_for 10000 pgrep -P $bench -x fio >/dev/null || b_fail "fio never started: $(cat "$B_TMP/err.fio")"
                fio=$(pgrep -P $bench -x fio)
                # fio forks each job into a session of its own: not in fio's process group
                wait_for 5000 pgrep -P "$fio" -x fio >/dev/null || b_fail "fio forked no job process"
                sleep 1
                fios="$fio $(pgrep -P "$fio" -x fio)"
        else
                sleep 1
        fi
        guard=$(pgrep -P $bench -x iosched-guard)
        kill -9 $bench
        wait $bench 2>/dev/null
        if [ -n "$fios" ]; then
                wait_for 60000 no_fio "$fios" || b_fail "fio still runs after kill -9: $(ps -o pid,ppid,stat,comm -p "$fios")"
        fi
        wait_for 60000 lock_free || b_fail "$mode: the bench lock is still held after kill -9"
        wait_for 60000 changed $mode || b_fail "$mode: no change uevent for $l: $(cat "$B_TMP/mon.$mode")"
        [ -n "$guard" ] || b_fail "$mode: no guard process was beside the bench"
        wait_for 60000 gone "$guard" || b_fail "$mode: the guard did not end"
        grep -q "guard: iosched-bench ended without its cleanup" "$B_TMP/err.$mode" ||
                b_fail "$mode: the guard said nothing: $(cat "$B_TMP/err.$mode")"
        # the guard put the disk back itself (no udevd needed): scheduler and tunables as found
        grep -q "put its scheduler and tunables back as found" "$B_TMP/err.$mode" ||
                b_fail "$mode: the guard did not put the disk back: $(cat "$B_TMP/err.$mode")"
        b_queue_state $l >"$B_TMP/left.$mode"
        diff "$B_TMP/found.$mode" "$B_TMP/left.$mode" >"$B_TMP/diff.$mode" ||
                b_fail "$mode: after kill -9 the disk is not as found: $(cat "$B_TMP/diff.$mode")"
        kill $mon 2>/dev/null
        wait $mon 2>/dev/null
        # what the udev rule runs on that change event: the dead bench's lock does not hold it back
        printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\n' $l >"$B_TMP/policy.conf"
        chmod 0644 "$B_TMP/policy.conf"
        echo none >/sys/block/$l/queue/scheduler
        "$top/$BUILDDIR/iosched-apply" --config "$B_TMP/policy.conf" --no-builtin --udev $l >"$B_TMP/udev.$mode" 2>&1 ||
                b_fail "$mode: iosched-apply --udev: $(cat "$B_TMP/udev.$mode")"
        [ "$(b_sched $l)" = mq-deadline ] || b_fail "$mode: --udev left $l on $(b_sched $l): $(cat "$B_TMP/udev.$mode")"
        echo none >/sys/block/$l/queue/scheduler
}

if command -v fio >/dev/null; then
        kill9 fio --backend=fio --allow-write   # fio lays out a new file only with --allow-write
else
        echo "no fio: the fio case is skipped"
fi
kill9 native --backend=native

# the files a run made are removed after a kill -9 too (by the guard, on their directory's handle)
if [ -w /dev/shm ]; then
        shm=/dev/shm/iosched-bench-it-${B_TMP##*-}-kill9
        mkdir -p "$shm"
        for b in native fio; do
                [ $b = fio ] && ! command -v fio >/dev/null && continue
                # fio lays out a new file only with --allow-write (the fence opens its directory)
                "$BENCH_BIN" --backend=$b --filename="$shm/$b" --size=8m --rw=randread --direct=0 --time_based \
                        --runtime=6 --allow-write >/dev/null 2>"$B_TMP/err.file.$b" &
                bench=$!
                B_PIDS="$B_PIDS $bench"
                # fio makes it in the run's scratch directory there (fioscratch.c), our engine in place
                made() {
                        for f in "$shm/$b" "$shm"/.iosched-bench.*/"$b"; do
                                [ -f "$f" ] && [ "$(stat -c %s "$f")" = 8388608 ] && return 0
                        done
                        return 1
                }
                wait_for 60000 made || b_fail "$b: the run made no file: $(cat "$B_TMP/err.file.$b")"
                sleep 0.5
                kill -9 $bench
                wait $bench 2>/dev/null
                gone_file() { [ -z "$(ls -A "$shm")" ]; }
                wait_for 30000 gone_file || b_fail "$b: what the run made stays after kill -9: $(ls -A "$shm")"
                grep -q "removed 1 file it made" "$B_TMP/err.file.$b" || b_fail "$b: not said: $(cat "$B_TMP/err.file.$b")"
        done
fi
exit 0
