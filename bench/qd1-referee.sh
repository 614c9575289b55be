#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# qd1-referee.sh: short depth-1 runs of fio and iosched-bench, refereed by
# the kernel.  N interleaved pairs (the order flips every pair) per engine of
#   iosched-bench --filename=DEV --ioengine=E --rw=randread --bs=4k --iodepth=1 --direct=1 --runtime=T --json
#   fio --name=x  (the same options) --time_based --output-format=json
# and for every run, next to the tool's own IOPS, the device's completed
# reads (/sys/block/DEV/stat, field 1) over the process's wall time: the I/Os
# per second the kernel saw, counted the same way for both tools.
#
#   bench/qd1-referee.sh [-n N] [-t SECS] [-e "E ..."] [-d DEPTH] [-a "ARGS"] [-o DIR] DEV
#
# -n pairs per engine (9), -t runtime (1 s), -e engines (io_uring libaio),
# -d iodepth (1), -a options given to both tools (e.g. "--cpus_allowed=0"),
# -o DIR keeps every JSON report (and perf's 100 ms counts, TOOL-E-PAIR.perf).
#
# DEV must be a block device (a loop device you attached); it is only read.
# Every run is also counted by the kernel, three ways: the device's completed
# reads over the process's life (which must equal the tool's total_ios), the
# same per second of the process's wall time, and, with perf, the device's
# block_rq_complete events in 100 ms intervals over the busy span (the rate
# the device ran at, whatever window the tool measured); next to them the
# machine's RES+CAL IPIs per I/O (the vCPU wake-ups each I/O cost) and the
# tool's clat p50.  Prints one row per run, then per engine and figure the
# medians [min-max] for both tools, the median per-pair ratio iosched-bench /
# fio with its range, and in how many pairs fio's figure was higher.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$top/${BUILDDIR:-build}/iosched-bench}
N=9 RT=1 ENGINES="io_uring libaio" DEPTH=1 OUT="" BOTH=""
usage() { sed -n '3,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
        case $1 in
        -n) N=$2; shift 2 ;;
        -t) RT=$2; shift 2 ;;
        -e) ENGINES=$2; shift 2 ;;
        -d) DEPTH=$2; shift 2 ;;
        -o) OUT=$2; shift 2 ;;
        -a) BOTH=$2; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "qd1-referee.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
        esac
done
[ $# -eq 1 ] || usage
DEV=$1
[ -b "$DEV" ] || { echo "qd1-referee.sh: $DEV is not a block device" >&2; exit 2; }
if ! command -v fio >/dev/null || ! command -v jq >/dev/null; then
        echo "qd1-referee.sh: needs fio and jq" >&2
        exit 2
fi
[ -x "$BENCH" ] || { echo "qd1-referee.sh: $BENCH not built (make)" >&2; exit 2; }
STAT=/sys/block/$(basename "$(readlink -f "$DEV")")/stat
TMP=$(mktemp -d /tmp/qd1-referee-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM
[ -n "$OUT" ] && mkdir -p "$OUT"
ROWS=$TMP/rows

read -ra XA <<<"$BOTH"
JOB=(--filename="$DEV" --rw=randread --bs=4k --iodepth="$DEPTH" --direct=1 --runtime="$RT" "${XA[@]}")
# the kernel's own count of the device's completions, every 100 ms of wall
# time (block_rq_complete for this device only), if perf can count it
devt=$(( (0x$(stat -L -c %t "$DEV") << 20) | 0x$(stat -L -c %T "$DEV") ))
PERF=(perf stat -a -e block:block_rq_complete --filter "dev == $devt" -I 100 -x ',' -o "$TMP/perf")
"${PERF[@]}" -- true >/dev/null 2>&1 || PERF=()
# reschedule and function-call IPIs of the whole machine (/proc/interrupts RES + CAL)
ipis() { awk '/^ *(RES|CAL):/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i } END { print n + 0 }' /proc/interrupts; }
# completions per second over the 100 ms intervals strictly inside the busy
# span (the first and the last interval with a completion are partial)
steady() {
        [ ${#PERF[@]} -gt 0 ] || { echo 0; return; }
        awk -F, '!/^#/ && NF > 2 { n++; t[n] = $1; c[n] = $2 }
                END { for (i = 1; i <= n; i++) if (c[i] > 0) { if (!a) a = i; b = i }
                      for (i = a + 1; i < b; i++) s += c[i]
                      print (b - a >= 2 && t[b - 1] > t[a]) ? int(s / (t[b - 1] - t[a])) : 0 }' "$TMP/perf"
}
run() {         # tool engine pair
        local tool=$1 eng=$2 pair=$3 out=$TMP/$1-$2-$3.json k0 k1 t0 t1 i0 i1 cmd
        if [ "$tool" = fio ]; then
                cmd=(fio --name=x "${JOB[@]}" --ioengine="$eng" --time_based --output-format=json)
        else
                cmd=("$BENCH" "${JOB[@]}" --ioengine="$eng" --json)
        fi
        read -r i0 < <(ipis)
        read -r k0 _ <"$STAT"
        t0=$(date +%s%N)
        "${PERF[@]}" "${cmd[@]}" >"$out" 2>/dev/null
        t1=$(date +%s%N)
        read -r k1 _ <"$STAT"
        read -r i1 < <(ipis)
        if [ -n "$OUT" ]; then
                cp "$out" "$OUT/"
                [ ${#PERF[@]} -gt 0 ] && cp "$TMP/perf" "$OUT/$tool-$eng-$pair.perf"
        fi
        jq -r --arg t "$tool" --arg e "$eng" --arg p "$pair" --argjson k $((k1 - k0)) --argjson w $(((t1 - t0) / 1000)) \
                --argjson x $((i1 - i0)) --argjson s "$(steady)" \
                '.jobs[0] | [$e, $p, $t, (.read.iops | floor), .read.total_ios, .read.runtime, ($w / 1000 | floor),
                 $k, ($k * 1000000 / $w | floor), $s, ($x / ([$k, 1] | max) * 100 | floor / 100),
                 (.ctx / ([.read.total_ios, 1] | max) * 100 | floor / 100),
                 (.read.clat_ns.percentile["50.000000"] / 100 | floor / 10)] | @tsv' "$out" >>"$ROWS" ||
                echo "qd1-referee.sh: $tool $eng pair $pair: no JSON" >&2
}
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'engine\tpair\ttool\tIOPS\tios\truntime_ms\twall_ms\tdev_reads\tdev_reads/wall_s\tdev_steady/s\tIPIs/IO\tctx/IO\tclat_p50_us\n'
for i in $(seq 1 "$N"); do
        for e in $ENGINES; do
                if [ $((i % 2)) = 1 ]; then order="fio ours"; else order="ours fio"; fi
                for t in $order; do run "$t" "$e" "$i"; done
        done
done
cat "$ROWS"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# per engine and figure: medians [min-max], the per-pair ratio ours / fio and
# how many pairs fio had more; and in how many runs the tool's count was the device's
awk -F'\t' '
function med(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function k(x) { return x >= 1000 ? sprintf("%.1fk", x / 1000) : x >= 100 ? sprintf("%d", x) : sprintf("%.2f", x) }
function fmt(a, n,   m) { m = med(a, n); return k(m) " [" k(a[1]) "-" k(a[n]) "]" }
{ for (c = 4; c <= 13; c++) v[$1, $2, $3, c] = $c
  if (!($1 in seen)) { seen[$1] = 1; eng[++ne] = $1 }; pairs[$1, $2] = 1
  runs[$1]++; same[$1] += ($5 == $8) }
END {
        split("4 9 10 11 13", col, " "); split("tool IOPS|device reads per wall s|device steady reads/s|IPIs per I/O|clat p50 us", name, "|")
        print "| engine | figure | pairs | fio | iosched-bench | ratio ours/fio | fio higher |"
        print "|---|---|---|---|---|---|---|"
        for (x = 1; x <= ne; x++) {
                e = eng[x]
                for (y = 1; y <= 5; y++) {
                        c = col[y]; n = 0; w = 0
                        delete f; delete o; delete r
                        for (pk in pairs) { split(pk, s, SUBSEP); if (s[1] != e) continue; p = s[2]
                                if (!((e, p, "fio", c) in v) || !((e, p, "ours", c) in v)) continue
                                if (v[e, p, "fio", c] + 0 == 0 && c == 10) continue
                                n++; f[n] = v[e, p, "fio", c]; o[n] = v[e, p, "ours", c]
                                r[n] = f[n] > 0 ? o[n] / f[n] : 0; w += f[n] > o[n] }
                        if (n) printf "| %s | %s | %d | %s | %s | %s | %d/%d |\n", e, name[y], n, fmt(f, n), fmt(o, n), fmt(r, n), w, n
                }
                printf "| %s | runs whose total_ios is the device'"'"'s count | %d | | | | %d/%d |\n", e, runs[e], same[e], runs[e]
        }
}' "$ROWS"
