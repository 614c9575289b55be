#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# image-customize.sh ROOT: mmdebstrap customize hook for the tests/vm guest.
# Part of the base image recipe: changing this file rebuilds the base.
set -eu
R=$1

echo iosched-vm >"$R/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 iosched-vm\n' >"$R/etc/hosts"
echo 'LABEL=iosched-root / ext4 defaults,errors=remount-ro 0 1' >"$R/etc/fstab"
chroot "$R" passwd -d root >/dev/null

# Nothing periodic or interactive: the guest runs one payload and powers off.
for u in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service \
	fstrim.timer man-db.timer mdcheck_start.timer mdcheck_continue.timer \
	mdmonitor-oneshot.timer mdmonitor.service getty@tty1.service getty-static.service \
	nbd-server.service systemd-timesyncd.service; do
	ln -sf /dev/null "$R/etc/systemd/system/$u"
done
# no mail for mdadm, no array auto-assembly surprises from leftovers
sed -i 's/^#\?MAILADDR.*/MAILADDR root/' "$R/etc/mdadm/mdadm.conf" 2>/dev/null || true

# journald: keep the log in memory, quiet console
mkdir -p "$R/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\n' >"$R/etc/systemd/journald.conf.d/iosched-vm.conf"

# Smaller kernel: drop module trees no test disk needs.
for kdir in "$R"/lib/modules/*; do
	[ -d "$kdir/kernel" ] || continue
	for d in sound drivers/gpu drivers/media drivers/net/wireless drivers/net/ethernet \
		drivers/infiniband drivers/staging drivers/iio drivers/bluetooth drivers/isdn \
		drivers/video drivers/hwmon drivers/input/touchscreen drivers/input/joystick \
		drivers/input/misc drivers/net/can drivers/net/usb drivers/net/wwan \
		drivers/comedi drivers/mtd drivers/hid net/wireless net/mac80211 net/bluetooth \
		net/netfilter net/ipv4/netfilter net/ipv6/netfilter net/bridge net/sched \
		fs/btrfs fs/xfs fs/ocfs2 fs/gfs2 fs/nfs fs/nfsd fs/cifs fs/smb fs/ceph fs/f2fs \
		fs/ntfs3 fs/reiserfs fs/jfs fs/nilfs2 fs/ubifs fs/afs fs/dlm; do
		rm -rf "${kdir:?}/kernel/$d"
	done
	chroot "$R" depmod -a "${kdir##*/}"
done

# Small initramfs: only what mounts the virtio-blk ext4 root. Every other
# disk driver then loads after switch-root, under the real udev and its rules.
# gzip -1: the image has no zstd (mkinitramfs would fall back to gzip -9),
# and gzip -9 of its 35 MB cpio is most of an update-initramfs run under TCG
# (9.2 s of host CPU against 0.6 s at -1, 10 % larger); the package test's
# trigger rebuilds it in the guest
cat >"$R/etc/initramfs-tools/conf.d/iosched-vm" <<'EOF'
MODULES=list
COMPRESS=gzip
COMPRESSLEVEL=1
EOF
# nbd-client's two hooks (for a root on NBD) put every network driver in the
# initramfs whatever MODULES says (auto_add_modules net): two thirds of the
# programs an update-initramfs run starts (3,502 -> 1,163 on 6.1) and 5.6 of
# its 13.9 MB. The guest's root is never on NBD and its nbd disks connect
# after the switch-root, so they are diverted out of hooks/ (mkinitramfs runs
# every executable file there); dpkg keeps them there on an upgrade
mkdir -p "$R/usr/share/initramfs-tools/hooks.iosched-vm-off"
for h in nbd nbd-client; do
	[ -e "$R/usr/share/initramfs-tools/hooks/$h" ] || continue
	chroot "$R" dpkg-divert --quiet --local --rename \
		--divert "/usr/share/initramfs-tools/hooks.iosched-vm-off/$h" \
		--add "/usr/share/initramfs-tools/hooks/$h"
done
cat >"$R/etc/initramfs-tools/modules" <<'EOF'
virtio_pci
virtio_blk
ext4
crc32c_generic
EOF
chroot "$R" update-initramfs -u -k all >/dev/null 2>&1 || chroot "$R" update-initramfs -u -k all

rm -rf "$R"/var/cache/apt/*.bin "$R"/var/lib/apt/lists/*_Packages "$R"/var/log/*.log
