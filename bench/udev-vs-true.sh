#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What udev's per-disk `iosched-apply --udev loopN` costs against /bin/true,
# on a loop device this script attaches, with a policy file that names only
# that device (--config FILE --no-builtin; the built-in policy leaves loop
# devices alone, so without one nothing would be decided).  Two cases:
#   in place: the disk already holds the policy (a change event): decide,
#             read every wanted value, write nothing;
#   apply:    before every run (untimed) the scheduler is set back to none
#             and read_ahead_kb to 128, so every timed run switches the
#             scheduler, writes each setting, reads it back and reads them
#             all once more at the end (the final state check).
# bench/pairs.py runs them in turn with /bin/true, PAIRS pairs (default
# 100): wall and CPU time, and the ratio pair by pair (median, min, max).
# Needs root and python3.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/${BUILDDIR:-build}/iosched-apply
d=$(mktemp -d /tmp/iosched-bench-XXXXXX)
truncate -s 64M "$d/img"
dev=$(losetup -f --show "$d/img")
l=${dev#/dev/}
trap 'losetup -d "$dev"; rm -rf "$d"' EXIT
q=/sys/block/$l/queue
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=512\nqueue/nr_requests=64\nqueue/iosched/read_expire=250\nqueue/iosched/fifo_batch=8\n' "$l" >"$d/policy.conf"
reset="echo none >$q/scheduler; echo 128 >$q/read_ahead_kb"
sh -c "$reset"
"$bin" --config "$d/policy.conf" --no-builtin --udev "$l"
grep -q '\[mq-deadline\]' "$q/scheduler" || { echo "the policy was not applied: $(cat "$q/scheduler")" >&2; exit 1; }
"$bin" --check --config "$d/policy.conf" --no-builtin "$l" >/dev/null || { echo "--check after --udev: exit $?" >&2; exit 1; }
echo "in place"
python3 "$top/bench/pairs.py" -n "${PAIRS:-100}" -w 10 -- \
        "$bin" --config "$d/policy.conf" --no-builtin --udev "$l" -- /bin/true
echo "apply"
python3 "$top/bench/pairs.py" -n "${PAIRS:-100}" -w 10 --prepare "$reset" -- \
        "$bin" --config "$d/policy.conf" --no-builtin --udev "$l" -- /bin/true
