#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: validation evidence is kept per disk identity, on loop
# devices the test attaches (the stand-in iosched-bench of validate-lib.sh).
# Two loop devices with no model, WWN or serial: validate on the first says
# its verdict, exit 0, and that no record is kept and why; the second is
# still "never validated" in explain and status (on the old code both read
# loop_unknown_unknown.json, so the second showed the first's verdict).  A
# loop device given a model and serial (the shim's IOS_FAULT_UDEV_DATA, as
# udev gives a real disk) gets its model's document, and the unkeyed ones
# still show nothing.  Another loop device of the same model (another
# serial) shows that record as measured on its sibling, not stale; one of
# another model shows nothing.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop a 16
t_loop b 16
t_loop k 16
t_loop s 16
t_loop o 16
for d in $a $b $k $s $o; do
        grep -q mq-deadline "/sys/block/$d/queue/scheduler" || t_skip "no mq-deadline on this kernel"
        echo mq-deadline > "/sys/block/$d/queue/scheduler"
done
root=$T_TMP/root
mkdir -p "$root/etc/iosched.d"
printf '[Match]\nName=%s %s %s %s %s\n[Set]\nScheduler=mq-deadline\n' "$a" "$b" "$k" "$s" "$o" > "$root/etc/iosched.d/50-loop.conf"
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

# an identity: its model's document, shown for the disks of that model
t_identity "$k" "TestDisk 16M" "LOOP-K1"
t_identity "$s" "TestDisk 16M" "LOOP-S2"
t_identity "$o" "OtherDisk 16M" "LOOP-O3"
out=$($A validate "$k" 2>&1) || t_fail "validate $k: exit $?: $out"
doc=$(ls "$root"/var/lib/iosched/evidence/*.json) || t_fail "validate $k: no record: $out"
case $doc in */unknown_TestDisk-16M.json) ;; *) t_fail "validate $k: the document's name: $doc" ;; esac
$A explain "$k" 2>&1 | grep -A1 "scheduler = mq-deadline" | grep "      validated " > "$T_TMP/line" ||
        t_fail "$k: its own record not shown: $($A explain "$k" 2>&1)"
grep -q "another disk" "$T_TMP/line" && t_fail "$k: its own record as a sibling's: $(cat "$T_TMP/line")"
$A explain "$s" 2>&1 | grep -A1 "scheduler = mq-deadline" | grep "      validated " > "$T_TMP/line" ||
        t_fail "$s: its model's record not shown: $($A explain "$s" 2>&1)"
grep -q " with $k (LOOP-K1), another disk of this model: " "$T_TMP/line" ||
        t_fail "$s: not said which disk was measured: $(cat "$T_TMP/line")"
$A status -n -r -o NAME,VALIDATED "$s" > "$T_TMP/status" 2>&1
case $(cat "$T_TMP/status") in "$s 20"*) ;; *) t_fail "status $s: $(cat "$T_TMP/status")" ;; esac
case $(cat "$T_TMP/status") in *stale*) t_fail "status $s: a sibling's record stale: $(cat "$T_TMP/status")" ;; esac
$A facts -J "$s" > "$T_TMP/facts" 2>&1 || t_fail "facts $s: exit $?: $(cat "$T_TMP/facts")"
grep -q "\"device\": \"$k\", \"other_disk\": true" "$T_TMP/facts" ||
        t_fail "facts $s: the disk measured: $(cat "$T_TMP/facts")"
never "$o" "another model"
never "$a" "after $k"
never "$b" "after $k"
echo ok
