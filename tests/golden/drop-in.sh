#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# --drop-in NAME=FILE on a captured tree with a fake configuration root:
# FILE replaces a drop-in of that name (in /etc/iosched.d or the vendor
# directory), is added when there is none, /dev/null removes NAME, FILE is
# refused like any policy file when group-writable, NAME must be a *.conf
# name, it is repeatable (the last of a name counts), and it works with
# --dry-run -J, --check, status and cat-config.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
d=$fx/megaraid-ld
[ -d "$d/sys" ] || { echo "no fixture megaraid-ld in $fx"; exit 1; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
# policies readable by root only as the loader wants them; the test may run as another owner
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
mkdir -p "$t/root/etc/iosched.d" "$t/root/run/iosched.d"
chmod 0755 "$t/root" "$t/root/etc" "$t/root/etc/iosched.d" "$t/root/run" "$t/root/run/iosched.d"
printf '[Match]\nClass=raid\n[Set]\nScheduler=mq-deadline\n' > "$t/root/etc/iosched.d/60-perc.conf"
printf '[Match]\nClass=raid\n[Set]\nScheduler=none\nqueue/read_ahead_kb=512\n' > "$t/cand.conf"
chmod 0644 "$t/root/etc/iosched.d/60-perc.conf" "$t/cand.conf"
ap() { ${IOS_VALGRIND:-} "$bin" --sysroot "$d" --config-root "$t/root" "$@"; }

# the policy as it is: compliant (the fixture's disk has mq-deadline)
ap --check >/dev/null 2>&1 || t_fail "--check without --drop-in: exit $?"

# replace: the candidate's values and file:line
out=$(ap --dry-run -J --drop-in "60-perc.conf=$t/cand.conf") || t_fail "--dry-run --drop-in exit $?"
echo "$out" | grep -q "\"key\": \"scheduler\", \"before\": \"mq-deadline\", \"wanted\": \"none\", \"after\": null, \"source\": \"$t/cand.conf:4\", \"state\": \"drift\"" ||
        t_fail "replace: no drift to none from cand.conf:4: $out"
echo "$out" | grep -q '"key": "queue/read_ahead_kb"' || t_fail "replace: read_ahead_kb missing"
echo "$out" | grep -q '"changed": true, "compliant": false, "exit": 0' || t_fail "replace: top-level changed/compliant/exit"
echo "$out" | grep -q "60-perc.conf:" && t_fail "replace: the replaced file is still read"
ap --check --drop-in "60-perc.conf=$t/cand.conf" >/dev/null 2>&1
[ $? = 1 ] || t_fail "--check --drop-in: want exit 1 (drift)"

# the same name in /run/iosched.d (it masks /etc's) is replaced too
cp "$t/root/etc/iosched.d/60-perc.conf" "$t/root/run/iosched.d/60-perc.conf"
out=$(ap --dry-run -J --drop-in "60-perc.conf=$t/cand.conf")
echo "$out" | grep -q "\"source\": \"$t/cand.conf:4\"" || t_fail "replace in /run: $out"
rm "$t/root/run/iosched.d/60-perc.conf"

# add: a name no directory has, read in name order after 60-perc.conf
out=$(ap --dry-run -J --drop-in "70-new.conf=$t/cand.conf")
echo "$out" | grep -q "\"source\": \"$t/cand.conf:4\"" || t_fail "add: candidate not read last: $out"
out=$(ap --dry-run -J --drop-in "10-early.conf=$t/cand.conf")
echo "$out" | grep -q "\"key\": \"scheduler\", \"before\": \"mq-deadline\", \"wanted\": \"mq-deadline\", \"after\": null, \"source\": \"$t/root/etc/iosched.d/60-perc.conf:4\"" ||
        t_fail "add 10-early.conf: 60-perc.conf should still win: $out"

# /dev/null: as if 60-perc.conf were removed (built-in: raid gets none)
out=$(ap --dry-run -J --drop-in "60-perc.conf=/dev/null")
echo "$out" | grep -q '"wanted": "none", "after": null, "source": "built-in:5"' || t_fail "mask: $out"

# repeatable; the last of a name counts
out=$(ap --dry-run -J --drop-in "60-perc.conf=$t/cand.conf" --drop-in "60-perc.conf=/dev/null")
echo "$out" | grep -q '"source": "built-in:5"' || t_fail "last --drop-in of a name: $out"

# refused like any policy file: group-writable
cp "$t/cand.conf" "$t/gw.conf" && chmod 0664 "$t/gw.conf"
out=$(ap --check -J --drop-in "60-perc.conf=$t/gw.conf" 2>/dev/null)
[ $? = 2 ] || t_fail "group-writable candidate: want exit 2"
echo "$out" | grep -q "\"file\": \"$t/gw.conf\", \"line\": null, \"device\": null, \"message\": \"refusing a policy file writable by group or others" ||
        t_fail "group-writable candidate: no error naming it: $out"

# NAME must be a drop-in name; --config reads no drop-ins
for bad in "60-perc=$t/cand.conf" "x/60.conf=$t/cand.conf" ".hidden.conf=$t/cand.conf" "60-perc.conf=" "=x"; do
        out=$(ap --check -J --drop-in "$bad" 2>/dev/null)
        [ $? = 2 ] || t_fail "--drop-in $bad accepted"
        echo "$out" | grep -q '"message": "--drop-in ' || t_fail "--drop-in $bad: no JSON error: $out"
done
"$bin" --sysroot "$d" --config "$t/cand.conf" --drop-in "60-perc.conf=$t/cand.conf" --check >/dev/null 2>&1
[ $? = 2 ] || t_fail "--drop-in with --config accepted"

# status and cat-config see the candidate
ap status -r -n -o NAME,WANTED,STATE --drop-in "60-perc.conf=$t/cand.conf" | grep -qx 'sdb none drift' ||
        t_fail "status with --drop-in"
ap cat-config --drop-in "60-perc.conf=$t/cand.conf" | grep -qx "$t/cand.conf:4: Scheduler=none" ||
        t_fail "cat-config with --drop-in"
exit $fail
