#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# qd1-ipis.sh: the kernel's view of short depth-1 runs.  N interleaved pairs
# of 1 s 4k random reads at iodepth 1 on TARGET, fio then iosched-bench (the
# order flips every pair), and for each run the reschedule and
# function-call IPIs of the whole machine per I/O (/proc/interrupts, RES and
# CAL) and the job thread's context switches per I/O.  An I/O thread that
# runs undisturbed takes ~0 IPIs per I/O; one that other work keeps
# preempting takes more, whichever tool it is.
#
#   bench/qd1-ipis.sh TARGET ENGINE N ["ARGS for iosched-bench" ["ARGS for fio"]]
#
# Prints one line per run: pair, tool, IOPS, clat p50 (us), RES/IO, CAL/IO, ctx/IO.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$top/${BUILDDIR:-build}/iosched-bench}
[ $# -ge 3 ] || { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
DEV=$1 ENG=$2 N=$3 XO=${4:-} XF=${5:-}
TMP=$(mktemp -d /tmp/qd1-ipis-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
ipis() { awk '/^ *RES:/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) r += $i }
              /^ *CAL:/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) c += $i } END { print r + 0, c + 0 }' /proc/interrupts; }
run() {
        local tool=$1 pair=$2 out=$TMP/run.json r0 c0 r1 c1
        read -r r0 c0 < <(ipis)
        if [ "$tool" = fio ]; then
                fio --name=vs --filename="$DEV" --rw=randread --bs=4k --direct=1 --runtime=1 --ioengine="$ENG" \
                        --iodepth=1 --time_based --norandommap --randrepeat=0 --output-format=json $XF >"$out" 2>/dev/null
        else
                "$BENCH" --name=vs --filename="$DEV" --rw=randread --bs=4k --direct=1 --runtime=1 --ioengine="$ENG" \
                        --iodepth=1 --eta=never -J $XO >"$out" 2>/dev/null
        fi
        read -r r1 c1 < <(ipis)
        jq -r --arg t "$tool" --arg p "$pair" --argjson res $((r1 - r0)) --argjson cal $((c1 - c0)) \
                '.jobs[0] | [$p, $t, (.read.iops | floor), (.read.clat_ns.percentile["50.000000"] / 1000),
                 ($res / .read.total_ios * 100 | floor / 100), ($cal / .read.total_ios * 100 | floor / 100),
                 (.ctx / .read.total_ios * 100 | floor / 100)] | @tsv' "$out"
}
for i in $(seq 1 "$N"); do
        if [ $((i % 2)) = 1 ]; then order="fio ours"; else order="ours fio"; fi
        for t in $order; do run "$t" "$i"; done
done
