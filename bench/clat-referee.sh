#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# clat-referee.sh: the kernel as referee for completion latency.  Runs a
# benchmark command (fio, iosched-bench, anything) while the block layer's
# own tracepoints record every request of one disk, then prints the
# benchmark's clat p50/p99 (from its fio-style JSON on stdout) next to the
# device's: block_rq_issue (the driver is handed the request) to
# block_rq_complete, per request, matched by sector.  A tool's clat is the
# device's plus its own submission and completion path, so the smaller the
# excess, the closer the tool measures what the disk does.
#
#   bench/clat-referee.sh DISK -- COMMAND...     (DISK as in /sys/block, e.g. vda)
#
# Reads only: tracefs (mounted on /sys/kernel/tracing for the run if it is
# not; the tracer's state is put back afterwards) and the command's output.  Needs root and python3.  Prints one tab-separated line:
#   tool_p50_us tool_p99_us device_p50_us device_p99_us device_requests
set -eu
[ $# -ge 3 ] && [ "$2" = "--" ] || { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
DISK=$1
shift 2
T=/sys/kernel/tracing
MOUNTED=0
[ -e $T/trace ] || { mount -t tracefs nodev $T && MOUNTED=1; }
[ -e "/sys/block/$DISK/dev" ] || { echo "clat-referee.sh: no disk $DISK" >&2; exit 2; }
IFS=: read -r MAJ MIN <"/sys/block/$DISK/dev"
DEVT=$(( (MAJ << 20) | MIN ))
TMP=$(mktemp -d /tmp/clat-referee-XXXXXX)
ev="block/block_rq_issue block/block_rq_complete"
# put the tracer back as it was found
ON0=$(cat $T/tracing_on) BUF0=$(cat $T/buffer_size_kb)
cleanup() {
        echo 0 >$T/tracing_on
        for e in $ev; do
                echo 0 >"$T/events/$e/enable"
                echo 0 >"$T/events/$e/filter"
        done
        echo >$T/trace
        case $BUF0 in *[!0-9]*) ;; *) echo "$BUF0" >$T/buffer_size_kb ;; esac
        echo "$ON0" >$T/tracing_on
        [ "$MOUNTED" = 1 ] && umount $T
        rm -rf "$TMP"
}
trap cleanup EXIT
echo 0 >$T/tracing_on
echo >$T/trace
echo 16384 >$T/buffer_size_kb
for e in $ev; do
        echo "dev == $DEVT" >"$T/events/$e/filter"
        echo 1 >"$T/events/$e/enable"
done
echo 1 >$T/tracing_on
"$@" >"$TMP/out.json"
echo 0 >$T/tracing_on
cp $T/trace "$TMP/trace"
python3 - "$TMP/out.json" "$TMP/trace" <<'EOF'
import json, re, sys
out = json.load(open(sys.argv[1]))
j = out["jobs"][0]
d = j["read"] if j["read"].get("total_ios", j["read"].get("iops", 0)) else j["write"]
p = d["clat_ns"]["percentile"]
lat, pend = [], {}
pat = re.compile(r"\s([\d.]+): block_rq_(issue|complete): \S+ \S+ (?:\d+ )?\(\) (\d+) \+ (\d+)")
for line in open(sys.argv[2]):
    m = pat.search(line)
    if not m:
        continue
    ts, kind, sector = float(m.group(1)), m.group(2), m.group(3)
    if kind == "issue":
        pend[sector] = ts
    elif sector in pend:
        lat.append(ts - pend.pop(sector))
if not lat:
    sys.exit("clat-referee.sh: no requests traced on the disk")
lat.sort()
pct = lambda q: lat[min(len(lat) - 1, int(q / 100.0 * len(lat)))] * 1e6
print("%.1f\t%.1f\t%.1f\t%.1f\t%d" % (p["50.000000"] / 1000, p["99.000000"] / 1000, pct(50), pct(99), len(lat)))
EOF
