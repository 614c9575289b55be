#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# reader-under-writer.sh: the seed's table (blk-mq study: a latency-sensitive
# reader while a writer floods the disk) for every scheduler the device
# offers, with fio running the same job file as the reference.  One fio job
# file, two jobs at once: [reader] 4k random reads at depth 1, [writer] at
# depth 32, sequential (128k) or random (4k).  Both tools run it unchanged
# (fio FILE, iosched-bench --allow-write FILE), in interleaved pairs: pair 1
# of every (backing, writer, scheduler), then pair 2, ...; the order inside
# a pair flips every pair.  Per scheduler and tool: the reader's IOPS, clat
# p50 and p99 and the writer's IOPS, medians [min-max] over the pairs, and
# the median of the per-pair ratios iosched-bench / fio with whether it is
# within the noise (|ratio - 1| no larger than the larger spread of the two
# tools, spread = (max - min) / median).
#
#   bench/reader-under-writer.sh [options]
# Options:
#   -n PAIRS     pairs per cell (default 3)
#   -t SECS      runtime per run (default 5), after a 1 s ramp
#   -m MB        size of each loop device (default 512)
#   -b "B ..."   backings: ram (a file in /dev/shm) and/or disk (a file in
#                /var/tmp, on the machine's disk) (default "ram disk")
#   -w "W ..."   writers: write (sequential 128k) and/or randwrite (4k)
#                (default "write randwrite")
#   -e ENGINE    both tools' ioengine (default libaio)
#   -r "S R"     cap the writer at S (sequential) and R (random) writes per
#                second (rate_iops=,N in the job file), so that both tools
#                offer the device the same write load (default "0 0": no
#                cap, the writer floods as fast as the tool can submit)
#   -o DIR       keep the job file and every JSON output in DIR
# Both loop devices are attached with --direct-io=on (the disk one so that
# I/O reaches the disk, not the page cache), made by this script and
# detached at exit; the backing files are removed.  Needs root, fio, jq,
# python3.  Prints markdown tables on stdout, progress on stderr.
set -u -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$top/${BUILDDIR:-build}/iosched-bench}
PAIRS=3 RT=5 MB=512 BACKINGS="ram disk" WRITERS="write randwrite" ENGINE=libaio OUT="" CAPS="0 0"

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
        case $1 in
        -n) PAIRS=$2; shift 2 ;;
        -t) RT=$2; shift 2 ;;
        -m) MB=$2; shift 2 ;;
        -b) BACKINGS=$2; shift 2 ;;
        -w) WRITERS=$2; shift 2 ;;
        -e) ENGINE=$2; shift 2 ;;
        -r) CAPS=$2; shift 2 ;;
        -o) OUT=$2; shift 2 ;;
        -h|--help) usage ;;
        *) echo "reader-under-writer.sh: unknown argument $1" >&2; exit 2 ;;
        esac
done
for t in fio jq python3 losetup; do
        command -v $t >/dev/null || { echo "reader-under-writer.sh: $t not found" >&2; exit 2; }
done
[ -x "$BENCH" ] || { echo "reader-under-writer.sh: $BENCH not built (make)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "reader-under-writer.sh: needs root (loop devices)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/ruw-XXXXXX)
DEVS="" FILES=""
cleanup() {
        for d in $DEVS; do losetup -d "$d" 2>/dev/null; done
        for f in $FILES; do rm -f "$f"; done
        rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
OUT=${OUT:-$TMP/out}
mkdir -p "$OUT"

# the job file both tools run, as an admin would write it for fio
cat >"$OUT/reader-under-writer.fio" <<'EOF'
; a latency-sensitive reader while a writer floods the disk
[global]
filename=${RUW_DEV}
ioengine=${RUW_ENGINE}
direct=1
time_based
runtime=${RUW_RT}
ramp_time=1
randrepeat=0
norandommap

[reader]
rw=randread
bs=4k
iodepth=1

[writer]
rw=${RUW_WRITER_RW}
bs=${RUW_WRITER_BS}
iodepth=32
rate_iops=,${RUW_WRITER_RATE}
EOF

modprobe kyber-iosched 2>/dev/null
modprobe bfq 2>/dev/null
declare -A DEV SCHEDS
for b in $BACKINGS; do
        case $b in
        ram) f=$(mktemp /dev/shm/ruw-XXXXXX.img)
             dd if=/dev/urandom of="$f" bs=1M count="$MB" status=none || exit 1 ;;
        disk) f=$(mktemp /var/tmp/ruw-XXXXXX.img)
              dd if=/dev/urandom of="$f" bs=1M count="$MB" oflag=direct status=none || exit 1 ;;
        *) echo "reader-under-writer.sh: unknown backing $b" >&2; exit 2 ;;
        esac
        FILES="$FILES $f"
        d=$(losetup --direct-io=on --show -f "$f") || exit 1
        DEVS="$DEVS $d"
        udevadm settle 2>/dev/null
        DEV[$b]=$d
        SCHEDS[$b]=$(tr -d '[]' <"/sys/block/${d#/dev/}/queue/scheduler")
        echo "$b: $d on $f, schedulers: ${SCHEDS[$b]}" >&2
done

run() {         # run TOOL BACKING WRITER SCHED PAIR
        local out="$OUT/$2-$3-$4-$1-$5.json" bs=128k rate=${CAPS% *}
        [ "$3" = randwrite ] && bs=4k rate=${CAPS#* }
        echo "$4" >"/sys/block/${DEV[$2]#/dev/}/queue/scheduler" || exit 1
        export RUW_DEV=${DEV[$2]} RUW_ENGINE=$ENGINE RUW_RT=$RT RUW_WRITER_RW=$3 RUW_WRITER_BS=$bs RUW_WRITER_RATE=$rate
        case $1 in
        # fio sometimes prints its job line before the JSON: keep the JSON
        fio) fio --output-format=json "$OUT/reader-under-writer.fio" 2>"$out.err" | sed -n '/^{/,$p' >"$out" ;;
        ours) "$BENCH" --allow-write --eta=never --output-format=json "$OUT/reader-under-writer.fio" >"$out" 2>"$out.err" ;;
        esac || { echo "$1 failed: $(cat "$out.err")" >&2; exit 1; }
        jq -r --arg k "$2 $3 $4 $1 $5" '
                (.jobs[] | select(.jobname == "reader")) as $r | (.jobs[] | select(.jobname == "writer")) as $w |
                [$k, $r.read.iops, $r.read.clat_ns.percentile["50.000000"], $r.read.clat_ns.percentile["99.000000"],
                 $w.write.iops, $r.write.total_ios, $w.read.total_ios] | @tsv' "$out" >>"$TMP/rows" ||
                { echo "$1: unreadable JSON $out" >&2; exit 1; }
}

start=$(date +%s)
for p in $(seq "$PAIRS"); do
        for b in $BACKINGS; do
                for w in $WRITERS; do
                        for s in ${SCHEDS[$b]}; do
                                echo "pair $p/$PAIRS: $b $w $s" >&2
                                if [ $((p % 2)) = 1 ]; then run fio "$b" "$w" "$s" "$p"; run ours "$b" "$w" "$s" "$p"
                                else run ours "$b" "$w" "$s" "$p"; run fio "$b" "$w" "$s" "$p"; fi
                        done
                done
        done
done
cp "$TMP/rows" "$OUT/rows.tsv"
echo "done in $(( $(date +%s) - start )) s; raw rows in $OUT/rows.tsv" >&2

python3 - "$TMP/rows" "$PAIRS" "$RT" "$ENGINE" "$CAPS" <<'EOF'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
pairs, rt, engine, caps = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split()
cells = {}
for r in rows:
    b, w, s, tool, p = r[0].split(" ")
    if float(r[5]) != 0 or float(r[6]) != 0:
        sys.exit(f"{r[0]}: the reader wrote or the writer read")
    cells.setdefault((b, w, s), {}).setdefault(tool, {})[int(p)] = [float(x) for x in r[1:5]]
def med(v): return statistics.median(v)
def spread(v): return (max(v) - min(v)) / med(v) if med(v) > 0 else 0
def us(v): return f"{v / 1000:.0f}" if v >= 100000 else f"{v / 1000:.1f}" if v >= 10000 else f"{v / 1000:.2f}"
def k(v): return f"{v / 1000:.1f}k" if v >= 10000 else f"{v:.0f}"
def rng(vals, f): return f"{f(med(vals))} [{f(min(vals))}-{f(max(vals))}]"
order = []
for (b, w, s) in cells:
    if (b, w) not in order: order.append((b, w))
for (b, w) in order:
    wd = "sequential 128k" if w == "write" else "random 4k"
    cap = caps[0] if w == "write" else caps[1]
    if cap != "0": wd += f", capped at {cap} IOPS"
    print(f"\n#### {'RAM-backed loop (/dev/shm)' if b == 'ram' else 'loop over a file on the disk (/var/tmp)'}, writer {wd} QD32\n")
    print("| scheduler | tool | reader IOPS | reader p50 µs | reader p99 µs | writer IOPS | p99 ours/fio | IOPS ours/fio |")
    print("|---|---|---|---|---|---|---|---|")
    for (bb, ww, s), t in cells.items():
        if (bb, ww) != (b, w): continue
        for tool in ("fio", "ours"):
            v = t.get(tool, {})
            if not v: continue
            col = list(zip(*v.values()))
            extra = ["", ""]
            if tool == "ours" and t.get("fio"):
                common = sorted(set(v) & set(t["fio"]))
                for i, idx in enumerate((2, 0)):
                    ratios = [v[p][idx] / t["fio"][p][idx] for p in common if t["fio"][p][idx] > 0]
                    noise = max(spread([v[p][idx] for p in common]), spread([t["fio"][p][idx] for p in common]))
                    if ratios:
                        r = med(ratios)
                        extra[i] = f"{r:.2f} [{min(ratios):.2f}-{max(ratios):.2f}] {'within' if abs(r - 1) <= noise else 'OUTSIDE'} noise {noise * 100:.0f}%"
            print(f"| {s if tool == 'fio' else ''} | {'fio' if tool == 'fio' else 'iosched-bench'} | {rng(col[0], k)} | {rng(col[1], us)} | "
                  f"{rng(col[2], us)} | {rng(col[3], k)} | {extra[0]} | {extra[1]} |")
print(f"\n{pairs} interleaved pairs per cell, {rt} s + 1 s ramp per run, ioengine={engine}; medians [min-max] over the pairs.")
EOF
