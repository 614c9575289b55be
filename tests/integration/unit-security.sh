#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the installed ioschedd unit (the one make generates, with the
# real ExecStart path) keeps its sandbox: `systemd-analyze security
# --offline=true` rates its overall exposure at 2.0 or less.  Skips only when
# systemd-analyze is missing or too old for --offline (systemd < 250).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
unit="$top/${BUILDDIR:-build}/ioschedd.service"
limit=2.0
[ -f "$unit" ] || { echo "FAIL: no $unit (make builds it)"; exit 1; }
command -v systemd-analyze >/dev/null || { echo "SKIP: no systemd-analyze (package systemd)"; exit 77; }
systemd-analyze security --help 2>/dev/null | grep -q -- "--offline" ||
        { echo "SKIP: systemd-analyze has no --offline (systemd < 250)"; exit 77; }

out=$(systemd-analyze security --offline=true --threshold=20 --no-pager "$unit" 2>&1); rc=$?
level=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for ioschedd.service: \([0-9.]*\).*/\1/p')
[ -n "$level" ] || { printf '%s\n' "$out"; echo "FAIL: no exposure level in the output"; exit 1; }
echo "systemd-analyze security --offline=true: overall exposure $level (limit $limit)"
awk -v l="$level" -v m="$limit" 'BEGIN { exit !(l <= m) }' || {
        printf '%s\n' "$out" | grep -v "^✓"
        echo "FAIL: exposure $level is over $limit"; exit 1; }
[ $rc = 0 ] || { printf '%s\n' "$out" | tail -n 5; echo "FAIL: systemd-analyze exit $rc"; exit 1; }
# the check can fail: the same unit without its sandbox rates well over the limit
weak=$(mktemp -d)/ioschedd.service
trap 'rm -rf "$(dirname "$weak")"' EXIT
grep -v -e '^ProtectSystem=' -e '^SystemCallFilter=' -e '^CapabilityBoundingSet=' -e '^PrivateDevices=' \
        -e '^RestrictAddressFamilies=' -e '^ProtectKernelTunables=' "$unit" > "$weak"
wl=$(systemd-analyze security --offline=true --no-pager "$weak" 2>&1 |
        sed -n 's/.*Overall exposure level for ioschedd.service: \([0-9.]*\).*/\1/p')
echo "without ProtectSystem=, SystemCallFilter=, CapabilityBoundingSet= ...: exposure $wl"
awk -v l="$wl" -v m="$limit" 'BEGIN { exit !(l > m) }' || { echo "FAIL: the check cannot tell ($wl)"; exit 1; }
echo "PASS"
