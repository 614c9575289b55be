#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd on a loop device of its own with DriftInterval=200ms
# and a configuration root holding a udev rule that also writes the loop
# device's scheduler: the first restore is the usual notice; the second
# restore of the same disk and key (another writer keeps changing it) is
# said once as a warning naming the attribute, both values and that udev
# rule (file:line); a third restore adds no second warning.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
t_loop L 16
grep -qw kyber "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no kyber"
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
R=$T_TMP/root
mkdir -p "$R/etc/iosched.d" "$R/etc/udev/rules.d"
chmod 0755 "$R" "$R/etc" "$R/etc/iosched.d"
# the other writer, as the daemon sees it (this rule is not installed in udev)
printf 'ACTION=="add|change", KERNEL=="%s", ATTR{queue/scheduler}="kyber"\n' "$L" > "$R/etc/udev/rules.d/99-other.rules"
d_policy "$R/etc/iosched.d/60-loop.conf" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
[Daemon]
DriftInterval=200ms"

echo none > "/sys/block/$L/queue/scheduler"
d_start --config-root "$R" --no-builtin
d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "$L: scheduler not set at start: $(t_sched "$L")"

warn="$L: queue/scheduler keeps being changed by something else (found 'kyber', policy wants 'mq-deadline'); other writers: udev rule sets ATTR{queue/scheduler}=\"kyber\" ($R/etc/udev/rules.d/99-other.rules:1)"
for i in 1 2 3; do
        echo kyber > "/sys/block/$L/queue/scheduler" || t_fail "cannot set kyber by hand"
        d_wait 1000 d_sched_is "$L" mq-deadline || t_fail "$L: scheduler not restored ($i)"
        d_wait 1000 eval '[ "$(grep -c "$L: scheduler was changed behind our back" "$D_LOG")" -ge $i ]' ||
                t_fail "restore $i is not logged"
        if [ $i = 1 ]; then
                d_log_has "keeps being changed" && t_fail "warned after the first restore"
        else
                d_wait 1000 d_log_has "$warn" || t_fail "no warning naming the udev rule after restore $i"
        fi
done
n=$(grep -c "keeps being changed" "$D_LOG")
[ "$n" = 1 ] || t_fail "the warning was said $n times, want once"
d_stop
d_check_host_untouched
echo "ok: the second restore of $L queue/scheduler named the udev rule, once"
