#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: caps a job file sets (rate_iops=, rate=, thinktime=) move a
# --compare's throughput objective to p99 on the fio backend as the same
# caps on the command line do: the report judges p99 and says why; fio reads the
# job and the report takes the caps from fio's own account of it (its JSON
# job options), not from a model of the job file; the command line's job
# run by fio is named in the note up front.  Also in forms fio reads and the
# bench does not (rate_iops=0x64, rate=1Mi: fio's multipliers), and a mix
# whose rwmixread=100 leaves the uncapped writes no share.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
b_loop l 64
grep -qw mq-deadline /sys/block/$l/queue/scheduler || b_skip "no mq-deadline on $l"

# (before: rate_iops=0x64, rate=1Mi and the mix ran uncapped to the bench, "best" by the capped IOPS)
for cap in rate_iops=200 rate=1m thinktime=20000 rate_iops=0x64 rate=1Mi "rwmixread=100 rate_iops=200,"; do
        rw=randread aw=
        case $cap in rwmix*) rw=randrw aw=--allow-write ;; esac     # no write: a share of 0
        printf '[capped]\nfilename=/dev/%s\nrw=%s\n%s\ntime_based\nruntime=1\nramp_time=0\n' $l $rw \
                "$(echo "$cap" | tr ' ' '\n')" >"$B_TMP/job.fio"
        $BENCH --backend=fio $aw --compare=none,mq-deadline --loops=1 "$B_TMP/job.fio" >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$cap: $(cat "$B_TMP/err")"
        grep -q "^  1 round per scheduler, interleaved, each 1.0s (+0.0s ramp); objective p99 (lower is better)$" "$B_TMP/out" ||
                b_fail "$cap: not judged by p99: $(cat "$B_TMP/out")"
        c=${cap#rwmixread=100 }
        grep -q "^  note: objective iops replaced by p99: ${c%%=*}=" "$B_TMP/out" || b_fail "$cap: not said: $(cat "$B_TMP/out")"
        grep -q "the IOPS of" "$B_TMP/out" && b_fail "$cap: a best by IOPS: $(cat "$B_TMP/out")"
done
# the command line's job, run by fio (rate_process= is fio's): the note up front names it (before:
# "in job '(null)'"); fio keeps no latency after a ramp with rate_process=poisson: said so, not "it
# ended by its size first" of a job that ran for its time
$BENCH --filename=/dev/$l --rw=randread --time_based --runtime=1 --ramp_time=1 --rate_iops=200 \
        --rate_process=poisson --compare=none,mq-deadline --loops=1 >"$B_TMP/out" 2>"$B_TMP/err"; rc=$?
grep -q "^iosched-bench: note: objective iops replaced by p99: rate_iops=200 (reads) in job 'iosched-bench' caps" \
        "$B_TMP/err" || b_fail "the command line's job, up front: $(cat "$B_TMP/err")"
if [ $rc != 0 ]; then
        [ $rc = 2 ] && grep -q "none of its [0-9]* I/Os has a latency measured after its 1 s ramp_time" "$B_TMP/err" ||
                b_fail "poisson after a ramp: exit $rc: $(tail -2 "$B_TMP/err")"
fi
exit 0
