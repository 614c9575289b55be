#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a --compare of a job that ends by its size (no runtime=, no
# time_based) gets no settle ramp after each switch on either backend, so
# its I/Os are measured (every variant's p99 above 0), as the native
# engine's; the same job with its own ramp_time=1, inside which it ends,
# is counted but not measured: the run is refused, exit 2, with the job,
# its I/O count and what to change, no "best" is printed, and the disk is
# restored; the same job with time_based=1 and runtime= is measured; a
# job with an option only fio knows is said before the first switch with
# the ramp fio is given.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
command -v python3 >/dev/null || b_skip "no python3"

b_loop l 64
grep -q mq-deadline "/sys/block/$l/queue/scheduler" || b_skip "no mq-deadline on loop devices"
before=$(b_queue_state "$l")

printf '[small]\nfilename=/dev/%s\nrw=randread\nbs=4k\nsize=2M\n' "$l" >"$B_TMP/small.fio"
for backend in fio native; do
        $BENCH -J --backend=$backend --compare=none,mq-deadline --loops=1 "$B_TMP/small.fio" >"$B_TMP/s.json" \
                2>"$B_TMP/err" || b_fail "size-bound job, $backend: $(cat "$B_TMP/err")"
        python3 - "$B_TMP/s.json" <<'PY' || b_fail "size-bound job, $backend: not measured: $(cat "$B_TMP/s.json")"
import json, sys
s = json.load(open(sys.argv[1]))["compare"]["schedulers"]
assert len(s) == 2, s
for v in s:
    assert v["runs"] == 1 and v["read_clat_p99_ns"] > 0, v
PY
        [ "$(b_queue_state "$l")" = "$before" ] || b_fail "size-bound job, $backend: the disk was not restored"
done

printf 'ramp_time=1\n' >>"$B_TMP/small.fio"
out=$($BENCH --backend=fio --compare=none,mq-deadline --loops=1 "$B_TMP/small.fio" 2>&1); rc=$?
[ $rc = 2 ] || b_fail "size-bound job in its ramp: exit $rc, want 2: $out"
echo "$out" | grep -q "job 'small': all its 512 I/Os fell in the 1 s ramp_time" ||
        b_fail "size-bound job in its ramp: the refusal does not say why: $out"
echo "$out" | grep -qi "best" && b_fail "size-bound job in its ramp: a best was declared: $out"
[ "$(b_queue_state "$l")" = "$before" ] || b_fail "size-bound job in its ramp: the disk was not restored"

printf '[timed]\nfilename=/dev/%s\nrw=randread\nbs=4k\nsize=2M\ntime_based=1\nruntime=1\n' "$l" >"$B_TMP/timed.fio"
$BENCH -J --backend=fio --compare=none,mq-deadline --loops=1 "$B_TMP/timed.fio" >"$B_TMP/t.json" 2>"$B_TMP/err" ||
        b_fail "time-based job: $(cat "$B_TMP/err")"
python3 - "$B_TMP/t.json" <<'PY' || b_fail "time-based job: no measured p99: $(cat "$B_TMP/t.json")"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["compare"]["schedulers"]
assert len(s) == 2, s
for v in s:
    assert v["runs"] == 1 and v["read_clat_p99_ns"] > 0, v
PY
[ "$(b_queue_state "$l")" = "$before" ] || b_fail "time-based job: the disk was not restored"

# an option only fio knows: the line before the first switch says the ramp fio is given, as the report
$BENCH --compare=none,mq-deadline --loops=1 --name=j --filename=/dev/$l --rw=randread --time_based \
        --runtime=1 --randseed=7 >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "a fio-only option: $(cat "$B_TMP/err")"
grep -q "^iosched-bench: for 1 round x 2 variants, each round 1.0s (+1.0s ramp)" "$B_TMP/err" &&
        grep -q "each 1.0s (+1.0s ramp)" "$B_TMP/out" ||
        b_fail "a fio-only option: the ramp said before is not fio's: $(cat "$B_TMP/err" "$B_TMP/out")"
exit 0
