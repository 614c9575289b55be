#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: JSON output is valid UTF-8 (strict decoding) when a fake
# tree's device/model, vendor and serial carry bytes like \xff, cut-off and
# overlong sequences and control characters, and when a policy file's name
# and an error message carry them: iosched-apply list -J (libsmartcols) and
# --dry-run -J / --check -J (ios_json_string).  Invalid bytes become U+FFFD.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || t_skip "no python3"

tree=$T_TMP/tree
cp -a "$IOS_FIXTURES/ahci-sata-ssd" "$tree" || t_fail "copy fixture"
sd=$(find "$tree/sys/devices" -name model -path '*/target*' | head -n 1)
[ -n "$sd" ] || t_fail "no SCSI model file in the fixture"
sd=${sd%/model}
rm -f "$sd/inquiry"     # so the model comes from sysfs, not from INQUIRY
printf 'Bad\377\376Model \303\251 \342\202 "q" \\ \001 \300\257\n' > "$sd/model"
printf '\355\240\200ven\n' > "$sd/vendor"
rm -f "$tree"/run/udev/data/*   # no udev names that would hide the sysfs ones

strict() {      # stdin: must decode as strict UTF-8 and parse as JSON
        python3 -c '
import json, sys
data = sys.stdin.buffer.read()
text = data.decode("utf-8", errors="strict")
json.loads(text)
if "\ufffd" not in text and sys.argv[1] == "replaced":
    sys.exit("no U+FFFD in the output")
' "$1"
}

out=$($APPLY --sysroot "$tree" list -J -o NAME,MODEL,VENDOR,SERIAL) || t_fail "list -J"
printf '%s' "$out" | strict replaced || t_fail "list -J is not valid UTF-8 JSON: $out"
printf '%s' "$out" | grep -q '"q\\"' || t_fail "list -J lost the escaped quote: $out"
echo "list -J: $out"

pdir=$(printf '%s/pol\377dir' "$T_TMP")
mkdir -p "$pdir"
printf '[Match]\nModel=Bad*\n[Set]\nScheduler=none\n' > "$pdir/ok.conf"
out=$($APPLY --sysroot "$tree" --config "$pdir/ok.conf" --dry-run -J); rc=$?
[ $rc -le 1 ] || t_fail "--dry-run -J exit $rc"
printf '%s' "$out" | strict replaced || t_fail "--dry-run -J is not valid UTF-8 JSON: $out"

printf '[Match]\nNa\377me=x\n[Set]\nScheduler=none\n' > "$pdir/bad.conf"
out=$($APPLY --sysroot "$tree" --config "$pdir/bad.conf" --check -J 2>/dev/null); rc=$?
[ $rc = 2 ] || t_fail "--check -J with a broken policy: exit $rc"
printf '%s' "$out" | strict replaced || t_fail "--check -J with an error is not valid UTF-8 JSON: $out"
echo "ok"
