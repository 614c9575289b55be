#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: after a kill -9 of iosched-bench, its guard keeps what
# another program set after the last switch, as the bench's own restore
# does.  A --compare of two mq-deadline variants through fio on a loop
# device the test attaches, found with nr_requests=100 and fifo_batch=7;
# once fio runs (the round's switch is over), another program sets
# nr_requests=200; a kill -9 of the bench then: the guard puts fifo_batch
# back to 7 (the variant set it) and keeps nr_requests at 200, and says so
# (before: the guard wrote the 100 it found over the other program's 200).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
b_loop l 64
q=/sys/block/$l/queue
grep -qw mq-deadline $q/scheduler || b_skip "no mq-deadline on $l"
echo mq-deadline >$q/scheduler
echo 100 >$q/nr_requests 2>/dev/null && [ "$(cat $q/nr_requests)" = 100 ] || b_skip "$l takes no nr_requests=100"
echo 7 >$q/iosched/fifo_batch

"$BENCH_BIN" --backend=fio --filename=/dev/$l --rw=randread --time_based --runtime=600 --loops=1 \
        --compare=mq-deadline:fifo_batch=9,mq-deadline:fifo_batch=11 >"$B_TMP/out" 2>"$B_TMP/err" &
bench=$!
B_PIDS="$B_PIDS $bench"
# fio runs the round (not its reading of the job): the round's switch, and what it left, told to the
# guard, is over
round() {
        for p in $(pgrep -P $bench -x fio); do
                tr '\0' ' ' </proc/$p/cmdline 2>/dev/null | grep -q -- "--output-format=json+" && return 0
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
