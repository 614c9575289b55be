#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: when ioschedd restores a value twice (a fight), the other
# writers it names are judged against the disk as status and --check judge
# them: a udev rule whose match keys say no for this disk
# (ATTR{queue/rotational} the other way than the loop device's) is not named, a rule that
# matches is, and one with a key iosched does not evaluate (ATTRS{vendor})
# is named as one that may apply.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
t_loop L 16
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
grep -qw none "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no none"
want=mq-deadline
[ "$(t_sched "$L")" = mq-deadline ] && want=none
other=none
[ "$want" = none ] && other=mq-deadline

rot=$(cat "/sys/block/$L/queue/rotational")
notrot=$((1 - rot))
R=$T_TMP/root
mkdir -p "$R/etc/udev/rules.d" "$R/etc/iosched.d" || t_fail "cannot make $R"
d_policy "$R/etc/udev/rules.d/50-hdd-only.rules" \
        "ACTION==\"add|change\", KERNEL==\"$L\", ATTR{queue/rotational}==\"$notrot\", ATTR{queue/scheduler}=\"bfq\""
d_policy "$R/etc/udev/rules.d/51-this-disk.rules" \
        "ACTION==\"add|change\", KERNEL==\"$L\", ATTR{queue/scheduler}=\"$other\""
d_policy "$R/etc/udev/rules.d/52-by-vendor.rules" \
        "ACTION==\"add|change\", KERNEL==\"$L\", ATTRS{vendor}==\"ACME\", ATTR{queue/scheduler}=\"kyber\""
d_policy "$R/etc/iosched.conf" "[Match]
Name=$L
[Set]
Scheduler=$want
[Daemon]
DriftInterval=200ms"
d_start --config-root "$R" --no-builtin --monitor none
d_wait 30000 d_sched_is "$L" "$want" || t_fail "$L: scheduler not set at start: $(t_sched "$L")"
for i in 1 2; do
        echo "$other" > "/sys/block/$L/queue/scheduler" || t_fail "cannot set $other by hand"
        d_wait 30000 eval '[ "$(grep -c "$L: scheduler was changed behind our back" "$D_LOG")" -ge $i ]' ||
                t_fail "$L: change by hand $i not found"
        d_wait 30000 d_sched_is "$L" "$want" || t_fail "$L: not restored after change by hand $i"
done
d_wait 30000 d_log_has "$L: queue/scheduler keeps being changed by something else" ||
        t_fail "no fight said: $(cat "$D_LOG")"
line=$(grep "$L: queue/scheduler keeps being changed" "$D_LOG")
case $line in *51-this-disk.rules*) ;; *) t_fail "the matching rule not named: $line" ;; esac
case $line in *52-by-vendor.rules*"may apply: ATTRS{vendor} not evaluated"*) ;;
*) t_fail "the rule with a key not evaluated not named as 'may apply': $line" ;; esac
case $line in *50-hdd-only.rules*) t_fail "a rule that does not match $L (rotational=$rot) named: $line" ;; esac
d_stop
d_check_host_untouched
echo "ok: $line"
