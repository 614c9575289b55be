#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Golden test: a site policy (tests/golden/data/site-policy.conf: rules by
# class, PCI id, name, model and rotational flag, queue/ and iosched/
# tunables, fallbacks, a legacy name, a tunable of another scheduler)
# dry-run on every captured tree without the built-in rules, stdout and
# stderr and the exit code of each, diffed against
# tests/expected/policy-dry-run.txt.  The built-in policy is covered by
# check-fixtures.sh.  IOS_UPDATE_GOLDEN=1 rewrites the expected file.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
exp="$top/tests/expected/policy-dry-run.txt"
pol=$(mktemp -d) || exit 1
out=$pol/out
trap 'rm -rf "$pol"' EXIT
# the policy file must be the caller's and not writable by others: a copy
cp "$top/tests/golden/data/site-policy.conf" "$pol/site.conf" && chmod 0644 "$pol/site.conf"
: >"$out"
for d in "$fx"/*/; do
        name=$(basename "$d")
        [ -d "$d/sys/block" ] || continue
        echo "== $name" >>"$out"
        ${IOS_VALGRIND:-} "$bin" --dry-run --no-builtin --config "$pol/site.conf" --sysroot "$d" \
                >"$pol/stdout" 2>"$pol/stderr"
        rc=$?
        sed "s|$pol/site.conf|site.conf|g" "$pol/stdout" >>"$out"
        sed "s|$pol/site.conf|site.conf|g; s|^|stderr: |" "$pol/stderr" >>"$out"
        echo "exit $rc" >>"$out"
done
if [ "${IOS_UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$out" "$exp"
fi
diff -u "$exp" "$out" || { echo "FAIL: the site policy's plan changed (IOS_UPDATE_GOLDEN=1 to accept)"; exit 1; }
echo ok
