#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `iosched-apply list` against `lsblk -d` over one generated tree of N disks
# (default 1000; bench/mk-fake-tree.py), then --dry-run (classification,
# policy resolution, every current value read).  The tree is put on a
# tmpfs mounted nodev, as /sys is a mount without device nodes, so the
# attribute reads take the path they take on /sys (docs/bench.md,
# "Reading the kernel"); TREE=plain (or no root) keeps it in an ordinary
# directory, where every attribute is looked at with fstat() first.
# list and lsblk -d run in turn, PAIRS pairs (default 30; bench/pairs.py):
# wall and CPU time of each, and the ratio pair by pair, as median, min and
# max.  With strace, the system calls per disk of one list run first.
# Needs python3 (and root for the nodev mount).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000}
bin=$top/${BUILDDIR:-build}/iosched-apply
base=$(mktemp -d /tmp/iosched-ft-XXXXXX)
mounted=
cleanup() { [ -z "$mounted" ] || umount "$base"; rm -rf "$base"; }
trap cleanup EXIT
if [ "${TREE:-nodev}" = nodev ] && [ "$(id -u)" = 0 ] &&
   mount -t tmpfs -o nodev,size=512m iosched-bench "$base" 2>/dev/null; then
        mounted=1
        echo "tree on a nodev tmpfs"
else
        echo "tree in an ordinary directory (attributes checked with fstat first)"
fi
tree=$base/root
python3 "$top/bench/mk-fake-tree.py" "$tree" "$n"
"$bin" list --sysroot "$tree" -n -o CLASS | sort | uniq -c
if command -v strace >/dev/null; then
        strace -f -qq -c -o "$base/count" "$bin" list --sysroot "$tree" >/dev/null
        awk -v n="$n" '$NF == "total" { printf "list: %.1f system calls per disk\n", $4 / n }
                $NF ~ /^(openat2|newfstatat|close|read)$/ { printf "  %s %.1f\n", $NF, $4 / n }' "$base/count"
fi
python3 "$top/bench/pairs.py" -n "${PAIRS:-30}" -- "$bin" list --sysroot "$tree" -- lsblk -d --sysroot "$tree"
python3 "$top/bench/pairs.py" -n "${PAIRS:-30}" -- "$bin" --dry-run --config /dev/null --sysroot "$tree" -- "$bin" list --sysroot "$tree"
