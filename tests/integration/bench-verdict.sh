#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: --compare's verdicts mean what they say, on loop devices the
# test attaches.  Before anything switches, stderr names the disk whose
# scheduler will switch and why (the device the job names; for
# --filename=test, the disk holding the current directory, here a
# loop-mounted ext4), how long (rounds x variants x a round) and what the
# disk holds (a mounted ext4, a dm device over it, or nothing).  One round
# says "one round: no noise figure", never "noise 0.0%"; wins read "N% lower
# p99" or "N.Nx the IOPS", never "better"; a job capped by rate_iops= is
# judged on p99 with a note, not "0.0% better iops"; a write that ends by its
# size (--rw=write --size=4m, no time_based) ends each round at 4 MiB, as
# fio does; and in -J every variant has "vs_best", null for the best and
# for the others the verdict's own pairwise figures (the runner-up's equal
# the verdict's margin, p and significance); a p99 objective resting on
# fewer than 100 completions a round is said to; a round whose reads the
# page cache answered (direct=0, the disk read under a tenth of what the
# objective's jobs read) is no figure to compare (exit 1), while buffered
# writes and a cached job the objective does not name are compared.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 64
echo mq-deadline >/sys/block/$l/queue/scheduler 2>/dev/null || b_skip "$l cannot run mq-deadline"
echo none >/sys/block/$l/queue/scheduler
V=none,mq-deadline

# 1. an unmounted device, one round: the up-front lines first, no noise figure
$BENCH --filename=/dev/$l --rw=randread --runtime=300ms --ramp_time=0 --loops=1 --compare=$V \
        >"$B_TMP/one.txt" 2>"$B_TMP/one.err" || b_fail "one round: $(cat "$B_TMP/one.err")"
head -1 "$B_TMP/one.err" | grep -q "^iosched-bench: --compare will switch the I/O scheduler of $l (the device the job names, /dev/$l)" ||
        b_fail "up front, first: $(cat "$B_TMP/one.err")"
grep -q "^iosched-bench: for 1 round x 2 variants, each round up to 0.3s or 64MiB per thread, whichever comes first: up to 1s in all$" "$B_TMP/one.err" ||
        b_fail "how long: $(cat "$B_TMP/one.err")"
grep -q "^iosched-bench: $l holds no mounted filesystem, no swap and no md/dm member$" "$B_TMP/one.err" ||
        b_fail "holdings: $(cat "$B_TMP/one.err")"
grep -q "^  best: .*, \([0-9.]*x the IOPS of\|the same IOPS as\) .*; one round: no noise figure; Mann-Whitney" "$B_TMP/one.txt" ||
        b_fail "one round: $(cat "$B_TMP/one.txt")"
grep -q "noise 0.0%\|% better" "$B_TMP/one.txt" && b_fail "a noise figure or 'better' from one round: $(cat "$B_TMP/one.txt")"
grep -q "rests on as few" "$B_TMP/one.txt" && b_fail "a few-samples note for an IOPS objective: $(cat "$B_TMP/one.txt")"
# a p99 of 5 completions a round: said to be the slowest one or few of them
$BENCH --filename=/dev/$l --rw=randread --number_ios=5 --objective=p99 --loops=2 --compare=$V \
        >"$B_TMP/few.txt" 2>"$B_TMP/few.err" || b_fail "p99 of 5: $(cat "$B_TMP/few.err")"
grep -q "^  note: a round's p99 rests on as few as 5 completions; below 100 it is the slowest one or few" \
        "$B_TMP/few.txt" || b_fail "p99 of 5, not said: $(cat "$B_TMP/few.txt")"
grep -q " 0\.0% " "$B_TMP/one.txt" && b_fail "a 0.0% spread from one round: $(cat "$B_TMP/one.txt")"

# 2. a job capped by rate_iops: judged on p99, with a note up front and in the report
$BENCH --filename=/dev/$l --rw=randread --runtime=300ms --ramp_time=0 --loops=1 --compare=$V --rate_iops=200 \
        >"$B_TMP/cap.txt" 2>"$B_TMP/cap.err" || b_fail "capped: $(cat "$B_TMP/cap.err")"
grep -q "^iosched-bench: note: objective iops replaced by p99: rate_iops=200 (reads) in job 'iosched-bench' caps" \
        "$B_TMP/cap.err" || b_fail "capped, up front: $(cat "$B_TMP/cap.err")"
grep -q "objective p99 (lower is better)" "$B_TMP/cap.txt" && grep -q "^  note: objective iops replaced by p99" "$B_TMP/cap.txt" ||
        b_fail "capped, report: $(cat "$B_TMP/cap.txt")"
grep -q "^  best: .*, \([0-9.]*% lower p99 than\|the same p99 as\) " "$B_TMP/cap.txt" || b_fail "capped, verdict: $(cat "$B_TMP/cap.txt")"
grep -q "better iops" "$B_TMP/cap.txt" && b_fail "capped: a verdict on iops: $(cat "$B_TMP/cap.txt")"
$BENCH --filename=/dev/$l --rw=randread --runtime=300ms --ramp_time=0 --loops=1 --compare=$V --rate_iops=200 -J \
        >"$B_TMP/cap.json" 2>"$B_TMP/cap.err" || b_fail "capped -J: $(cat "$B_TMP/cap.err")"
jq -e '.compare.objective == "p99" and .compare.lower_is_better and (.compare.objective_note | test("rate_iops=200")) and
        (.compare.label | test("^([0-9.]+% lower|the same) p99$"))' "$B_TMP/cap.json" >/dev/null ||
        b_fail "capped -J: $(jq -c '.compare | del(.schedulers)' "$B_TMP/cap.json")"

# 3. a write that ends by its size: each round 4 MiB, as fio; and vs_best
start=$(date +%s)
$BENCH --filename=/dev/$l --rw=write --bs=64k --size=4m --allow-write --loops=2 --compare=$V -J \
        >"$B_TMP/w.json" 2>"$B_TMP/w.err" || b_fail "size-ended write: $(cat "$B_TMP/w.err")"
took=$(($(date +%s) - start))
grep -q "each round until each job has done its size (4MiB per thread)" "$B_TMP/w.err" ||
        b_fail "round length up front: $(cat "$B_TMP/w.err")"
[ "$took" -le 15 ] || b_fail "2 rounds x 2 variants of 4 MiB took ${took}s (a time-based run?)"
jq -e '[.jobs[] | .write.io_bytes] | length == 4 and all(. == 4194304)' "$B_TMP/w.json" >/dev/null ||
        b_fail "io per round: $(jq -c '[.jobs[] | {jobname, io: .write.io_bytes}]' "$B_TMP/w.json")"
jq -e '.compare as $c | ($c.schedulers | length == 2) and
        ($c.schedulers | all(has("vs_best"))) and
        ($c.schedulers[] | select(.name == $c.best) | .vs_best == null) and
        ($c.schedulers[] | select(.name == $c.runner_up) | .vs_best.best == $c.best and
                .vs_best.margin_pct == $c.margin_pct and .vs_best.p_value == $c.p_value and
                .vs_best.significant == $c.significant and .vs_best.label == $c.label and
                (.vs_best.label | test("^([0-9.]+x the|the same) IOPS$")) and
                (.vs_best.ratio - (1 + $c.margin_pct / 100) | fabs) < 0.001) and
        ($c.noise_pct | type == "number")' "$B_TMP/w.json" >/dev/null ||
        b_fail "vs_best: $(jq -c '.compare | del(.schedulers[].values)' "$B_TMP/w.json")"
# lower is better: the label and the margin read (b - a) / b
$BENCH --filename=/dev/$l --rw=randread --runtime=200ms --ramp_time=0 --loops=2 --compare=$V --objective=p99 -J \
        >"$B_TMP/p.json" 2>"$B_TMP/p.err" || b_fail "p99: $(cat "$B_TMP/p.err")"
jq -e '.compare as $c | ($c.schedulers[] | select(.name == $c.runner_up) | .vs_best.margin_pct < 100 and
        (.vs_best.label | test("^([0-9.]+% lower|the same) p99$")) and .vs_best.margin_pct == $c.margin_pct and
        ((1 - .vs_best.ratio) * 100 - .vs_best.margin_pct | fabs) < 0.001)' "$B_TMP/p.json" >/dev/null ||
        b_fail "vs_best, lower is better: $(jq -c '.compare | del(.schedulers[].values)' "$B_TMP/p.json")"
jq -e '.compare.noise_pct | type == "number"' "$B_TMP/p.json" >/dev/null || b_fail "two rounds: noise_pct"
$BENCH --filename=/dev/$l --rw=randread --runtime=200ms --ramp_time=0 --loops=1 --compare=$V -J \
        >"$B_TMP/p1.json" 2>"$B_TMP/p1.err" || b_fail "-J one round: $(cat "$B_TMP/p1.err")"
jq -e '.compare.noise_pct == null' "$B_TMP/p1.json" >/dev/null || b_fail "one round: noise_pct is not null"

# 4. what the disk holds: a dm device over it
if command -v dmsetup >/dev/null; then
        dm=iosched-bench-it-${B_TMP##*-}
        if dmsetup create "$dm" --table "0 $(blockdev --getsz /dev/$l) linear /dev/$l 0" 2>/dev/null; then
                B_DM="$B_DM $dm"
                udevadm settle 2>/dev/null
                $BENCH --filename=/dev/$l --rw=randread --runtime=200ms --ramp_time=0 --loops=1 --compare=$V \
                        >"$B_TMP/dm.txt" 2>"$B_TMP/dm.err" || b_fail "held by dm: $(cat "$B_TMP/dm.err")"
                grep -q "^iosched-bench: $l holds: dm-[0-9]* ($dm) over $l$" "$B_TMP/dm.err" ||
                        b_fail "dm holder: $(cat "$B_TMP/dm.err")"
                dmsetup remove "$dm" || b_fail "dmsetup remove"
                B_DM=""
        fi
fi

# 5. --filename=test in a directory of a loop-mounted ext4: that disk, named before anything switches
command -v mkfs.ext4 >/dev/null || b_skip "no mkfs.ext4 (the rest passed)"
b_loop m 64
echo none >/sys/block/$m/queue/scheduler
mkfs.ext4 -q -F "/dev/$m" >/dev/null 2>&1 || b_fail "mkfs.ext4"
mkdir "$B_TMP/mnt"
mount "/dev/$m" "$B_TMP/mnt" || b_skip "cannot mount ext4"
B_MOUNTS="$B_TMP/mnt $B_MOUNTS"
mkdir "$B_TMP/mnt/d"
(cd "$B_TMP/mnt/d" && $BENCH --allow-write --filename=test --size=4m --rw=randread --loops=1 --compare=$V) \
        >"$B_TMP/cwd.txt" 2>"$B_TMP/cwd.err" || b_fail "--filename=test: $(cat "$B_TMP/cwd.err")"
head -1 "$B_TMP/cwd.err" | grep -q "^iosched-bench: --compare will switch the I/O scheduler of $m (the disk holding the current directory $B_TMP/mnt/d: the job names the relative path 'test')" ||
        b_fail "--filename=test, up front: $(cat "$B_TMP/cwd.err")"
grep -q "^iosched-bench: $m holds: ext4 mounted on $B_TMP/mnt ($m)$" "$B_TMP/cwd.err" ||
        b_fail "--filename=test, holdings: $(cat "$B_TMP/cwd.err")"
grep -q "each round until each job has done its size (4MiB per thread)" "$B_TMP/cwd.err" ||
        b_fail "--filename=test, round: $(cat "$B_TMP/cwd.err")"
[ -e "$B_TMP/mnt/d/test" ] && b_fail "the file it laid out is still there"
# buffered reads the page cache answers (a 4 MiB region read again and again, direct=0, psync): the
# disk sees none of them, so no scheduler is compared: exit 1, said (before: a "best" and exit 0)
$BENCH --filename=/dev/$l --direct=0 --ioengine=psync --rw=randread --size=4m --runtime=300ms --time_based \
        --loops=1 --compare=$V >"$B_TMP/cache.txt" 2>"$B_TMP/cache.err"
rc=$?
[ $rc = 1 ] && grep -q "^iosched-bench: the jobs read .* in a round, $l .*: the page cache answered the rest" \
        "$B_TMP/cache.err" && ! grep -q "best:" "$B_TMP/cache.txt" ||
        b_fail "cached reads: exit $rc: $(cat "$B_TMP/cache.err" "$B_TMP/cache.txt")"
# not so: buffered writes, which reach the disk when written back (end_fsync=1: at the job's end, after
# the native engine's window), nor a job the objective does not name
$BENCH --filename=/dev/$l --allow-write --name=w --rw=write --direct=0 --bs=128k --runtime=300ms --time_based \
        --end_fsync=1 --loops=1 --compare=$V >"$B_TMP/cache.txt" 2>"$B_TMP/cache.err" ||
        b_fail "buffered writes: $(cat "$B_TMP/cache.err")"
printf '[global]\nfilename=/dev/%s\ntime_based\nruntime=300ms\n[disk]\nrw=randread\n[cached]\nrw=read\ndirect=0\nsize=4m\n' \
        "$l" >"$B_TMP/side.fio"
$BENCH --objective=disk:iops --loops=1 --compare=$V "$B_TMP/side.fio" >"$B_TMP/cache.txt" 2>"$B_TMP/cache.err" ||
        b_fail "a cached side job: $(cat "$B_TMP/cache.err")"
# a read of the mounted device itself: allowed, and said
$BENCH --filename=/dev/$m --rw=randread --runtime=200ms --ramp_time=0 --loops=1 --compare=$V \
        >"$B_TMP/mnt.txt" 2>"$B_TMP/mnt.err" || b_fail "read of a mounted device: $(cat "$B_TMP/mnt.err")"
grep -q "^iosched-bench: $m holds: ext4 mounted on $B_TMP/mnt ($m)$" "$B_TMP/mnt.err" ||
        b_fail "mounted device, holdings: $(cat "$B_TMP/mnt.err")"
echo "PASS"
