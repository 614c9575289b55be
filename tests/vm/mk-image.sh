#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mk-image.sh: build (and cache) the Debian guest used by tests/vm.
#
#   tests/vm/mk-image.sh [--base-only]
#
# Two stages, each cached by a hash of its inputs:
#
#  1. base   mmdebstrap of Debian 12 with systemd, udev, mdadm, multipath-tools,
#            util-linux and the Debian kernels of EVERY flavour side by side
#            (image-kernels.sh): one root file system for all kernels.
#            $VM_CACHE/base-<hash>/{root/, kernels/<flavour>/{vmlinuz,
#            initrd.img,kernel-version}}.  Rebuilt only when the recipe (this
#            file's base section, image-kernels.sh, image-customize.sh, the
#            package list, the mirror) changes.
#  2. image  the base plus iosched installed from the work tree
#            (make install DESTDIR=... PREFIX=/usr), the guest scripts in
#            tests/vm/guest/ and tests/mk-fixture.sh, as an ext4 image with label
#            iosched-root: $VM_CACHE/img-<hash>.raw, the same for every kernel
#            flavour.  Rebuilt when the installed files change.
#
# The kernel flavour is only picked at boot (-kernel/-initrd of that flavour):
# a second or third kernel costs no image build.
#
# Prints shell assignments for the caller on stdout (eval them):
#   VM_VMLINUZ=... VM_INITRD=... VM_IMAGE=... VM_KVER=...
#
# Environment:
#   VM_KERNEL   bookworm (default: Debian 12's 6.1), bookworm-backports (6.x
#               from bookworm-backports), bullseye (5.10 from Debian 11)
#   VM_MIRROR   Debian mirror (default http://deb.debian.org/debian)
#   VM_CACHE    cache directory (default /var/cache/iosched-vm)
#   VM_INSTALL_IOSCHED  1 (default) installs iosched from the work tree; 0 not
#   VM_EXTRA_CONF       extra lines for /etc/iosched-vm.conf in the guest
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
VM_KERNEL=${VM_KERNEL:-bookworm}
VM_MIRROR=${VM_MIRROR:-http://deb.debian.org/debian}
VM_CACHE=${VM_CACHE:-/var/cache/iosched-vm}
VM_INSTALL_IOSCHED=${VM_INSTALL_IOSCHED:-1}
BASE_ONLY=0
[ "${1:-}" = --base-only ] && BASE_ONLY=1

log() { echo "mk-image: $*" >&2; }

for t in mmdebstrap mkfs.ext4; do
	command -v "$t" >/dev/null 2>&1 || { log "$t not installed"; exit 77; }
done
[ "$(id -u)" = 0 ] || { log "needs root (mmdebstrap --mode=root, mkfs -d ownership)"; exit 77; }

PACKAGES="systemd,systemd-sysv,udev,kmod,mdadm,util-linux,procps,initramfs-tools,\
e2fsprogs,nvme-cli,lsscsi,sg3-utils,dmsetup,multipath-tools,nbd-client,nbd-server,psmisc,\
libsmartcols1,libudev1,libsystemd0,liburing2,libaio1,jq,linux-image-amd64"
# every flavour's suite is in the base's sources: image-kernels.sh installs
# the bookworm-backports and bullseye kernels next to bookworm's
MIRRORS=("deb $VM_MIRROR bookworm main" "deb $VM_MIRROR bookworm-updates main"
	"deb $VM_MIRROR bookworm-backports main" "deb $VM_MIRROR bullseye main")
case $VM_KERNEL in
bookworm | bookworm-backports | bullseye | sid) ;;
*)
	log "unknown VM_KERNEL=$VM_KERNEL (bookworm, bookworm-backports, bullseye, sid)"
	exit 2 ;;
esac

mkdir -p "$VM_CACHE"
exec 9>"$VM_CACHE/.lock"
flock 9

# ---------------------------------------------------------------- base stage
base_key=$( {
	echo "mirror=$VM_MIRROR pkgs=$PACKAGES"
	printf '%s\n' "${MIRRORS[@]}"
	sed -n '/^# ---------------------------------------------------------------- base stage/,/^# ---------------------------------------------------------------- image stage/p' "$0"
	cat "$here/image-kernels.sh" "$here/image-customize.sh"
} | sha256sum | cut -c1-16)
BASE=$VM_CACHE/base-$base_key

if [ ! -e "$BASE/stamp" ]; then
	log "building base image $BASE (mmdebstrap, three kernels, a few minutes)"
	rm -rf "$BASE" "$BASE.tmp"
	mkdir -p "$BASE.tmp"
	t0=$(date +%s)
	if ! mmdebstrap --mode=root --variant=minbase --format=directory \
		--aptopt='Apt::Install-Recommends "false"' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--include="$PACKAGES" \
		--customize-hook="\"$here/image-kernels.sh\" \"\$1\"" \
		--customize-hook="\"$here/image-customize.sh\" \"\$1\"" \
		bookworm "$BASE.tmp/root" "${MIRRORS[@]}" >"$BASE.tmp/mmdebstrap.log" 2>&1; then
		tail -n 40 "$BASE.tmp/mmdebstrap.log" >&2
		log "mmdebstrap failed (log: $BASE.tmp/mmdebstrap.log)"
		exit 1
	fi
	# image-kernels.sh wrote "flavour kernel-version" lines
	while read -r fl kv; do
		mkdir -p "$BASE.tmp/kernels/$fl"
		cp "$BASE.tmp/root/boot/vmlinuz-$kv" "$BASE.tmp/kernels/$fl/vmlinuz"
		cp "$BASE.tmp/root/boot/initrd.img-$kv" "$BASE.tmp/kernels/$fl/initrd.img"
		echo "$kv" >"$BASE.tmp/kernels/$fl/kernel-version"
	done <"$BASE.tmp/root/etc/iosched-vm-kernels"
	echo "$(($(date +%s) - t0))" >"$BASE.tmp/build-seconds"
	touch "$BASE.tmp/stamp"
	mv "$BASE.tmp" "$BASE"
	log "base image built in $(cat "$BASE/build-seconds") s, kernels: $(tr '\n' ' ' <"$BASE/root/etc/iosched-vm-kernels")"
	# drop older bases (of any recipe)
	for old in "$VM_CACHE"/base-*; do
		[ "$old" = "$BASE" ] || rm -rf "$old"
	done
fi
KDIR=$BASE/kernels/$VM_KERNEL
[ -r "$KDIR/kernel-version" ] || { log "no $VM_KERNEL kernel in $BASE"; exit 1; }
KVER=$(cat "$KDIR/kernel-version")
if [ "$BASE_ONLY" = 1 ]; then
	echo "VM_VMLINUZ=$KDIR/vmlinuz VM_INITRD=$KDIR/initrd.img VM_KVER=$KVER VM_BASE=$BASE"
	exit 0
fi

# ---------------------------------------------------------------- image stage
ovl=$(mktemp -d "$VM_CACHE/overlay.XXXXXX")
stage=
cleanup() { rm -rf "$ovl" ${stage:+"$stage"}; }
trap cleanup EXIT

if [ "$VM_INSTALL_IOSCHED" = 1 ]; then
	# a build directory of its own: files generated with PREFIX baked in
	# (the udev rule's RUN path) must not come from a /usr/local build
	mkargs=(-s -C "$top" BUILDDIR="$VM_CACHE/build" PREFIX=/usr SYSCONFDIR=/etc
		UDEVDIR=/usr/lib/udev SYSTEMDUNITDIR=/usr/lib/systemd/system)
	if ! make "${mkargs[@]}" >"$VM_CACHE/make.log" 2>&1 ||
		! make "${mkargs[@]}" install DESTDIR="$ovl" >>"$VM_CACHE/make.log" 2>&1; then
		cat "$VM_CACHE/make.log" >&2
		log "building/installing iosched failed"
		exit 1
	fi
fi
install -d "$ovl/usr/local/lib/iosched-vm" "$ovl/etc/systemd/system/multi-user.target.wants"
install -m 0755 "$here"/guest/*.sh "$top/tests/mk-fixture.sh" "$ovl/usr/local/lib/iosched-vm/"
install -m 0644 "$here"/guest/*.service "$ovl/etc/systemd/system/"
install -m 0644 "$here/guest/multipath.conf" "$ovl/etc/multipath.conf"
ln -s ../iosched-vm-guest.service "$ovl/etc/systemd/system/multi-user.target.wants/iosched-vm-guest.service"
{
	echo "# written by tests/vm/mk-image.sh"
	echo "VM_INSTALL_IOSCHED=$VM_INSTALL_IOSCHED"
	[ -n "${VM_EXTRA_CONF:-}" ] && printf '%s\n' "$VM_EXTRA_CONF"
} >"$ovl/etc/iosched-vm.conf"

img_key=$( {
	echo "$base_key"
	tar -C "$ovl" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . | sha256sum
} | sha256sum | cut -c1-16)
IMG=$VM_CACHE/img-$img_key.raw

if [ ! -e "$IMG" ]; then
	t0=$(date +%s)
	stage=$(mktemp -d "$VM_CACHE/stage.XXXXXX")
	cp -a "$BASE/root/." "$stage/"
	cp -a "$ovl/." "$stage/"
	# if iosched ships an initramfs hook, the guest's initramfs must carry it
	# (the kernel/initrd used to boot are the base ones otherwise)
	size_mb=$(($(du -sm "$stage" | cut -f1) + 384))
	rm -f "$IMG.tmp"
	mkfs.ext4 -q -F -L iosched-root -d "$stage" "$IMG.tmp" "${size_mb}M" >&2
	mv "$IMG.tmp" "$IMG"
	log "image $IMG built in $(($(date +%s) - t0)) s"
	# keep the four newest images (e2e and package test images of two trees)
	ls -1t "$VM_CACHE"/img-*.raw 2>/dev/null | tail -n +5 | xargs -r rm -f
else
	# newest use first: the pruning above keeps what is in use
	touch "$IMG"
	log "image $IMG up to date"
fi

echo "VM_VMLINUZ=$KDIR/vmlinuz VM_INITRD=$KDIR/initrd.img VM_IMAGE=$IMG VM_KVER=$KVER VM_BASE=$BASE"
