#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the Ansible collection iosched.iosched, built and installed with
# ansible-galaxy into a temporary directory, then real ansible-playbook runs on
# localhost (connection local) against two loop devices the test creates, with
# a policy root in a temporary directory (the host's /etc is never read or
# written) and `devices:` naming only the test's disks:
#   check mode predicts (changed=1) and changes nothing (sysfs, no file);
#   the first run writes the drop-in (exact content, 0644) and changes sysfs
#   (scheduler and queue/read_ahead_kb read back); the second run changed=0;
#   a bad value fails with the tool's file:line and changes nothing;
#   the facts module returns the loop disks with class and scheduler;
#   state=absent removes the drop-in (check mode first: predicted, not done);
#   the initramfs is refreshed (a fake initramfs_command) exactly when the file
#   changed, and never by the auto-detected update-initramfs with a test root;
#   one validator: a near-miss scheduler fails check mode and the real run
#   alike, with nothing written; a same-named file in /run/iosched.d (or a
#   /dev/null mask there) fails naming the mask; state=absent predicts the
#   vendor file it uncovers; a name with a newline and a value with one are
#   refused; a non-UTF-8 drop-in is replaced without a crash; devices follow --;
#   an apply that fails after the dry run passed (EBUSY, the test shim) puts
#   the drop-in back as it was, or removes it if it was new.
. "$(dirname "$0")/lib.sh"
c_require
c_need ansible-playbook ansible
c_need ansible-galaxy ansible

c_loop l1 32
c_loop l2 32
grep -q mq-deadline "/sys/block/$l1/queue/scheduler" || c_skip "no mq-deadline on this kernel"

root=$C_TMP/root
mkdir -p "$root/etc/iosched.d"
conf=$root/etc/iosched.d/60-test.conf
# ansible wants a UTF-8 locale (C.UTF-8 is always there on Debian)
export LC_ALL=C.UTF-8 LANG=C.UTF-8
export ANSIBLE_HOME="$C_TMP/ansible-home" ANSIBLE_LOCAL_TEMP="$C_TMP/ansible-local" \
        ANSIBLE_REMOTE_TEMP="$C_TMP/ansible-remote" ANSIBLE_COLLECTIONS_PATH="$C_TMP/collections" \
        ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_RETRY_FILES_ENABLED=0 \
        ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 ANSIBLE_CONFIG="$C_TMP/ansible.cfg" \
        ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_LOAD_CALLBACK_PLUGINS=0

# the initramfs: a fake refresh command that logs its calls, and a fake
# update-initramfs first in PATH that must never run (a test root is not the
# host's /etc; the host's real initramfs is never rebuilt)
mkdir -p "$C_TMP/bin"
printf '#!/bin/sh\necho "refresh $*" >> %s/initramfs.log\n' "$C_TMP" > "$C_TMP/fake-initramfs"
printf '#!/bin/sh\necho "update-initramfs $*" >> %s/forbidden.log\nexit 1\n' "$C_TMP" > "$C_TMP/bin/update-initramfs"
cp "$C_TMP/bin/update-initramfs" "$C_TMP/bin/dracut"
chmod 0755 "$C_TMP/fake-initramfs" "$C_TMP/bin/update-initramfs" "$C_TMP/bin/dracut"
export PATH="$C_TMP/bin:$PATH"
: > "$C_TMP/initramfs.log"
refreshes() { wc -l < "$C_TMP/initramfs.log"; }

: > "$C_TMP/ansible.cfg"

# build and install the collection
ansible-galaxy collection build "$top/contrib/ansible" --output-path "$C_TMP" >"$C_TMP/build.log" 2>&1 ||
        { cat "$C_TMP/build.log"; c_fail "ansible-galaxy collection build"; }
ansible-galaxy collection install -p "$C_TMP/collections" "$C_TMP"/iosched-iosched-*.tar.gz >"$C_TMP/install.log" 2>&1 ||
        { cat "$C_TMP/install.log"; c_fail "ansible-galaxy collection install"; }
ansible-doc iosched.iosched.policy 2>&1 | grep -q 'config_root' || c_fail "ansible-doc iosched.iosched.policy does not render"
ansible-doc iosched.iosched.facts 2>&1 | grep -q 'pci_id' || c_fail "ansible-doc iosched.iosched.facts does not render"
echo "collection built and installed: $(c_time)s"

# the drop-in text: lists are alternatives (an element with a blank quoted),
# booleans 1/0, keys in the order given; a bad key or a line break is refused
/usr/bin/python3 - "$C_TMP/collections" <<'EOF' || c_fail "render_dropin"
import sys
sys.path.insert(0, sys.argv[1])
from ansible_collections.iosched.iosched.plugins.module_utils.iosched import render_dropin
class M:
    def fail_json(self, **kw):
        raise SystemExit(kw["msg"])
t = render_dropin(M(), "X", {"Model": ["PERC H700", "H710"], "Rotational": True},
                  {"Scheduler": ["bfq", "mq-deadline"], "queue/read_ahead_kb": 512})
assert t == ('# Managed by X; local changes are overwritten.\n[Match]\nModel="PERC H700" H710\nRotational=1\n'
             '[Set]\nScheduler=bfq mq-deadline\nqueue/read_ahead_kb=512\n'), t
assert "[Match]" not in render_dropin(M(), "X", {}, {"Scheduler": "none"})
# a value with a blank is one pattern (quoted); ! negates the condition; Property=KEY=GLOB
t = render_dropin(M(), "X", {"Model": "PERC H700", "Vendor": ["!DELL", "HP Q"],
                             "Property": ["ID_X=a b", "ID_X=c"], "Size": "1G-2T", "Serial": ["#1", "a#b"]},
                  {"Scheduler": "none"})
assert t.split("\n")[2:7] == ['Model="PERC H700"', 'Vendor=!DELL "HP Q"', 'Property=ID_X="a b" c', "Size=1G-2T",
                              'Serial="#1" a#b'], t
for bad in ({"Sched uler": "x"}, {"Scheduler": "a\nb"}, {"x]\n[Set": 1}, {"Scheduler\n": "none"},
            {"Scheduler": "none #x"}, {"Scheduler": ["none", ";x"]},
            {"Scheduler": "none\r"}, {"Scheduler": "no\x00ne"}, {"Scheduler": ["none", "a\n[Match]"]}):
    try:
        render_dropin(M(), "X", {}, bad)
    except SystemExit:
        continue
    raise AssertionError("accepted %r" % bad)
for bad in ({"Model": "x\n[Match]"}, {"Model": 'a"b'}, {"Model": ["a", 'PERC "H700"']}, {"Property": ["A=x", "B=y"]}):
    try:
        render_dropin(M(), "X", bad, {"Scheduler": "none"})
    except SystemExit:
        continue
    raise AssertionError("accepted %r" % bad)
EOF

# the role parses (running it installs the package: not on a test machine)
cat > "$C_TMP/role.yml" <<'EOF'
- hosts: localhost
  connection: local
  roles:
    - role: iosched.iosched.iosched
      vars:
        iosched_daemon_enabled: true
        iosched_policies:
          - {name: 60-perc, match: {Class: raid}, set: {Scheduler: none}}
EOF
ansible-playbook -i localhost, --syntax-check "$C_TMP/role.yml" >"$C_TMP/role.out" 2>&1 ||
        { cat "$C_TMP/role.out"; c_fail "the role does not parse"; }
ansible-playbook -i localhost, --list-tasks "$C_TMP/role.yml" 2>&1 | grep -q "iosched : Install iosched" ||
        c_fail "the role's tasks: $(ansible-playbook -i localhost, --list-tasks "$C_TMP/role.yml" 2>&1)"

cat > "$C_TMP/policy.yml" <<'EOF'
- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - name: the test policy
      iosched.iosched.policy:
        name: 60-test
        match: {Name: "{{ loops }}"}
        set: "{{ pset | default(omit) }}"
        state: "{{ pstate | default('present') }}"
        devices: "{{ loops }}"
        config_root: "{{ root }}"
        iosched_apply: "{{ tool }}"
        initramfs_command: "{{ irf | default([]) }}"
      register: r
    - ansible.builtin.debug:
        msg: "initramfs_refreshed={{ r.initramfs_refreshed }} devices={{ r.devices | to_json }}"
EOF
cat > "$C_TMP/facts.yml" <<'EOF'
- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - iosched.iosched.facts:
        devices: "{{ loops }}"
        config_root: "{{ root }}"
        iosched_apply: "{{ tool }}"
    - ansible.builtin.assert:
        that:
          - ansible_facts.iosched.schema == 1
          - ansible_facts.iosched.disks | map(attribute='name') | sort == loops | sort
          - ansible_facts.iosched.disks | map(attribute='class') | unique == ['loop']
          - ansible_facts.iosched.disks | map(attribute='scheduler') | unique == ['mq-deadline']
          - ansible_facts.iosched.disks | map(attribute='wanted_scheduler') | unique == ['mq-deadline']
          - ansible_facts.iosched.disks | rejectattr('compliant') | list | length == 0
          - ansible_facts.iosched.compliant
          - ansible_facts.iosched.policy_ok
        fail_msg: "{{ ansible_facts.iosched | to_json }}"
EOF
good='{"pset": {"Scheduler": "mq-deadline", "queue/read_ahead_kb": 512}}'
vars="{\"loops\": [\"$l1\", \"$l2\"], \"root\": \"$root\", \"tool\": \"$TOOL\", \"irf\": [\"$C_TMP/fake-initramfs\", \"-u\"]}"

# play NAME EXPECT_RC ARGS...: ansible-playbook, output in $C_TMP/NAME.out
play() {
        n=$1 want=$2; shift 2
        ansible-playbook -i localhost, -e "$vars" "$@" >"$C_TMP/$n.out" 2>&1
        rc=$?
        [ "$rc" = "$want" ] || { cat "$C_TMP/$n.out"; c_fail "$n: ansible-playbook exit $rc, want $want"; }
        echo "$n: exit $rc ($(c_time)s)"
}
recap() { grep -q "^localhost *: ok=[0-9]* *changed=$2 " "$C_TMP/$1.out" || { cat "$C_TMP/$1.out"; c_fail "$1: not changed=$2"; }; }

start=$(c_state "$l1" "$l2")

# check mode: predicts the change, makes none
play check 0 "$C_TMP/policy.yml" -e "$good" --check --diff
recap check 1
[ ! -e "$conf" ] || c_fail "check mode wrote $conf"
[ "$(c_state "$l1" "$l2")" = "$start" ] || c_fail "check mode changed sysfs: $(c_state "$l1" "$l2")"
grep -q "^+Scheduler=mq-deadline" "$C_TMP/check.out" || { cat "$C_TMP/check.out"; c_fail "check mode: no file diff"; }
grep -q "^+scheduler=mq-deadline" "$C_TMP/check.out" || { cat "$C_TMP/check.out"; c_fail "check mode: no per-disk diff"; }
grep -q "$l1 (loop) after" "$C_TMP/check.out" || c_fail "check mode: no diff for $l1"
ls -A "$root/etc/iosched.d" | grep -q . && c_fail "check mode left a file: $(ls -A "$root/etc/iosched.d")"
grep -q "initramfs_refreshed=True" "$C_TMP/check.out" || { cat "$C_TMP/check.out"; c_fail "check mode: no initramfs refresh predicted"; }
[ "$(refreshes)" = 0 ] || c_fail "check mode refreshed the initramfs"

# first run: the file and the kernel values
play first 0 "$C_TMP/policy.yml" -e "$good" --diff
recap first 1
for l in "$l1" "$l2"; do
        [ "$(c_sched "$l")" = mq-deadline ] || c_fail "$l: scheduler $(c_sched "$l") after the first run"
        [ "$(c_ra "$l")" = 512 ] || c_fail "$l: read_ahead_kb $(c_ra "$l") after the first run"
done
printf '# Managed by Ansible iosched.iosched.policy; local changes are overwritten.\n[Match]\nName=%s %s\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=512\n' \
        "$l1" "$l2" > "$C_TMP/want.conf"
cmp "$C_TMP/want.conf" "$conf" || { diff -u "$C_TMP/want.conf" "$conf"; c_fail "drop-in content"; }
[ "$(stat -c '%a %u %g' "$conf")" = "644 0 0" ] || c_fail "drop-in mode/owner $(stat -c '%a %u %g' "$conf")"
[ "$(ls -A "$root/etc/iosched.d")" = 60-test.conf ] || c_fail "leftover files: $(ls -A "$root/etc/iosched.d")"
"$TOOL" --check --config-root "$root" "$l1" "$l2" >/dev/null || c_fail "iosched-apply --check after the first run"
after=$(c_state "$l1" "$l2")
[ "$(cat "$C_TMP/initramfs.log")" = "refresh -u" ] || c_fail "first run: initramfs refreshes: $(cat "$C_TMP/initramfs.log")"

# second run: nothing to do
play second 0 "$C_TMP/policy.yml" -e "$good" --diff
recap second 0
[ "$(refreshes)" = 1 ] || c_fail "an unchanged file refreshed the initramfs"
# check mode on a compliant host predicts nothing
play check2 0 "$C_TMP/policy.yml" -e "$good" --check
recap check2 0

# a bad value: the task fails with file:line, the old file and sysfs stay
cp "$conf" "$C_TMP/before.conf"
play bad 2 "$C_TMP/policy.yml" -e '{"pset": {"Scheduler": "none", "queue/read_ahead_kb": "lots"}}'
grep -q "60-test.conf:6:" "$C_TMP/bad.out" || { cat "$C_TMP/bad.out"; c_fail "bad value: no file:line in the failure"; }
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "bad value replaced the drop-in"
[ "$(c_state "$l1" "$l2")" = "$after" ] || c_fail "bad value changed sysfs: $(c_state "$l1" "$l2")"
[ "$(ls -A "$root/etc/iosched.d")" = 60-test.conf ] || c_fail "bad value left files: $(ls -A "$root/etc/iosched.d")"

# an apply that fails after a passing dry run (every scheduler write EBUSY, the
# test shim): the task fails once with the tool's words, the drop-in is put back
# as it was, and a new drop-in is removed again
cp "$conf" "$C_TMP/before.conf"
shim=$top/$BUILDDIR/tests/libiosfault.so
case $BUILDDIR in /*) shim=$BUILDDIR/tests/libiosfault.so ;; esac
if [ -r "$shim" ]; then
        LD_PRELOAD=$shim IOS_FAULT_BUSY=queue/scheduler:always \
                play busy 2 "$C_TMP/policy.yml" -e '{"pset": {"Scheduler": "none"}}'
        grep -q "60-test.conf put back as it was" "$C_TMP/busy.out" || { cat "$C_TMP/busy.out"; c_fail "busy: not said"; }
        [ "$(grep -o '"msg": "[^"]*60-test.conf:5: '"$l1"': scheduler: cannot set' "$C_TMP/busy.out" | wc -l)" = 1 ] ||
                { cat "$C_TMP/busy.out"; c_fail "busy: the failure does not name file:line once"; }
        grep -q "iosched-apply: iosched-apply:" "$C_TMP/busy.out" && c_fail "busy: a doubled prefix: $(cat "$C_TMP/busy.out")"
        cmp -s "$C_TMP/before.conf" "$conf" || { diff "$C_TMP/before.conf" "$conf"; c_fail "busy: the drop-in was not put back"; }
        [ "$(ls -A "$root/etc/iosched.d")" = 60-test.conf ] || c_fail "busy: left files: $(ls -A "$root/etc/iosched.d")"
        "$TOOL" --check --config-root "$root" "$l1" "$l2" >/dev/null || c_fail "busy: the old policy is not in force"
        mv "$conf" "$C_TMP/kept.conf"
        LD_PRELOAD=$shim IOS_FAULT_BUSY=queue/scheduler:always \
                play busy-new 2 "$C_TMP/policy.yml" -e '{"pset": {"Scheduler": "none"}}'
        [ ! -e "$conf" ] || c_fail "busy: a new drop-in whose apply failed was left: $(cat "$conf")"
        mv "$C_TMP/kept.conf" "$conf"
else
        echo "busy: $shim not built (make tests): not run"
fi

# facts
play facts 0 "$C_TMP/facts.yml"

# a drift is put back by the next run (file unchanged, changed=1 from iosched-apply)
echo none > "/sys/block/$l2/queue/scheduler"
play drift 0 "$C_TMP/policy.yml" -e "$good"
recap drift 1
[ "$(c_sched "$l2")" = mq-deadline ] || c_fail "$l2: drift not put back"
[ "$(refreshes)" = 1 ] || c_fail "a drift (file unchanged) refreshed the initramfs"

# one validator: a near-miss scheduler fails check mode and the real run alike,
# before anything is written (the tool's dry-run with the new file must exit 0)
cp "$conf" "$C_TMP/before.conf"
typo='{"pset": {"Scheduler": "mq-dealine"}}'
play typo-check 2 "$C_TMP/policy.yml" -e "$typo" --check
play typo 2 "$C_TMP/policy.yml" -e "$typo"
grep -q "mq-dealine" "$C_TMP/typo.out" || { cat "$C_TMP/typo.out"; c_fail "near-miss: the tool's message is not shown"; }
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "near-miss: the drop-in was replaced: $(cat "$conf")"
[ "$(c_state "$l1" "$l2")" = "$after" ] || c_fail "near-miss changed sysfs: $(c_state "$l1" "$l2")"
[ "$(refreshes)" = 1 ] || c_fail "near-miss refreshed the initramfs"

# a value with a line break cannot add lines ([Match] ...) to the drop-in
play inject 2 "$C_TMP/policy.yml" -e "{\"pset\": {\"Scheduler\": \"mq-deadline\\n[Match]\\nName=$l1\\n[Set]\\nqueue/read_ahead_kb=4096\"}}"
grep -q "CR, LF or NUL" "$C_TMP/inject.out" || { cat "$C_TMP/inject.out"; c_fail "inject: not refused for its line break"; }
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "inject: the drop-in was replaced"

# a name is full-matched: "60-nl\n" is no file name (no file with a newline in its name)
cat > "$C_TMP/nl.yml" <<'EOF'
- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - iosched.iosched.policy:
        name: "60-nl\n"
        set: {Scheduler: none}
        apply: false
        config_root: "{{ root }}"
        iosched_apply: "{{ tool }}"
        initramfs_command: "{{ irf }}"
EOF
play nl 2 "$C_TMP/nl.yml"
grep -q "a file name" "$C_TMP/nl.out" || { cat "$C_TMP/nl.out"; c_fail "name with a newline: not refused"; }
[ "$(ls -A "$root/etc/iosched.d")" = 60-test.conf ] || c_fail "name with a newline: files $(ls -A "$root/etc/iosched.d" | od -c | head -3)"

# a device is never read as an option
play dashdev 2 "$C_TMP/policy.yml" -e "$good" -e '{"loops": ["--help"]}'
grep -q "no leading -" "$C_TMP/dashdev.out" || { cat "$C_TMP/dashdev.out"; c_fail "a device --help was not refused"; }
cmp -s "$C_TMP/before.conf" "$conf" || c_fail "dashdev: the drop-in was replaced"

# a drop-in that is not UTF-8 (Latin-1 here) is replaced, with a diff, without a crash
printf '# caf\351 (Latin-1)\n[Match]\nName=%s %s\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=512\n' "$l1" "$l2" > "$conf"
play latin1-check 0 "$C_TMP/policy.yml" -e "$good" --check --diff
recap latin1-check 1
play latin1 0 "$C_TMP/policy.yml" -e "$good" --diff
recap latin1 1
grep -q "^-# caf" "$C_TMP/latin1.out" || { cat "$C_TMP/latin1.out"; c_fail "non-UTF-8: no diff of the old file"; }
cmp "$C_TMP/want.conf" "$conf" || c_fail "non-UTF-8: the drop-in was not replaced"
[ "$(refreshes)" = 2 ] || c_fail "non-UTF-8 replaced: initramfs refreshes $(refreshes), want 2"

# a same-named file in /run/iosched.d masks /etc's: check mode and the real run
# both fail naming it, nothing is written, no disk changes (a link to /dev/null too)
mkdir -p "$root/run/iosched.d"
printf '[Match]\nName=%s %s\n[Set]\nScheduler=none\n' "$l1" "$l2" > "$root/run/iosched.d/60-test.conf"
chmod 0644 "$root/run/iosched.d/60-test.conf"
moved='{"pset": {"Scheduler": "mq-deadline", "queue/read_ahead_kb": 256}}'
for mode in mask-check mask; do
        if [ $mode = mask-check ]; then play $mode 2 "$C_TMP/policy.yml" -e "$moved" --check
        else play $mode 2 "$C_TMP/policy.yml" -e "$moved"; fi
        grep -q "run/iosched.d/60-test.conf masks" "$C_TMP/$mode.out" || { cat "$C_TMP/$mode.out"; c_fail "$mode: the mask is not named"; }
        cmp -s "$C_TMP/want.conf" "$conf" || c_fail "$mode: the drop-in was replaced"
        [ "$(c_state "$l1" "$l2")" = "$after" ] || c_fail "$mode changed sysfs: $(c_state "$l1" "$l2")"
done
play mask-same 2 "$C_TMP/policy.yml" -e "$good"
[ "$(c_state "$l1" "$l2")" = "$after" ] || c_fail "mask-same changed sysfs: $(c_state "$l1" "$l2")"
ln -sf /dev/null "$root/run/iosched.d/60-test.conf"
play mask-null 2 "$C_TMP/policy.yml" -e "$moved"
grep -q "run/iosched.d/60-test.conf masks" "$C_TMP/mask-null.out" || { cat "$C_TMP/mask-null.out"; c_fail "mask-null: not named"; }
rm -f "$root/run/iosched.d/60-test.conf"
[ "$(refreshes)" = 2 ] || c_fail "a masked drop-in refreshed the initramfs"

# state=absent uncovers a same-named vendor file: check mode predicts its values
vend=$root/usr/local/lib/iosched
mkdir -p "$vend"
printf '[Match]\nName=%s %s\n[Set]\nScheduler=none\n' "$l1" "$l2" > "$vend/60-test.conf"
chmod 0644 "$vend/60-test.conf"

# absent: check mode predicts the removal, the real run removes it
play absent-check 0 "$C_TMP/policy.yml" -e '{"pstate": "absent"}' --check --diff
recap absent-check 1
[ -e "$conf" ] || c_fail "check mode removed the drop-in"
grep -q "^+scheduler=none" "$C_TMP/absent-check.out" || { cat "$C_TMP/absent-check.out"; c_fail "absent: check mode does not predict the vendor file"; }
play absent 0 "$C_TMP/policy.yml" -e '{"pstate": "absent"}'
recap absent 1
[ ! -e "$conf" ] || c_fail "state=absent left $conf"
for l in "$l1" "$l2"; do
        [ "$(c_sched "$l")" = none ] || c_fail "$l: the vendor file is not in force after state=absent: $(c_sched "$l")"
done
[ "$(refreshes)" = 3 ] || c_fail "state=absent: initramfs refreshes $(refreshes), want 3"
play absent2 0 "$C_TMP/policy.yml" -e '{"pstate": "absent"}'
recap absent2 0
[ "$(refreshes)" = 3 ] || c_fail "state=absent, nothing to remove, refreshed the initramfs"
[ ! -e "$C_TMP/forbidden.log" ] || c_fail "the auto-detected initramfs tool ran with a test root: $(cat "$C_TMP/forbidden.log")"
echo "PASS ($(c_time)s)"
