#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: strict where it is a mistake, on captured trees.  A scheduler
# name, key, tunable or section one slip away from a known one is an error
# with "did you mean" (also through --dry-run -J --drop-in, the provisioning
# tools' check), and so is a Name= that is a path; a foreign scheduler name
# far from every known one stays a warning and falls through; a comment after
# a value is a comment; a disk named that no rule matches is said.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
d=$fx/megaraid-ld
[ -d "$d/sys" ] && [ -d "$fx/loop/sys" ] || { echo "no fixtures megaraid-ld, loop in $fx"; exit 1; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
mkdir -p "$t/root/etc/iosched.d"
chmod 0755 "$t/root" "$t/root/etc" "$t/root/etc/iosched.d"
pol() { printf '[Match]\nClass=raid\n[Set]\n%s\n' "$1" > "$t/cand.conf"; chmod 0644 "$t/cand.conf"; }
ap() { ${IOS_VALGRIND:-} "$bin" --sysroot "$d" --config-root "$t/root" "$@"; }

# near misses: errors with did you mean, exit 2, in text and in the JSON check
for case in 'Scheduler=mq-dealine|unknown scheduler \"mq-dealine\": did you mean \"mq-deadline\"?' \
            'Scheduler=kybr none|did you mean \"kyber\"?' \
            'Schedular=none|unknown key \"Schedular\" in [Set]: did you mean \"Scheduler\"?' \
            'queue/read_ahead=4096|did you mean \"queue/read_ahead_kb\"?' \
            'queue/iosched/read_expir=100|did you mean \"queue/iosched/read_expire\"?'; do
        line=${case%%|*}; want=${case#*|}
        pol "$line"
        out=$(ap --dry-run -J --drop-in "60-perc.conf=$t/cand.conf" 2>/dev/null); rc=$?
        [ $rc = 2 ] || t_fail "$line: --dry-run -J --drop-in exit $rc, want 2"
        echo "$out" | grep -qF "$want" || t_fail "$line: JSON lacks [$want]: $out"
        n=$(echo "$out" | grep -c '^{"schema"')
        [ "$n" = 1 ] || t_fail "$line: $n JSON objects"
        out=$(ap --check --drop-in "60-perc.conf=$t/cand.conf" 2>&1); rc=$?
        [ $rc = 2 ] || t_fail "$line: --check exit $rc, want 2"
        echo "$out" | grep -qF "$t/cand.conf:4: " || t_fail "$line: no file:line: $out"
done
# the broken candidate moves no disk: sdb keeps its scheduler, said in the JSON too
pol "Scheduler=mq-dealine"
out=$(ap --dry-run -J --drop-in "60-perc.conf=$t/cand.conf" 2>/dev/null)
echo "$out" | grep -qF "\"notes\": [\"scheduler held: $t/cand.conf:4 has an error\"]" || t_fail "held note: $out"
echo "$out" | grep -qF '"settings": []' || t_fail "a held disk has settings: $out"
echo "$out" | grep -qF "; held: sdb keeps its scheduler" || t_fail "held in errors: $out"
printf '[Match]\nClass=raid\n[Sett]\nScheduler=none\n' > "$t/cand.conf"
out=$(ap --check --drop-in "60-perc.conf=$t/cand.conf" 2>&1)
echo "$out" | grep -qF "cand.conf:3: unknown section [Sett]: did you mean [Set]?" || t_fail "section: $out"
printf '[Match]\nName=/dev/sdb\n[Set]\nScheduler=none\n' > "$t/cand.conf"
out=$(ap --dry-run --drop-in "60-perc.conf=$t/cand.conf" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "Name=/dev/sdb: exit $rc, want 2"
echo "$out" | grep -qF "cand.conf:2: Name= takes a kernel name, not a path: did you mean \"Name=sdb\"?" ||
        t_fail "Name=/dev/sdb: $out"
echo "$out" | grep -q "would set" && t_fail "Name=/dev/sdb: a disk would change: $out"

# far from every known name: a warning, and the list falls through to mq-deadline
pol "Scheduler=vr sio mq-deadline"
out=$(ap --check --drop-in "60-perc.conf=$t/cand.conf" 2>&1); rc=$?
[ $rc = 0 ] || t_fail "Scheduler=vr sio mq-deadline: --check exit $rc, want 0 (sdb is on mq-deadline): $out"
echo "$out" | grep -qF "Scheduler=vr: not a scheduler iosched knows" || t_fail "vr: no warning: $out"

# a comment after a value is a comment
pol "Scheduler=none # the LD has its own cache"
out=$(ap --dry-run --drop-in "60-perc.conf=$t/cand.conf" 2>&1); rc=$?
[ $rc = 0 ] || t_fail "trailing comment: exit $rc: $out"
echo "$out" | grep -qF "sdb: would set scheduler: mq-deadline -> none ($t/cand.conf:4)" || t_fail "trailing #: $out"
pol "queue/read_ahead_kb=4096 ; semicolon too"
out=$(ap --dry-run --drop-in "60-perc.conf=$t/cand.conf" 2>&1) || t_fail "trailing ;: exit $?: $out"
echo "$out" | grep -qF "queue/read_ahead_kb: " || t_fail "trailing ;: $out"

# a disk named that no rule matches is said, with -v and without
for v in "" -v; do
        out=$("$bin" --sysroot "$fx/loop" --config-root "$t/root" --dry-run $v loop0 2>&1) || t_fail "loop0: exit $?"
        echo "$out" | grep -qx "iosched-apply: loop0: no rule matches (class loop)" || t_fail "loop0 $v: [$out]"
done
out=$("$bin" --sysroot "$fx/loop" --config-root "$t/root" --dry-run -J loop0 2>&1)
echo "$out" | grep -qF '"notes": ["no rule matches (class loop)"]' || t_fail "loop0 -J: $out"
out=$("$bin" --sysroot "$fx/loop" --config-root "$t/root" --dry-run -q loop0 2>&1)
[ -z "$out" ] || t_fail "-q: [$out]"

# disk names follow "--" (as the provisioning modules pass them): only that disk, never every disk
out=$("$bin" --sysroot "$fx/loop" --config-root "$t/root" --dry-run -- loop0 2>&1)
echo "$out" | grep -qx "iosched-apply: loop0: no rule matches (class loop)" || t_fail "-- loop0: [$out]"
out=$(ap --dry-run -J -- sdb 2>&1) || t_fail "-- sdb: exit $?"
echo "$out" | grep -qF '"name": "sdb"' || t_fail "-- sdb -J: $out"
out=$(ap --dry-run -- -x 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -qF -- "-x" || t_fail "-- -x (a disk name, not an option): exit $rc: $out"
exit $fail
