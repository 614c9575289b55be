#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: caps a job file sets (rate_iops=, rate=, thinktime=) move a
# --compare's throughput objective to p99 on the fio backend as the same
# caps on the command line do: the report judges p99 and says why; fio reads the
# job and the report takes the caps from fio's own account of it (its JSON
# job options), not from a model of the job file.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
b_loop l 64
grep -qw mq-deadline /sys/block/$l/queue/scheduler || b_skip "no mq-deadline on $l"

for cap in rate_iops=200 rate=1m thinktime=20000; do
        printf '[capped]\nfilename=/dev/%s\nrw=randread\n%s\ntime_based\nruntime=1\nramp_time=0\n' $l $cap >"$B_TMP/job.fio"
        $BENCH --backend=fio --compare=none,mq-deadline --loops=1 "$B_TMP/job.fio" >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$cap: $(cat "$B_TMP/err")"
        grep -q "^  1 round per scheduler, interleaved, each 1.0s (+0.0s ramp); objective p99 (lower is better)$" "$B_TMP/out" ||
                b_fail "$cap: not judged by p99: $(cat "$B_TMP/out")"
        grep -q "^  note: objective iops replaced by p99: ${cap%%=*}=" "$B_TMP/out" || b_fail "$cap: not said: $(cat "$B_TMP/out")"
        grep -q "the IOPS of" "$B_TMP/out" && b_fail "$cap: a best by IOPS: $(cat "$B_TMP/out")"
done
exit 0
