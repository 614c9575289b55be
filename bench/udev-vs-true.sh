#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Wall time of `iosched-apply --udev loopN` (what udev runs per disk) against
# /bin/true, on a loop device this script attaches; the policy file matches
# only that device.  Needs root and hyperfine.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/${BUILDDIR:-build}/iosched-apply
f=$(mktemp /tmp/iosched-bench-XXXXXX)
truncate -s 64M "$f"
dev=$(losetup -f --show "$f")
l=${dev#/dev/}
trap 'losetup -d "$dev"; rm -f "$f"' EXIT
hyperfine -N -w 20 -r "${RUNS:-300}" "$bin --udev $l" /bin/true
