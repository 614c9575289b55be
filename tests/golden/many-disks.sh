#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a generated tree of 1500 disks (bench/mk-fake-tree.py) lists
# and dry-runs completely under the usual soft limit of 1024 descriptors
# (one stays open per disk), with every disk in its class.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
command -v prlimit >/dev/null || { echo "no prlimit"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
python3 "$top/bench/mk-fake-tree.py" "$t/root" 1500 >/dev/null || exit 1
hard=$(prlimit --nofile --output HARD --noheadings)
[ "$hard" = unlimited ] || [ "$hard" -ge 4096 ] || { echo "hard limit $hard too low to test"; exit 77; }
out=$(prlimit --nofile=1024: "$bin" list -n -r -o CLASS --sysroot "$t/root") || { echo "FAIL: list exit $?"; exit 1; }
counts=$(echo "$out" | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}')
[ "$counts" = "hdd=756 nvme=375 raid=366 ssd=3 " ] || { echo "FAIL: classes $counts"; exit 1; }
prlimit --nofile=1024: "$bin" --dry-run --config /dev/null --sysroot "$t/root" > "$t/plan" || { echo "FAIL: dry-run exit $?"; exit 1; }
# the SAS disks and HP logical drives are on mq-deadline: ssd/raid want none
n=$(grep -c "would set scheduler: mq-deadline -> none" "$t/plan")
[ "$n" = 369 ] || { echo "FAIL: $n disks to switch to none, want 369"; exit 1; }
echo "ok: $counts"
