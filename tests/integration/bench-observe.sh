#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: --observe on loop devices: with no load it reads the counters
# and moves none of them (idle verdict); against a fio load started in the
# background it alternates the variants, every window sees I/O, and the
# disk's counters grow by exactly fio's I/O (sectors and I/Os, read and
# write: iosched-bench issued none); every attribute is restored after a
# complete run and after SIGINT or SIGTERM; a load that starts midway is
# warned about; a mounted file system (observed through a directory on it)
# and a read-only device are observed like any other; bad combinations are
# usage errors.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || apt-get install -y -qq --no-install-recommends fio >/dev/null 2>&1
command -v fio >/dev/null || b_skip "fio cannot be installed"
b_loop l 64
q=/sys/block/$l/queue
echo mq-deadline >$q/scheduler 2>/dev/null || b_skip "$l cannot run mq-deadline"
echo 333 >$q/iosched/read_expire
echo 64 >$q/nr_requests
echo 512 >$q/read_ahead_kb
b_queue_state $l >"$B_TMP/before"

same() {
        b_queue_state $l >"$B_TMP/after"
        diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "$1: state differs: $(cat "$B_TMP/diff")"
}
field() { awk -v i="$1" '{ print $i }' "/sys/block/$l/stat"; }

# Sections 1 and 2 count every I/O the disk sees.  udevd probes a disk (blkid
# reads) on its events, and on a "change" it makes up itself when a writer
# closes the node (fio, below); by udev's convention it skips or postpones a
# whole disk's events while someone has LOCK_EX on its node, so the test
# holds that lock while it counts.  iosched-bench never opens the node, so
# the lock does not hold it back.
exec 9</dev/$l
flock -x 9 || b_fail "flock /dev/$l"
udevadm settle 2>/dev/null

# 1. no load: nothing moves, the verdict says idle
s0=$(cat /sys/block/$l/stat)
$BENCH --filename=/dev/$l --observe --compare=mq-deadline,none --runtime=200ms --ramp_time=0 --loops=2 -J \
        >"$B_TMP/idle.json" 2>"$B_TMP/err" || b_fail "idle observe: $(cat "$B_TMP/err")"
[ "$(cat /sys/block/$l/stat)" = "$s0" ] || b_fail "idle observe moved the counters: $s0 / $(cat /sys/block/$l/stat)"
b_json "$B_TMP/idle.json" '.observe.idle == true and .observe.restored == true and
        (.observe.variants | length) == 2 and .observe.variants[0].rounds == 2' ||
        b_fail "idle JSON: $(cat "$B_TMP/idle.json")"
same "idle observe"

# a disk whose kernel keeps no counters (queue/iostats=0) is refused, not called idle
echo 0 >/sys/block/$l/queue/iostats
$BENCH --filename=/dev/$l --observe --compare=mq-deadline,none --runtime=200ms --ramp_time=0 --loops=2 \
        >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
echo 1 >/sys/block/$l/queue/iostats
[ $rc = 2 ] || b_fail "iostats=0: exit $rc, want 2: $(cat "$B_TMP/out" "$B_TMP/err")"
grep -q "has queue/iostats=0: the kernel keeps no I/O counters" "$B_TMP/err" || b_fail "iostats=0: $(cat "$B_TMP/err")"
grep -q "idle" "$B_TMP/out" && b_fail "iostats=0 called idle: $(cat "$B_TMP/out")"

# 2. against fio: the counters grow by fio's I/O only
s0=$(cat /sys/block/$l/stat)
fio --name=load --filename=/dev/$l --rw=randrw --rwmixread=70 --bs=4k --iodepth=8 --ioengine=libaio \
        --direct=1 --time_based --runtime=8 --output-format=json --output="$B_TMP/fio.json" >/dev/null 2>&1 &
fpid=$!
B_PIDS="$B_PIDS $fpid"
# observe once fio's I/O reaches the disk (fio starts slowly on a loaded machine)
r0=$(field 1)
for i in $(seq 1 100); do
        [ "$(field 1)" -gt "$r0" ] && break
        sleep 0.1
done
$BENCH --filename=/dev/$l --observe --compare='mq-deadline,mq-deadline:fifo_batch=1,none' --runtime=300ms \
        --ramp_time=100ms --loops=2 --objective=await -J >"$B_TMP/out.json" 2>"$B_TMP/err" ||
        b_fail "observe under fio: $(cat "$B_TMP/err")"
wait $fpid || b_fail "fio failed: $(cat "$B_TMP/fio.json")"
s1=$(cat /sys/block/$l/stat)
same "observe under fio"
# every window of every variant saw reads and writes, with a wait for each
python3 - "$B_TMP/out.json" <<'PY' || b_fail "observe JSON: $(head -c 2000 "$B_TMP/out.json")"
import json, sys
o = json.load(open(sys.argv[1]))["observe"]
assert o["restored"] and not o["idle"] and o["objective"] == "await" and o["lower_is_better"]
assert [v["name"] for v in o["variants"]] == ["mq-deadline", "mq-deadline:fifo_batch=1", "none"]
for v in o["variants"]:
    assert v["rounds"] == 2 and len(v["windows"]) == 2, v
    for w in v["windows"]:
        assert w["read_iops"] > 0 and w["write_iops"] > 0 and w["read_await_ms"] is not None, w
        assert w["util_pct"] > 0 and w["bw_bytes"] > 0, w
assert o["best"] in ("mq-deadline", "mq-deadline:fifo_batch=1", "none")
PY
want=$(python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"], j["read"]["io_bytes"] // 512, j["write"]["total_ios"], j["write"]["io_bytes"] // 512)' \
        "$B_TMP/fio.json") || b_fail "fio JSON: $(head -c 500 "$B_TMP/fio.json")"
# (a merged request counts once in ios and once in merges: their sum is fio's I/Os)
got=$(echo "$s0 $s1" | awk '{ n = NF / 2; print $(n+1)+$(n+2)-$1-$2, $(n+3)-$3, $(n+5)+$(n+6)-$5-$6, $(n+7)-$7 }')
[ "$want" = "$got" ] || b_fail "counters grew by $got (read ios+merges, sectors, write ios+merges, sectors), fio did $want"
[ "${want%% *}" -gt 0 ] || b_fail "fio did no I/O: $want"
exec 9<&-

# 3. SIGINT and SIGTERM mid-run restore
for sig in INT TERM; do
        $BENCH --filename=/dev/$l --observe --compare=none,kyber,mq-deadline:fifo_batch=2 --runtime=10s --ramp_time=0 \
                --loops=3 >"$B_TMP/out" 2>"$B_TMP/err" &
        pid=$!
        B_PIDS="$B_PIDS $pid"
        while kill -0 $pid 2>/dev/null; do
                b_queue_state $l >"$B_TMP/now"
                cmp -s "$B_TMP/before" "$B_TMP/now" || break
                sleep 0.02
        done
        cmp -s "$B_TMP/before" "$B_TMP/now" && b_fail "SIG$sig: observe never changed the state"
        sleep 0.3
        kill -$sig $pid
        wait $pid
        rc=$?
        [ $rc = 1 ] || b_fail "SIG$sig: exit $rc, want 1 ($(cat "$B_TMP/err"))"
        grep -q "interrupted; $l restored to mq-deadline" "$B_TMP/err" || b_fail "SIG$sig message: $(cat "$B_TMP/err")"
        same "SIG$sig"
done

# 4. a load that starts midway: warned about, not judged
# (the load starts once observe has switched the disk twice, whatever the machine's speed,
# and lasts until observe ends)
b_queue_state $l >"$B_TMP/s0"
$BENCH --filename=/dev/$l --observe --compare=mq-deadline,none --runtime=400ms --ramp_time=0 --loops=8 \
        >"$B_TMP/out" 2>"$B_TMP/err" &
pid=$!
B_PIDS="$B_PIDS $pid"
switches=0
while [ $switches -lt 2 ] && kill -0 $pid 2>/dev/null; do
        b_queue_state $l >"$B_TMP/s1"
        cmp -s "$B_TMP/s0" "$B_TMP/s1" || { switches=$((switches + 1)); mv "$B_TMP/s1" "$B_TMP/s0"; }
        sleep 0.02
done
fio --name=late --filename=/dev/$l --rw=randread --bs=4k --iodepth=4 --ioengine=libaio --direct=1 --time_based \
        --runtime=600 >/dev/null 2>&1 &
fpid=$!
B_PIDS="$B_PIDS $fpid"
wait $pid || b_fail "observe with a late load: $(cat "$B_TMP/err")"
kill $fpid 2>/dev/null
wait $fpid
grep -q "WARNING: the load changed between rounds" "$B_TMP/out" || b_fail "no load warning: $(cat "$B_TMP/out")"
grep -q "not judged" "$B_TMP/out" || b_fail "judged anyway: $(cat "$B_TMP/out")"
same "late load"

# 5. a mounted file system, observed through a directory on it; a read-only device
if command -v mkfs.ext4 >/dev/null; then
        b_loop m 32
        mkfs.ext4 -q -F /dev/$m || b_fail "mkfs"
        mkdir "$B_TMP/mnt"
        mount /dev/$m "$B_TMP/mnt" || b_fail "mount"
        B_MOUNTS="$B_TMP/mnt $B_MOUNTS"
        sm=$(b_sched $m)
        $BENCH --filename="$B_TMP/mnt" --observe --compare=none,mq-deadline --runtime=100ms --ramp_time=0 --loops=1 \
                >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "mounted: $(cat "$B_TMP/err")"
        grep -q "observe $m " "$B_TMP/out" || b_fail "mounted: not $m: $(cat "$B_TMP/out")"
        [ "$(b_sched $m)" = "$sm" ] || b_fail "mounted: scheduler not restored"
fi
b_loop r 16 -r
$BENCH --filename=/dev/$r --observe --compare=none,mq-deadline --runtime=100ms --ramp_time=0 --loops=1 \
        >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "read-only: $(cat "$B_TMP/err")"

# 6. usage errors (exit 2, nothing changed)
usage() {
        want=$1; shift
        $BENCH "$@" >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 2 ] || b_fail "$*: exit $rc, want 2 ($(cat "$B_TMP/err"))"
        grep -q -- "$want" "$B_TMP/err" || b_fail "$*: message $(cat "$B_TMP/err"), want $want"
}
usage "--observe needs --compare" --filename=/dev/$l --observe
usage "not in the disk's counters" --filename=/dev/$l --observe --compare --objective=p99
usage "needs --observe" --filename=/dev/$l --compare --objective=await
usage "is not on a block device" --filename=/dev/null --observe --compare
usage "No such file" --filename=/dev/nosuchdisk --observe --compare
usage "unknown tunable" --filename=/dev/$l --observe --compare=none,mq-deadline:fifo=1
same "usage errors"
echo ok
