#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every view and run counts the same disks, list's rule: with no disk named
# and no -a a disk without a medium (size 0) is left out of list, status,
# facts, explain, --check, --dry-run, their JSON and the Prometheus output
# alike; -a takes it in everywhere, and naming it takes it.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
r=$t/root
mkdir -p "$r" && cp -a "$fx/md-raid1/." "$r/" || exit 1
echo 0 > "$(realpath "$r/sys/block/vdc")/size"

# names VIEW ARGS...: the disk names one view shows, sorted, on one line
names() {
        v=$1; shift
        case $v in
        list) "$bin" --sysroot "$r" list -r -n -o NAME "$@" ;;
        status | facts) "$bin" --sysroot "$r" "$v" -J "$@" | sed -n 's/^ *{"name": "\([^"]*\)".*/\1/p' ;;
        explain) "$bin" --sysroot "$r" explain "$@" | sed -n 's/^\([a-z0-9]*\): .*/\1/p' ;;
        check | dry-run) "$bin" --sysroot "$r" "--$v" -J "$@" | sed -n 's/^ *{"name": "\([^"]*\)".*/\1/p' ;;
        prometheus) "$bin" --sysroot "$r" --check --format=prometheus "$@" |
                sed -n 's/^iosched_device_info{device="\([^"]*\)".*/\1/p' ;;
        esac 2>/dev/null | sort | tr '\n' ' '
}
views="list status facts explain check dry-run prometheus"
for v in $views; do
        got=$(names "$v")
        [ "$got" = "md127 vdb " ] || t_fail "$v: '$got', want the disks list shows: 'md127 vdb '"
        got=$(names "$v" -a)
        [ "$got" = "md127 vdb vdc " ] || t_fail "$v -a: '$got', want 'md127 vdb vdc '"
        got=$(names "$v" vdc)
        [ "$got" = "vdc " ] || t_fail "$v vdc: '$got', want 'vdc '"
done
got=$("$bin" --sysroot "$r" --check --format=prometheus 2>/dev/null | sed -n 's/^iosched_disks //p')
[ "$got" = 2 ] || t_fail "prometheus: iosched_disks $got, want 2"
exit $fail
