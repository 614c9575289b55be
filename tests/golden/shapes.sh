#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The machines people have (issue 20), through the command line:
# --dry-run on a dm-multipath host plans the multipath device and leaves its
# paths alone (explain says why); optical and floppy drives are left alone
# and counted apart by status, facts and Prometheus; a disk without a dev
# file is listed with a warning; explain does not call a legacy queue
# bio-based; a captured tree owned by a normal user is read with --sysroot
# (no ownership check of the capture's policy directories).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
t=$(mktemp -d) || exit 1
chmod 0755 "$t"
trap 'rm -rf "$t"' EXIT
MP=sys/devices/virtual/block/dm-0
SDA=sys/devices/pci0000:00/0000:00:0d.0/virtio4/host0/target0:0:0/0:0:0:0/block/sda

# 1. multipath: the device is planned, the paths are not (even at the "wrong" scheduler);
# its paths are an array's LUNs (NETAPP LUN C-Mode), so none whatever rotational says
cp -a "$fx/derived-dm-multipath" "$t/mp"
printf '[mq-deadline] kyber bfq none\n' > "$t/mp/$MP/queue/scheduler"
printf '[none] mq-deadline\n' > "$t/mp/$SDA/queue/scheduler"
out=$(${IOS_VALGRIND:-} "$bin" --dry-run --sysroot "$t/mp" 2>&1)
echo "$out" | grep -qxF 'dm-0: would set scheduler: mq-deadline -> none (built-in:5)' ||
        t_fail "multipath: dm-0 not planned: $out"
echo "$out" | grep -q '^sd[ab]:.*would set' && t_fail "multipath: a path was planned: $out"
out=$("$bin" explain --sysroot "$t/mp" sda)
echo "$out" | grep -qF 'note: path of dm-multipath device dm-0: its scheduler is bypassed' ||
        t_fail "explain sda: no note: $out"
out=$("$bin" --dry-run -J --sysroot "$t/mp")
echo "$out" | grep -q '"name": "dm-0", "class": "multipath"' || t_fail "dry-run -J: dm-0 is not multipath"
# a site rule may still name a path
mkdir -p "$t/mp/etc/iosched.d"
printf '[Match]\nName=sda\n[Set]\nScheduler=mq-deadline\n' > "$t/mp/etc/iosched.d/50-path.conf"
chmod 0644 "$t/mp/etc/iosched.d/50-path.conf"
out=$("$bin" --dry-run --sysroot "$t/mp" 2>&1)
echo "$out" | grep -qxF 'sda: would set scheduler: none -> mq-deadline (ROOT/etc/iosched.d/50-path.conf:4)' ||
        echo "$out" | grep -q '^sda: would set scheduler: none -> mq-deadline (.*50-path.conf:4)$' ||
        t_fail "a site rule naming a path: $out"

# 2. a captured tree owned by a normal user: its policy is read (no ownership check), exit 0
chown -R 1000:1000 "$t/mp" 2>/dev/null || true
if [ "$(stat -c %u "$t/mp/etc/iosched.d/50-path.conf")" = 1000 ]; then
        env -u IOS_FAULT_ANY_OWNER "$bin" --dry-run --sysroot "$t/mp" > "$t/o" 2>&1
        rc=$?
        [ $rc = 0 ] || t_fail "--sysroot owned by uid 1000: exit $rc: $(cat "$t/o")"
        grep -q '^sda: would set scheduler: none -> mq-deadline (.*50-path.conf:4)$' "$t/o" ||
                t_fail "--sysroot owned by uid 1000: the capture's policy was not read: $(cat "$t/o")"
else
        echo "not root: the uid-1000 capture case is not run"
fi

# 3. optical and floppy: left alone, counted apart
for f in derived-ahci-dvd:sr0 derived-virtio-scsi-cdrom:sr0 derived-floppy:fd0; do
        d=$fx/${f%%:*} dev=${f#*:}
        out=$("$bin" --dry-run --sysroot "$d" 2>&1)
        echo "$out" | grep -q "^$dev: would" && t_fail "$f: planned: $out"
        "$bin" status --sysroot "$d" | grep -qx '0 disks, 1 removable-media drive, 0 settings drifting on 0 disks' ||
                t_fail "$f: status footer"
        "$bin" status -J --sysroot "$d" | grep -q '"disks": \[\],' || t_fail "$f: status -J lists it as a disk"
        "$bin" facts -J --sysroot "$d" | grep -q '"removable_media_drives": \[$' || t_fail "$f: facts -J"
        "$bin" --format prometheus --sysroot "$d" > "$t/p" 2>/dev/null
        grep -qx 'iosched_disks 0' "$t/p" && grep -qx 'iosched_removable_media_drives 1' "$t/p" ||
                t_fail "$f: prometheus counts"
done

# 4. a disk without a dev file: listed, with a warning
"$bin" list -a -n -r -o NAME,CLASS --sysroot "$fx/derived-no-dev" > "$t/o" 2> "$t/e" || t_fail "no-dev: list exit $?"
grep -qx 'sdd virtual' "$t/o" || t_fail "no-dev: not listed: $(cat "$t/o")"
grep -qxF 'iosched-apply: warning: sdd: no dev file in sys/block/sdd: listed without a device number' "$t/e" ||
        t_fail "no-dev: no warning: $(cat "$t/e")"

# 5. a legacy queue (4.19, cfq) is no bio-based queue
out=$("$bin" explain --sysroot "$fx/derived-legacy-cfq-4.19" sdd)
echo "$out" | grep -q 'bio-based' && t_fail "legacy queue called bio-based: $out"
echo "$out" | grep -qxF '  queue       legacy request queue (single-queue block layer)' || t_fail "legacy: $out"
echo "$out" | grep -qxF '  scheduler   cfq (available: noop deadline cfq)' || t_fail "legacy scheduler: $out"
exit $fail
