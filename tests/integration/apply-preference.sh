#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a scheduler preference list (Scheduler=FIRST mq-deadline) whose
# first choice this kernel neither offers nor can load (no module support,
# modules disabled, or no module for it) is compliant when its best offered
# choice is in force: apply prints no "mq-deadline -> mq-deadline" line,
# --check, --dry-run, status, facts and --textfile agree (exit 0, no drift),
# and explain and -J say the first choice's absence once, as a message, not
# as drift (issue 37 item 2).  Every call names the test's loop device.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 64
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
# the first choice: a scheduler of the table this kernel does not list and cannot load
first=
for s in bfq kyber; do
        grep -qw "$s" "$q/scheduler" && continue
        mod=$s; [ "$s" = kyber ] && mod=kyber-iosched
        if [ -e /proc/modules ] && [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" != 1 ] &&
                find "/lib/modules/$(uname -r)" -name "$mod.ko*" 2>/dev/null | grep -q .; then
                continue        # loadable here: the kernel would give it
        fi
        first=$s
        break
done
[ -n "$first" ] || t_skip "every scheduler of the table is offered or loadable here"
echo mq-deadline >"$q/scheduler"

pol=$T_TMP/policy.conf
printf '[Match]\nName=%s\n[Set]\nScheduler=%s mq-deadline\n' "$l" "$first" >"$pol"
chmod 0644 "$pol"

out=$($APPLY --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 0 ] || t_fail "apply: exit $rc: $out"
echo "$out" | grep -q "mq-deadline -> mq-deadline" && t_fail "apply says a change where nothing changed: $out"
out=$($APPLY --check --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 0 ] || t_fail "--check after apply: exit $rc, want 0: $out"
out=$($APPLY --dry-run --config "$pol" "$l" 2>&1); rc=$?
[ $rc = 0 ] || t_fail "--dry-run: exit $rc: $out"
echo "$out" | grep -q "would set" && t_fail "--dry-run would change a compliant disk: $out"
out=$($APPLY status --config "$pol" "$l" 2>&1) || t_fail "status: exit $?: $out"
echo "$out" | grep -q "^$l .* ok  *0 " || t_fail "status is not ok with 0 drift: $out"
$APPLY facts -J --config "$pol" "$l" >"$T_TMP/facts.json" 2>&1 || t_fail "facts: exit $?"
grep -q '"compliant": false' "$T_TMP/facts.json" && t_fail "facts: not compliant: $(cat "$T_TMP/facts.json")"
mkdir -m 0755 "$T_TMP/prom"
$APPLY --textfile="$T_TMP/prom/iosched.prom" --config "$pol" "$l" >/dev/null 2>&1 || t_fail "--textfile: exit $?"
grep -q "^iosched_device_drift_settings{device=\"$l\"} 0" "$T_TMP/prom/iosched.prom" ||
        t_fail "--textfile counts drift: $(grep drift "$T_TMP/prom/iosched.prom")"
grep -q '^iosched_exit_code 0' "$T_TMP/prom/iosched.prom" || t_fail "--textfile exit code: $(cat "$T_TMP/prom/iosched.prom")"
# the first choice's absence: said by explain and -J, once
out=$($APPLY explain --config "$pol" "$l" 2>&1) || t_fail "explain: exit $?"
[ "$(echo "$out" | grep -c "first choice \"$first\" not offered")" = 1 ] || t_fail "explain does not say it once: $out"
$APPLY --check -J --config "$pol" "$l" | grep -q "first choice .*$first.* not offered" || t_fail "-J does not say it"
echo "Scheduler=$first mq-deadline: compliant with mq-deadline in force"
