#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# list with every disk hidden (size 0: no medium, as lsblk leaves out
# unless -a) still prints its header, in every column set and with -r;
# -n prints nothing, -J an empty array, -a shows the disk.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
export IOSCHED_TEST_ANY_OWNER=1
r=$t/root
mkdir -p "$r" && cp -a "$fx/loop/." "$r/" || exit 1
echo 0 > "$(realpath "$r/sys/block/loop0")/size"

got=$("$bin" --sysroot "$r" list)
[ "$got" = "NAME CLASS ROTA SCHED AVAILABLE TRAN MODEL" ] || t_fail "list: '$got'"
got=$("$bin" --sysroot "$r" list -r -o NAME,SIZE,MODEL)
[ "$got" = "NAME SIZE MODEL" ] || t_fail "list -r -o: '$got'"
got=$("$bin" --sysroot "$r" list -n)
[ -z "$got" ] || t_fail "list -n: '$got'"
got=$("$bin" --sysroot "$r" list -J | tr -d ' \n')
[ "$got" = '{"blockdevices":[]}' ] || t_fail "list -J: '$got'"
got=$("$bin" --sysroot "$r" list -a -r -n -o NAME)
[ "$got" = "loop0" ] || t_fail "list -a: '$got'"
exit $fail
