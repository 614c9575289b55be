#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: iosched-textfile.service (as make generates it for install,
# tests/integration/install.sh checks that it is installed) and .timer.
# systemd-analyze verify passes both (a missing man page aside) and rates
# the service's exposure at 2.0 or less; the timer is the only unit with an
# [Install] section; the service's ExecStart is the one recipe of the man
# page and the rules file, and run as the timer runs it (the unit's
# environment, its SuccessExitStatus=) against this machine's disks, --check
# only, it writes the textfile whatever the exit status: with a broken
# policy file added (--config), exit 2 fails the unit and the textfile says
# iosched_policy_ok 0.  Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || t_skip "needs root (the textfile directory must be root's)"
svc="$top/$BUILDDIR/iosched-textfile.service"
timer="$top/systemd/iosched-textfile.timer"
[ -f "$svc" ] || t_fail "no $svc (make builds it)"

# the one recipe
exec_line=$(sed -n 's/^ExecStart=//p' "$svc")
sbin=$(sed -n 's|^ExecStart=\(.*\)/iosched-apply .*|\1|p' "$svc")
[ "$exec_line" = "$sbin/iosched-apply --check --textfile \${IOSCHED_TEXTFILE}" ] || t_fail "ExecStart=$exec_line"
grep -qx 'Environment=IOSCHED_TEXTFILE=/var/lib/prometheus/node-exporter/iosched.prom' "$svc" || t_fail "no default file"
grep -qx 'SuccessExitStatus=1' "$svc" || t_fail "drift fails the unit"
grep -q '^\[Install\]' "$svc" && t_fail "the service has an [Install] section (the timer starts it)"
grep -qx 'WantedBy=timers.target' "$timer" || t_fail "the timer is not wanted by timers.target"
for f in "$top/man/iosched-apply.8" "$top/contrib/prometheus/iosched.rules.yml"; do
        sed 's/\\-/-/g' "$f" | grep -q 'iosched-apply --check --textfile /var/lib/prometheus/node-exporter/iosched.prom' ||
                t_fail "$f does not give the recipe"
        sed 's/\\-/-/g' "$f" | grep -q 'iosched.prom.tmp\|iosched.prom.\$\$' && t_fail "$f still gives a fixed temporary name"
done
grep -q 'iosched-textfile.timer' "$top/contrib/ansible/roles/iosched/tasks/main.yml" || t_fail "the Ansible role does not offer the timer"

if command -v systemd-analyze >/dev/null 2>&1; then
        # verify looks for ExecStart's program: the build's, at the installed path's place
        v=$T_TMP/verify
        mkdir -p "$v"
        sed "s|^ExecStart=[^ ]*|ExecStart=$top/$BUILDDIR/iosched-apply|" "$svc" >"$v/iosched-textfile.service"
        cp "$timer" "$v/"
        out=$(systemd-analyze verify "$v/iosched-textfile.service" "$v/iosched-textfile.timer" 2>&1 |
              grep -v -e "Command 'man " -e 'is not executable')
        [ -z "$out" ] || t_fail "systemd-analyze verify: $out"
        exp=$(systemd-analyze security --offline=yes "$v/iosched-textfile.service" 2>/dev/null |
              sed -n 's/.*Overall exposure level for iosched-textfile.service: \([0-9.]*\).*/\1/p')
        if [ -n "$exp" ]; then
                echo "systemd-analyze security --offline=yes: exposure $exp"
                awk -v e="$exp" 'BEGIN { exit !(e <= 2.0) }' || t_fail "exposure $exp > 2.0"
        fi
        echo "ok: systemd-analyze verify"
else
        echo "no systemd-analyze: verify skipped"
fi

# run as the timer runs it: the unit's command and environment, this machine's policy and disks (--check only)
dir=$T_TMP/tf
mkdir -m 0755 "$dir"
run_unit() {    # extra arguments after the unit's; sets rc and unit_ok
        cmd=$(printf '%s' "$exec_line" | sed "s|^$sbin/iosched-apply|$top/$BUILDDIR/iosched-apply|")
        # shellcheck disable=SC2086 # the unit's command line, split as systemd does
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin IOSCHED_TEXTFILE="$dir/iosched.prom" \
                sh -c "$cmd \"\$@\"" sh "$@" >"$T_TMP/out" 2>"$T_TMP/err"
        rc=$?
        unit_ok=no
        [ $rc = 0 ] || [ $rc = 1 ] && unit_ok=yes
}
run_unit
[ -f "$dir/iosched.prom" ] || t_fail "no textfile (exit $rc: $(cat "$T_TMP/err"))"
grep -qx "iosched_exit_code $rc" "$dir/iosched.prom" || t_fail "the textfile does not say exit $rc"
[ -s "$T_TMP/out" ] && t_fail "the unit's run printed: $(head -3 "$T_TMP/out")"
echo "ok: this machine: exit $rc, unit success: $unit_ok, textfile of $(grep -c '^iosched_' "$dir/iosched.prom") samples"
printf '[Match]\nName=nosuchdisk\n[Set]\nScheduler=mq-dealine-x\nBogus=1\n' >"$T_TMP/bad.conf"
chmod 0644 "$T_TMP/bad.conf"
run_unit --config "$T_TMP/bad.conf"
[ $rc = 2 ] || t_fail "a broken policy: exit $rc, want 2 ($(cat "$T_TMP/err"))"
[ $unit_ok = no ] || t_fail "a broken policy leaves the unit successful"
grep -qx 'iosched_policy_ok 0' "$dir/iosched.prom" || t_fail "a broken policy: no iosched_policy_ok 0 in the textfile"
grep -qx 'iosched_exit_code 2' "$dir/iosched.prom" || t_fail "a broken policy: no iosched_exit_code 2"
[ "$(ls -A "$dir")" = iosched.prom ] || t_fail "left behind: $(ls -A "$dir")"
echo "ok: a broken policy under the timer: exit 2, the unit fails, the textfile says iosched_policy_ok 0"
echo PASS
