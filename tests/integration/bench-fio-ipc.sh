#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: what fio makes in System V IPC goes with fio.  A job with
# mem=shm takes its I/O buffers in a shared memory segment that fio marks
# for removal only when it frees them, so a fio killed by the bench's end
# (a kill -9 of the bench, the guard's cgroup.kill) left the segment to
# the machine until a reboot.  Every fio runs in an IPC namespace of its
# own: the run's processes are in one other than the bench's, and no
# segment of theirs is in the machine's after a kill -9 (the namespace's
# end removes what is in it; a namespace's number is no test of its end:
# the kernel gives the next one made, by any lane, the lowest free).  A
# mem=shm job still runs to its end.  What a command a job runs makes
# (ipcmk in exec_prerun: a segment, a message queue, a semaphore set) ends
# with the run too.  With Landlock and on the path without it
# (IOSCHED_BENCH_LANDLOCK=0 --unconfined).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
command -v ipcs >/dev/null && command -v ipcmk >/dev/null || b_skip "no ipcs or ipcmk"

head -c 1048576 /dev/zero >"$B_TMP/f" || b_fail "the target"
id=${B_TMP##*-}
# the run's fio processes: their argv names the job, by a name no other run of this test (another lane)
# uses (the bench's guard, a fork of the bench, has its argv too; fio's reading of the files before the
# run, create_only=1, has it too, and ends at once; a process that ended meanwhile is none)
run_of() { pgrep -f -- "--name=ipc-$id-$1( |\$)" | while read -r p; do
        c=$( { tr '\0' '\n' </proc/$p/cmdline; } 2>/dev/null) && [ -n "$c" ] || continue
        [ "$p" != "$2" ] && [ "$(cat /proc/$p/comm 2>/dev/null)" = fio ] &&
                ! printf '%s\n' "$c" | grep -q -x -e '--create_only=1' && echo $p
        done; }
no_run() { [ -z "$(run_of "$1" "$2")" ]; }
two() { [ "$(run_of "$1" "$2" | wc -l)" -ge 2 ]; }     # fio and its job process, which takes the buffer
self=$(readlink /proc/self/ns/ipc)
# the run's IPC namespace (ns), read from its fio processes still alive (pids): fio and its job process,
# none in the machine's namespace
run_ns() {
        two "$1" "$2" || return 1
        pids= ns=
        for p in $(run_of "$1" "$2"); do
                n=$(readlink /proc/$p/ns/ipc 2>/dev/null) || continue
                [ "$n" = "$self" ] && b_fail "$mode: fio ($p) shares the machine's IPC namespace"
                pids="$pids $p" ns=$n
        done
        [ -n "$ns" ]
}
# the machine's segments made by one of the pids in $1 (ipcs -p: shmid owner cpid lpid)
left_by() { ipcs -m -p | awk -v pids=" $1 " 'NR > 3 && NF >= 4 && index(pids, " " $3 " ") { print $1 }'; }

for mode in landlock unconfined; do
        # one simple command each, so that a run in the background is the bench's pid (env execs it)
        case $mode in
        landlock) envs="-u IOSCHED_BENCH_LANDLOCK" unc= ;;
        *) envs=IOSCHED_BENCH_LANDLOCK=0 unc=--unconfined ;;
        esac
        job="--filename=$B_TMP/f --rw=randread --bs=64k --iodepth=8 --mem=shm"
        # shellcheck disable=SC2086 # one word per option
        env $envs $BENCH --backend=fio $unc --name=ipc-$id-$mode-end $job --size=1m >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: a mem=shm job: exit $?: $(cat "$B_TMP/err")"
        # shellcheck disable=SC2086
        env $envs $BENCH --backend=fio $unc --name=ipc-$id-$mode $job --time_based --runtime=300 >"$B_TMP/out" 2>"$B_TMP/err" &
        bench=$!
        B_PIDS="$B_PIDS $bench"
        wait_for 60000 run_ns $mode $bench || b_fail "$mode: fio never started its job: $(cat "$B_TMP/err")"
        kill -9 $bench
        wait $bench 2>/dev/null
        wait_for 60000 no_run $mode $bench || b_fail "$mode: fio still runs after kill -9"
        seg=$(left_by "$pids")
        [ -z "$seg" ] || { ipcrm $(printf -- '-m %s ' $seg); b_fail "$mode: fio's segment left: $seg"; }
        echo "ok: $mode: mem=shm runs; after a kill -9 no segment of fio's is left"
        # a command a job runs (--allow-exec) makes a segment, a queue and a semaphore set: they end with
        # the run.  ipcmk gives each a key; fio, here or in another test, makes only private ones (key 0)
        keyed() { ipcs -a | awk '$1 ~ /^0x/ && $1 != "0x00000000"' | wc -l; }
        n0=$(keyed)
        # shellcheck disable=SC2086
        (cd "$B_TMP" && env $envs $BENCH --backend=fio $unc --allow-exec --allow-write --name=ipc-$id-$mode-cmd \
                --filename="$B_TMP/f" --rw=read --size=64k "--exec_prerun=ipcmk -M 4096 -Q -S 1") \
                >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "$mode: ipcmk in exec_prerun: exit $?: $(cat "$B_TMP/err")"
        grep -q "^Semaphore id:" "$B_TMP/ipc-$id-$mode-cmd.prerun.txt" ||
                b_fail "$mode: ipcmk did not run: $(cat "$B_TMP/ipc-$id-$mode-cmd.prerun.txt")"
        [ "$(keyed)" = "$n0" ] || b_fail "$mode: a command's IPC objects were left: $(ipcs -a)"
        echo "ok: $mode: a command's shared memory, queue and semaphores end with the run"
done
echo ok
