#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: several concurrent jobs on loop devices the test attaches, the
# fio way.  A QD1 random reader and a QD32 writer run at once and are
# reported separately (JSON jobs[]: the reader has no writes, the writer no
# reads); the same jobs from an fio job file; an fio command line with
# single dashes, numjobs, group_reporting and directory= (per-thread files
# named as fio names them, removed afterwards); rate_iops, thinktime,
# startdelay and stonewall pace and order the jobs as asked (a mixed job's
# capped writes do not hold its reads); prioclass
# reaches the threads (ioprio_set); bad values, unknown options in a job
# file (file:line) and a writing preset without --allow-write are usage
# errors (exit 2); --objective=JOB:METRIC drives --compare's verdict, and
# a bare --compare runs its preset on a disk it reads in a second.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v jq >/dev/null || b_skip "no jq"
b_loop l 64
dev=/dev/$l

# jq EXPR FILE: true or fail with the file
check() { jq -e "$1" "$2" >/dev/null || b_fail "$3: $(jq -c '[.jobs[] | {jobname, groupid, r: .read.total_ios, w: .write.total_ios, rt: .read.runtime, e: .elapsed}]' "$2" 2>&1 | head -c 800)"; }

# 1. two different jobs at once, each reported with its own kind of I/O only
$BENCH --filename=$dev --allow-write --runtime=1s --name=reader --rw=randread --iodepth=1 \
        --name=writer --rw=write --bs=128k --iodepth=32 -J >"$B_TMP/two.json" 2>"$B_TMP/err" ||
        b_fail "reader + writer: $(cat "$B_TMP/err")"
check '(.jobs | length) == 2 and .jobs[0].jobname == "reader" and .jobs[1].jobname == "writer"' "$B_TMP/two.json" "two jobs"
check '.jobs[0].read.total_ios > 0 and .jobs[0].write.total_ios == 0 and .jobs[0].read.io_bytes == .jobs[0].read.total_ios * 4096' \
        "$B_TMP/two.json" "the reader: reads only"
check '.jobs[1].write.total_ios > 0 and .jobs[1].read.total_ios == 0 and .jobs[1].write.io_bytes == .jobs[1].write.total_ios * 131072' \
        "$B_TMP/two.json" "the writer: writes only"
check '.jobs[0]."job options".iodepth == "1" and .jobs[1]."job options".iodepth == "32" and .jobs[1]."job options".rw == "write"' \
        "$B_TMP/two.json" "job options per job"
# at once: the whole run took about one runtime, not two
check '.jobs[0].elapsed <= 2 and .disk_util[0].read_ios > 0 and .disk_util[0].write_ios > 0' "$B_TMP/two.json" "concurrent"
# the disk's counters cover the run from its first I/O: every read of the
# reader (nobody else reads this loop device) is in them, merged or not
check '.disk_util[0].read_ios + .disk_util[0].read_merges == .jobs[0].read.total_ios' "$B_TMP/two.json" \
        "disk reads $(jq '.disk_util[0].read_ios + .disk_util[0].read_merges' "$B_TMP/two.json") for the reader's"
$BENCH --filename=$dev --allow-write --runtime=300ms --name=reader --rw=randread --name=writer --rw=write \
        >"$B_TMP/two.txt" 2>&1 || b_fail "text: $(cat "$B_TMP/two.txt")"
grep -q "^reader: $dev rw=randread" "$B_TMP/two.txt" && grep -q "^writer: $dev rw=write" "$B_TMP/two.txt" ||
        b_fail "text report per job: $(cat "$B_TMP/two.txt")"

# 2. the same from an fio job file, the device from the environment
cat >"$B_TMP/mixed.fio" <<'EOT'
; reader under writer
[global]
filename=${BENCH_JOBS_DEV}
runtime=1s
ioengine=libaio

[reader]
rw=randread
bs=4k
iodepth=1

# the writer
[writer]
rw=randwrite
bs=64k
iodepth=32
EOT
BENCH_JOBS_DEV=$dev $BENCH --allow-write --output-format=json "$B_TMP/mixed.fio" >"$B_TMP/file.json" 2>"$B_TMP/err" ||
        b_fail "job file: $(cat "$B_TMP/err")"
check '(.jobs | length) == 2 and .jobs[0].read.total_ios > 0 and .jobs[0].write.total_ios == 0 and
        .jobs[1].write.total_ios > 0 and .jobs[1].read.total_ios == 0 and .jobs[1]."job options".ioengine == "libaio"' \
        "$B_TMP/file.json" "job file"
# "-": the job file on standard input, as fio reads it
printf '[global]\nfilename=%s\nruntime=300ms\n[only]\nrw=randread\n' "$dev" |
        $BENCH -J - >"$B_TMP/stdin.json" 2>"$B_TMP/err" || b_fail "job file on stdin: $(cat "$B_TMP/err")"
check '(.jobs | length) == 1 and .jobs[0].jobname == "only" and .jobs[0].read.total_ios > 0' "$B_TMP/stdin.json" "stdin"
printf '[a]\nrw=read\nfilename=%s\nverify=crc32c\nbssplit=4k/50:8k/50\nzonemode=zbd\n' "$dev" >"$B_TMP/bad.fio"
$BENCH --backend=native "$B_TMP/bad.fio" >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] || b_fail "unsupported options with --backend=native: exit $rc"
grep -q "^iosched-bench: the native engine does not implement: $B_TMP/bad.fio:4: verify=crc32c, $B_TMP/bad.fio:6: zonemode=zbd$" "$B_TMP/err" || b_fail "$(cat "$B_TMP/err")"
printf '[a]\nrw=read\nfilename=%s\nfrobnicate\n' "$dev" >"$B_TMP/bad.fio"
$BENCH "$B_TMP/bad.fio" >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "bad.fio:4: unknown option 'frobnicate'" "$B_TMP/err" || b_fail "exit $rc: $(cat "$B_TMP/err")"

# 3. an fio command line as admins write it: single dashes, numjobs, group_reporting, directory=
mkdir "$B_TMP/dir"
$BENCH --allow-write -directory="$B_TMP/dir" -size=4m -numjobs=2 -bs=4k -ioengine=libaio -iodepth=4 -group_reporting \
        -runtime=2s -time_based -output-format=json -output="$B_TMP/dir.json" -name=w -rw=randwrite -name=r -rw=randread \
        2>"$B_TMP/err" &
pid=$!
B_PIDS="$B_PIDS $pid"
sleep 1
ls "$B_TMP/dir" | sort | tr '\n' ' ' >"$B_TMP/files"
wait $pid || b_fail "fio command line: $(cat "$B_TMP/err")"
[ "$(cat "$B_TMP/files")" = "r.0.0 r.1.0 w.0.0 w.1.0 " ] || b_fail "per-thread files: $(cat "$B_TMP/files")"
[ -z "$(ls -A "$B_TMP/dir")" ] || b_fail "files left behind: $(ls -A "$B_TMP/dir")"
# one group, both jobs group_reporting: one element, under the first job's name, with both kinds of I/O
check '(.jobs | length) == 1 and .jobs[0].jobname == "w" and .jobs[0].write.total_ios > 0 and .jobs[0].read.total_ios > 0' \
        "$B_TMP/dir.json" "group_reporting"

# 4. rate_iops, thinktime, startdelay, stonewall
$BENCH --filename=$dev --runtime=2s --time_based --name=paced --rw=randread --rate_iops=200 \
        --name=thinker --rw=randread --thinktime=20ms --name=late --rw=read --startdelay=1s --runtime=500ms \
        -J >"$B_TMP/pace.json" 2>"$B_TMP/err" || b_fail "pacing: $(cat "$B_TMP/err")"
# 200/s for 2 s: 400 at most (the upper bound shows the pacing; a loaded machine may fall short); thinktime 20 ms at QD1: about 50/s at most
check '.jobs[0].read.total_ios >= 300 and .jobs[0].read.total_ios <= 410' "$B_TMP/pace.json" "rate_iops=200"
check '.jobs[1].read.total_ios > 10 and .jobs[1].read.iops <= 55' "$B_TMP/pace.json" "thinktime=20ms"
check '.jobs[2].read.runtime >= 450 and .jobs[2].read.runtime <= 1000' "$B_TMP/pace.json" "startdelay"
# a mixed job with its writes capped: the reads go on while the writes wait, as in fio (rate_ddir())
$BENCH --filename=$dev --allow-write --runtime=2s --time_based --rw=randrw --iodepth=8 --rate_iops=,50 \
        -J >"$B_TMP/mixcap.json" 2>"$B_TMP/err" || b_fail "one direction capped: $(cat "$B_TMP/err")"
check '.jobs[0].write.total_ios <= 110 and .jobs[0].read.total_ios > 3 * .jobs[0].write.total_ios' \
        "$B_TMP/mixcap.json" "rate_iops=,50 on randrw held the reads too"
$BENCH --filename=$dev --runtime=600ms --time_based --name=first --rw=read --name=second --rw=randread --stonewall \
        -J >"$B_TMP/wall.json" 2>"$B_TMP/err" || b_fail "stonewall: $(cat "$B_TMP/err")"
check '.jobs[0].groupid == 0 and .jobs[1].groupid == 1 and .jobs[0].elapsed >= 1' "$B_TMP/wall.json" "stonewall"

# 5. prioclass reaches every thread of its job
$BENCH --filename=$dev --runtime=3s --time_based --name=idle --rw=randread --prioclass=3 --numjobs=2 >/dev/null 2>&1 &
pid=$!
B_PIDS="$B_PIDS $pid"
sleep 1
n=0
for t in /proc/$pid/task/*; do
        tid=${t##*/}
        [ "$tid" = $pid ] && continue
        ionice -p "$tid" 2>/dev/null | grep -q "^idle" && n=$((n + 1))
done
wait $pid || b_fail "prioclass run failed"
[ $n = 2 ] || b_fail "want 2 job threads in the idle class, got $n"

# 6. usage errors: a writing preset without --allow-write, a bad new value
$BENCH --filename=$dev --workload=mixed-latency >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "^iosched-bench: --workload=mixed-latency writes: add --allow-write" "$B_TMP/err" ||
        b_fail "preset without --allow-write: exit $rc: $(cat "$B_TMP/err")"
$BENCH --filename=$dev --name=a --rate_iops=lots >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] || b_fail "bad rate_iops: exit $rc"
# a read-only preset runs without it
$BENCH --filename=$dev --workload=seq-stream --runtime=300ms -J >"$B_TMP/seq.json" 2>"$B_TMP/err" ||
        b_fail "seq-stream: $(cat "$B_TMP/err")"
check '.jobs[0].jobname == "stream" and .jobs[0].read.total_ios > 0' "$B_TMP/seq.json" "seq-stream"

# 7. --objective=JOB:METRIC: the reader's p99 under the writer decides the verdict
q=/sys/block/$l/queue
if grep -qw mq-deadline $q/scheduler; then
        b_queue_state $l >"$B_TMP/before"
        $BENCH --filename=$dev --allow-write --workload=mixed-latency --runtime=300ms --ramp_time=0 --loops=2 \
                --compare=none,mq-deadline --objective=reader:p99 >"$B_TMP/cmp.txt" 2>"$B_TMP/err" ||
                b_fail "compare by reader:p99: $(cat "$B_TMP/err")"
        grep -q "objective reader:p99 (lower is better)" "$B_TMP/cmp.txt" || b_fail "objective: $(cat "$B_TMP/cmp.txt")"
        grep -q "^  best: .*, [0-9.]*% lower reader p99 than .*noise" "$B_TMP/cmp.txt" || b_fail "verdict: $(cat "$B_TMP/cmp.txt")"
        b_queue_state $l >"$B_TMP/after"
        diff "$B_TMP/before" "$B_TMP/after" >/dev/null || b_fail "not restored"
        $BENCH --filename=$dev --allow-write --workload=mixed-latency --compare --objective=nobody:p99 \
                >/dev/null 2>"$B_TMP/err"; rc=$?
        [ $rc = 2 ] && grep -q "no job named 'nobody' (jobs: reader, writer)" "$B_TMP/err" ||
                b_fail "objective naming no job: exit $rc: $(cat "$B_TMP/err")"
        # a bare --compare (mixed-read, as validate runs it) on a disk small enough to read in the 1 s
        # ramp each round settles in: every preset job runs for the runtime, so every round measures
        # (before: "job 'streamer': all its 64 I/Os fell in the 1 s ramp_time", exit 2)
        b_loop s 8
        $BENCH --filename=/dev/$s --compare=none,mq-deadline --loops=1 --runtime=1 >"$B_TMP/cmp.txt" \
                2>"$B_TMP/err" || b_fail "a bare --compare on 8 MiB: $(tail -2 "$B_TMP/err")"
        grep -q "^  best: " "$B_TMP/cmp.txt" || b_fail "a bare --compare on 8 MiB: $(cat "$B_TMP/cmp.txt")"
fi
echo ok
