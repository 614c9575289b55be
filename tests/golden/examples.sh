#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The example policy the package ships (contrib/examples/60-site.conf, in
# /usr/share/doc/iosched/examples) is a valid drop-in: cat-config reads it
# with no error and every section of it, and on a captured PERC tree its
# first rule selects the logical drive (Scheduler=none from its line 10).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
ex="$top/contrib/examples/60-site.conf"
d=$fx/megaraid-ld
[ -d "$d/sys" ] || { echo "no fixture megaraid-ld in $fx"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "SKIP: policy files must be owned by root"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
mkdir -p "$t/root/etc/iosched.d"
chmod 0755 "$t/root" "$t/root/etc" "$t/root/etc/iosched.d"
cp "$ex" "$t/root/etc/iosched.d/60-site.conf" && chmod 0644 "$t/root/etc/iosched.d/60-site.conf"
ap() { ${IOS_VALGRIND:-} "$bin" --sysroot "$d" --config-root "$t/root" "$@"; }

out=$(ap cat-config 2>&1) || t_fail "cat-config exit $?: $out"
n=$(printf '%s\n' "$out" | grep -c '60-site.conf:[0-9]*: \[Match\]')
[ "$n" = 4 ] || t_fail "cat-config shows $n [Match] sections of 60-site.conf, want 4"
out=$(ap --dry-run -J 2>&1) || t_fail "--dry-run exit $?: $out"
echo "$out" | grep -q '"key": "scheduler", "before": "[a-z-]*", "wanted": "none", "after": null, "source": "[^"]*60-site.conf:10"' ||
        t_fail "the PERC logical drive does not get none from 60-site.conf:10: $out"
exit $fail
