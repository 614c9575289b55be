#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: job files and command lines in the styles admins write them
# (issue 22), run by the native engine on a loop device the test attaches:
# a reader under a writer with name=/description= in [global], thread,
# random_generator=lfsr, ioengine=sync and pvsync, fio's reporting options
# (gtod_reduce, per_job_logs, eta-newline: one note line on stderr); a
# cache tier job with bssplit= and random_distribution=zipf (I/O sizes mixed
# in the JSON's bytes); a job with no filename= (fio's JOBNAME.N.0 in the
# current directory, made with filesize= and removed afterwards); a blog
# command line with --readonly, --invalidate, --refill_buffers and
# --end_fsync (one fsync(2) by the job thread, seen with strace); and a
# job file of fio options the native engine lacks, with --backend=native:
# exit 2 with all of them,
# FILE:LINE each, in one line; a --compare of jobs that name no file or
# device (ioengine=exec) says so (exit 2); a job that trims (rw=randtrim,
# trimwrite in a job file), whose figures fio reports apart from reads and
# writes, is refused (exit 2) before fio runs, alone or in a --compare,
# not reported as 0 IOPS with a "best", nor a --compare of calls on files
# (ioengine=filestat) or of null spelt null:x, nor a --compare whose rounds did no I/O (fio skips a
# job whose exec_prerun= fails; exit 1), nor of a region past the device's
# end (exit 2, on both backends); jobs one after another (stonewall,
# wait_for=): a
# round's time is theirs added up, in the line before it and in the run's
# IOPS (at most its faster job's); on fio, a job's clones (numjobs=),
# which fio reports apart, are one job with their results added up, as
# natively: numjobs= said, one entry per job in -J, the objective of a
# job is all of its clones; the bench reads a job file for fio once (strace);
# a direction's figures are over its own time (a group of a long reader
# and a short writer, verify='s reads after its writes, both backends),
# and a group of jobs one after another (wait_for=) over their times
# added up; an option that takes a value, set alone, is said (exit 2);
# no terminal escape from a job file or fio's words reaches the
# terminal.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v jq >/dev/null || b_skip "no jq"
b_loop l 128
dev=/dev/$l
check() { jq -e "$1" "$2" >/dev/null || b_fail "$3: $(jq -c '[.jobs[] | {jobname, r: .read.total_ios, rb: .read.io_bytes, w: .write.total_ios, wb: .write.io_bytes}]' "$2" 2>&1 | head -c 800)"; }

# 1. the kyber seed's style: a QD1 reader under a buffered-free writer
cat >"$B_TMP/reader-under-writer.fio" <<'EOT'
# reader under writer, as in the kyber write-starvation reports
[global]
name=rw-starve
description=Latency of small random reads while a writer streams
filename=${DEV}
direct=1
thread
time_based
runtime=1s
random_generator=lfsr
gtod_reduce=0
per_job_logs=0
group_reporting=0

[reader]
description=the victim
ioengine=sync
rw=randread
bs=4k

[writer]
ioengine=pvsync
rw=write
bs=256k
EOT
DEV=$dev $BENCH --allow-write --eta-newline=1 -J "$B_TMP/reader-under-writer.fio" >"$B_TMP/ruw.json" 2>"$B_TMP/err" ||
        b_fail "reader under writer: $(cat "$B_TMP/err")"
check '(.jobs | length) == 2 and .jobs[0].jobname == "reader" and .jobs[1].jobname == "writer" and
        .jobs[0].read.total_ios > 100 and .jobs[0].write.total_ios == 0 and .jobs[1].write.total_ios > 10 and
        .jobs[0]."job options".ioengine == "sync" and .jobs[1]."job options".ioengine == "pvsync"' "$B_TMP/ruw.json" "reader under writer"
[ "$(wc -l <"$B_TMP/err")" = 1 ] && grep -q "^iosched-bench: note: ignored, they change only fio's own reporting or timing: --eta-newline=1, .*reader-under-writer.fio:11: gtod_reduce=0, .*:12: per_job_logs=0$" "$B_TMP/err" ||
        b_fail "note line: $(cat "$B_TMP/err")"

# 2. a cache tier: mixed sizes, a hot set
cat >"$B_TMP/cache.fio" <<EOT
[global]
filename=$dev
runtime=1s
ioengine=io_uring
iodepth=8

[hot-reads]
rw=randread
bssplit=4k/50:64k/50
random_distribution=zipf:1.1
EOT
$BENCH -J "$B_TMP/cache.fio" >"$B_TMP/cache.json" 2>"$B_TMP/err" || b_fail "bssplit + zipf: $(cat "$B_TMP/err")"
# half 4k, half 64k: 34k a read on average, far from either size alone
check '.jobs[0].read.total_ios > 100 and (.jobs[0].read.io_bytes / .jobs[0].read.total_ios) > 20000 and
        (.jobs[0].read.io_bytes / .jobs[0].read.total_ios) < 50000' "$B_TMP/cache.json" "bssplit sizes"

# 3. no filename: fio's JOBNAME.N.0 in the current directory, removed afterwards
mkdir "$B_TMP/cwd"
(cd "$B_TMP/cwd" && printf '[global]\nfilesize=8m\ntime_based\nruntime=2s\n[scratch]\nrw=randwrite\nnumjobs=2\nend_fsync=1\n' |
        $BENCH -J --allow-write - >"$B_TMP/cwd.json" 2>"$B_TMP/cwd.err") &
pid=$!
B_PIDS="$B_PIDS $pid"
sleep 1
ls "$B_TMP/cwd" | sort | tr '\n' ' ' >"$B_TMP/files"
wait $pid || b_fail "no filename: $(cat "$B_TMP/cwd.err")"
[ "$(cat "$B_TMP/files")" = "scratch.0.0 scratch.1.0 " ] || b_fail "default files: $(cat "$B_TMP/files")"
[ -z "$(ls -A "$B_TMP/cwd")" ] || b_fail "files left behind: $(ls -A "$B_TMP/cwd")"
check '.jobs[0].write.total_ios > 0' "$B_TMP/cwd.json" "default files"

# 4. a blog's command line
$BENCH --name=blog --filename=$dev --readonly --invalidate=1 --direct=0 --rw=randread --bs=4k --runtime=500ms \
        --gtod_reduce=1 -J >"$B_TMP/blog.json" 2>"$B_TMP/err" || b_fail "blog command line: $(cat "$B_TMP/err")"
check '.jobs[0].read.total_ios > 0' "$B_TMP/blog.json" "--readonly --invalidate"
$BENCH --name=blog --filename=$dev --readonly --rw=randwrite --runtime=500ms >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "^iosched-bench: --readonly: job 'blog' writes (rw=randwrite)$" "$B_TMP/err" ||
        b_fail "--readonly with writes: exit $rc $(cat "$B_TMP/err")"
$BENCH --name=blog --filename=$dev --allow-write --rw=write --bs=64k --direct=0 --refill_buffers --end_fsync=1 \
        --size=16m --io_size=16m -J >"$B_TMP/fsync.json" 2>"$B_TMP/err" || b_fail "end_fsync: $(cat "$B_TMP/err")"
check '.jobs[0].write.io_bytes == 16777216' "$B_TMP/fsync.json" "buffered writes"
# end_fsync: the job thread calls fsync(2) on the device once it is done, and only with end_fsync
if command -v strace >/dev/null; then
        for want in 1 0; do
                # (LeakSanitizer cannot run under ptrace)
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -e trace=fsync -o "$B_TMP/strace" $BENCH_BIN --name=blog --filename=$dev --allow-write --rw=write \
                        --bs=64k --direct=0 --end_fsync=$want --size=4m --io_size=4m >/dev/null 2>"$B_TMP/err" ||
                        b_fail "end_fsync=$want under strace: $(cat "$B_TMP/err")"
                n=$(grep -c '^[0-9]* *fsync(' "$B_TMP/strace")
                [ "$n" = $want ] || b_fail "end_fsync=$want: $n fsync calls: $(cat "$B_TMP/strace")"
        done
        # ioengine=sync seeks: two threads on one device each seek their own descriptor
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -e trace=lseek -o "$B_TMP/strace" $BENCH_BIN \
                --name=s --filename=$dev --ioengine=sync --numjobs=2 --rw=read --runtime=200ms >/dev/null 2>"$B_TMP/err" ||
                b_fail "sync, numjobs=2: $(cat "$B_TMP/err")"
        fds=$(sed -n 's/^\([0-9]*\) *lseek(\([0-9]*\),.*/\1 \2/p' "$B_TMP/strace" | sort -u | wc -l)
        tids=$(sed -n 's/^\([0-9]*\) *lseek(.*/\1/p' "$B_TMP/strace" | sort -u | wc -l)
        [ "$tids" = 2 ] && [ "$fds" = 2 ] && [ "$(sed -n 's/^[0-9]* *lseek(\([0-9]*\),.*/\1/p' "$B_TMP/strace" | sort -u | wc -l)" = 2 ] ||
                b_fail "sync threads sharing a file position: $tids threads, $fds thread/fd pairs"
        # the bench reads a job file for fio once (its reading, the checks and the files it includes
        # all from that text), and opens it once more for the fence's rule; fio, a child, not traced
        # (before: read three times)
        printf '[j]\nioengine=null\nsize=1m\nrw=read\nbs=4k\n' >"$B_TMP/once.fio"
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -qq -e trace=openat -o "$B_TMP/strace" \
                $BENCH_BIN --backend=fio "$B_TMP/once.fio" >/dev/null 2>"$B_TMP/err" ||
                b_fail "a job file under strace: $(cat "$B_TMP/err")"
        n=$(grep -c "\"$B_TMP/once.fio\"" "$B_TMP/strace")
        [ "$n" = 2 ] || b_fail "a job file opened $n times, not once to read and once to fence: $(grep once "$B_TMP/strace")"
fi

# 5. what the native engine lacks (--backend=native; auto would run fio): all of it, FILE:LINE each, one line, exit 2
cat >"$B_TMP/lacks.fio" <<EOT
[global]
filename=$dev
verify=crc32c
[zoned]
zonemode=zbd
rw=randtrim
[flow]
flow=2
write_lat_log=lat
EOT
$BENCH --backend=native --allow-write --section=zoned "$B_TMP/lacks.fio" >/dev/null 2>"$B_TMP/err"; rc=$?
f=$B_TMP/lacks.fio
[ $rc = 2 ] && [ "$(cat "$B_TMP/err")" = "iosched-bench: the native engine does not implement: --section=zoned, $f:3: verify=crc32c, $f:5: zonemode=zbd, $f:6: rw=randtrim, $f:8: flow=2, $f:9: write_lat_log=lat" ] ||
        b_fail "unsupported list: exit $rc: $(cat "$B_TMP/err")"
# a --compare of jobs that name no file or device (ioengine=exec): said so, exit 2
(cd "$B_TMP" && $BENCH --compare --name=x --ioengine=exec --program=/bin/true --allow-exec --allow-write) \
        >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "^iosched-bench: --compare: the jobs name no file or device, so no scheduler to compare$" \
        "$B_TMP/err" || b_fail "--compare of no file: exit $rc: $(cat "$B_TMP/err")"
# fio keeps "null" of ioengine=null:x (parse.c cuts a value at ':' after one of its engines): a
# job of no file, as null's (before: with --allow-exec, "best" from null's 7M IOPS, exit 0)
printf '[n]\nfilename=%s\nrw=randread\nruntime=1\ntime_based=1\nioengine=null:x\n' "$dev" >"$B_TMP/nullx.fio"
$BENCH --allow-exec --compare=none,mq-deadline --loops=1 "$B_TMP/nullx.fio" >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "^iosched-bench: --compare: the jobs name no file or device" "$B_TMP/err" &&
        ! grep -qi best "$B_TMP/out" || b_fail "ioengine=null:x --compare: exit $rc: $(cat "$B_TMP/err" "$B_TMP/out")"
# trims: refused before fio runs (before: 0 IOPS for every variant, "best: none", exit 0)
$BENCH --allow-write --filename="$dev" --rw=randtrim --runtime=1 --time_based >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "^iosched-bench: job 'iosched-bench': rw=randtrim trims: iosched-bench measures and compares reads and writes, not trims$" "$B_TMP/err" ||
        b_fail "randtrim: exit $rc: $(cat "$B_TMP/err" "$B_TMP/out")"
printf '[t]\nfilename=%s\nrw=trimwrite\nruntime=1\n' "$dev" >"$B_TMP/trim.fio"
$BENCH --allow-write --compare=none,mq-deadline --loops=1 "$B_TMP/trim.fio" >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "^iosched-bench: job 't': rw=trimwrite trims: " "$B_TMP/err" && ! grep -qi best "$B_TMP/out" ||
        b_fail "trimwrite --compare: exit $rc: $(cat "$B_TMP/err" "$B_TMP/out")"
# a --compare of calls on files (filestat: stat()s the disk's scheduler seldom sees): refused before fio
# runs (before: a "best" named from millions of stat()s, exit 0)
$BENCH --compare=none,mq-deadline --loops=1 --name=s --filename="$dev" --ioengine=filestat --runtime=1 \
        --time_based >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "^iosched-bench: job 's': ioengine=filestat counts calls on files, which the disk's scheduler seldom sees" "$B_TMP/err" &&
        ! grep -qi best "$B_TMP/out" || b_fail "filestat --compare: exit $rc: $(cat "$B_TMP/err" "$B_TMP/out")"
# rounds that did no I/O: no figure, no "best" (before: 0 IOPS for each variant, "best: none", exit 0)
printf '[j]\nfilename=%s\nrw=randread\ntime_based\nruntime=1\nexec_prerun=false\n' "$dev" >"$B_TMP/skip.fio"
(cd "$B_TMP" && $BENCH --allow-exec --allow-write --compare=none,mq-deadline --loops=1 skip.fio) >"$B_TMP/out" \
        2>"$B_TMP/err"; rc=$?
[ $rc = 1 ] && grep -q "^iosched-bench: the run did no I/O in the measured window: no figure to compare" "$B_TMP/err" &&
        ! grep -qi best "$B_TMP/out" || b_fail "no I/O --compare: exit $rc: $(cat "$B_TMP/err" "$B_TMP/out")"
# a region past the device's end: a job that cannot be, exit 2, as natively (before: fio did 1 I/O a
# round, its 1 ms floor reported as "1000 IOPS" and a "best")
end=$(blockdev --getsize64 "$dev")
for b in fio native; do
        $BENCH --backend=$b --filename="$dev" --rw=randread --offset=$((end - 4096)) --size=1m \
                --compare=none,mq-deadline --loops=1 >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
        [ $rc = 2 ] && grep -q "beyond the end of $dev ($end bytes)" "$B_TMP/err" && ! grep -qi best "$B_TMP/out" ||
                b_fail "$b: a region past the end: exit $rc: $(cat "$B_TMP/err" "$B_TMP/out")"
done
# jobs one after another (stonewall): the run's IOPS are its I/Os over the jobs' times added up, at
# most the faster job's (before: over the longest job's time, 140k from jobs of 45-49k each)
printf '[global]\nfilename=%s\nrw=randread\ntime_based\nruntime=300ms\n[a]\n[b]\nstonewall\n' "$dev" >"$B_TMP/sw.fio"
for b in fio native; do
        $BENCH -J --backend=$b --compare=none,mq-deadline --loops=1 "$B_TMP/sw.fio" >"$B_TMP/sw.json" \
                2>"$B_TMP/err" || b_fail "stonewall, $b: $(cat "$B_TMP/err")"
        grep -q "each round 0.6s (+2.0s ramp)" "$B_TMP/err" || b_fail "stonewall, $b: the round's length: $(cat "$B_TMP/err")"
        check '. as $d | [.compare.schedulers[] | .name as $v | .iops <= 1.01 * ([$d.jobs[] |
                select(.jobname | endswith("." + $v + ".1")) | .read.iops] | max)] | all' "$B_TMP/sw.json" \
                "stonewall, $b: a run's IOPS above its faster job's"
done
# and a job that waits for another (wait_for=, fio's): the same (before: the two jobs' IOPS added up)
sed 's/^stonewall$/wait_for=a/' "$B_TMP/sw.fio" >"$B_TMP/wf.fio"
$BENCH -J --compare=none,mq-deadline --loops=1 "$B_TMP/wf.fio" >"$B_TMP/sw.json" 2>"$B_TMP/err" ||
        b_fail "wait_for: $(cat "$B_TMP/err")"
check '. as $d | [.compare.schedulers[] | .name as $v | .iops <= 1.01 * ([$d.jobs[] |
        select(.jobname | endswith("." + $v + ".1")) | .read.iops] | max)] | all' "$B_TMP/sw.json" \
        "wait_for: a run's IOPS above its faster job's"
# a job's clones: one job, as natively (before: each clone a job of its own, numjobs=1, and a job's
# objective judged on its first clone alone)
for b in fio native; do
        $BENCH -J --backend=$b --filename="$dev" --runtime=1 --time_based --name=reader --rw=randread \
                --numjobs=3 --name=other --rw=randread >"$B_TMP/clones.json" 2>"$B_TMP/err" ||
                b_fail "clones, $b: $(cat "$B_TMP/err")"
        check '[.jobs[] | [.jobname, .["job options"].numjobs]] == [["reader", "3"], ["other", "1"]]' \
                "$B_TMP/clones.json" "clones, $b: not one job each"
done
$BENCH --backend=fio --filename="$dev" --rw=randread --numjobs=4 --runtime=1 --time_based >"$B_TMP/out" \
        2>"$B_TMP/err" || b_fail "numjobs=4: $(cat "$B_TMP/err")"
grep -q "rw=randread bs=4KiB iodepth=1 numjobs=4 " "$B_TMP/out" || b_fail "numjobs=4 not said: $(head -3 "$B_TMP/out")"
# a direction's figures are over its own time: a group (group_reporting) of a reader for 600 ms and a
# writer for 200 ms writes in 200 ms (before: its writes over 600 ms, a third of their rate)
printf '[global]\nfilename=%s\ntime_based\ngroup_reporting\n[a]\nrw=randread\nruntime=600ms\n[b]\nrw=randwrite\nruntime=200ms\n' \
        "$dev" >"$B_TMP/gr.fio"
for b in fio native; do
        $BENCH -J --backend=$b --allow-write "$B_TMP/gr.fio" >"$B_TMP/gr.json" 2>"$B_TMP/err" ||
                b_fail "group_reporting, $b: $(cat "$B_TMP/err")"
        check '.jobs | length == 1 and .[0].write.runtime < 400 and .[0].read.runtime >= 550 and
                .[0].write.iops >= .[0].write.total_ios / 0.4' "$B_TMP/gr.json" "group_reporting, $b: writes over the reads' time"
done
# a group of jobs one after another (wait_for=, fio's): the group's time is theirs added up (before:
# fio's group figure, the longer job's, and the run's IOPS twice either job's)
printf '[global]\nfilename=%s\ntime_based\nruntime=300ms\ngroup_reporting\n[a]\nrw=randread\n[b]\nrw=randread\nwait_for=a\n' \
        "$dev" >"$B_TMP/gw.fio"
$BENCH -J --backend=fio "$B_TMP/gw.fio" >"$B_TMP/gw.json" 2>"$B_TMP/err" || b_fail "wait_for in a group: $(cat "$B_TMP/err")"
check '.jobs | length == 1 and .[0].read.runtime >= 550 and .[0].job_runtime >= 550' "$B_TMP/gw.json" \
        "wait_for in a group: the group's time"
# verify=: the reads after the writes, each over its own time, the job's over both (before: both
# directions over the longer one, the job's IOPS 1.5-1.9x)
$BENCH -J --backend=fio --filename="$dev" --allow-write --rw=write --size=16m --verify=crc32c >"$B_TMP/v.json" \
        2>"$B_TMP/err" || b_fail "verify: $(cat "$B_TMP/err")"
check '.jobs[0] | .read.total_ios == 4096 and .write.total_ios == 4096 and
        .job_runtime + 3 >= .read.runtime + .write.runtime' "$B_TMP/v.json" "verify: the job's time is not its phases'"
# an option that takes a value, alone: fio refuses it or crashes (cpus_allowed: SIGSEGV), so it is said,
# exit 2 (before: run as cpus_allowed=1, pinned to CPU 1, another job than the file's)
printf '[alone]\nfilename=%s\nrw=read\nsize=1m\ncpus_allowed\n' "$dev" >"$B_TMP/alone.fio"
$BENCH --backend=fio "$B_TMP/alone.fio" >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
[ $rc = 2 ] && grep -q "job 'alone': cpus_allowed has no value: fio takes one" "$B_TMP/err" ||
        b_fail "cpus_allowed alone: exit $rc: $(cat "$B_TMP/err")"
# a terminal's escape reaches no terminal: a job file holding one is no job file, and a value fio
# echoes in its reason is said with '?' for it (before: ESC [31m in the bench's lines)
esc=$(printf '\033')
printf '[r%s[31mRED]\nfilename=%s\nrw=read\nsize=1m\n' "$esc" "$dev" >"$B_TMP/esc.fio"
$BENCH --backend=fio "$B_TMP/esc.fio" >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
[ $rc = 2 ] && grep -q "esc.fio: not a job file (a control character" "$B_TMP/err" ||
        b_fail "a job file with an escape: exit $rc: $(cat -v "$B_TMP/err")"
# the same with CSI as one character, U+009B in UTF-8 (before: run, the section's name in the report)
printf '[r\302\23331mRED]\nfilename=%s\nrw=read\nsize=1m\n' "$dev" >"$B_TMP/c1.fio"
$BENCH --backend=fio "$B_TMP/c1.fio" >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
[ $rc = 2 ] && grep -q "c1.fio: not a job file (a control character" "$B_TMP/err" ||
        b_fail "a job file with a C1 CSI: exit $rc: $(cat -v "$B_TMP/err" "$B_TMP/out")"
$BENCH --backend=fio --filename="$dev" --rw=read --size=1m "--exitall_on_error=q$esc[31m" >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
[ $rc = 2 ] && grep -q "exitall_on_error=q?\[31m" "$B_TMP/err" && ! grep -q "$esc" "$B_TMP/err" "$B_TMP/out" ||
        b_fail "an escape fio echoes: exit $rc: $(cat -v "$B_TMP/err")"
echo "PASS"
