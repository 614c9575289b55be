#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A --config-root that does not exist, or is not a directory, is a typo: exit
# 2 naming it, for iosched-apply (text and -J, every mode) and ioschedd, never
# "no policy files" and the built-in policy applied.  An existing empty
# directory is a root with no policy files: the built-in policy, as before.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
daemon="$top/${BUILDDIR:-build}/ioschedd"
fx=${IOS_FIXTURES:-$top/build/fixtures}/loop
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
[ -d "$fx/sys/block" ] || { echo "no loop fixture"; exit 1; }
: > "$t/afile"
mkdir "$t/empty"

for root in "$t/typo" "$t/afile"; do
        for mode in --dry-run --check status; do
                ${IOS_VALGRIND:-} "$bin" --sysroot "$fx" --config-root "$root" $mode >"$t/out" 2>"$t/err"
                rc=$?
                [ $rc = 2 ] || t_fail "$mode --config-root $root: exit $rc, want 2"
                grep -qF "iosched-apply: $root: cannot use the configuration root" "$t/err" ||
                        t_fail "$mode --config-root $root: $(cat "$t/err")"
                [ -s "$t/out" ] && t_fail "$mode --config-root $root printed a result: $(cat "$t/out")"
        done
        "$bin" -J --sysroot "$fx" --config-root "$root" --dry-run >"$t/out" 2>/dev/null
        rc=$?
        [ $rc = 2 ] || t_fail "-J --config-root $root: exit $rc"
        grep -qF "cannot use the configuration root" "$t/out" || t_fail "-J --config-root $root: $(cat "$t/out")"
        timeout 10 "$daemon" --sysroot "$fx" --config-root "$root" --no-initial-apply --monitor none >/dev/null 2>"$t/err"
        rc=$?
        [ $rc = 2 ] || t_fail "ioschedd --config-root $root: exit $rc, want 2"
        grep -qF "$root: cannot use the configuration root" "$t/err" || t_fail "ioschedd: $(cat "$t/err")"
done
${IOS_VALGRIND:-} "$bin" --sysroot "$fx" --config-root "$t/empty" --dry-run >"$t/out" 2>&1
rc=$?
[ $rc = 0 ] || t_fail "an empty --config-root: exit $rc: $(cat "$t/out")"
exit $fail
