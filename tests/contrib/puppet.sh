#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the Puppet module contrib/puppet/iosched with Debian's puppet
# apply (--detailed-exitcodes: 2 = changes, 0 = none, 4/6 = failures) on two
# loop devices the test creates, the policy root in a temporary directory
# (the host's /etc is never read or written) and `devices` naming only the
# test's disks: the first run writes the drop-in and changes sysfs (read
# back), the second is a no-op, a bad value (or a near-miss scheduler) fails
# validate_cmd with the tool's file:line and changes nothing, ensure => absent
# removes the file; the fact `iosched` (facter, and $facts in puppet apply) has
# the loop disks.  A value with a newline that would inject a [Match] fails the
# catalog; a same-named file in /run/iosched.d fails the run naming it, nothing
# written; drift is corrected on every run (exec unless iosched-apply --check);
# the initramfs is refreshed (a fake initramfs_command) exactly when the file
# changed; a [Match] value with a blank is quoted; a device never starts with
# -; a drop-in that is not UTF-8 is replaced; an apply that fails after the
# validation (EBUSY, the test shim) puts the drop-in back as it last applied,
# or removes a new one, and the initramfs is not refreshed.
. "$(dirname "$0")/lib.sh"
c_require
c_need puppet puppet
c_need facter facter

c_loop l1 32
c_loop l2 32
grep -q mq-deadline "/sys/block/$l1/queue/scheduler" || c_skip "no mq-deadline on this kernel"

root=$C_TMP/root
mkdir -p "$root/etc/iosched.d"
conf=$root/etc/iosched.d/60-test.conf
pd=$C_TMP/puppet
mkdir -p "$pd"
export IOSCHED_APPLY="$TOOL"
# the initramfs refresh: a fake command that logs its calls (the host's is never run)
printf '#!/bin/sh\necho "refresh $*" >> %s/initramfs.log\n' "$C_TMP" > "$C_TMP/fake-initramfs"
chmod 0755 "$C_TMP/fake-initramfs"
: > "$C_TMP/initramfs.log"
refreshes() { wc -l < "$C_TMP/initramfs.log"; }

# papply NAME EXPECT_RC MANIFEST: puppet apply on the module, Puppet's state kept in $pd
papply() {
        n=$1 want=$2 m=$3
        puppet apply --detailed-exitcodes --color=false --modulepath "$top/contrib/puppet" \
                --confdir "$pd/conf" --vardir "$pd/var" --codedir "$pd/code" --logdir "$pd/log" \
                --rundir "$pd/run" --publicdir "$pd/public" "$m" >"$C_TMP/$n.out" 2>&1
        rc=$?
        [ "$rc" = "$want" ] || { cat "$C_TMP/$n.out"; c_fail "$n: puppet apply exit $rc, want $want"; }
        echo "$n: exit $rc ($(c_time)s)"
}
# manifest FILE ENSURE SET [DEVICES]: one iosched::rule for the test's devices
manifest() {
        cat > "$1" <<EOF
iosched::rule { '60-test':
  ensure            => '$2',
  match             => { 'Name' => ['$l1', '$l2'] },
  set               => $3,
  devices           => ${4:-['$l1', '$l2']},
  config_root       => '$root',
  iosched_apply     => '$TOOL',
  initramfs_command => ['$C_TMP/fake-initramfs', '-u'],
}
EOF
}
manifest "$C_TMP/good.pp" present "{ 'Scheduler' => 'mq-deadline', 'queue/read_ahead_kb' => 512 }"
manifest "$C_TMP/bad.pp" present "{ 'Scheduler' => 'none', 'queue/read_ahead_kb' => 'lots' }"
manifest "$C_TMP/absent.pp" absent "{}"
manifest "$C_TMP/typo.pp" present "{ 'Scheduler' => 'mq-dealine' }"
manifest "$C_TMP/moved.pp" present "{ 'Scheduler' => 'mq-deadline', 'queue/read_ahead_kb' => 256 }"
manifest "$C_TMP/inject.pp" present "{ 'Scheduler' => \"mq-deadline\\n[Match]\\nName=$l1\\n[Set]\\nqueue/read_ahead_kb=4096\" }"
manifest "$C_TMP/dashdev.pp" present "{ 'Scheduler' => 'mq-deadline', 'queue/read_ahead_kb' => 512 }" "['--help']"

# the drop-in text: an array is alternatives (an element with a blank quoted), booleans 1/0
puppet epp render --modulepath "$top/contrib/puppet" --confdir "$pd/conf" --vardir "$pd/var" \
        --codedir "$pd/code" --logdir "$pd/log" --rundir "$pd/run" --publicdir "$pd/public" \
        --values "{match => {'Model' => ['PERC H700', 'H710'], 'Vendor' => 'DELL EMC', 'Property' => '!ID_X=a b', 'Serial' => ['#1', 'a#b'], 'Rotational' => true}, set => {'Scheduler' => ['bfq', 'mq-deadline']}}" \
        iosched/dropin.epp >"$C_TMP/render.out" 2>"$C_TMP/render.err" || { cat "$C_TMP/render.err"; c_fail "puppet epp render"; }
printf '# Managed by Puppet iosched::rule; local changes are overwritten.\n[Match]\nModel="PERC H700" H710\nVendor="DELL EMC"\nProperty=!ID_X="a b"\nSerial="#1" a#b\nRotational=1\n[Set]\nScheduler=bfq mq-deadline\n' > "$C_TMP/render.want"
cmp -s "$C_TMP/render.want" "$C_TMP/render.out" || { diff -u "$C_TMP/render.want" "$C_TMP/render.out"; c_fail "drop-in rendering"; }
# a [Set] value a comment would cut short, or with a line break, is refused
for v in "'none #x'" "\"none\\n[Match]\"" "['none', ';x']"; do
        puppet epp render --modulepath "$top/contrib/puppet" --confdir "$pd/conf" --vardir "$pd/var" \
                --codedir "$pd/code" --logdir "$pd/log" --rundir "$pd/run" --publicdir "$pd/public" \
                --values "{match => {}, set => {'Scheduler' => $v}}" iosched/dropin.epp >"$C_TMP/render.out" 2>&1 &&
                c_fail "rendered the [Set] value $v: $(cat "$C_TMP/render.out")"
done

start=$(c_state "$l1" "$l2")

# first run: changes (file written, exec refreshed, sysfs changed)
papply first 2 "$C_TMP/good.pp"
for l in "$l1" "$l2"; do
        [ "$(c_sched "$l")" = mq-deadline ] || c_fail "$l: scheduler $(c_sched "$l") after the first run (was $start)"
        [ "$(c_ra "$l")" = 512 ] || c_fail "$l: read_ahead_kb $(c_ra "$l") after the first run"
done
printf '# Managed by Puppet iosched::rule; local changes are overwritten.\n[Match]\nName=%s %s\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=512\n' \
        "$l1" "$l2" > "$C_TMP/want.conf"
cmp "$C_TMP/want.conf" "$conf" || { diff -u "$C_TMP/want.conf" "$conf"; c_fail "drop-in content"; }
[ "$(stat -c '%a %u %g' "$conf")" = "644 0 0" ] || c_fail "drop-in mode/owner $(stat -c '%a %u %g' "$conf")"
grep -q "Exec\[iosched-apply 60-test\]/returns: executed successfully" "$C_TMP/first.out" || { cat "$C_TMP/first.out"; c_fail "the exec did not run"; }
[ "$(cat "$C_TMP/initramfs.log")" = "refresh -u" ] || c_fail "first run: initramfs refreshes: $(cat "$C_TMP/initramfs.log")"
"$TOOL" --check --config-root "$root" "$l1" "$l2" >/dev/null || c_fail "iosched-apply --check after the first run"
after=$(c_state "$l1" "$l2")

# second run: no-op
papply second 0 "$C_TMP/good.pp"
[ "$(refreshes)" = 1 ] || c_fail "an unchanged file refreshed the initramfs"

# drift is corrected on every run, the file unchanged (exec unless --check)
echo none > "/sys/block/$l2/queue/scheduler"
papply drift 2 "$C_TMP/good.pp"
[ "$(c_sched "$l2")" = mq-deadline ] || c_fail "$l2: drift not corrected: $(c_sched "$l2")"
[ "$(refreshes)" = 1 ] || c_fail "a drift (file unchanged) refreshed the initramfs"
papply drift2 0 "$C_TMP/good.pp"

# a bad value: validate_cmd refuses it with file:line; file and sysfs unchanged
cp "$conf" "$C_TMP/before.conf"
papply bad 4 "$C_TMP/bad.pp"
grep -q "60-test.conf.*:6:.*lots" "$C_TMP/bad.out" || grep -q ':6: .*lots' "$C_TMP/bad.out" ||
        { cat "$C_TMP/bad.out"; c_fail "bad value: no file:line in the failure"; }
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "bad value replaced the drop-in"
[ "$(c_state "$l1" "$l2")" = "$after" ] || c_fail "bad value changed sysfs: $(c_state "$l1" "$l2")"
[ "$(ls -A "$root/etc/iosched.d")" = 60-test.conf ] || c_fail "leftover files: $(ls -A "$root/etc/iosched.d")"

# the same validator as the Ansible module's: a near-miss scheduler is refused, nothing written
papply typo 4 "$C_TMP/typo.pp"
grep -q "mq-dealine" "$C_TMP/typo.out" || { cat "$C_TMP/typo.out"; c_fail "near-miss: no message"; }
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "near-miss replaced the drop-in"
[ "$(c_state "$l1" "$l2")" = "$after" ] || c_fail "near-miss changed sysfs: $(c_state "$l1" "$l2")"

# a value with a newline cannot inject a [Match] section: the catalog fails
papply inject 1 "$C_TMP/inject.pp"
grep -q "CR, LF or NUL" "$C_TMP/inject.out" || { cat "$C_TMP/inject.out"; c_fail "inject: not refused for its line break"; }
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "inject replaced the drop-in: $(cat "$conf")"
[ "$(c_state "$l1" "$l2")" = "$after" ] || c_fail "inject changed sysfs: $(c_state "$l1" "$l2")"

# a device is never read as an option
papply dashdev 1 "$C_TMP/dashdev.pp"
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "dashdev replaced the drop-in"

# a same-named file in /run/iosched.d masks /etc's: the run fails naming it, nothing written
mkdir -p "$root/run/iosched.d"
printf '[Match]\nName=%s %s\n[Set]\nScheduler=none\n' "$l1" "$l2" > "$root/run/iosched.d/60-test.conf"
chmod 0644 "$root/run/iosched.d/60-test.conf"
papply mask 4 "$C_TMP/moved.pp"
grep -q "run/iosched.d/60-test.conf masks" "$C_TMP/mask.out" || { cat "$C_TMP/mask.out"; c_fail "mask: not named"; }
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "mask: the drop-in was replaced"
[ "$(c_state "$l1" "$l2")" = "$after" ] || c_fail "mask changed sysfs: $(c_state "$l1" "$l2")"
rm "$root/run/iosched.d/60-test.conf"
[ "$(refreshes)" = 1 ] || c_fail "a refused or masked change refreshed the initramfs"

# a drop-in that is not UTF-8 is replaced
printf '# caf\351 (Latin-1)\n[Match]\nName=%s %s\n[Set]\nScheduler=mq-deadline\n' "$l1" "$l2" > "$conf"
papply latin1 2 "$C_TMP/good.pp"
cmp "$C_TMP/want.conf" "$conf" || c_fail "non-UTF-8: the drop-in was not replaced"
[ "$(refreshes)" = 2 ] || c_fail "non-UTF-8 replaced: initramfs refreshes $(refreshes), want 2"

# an apply that fails after validate_cmd passed (every scheduler write EBUSY, the
# test shim): the run fails with the tool's lines, the drop-in is put back as it
# was when it last applied, the initramfs is not refreshed, the old policy is in
# force; a new drop-in whose apply fails is removed again
shim=$top/$BUILDDIR/tests/libiosfault.so
case $BUILDDIR in /*) shim=$BUILDDIR/tests/libiosfault.so ;; esac
manifest "$C_TMP/busy.pp" present "{ 'Scheduler' => 'none' }"
if [ -r "$shim" ]; then
        cp "$conf" "$C_TMP/before.conf"
        n0=$(refreshes)
        LD_PRELOAD=$shim IOS_FAULT_BUSY=queue/scheduler:always papply busy 6 "$C_TMP/busy.pp"
        grep -q "the apply failed; $conf is put back as it was when it last applied" "$C_TMP/busy.out" ||
                { cat "$C_TMP/busy.out"; c_fail "busy: not said"; }
        grep -q "60-test.conf:5" "$C_TMP/busy.out" || { cat "$C_TMP/busy.out"; c_fail "busy: the tool's file:line not shown"; }
        cmp -s "$C_TMP/before.conf" "$conf" || { diff "$C_TMP/before.conf" "$conf"; c_fail "busy: the drop-in was not put back"; }
        [ "$(refreshes)" = "$n0" ] || c_fail "busy: the initramfs was refreshed with a drop-in that did not apply"
        "$TOOL" --check --config-root "$root" "$l1" "$l2" >/dev/null || c_fail "busy: the old policy is not in force"
        papply busy-after 0 "$C_TMP/good.pp"
        mv "$conf" "$C_TMP/kept.conf"
        rm -rf "$root/var/lib/iosched/puppet"
        LD_PRELOAD=$shim IOS_FAULT_BUSY=queue/scheduler:always papply busy-new 6 "$C_TMP/busy.pp"
        [ ! -e "$conf" ] || c_fail "busy: a new drop-in whose apply failed was left: $(cat "$conf")"
        mv "$C_TMP/kept.conf" "$conf"
        papply busy-back 0 "$C_TMP/good.pp"
else
        echo "busy: $shim not built (make tests): not run"
fi

# the fact, with facter and inside puppet apply (the module's lib/facter)
FACTERLIB="$top/contrib/puppet/iosched/lib/facter" facter --json iosched >"$C_TMP/facter.json" 2>"$C_TMP/facter.err" ||
        { cat "$C_TMP/facter.err"; c_fail "facter iosched"; }
/usr/bin/python3 - "$C_TMP/facter.json" "$l1" "$l2" <<'EOF' || c_fail "facter iosched: $(cat "$C_TMP/facter.json")"
import json, sys
f = json.load(open(sys.argv[1]))["iosched"]
assert f["schema"] == 1, f
disks = {d["name"]: d for d in f["disks"]}
for l in sys.argv[2:]:
    assert disks[l]["class"] == "loop", disks[l]
    assert disks[l]["scheduler"] == "mq-deadline", disks[l]
EOF
echo "facter: ok ($(c_time)s)"
cat > "$C_TMP/fact.pp" <<EOF
\$d = \$facts['iosched']['disks'].filter |\$x| { \$x['name'] == '$l1' }
notice("iosched fact: \${d[0]['name']} class=\${d[0]['class']} scheduler=\${d[0]['scheduler']}")
EOF
papply fact 0 "$C_TMP/fact.pp"
grep -q "iosched fact: $l1 class=loop scheduler=mq-deadline" "$C_TMP/fact.out" || { cat "$C_TMP/fact.out"; c_fail "fact in puppet apply"; }

# absent: the file goes, the exec runs (what remains of the policy is applied), then a no-op
papply absent 2 "$C_TMP/absent.pp"
[ ! -e "$conf" ] || c_fail "ensure => absent left $conf"
[ "$(refreshes)" = 3 ] || c_fail "ensure => absent: initramfs refreshes $(refreshes), want 3"
papply absent2 0 "$C_TMP/absent.pp"
[ "$(refreshes)" = 3 ] || c_fail "nothing to remove refreshed the initramfs"
echo "PASS ($(c_time)s)"
