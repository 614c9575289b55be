#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: what reading the kernel costs, counted without timing it:
# `list` over a generated 200-disk tree (bench/mk-fake-tree.py) on a
# mount with no device nodes (tmpfs nodev, as sysfs has none) makes at
# most 24 system calls per disk, at most 0.5 stat calls per disk (the
# blk-mq check is for the HWQ column), and opens at most 1.25 files per
# disk that it does not read (the disk's directory handle), once the calls
# of `--version` (start-up, more under ASan) are taken off; the output is
# the same as on an ordinary directory.  `--udev` on one SATA disk of that
# tree that holds its policy already (decide, read every wanted value, write
# nothing) makes at most 80 calls beyond start-up (memory mapping aside).
# A FIFO and a device node at an attribute on that mount are still
# refused, without hanging.  Needs strace and root (the mount): else 77.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
n=200
command -v strace >/dev/null || { echo "no strace"; exit 77; }
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "not root: cannot mount a nodev tmpfs"; exit 77; }
t=$(mktemp -d) || exit 1
mkdir "$t/nd"
if ! mount -t tmpfs -o nodev,size=64m iosched-test "$t/nd" 2>/dev/null; then
        rmdir "$t/nd"; rm -rf "$t"; echo "cannot mount a tmpfs here"; exit 77
fi
trap 'umount "$t/nd"; rm -rf "$t"' EXIT
python3 "$top/bench/mk-fake-tree.py" "$t/nd/root" $n >/dev/null || exit 1
cp -a "$t/nd/root" "$t/plain" || exit 1
fail=0
# LeakSanitizer cannot run under ptrace (make check-san): no leak check in the counted runs
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
strace -f -qq -c -U calls,errors,name -o "$t/count" "$bin" list --sysroot "$t/nd/root" >"$t/out" ||
        { echo "FAIL: list exit $?"; exit 1; }
# what starting the program costs (more under ASan) is not the disks'
strace -f -qq -c -U calls,errors,name -o "$t/count0" "$bin" --version >/dev/null ||
        { echo "FAIL: --version exit $?"; exit 1; }
"$bin" list --sysroot "$t/plain" >"$t/out.plain" || { echo "FAIL: list (plain) exit $?"; exit 1; }
cmp -s "$t/out" "$t/out.plain" || { echo "FAIL: the output differs on the nodev mount"; diff "$t/out.plain" "$t/out" | head; fail=1; }
# columns: calls, errors (blank when none), name; the start-up run counted negative
eval "$(awk -v n=$n '
        FNR == 1 { sign = FILENAME ~ /count0$/ ? -1 : 1 }
        $1 !~ /^[0-9]+$/ { next }
        { name = $NF; err = NF == 3 ? $2 : 0 }
        name == "total" { total += sign * $1 }
        name ~ /^(open|openat|openat2)$/ { opens += sign * ($1 - err) }
        name ~ /stat/ { stats += sign * $1 }
        name == "read" { reads += sign * $1 }
        END { printf "per_disk=%.1f stats=%.2f unread=%.2f\n", total / n, stats / n, (opens - reads) / n }' "$t/count" "$t/count0")"
echo "list, $n disks: $per_disk calls, $stats stat calls, $unread files opened and not read, per disk"
awk -v v="$per_disk" 'BEGIN { exit !(v <= 24) }' || { echo "FAIL: $per_disk calls per disk (at most 24)"; fail=1; }
awk -v v="$stats" 'BEGIN { exit !(v <= 0.5) }' || { echo "FAIL: $stats stat calls per disk (at most 0.5)"; fail=1; }
awk -v v="$unread" 'BEGIN { exit !(v <= 1.25) }' || { echo "FAIL: $unread opened and unread per disk (at most 1.25)"; fail=1; }

# --udev on sda, which holds the policy already: decide and read each wanted value once
q=$(find "$t/nd/root/sys/devices" -path '*/block/sda/queue' -type d)
mkdir "$t/pol" && chmod 0755 "$t/pol" || exit 1
printf '[Match]\nName=sda\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=%s\nqueue/nr_requests=%s\nqueue/iosched/read_expire=%s\n' \
        "$(cat "$q/read_ahead_kb")" "$(cat "$q/nr_requests")" "$(cat "$q/iosched/read_expire")" >"$t/pol/p.conf"
udev="$bin --sysroot $t/nd/root --config $t/pol/p.conf --no-builtin"
$udev --check sda >/dev/null || { echo "FAIL: the policy is not in place on sda: --check exit $?"; fail=1; }
strace -f -qq -c -U calls,errors,name -o "$t/count1" $udev --udev sda || { echo "FAIL: --udev exit $?"; fail=1; }
# memory mapping aside (ASan maps more as the program allocates more)
udev_calls=$(awk '$1 !~ /^[0-9]+$/ || $NF == "total" || $NF ~ /^(mmap|munmap|mremap|mprotect|madvise|brk)$/ { next }
        { t += FILENAME ~ /count1$/ ? $1 : -$1 } END { print t }' "$t/count1" "$t/count0")
echo "--udev in place on one disk: $udev_calls calls beyond start-up"
[ "$udev_calls" -le 80 ] || { echo "FAIL: --udev makes $udev_calls calls beyond start-up (at most 80)"; fail=1; }

# a FIFO and a device node where an attribute should be: refused, no hang
attr=$(find "$t/nd/root/sys/devices" -path '*/block/sda/queue/rotational')
for kind in fifo node; do
        rm -f "$attr"
        if [ $kind = fifo ]; then mkfifo "$attr"; else mknod "$attr" c 1 3 || continue; fi
        timeout 20 "$bin" list --sysroot "$t/nd/root" >/dev/null 2>"$t/err"; rc=$?
        [ $rc = 124 ] && { echo "FAIL: list hangs on a $kind"; fail=1; continue; }
        grep -q "not a regular file" "$t/err" || { echo "FAIL: a $kind at an attribute: exit $rc: $(cat "$t/err")"; fail=1; }
done
[ $fail = 0 ] && echo "ok"
exit $fail
