#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a loop device removed and created again under the same number
# (LOOP_CTL_REMOVE, LOOP_CTL_ADD) starts with the kernel's defaults each time;
# ioschedd with --monitor none and DriftInterval=200ms finds each new disk on
# a drift check and sets it, but a new disk sequence number (diskseq) is
# another disk: a plain change line ([drift]), neither "changed behind our
# back" nor "keeps being changed by something else", however often it
# happens.  A value changed twice by hand on one disk still is both.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
[ -e /dev/loop-control ] || t_skip "no /dev/loop-control"
n=$(d_free_loop_number)
L=loop$n
loop_add() {
        perl -e 'open(my $f, "+<", "/dev/loop-control") or die "loop-control: $!\n";
                 defined ioctl($f, 0x4C80, $ARGV[0] + 0) or die "LOOP_CTL_ADD: $!\n";' "$n" ||
                t_fail "cannot create $L"
        D_NEW_LOOPS=$n
}
loop_add
d_wait 2000 eval '[ -e /sys/block/$L/queue/scheduler ]' || t_fail "$L did not appear"
[ -e "/sys/block/$L/diskseq" ] || t_skip "kernel has no diskseq (before 5.15)"
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
grep -qw none "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no none"
want=mq-deadline
[ "$(t_sched "$L")" = mq-deadline ] && want=none
P=$T_TMP/policy.conf
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=$want
[Daemon]
DriftInterval=200ms"
d_start --config "$P" --no-builtin --monitor none
d_wait 2000 d_sched_is "$L" "$want" || t_fail "$L: scheduler not set at start: $(t_sched "$L")"

for i in 1 2 3; do
        seq0=$(cat "/sys/block/$L/diskseq")
        d_loop_remove "$n"
        [ -e "/sys/block/$L" ] && t_fail "cannot remove $L"
        loop_add
        d_wait 2000 eval '[ -e /sys/block/$L/queue/scheduler ]' || t_fail "$L did not come back ($i)"
        [ "$(cat "/sys/block/$L/diskseq")" != "$seq0" ] || t_fail "$L: same diskseq after re-creating it"
        d_wait 3000 d_sched_is "$L" "$want" || t_fail "$L: new disk not set by the drift check ($i)"
        d_wait 2000 eval '[ "$(grep -c "$L: scheduler: .* -> $want .*\[drift\]" "$D_LOG")" -ge $i ]' ||
                t_fail "$L: no change line for the new disk ($i)"
done
d_log_has "keeps being changed" && t_fail "a re-created disk was taken for a fight: $(grep 'keeps being changed' "$D_LOG")"
d_log_has "changed behind our back" && t_fail "a re-created disk was taken for drift: $(grep 'behind our back' "$D_LOG")"
# the same disk changed twice by hand: still a fight
other=none
[ "$want" = none ] && other=mq-deadline
for i in 1 2; do
        echo "$other" > "/sys/block/$L/queue/scheduler" || t_fail "cannot set $other by hand"
        d_wait 3000 d_sched_is "$L" "$want" || t_fail "$L: not restored after a change by hand ($i)"
done
d_wait 2000 d_log_has "$L: queue/scheduler keeps being changed by something else" ||
        t_fail "no warning for two changes by hand of the same disk"
[ "$(grep -c "$L: scheduler was changed behind our back" "$D_LOG")" = 2 ] ||
        t_fail "want 2 'changed behind our back' lines, for the changes by hand: $(grep -c 'behind our back' "$D_LOG")"
d_stop
d_check_host_untouched
echo "ok: $L re-created 3 times, set each time as a new disk; changed twice by hand: drift, then a fight"
