#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Time iosched-apply over a generated fake tree of N disks (default 1000):
# list (classification of every disk) and --dry-run (classification, policy
# resolution and reading every current value).  Needs python3 and hyperfine.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000}
bin=$top/${BUILDDIR:-build}/iosched-apply
tree=$(mktemp -d /tmp/iosched-ft-XXXXXX)
trap 'rm -rf "$tree"' EXIT
python3 "$top/bench/mk-fake-tree.py" "$tree" "$n"
"$bin" list --sysroot "$tree" -n -o CLASS | sort | uniq -c
hyperfine -N -w 3 -r "${RUNS:-30}" \
        "$bin list --sysroot $tree" \
        "$bin --dry-run --config /dev/null --sysroot $tree"
