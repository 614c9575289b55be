#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a run's processes end with the run, by the kernel.  Where
# cgroup v2 is writable, fio (--backend=fio) and everything it starts run in
# a cgroup of the bench's own (iosched-bench.PID, beneath the bench's
# cgroup), emptied with cgroup.kill and removed: a daemon a job forks
# (exec_prerun='setsid -f sleep ...', a session of its own, fio's stdout
# open) neither holds the bench after SIGTERM nor outlives it; after a
# kill -9 of the bench, at once after fio starts or later, the guard ends
# the cgroup: no process of the run is left.  Without the cgroup
# (the test shim's IOS_FAULT_NO_CGROUP=1) the daemon still cannot hold the
# bench, and ends with it: orphaned, it comes to the bench, a child
# subreaper, not to init, and so does a chain of 21 processes, each the
# child of the one before, deeper than any fixed number of rounds; a
# child the bench had before (its caller's, across exec) is left alone.
# A job waiting on its exec_prerun command does not hold the bench after
# SIGTERM either, and the command ends with it (with the cgroup and without).
# The empty cgroup of a bench of another PID namespace, whose lock is held,
# is left by a bench here; once free, it is removed.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
cgmnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
[ -n "$cgmnt" ] && mkdir "$cgmnt/iosched-test.$$" 2>/dev/null && rmdir "$cgmnt/iosched-test.$$" ||
        b_skip "no writable cgroup v2"
mark=$(( $$ % 1000 + 7000 ))
cd "$B_TMP" || b_fail "cd $B_TMP"    # the daemon's sleep: a number no other test uses

gone() { ! kill -0 "$1" 2>/dev/null || case $(ps -o stat= -p "$1") in Z*) true ;; *) false ;; esac; }
daemon() { pgrep -x sleep 2>/dev/null | while read -r p; do
        [ "$(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null)" = "sleep $mark " ] && echo $p; done | head -1; }
# fio and its jobs: their argv names the job, by a name no other run of this test (another lane) uses
id=${B_TMP##*-}
run_of() { pgrep -f -- "--name=cg-$id-$1( |\$)" | grep -v "^$2\$"; }
has_daemon() { [ -n "$(daemon)" ]; }
no_daemon() { [ -z "$(daemon)" ]; }
no_run() { [ -z "$(run_of "$1" "$2")" ]; }
has_fio() { [ -n "$(pgrep -P "$1" -x fio)" ]; }
no_dir() { [ ! -d "$1" ]; }

start() {       # start TAG [env...]: the bench with a forking job (or $prerun), in the background
        tag=$1; shift
        # the prerun's output (fio's JOB.prerun.txt) in the current directory: --allow-write
        env "$@" "$BENCH_BIN" --backend=fio --allow-exec --allow-write --name=cg-$id-$tag \
                --filename="$B_TMP/t.$tag" --size=8m \
                --direct=0 --rw=randread --time_based --runtime=300 \
                --exec_prerun="${prerun:-setsid -f sleep $mark; true}" \
                >"$B_TMP/out.$tag" 2>"$B_TMP/err.$tag" &
        bench=$!
        B_PIDS="$B_PIDS $bench"
}

# 1. SIGTERM: the bench ends, the daemon with it, the cgroup removed
start term
real=$bench
wait_for 20000 has_fio $real || b_fail "fio never started: $(cat "$B_TMP/err.term")"
wait_for 20000 has_daemon
d=$(daemon)
[ -n "$d" ] || b_fail "the job's daemon never started: $(cat "$B_TMP/err.term")"
fio=$(pgrep -P $real -x fio)    # the run's (a first fio only reads the job)
cg=$(sed -n 's/^0:://p' /proc/$fio/cgroup)
case $cg in */iosched-bench.$real) ;; *) b_fail "fio is not in the run's cgroup: $cg" ;; esac
[ "$(sed -n 's/^0:://p' /proc/$d/cgroup)" = "$cg" ] || b_fail "the daemon left the run's cgroup: $(cat /proc/$d/cgroup)"
kill -TERM $real
wait $bench
wait_for 60000 gone $d || { kill -9 $d; b_fail "the daemon outlived the bench"; }
[ -d "$cgmnt$cg" ] && b_fail "the run's cgroup $cg is left"
echo "ok: SIGTERM, the daemon ended with the run"

# 2. kill -9 at once when fio appears, and later: the guard ends the cgroup
for i in 1 2 3 4 5 6; do
        start k$i
        wait_for 20000 has_fio $bench || b_fail "k$i: fio never started: $(cat "$B_TMP/err.k$i")"
        [ $i -gt 3 ] && sleep 0.5
        kill -9 $bench
        wait $bench 2>/dev/null
        wait_for 60000 no_run k$i $bench ||
                b_fail "k$i: fio still runs after kill -9: $(ps -o pid,ppid,pgid,stat,etimes,comm,args \
                        -p "$(run_of k$i $bench | paste -sd,)")"
        wait_for 60000 no_daemon || b_fail "k$i: the job's daemon outlived a kill -9"
        wait_for 60000 no_dir "$cgmnt$(sed -n 's/^0:://p' /proc/self/cgroup | sed 's|^/$||')/iosched-bench.$bench" ||
                b_fail "k$i: the run's cgroup is left"
done
echo "ok: kill -9, at once and later: nothing of the run is left"

# 2b. kill -9 while fio reads the jobs' files (fio run first, fenced, create_only=1: fionamed.c, with
# Landlock): a job it forked, in a session of its own, ends with the run.  A stand-in fio (built here,
# first in PATH) forks such a job when asked for the files' names (--debug=file), which runs the
# stand-in again as "fio --standin-job" (so the test finds it), and both wait forever.  Before, fio's
# reading ran outside the run's cgroup, and the job was left after the kill -9, for good.
if command -v cc >/dev/null && ! { [ -r /sys/kernel/security/lsm ] && ! grep -qw landlock /sys/kernel/security/lsm; }
then
        mkdir -p "$B_TMP/bin"
        cat >"$B_TMP/standin.c" <<'EOC'
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
        for (int i = 1; i < argc; i++) {
                if (!strcmp(argv[i], "--enghelp")) {
                        puts("Available IO engines:\n\tpsync\n\tsync");
                        return 0;
                }
                if (!strcmp(argv[i], "--debug=file")) {
                        if (fork() == 0) {
                                setsid();
                                execl("/proc/self/exe", "fio", "--standin-job", (char *)NULL);
                        }
                        for (;;)
                                pause();
                }
                if (!strcmp(argv[i], "--standin-job"))
                        for (;;)
                                pause();
        }
        return 1;
}
EOC
        cc -o "$B_TMP/bin/fio" "$B_TMP/standin.c" || b_fail "cc"
        head -c 65536 /dev/zero >"$B_TMP/t.read"
        env -u IOSCHED_BENCH_LANDLOCK PATH="$B_TMP/bin:$PATH" "$BENCH_BIN" --backend=fio --ioengine=psync \
                --name=cg-$id-read --filename="$B_TMP/t.read" --size=64k --rw=read \
                >"$B_TMP/out.read" 2>"$B_TMP/err.read" &
        bench=$!
        B_PIDS="$B_PIDS $bench"
        # the stand-in's job: the process running it as "fio --standin-job"
        job_pid() {
                for p in /proc/[0-9]*; do
                        [ "$(readlink "$p/exe" 2>/dev/null)" = "$B_TMP/bin/fio" ] &&
                                tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q -- "--standin-job" &&
                                echo "${p#/proc/}" && return 0
                done
                return 1
        }
        has_job() { job_pid >/dev/null; }
        wait_for 20000 has_job || b_fail "fio's reading: the stand-in's job never started: $(cat "$B_TMP/err.read")"
        job=$(job_pid)
        B_PIDS="$B_PIDS $job"
        kill -9 $bench
        wait $bench 2>/dev/null
        wait_for 60000 gone $job || b_fail "fio's reading: its job outlived a kill -9 of the bench"
        echo "ok: kill -9 while fio reads the jobs: its job ended with the run"
fi

# 3. no cgroup: the daemon (in a session of its own, an orphan once its shell ends) does not hold the
# bench after SIGTERM, and ends with the run: it came to the bench, a child subreaper, or to fio (the
# first process of its PID namespace), not to init
shim=$top/$BUILDDIR/tests/libiosfault.so
[ -r "$shim" ] || b_fail "$shim is not built (make tests)"
start nocg LD_PRELOAD="$shim" IOS_FAULT_NO_CGROUP=1 \
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
wait_for 20000 has_fio $bench || b_fail "nocg: fio never started: $(cat "$B_TMP/err.nocg")"
wait_for 20000 has_daemon
d=$(daemon)
[ -n "$d" ] || b_fail "nocg: the job's daemon never started"
B_PIDS="$B_PIDS $d"
case $(sed -n 's/^0:://p' /proc/$d/cgroup) in
*/iosched-bench.$bench) b_fail "nocg: the daemon is in a run cgroup (the shim did not hold): the case shows nothing" ;;
esac
# (in fio's PID namespace the orphan comes to fio, its first process, which the bench ends)
adopted() {
        pp=$(ps -o ppid= -p $d | tr -d ' ')
        [ "$pp" = $bench ] ||
                { [ "$(ps -o comm= -p "$pp")" = fio ] && [ "$(ps -o ppid= -p "$pp" | tr -d ' ')" = $bench ]; }
}
wait_for 20000 adopted || b_fail "nocg: the daemon's parent is $(ps -o ppid= -p $d), not the bench nor its fio"
kill -TERM $bench
wait $bench
wait_for 60000 gone $d || b_fail "nocg: the daemon outlived the run"
echo "ok: without a cgroup the daemon does not hold the bench, and ends with it"
# a chain of 21 daemons, each the child of the one before: each comes to the bench as the one above ends
printf 'n=$1\n[ "$n" -gt 0 ] && sh "$0" $((n - 1)) &\nexec sleep %s\n' $mark >chain.sh
daemons() { pgrep -x sleep 2>/dev/null | while read -r p; do
        [ "$(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null)" = "sleep $mark " ] && echo $p; done; }
env LD_PRELOAD="$shim" IOS_FAULT_NO_CGROUP=1 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
        "$BENCH_BIN" --backend=fio --allow-exec --allow-write --name=cg-$id-chain --filename="$B_TMP/t.chain" \
        --size=1m --direct=0 --rw=read --runtime=1 --exec_prerun="setsid -f sh $B_TMP/chain.sh 20; true" \
        >"$B_TMP/out.chain" 2>"$B_TMP/err.chain" || b_fail "chain: exit $?: $(cat "$B_TMP/err.chain")"
if ! wait_for 60000 no_daemon; then
        left=$(daemons | wc -l)
        kill -9 $(daemons) 2>/dev/null
        b_fail "nocg: $left of a chain of 21 daemons outlived the run"
fi
echo "ok: without a cgroup a chain of 21 daemons ends with the run"
# a child the bench did not start (its caller's, across exec) is not the bench's to end
sh -c "sleep $((mark + 1)) & exec env LD_PRELOAD='$shim' IOS_FAULT_NO_CGROUP=1 \
        ASAN_OPTIONS='${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0' '$BENCH_BIN' --backend=fio \
        --name=cg-$id-inh --filename='$B_TMP/t.inh' --size=1m --rw=write --allow-write --runtime=1" \
        >"$B_TMP/out.inh" 2>"$B_TMP/err.inh" || b_fail "inherited: exit $?: $(cat "$B_TMP/err.inh")"
kid=$(pgrep -x sleep | while read -r p; do
        [ "$(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null)" = "sleep $((mark + 1)) " ] && echo $p; done | head -1)
[ -n "$kid" ] || b_fail "inherited: the bench ended a child it did not start"
kill $kid
echo "ok: a child the bench had before fio is not its to end"

# 3b. a job waiting on its exec_prerun command (fio's job in system(), which SIGTERM to fio's group does
# not reach): the bench still ends after SIGTERM (fio has 5 s to report, then is killed), the command with
# it; with the cgroup and without
for how in cg nocg; do
        set --
        [ $how = nocg ] && set -- LD_PRELOAD="$shim" IOS_FAULT_NO_CGROUP=1 \
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
        prerun="sleep $mark" start wait$how "$@"
        wait_for 20000 has_fio $bench || b_fail "wait$how: fio never started: $(cat "$B_TMP/err.wait$how")"
        wait_for 20000 has_daemon || b_fail "wait$how: the prerun command never started"
        kill -TERM $bench
        wait_for 60000 gone $bench || b_fail "$how: a job waiting on exec_prerun held the bench after SIGTERM"
        wait $bench 2>/dev/null
        grep -q "interrupted by signal 15" "$B_TMP/err.wait$how" ||
                b_fail "$how: the bench did not say it was stopped: $(cat "$B_TMP/err.wait$how")"
        wait_for 60000 no_daemon || { kill -9 $(daemon); b_fail "$how: the prerun command outlived the bench"; }
done
echo "ok: a job waiting on its exec_prerun command does not hold the bench"

# 4. the cgroup of a bench in another PID namespace beside this one (a chroot or container in the same
# cgroup): its PID is no process here, and it holds its lock; an empty one is not a gone bench's, so a
# bench here leaves it (before: removed, and that bench's fio could not join it).  Once its lock is free,
# it is a gone bench's and the next bench removes it.
command -v flock >/dev/null || b_skip "no flock (cases 1 to 3 passed)"
own=$cgmnt$(sed -n 's/^0:://p' /proc/self/cgroup | sed 's|^/$||')
n=$(( $(cat /proc/sys/kernel/pid_max) - 2 ))
while [ -e /proc/$n ] || [ -e "$own/iosched-bench.$n" ]; do n=$((n - 1)); done
other=$own/iosched-bench.$n
mkdir "$other" || b_fail "mkdir $other"
(exec 9<"$other" && flock -x 9 && exec sleep 600) &      # the lock's one holder: this process
holder=$!
B_PIDS="$B_PIDS $holder"
held() { flock -xn "$other" true; [ $? = 1 ]; }
wait_for 20000 held || { kill $holder; rmdir "$other"; b_fail "flock never took $other"; }
head -c 65536 /dev/zero >"$B_TMP/t.ns"
quick() { "$BENCH_BIN" --backend=fio --name=cg-$id-ns --filename="$B_TMP/t.ns" --size=64k --rw=read \
        --runtime=1 >"$B_TMP/out.ns" 2>"$B_TMP/err.ns"; }
quick || { kill $holder; rmdir "$other"; b_fail "ns: the bench failed: $(cat "$B_TMP/err.ns")"; }
[ -d "$other" ] || { kill $holder; b_fail "ns: a bench removed the cgroup of a live bench of another PID namespace"; }
kill $holder
wait $holder 2>/dev/null
quick || { rmdir "$other" 2>/dev/null; b_fail "ns: the bench failed: $(cat "$B_TMP/err.ns")"; }
[ -d "$other" ] && { rmdir "$other"; b_fail "ns: the empty cgroup of a gone bench is left"; }
echo "ok: another PID namespace's bench keeps its cgroup while it lives"
echo ok
