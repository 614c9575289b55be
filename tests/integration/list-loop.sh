#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: on the real kernel, a loop device the test attaches is listed
# as class loop, by name, node, MAJ:MIN and through a partition; list -J
# reports the kernel's own scheduler line.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 64 -P
# one partition, so loopNp1 exists
printf 'label: dos\n,32M\n' | sfdisk -q "/dev/$l" >/dev/null 2>&1 || t_skip "no sfdisk"
partprobe "/dev/$l" 2>/dev/null || blockdev --rereadpt "/dev/$l" 2>/dev/null
udevadm settle 2>/dev/null

cls=$($APPLY list -n -r -o CLASS "$l") || t_fail "list $l"
[ "$cls" = loop ] || t_fail "$l: class '$cls', want loop"

cls=$($APPLY list -n -r -o CLASS "/dev/$l") || t_fail "list /dev/$l"
[ "$cls" = loop ] || t_fail "/dev/$l: class '$cls'"

majmin=$(cat "/sys/block/$l/dev")
name=$($APPLY list -n -r -o NAME "$majmin") || t_fail "list $majmin"
[ "$name" = "$l" ] || t_fail "$majmin resolved to '$name'"

if [ -e "/sys/class/block/${l}p1" ]; then
        name=$($APPLY list -n -r -o NAME "${l}p1") || t_fail "list ${l}p1"
        [ "$name" = "$l" ] || t_fail "partition ${l}p1 resolved to '$name', want $l"
fi

want=$(t_sched "$l")
got=$($APPLY list -n -r -o SCHED "$l")
[ "$got" = "$want" ] || t_fail "SCHED '$got', kernel says '$want'"

$APPLY list -J "$l" | grep -q "\"class\": \"loop\"" || t_fail "JSON lacks class loop"
$APPLY explain "$l" | grep -q "^$l: loop" || t_fail "explain"

# a name that is not a block device: exit 2 and one message
out=$($APPLY list nosuchdisk0 2>&1); rc=$?
[ $rc = 2 ] || t_fail "unknown device exit $rc"
echo "$out" | grep -q "iosched-apply: nosuchdisk0: not a block device" || t_fail "message: $out"
# beside a real one: the real one is still listed, the missing one named, exit 2
out=$($APPLY list -n -r -o NAME nosuchdisk0 "$l" 2>"$T_TMP/err"); rc=$?
[ $rc = 2 ] || t_fail "missing beside a real disk: exit $rc"
[ "$out" = "$l" ] || t_fail "the real disk was not listed: '$out'"
grep -q "nosuchdisk0: not a block device" "$T_TMP/err" || t_fail "message: $(cat "$T_TMP/err")"
echo "ok"
