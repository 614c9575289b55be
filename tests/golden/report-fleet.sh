#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Golden test: `iosched-apply report` over facts -J documents generated from
# captured fixture hosts (facts -J --sysroot), two of them given per-disk
# validation evidence (one beaten and stale, one best), one made an older
# document (no wanted_scheduler, no validation), and one read from standard
# input: the text tables and the -J object diffed against
# tests/expected/report/, -J valid against the schema; a file that is not a
# facts document is an error (exit 2) that does not stop the others.
# IOS_UPDATE_GOLDEN=1 rewrites the expected files (review the diff!).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
exp=$top/tests/expected/report
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/h"
for h in megaraid-ld megaraid-ld-6.12 vm-perc-ld-6.1 ahci-sata-hdd ahci-sata-hdd-6.12 nvme; do
        [ -d "$fx/$h/sys/block" ] || { echo "FAIL no fixture $h"; exit 1; }
        "$bin" facts -J --config /dev/null --sysroot "$fx/$h" > "$tmp/h/$h.json" || { echo "FAIL facts $h: $?"; fail=1; }
done
# per-disk validation evidence as facts -J prints it (evidence-view.c), of a beaten, stale record and a best one
sed -i 's|"validation": null}|"validation": {"verdict": "beaten", "date": "2026-11-27T10:00:00Z", "stale": ["kernel"], "against_policy": true}}|' \
        "$tmp/h/megaraid-ld.json"
sed -i 's|"validation": null}|"validation": {"verdict": "best", "date": "2026-11-26T09:00:00Z", "stale": [], "against_policy": false}}|' \
        "$tmp/h/megaraid-ld-6.12.json"
grep -q '"validation": null}' "$tmp/h/vm-perc-ld-6.1.json" || { echo "FAIL: facts -J has no validation"; exit 1; }
# an older document: no wanted_scheduler, no validation
sed -i -e 's|"wanted_scheduler": [^,]*, ||' -e 's|"version": "[^"]*"|"version": "0.0.9"|' "$tmp/h/ahci-sata-hdd.json"
sed -i -z 's|,\n *"validation": null}|}|g' "$tmp/h/ahci-sata-hdd.json"
grep -q '"validation"' "$tmp/h/ahci-sata-hdd.json" && { echo "FAIL: validation left in the older document"; exit 1; }
grep -q '"validation": {"verdict": "beaten"' "$tmp/h/megaraid-ld.json" || { echo "FAIL: evidence not injected"; exit 1; }

cd "$tmp/h" || exit 1
mv nvme.json "$tmp/nvme.json"
"$bin" report megaraid-ld.json megaraid-ld-6.12.json vm-perc-ld-6.1.json ahci-sata-hdd.json ahci-sata-hdd-6.12.json - \
        < "$tmp/nvme.json" > "$tmp/report.txt" 2>&1
echo "exit $?" >> "$tmp/report.txt"
"$bin" report -J *.json > "$tmp/report.json" 2>/dev/null
echo "exit $?" >> "$tmp/report.json"
if [ "${IOS_UPDATE_GOLDEN:-0}" = 1 ]; then
        mkdir -p "$exp"
        cp "$tmp/report.txt" "$exp/report.txt"
        cp "$tmp/report.json" "$exp/report.json"
fi
diff -u "$exp/report.txt" "$tmp/report.txt" || { echo "FAIL report text"; fail=1; }
diff -u "$exp/report.json" "$tmp/report.json" || { echo "FAIL report -J"; fail=1; }
if python3 -c 'import jsonschema' 2>/dev/null; then
        sed '$d' "$tmp/report.json" | python3 -c '
import json, sys, jsonschema
schema = json.load(open(sys.argv[1])); doc = json.load(sys.stdin)
jsonschema.Draft202012Validator(schema).validate(doc)' "$top/schema/iosched-apply.schema.json" || { echo "FAIL report -J schema"; fail=1; }
fi

# not a facts document: one line, exit 2, the others still reported
echo '{"schema": 1, "tool": "iosched-apply", "command": "status", "disks": []}' > "$tmp/status.json"
out=$("$bin" report megaraid-ld.json "$tmp/status.json" 2>&1); rc=$?
[ $rc = 2 ] || { echo "FAIL not facts: exit $rc"; fail=1; }
echo "$out" | grep -q "status.json: not an iosched-apply facts -J document" || { echo "FAIL not facts: $out"; fail=1; }
echo "$out" | grep -q "^QEMU QEMU HARDDISK: 1 host" || { echo "FAIL not facts: the others: $out"; fail=1; }
out=$("$bin" report 2>&1); rc=$?
[ $rc = 2 ] || { echo "FAIL no file: exit $rc: $out"; fail=1; }
exit $fail
