#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# fio-overhead.sh: what the fio backend costs per round.  On a loop device
# on a file in /dev/shm (created, detached at exit), one job file of two
# jobs (one with bssplit), in interleaved pairs (the order inside a pair
# flips every pair):
#   plain:   `fio --output-format=json+ FILE` against
#            `iosched-bench --backend=fio FILE`: the wall time of each, and
#            the difference per pair (finding fio, reading the job, the
#            target checks, reading fio's JSON, the report);
#   own:     the same two commands with a stand-in fio in PATH that writes
#            fio's saved report at once (and answers --version): what iosched-bench itself adds per run, without
#            fio's run and its noise;
#   compare: `iosched-bench --compare=none,mq-deadline --loops=L` on the
#            same job through fio (--backend=fio) and through the native
#            engine (--backend=native): wall time per round minus the round's fio/job
#            time (ramp + runtime), i.e. the switch, the checks and the
#            backend's start-up per round.
# Prints the median, [min-max] and spread of every figure.
#   bench/fio-overhead.sh [-n PAIRS] [-t SECS] [-l LOOPS]
# Needs root, fio, losetup.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$top/${BUILDDIR:-build}/iosched-bench}
PAIRS=7 RT=1 LOOPS=3
while getopts n:t:l: o; do
        case $o in
        n) PAIRS=$OPTARG ;;
        t) RT=$OPTARG ;;
        l) LOOPS=$OPTARG ;;
        *) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
        esac
done
FIO=$(command -v fio) || { echo "fio-overhead.sh: no fio" >&2; exit 1; }
TMP=$(mktemp -d /tmp/fio-overhead-XXXXXX)
IMG=/dev/shm/fio-overhead-$$.img
truncate -s 512M "$IMG"
DEV=$(losetup -f --show --direct-io=on "$IMG") || exit 1
cleanup() { losetup -d "$DEV"; rm -rf "$TMP" "$IMG"; }
trap cleanup EXIT
echo none >/sys/block/${DEV#/dev/}/queue/scheduler

cat >"$TMP/job.fio" <<EOF
[global]
filename=$DEV
ioengine=libaio
direct=1
time_based
runtime=$RT
[reader]
rw=randread
bs=4k
iodepth=1
[streamer]
rw=read
bssplit=64k/50:128k/50
iodepth=16
EOF

ms() { echo $(( $(date +%s%N) / 1000000 )); }
run() {         # run TAG CMD...: wall ms appended to $TMP/TAG
        local tag=$1 t0; shift
        t0=$(ms)
        "$@" >/dev/null 2>"$TMP/err" || { echo "$tag failed: $(cat "$TMP/err")" >&2; exit 1; }
        echo $(( $(ms) - t0 )) >>"$TMP/$tag"
}
for p in $(seq "$PAIRS"); do
        if [ $((p % 2)) = 1 ]; then
                run fio "$FIO" --output-format=json+ --eta=never "$TMP/job.fio"
                run ours "$BENCH" --backend=fio "$TMP/job.fio"
        else
                run ours "$BENCH" --backend=fio "$TMP/job.fio"
                run fio "$FIO" --output-format=json+ --eta=never "$TMP/job.fio"
        fi
        echo $(( $(tail -1 "$TMP/ours") - $(tail -1 "$TMP/fio") )) >>"$TMP/diff"
        c="$BENCH --compare=none,mq-deadline --loops=$LOOPS --eta=never"
        if [ $((p % 2)) = 1 ]; then
                run cmp-fio $c --backend=fio "$TMP/job.fio"
                run cmp-native $c --backend=native "$TMP/job.fio"
        else
                run cmp-native $c --backend=native "$TMP/job.fio"
                run cmp-fio $c --backend=fio "$TMP/job.fio"
        fi
done
# iosched-bench's own part: a stand-in fio that prints a saved report at once
mkdir "$TMP/bin"
"$FIO" --output-format=json+ --eta=never "$TMP/job.fio" >"$TMP/saved.json"
cat >"$TMP/bin/fio" <<EOF
#!/bin/sh
case "\$1" in
--version) echo fio-3.33 ;;
*) cat "$TMP/saved.json" ;;
esac
EOF
chmod +x "$TMP/bin/fio"
for p in $(seq $((PAIRS * 3))); do
        if [ $((p % 2)) = 1 ]; then
                run stand "$TMP/bin/fio" --output-format=json+ "$TMP/job.fio"
                PATH="$TMP/bin:$PATH" run own "$BENCH" --backend=fio "$TMP/job.fio"
        else
                PATH="$TMP/bin:$PATH" run own "$BENCH" --backend=fio "$TMP/job.fio"
                run stand "$TMP/bin/fio" --output-format=json+ "$TMP/job.fio"
        fi
        echo $(( $(tail -1 "$TMP/own") - $(tail -1 "$TMP/stand") )) >>"$TMP/owndiff"
done
# per round: wall / rounds - (ramp 1 s + runtime)
rounds=$((2 * LOOPS))
for b in fio native; do
        awk -v r=$rounds -v rt=$RT '{ printf "%d\n", $1 / r - (1 + rt) * 1000 }' "$TMP/cmp-$b" >"$TMP/round-$b"
done
python3 - "$TMP" "$PAIRS" "$RT" "$LOOPS" <<'EOF'
import sys, statistics as st
d, pairs, rt, loops = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def row(name, f):
    v = [int(x) for x in open(f"{d}/{f}")]
    m = st.median(v)
    sp = (max(v) - min(v)) / m * 100 if m else 0
    print(f"| {name} | {m:.0f} [{min(v)}-{max(v)}] | {sp:.0f}% | {' '.join(map(str, v))} |")
print(f"{pairs} interleaved pairs, {rt} s runs, --compare with 2 variants x {loops} rounds\n")
print("| figure (ms) | median [min-max] | spread | per pair |\n|---|---|---|---|")
row("fio alone, wall", "fio")
row("iosched-bench --backend=fio, wall", "ours")
row("difference per pair (the backend's overhead per run)", "diff")
row("stand-in fio alone, wall", "stand")
row("iosched-bench --backend=fio on the stand-in, wall", "own")
row("difference per pair (iosched-bench's own part per run)", "owndiff")
row("--compare via fio: per round beyond ramp+runtime", "round-fio")
row("--compare native: per round beyond ramp+runtime", "round-native")
EOF
