#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the Ansible collection's fleet report playbook
# (iosched.iosched.fleet_report) over three inventory hosts, each a local
# connection reading a captured fixture tree of its own (the facts module's
# sysroot): each host's facts -J kept on the controller as HOST.json with its
# inventory name, then `iosched-apply report` run there: report.txt has one
# table per disk model naming the hosts, report.json is the same as the tool
# gives on those files; nothing on the machine is changed (no device is
# touched: the trees are captured).
. "$(dirname "$0")/lib.sh"
[ -x "$TOOL" ] || c_fail "$TOOL not built (make)"
c_need ansible-playbook ansible
c_need ansible-galaxy ansible
fx=$top/$BUILDDIR/fixtures
for h in megaraid-ld vm-perc-ld-6.1 ahci-sata-hdd; do
        [ -d "$fx/$h/sys/block" ] || c_fail "no fixture $fx/$h (make tests unpacks them)"
done

export LC_ALL=C.UTF-8 LANG=C.UTF-8
export ANSIBLE_HOME="$C_TMP/ansible-home" ANSIBLE_LOCAL_TEMP="$C_TMP/ansible-local" \
        ANSIBLE_REMOTE_TEMP="$C_TMP/ansible-remote" ANSIBLE_COLLECTIONS_PATH="$C_TMP/collections" \
        ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_RETRY_FILES_ENABLED=0 \
        ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 ANSIBLE_CONFIG="$C_TMP/ansible.cfg" \
        ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_LOAD_CALLBACK_PLUGINS=0
: > "$C_TMP/ansible.cfg"
ansible-galaxy collection build "$top/contrib/ansible" --output-path "$C_TMP" >"$C_TMP/build.log" 2>&1 ||
        { cat "$C_TMP/build.log"; c_fail "ansible-galaxy collection build"; }
ansible-galaxy collection install -p "$C_TMP/collections" "$C_TMP"/iosched-iosched-*.tar.gz >"$C_TMP/install.log" 2>&1 ||
        { cat "$C_TMP/install.log"; c_fail "ansible-galaxy collection install"; }

cat > "$C_TMP/inventory.ini" <<EOF
[storage]
db1 iosched_sysroot=$fx/megaraid-ld
db2 iosched_sysroot=$fx/vm-perc-ld-6.1
web1 iosched_sysroot=$fx/ahci-sata-hdd

[storage:vars]
ansible_connection=local
iosched_apply=$TOOL
EOF
out=$C_TMP/report
ansible-playbook -i "$C_TMP/inventory.ini" iosched.iosched.fleet_report \
        -e "iosched_report_dir=$out" -e "iosched_report_tool=$TOOL" >"$C_TMP/play.out" 2>&1 ||
        { cat "$C_TMP/play.out"; c_fail "ansible-playbook iosched.iosched.fleet_report: exit $?"; }
grep -q "^db1 *: ok=[0-9]* *changed=[0-9]* *unreachable=0 *failed=0" "$C_TMP/play.out" || { cat "$C_TMP/play.out"; c_fail "db1 recap"; }
for h in db1 db2 web1; do
        [ -f "$out/$h.json" ] || c_fail "no $out/$h.json: $(ls "$out")"
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["hostname"] == sys.argv[2] and d["command"] == "facts", d' \
                "$out/$h.json" "$h" || c_fail "$h.json: $(head -c 300 "$out/$h.json")"
done
grep -q "^DELL PERC H700: 1 host, 1 disk" "$out/report.txt" || c_fail "report.txt: $(cat "$out/report.txt")"
grep -q "^  db2 " "$out/report.txt" || c_fail "report.txt: no db2 row: $(cat "$out/report.txt")"
grep -q "^ATA QEMU HARDDISK: 1 host" "$out/report.txt" || c_fail "report.txt: $(cat "$out/report.txt")"
grep -q "^  web1 " "$out/report.txt" || c_fail "report.txt: no web1 row: $(cat "$out/report.txt")"
grep -q "^  db1 " "$out/report.txt" || c_fail "report.txt: no db1 row: $(cat "$out/report.txt")"
grep -q "DELL PERC H700" "$C_TMP/play.out" || c_fail "the report is not shown: $(cat "$C_TMP/play.out")"
# the same as the tool gives on those files
(cd "$out" && "$TOOL" report -J db1.json db2.json web1.json) > "$C_TMP/direct.json"
python3 - "$C_TMP/direct.json" "$out/report.json" <<'EOF' || c_fail "report.json differs from the tool's"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
strip = lambda d: [(m["vendor"], m["model"], m["rows"]) for m in d["models"]]
assert strip(a) == strip(b), (a, b)
assert sorted(h["host"] for h in b["hosts"]) == ["db1", "db2", "web1"], b["hosts"]
EOF
echo "ok ($(ls "$out" | tr '\n' ' '))"
