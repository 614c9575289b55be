#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: validation evidence is kept per disk identity, on loop
# devices the test attaches (the stand-in iosched-bench of validate-lib.sh).
# Two loop devices with no model, WWN or serial: validate on the first says
# its verdict, exit 0, and that no record is kept and why; the second is
# still "never validated" in explain and status (on the old code both read
# loop_unknown_unknown.json, so the second showed the first's verdict).  A
# loop device given a model and serial (the shim's IOS_FAULT_UDEV_DATA, as
# udev gives a real disk) gets its own document, and the unkeyed ones still
# show nothing.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop a 16
t_loop b 16
t_loop k 16
for d in $a $b $k; do
        grep -q mq-deadline "/sys/block/$d/queue/scheduler" || t_skip "no mq-deadline on this kernel"
        echo mq-deadline > "/sys/block/$d/queue/scheduler"
done
root=$T_TMP/root
mkdir -p "$root/etc/iosched.d"
printf '[Match]\nName=%s %s %s\n[Set]\nScheduler=mq-deadline\n' "$a" "$b" "$k" > "$root/etc/iosched.d/50-loop.conf"
chmod 0644 "$root/etc/iosched.d/50-loop.conf"
A="$APPLY --config-root $root"
. "$(dirname "$0")/validate-lib.sh"

never() {       # never DISK WHEN: explain and status say DISK was never validated
        $A explain "$1" > "$T_TMP/explain" 2>&1 || t_fail "$2: explain $1: exit $?: $(cat "$T_TMP/explain")"
        grep -A1 "scheduler = mq-deadline" "$T_TMP/explain" | grep -qx "      never validated" ||
                t_fail "$2: $1 shows a verdict that is not its own: $(cat "$T_TMP/explain")"
        $A status -n -r -o NAME,VALIDATED "$1" > "$T_TMP/status" 2>&1
        [ "$(cat "$T_TMP/status")" = "$1 -" ] || t_fail "$2: status $1: $(cat "$T_TMP/status")"
}

# no identity: the verdict said, no record kept, and why
mkjson mq-deadline none true 0.01
out=$($A validate "$a" 2>&1) || t_fail "validate $a: exit $?: $out"
echo "$out" | grep -qx "$a: the policy's mq-deadline: best (31% lower reader p99 than none, p=0.01)" ||
        t_fail "validate $a: no verdict: $out"
echo "$out" | grep -q "$a: warning: the verdict is not recorded .*: the disk has no model, WWN or serial" ||
        t_fail "validate $a: not said why nothing is recorded: $out"
[ -z "$(ls -A "$root/var/lib/iosched/evidence" 2>/dev/null)" ] ||
        t_fail "a record for a disk with no identity: $(ls "$root/var/lib/iosched/evidence")"
never "$a" "no identity"
never "$b" "no identity"

# an identity: its own document, shown for it alone
t_identity "$k" "TestDisk 16M" "LOOP-K1"
out=$($A validate "$k" 2>&1) || t_fail "validate $k: exit $?: $out"
doc=$(ls "$root"/var/lib/iosched/evidence/*.json) || t_fail "validate $k: no record: $out"
case $doc in *TestDisk-16M_LOOP-K1.json) ;; *) t_fail "validate $k: the document's name: $doc" ;; esac
$A explain "$k" 2>&1 | grep -A1 "scheduler = mq-deadline" | grep -q "      validated " ||
        t_fail "$k: its own record not shown: $($A explain "$k" 2>&1)"
never "$a" "after $k"
never "$b" "after $k"
echo ok
