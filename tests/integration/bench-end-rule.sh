#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: both backends end a job by fio's rule.  Without time_based a
# job with no size ends at its region, the whole 16 MiB loop device here,
# long before its --runtime=60s: 4096 reads of 4 KiB on the native backend
# as on fio's (on the old native code it ran the full 60 s and read the
# device 15 times over).  With time_based the same job runs for its
# runtime, more than one pass.  The line before a --compare says the bound
# ("up to 60.0s or 16MiB per thread"), the report how long the rounds
# measured, and a comparison whose job ends inside its ramp (16 MiB in a
# 60 s ramp) is refused on both backends, exit 2, with what to change.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v jq >/dev/null || b_skip "no jq"
b_loop l 16
dev=/dev/$l
grep -q mq-deadline "/sys/block/$l/queue/scheduler" || b_skip "no mq-deadline on loop devices"
backends=native
command -v fio >/dev/null && backends="native fio"

for b in $backends; do
        $BENCH --backend=$b --filename=$dev --rw=randread --bs=4k --runtime=60s -J >"$B_TMP/size.$b.json" \
                2>"$B_TMP/err" || b_fail "$b: no size: $(cat "$B_TMP/err")"
        n=$(jq '.jobs[0].read.total_ios' "$B_TMP/size.$b.json")
        [ "$n" = 4096 ] || b_fail "$b: a job with no size did $n reads, want 4096 (the device's 16 MiB)"
done

# time_based: the runtime ends it, not the size (at least one pass and one more read)
$BENCH --filename=$dev --rw=read --bs=64k --runtime=1s --time_based -J >"$B_TMP/timed.json" 2>"$B_TMP/err" ||
        b_fail "time_based: $(cat "$B_TMP/err")"
jq -e '.jobs[0].read.total_ios > 256 and .jobs[0].read.runtime >= 1000' "$B_TMP/timed.json" >/dev/null ||
        b_fail "time_based: ended before its runtime: $(jq -c '.jobs[0].read | {total_ios, runtime}' "$B_TMP/timed.json")"

# the bound said up front, the rounds' real length after
$BENCH --filename=$dev --rw=randread --bs=4k --runtime=60s --ramp_time=0 --loops=1 --compare=none,mq-deadline \
        >"$B_TMP/cmp.txt" 2>"$B_TMP/cmp.err" || b_fail "compare: $(cat "$B_TMP/cmp.err")"
grep -q "^iosched-bench: for 1 round x 2 variants, each round up to 60.0s or 16MiB per thread, whichever comes first: up to 120s in all$" \
        "$B_TMP/cmp.err" || b_fail "the bound up front: $(cat "$B_TMP/cmp.err")"
grep -q "^  each round measured [0-9.]*s to [0-9.]*s$" "$B_TMP/cmp.txt" || b_fail "the rounds' length: $(cat "$B_TMP/cmp.txt")"

# every I/O inside a 60 s ramp: refused on both backends, nothing declared
for b in $backends; do
        before=$(b_queue_state "$l")
        $BENCH --backend=$b --filename=$dev --rw=read --bs=1m --runtime=1s --ramp_time=60s --loops=1 \
                --compare=none,mq-deadline >"$B_TMP/ramp.txt" 2>"$B_TMP/ramp.err"
        rc=$?
        [ $rc = 2 ] || b_fail "$b: all I/O in the ramp: exit $rc, want 2: $(cat "$B_TMP/ramp.err")"
        grep -q "all its 16 I/Os fell in the 60 s ramp_time (it ended by its size first), so none was measured" \
                "$B_TMP/ramp.err" || b_fail "$b: the refusal does not say why: $(cat "$B_TMP/ramp.err")"
        grep -q "best:" "$B_TMP/ramp.txt" && b_fail "$b: a best was declared: $(cat "$B_TMP/ramp.txt")"
        [ "$(b_queue_state "$l")" = "$before" ] || b_fail "$b: the disk was not restored"
done
echo ok
