#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd's command line and manual: every long option of
# --help has an item in OPTIONS of ioschedd(8), which passes mandoc -Tlint;
# bad usage exits 2; a broken policy file at start is skipped and logged
# with file:line while the daemon runs on; a
# captured tree (--sysroot, no uevents) gets the policy at start and the
# daemon exits 0 on SIGTERM, and says each sysfs write and class with
# IOSCHED_DEBUG=1 (nothing of it without); the unit passes systemd-analyze verify's syntax
# checks and its offline security exposure stays <= 2.0.
# Exit 0 pass, 77 skip, 1 fail.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILDDIR=${BUILDDIR:-build}
bin="$top/$BUILDDIR/ioschedd"
page="$top/man/ioschedd.8"
unit="$top/systemd/ioschedd.service"
tmp=$(mktemp -d /tmp/iosched-dcli-XXXXXX)
pid=""
cleanup() {
        [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
        rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

[ -x "$bin" ] || { echo "SKIP: no $BUILDDIR/ioschedd"; exit 77; }

# 1. manual
if command -v mandoc >/dev/null 2>&1; then
        out=$(mandoc -Tlint -W warning "$page" 2>&1) || t_fail "mandoc -Tlint exited $?"
        [ -z "$out" ] || t_fail "mandoc -Tlint -W warning man/ioschedd.8: $out"
        text=$(mandoc -Tascii -O width=400 "$page" | sed 's/.\x08//g')
        opts=$(printf '%s\n' "$text" | awk '/^[A-Z]/ { on = ($0 == "OPTIONS"); next } on')
        for o in $("$bin" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
                printf '%s\n' "$opts" | grep -Eq -- "^ {1,8}(-[A-Za-z0-9], )?$o([ =]|\$)" ||
                        t_fail "option $o (from --help) has no item in OPTIONS of ioschedd(8)"
        done
        for code in 0 1 2; do
                printf '%s\n' "$text" | awk '/^[A-Z]/ { on = ($0 == "EXIT STATUS"); next } on' |
                        grep -Eq "^ {1,8}$code( |\$)" || t_fail "exit status $code is not in ioschedd(8)"
        done
else
        echo "mandoc not installed: manual checks skipped"
fi

# 2. usage errors
"$bin" --bogus >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || t_fail "an unknown option exits $rc, not 2"
"$bin" --config a --config-root b >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || t_fail "--config with --config-root exits $rc, not 2"
"$bin" --drift-interval 5parsecs >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || t_fail "a bad --drift-interval exits $rc, not 2"
"$bin" --version | grep -q '^ioschedd ' || t_fail "--version"

# 3. a broken policy file at start: logged with file:line; its disks keep
#    what it names, the daemon runs with the rest of the policy (as udev)
printf '[Match]\nName=nothing-here\n[Set]\nNoSuchKey=fastest\n' > "$tmp/bad.conf"
chmod 0644 "$tmp/bad.conf"
"$bin" --no-builtin --config "$tmp/bad.conf" --monitor none > "$tmp/badlog" 2>&1 &
pid=$!
i=0
while ! grep -q "ready (" "$tmp/badlog" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
grep -q "policy error: $tmp/bad.conf:4: unknown key \"NoSuchKey\" in \[Set\].*; the disks it matches keep the settings it names" "$tmp/badlog" ||
        t_fail "the start error does not name file:line: $(cat "$tmp/badlog")"
grep -q "ready (" "$tmp/badlog" || t_fail "a broken file stopped the daemon: $(cat "$tmp/badlog")"
kill -TERM $pid; wait $pid; rc=$?; pid=""
[ $rc = 0 ] || t_fail "SIGTERM after a broken policy: exit $rc"

# 4. a captured tree: applied at start, no uevents, SIGTERM exits 0
if [ -d "${IOS_FIXTURES:-}/ahci-sata-ssd/sys" ]; then
        cp -a "$IOS_FIXTURES/ahci-sata-ssd" "$tmp/root"
        printf '[Match]\nName=sdd\n[Set]\nScheduler=none\n' > "$tmp/tree.conf"
        chmod 0644 "$tmp/tree.conf"
        "$bin" --sysroot "$tmp/root" --no-builtin --config "$tmp/tree.conf" > "$tmp/log" 2>&1 &
        pid=$!
        i=0
        while ! grep -q "ready (" "$tmp/log" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
        grep -q "ready (monitor none" "$tmp/log" || t_fail "a sysroot run should listen to no uevents: $(cat "$tmp/log")"
        grep -q '\[none\]' "$tmp/root/sys/block/sdd/queue/scheduler" ||
                t_fail "sysroot: scheduler not applied: $(cat "$tmp/root/sys/block/sdd/queue/scheduler")"
        kill -TERM $pid
        wait $pid; rc=$?
        pid=""
        [ $rc = 0 ] || t_fail "SIGTERM: exit $rc"
        # IOSCHED_DEBUG=1: the library's trace among the daemon's lines, as debug lines
        cp -a "$IOS_FIXTURES/ahci-sata-ssd" "$tmp/root2"
        IOSCHED_DEBUG=1 "$bin" --sysroot "$tmp/root2" --no-builtin --config "$tmp/tree.conf" > "$tmp/log2" 2>&1 &
        pid=$!
        i=0
        while ! grep -q "ready (" "$tmp/log2" && kill -0 $pid 2>/dev/null && [ $i -lt 1200 ]; do
                sleep 0.05; i=$((i + 1))
        done
        kill -TERM $pid
        wait $pid
        pid=""
        grep -qE 'debug: write /.*/block/sdd/queue/scheduler: ".*none.*": ok$' "$tmp/log2" ||
                t_fail "IOSCHED_DEBUG=1: no write said: $(cat "$tmp/log2")"
        grep -qE 'debug: sdd: class [a-z]+$' "$tmp/log2" || t_fail "IOSCHED_DEBUG=1: no class said: $(cat "$tmp/log2")"
        grep -q 'debug:' "$tmp/log" && t_fail "a trace without IOSCHED_DEBUG: $(cat "$tmp/log")"
else
        echo "no fixtures unpacked: sysroot check skipped"
fi

# 5. the unit: syntax and exposure (systemd-analyze works without a running systemd)
if command -v systemd-analyze >/dev/null 2>&1; then
        out=$(systemd-analyze verify "$unit" 2>&1 | grep -v -e 'is not executable' -e "Command 'man " -e 'failed with code')
        [ -z "$out" ] || t_fail "systemd-analyze verify: $out"
        exp=$(systemd-analyze security --offline=yes "$unit" 2>/dev/null |
              sed -n 's/.*Overall exposure level for ioschedd.service: \([0-9.]*\).*/\1/p')
        if [ -n "$exp" ]; then
                echo "systemd-analyze security --offline=yes: exposure $exp"
                awk -v e="$exp" 'BEGIN { exit !(e <= 2.0) }' || t_fail "exposure $exp > 2.0"
        else
                echo "this systemd-analyze has no --offline: exposure not measured"
        fi
fi

[ $fail = 0 ] || exit 1
echo "PASS"
