#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a broken policy file moves no disk, on a loop device the
# test attaches.  A group-writable drop-in is refused: what it matches
# cannot be read, so no disk is changed at all.  A drop-in that does not
# parse gives no rule (nothing of it applied) and its disk keeps what it
# names, while every other drop-in still applies.  Each is named with
# file:line; apply, --dry-run and --check exit 2 so provisioning notices,
# and -J carries the errors.  Diagnostics: a rule whose [Match] matches no disk is named in
# --dry-run, --check and -v (not in a quiet apply); a tunable that the
# rule's scheduler does not have is a warning with file:line.
# Only the test's loop device is ever written; the host's disks are only
# read (--check/--dry-run over all disks).
. "$(dirname "$0")/lib.sh"
t_require_root
t_loop l 16
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
echo none > "$q/scheduler"

root=$T_TMP/root
mkdir -p "$root/etc/iosched.d"
chmod 0755 "$root" "$root/etc" "$root/etc/iosched.d"
d=$root/etc/iosched.d
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/iosched/fifo_batch=5\n' "$l" > "$d/10-good.conf"
# broken at line 5: its valid line 4 must not be applied either
printf '[Match]\nName=%s\n[Set]\nqueue/read_ahead_kb=64\nqueue/iosched/read_expire=-5\n' "$l" > "$d/20-broken.conf"
# group-writable: refused whole
printf '[Match]\nName=%s\n[Set]\nqueue/nr_requests=16\n' "$l" > "$d/30-loose.conf"
# a rule for no disk, and a tunable its scheduler does not have
printf '[Match]\nName=no-such-disk-here\n[Set]\nScheduler=none\nqueue/iosched/fifo_batch=2\n' > "$d/40-nomatch.conf"
chmod 0644 "$d"/*.conf
chmod 0664 "$d/30-loose.conf"
ra=$(cat "$q/read_ahead_kb") nr=$(cat "$q/nr_requests")

# --check over all disks (reads only): exit 2, both files named, the unmatched rule noted
# with --verbose only
out=$($APPLY --check --no-builtin --config-root "$root" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "--check with a broken drop-in: exit $rc, want 2 ($out)"
echo "$out" | grep -qF "iosched-apply: $d/20-broken.conf:5: queue/iosched/read_expire=-5 is out of range" ||
        t_fail "broken file not named with file:line: $out"
echo "$out" | grep -qF "iosched-apply: $d/30-loose.conf: refusing a policy file writable by group or others" ||
        t_fail "group-writable file not named: $out"
echo "$out" | grep -qF "[Match] matches no disk" && t_fail "--check notes an unmatched rule (--verbose only): $out"
out=$($APPLY --check --verbose --no-builtin --config-root "$root" 2>&1)
echo "$out" | grep -qF "iosched-apply: note: $d/40-nomatch.conf:1: [Match] matches no disk" ||
        t_fail "unmatched rule not noted with --verbose: $out"
echo "$out" | grep -qF "iosched-apply: warning: $d/40-nomatch.conf:5: queue/iosched/fifo_batch is not a tunable of none" ||
        t_fail "tunable of another scheduler not warned: $out"
# the refused file holds every disk: nothing would change
echo "$out" | grep -q "^$l " && t_fail "--check with a refused file reports drift: $out"
echo "$out" | grep -qF "$d/30-loose.conf: refusing a policy file writable by group or others (mode 0664); no disk is changed while it stands" ||
        t_fail "the refused file does not say it holds every disk: $out"
echo "$out" | grep -qF "$d/20-broken.conf:5: queue/iosched/read_expire=-5 is out of range: wants a time in ms (0..2147483640); no disk is changed while $d/30-loose.conf stands" ||
        t_fail "the broken file does not name what holds it: $out"

# --dry-run: exit 2 too, and the same note with --verbose only
out=$($APPLY --dry-run --no-builtin --config-root "$root" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "--dry-run: exit $rc, want 2"
echo "$out" | grep -q "matches no disk" && t_fail "--dry-run: an unmatched note without --verbose: $out"
out=$($APPLY --dry-run --verbose --no-builtin --config-root "$root" 2>&1)
echo "$out" | grep -q "matches no disk" || t_fail "--dry-run --verbose: no unmatched note: $out"
[ "$(t_sched "$l")" = none ] || t_fail "--dry-run changed the scheduler"

# -J: one JSON object carrying the errors
out=$($APPLY --check -J --no-builtin --config-root "$root" "$l" 2>/dev/null); rc=$?
[ $rc = 2 ] || t_fail "-J: exit $rc"
echo "$out" | python3 -c '
import json, sys
j = json.load(sys.stdin)
errs = j["policy_errors"]
assert len(errs) == 2, errs
assert errs[0]["file"].endswith("20-broken.conf") and errs[0]["line"] == 5, errs
assert errs[1]["file"].endswith("30-loose.conf") and errs[1]["line"] == 0, errs
' || t_fail "JSON: $out"

# apply (the test's disk only) with the refused file: nothing changes, exit 2
out=$($APPLY --no-builtin --config-root "$root" "$l" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "apply: exit $rc, want 2 ($out)"
[ "$(t_sched "$l")" = none ] || t_fail "a refused file did not hold the disk: $(t_sched "$l")"
[ "$(cat "$q/nr_requests")" != 16 ] || t_fail "the group-writable file was applied (nr_requests)"

# the refused file fixed: the good file applies, the broken one not at all and its
# read_ahead_kb is held (10-good does not set it: it stays), exit 2
chmod 0644 "$d/30-loose.conf"
out=$($APPLY --no-builtin --config-root "$root" "$l" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "apply: exit $rc, want 2 ($out)"
echo "$out" | grep -qF "$d/20-broken.conf:5: queue/iosched/read_expire=-5 is out of range: wants a time in ms (0..2147483640); held: $l keeps its queue/read_ahead_kb, queue/iosched/read_expire" ||
        t_fail "the held disk is not named: $out"
[ "$(t_sched "$l")" = mq-deadline ] || t_fail "the good file was not applied: $(t_sched "$l")"
[ "$(cat "$q/nr_requests")" = 16 ] || t_fail "30-loose.conf not applied once fixed: nr_requests $(cat "$q/nr_requests")"
[ "$(cat "$q/iosched/fifo_batch")" = 5 ] || t_fail "fifo_batch $(cat "$q/iosched/fifo_batch")"
[ "$(cat "$q/read_ahead_kb")" = "$ra" ] || t_fail "the broken file was half-applied (read_ahead_kb)"

# a quiet apply of one disk says no notes; -v does
out=$($APPLY -q --no-builtin --config-root "$root" "$l" 2>&1)
echo "$out" | grep -q "matches no disk\|warning" && t_fail "-q printed notes: $out"

# once the files are fixed, everything is compliant and exit 0
rm "$d/20-broken.conf"
$APPLY -q --no-builtin --config-root "$root" "$l" || t_fail "apply after the fix: exit $?"
$APPLY --check --no-builtin --config-root "$root" "$l" >/dev/null || t_fail "--check after the fix: exit $?"
echo ok
