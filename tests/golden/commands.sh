#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Golden test of facts -J (every captured tree, tests/expected/facts/), status
# (table, raw, -o, -J) and explain -J for several disks, cat-config (built-in
# and files, each line with its source; --no-builtin; skipped files), and
# list -a/-b (a disk of size 0 is hidden unless -a or named; SIZE human unless
# -b).  IOS_UPDATE_GOLDEN=1 rewrites the expected files (review the diff!).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
exp=$top/tests/expected
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
mkdir -p "$exp/facts"

# golden NAME FILE: compare (or update) tests/expected/NAME with FILE
golden() {
        [ "${IOS_UPDATE_GOLDEN:-0}" = 1 ] && cp "$2" "$exp/$1"
        diff -u "$exp/$1" "$2" || t_fail "$1 differs"
}

# 1. facts -J of every tree (built-in policy), and the status table of all of them
: > "$t/status.txt"
for d in "$fx"/*/; do
        f=$(basename "$d")
        [ -d "$d/sys/block" ] || continue
        ${IOS_VALGRIND:-} "$bin" facts -J --sysroot "$d" > "$t/facts.json" || t_fail "facts $f: exit $?"
        golden "facts/$f.json" "$t/facts.json"
        { echo "== $f"; ${IOS_VALGRIND:-} "$bin" status --sysroot "$d"; echo "exit $?"; } >> "$t/status.txt"
done
golden status.txt "$t/status.txt"

# the seed's question: which controller, by PCI id and subsystem id
d=$fx/megaraid-ld
"$bin" facts -J --sysroot "$d" | grep -qF '"controller": {"driver": "megaraid_sas", "pci_slot": "0000:00:04.0", "pci_id": "1000:0079", "pci_subsystem": "1000:9261"}' ||
        t_fail "facts: megaraid controller"
"$bin" facts -J --sysroot "$fx/virtio-blk" | grep -q '"controller": null' && t_fail "virtio-blk has a PCI controller"

# 2. status: -o, -r, -n, -J, a named disk; drift makes no exit status
out=$("$bin" status -r -n -o NAME,SCHED,WANTED,STATE,DRIFT --sysroot "$d"); rc=$?
[ "$out" = "sdb mq-deadline none drift 1" ] || t_fail "status -r -n -o: $out"
[ $rc = 0 ] || t_fail "status exit $rc with drift, want 0"
"$bin" status -o NAME,BOGUS --sysroot "$d" >/dev/null 2>&1 && t_fail "status -o BOGUS accepted"
out=$("$bin" status -J --config /dev/null --sysroot "$fx/md-raid1")
echo "$out" | grep -q '"command": "status", "policy_ok": true, "compliant": true, "drift": 0, "exit": 0' || t_fail "status -J md-raid1: $out"
echo "$out" | grep -q '{"name": "md127", "class": "md", "scheduler": null, "wanted": null, "state": "unmanaged"' || t_fail "status -J: md127 unmanaged"

# 3. explain: several disks, all disks, -J
"$bin" explain --sysroot "$fx/md-raid1" md127 vdb > "$t/explain.txt" || t_fail "explain md127 vdb: exit $?"
[ "$(grep -c '^[a-z0-9]*: ' "$t/explain.txt")" = 2 ] || t_fail "explain of two disks: $(cat "$t/explain.txt")"
[ "$("$bin" explain --sysroot "$fx/md-raid1" | grep -c '^[a-z0-9]*: ')" = 3 ] || t_fail "explain of every disk"
"$bin" explain -J --sysroot "$d" > "$t/explain.json" || t_fail "explain -J: exit $?"
golden explain-megaraid-ld.json "$t/explain.json"
"$bin" explain -J --sysroot "$d" sdb nosuch > "$t/x.json" 2>/dev/null; rc=$?
[ $rc = 2 ] || t_fail "explain sdb nosuch: exit $rc"
grep -q '"device": "nosuch", "message": "not a block device", "exit": 2' "$t/x.json" || t_fail "explain -J: missing disk not in errors"
grep -q '"name": "sdb"' "$t/x.json" || t_fail "explain -J: sdb missing when another disk is"

# 4. cat-config
mkdir -p "$t/root/etc/iosched.d" "$t/root/run/iosched.d"
printf '[Match]\nClass=raid\n[Set]\nScheduler=mq-deadline\n' > "$t/root/etc/iosched.d/60-perc.conf"
printf '[Match]\nClass=hdd\n[Set]\nBogus=1\n' > "$t/root/etc/iosched.d/70-bad.conf"
ln -s /dev/null "$t/root/run/iosched.d/50-masked.conf"
chmod 0644 "$t/root/etc/iosched.d/"*.conf
"$bin" cat-config --config-root "$t/root" --sysroot "$d" 2>/dev/null | sed "s|$t|ROOT|g" > "$t/cat.txt"; rc=$?
golden cat-config.txt "$t/cat.txt"
"$bin" cat-config --config-root "$t/root" --sysroot "$d" >/dev/null 2>&1
[ $? = 2 ] || t_fail "cat-config with a skipped file: want exit 2"
"$bin" cat-config --no-builtin --config /dev/null >/dev/null 2>&1
mkdir -p "$t/empty"
out=$("$bin" cat-config --no-builtin --config-root "$t/empty") || t_fail "cat-config --no-builtin of nothing: exit $?"
[ -z "$out" ] || t_fail "cat-config --no-builtin of nothing prints something"
# every source explain names is a line cat-config prints
src=$("$bin" --dry-run -J --config-root "$t/root" --sysroot "$d" 2>/dev/null | sed -n 's/.*"source": "\([^"]*\)".*/\1/p' | head -1)
"$bin" cat-config --config-root "$t/root" --sysroot "$d" 2>/dev/null | grep -q "^$src: " || t_fail "cat-config has no line $src"

# 5. list -a/-b: a loop device without a file (size 0) is hidden unless -a or named
mkdir -p "$t/loop" && cp -a "$fx/loop/." "$t/loop/"
echo 0 > "$t/loop/sys/devices/virtual/block/loop0/size"
[ -z "$("$bin" list -n -r -o NAME --sysroot "$t/loop")" ] || t_fail "list shows a disk of size 0"
[ "$("$bin" list -a -n -r -o NAME --sysroot "$t/loop")" = loop0 ] || t_fail "list -a hides loop0"
[ "$("$bin" list -n -r -o NAME --sysroot "$t/loop" loop0)" = loop0 ] || t_fail "list loop0 hides the named disk"
[ -z "$("$bin" status -n -r -o NAME --sysroot "$t/loop")" ] || t_fail "status shows a disk of size 0"
[ "$("$bin" status -a -n -r -o NAME --sysroot "$t/loop")" = loop0 ] || t_fail "status -a hides loop0"
[ "$("$bin" list -n -r -o SIZE --sysroot "$d")" = 128M ] || t_fail "list SIZE is not 128M"
[ "$("$bin" list -b -n -r -o SIZE --sysroot "$d")" = 134217728 ] || t_fail "list -b SIZE"
"$bin" list -J -o NAME,SIZE,AVAILABLE --sysroot "$d" | tr -d ' \n' | grep -qF '"size":134217728,"available":["mq-deadline","none"]' ||
        t_fail "list -J: size in bytes, available an array"
exit $fail
