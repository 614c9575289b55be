#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: --compare over variants (a scheduler plus tunables) on a loop
# device the test tunes first (mq-deadline with read_expire, fifo_batch,
# nr_requests, read_ahead_kb all off their defaults): each variant runs with
# exactly its state (sampled during the run: the plain mq-deadline variant
# gets the scheduler's start values, not the ones found or the previous
# variant's), the table is labelled by the variants' spellings, and every
# attribute afterwards equals what it was before.  Bad variants (unknown
# scheduler, unknown tunable, out-of-range or malformed value, a tunable of
# another scheduler, a queue/ file the disk lacks, the same variant named
# twice and nothing else) are usage errors (exit 2) before any run, with
# nothing changed on the disk.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 32
q=/sys/block/$l/queue
echo mq-deadline >$q/scheduler 2>/dev/null || b_skip "$l cannot run mq-deadline"
echo kyber >$q/scheduler 2>/dev/null || b_skip "$l cannot run kyber"
echo mq-deadline >$q/scheduler
echo 333 >$q/iosched/read_expire
echo 7 >$q/iosched/fifo_batch
echo 64 >$q/nr_requests
echo 512 >$q/read_ahead_kb
b_queue_state $l >"$B_TMP/before"
grep -q "^nr_requests=64$" "$B_TMP/before" || b_fail "could not set nr_requests"

same() {
        b_queue_state $l >"$B_TMP/after"
        diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "$1: state differs: $(cat "$B_TMP/diff")"
}

# sample the state while the comparison runs
sampler() {
        while :; do
                echo "$(b_sched $l) re=$(cat $q/iosched/read_expire 2>/dev/null) fb=$(cat $q/iosched/fifo_batch 2>/dev/null) rl=$(cat $q/iosched/read_lat_nsec 2>/dev/null) nr=$(cat $q/nr_requests) ra=$(cat $q/read_ahead_kb)"
                sleep 0.02
        done
}
sampler >"$B_TMP/samples" &
spid=$!
B_PIDS="$B_PIDS $spid"
V='mq-deadline:read_expire=300:fifo_batch=1,mq-deadline,kyber:read_lat_nsec=500000:read_ahead_kb=1024'
$BENCH --filename=/dev/$l --rw=randread --runtime=400ms --ramp_time=0 --loops=2 --compare="$V" -J \
        >"$B_TMP/out.json" 2>"$B_TMP/err" || b_fail "compare: $(cat "$B_TMP/err")"
kill $spid; wait $spid 2>/dev/null
same "variant comparison"
b_json "$B_TMP/out.json" '.compare.restored == true and (.compare.schedulers | map(.name)) ==
        ["mq-deadline:read_expire=300:fifo_batch=1", "mq-deadline", "kyber:read_lat_nsec=500000:read_ahead_kb=1024"] and
        .compare.schedulers[2].scheduler == "kyber" and .compare.schedulers[1].tunables == {} and
        .compare.schedulers[2].tunables == {"queue/iosched/read_lat_nsec": "500000", "queue/read_ahead_kb": "1024"}' ||
        b_fail "labels: $(head -c 1500 "$B_TMP/out.json")"
# each variant's state was there at some point, and the plain variant had
# the scheduler's start values (500 ms, 16), neither 333/7 nor 300/1
grep -q "^mq-deadline re=300 fb=1 .* ra=512$" "$B_TMP/samples" || b_fail "variant 1 never seen: $(sort -u "$B_TMP/samples")"
grep -q "^mq-deadline re=500 fb=16 .* ra=512$" "$B_TMP/samples" || b_fail "plain mq-deadline never at its start values: $(sort -u "$B_TMP/samples")"
grep -q "^kyber .*rl=500000 .* ra=1024$" "$B_TMP/samples" || b_fail "kyber variant never seen: $(sort -u "$B_TMP/samples")"
# (the kernel's order makes a switch pass through mixed states for a moment:
# a state lasting 3 samples or more is one a run saw)
uniq -c "$B_TMP/samples" | awk '$1 >= 3 && $2 == "mq-deadline" && / ra=1024$/ { bad = 1 } END { exit !bad }' &&
        b_fail "read_ahead_kb of the kyber variant leaked into mq-deadline: $(uniq -c "$B_TMP/samples")"

# text output: the verdict and the labels
$BENCH --filename=/dev/$l --rw=randread --runtime=100ms --ramp_time=0 --loops=1 \
        --compare='mq-deadline,mq-deadline:fifo_batch=1' >"$B_TMP/out" 2>"$B_TMP/err" ||
        b_fail "compare text: $(cat "$B_TMP/err")"
grep -q "^  mq-deadline:fifo_batch=1 " "$B_TMP/out" || b_fail "no variant row: $(cat "$B_TMP/out")"
grep -q "restored $l" "$B_TMP/out" || b_fail "no restore line: $(cat "$B_TMP/out")"
same "text run"

# bad variants: exit 2, one line, before any run, nothing changed
bad() {
        stat0=$(cat /sys/block/$l/stat)
        $BENCH --filename=/dev/$l --rw=randread --runtime=100ms --ramp_time=0 --loops=1 --compare="$1" \
                >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 2 ] || b_fail "'$1': exit $rc, want 2 ($(cat "$B_TMP/err"))"
        [ "$(wc -l <"$B_TMP/err")" = 1 ] || b_fail "'$1': not one line: $(cat "$B_TMP/err")"
        grep -q "$2" "$B_TMP/err" || b_fail "'$1': message: $(cat "$B_TMP/err"), want $2"
        [ -s "$B_TMP/out" ] && b_fail "'$1': output: $(cat "$B_TMP/out")"
        [ "$(cat /sys/block/$l/stat)" = "$stat0" ] || b_fail "'$1': I/O was issued"
        same "bad variant '$1'"
}
bad 'mq-deadline,nosuchsched:fifo_batch=1' "nosuchsched is not available on $l"
bad 'mq-deadline:read_expir=300' "unknown tunable 'read_expir'"
bad 'mq-deadline:fifo_batch=-1' "fifo_batch=-1 is out of range"
bad 'mq-deadline:async_depth=0' "async_depth=0 is out of range"
bad 'mq-deadline:fifo_batch=many' "wants an integer"
bad 'mq-deadline:fifo_batch' "'fifo_batch' is not TUNABLE=VALUE"
bad 'kyber:read_expire=300' "read_expire is not a tunable of kyber"
bad 'mq-deadline,mq-deadline:read_ahead_kb=1:read_ahead_kb=2' "read_ahead_kb given twice"
# the same variant twice is one: no comparison (before: run once, "only none completed", exit 0)
bad 'none,none' "none, none are one variant on $l (none): nothing to compare"
bad 'none,noop' "none, noop are one variant on $l (none): nothing to compare"
echo ok
