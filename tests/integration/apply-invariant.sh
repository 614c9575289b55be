#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: --dry-run, apply and --check agree with each other and with
# the kernel for every tunable of the table and a range of values each
# (below, at and above the bounds, odd sizes, -1, 0, past 32 bits), under
# each scheduler the loop device the test attaches offers: when apply exits
# 0, --check exits 0 after it; when apply exits N > 0, --dry-run exited N
# before it and the disk (its queue/ and iosched/ files) is as it was.
# Every call names the test's device: the host's disks are never touched.
# IOS_INVARIANT_DEV=NAME runs it on that disk instead of a loop device (the
# QEMU guests' emulated zoned NVMe namespace: a disk the test made, never a
# host's); it must be unmounted and unheld. IOS_INVARIANT_VALUES and
# IOS_INVARIANT_KEYS narrow the values and keys (the guests, under TCG).
# Hang-guard: 1200 (three runs of iosched-apply per case, ~450 cases; ASan
# on a loaded 2-core machine took past 300 s)
. "$(dirname "$0")/lib.sh"
t_require_root

if [ -n "${IOS_INVARIANT_DEV:-}" ]; then
        l=$IOS_INVARIANT_DEV
        [ -d "/sys/block/$l/queue" ] || t_fail "no disk $l"
        [ -z "$(ls "/sys/block/$l/holders" 2>/dev/null)" ] || t_fail "$l is held"
        ! grep -q "^/dev/$l" /proc/mounts || t_fail "$l is mounted"
else
        t_loop l 64
fi
q=/sys/block/$l/queue
pol=$T_TMP/policy.conf
APPLY="$APPLY --no-builtin"
bad=0
cases=0
fail1() { echo "FAIL: $*"; bad=$((bad + 1)); }

# the disk's state: every readable file of queue/ and iosched/ (one grep), but the statistics
state() {
        grep -s -H '' "$q"/* "$q"/iosched/* | grep -v -e '/stat:' -e '/inflight:'
}

queue_keys="add_random async_depth discard_max_bytes io_poll io_poll_delay io_timeout iostats
iostats_passthrough max_sectors_kb nomerges nr_requests read_ahead_kb rotational rq_affinity
stable_writes wbt_lat_usec write_zeroes_unmap_max_bytes zoned_qd1_writes"
values=${IOS_INVARIANT_VALUES:-"-1 0 1 2 3 4 5 7 127 128 129 2048 2049 4095 4096 4294967296"}

one() { # one SCHED KEY VALUE
        printf '[Match]\nName=%s\n[Set]\nScheduler=%s\n%s=%s\n' "$l" "$1" "$2" "$3" > "$pol"
        before=$(state)
        dry=$($APPLY --dry-run --config "$pol" "$l" 2>&1); drc=$?
        after_dry=$(state)
        [ "$before" = "$after_dry" ] ||
                fail1 "$1 $2=$3: --dry-run changed the disk: $(echo "$before" | diff - "$T_TMP/after" 2>/dev/null;
                        echo "$after_dry" > "$T_TMP/after"; echo "$before" | diff - "$T_TMP/after")"
        out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
        cases=$((cases + 1))
        if [ $rc = 0 ]; then
                chk=$($APPLY --check --config "$pol" "$l" 2>&1); crc=$?
                [ $crc = 0 ] || fail1 "$1 $2=$3: apply exit 0, then --check exit $crc: $chk"
                [ $drc = 0 ] || fail1 "$1 $2=$3: apply exit 0, but --dry-run exited $drc: $dry"
        else
                [ $drc = $rc ] || fail1 "$1 $2=$3: apply exit $rc ($out), but --dry-run exited $drc ($dry)"
                [ "$(state)" = "$before" ] || fail1 "$1 $2=$3: apply exit $rc, yet the disk changed: $out"
        fi
}

# every queue/ key under mq-deadline with its own tunables; the keys a
# scheduler bounds (nr_requests, async_depth) under each scheduler offered
all_queue=$(for k in $queue_keys; do [ -e "$q/$k" ] && echo "queue/$k"; done)
# a loop device keeps its queue limits after it is detached: what this test
# changes is put back at the end, for whoever attaches that loop next
s0=$(t_sched "$l")
orig=$(for k in $queue_keys; do [ -w "$q/$k" ] && printf '%s=%s\n' "$k" "$(cat "$q/$k")"; done)
restore() {
        # by way of none: the scheduler's own tunables (iosched/) start anew at its defaults
        echo none > "$q/scheduler" 2>/dev/null
        echo "$s0" > "$q/scheduler" 2>/dev/null
        echo "$orig" | while IFS='=' read -r k v; do
                [ -n "$k" ] && echo "$v" > "$q/$k" 2>/dev/null
        done
}
for sched in mq-deadline none kyber bfq; do
        grep -qw "$sched" "$q/scheduler" || continue
        case $sched in
        mq-deadline) keys="$all_queue queue/iosched/read_expire queue/iosched/write_expire
                queue/iosched/writes_starved queue/iosched/front_merges queue/iosched/fifo_batch
                queue/iosched/async_depth queue/iosched/prio_aging_expire" ;;
        none) keys="queue/nr_requests queue/async_depth" ;;
        kyber) keys="queue/nr_requests queue/async_depth queue/iosched/read_lat_nsec queue/iosched/write_lat_nsec" ;;
        bfq) keys="queue/nr_requests queue/async_depth queue/iosched/slice_idle queue/iosched/low_latency
                queue/iosched/timeout_sync queue/iosched/back_seek_penalty" ;;
        esac
        for k in $keys; do
                case " ${IOS_INVARIANT_KEYS:-$k} " in *" $k "*) ;; *) continue ;; esac
                for v in $values; do
                        one "$sched" "$k" "$v"
                done
        done
done
restore
# a disk of 4 KiB logical blocks, whose max_sectors_kb the kernel keeps in whole blocks (6.18), and
# the values at the ends of the ranges the kernel's types set: a discard_max_bytes past
# UINT_MAX, a wbt_lat_usec whose ns pass 2^64, an expiry whose tick passes INT_MAX (before:
# --dry-run 0, apply 3 with the disk changed)
if [ -z "${IOS_INVARIANT_DEV:-}" ] && [ -z "${IOS_INVARIANT_KEYS:-}" ]; then
        l0=$l orig0=$orig
        t_loop l 64 -b 4096
        q=/sys/block/$l/queue
        s0=$(t_sched "$l")
        orig=$(for k in $queue_keys; do [ -w "$q/$k" ] && printf '%s=%s\n' "$k" "$(cat "$q/$k")"; done)
        echo 8192 >"$q/discard_max_bytes" 2>/dev/null
        for v in 4 5 6 7 1001; do one mq-deadline queue/max_sectors_kb $v; done
        for v in 4294967295 4294967296 9999998976; do one mq-deadline queue/discard_max_bytes $v; done
        for v in 18446744073709551 18446744073709552 9223372036854775807; do
                one mq-deadline queue/wbt_lat_usec $v
        done
        for v in 2147483640 2147483646 2147483647; do one mq-deadline queue/iosched/read_expire $v; done
        restore
        l=$l0 orig=$orig0
        q=/sys/block/$l/queue
fi
now=$(for k in $queue_keys; do [ -w "$q/$k" ] && printf '%s=%s\n' "$k" "$(cat "$q/$k")"; done)
if [ "$now" != "$orig" ]; then
        echo "$now" > "$T_TMP/now"
        echo "note: not every value could be put back: $(echo "$orig" | diff - "$T_TMP/now" | grep '^[<>]' | tr '\n' ' ')"
fi
echo "$l: $cases cases under $(echo $(for s in mq-deadline none kyber bfq; do grep -qw "$s" "$q/scheduler" && echo "$s"; done)), $bad broken"
[ $bad = 0 ] || exit 1
