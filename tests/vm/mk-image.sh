#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mk-image.sh: build (and cache) the Debian guest used by tests/vm.
#
#   tests/vm/mk-image.sh [--base-only]
#
# Two stages, each cached by a hash of its inputs:
#
#  1. base   mmdebstrap of the flavour's Debian release (the suite, below)
#            with systemd, udev, mdadm, multipath-tools, util-linux and its
#            kernels: for Debian 12 the kernels of EVERY bookworm-userland
#            flavour side by side (image-kernels.sh), one root file system
#            for all of them; for Debian 13 its own kernel and the newest of
#            trixie-backports (image-kernels-trixie.sh).
#            $VM_CACHE/base-<hash>/{root/, suite, kernels/<flavour>/{vmlinuz,
#            initrd.img,kernel-version}}.  Rebuilt only when the recipe (the
#            suite, this file's base section, the suite's hooks, the package
#            list, the mirror) changes; a new base replaces the older bases
#            of its suite only.
#  2. image  the base plus iosched installed from the work tree
#            (make install DESTDIR=... PREFIX=/usr; on Debian 13 the files of
#            the .debs built for it, VM_INSTALL_DEBS), the guest scripts in
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
#               from bookworm-backports), bullseye (5.10 from Debian 11), sid
#               (sid's newest, image-kernels.sh): a Debian 12 userland;
#               trixie: Debian 13 (its kernel, systemd, udev, initramfs-tools);
#               trixie-backports: the newest kernel Debian 13 has, in its userland
#   VM_SUITE    the base's release, from VM_KERNEL (trixie for trixie and
#               trixie-backports, bookworm for the others)
#   VM_MIRROR   Debian mirror (default http://deb.debian.org/debian)
#   VM_CACHE    cache directory (default /var/cache/iosched-vm)
#   VM_INSTALL_IOSCHED  1 (default) installs iosched from the work tree; 0 not
#   VM_INSTALL_DEBS     a directory of .debs whose files are installed instead
#               of the work tree's build (needed on Debian 13: a Debian 12
#               build links libaio.so.1, which Debian 13 renamed libaio.so.1t64);
#               unpacked as make install would, no maintainer script runs
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

case $VM_KERNEL in
bookworm | bookworm-backports | bullseye | sid) VM_SUITE=bookworm ;;
trixie | trixie-backports) VM_SUITE=trixie ;;
*)
	log "unknown VM_KERNEL=$VM_KERNEL (bookworm, bookworm-backports, bullseye, sid, trixie, trixie-backports)"
	exit 2 ;;
esac

PACKAGES="systemd,systemd-sysv,udev,kmod,mdadm,util-linux,procps,initramfs-tools,\
e2fsprogs,nvme-cli,lsscsi,sg3-utils,dmsetup,multipath-tools,nbd-client,nbd-server,psmisc,\
libsmartcols1,libudev1,libsystemd0,liburing2,jq,linux-image-amd64"
# the suite's hooks run before image-customize.sh; each writes ROOT/etc/iosched-vm-kernels
# ("flavour kernel-version" lines)
case $VM_SUITE in
bookworm)
	PACKAGES="$PACKAGES,libaio1"
	# every flavour's suite is in the base's sources: image-kernels.sh installs
	# the other flavours' kernels next to bookworm's
	MIRRORS=("deb $VM_MIRROR bookworm main" "deb $VM_MIRROR bookworm-updates main"
		"deb $VM_MIRROR bookworm-backports main" "deb $VM_MIRROR bullseye main")
	KERNEL_HOOK="\"$here/image-kernels.sh\" \"\$1\""
	HOOK_FILES=("$here/image-kernels.sh")
	;;
trixie)
	# the 64-bit time_t transition renamed libaio1 (Provides: libaio1 on amd64)
	PACKAGES="$PACKAGES,libaio1t64"
	MIRRORS=("deb $VM_MIRROR trixie main" "deb $VM_MIRROR trixie-updates main"
		"deb $VM_MIRROR trixie-backports main")
	KERNEL_HOOK="\"$here/image-kernels-trixie.sh\" \"\$1\""
	HOOK_FILES=("$here/image-kernels-trixie.sh")
	;;
esac

mkdir -p "$VM_CACHE"
# one lock per suite for its base (two suites' bases build side by side),
# held to the end; the image stage (a shared build directory, the pruning of
# images) under one more lock, always taken second
exec 8>"$VM_CACHE/.lock-base-$VM_SUITE"
flock 8

# ---------------------------------------------------------------- base stage
base_key=$( {
	echo "suite=$VM_SUITE mirror=$VM_MIRROR pkgs=$PACKAGES"
	printf '%s\n' "${MIRRORS[@]}" "${KERNEL_HOOK//"$here"/}"
	sed -n '/^# ---------------------------------------------------------------- base stage/,/^# ---------------------------------------------------------------- image stage/p' "$0"
	cat "${HOOK_FILES[@]}" "$here/image-customize.sh"
} | sha256sum | cut -c1-16)
BASE=$VM_CACHE/base-$base_key

if [ ! -e "$BASE/stamp" ]; then
	log "building base image $BASE ($VM_SUITE, mmdebstrap, a few minutes)"
	rm -rf "$BASE" "$BASE.tmp"
	mkdir -p "$BASE.tmp"
	t0=$(date +%s)
	if ! mmdebstrap --mode=root --variant=minbase --format=directory \
		--aptopt='Apt::Install-Recommends "false"' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--include="$PACKAGES" \
		--customize-hook="$KERNEL_HOOK" \
		--customize-hook="\"$here/image-customize.sh\" \"\$1\"" \
		"$VM_SUITE" "$BASE.tmp/root" "${MIRRORS[@]}" >"$BASE.tmp/mmdebstrap.log" 2>&1; then
		tail -n 40 "$BASE.tmp/mmdebstrap.log" >&2
		log "mmdebstrap failed (log: $BASE.tmp/mmdebstrap.log)"
		exit 1
	fi
	# the kernel hook wrote "flavour kernel-version" lines; a kernel is in
	# /boot or (newer packages) in /usr/lib/modules/KVER
	while read -r fl kv; do
		mkdir -p "$BASE.tmp/kernels/$fl"
		vmlinuz=$BASE.tmp/root/boot/vmlinuz-$kv
		[ -e "$vmlinuz" ] || vmlinuz=$BASE.tmp/root/usr/lib/modules/$kv/vmlinuz
		cp "$vmlinuz" "$BASE.tmp/kernels/$fl/vmlinuz"
		cp "$BASE.tmp/root/boot/initrd.img-$kv" "$BASE.tmp/kernels/$fl/initrd.img"
		echo "$kv" >"$BASE.tmp/kernels/$fl/kernel-version"
	done <"$BASE.tmp/root/etc/iosched-vm-kernels"
	echo "$(($(date +%s) - t0))" >"$BASE.tmp/build-seconds"
	echo "$VM_SUITE" >"$BASE.tmp/suite"
	touch "$BASE.tmp/stamp"
	mv "$BASE.tmp" "$BASE"
	log "base image built in $(cat "$BASE/build-seconds") s, kernels: $(tr '\n' ' ' <"$BASE/root/etc/iosched-vm-kernels")"
	# drop older bases of this suite (a base without a suite file is bookworm's)
	for old in "$VM_CACHE"/base-*; do
		[ "$old" = "$BASE" ] && continue
		if [ "$(cat "$old/suite" 2>/dev/null || echo bookworm)" = "$VM_SUITE" ]; then rm -rf "$old"; fi
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
exec 9>"$VM_CACHE/.lock"
flock 9
ovl=$(mktemp -d "$VM_CACHE/overlay.XXXXXX")
stage=
cleanup() { rm -rf "$ovl" ${stage:+"$stage"}; }
trap cleanup EXIT

if [ "$VM_INSTALL_IOSCHED" = 1 ] && [ -n "${VM_INSTALL_DEBS:-}" ]; then
	found=0
	for deb in "$VM_INSTALL_DEBS"/*.deb; do
		[ -e "$deb" ] || continue
		case ${deb##*/} in *-dbgsym_*) continue ;; esac
		dpkg-deb -x "$deb" "$ovl" || { log "cannot unpack $deb"; exit 1; }
		found=1
	done
	[ $found = 1 ] || { log "no .deb in VM_INSTALL_DEBS=$VM_INSTALL_DEBS"; exit 1; }
elif [ "$VM_INSTALL_IOSCHED" = 1 ]; then
	# a build directory of its own: files generated with PREFIX baked in
	# (the udev rule's RUN path) must not come from a /usr/local build, and
	# build/ of the work tree stays untouched (CI builds the packages and
	# runs the contrib tests there meanwhile); one per work tree, as make
	# goes by the sources' times
	bdir=$VM_CACHE/build-$(printf '%s' "$top" | sha256sum | cut -c1-12)
	mkargs=(-s -j"$(nproc 2>/dev/null || echo 1)" -C "$top" BUILDDIR="$bdir" PREFIX=/usr SYSCONFDIR=/etc
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
# the host's invariant test over every tunable, run in the guest on its kernel (TUNABLES)
install -d "$ovl/usr/local/lib/iosched-vm/tree/tests/integration"
install -m 0644 "$top/tests/shim.sh" "$ovl/usr/local/lib/iosched-vm/tree/tests/"
install -m 0755 "$top/tests/integration/lib.sh" "$top/tests/integration/apply-invariant.sh" \
	"$ovl/usr/local/lib/iosched-vm/tree/tests/integration/"
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
	# keep the six newest images (e2e and package test images of two trees,
	# the Debian 13 package test's)
	ls -1t "$VM_CACHE"/img-*.raw 2>/dev/null | tail -n +7 | xargs -r rm -f
else
	# newest use first: the pruning above keeps what is in use
	touch "$IMG"
	log "image $IMG up to date"
fi

echo "VM_VMLINUZ=$KDIR/vmlinuz VM_INITRD=$KDIR/initrd.img VM_IMAGE=$IMG VM_KVER=$KVER VM_BASE=$BASE"
