#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: iosched-bench's command line without root: usage errors exit
# 2 with one "iosched-bench: ..." line, --help/--version exit 0, the null
# engine runs and writes fio-shaped JSON, writing to an existing file is
# refused (exit 3) without --allow-write, and a file the tool creates in a
# directory for a write workload is removed afterwards.  The progress line
# (--eta=always) is rewritten in place once a second, names the loop it
# belongs to, and is cleared at the end; off a terminal --eta=auto prints
# none.  One I/O's latency is its least and its most; a bssplit job is
# labelled with its split.  Jobs whose I/O buffers would take more than half of the machine's
# memory are refused (exit 3) before a file is laid out, jobs whose clones
# pass fio's 4,096 (exit 2) before a thread starts.  With
# --backend=native, fio options the native engine lacks are one usage error
# naming them all; an option neither tool has is an unknown option; one of
# fio's that takes a value is refused empty or alone, as fio refuses it.
# As root, on a loop device the
# test attaches: --compare with a scheduler the device cannot run is a
# usage error naming it and the available ones, before anything is
# switched or measured, and legacy names run as their blk-mq twins.
. "$(dirname "$0")/bench-lib.sh"
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"

# expect CODE PATTERN ARGS...: exit code, and exactly one stderr line matching
expect() {
        code=$1 pat=$2; shift 2
        $BENCH "$@" >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
        [ $rc = "$code" ] || b_fail "$*: exit $rc, want $code ($(cat "$B_TMP/err"))"
        [ "$(wc -l <"$B_TMP/err")" = 1 ] || b_fail "$*: want one line on stderr, got: $(cat "$B_TMP/err")"
        grep -q "^iosched-bench: .*$pat" "$B_TMP/err" || b_fail "$*: message '$(cat "$B_TMP/err")' lacks '$pat'"
}

expect 2 "invalid --rw 'sideways'" --filename=/dev/null --rw=sideways
expect 2 "invalid --bs 'big'" --filename=/dev/null --bs big
expect 2 "the native engine does not implement: --bs=1000" --backend=native --filename=/dev/null --bs=1000
expect 2 "missing --filename" --rw=randread
expect 2 "unknown option --frobnicate" --filename=/dev/null --frobnicate
expect 2 "option --iodepth needs a value" --filename=/dev/null --iodepth
expect 2 "invalid --runtime '5parsecs'" --filename=/dev/null --runtime=5parsecs
expect 2 "the native engine does not implement: --ioengine=posixaio" --backend=native --filename=/dev/null --ioengine=posixaio
expect 2 "invalid --ioengine ''" --filename=/dev/null --ioengine=
expect 2 "does not exist: give --size" --allow-write --filename="$B_TMP/nonexistent/deeper"
# a new file is a write, laid out for the run: --allow-write, as on the fio backend
expect 3 "refusing to make $B_TMP/new without --allow-write" --filename="$B_TMP/new" --size=1m --rw=read
[ ! -e "$B_TMP/new" ] || b_fail "a new file was made without --allow-write"
expect 3 "refusing to make a file in $B_TMP without --allow-write" --filename="$B_TMP" --size=1m --rw=read
expect 2 "is not a block device, file or directory" --filename=/dev/null
# fio starts a job per --name; the options after it are the job's
expect 2 "invalid --iodepth '0'" --ioengine=null --name=a --runtime=100ms --name=b --iodepth=0
expect 2 "the native engine does not implement: --verify=crc32c, --flow=1$" --backend=native --ioengine=null --name=a --verify=crc32c --flow 1
expect 2 "invalid --compare 'BFQ'" --filename=/dev/null --compare=BFQ
# an option of fio's that takes a value, empty or alone: fio refuses the first and takes the next
# argument as the value of the second
expect 2 "option --write_bw_log needs a value" --backend=fio --filename=/dev/null --write_bw_log=
expect 2 "option --write_lat_log needs a value" --backend=fio --filename=/dev/null --write_lat_log --rw=read
expect 2 "option --verify_pattern needs a value" --backend=fio --filename=/dev/null --verify_pattern
# a thread each for the jobs and their clones: at most fio's 4,096, before any starts
{ printf '[global]\nioengine=null\nnumjobs=256\nsize=1m\nruntime=1s\n'; for i in $(seq 17); do echo "[j$i]"; done; } \
        >"$B_TMP/threads.fio"
expect 2 "job 'j17': the run's jobs and their clones (numjobs=) pass 4096, fio's limit" "$B_TMP/threads.fio"
# our engines' I/O buffers: at most half of the machine's memory, refused before a file is laid out
mkdir "$B_TMP/mem"
expect 3 "I/O buffers would take 1TiB (numjobs x iodepth x the largest block size), more than half of this machine" \
        --directory="$B_TMP/mem" --name=big --size=64m --bs=64m --iodepth=4096 --numjobs=4 --backend=native
[ -z "$(ls -A "$B_TMP/mem")" ] || b_fail "1 TiB of buffers: files laid out: $(ls "$B_TMP/mem")"

$BENCH --help >"$B_TMP/help" 2>&1 || b_fail "--help exit $?"
grep -q -- "--compare" "$B_TMP/help" || b_fail "--help lacks --compare"
$BENCH --version | grep -q "^iosched-bench [0-9]" || b_fail "--version"

# the null engine: no file, fio's JSON layout
$BENCH --ioengine=null --rw=randrw --iodepth=8 --runtime=200ms -J >"$B_TMP/null.json" 2>"$B_TMP/err" ||
        b_fail "null engine: $(cat "$B_TMP/err")"
b_json "$B_TMP/null.json" '.jobs[0].read.iops > 0 and .jobs[0].write.iops > 0 and
        (.jobs[0].read.clat_ns.percentile["99.000000"] | type == "number") and
        .jobs[0].read.lat_ns.N > 0 and .jobs[0].read.slat_ns.N > 0 and .jobs[0]."job options".rw == "randrw"' ||
        b_fail "null engine JSON: $(head -c 600 "$B_TMP/null.json")"
$BENCH --ioengine=null --runtime=200ms >"$B_TMP/null.txt" || b_fail "null engine text"
# bssplit: the label says the split that ran, not its largest size
$BENCH --ioengine=null --bssplit=4k/50:64k/50 --runtime=200ms >"$B_TMP/split.txt" 2>"$B_TMP/err" ||
        b_fail "bssplit: $(cat "$B_TMP/err")"
grep -q " rw=read bssplit=4KiB/50:64KiB/50 iodepth=1" "$B_TMP/split.txt" || b_fail "bssplit label: $(cat "$B_TMP/split.txt")"
$BENCH --ioengine=null --bssplit=4k/50:64k/50 --runtime=200ms -J >"$B_TMP/split.json" 2>"$B_TMP/err" ||
        b_fail "bssplit -J: $(cat "$B_TMP/err")"
b_json "$B_TMP/split.json" '.jobs[0]."job options".bssplit == "4096/50:65536/50" and
        (.jobs[0]."job options" | has("bs") | not)' || b_fail "bssplit JSON: $(head -c 600 "$B_TMP/split.json")"
# one I/O: its latency is the least and the most (before, every least was 0)
head -c 4096 /dev/zero >"$B_TMP/one"
$BENCH --filename="$B_TMP/one" --direct=0 --rw=read --size=4k -J >"$B_TMP/one.json" 2>"$B_TMP/err" ||
        b_fail "one I/O: $(cat "$B_TMP/err")"
b_json "$B_TMP/one.json" '.jobs[0].read.total_ios == 1 and
        ([.jobs[0].read.clat_ns, .jobs[0].read.lat_ns, .jobs[0].read.slat_ns] | all(.min == .max and .min > 0))' ||
        b_fail "one I/O: its least latency is not its latency: $(head -c 900 "$B_TMP/one.json")"
grep -q "read: IOPS=" "$B_TMP/null.txt" || b_fail "text output: $(cat "$B_TMP/null.txt")"

# the progress line: "\r\033[K" before each, the loop in front, cleared at the end
$BENCH --ioengine=null --runtime=2500ms --loops=2 --eta=always >/dev/null 2>"$B_TMP/eta" || b_fail "--eta=always"
tr '\r' '\n' <"$B_TMP/eta" | sed 's/^\x1b\[K//' | grep -v '^$' >"$B_TMP/eta.lines"
grep -q '^loop 1/2 \[run [0-9]*/2s\] r: [0-9.]*[kMG]* IOPS [0-9.]*[KMG]*i*B/s  w: 0 IOPS 0B/s$' "$B_TMP/eta.lines" ||
        b_fail "no progress line for loop 1/2: $(cat -v "$B_TMP/eta")"
grep -q '^loop 2/2 \[run' "$B_TMP/eta.lines" || b_fail "no progress line for loop 2/2: $(cat -v "$B_TMP/eta")"
[ "$(grep -vc '^loop [12]/2 \[run' "$B_TMP/eta.lines")" = 0 ] || b_fail "other progress lines: $(cat -v "$B_TMP/eta")"
[ "$(tail -c 4 "$B_TMP/eta" | od -An -c | tr -d ' ')" = '\r033[K' ] || b_fail "progress line not cleared: $(cat -v "$B_TMP/eta")"
$BENCH --ioengine=null --runtime=1200ms >/dev/null 2>"$B_TMP/eta" || b_fail "--eta=auto"
[ ! -s "$B_TMP/eta" ] || b_fail "--eta=auto off a terminal printed: $(cat -v "$B_TMP/eta")"
$BENCH --ioengine=null --runtime=1200ms --eta=always >/dev/null 2>"$B_TMP/eta" || b_fail "--eta=always, one loop"
tr '\r' '\n' <"$B_TMP/eta" | sed 's/^\x1b\[K//' | grep -q '^\[run [0-9]*/1s\] r: ' || b_fail "one loop: $(cat -v "$B_TMP/eta")"

# an existing file: reads fine, writes need --allow-write
dd if=/dev/zero of="$B_TMP/existing" bs=1M count=4 status=none
$BENCH --filename="$B_TMP/existing" --rw=randread --direct=0 --runtime=200ms >/dev/null 2>&1 ||
        b_fail "read of an existing file"
expect 3 "refusing to write to .*without --allow-write" --filename="$B_TMP/existing" --rw=randwrite --direct=0
cmp -s -n 4194304 "$B_TMP/existing" /dev/zero ||
        b_fail "the refused run changed the file"

# a directory: the tool makes its own file (--allow-write) and removes it
mkdir "$B_TMP/dir"
$BENCH --allow-write --filename="$B_TMP/dir" --rw=randwrite --size=2m --direct=0 --runtime=200ms >"$B_TMP/out" 2>&1 ||
        b_fail "write into a directory: $(cat "$B_TMP/out")"
[ -z "$(ls -A "$B_TMP/dir")" ] || b_fail "left behind: $(ls -A "$B_TMP/dir")"
# also when it is interrupted
$BENCH --allow-write --filename="$B_TMP/dir" --rw=randwrite --size=2m --direct=0 --runtime=20s --time_based >/dev/null 2>&1 &
pid=$!
B_PIDS="$B_PIDS $pid"
# interrupt it once it runs: its file exists (slow to start under valgrind)
for _ in $(seq 100); do
        [ -n "$(ls -A "$B_TMP/dir")" ] && break
        sleep 0.1
done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc = 1 ] || b_fail "interrupted run exit $rc, want 1"
[ -z "$(ls -A "$B_TMP/dir")" ] || b_fail "left behind after SIGINT: $(ls -A "$B_TMP/dir")"
# --cpus_allowed pins the job threads, and only them, to the CPUs given
last=$(awk '/^Cpus_allowed_list/ { n = split($2, a, /[-,]/); print a[n] }' /proc/self/status)
$BENCH --ioengine=null --runtime=3s --cpus_allowed="$last" -J >"$B_TMP/pin.json" 2>&1 &
pid=$!
B_PIDS="$B_PIDS $pid"
pinned=""
for _ in $(seq 50); do
        sleep 0.1
        pinned=$(grep -h Cpus_allowed_list /proc/$pid/task/*/status 2>/dev/null | awk '{ print $2 }' | sort | tr '\n' ' ')
        # until the job thread has pinned itself (it starts unpinned: slow under valgrind)
        case " $pinned" in *" $last "*) break ;; esac
done
wait $pid || b_fail "pinned null run failed: $(cat "$B_TMP/pin.json")"
case " $pinned" in
*" $last "*) ;;
*) b_fail "no thread pinned to CPU $last: $pinned" ;;
esac
[ "$(echo "$pinned" | wc -w)" = 2 ] || b_fail "want the main thread and one job thread, got: $pinned"
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["job options"]["cpus_allowed"])' \
        "$B_TMP/pin.json")" = "$last" ] ||
        b_fail "cpus_allowed not in the JSON job options"
expect 2 "invalid --cpus_allowed" --ioengine=null --cpus_allowed=100000

# --compare checks every name against what the device can run before it
# starts: on a loop device of our own, with mq-deadline active so that a
# switch would show as a new queue/iosched directory (sysfs makes it anew)
if [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null; then
        b_loop l 16
        q=/sys/block/$l/queue
        grep -qw mq-deadline $q/scheduler || b_skip "no mq-deadline on this kernel: $(cat $q/scheduler)"
        echo mq-deadline >$q/scheduler
        b_queue_state $l >"$B_TMP/before"
        ino=$(stat -c %i $q/iosched)
        read -r ios0 _ <"/sys/block/$l/stat"
        expect 2 "--compare: nosuchsched, alsobad are not available on $l (available: [^)]*none[^)]*mq-deadline" \
                --filename=/dev/$l --runtime=100ms --compare=none,nosuchsched,mq-deadline,alsobad,nosuchsched
        [ ! -s "$B_TMP/out" ] || b_fail "a refused --compare printed a report: $(cat "$B_TMP/out")"
        [ "$(stat -c %i $q/iosched)" = "$ino" ] || b_fail "a refused --compare switched the scheduler"
        read -r ios1 _ <"/sys/block/$l/stat"
        [ "$ios1" = "$ios0" ] || b_fail "a refused --compare read from the device ($ios0 -> $ios1 reads)"
        expect 2 "--compare: noop-ish is not available" --filename=/dev/$l --compare noop-ish
        b_queue_state $l >"$B_TMP/after"
        diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "state changed: $(cat "$B_TMP/diff")"

        # legacy names run as the kernel's blk-mq twins, each once
        $BENCH --filename=/dev/$l --runtime=100ms --ramp_time=0 --loops=1 --compare=noop,none,deadline -J \
                >"$B_TMP/cmp.json" 2>"$B_TMP/err" || b_fail "--compare=noop,none,deadline: $(cat "$B_TMP/err")"
        names=$(python3 -c 'import json,sys; print(" ".join(s["name"] for s in json.load(open(sys.argv[1]))["compare"]["schedulers"]))' \
                "$B_TMP/cmp.json") || b_fail "compare JSON: $(head -c 600 "$B_TMP/cmp.json")"
        [ "$names" = "none mq-deadline" ] || b_fail "noop,none,deadline ran as '$names', want 'none mq-deadline'"
        b_queue_state $l >"$B_TMP/after"
        diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "not restored: $(cat "$B_TMP/diff")"
fi
echo ok
