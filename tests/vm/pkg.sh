#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/vm/pkg.sh: the Debian package on a real Debian system.
# `make check-vm-pkg` runs it: Debian 12 with its 6.1; VM_KERNEL=trixie for
# Debian 13 (its 6.12, systemd's udev, initramfs-tools: the .debs built on
# Debian 12 installed as they are), VM_KERNEL=bookworm-backports for Debian
# 12 with 6.12.
#
# Builds the .debs for the guest's release (Debian 12: tests/pkg/deb-build.sh
# on the host; Debian 13: tests/pkg/deb-build-chroot.sh trixie, as Debian 12's
# iosched-bench depends on libaio1, which Debian 13 renamed libaio1t64 with no
# Provides), or takes them from VM_DEBS=dir, boots the guest image *without* iosched (mk-image.sh with
# VM_INSTALL_IOSCHED=0) and a few disks, and in two boots of one overlay:
#   1. pkg-install: apt-get install ./iosched_*.deb (no network in the guest),
#      the policy in force at once, the initramfs rebuilt by the package's
#      trigger, a root-disk drop-in taken into it with update-initramfs -u;
#      the guest hands its own kernel and initramfs to the host;
#   2. pkg-boot: booted from exactly that kernel and initramfs, the root disk
#      got its scheduler in the initramfs before the root mount (kernel log
#      timestamps), every disk is on its policy, --check exits 0, apt-get
#      remove takes the rule away and leaves the schedulers, purge removes
#      /etc/iosched*.
# Exit: 0 pass, 1 fail, 77 skip (qemu/mmdebstrap/root or dpkg-buildpackage missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
VM_TOP=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
vm_need_tools

T_START=$(date +%s)
WORK=${VM_WORKDIR:-/var/tmp/iosched-vm-pkg}
VM_TIMEOUT=${VM_TIMEOUT:-600}
# boot to the payload: 20-60 s on an idle host, 175-300 s and more under TCG
# on a loaded 2-core host (Debian 13's first boot: ldconfig, multipathd and
# the udev coldplug take minutes there)
VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-600}
vm_setup "$WORK"
mkdir -p "$WORK/share/debs"

if [ -n "${VM_DEBS:-}" ]; then
	cp "$VM_DEBS"/*.deb "$WORK/share/debs/" || { vm_log "no .deb in $VM_DEBS"; exit 1; }
else
	if [ "${VM_KERNEL:-}" = trixie ]; then
		vm_log "building the .debs in a Debian 13 chroot (tests/pkg/deb-build-chroot.sh trixie)"
		"$VM_TOP/tests/pkg/deb-build-chroot.sh" trixie "$WORK/deb" >"$WORK/deb-build.log" 2>&1
	else
		vm_log "building the .debs (tests/pkg/deb-build.sh)"
		"$VM_TOP/tests/pkg/deb-build.sh" "$WORK/deb" >"$WORK/deb-build.log" 2>&1
	fi
	rc=$?
	[ $rc = 77 ] && { tail -n 1 "$WORK/deb-build.log"; exit 77; }
	[ $rc = 0 ] || { tail -n 40 "$WORK/deb-build.log" >&2; vm_log "deb build failed"; exit 1; }
	cp "$WORK"/deb/*.deb "$WORK/share/debs/"
fi
ls "$WORK"/share/debs/iosched_*.deb >/dev/null 2>&1 || { vm_log "no iosched_*.deb"; exit 1; }

export VM_INSTALL_IOSCHED=0
vm_image || { vm_log "image build failed"; exit 1; }
vm_log "image without iosched ready in ${VM_IMAGE_SECONDS}s: kernel $VM_KVER"

vm_disks_tsv_init "$WORK/share/disks.tsv"
vm_disks_common
vm_add -device virtio-scsi-pci,id=vscsi,num_queues=1
vm_disk virtio-scsi 64M
vm_add -device scsi-hd,drive=virtio-scsi,bus=vscsi.0,serial=VSCSI001,rotation_rate=1
vm_disk_row virtio-scsi 'scsi-*_VSCSI001' virtual none

trap vm_kill EXIT
fail=0
# boot MODE [EXTRA-KERNEL-ARGS]: one boot, its results shown; sets fail
boot() {
	local mode=$1 res
	vm_start "$mode" "${2:-}"
	if ! vm_wait_for '^GUEST-UP' "$VM_BOOT_TIMEOUT" >/dev/null; then
		vm_log "$mode: guest did not come up"; tail -n 40 "$WORK/console.log" >&2; fail=1; return
	fi
	vm_log "$mode: guest up after $(vm_elapsed)s"
	if ! vm_wait_for '^GUEST-DONE' "$VM_TIMEOUT" >/dev/null; then
		vm_log "$mode: guest did not finish"; tail -n 30 "$WORK/console.log" >&2; vm_kill; fail=1
	else
		vm_wait_exit 60
	fi
	tr -d '\r' <"$WORK/results.log" | sed 's/^/  | /'
	cp "$WORK/results.log" "$WORK/results-$mode.log"
	res=$(grep -a -m1 '^PAYLOAD-RESULT' "$WORK/results.log" | tr -d '\r')
	case $res in "PAYLOAD-RESULT PASS"*) ;; *) vm_log "$mode FAILED: ${res:-no result}"; fail=1 ;; esac
	[ -e "$WORK/share/journal.txt" ] && mv "$WORK/share/journal.txt" "$WORK/journal-$mode.txt"
}

boot pkg-install
if [ $fail = 0 ]; then
	[ -s "$WORK/share/vmlinuz" ] && [ -s "$WORK/share/initrd.img" ] || { vm_log "no kernel from the guest"; exit 1; }
	# the guest's own kernel and the initramfs its package rebuilt
	VM_VMLINUZ=$WORK/share/vmlinuz VM_INITRD=$WORK/share/initrd.img
	boot pkg-boot iosched_vm.own_initrd=1
fi
vm_log "logs: $WORK/results-*.log, $WORK/journal-*.txt, $WORK/share/kernel-log.txt; total $(($(date +%s) - T_START))s (kernel $VM_KVER)"
[ $fail = 0 ] && echo "vm-pkg: PASS" || echo "vm-pkg: FAIL"
exit $fail
