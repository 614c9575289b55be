#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: udev/60-iosched.rules.in, rewritten to run this build's
# iosched-apply with a test policy and fenced to the test's own loop device
# (KERNEL!="loopN" skips everything else), makes "add" and "change" events
# apply the policy and "remove" run nothing.  With udevd running, the rule
# goes to /run/udev/rules.d and `udevadm trigger` sends real events.  Without
# udevd, `udevadm test` runs the rules in a private mount namespace (tmpfs
# over /run and /dev, so nothing of the machine's udev state changes), the RUN
# line it resolves is checked and then executed.  The rule is removed (and
# udev reloaded) on every exit path.  Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

t_require_root
command -v udevadm >/dev/null || t_skip "no udevadm"
APPLY_BIN=$top/$BUILDDIR/iosched-apply
[ -x "$APPLY_BIN" ] || t_skip "no $BUILDDIR/iosched-apply"
"$APPLY_BIN" --help 2>/dev/null | grep -q -- '--udev' || t_skip "iosched-apply has no --udev mode"
IN=$top/udev/60-iosched.rules.in
[ -f "$IN" ] || t_fail "missing udev/60-iosched.rules.in"

# the shipped rule: guards and the one RUN line, with the install-time path
grep -q '^RUN+="@SBINDIR@/iosched-apply --udev \$kernel"$' "$IN" || t_fail "no RUN+=@SBINDIR@/iosched-apply line"
for g in 'ACTION=="remove", GOTO="iosched_end"' 'SUBSYSTEM!="block", GOTO="iosched_end"' \
         'ENV{DEVTYPE}!="disk", GOTO="iosched_end"' 'ACTION=="add", KERNEL=="dm-\*", ENV{DM_UDEV_PRIMARY_SOURCE_FLAG}!="1", GOTO="iosched_end"' \
         '^LABEL="iosched_end"'; do
        grep -q "$g" "$IN" || t_fail "the rule lacks: $g"
done

t_loop L 16
grep -qw kyber "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no kyber"
P=$T_TMP/policy.conf
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=kyber"
RUN_CMD="$APPLY_BIN --config $P --udev"
RULE=$T_TMP/60-iosched-test.rules
sed -e "s|@SBINDIR@/iosched-apply --udev \\\$kernel|$RUN_CMD \$kernel|" \
    -e "s|^TEST!=\"queue\", GOTO=\"iosched_end\"\$|&\\
KERNEL!=\"$L\", GOTO=\"iosched_end\"|" "$IN" > "$RULE"
grep -q "^KERNEL!=\"$L\", GOTO=\"iosched_end\"\$" "$RULE" || t_fail "cannot fence the test rule to $L"
grep -q "^RUN+=\"$RUN_CMD \\\$kernel\"\$" "$RULE" || t_fail "cannot rewrite the RUN line"

echo none > "/sys/block/$L/queue/scheduler"

if [ -S /run/udev/control ] && udevadm control --ping 2>/dev/null; then
        # a running udevd: real events through a rule in /run/udev/rules.d
        installed=/run/udev/rules.d/60-iosched-test-$$.rules
        D_EXTRA_CLEANUP="rm -f '$installed'; udevadm control --reload"
        mkdir -p /run/udev/rules.d
        cp "$RULE" "$installed" || t_fail "cannot install $installed"
        udevadm control --reload || t_fail "udevadm control --reload"
        udevadm trigger --action=change --settle "/sys/block/$L" || t_fail "udevadm trigger change"
        d_wait 2000 d_sched_is "$L" kyber || t_fail "change event: $L is on $(t_sched "$L"), not kyber"
        echo "udevd: change event applied the policy to $L"
        echo none > "/sys/block/$L/queue/scheduler"
        udevadm trigger --action=add --settle "/sys/block/$L" || t_fail "udevadm trigger add"
        d_wait 2000 d_sched_is "$L" kyber || t_fail "add event: $L is on $(t_sched "$L"), not kyber"
        echo "udevd: add event applied the policy to $L"
        d_check_host_untouched
        echo "PASS"
        exit 0
fi

# no udevd: resolve the rules with `udevadm test` where it cannot leave a trace
command -v unshare >/dev/null || t_skip "udevd is not running and there is no unshare"
maj=$(cut -d: -f1 "/sys/block/$L/dev")
min=$(cut -d: -f2 "/sys/block/$L/dev")
utest() {
        unshare -m --propagation private sh -c '
                set -e
                mount -t tmpfs tmpfs /run
                mount -t tmpfs tmpfs /dev
                mknod /dev/null c 1 3
                mknod "/dev/$2" b "$3" "$4"
                mkdir -p /run/udev/rules.d
                cp "$1" /run/udev/rules.d/
                udevadm test --action="$5" "/sys/block/$2"' sh "$RULE" "$L" "$maj" "$min" "$1" \
                > "$T_TMP/udevadm-$1.log" 2>&1 || {
                cat "$T_TMP/udevadm-$1.log"
                t_skip "udevadm test cannot run here"
        }
        sed -n "s/^run: '\\(.*\\)'\$/\\1/p" "$T_TMP/udevadm-$1.log" | grep -F "$APPLY_BIN" || true
}
for action in add change; do
        run=$(utest $action)
        [ "$run" = "$RUN_CMD $L" ] || t_fail "$action: the rule resolves to [$run], expected [$RUN_CMD $L]"
        echo none > "/sys/block/$L/queue/scheduler"
        $run || t_fail "$action: '$run' exited $?"
        d_sched_is "$L" kyber || t_fail "$action: $L is on $(t_sched "$L") after the rule's command"
        echo "udevadm test: $action runs '$run', which set kyber"
done
run=$(utest remove)
[ -z "$run" ] || t_fail "remove: the rule runs [$run]"
echo "udevadm test: remove runs nothing"
d_check_host_untouched
echo "PASS"
