#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# vs-fio.sh: run fio and iosched-bench on the same target with the same job,
# one right after the other, REPS times, interleaved over every engine and
# depth (rep 1 of every job, then rep 2, ...; the order inside a pair flips
# every rep), and print per job the medians and [min-max] of both tools'
# IOPS and clat p50/p99, and the median and range of the per-pair ratios
# iosched-bench / fio.  On a shared machine only interleaved pairs make a
# ratio trustworthy; the range shows how far to trust it.
#
#   bench/vs-fio.sh [options] TARGET        a block device or an existing file
#   bench/vs-fio.sh [options] --loop SIZE   a loop device on a file in /dev/shm
#                                           (created, filled, detached at exit)
#   bench/vs-fio.sh [options] null          both tools' null engines (harness cost)
# Options:
#   -n REPS        pairs per job (default 3)
#   -t SECS        runtime per run (default 3), -r SECS ramp (default 1)
#   -d "D ..."     iodepths (default "1 32 128")
#   -e "E ..."     engines (default "io_uring libaio")
#   -w RW          fio rw (default randread), -b BS (default 4k)
#   -x "ARGS"      extra args for iosched-bench only (e.g. "--fixedbufs=0")
#   -f "ARGS"      extra args for fio only (e.g. "--fixedbufs=1 --registerfiles=1")
#   -o DIR         keep every JSON output in DIR
#   -c CPUS        pin both tools' job threads to these CPUs (fio's own
#                  --cpus_allowed, which iosched-bench takes too); at depth 1
#                  on a VM the CPU placement of the submitter against the
#                  device's completion work decides the figure (docs/bench.md)
#   -s SCHED       with --loop: the loop device's scheduler (default none, as
#                  in docs/bench-anchors; a udev rule may have picked another)
#   -G             do not wait for a quiet machine before each pair (by default
#                  it waits up to 20 s for < 15 % of all CPUs busy over 0.5 s)
# Needs fio, jq, and root for block devices.  Prints a markdown table.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$top/${BUILDDIR:-build}/iosched-bench}
REPS=3 RT=3 RAMP=1 DEPTHS="1 32 128" ENGINES="io_uring libaio" RW=randread BS=4k
CPUS="" XARGS="" FARGS="" OUT="" LOOPSIZE="" LOOPDEV="" LOOPFILE="" GATE=1 SCHED=none

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
        case $1 in
        -n) REPS=$2; shift 2 ;;
        -t) RT=$2; shift 2 ;;
        -r) RAMP=$2; shift 2 ;;
        -d) DEPTHS=$2; shift 2 ;;
        -e) ENGINES=$2; shift 2 ;;
        -w) RW=$2; shift 2 ;;
        -b) BS=$2; shift 2 ;;
        -x) XARGS=$2; shift 2 ;;
        -f) FARGS=$2; shift 2 ;;
        -o) OUT=$2; shift 2 ;;
        -G) GATE=0; shift ;;
        -s) SCHED=$2; shift 2 ;;
        -c) CPUS=$2; shift 2 ;;
        --loop) LOOPSIZE=$2; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "vs-fio.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
        esac
done
command -v fio >/dev/null || { echo "vs-fio.sh: fio not found" >&2; exit 2; }
command -v jq >/dev/null || { echo "vs-fio.sh: jq not found" >&2; exit 2; }
[ -x "$BENCH" ] || { echo "vs-fio.sh: $BENCH not built (make)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/vs-fio-XXXXXX)
cleanup() {
        [ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV" 2>/dev/null
        [ -n "$LOOPFILE" ] && rm -f "$LOOPFILE"
        rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$LOOPSIZE" ]; then
        LOOPFILE=$(mktemp /dev/shm/vs-fio-XXXXXX.img)
        mb=$(numfmt --from=iec "${LOOPSIZE^^}" 2>/dev/null) || { echo "vs-fio.sh: bad size $LOOPSIZE" >&2; exit 2; }
        dd if=/dev/urandom of="$LOOPFILE" bs=1M count=$((mb / 1048576)) status=none || exit 1
        LOOPDEV=$(losetup --direct-io=on --show -f "$LOOPFILE") || exit 1
        TARGET=$LOOPDEV
        # let udev finish with the new device before we set its scheduler
        udevadm settle 2>/dev/null
        echo "$SCHED" >"/sys/block/${LOOPDEV#/dev/}/queue/scheduler" ||
                { echo "vs-fio.sh: cannot set scheduler $SCHED" >&2; exit 1; }
else
        [ $# = 1 ] || usage
        TARGET=$1
fi
SIZEOPT=""
[ -f "$TARGET" ] && SIZEOPT="--size=$(stat -c %s "$TARGET")"
[ -n "$OUT" ] && mkdir -p "$OUT"

common="--filename=$TARGET --rw=$RW --bs=$BS --numjobs=1 --direct=1 --runtime=$RT --ramp_time=$RAMP $SIZEOPT"
if [ "$TARGET" = null ]; then
        ENGINES=null
        common="--rw=$RW --bs=$BS --numjobs=1 --size=1g --runtime=$RT --ramp_time=$RAMP"
fi
[ -n "$CPUS" ] && common="$common --cpus_allowed=$CPUS"

# busy and total jiffies of the whole machine
cpu_now() { awk '/^cpu / { print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8+$9 }' /proc/stat; }
# wait (at most 20 s) until the machine is quiet, so a pair does not start
# in the middle of someone else's burst
gate() {
        [ "$GATE" = 1 ] || return 0
        i=0
        while [ $i -lt 40 ]; do
                read -r b0 t0 <<EOT
$(cpu_now)
EOT
                sleep 0.5
                read -r b1 t1 <<EOT
$(cpu_now)
EOT
                [ $(( (b1 - b0) * 100 )) -lt $(( (t1 - t0) * 15 )) ] && return 0
                i=$((i + 1))
        done
        echo "  (machine still busy, running anyway)" >&2
}

# one_run TOOL ENGINE DEPTH FILE
one_run() {
        case $1 in
        fio) fio --name=vs --ioengine="$2" --iodepth="$3" $common --time_based --norandommap \
                --randrepeat=0 --group_reporting --output-format=json $FARGS >"$4" 2>"$4.err" ;;
        ours) "$BENCH" --name=vs --ioengine="$2" --iodepth="$3" $common --eta=never -J $XARGS >"$4" 2>"$4.err" ;;
        esac
}

# "iops p50 p99" of a JSON file (both tools write the same fields)
extract() {
        jq -r '.jobs[0] as $j | [(($j.read.iops // 0) + ($j.write.iops // 0)),
                ($j.read.clat_ns.percentile["50.000000"] // $j.write.clat_ns.percentile["50.000000"] // 0),
                ($j.read.clat_ns.percentile["99.000000"] // $j.write.clat_ns.percentile["99.000000"] // 0)]
                | @tsv' "$1" 2>/dev/null
}

echo "target $TARGET, rw=$RW bs=$BS, ${RT}s + ${RAMP}s ramp per run, $REPS interleaved pairs per job${CPUS:+, job threads on CPUs $CPUS}" >&2
if [ -b "$TARGET" ]; then
        d=$(basename "$(readlink -f "$TARGET")")
        [ -e "/sys/class/block/$d/partition" ] && d=$(basename "$(dirname "$(readlink -f "/sys/class/block/$d")")")
        echo "$d: scheduler $(cat "/sys/block/$d/queue/scheduler"), nr_requests $(cat "/sys/block/$d/queue/nr_requests")" >&2
fi
for rep in $(seq 1 "$REPS"); do
        for e in $ENGINES; do
                for d in $DEPTHS; do
                        tag="$e-d$d"
                        if [ $((rep % 2)) = 1 ]; then order="fio ours"; else order="ours fio"; fi
                        gate
                        for tool in $order; do
                                f="$TMP/$tag-$tool-$rep.json"
                                one_run "$tool" "$e" "$d" "$f" ||
                                        echo "  $tool $tag rep $rep failed (exit $?): $(head -c 300 "$f.err")" >&2
                                [ -n "$OUT" ] && cp "$f" "$OUT/"
                                printf '%s\t%s\t%s\t%s\n' "$tag" "$tool" "$rep" "$(extract "$f")" >>"$TMP/all.tsv"
                        done
                        printf '  rep %s %-14s fio %s  ours %s\n' "$rep" "$tag" \
                                "$(grep -P "^$tag\tfio\t$rep\t" "$TMP/all.tsv" | cut -f4 | cut -d. -f1)" \
                                "$(grep -P "^$tag\tours\t$rep\t" "$TMP/all.tsv" | cut -f4 | cut -d. -f1)" >&2
                done
        done
done

# median and range of a column of numbers
stats() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "- - -"; exit}
        m = NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; print m, v[1], v[NR]}'; }
k() { awk '{ v=$1; if (v>=1e6) printf "%.2fM", v/1e6; else if (v>=1e4) printf "%.1fk", v/1e3; else printf "%.0f", v }'; }
us() { awk '{ printf "%.1f", $1/1000 }'; }

echo
echo "| job | fio IOPS median [min-max] | iosched-bench IOPS median [min-max] | ratio median [min-max] | fio clat p50 / p99 us | ours clat p50 / p99 us | p50 ratio | p99 ratio |"
echo "|---|---|---|---|---|---|---|---|"
for e in $ENGINES; do
        for d in $DEPTHS; do
                tag="$e-d$d"
                col() { grep -P "^$tag\t$1\t" "$TMP/all.tsv" | cut -f"$2"; }
                read -r fm fl fh < <(col fio 4 | stats)
                read -r om ol oh < <(col ours 4 | stats)
                # per-pair ratios, pairs matched by rep
                ratios() {
                        join -t "$(printf '\t')" <(grep -P "^$tag\tours\t" "$TMP/all.tsv" | cut -f3,"$1" | sort) \
                                <(grep -P "^$tag\tfio\t" "$TMP/all.tsv" | cut -f3,"$1" | sort) |
                                awk -F'\t' '$3 > 0 { printf "%.4f\n", $2 / $3 }'
                }
                read -r rm rl rh < <(ratios 4 | stats)
                read -r f50 _ _ < <(col fio 5 | stats)
                read -r f99 _ _ < <(col fio 6 | stats)
                read -r o50 _ _ < <(col ours 5 | stats)
                read -r o99 _ _ < <(col ours 6 | stats)
                read -r r50 _ _ < <(ratios 5 | stats)
                read -r r99 _ _ < <(ratios 6 | stats)
                printf '| %s | %s [%s-%s] | %s [%s-%s] | %.2f [%.2f-%.2f] | %s / %s | %s / %s | %.2f | %.2f |\n' "$tag" \
                        "$(echo "$fm" | k)" "$(echo "$fl" | k)" "$(echo "$fh" | k)" \
                        "$(echo "$om" | k)" "$(echo "$ol" | k)" "$(echo "$oh" | k)" \
                        "$rm" "$rl" "$rh" \
                        "$(echo "$f50" | us)" "$(echo "$f99" | us)" "$(echo "$o50" | us)" "$(echo "$o99" | us)" \
                        "$r50" "$r99"
        done
done
