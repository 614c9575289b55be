#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a policy applied in the middle of a --compare=none,mq-deadline
# (issue 27, "It undoes a policy").  While the second mq-deadline run runs,
# iosched-apply sets read_ahead_kb, nr_requests, rq_affinity, nomerges and
# mq-deadline's read_expire and fifo_batch (the scheduler it names is the
# one active).  The benchmark goes on (exit 0): the later switches to none
# and back do not undo any of it (nr_requests and the iosched/ files, which
# a switch resets, get the policy's value back), the restore keeps every
# such value and names each file once with the run it changed in, that run
# has no result (mq-deadline has 2 of 3 runs, none 3), the restore line does
# not call them "as found", `iosched-apply --check` finds no drift, and
# every other file is as found.  The same run with --json lists them under
# compare.kept.  A file that a variant sets itself (fifo_batch of
# mq-deadline:fifo_batch=1) set by another program stops the comparison
# (exit 1) with the runs so far, and is kept.  The moment is the
# benchmark's own progress line for the run (--eta=always), not a guess at
# a sleep.
# Exit 0 pass, 77 skip, 1 fail.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
APPLY="${IOS_VALGRIND:-} $top/$BUILDDIR/iosched-apply"
b_loop l 64
q=/sys/block/$l/queue
grep -qw none $q/scheduler || b_skip "kernel offers no none"
grep -qw mq-deadline $q/scheduler || b_skip "kernel offers no mq-deadline"
P=$B_TMP/policy.conf
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=4096\nqueue/nr_requests=64\n' "$l" >"$P"
printf 'queue/rq_affinity=2\nqueue/nomerges=1\nqueue/iosched/read_expire=100\nqueue/iosched/fifo_batch=4\n' >>"$P"
chmod 0644 "$P"
FILES="read_ahead_kb nr_requests rq_affinity nomerges iosched/read_expire iosched/fifo_batch"
WANT="read_ahead_kb=4096 nr_requests=64 rq_affinity=2 nomerges=1 iosched/read_expire=100 iosched/fifo_batch=4"
want() { v=${WANT#*"$1="}; echo "${v%% *}"; }

# run_bench LOOPS [options]: a --compare on the loop device found on a fresh
# mq-deadline; the policy is applied once the benchmark's progress line for
# mq-deadline's run LOOPS-1+1 (the second) shows.  Sets rc.
run_bench() {
        loops=$1; shift
        echo none >$q/scheduler
        echo mq-deadline >$q/scheduler
        echo 128 >$q/read_ahead_kb
        echo 1 >$q/rq_affinity
        echo 0 >$q/nomerges
        b_queue_state $l >"$B_TMP/before"
        for f in $FILES; do
                [ "$(cat $q/$f)" != "$(want $f)" ] || b_fail "$f already holds the policy's value"
        done
        # shellcheck disable=SC2086
        $BENCH --filename=/dev/$l --rw=randread --bs=4k --runtime=3s --time_based --ramp_time=0 --loops=$loops \
                --compare=none,mq-deadline --eta=always "$@" >"$B_TMP/out" 2>"$B_TMP/err" &
        BPID=$!
        B_PIDS="$B_PIDS $BPID"
        i=0
        until grep -q "mq-deadline 2/$loops \[" "$B_TMP/err"; do
                kill -0 $BPID 2>/dev/null || b_fail "the benchmark ended before mq-deadline's second run: $(cat "$B_TMP/err")"
                [ $i -lt 3000 ] || b_fail "no progress line for mq-deadline 2/$loops"
                sleep 0.01
                i=$((i + 1))
        done
        [ "$(b_sched $l)" = mq-deadline ] || b_fail "mq-deadline 2/$loops runs on $(b_sched $l)"
        $APPLY --config "$P" --no-builtin $l >"$B_TMP/apply.out" 2>&1 || b_fail "iosched-apply: $(cat "$B_TMP/apply.out")"
        wait $BPID
        rc=$?
        # the messages, without the progress lines
        tr '\r\033' '\n\n' <"$B_TMP/err" | sed 's/^\[K//' | grep '^iosched-bench: ' >"$B_TMP/said"
}

# the policy's values stay, each said once, everything else as found
expect_kept() {
        [ "$(b_sched $l)" = mq-deadline ] || b_fail "$1: $l left on $(b_sched $l)"
        for f in $FILES; do
                v=$(want $f)
                [ "$(cat $q/$f)" = "$v" ] || b_fail "$1: $f is $(cat $q/$f), the policy set $v"
        done
        for f in read_ahead_kb nr_requests rq_affinity nomerges; do
                v=$(want $f)
                n=$(grep -c "^iosched-bench: $l: queue/$f: kept $v, set by another program during the mq-deadline 2/[0-9] run, which has no result (iosched-bench had " "$B_TMP/said")
                [ "$n" = 1 ] || b_fail "$1: $f said $n times: $(cat "$B_TMP/said")"
        done
        for f in iosched/read_expire iosched/fifo_batch; do
                n=$(grep -c "^iosched-bench: $l: queue/$f: kept " "$B_TMP/said")
                [ "$n" = 1 ] || b_fail "$1: $f said $n times: $(cat "$B_TMP/said")"
        done
        # writing nr_requests resets mq-deadline's async_depth: the policy's write did that
        b_queue_state $l >"$B_TMP/after"
        pat='^(read_ahead_kb|nr_requests|rq_affinity|nomerges|iosched/read_expire|iosched/fifo_batch|iosched/async_depth)='
        grep -Ev "$pat" "$B_TMP/before" >"$B_TMP/before.rest"
        grep -Ev "$pat" "$B_TMP/after" >"$B_TMP/after.rest"
        diff "$B_TMP/before.rest" "$B_TMP/after.rest" >"$B_TMP/diff" || b_fail "$1: not as found: $(cat "$B_TMP/diff")"
        $APPLY --check --config "$P" --no-builtin $l >"$B_TMP/check.out" 2>&1 ||
                b_fail "$1: iosched-apply --check finds drift: $(cat "$B_TMP/check.out")"
}

# 1. text: 3 rounds
run_bench 3
[ $rc = 0 ] || b_fail "the benchmark: exit $rc: $(cat "$B_TMP/said")"
expect_kept text
grep -Eq '^ +none +(\* +)?3 ' "$B_TMP/out" || b_fail "none has not 3 runs: $(cat "$B_TMP/out")"
grep -Eq '^ +mq-deadline( \*)? +2 ' "$B_TMP/out" || b_fail "the changed mq-deadline run counted: $(cat "$B_TMP/out")"
grep -Eq "^  restored $l: scheduler mq-deadline and [0-9]+ queue tunables as found, [0-9]+ kept as another program set them$" \
        "$B_TMP/out" || b_fail "the restore line: $(grep restored "$B_TMP/out")"
echo "ok: text: $(wc -l <"$B_TMP/said") kept lines, $(grep restored "$B_TMP/out")"

# 2. JSON: 2 rounds; compare.kept names the files, mq-deadline has 1 value
run_bench 2 --json
[ $rc = 0 ] || b_fail "--json: exit $rc: $(cat "$B_TMP/said")"
expect_kept json
command -v python3 >/dev/null || b_skip "no python3 to read the JSON (the text case passed)"
python3 - "$B_TMP/out" <<'EOF' || b_fail "--json: $(cat "$B_TMP/out")"
import json, sys
c = json.load(open(sys.argv[1]))["compare"]
kept = {k["file"]: k for k in c["kept"]}
for f, v in (("read_ahead_kb", "4096"), ("nr_requests", "64"), ("rq_affinity", "2"), ("nomerges", "1"),
             ("iosched/read_expire", "100"), ("iosched/fifo_batch", "4")):
    k = kept["queue/" + f]
    assert k["value"] == v and k["kept"] and k["when"] == ["during the mq-deadline 2/2 run, which has no result"], k
runs = {s["name"]: s["runs"] for s in c["schedulers"]}
assert runs == {"none": 2, "mq-deadline": 1}, runs
EOF
echo "ok: --json"

# 3. a file a variant sets itself: that variant cannot run as given any more,
#    the comparison stops (exit 1) with the runs so far; the value is kept
echo none >$q/scheduler
echo mq-deadline >$q/scheduler
b_queue_state $l >"$B_TMP/before"
$BENCH --filename=/dev/$l --rw=randread --bs=4k --runtime=3s --time_based --ramp_time=0 --loops=2 \
        --compare=none,mq-deadline:fifo_batch=1 --eta=always >"$B_TMP/out" 2>"$B_TMP/err" &
BPID=$!
B_PIDS="$B_PIDS $BPID"
i=0
until grep -q "mq-deadline:fifo_batch=1 1/2 \[" "$B_TMP/err"; do
        kill -0 $BPID 2>/dev/null || b_fail "own file: the benchmark ended early: $(cat "$B_TMP/err")"
        [ $i -lt 3000 ] || b_fail "own file: no progress line"
        sleep 0.01
        i=$((i + 1))
done
echo 4 >$q/iosched/fifo_batch
wait $BPID
rc=$?
tr '\r\033' '\n\n' <"$B_TMP/err" | sed 's/^\[K//' | grep '^iosched-bench: ' | grep -v ': warning: ' >"$B_TMP/said"
[ $rc = 1 ] || b_fail "own file: exit $rc, want 1: $(cat "$B_TMP/said")"
grep -qxF "iosched-bench: $l: queue/iosched/fifo_batch went from \"1\" to \"4\" during the mq-deadline:fifo_batch=1 1/2 run: another program changed it (a udev rule, ioschedd, TuneD?); no result is given for it" \
        "$B_TMP/said" || b_fail "own file: the stop is not said: $(cat "$B_TMP/said")"
grep -qxF "iosched-bench: $l: queue/iosched/fifo_batch: kept 4, set by another program during the mq-deadline:fifo_batch=1 1/2 run, which has no result (iosched-bench had 1)" \
        "$B_TMP/said" || b_fail "own file: the kept value is not said: $(cat "$B_TMP/said")"
[ "$(cat $q/iosched/fifo_batch)" = 4 ] || b_fail "own file: fifo_batch is $(cat $q/iosched/fifo_batch)"
[ "$(b_sched $l)" = mq-deadline ] || b_fail "own file: $l left on $(b_sched $l)"
grep -Eq '^ +none( +\*)? +1 ' "$B_TMP/out" || b_fail "own file: none's run before the stop is not shown: $(cat "$B_TMP/out")"
b_queue_state $l >"$B_TMP/after"
grep -v '^iosched/fifo_batch=' "$B_TMP/before" >"$B_TMP/before.rest"
grep -v '^iosched/fifo_batch=' "$B_TMP/after" >"$B_TMP/after.rest"
diff "$B_TMP/before.rest" "$B_TMP/after.rest" >"$B_TMP/diff" || b_fail "own file: not as found: $(cat "$B_TMP/diff")"
echo "ok: a variant's own file stops the comparison, and is kept"
echo PASS
