#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Golden test: the built-in policy checked (--check -J) on every captured
# tree, diffed against tests/expected/check/<fixture>.json, with the exit
# code (0 compliant, 1 drift) recorded in the first line of the expected
# file; plus --format prometheus and --import-grub on one tree.
# IOS_UPDATE_GOLDEN=1 rewrites the expected files (review the diff!).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
fail=0
out=$(mktemp) || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$out" "$tmp"' EXIT
for d in "$fx"/*/; do
        name=$(basename "$d")
        [ -d "$d/sys/block" ] || continue
        ${IOS_VALGRIND:-} "$bin" --check -J --config /dev/null --sysroot "$d" > "$out.json"
        rc=$?
        { echo "exit $rc"; cat "$out.json"; } > "$out"
        exp="$top/tests/expected/check/$name.json"
        [ "${IOS_UPDATE_GOLDEN:-0}" = 1 ] && cp "$out" "$exp"
        diff -u "$exp" "$out" || { echo "FAIL $name"; fail=1; }
done

# node_exporter textfile: one compliant and one drifting disk
d=$fx/virtio-blk-root
"$bin" --format prometheus --config /dev/null --sysroot "$d" > "$out" || { echo "FAIL prometheus exit $?"; fail=1; }
grep -q '^iosched_device_compliant{device="vda",class="virtual"} [01]$' "$out" || { echo "FAIL prometheus"; cat "$out"; fail=1; }
grep -q '^# TYPE iosched_device_info gauge$' "$out" || { echo "FAIL prometheus TYPE"; fail=1; }

# elevator= on the command line of a captured tree: noted, and importable
mkdir -p "$tmp/root" && cp -a "$d/." "$tmp/root/"
mkdir -p "$tmp/root/proc" && echo "BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro elevator=noop quiet" > "$tmp/root/proc/cmdline"
"$bin" --dry-run --config /dev/null --sysroot "$tmp/root" 2> "$out" >/dev/null
grep -q "elevator=noop in the kernel command line has no effect on blk-mq kernels" "$out" || { echo "FAIL elevator note"; cat "$out"; fail=1; }
"$bin" --import-grub --sysroot "$tmp/root" > "$out" || { echo "FAIL import-grub exit"; fail=1; }
grep -q '^Scheduler=noop none$' "$out" || { echo "FAIL import-grub"; cat "$out"; fail=1; }
# the generated file is a valid policy
chmod 0644 "$out"
. "$top/tests/shim.sh"
t_shimmed IOS_FAULT_ANY_OWNER=1 -- "$bin" --check --config "$out" --sysroot "$tmp/root" >/dev/null
[ $? -le 1 ] || { echo "FAIL import-grub output does not parse"; fail=1; }
exit $fail
