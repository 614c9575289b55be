#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a queue-limits write (add_random here) makes 6.11+ kernels
# recompute read_ahead_kb (6.18: raised to what the limits give, 1024 on a
# loop device over ext4), on a loop device the test attaches.  A policy with
# queue/read_ahead_kb=64 and queue/add_random=1 writes add_random first and
# read_ahead_kb after it, so the first pass holds: no "written again, last"
# from the final read-back, 64 at the end, --check and -J compliant.  With
# read_ahead_kb already in place, the add_random write resets it and it is
# written again, said in a note naming the write.  Where the kernel does not
# recompute (before 6.11) the same policy still ends compliant.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 64
q=/sys/block/$l/queue
[ -w "$q/add_random" ] && [ -w "$q/read_ahead_kb" ] || t_skip "no writable add_random/read_ahead_kb"
pol=$T_TMP/policy.conf
printf '[Match]\nName=%s\n[Set]\nqueue/read_ahead_kb=64\nqueue/add_random=1\n' "$l" >"$pol"
chmod 0644 "$pol"

# does this kernel recompute read_ahead_kb on a queue-limits write?
echo 64 >"$q/read_ahead_kb"
echo 1 >"$q/add_random"
ra=$(cat "$q/read_ahead_kb")
resets=0
[ "$ra" = 64 ] || resets=1
echo "kernel $(uname -r): read_ahead_kb 64 -> $ra after an add_random write (resets=$resets)"

# 1. both differ: add_random is written first, read_ahead_kb after it, once
echo 0 >"$q/add_random"
echo 128 >"$q/read_ahead_kb"
out=$($APPLY --config "$pol" "$l" 2>&1) || t_fail "apply: exit $?: $out"
echo "$out"
[ "$(cat "$q/read_ahead_kb")" = 64 ] || t_fail "read_ahead_kb is $(cat "$q/read_ahead_kb"), want 64"
[ "$(cat "$q/add_random")" = 1 ] || t_fail "add_random is $(cat "$q/add_random"), want 1"
first=$(echo "$out" | grep -n "queue/add_random: 0 -> 1" | cut -d: -f1)
second=$(echo "$out" | grep -n "queue/read_ahead_kb: 128 -> 64" | cut -d: -f1)
[ -n "$first" ] && [ -n "$second" ] || t_fail "applied lines missing: $out"
[ "$first" -lt "$second" ] || t_fail "read_ahead_kb written before add_random: $out"
echo "$out" | grep -q "written again" && t_fail "the first pass did not hold (the final read-back wrote again): $out"
$APPLY --check --config "$pol" "$l" >/dev/null || t_fail "--check after apply: exit $?"
$APPLY --check -J --config "$pol" "$l" | grep -q '"compliant": true' || t_fail "-J --check not compliant"

# 2. read_ahead_kb in place, add_random differs: the add_random write resets it, it is written again
echo 0 >"$q/add_random"
echo 64 >"$q/read_ahead_kb"
out=$($APPLY --config "$pol" "$l" 2>&1) || t_fail "apply (read_ahead_kb in place): exit $?: $out"
echo "$out"
[ "$(cat "$q/read_ahead_kb")" = 64 ] || t_fail "in place: read_ahead_kb is $(cat "$q/read_ahead_kb"), want 64"
if [ $resets = 1 ]; then
        echo "$out" | grep -q "queue/read_ahead_kb: in place until the write of queue/add_random made the kernel recompute it" ||
                t_fail "the reset and the write again not said: $out"
else
        echo "$out" | grep -q "read_ahead_kb" && t_fail "read_ahead_kb written where the kernel keeps it: $out"
fi
$APPLY --check --config "$pol" "$l" >/dev/null || t_fail "--check after apply (in place): exit $?"

# 3. iostats_passthrough (6.13+), a queue-limits flag too: set, and read_ahead_kb written after it
if [ -w "$q/iostats_passthrough" ]; then
        printf '[Match]\nName=%s\n[Set]\nqueue/read_ahead_kb=64\nqueue/iostats_passthrough=1\n' "$l" >"$pol"
        echo 0 >"$q/iostats_passthrough"
        echo 128 >"$q/read_ahead_kb"
        out=$($APPLY --config "$pol" "$l" 2>&1) || t_fail "apply iostats_passthrough: exit $?: $out"
        echo "$out"
        [ "$(cat "$q/iostats_passthrough")" = 1 ] || t_fail "iostats_passthrough is $(cat "$q/iostats_passthrough")"
        [ "$(cat "$q/read_ahead_kb")" = 64 ] || t_fail "after iostats_passthrough: read_ahead_kb is $(cat "$q/read_ahead_kb")"
        echo "$out" | grep -q "written again" && t_fail "iostats_passthrough: the first pass did not hold: $out"
        $APPLY --check --config "$pol" "$l" >/dev/null || t_fail "--check after iostats_passthrough: exit $?"
        echo 0 >"$q/iostats_passthrough"
fi
exit 0
