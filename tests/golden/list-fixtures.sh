#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Golden test: `iosched-apply list -J --sysroot FIXTURE` on every captured
# tree, diffed against tests/expected/list/<fixture>.json, and each disk's
# class checked against the hand-written tests/expected/classes.txt.
# IOS_UPDATE_GOLDEN=1 rewrites the expected JSON (review the diff!).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
cols=NAME,MAJ:MIN,CLASS,ROTA,ZONED,RM,HIDDEN,SCHED,AVAILABLE,TRAN,DRIVER,PCI,HCTL,SUBTYPE,VENDOR,MODEL,SERIAL,WWN,SIZE,HWQ,EVIDENCE
fail=0 n=0
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
for d in "$fx"/*/; do
        name=$(basename "$d")
        [ -d "$d/sys/block" ] || continue
        n=$((n + 1))
        if ! ${IOS_VALGRIND:-} "$bin" list -J -o "$cols" --sysroot "$d" > "$out"; then
                echo "FAIL $name: iosched-apply exited $?"; fail=1; continue
        fi
        exp="$top/tests/expected/list/$name.json"
        if [ "${IOS_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$out" "$exp"; fi
        if [ ! -f "$exp" ]; then echo "FAIL $name: no $exp"; fail=1; continue; fi
        if ! diff -u "$exp" "$out"; then echo "FAIL $name: output differs"; fail=1; fi
        # the class, against the hand-written table
        grep -v '^#' "$top/tests/expected/classes.txt" | while read -r f dev cls; do
                [ "$f" = "$name" ] || continue
                got=$("$bin" list -n -r -o CLASS --sysroot "$d" "$dev")
                [ "$got" = "$cls" ] || { echo "FAIL $name: $dev is '$got', want '$cls'"; exit 1; }
        done || fail=1
done
[ "$n" -gt 0 ] || { echo "no fixtures unpacked in $fx"; exit 1; }
# every fixture in the class table was looked at
grep -v '^#' "$top/tests/expected/classes.txt" | while read -r f dev cls; do
        [ -d "$fx/$f/sys" ] || { echo "FAIL fixture $f listed in classes.txt is missing"; exit 1; }
done || fail=1
echo "$n fixtures checked"
exit $fail
