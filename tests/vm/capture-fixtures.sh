#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# capture-fixtures.sh [NAME...]
#
# Regenerates the real-kernel sysfs fixture trees in tests/fixtures/<NAME>/:
# boots the tests/vm guest (Debian 12 kernel by default; VM_KERNEL selects
# another, see mk-image.sh) under QEMU TCG with one emulated disk per fixture,
# the guest's capture.sh runs tests/mk-fixture.sh -S for each disk (found by
# serial under /dev/disk/by-id) and leaves a tarball on the 9p share; this
# script unpacks it, adds .gitkeep files to empty directories and replaces
# the trees. Without NAMEs every captured tree is replaced.
#
# The guest gets no iosched installed, so queue/scheduler holds the kernel's
# own default. Exit 77 when qemu/mmdebstrap are missing.
#
# With another kernel flavour (VM_KERNEL=bookworm-backports|bullseye) the
# trees are named <name>-<major.minor> (e.g. nvme-zoned-6.12);
# FIXTURE_SUFFIX overrides the suffix. The trees of issue 20 (names vm-*:
# optical, floppy, emulated/hypervisor disks, dm-multipath, ram disks) always
# carry the kernel: vm-ahci-dvd-6.1.
set -u
here=$(cd "$(dirname "$0")" && pwd)
VM_TOP=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
vm_need_tools

WORK=${VM_WORKDIR:-/var/tmp/iosched-vm-capture}
DEST=${FIXTURES_DIR:-$VM_TOP/tests/fixtures}
vm_setup "$WORK"
VM_INSTALL_IOSCHED=0 vm_image || { vm_log "image build failed"; exit 1; }
vm_log "image ready (${VM_IMAGE_SECONDS}s): kernel $VM_KVER"
kmm=${VM_KVER%%-*}
kmm=${kmm%.*}
if [ "${VM_KERNEL:-bookworm}" = bookworm ]; then
	SUFFIX=${FIXTURE_SUFFIX:-}
else
	SUFFIX=${FIXTURE_SUFFIX--$kmm}
fi

# ahci-sata-hdd: the q35 ICH9 AHCI, port 0
vm_disk hdd 128M
vm_add -device ide-hd,drive=hdd,bus=ide.0,serial=FIXHDD01,rotation_rate=7200
# megaraid-ld: a logical drive on an emulated LSI SAS2108 (PERC H700/H800)
vm_add -device megasas-gen2,id=mega
vm_disk mega 128M
vm_add -device scsi-hd,drive=mega,bus=mega.0,serial=FIXMEGA1
# megaraid-jbod: the same HBA with use_jbod=on (a pass-through "system PD")
vm_add -device megasas-gen2,id=megaj,use_jbod=on
vm_disk megaj 128M
vm_add -device scsi-hd,drive=megaj,bus=megaj.0,serial=FIXJBOD1,rotation_rate=1
# nvme-zoned: host-managed ZNS namespace
vm_add -device nvme,id=nvmez,serial=FIXZNS01
vm_disk zns 256M
vm_add -device nvme-ns,drive=zns,bus=nvmez,nsid=1,zoned=true,zoned.zone_size=16M,zoned.zone_capacity=16M
# nvme-multipath: one subsystem, two controllers (QEMU wants the same serial
# for both), one shared namespace
vm_add -device nvme-subsys,id=mpsub,nqn=nqn.2024-01.org.iosched:mp
vm_add -device nvme,id=mpc0,serial=FIXMP01,subsys=mpsub
vm_add -device nvme,id=mpc1,serial=FIXMP01,subsys=mpsub
vm_disk mpns 128M
vm_add -device nvme-ns,drive=mpns,bus=mpc0,nsid=1,shared=on
# sd-card: SD card on an SDHCI PCI controller (size must be a power of two)
vm_add -device sdhci-pci
vm_disk sd 64M
vm_add -device sd-card,drive=sd
# usb-stick: USB mass storage (BOT) on xHCI, removable medium
vm_add -device qemu-xhci,id=xhci
vm_disk usb 128M
vm_add -device usb-storage,drive=usb,bus=xhci.0,serial=FIXUSB01,removable=on
# md-raid1: the guest builds it over these two virtio disks
vm_disk md1 64M
vm_add -device virtio-blk-pci,drive=md1,serial=FIXMD01
vm_disk md2 64M
vm_add -device virtio-blk-pci,drive=md2,serial=FIXMD02
# virtio-scsi-hdd: scsi-hd rotation_rate=7200 on a single-queue virtio-scsi HBA
vm_add -device virtio-scsi-pci,id=vsh,num_queues=1
vm_disk vsh 128M
vm_add -device scsi-hd,drive=vsh,bus=vsh.0,serial=FIXVSH01,rotation_rate=7200
# --- issue 20: removable-media drives, emulated and hypervisor disks, SAN ---
# vm-ahci-dvd: ATAPI DVD drive with a disc on the q35 AHCI (port 1)
truncate -s 4M "$WORK/disc.iso"
vm_add -drive "if=none,id=dvd,file=$WORK/disc.iso,format=raw,media=cdrom,readonly=on"
vm_add -device ide-cd,drive=dvd,bus=ide.1,serial=FIXDVD01
# vm-ahci-qemu: QEMU's default model on AHCI (port 2): "QEMU HARDDISK", rotational
vm_disk aq 64M
vm_add -device ide-hd,drive=aq,bus=ide.2,serial=FIXAQ001
# vm-ahci-wdc-hdd / vm-ahci-samsung-ssd: real drives' model strings (ports 3, 4)
vm_disk wdc 64M
vm_add -device "ide-hd,drive=wdc,bus=ide.3,serial=FIXWDC01,rotation_rate=7200,model=WDC WD10EZEX-08WN4A0"
vm_disk sam 64M
vm_add -device "ide-hd,drive=sam,bus=ide.4,serial=FIXSAM01,rotation_rate=1,model=Samsung SSD 870 EVO 1TB"
# vm-vscsi-cd: scsi-cd with a disc on the single-queue virtio-scsi HBA
truncate -s 4M "$WORK/disc2.iso"
vm_add -drive "if=none,id=vcd,file=$WORK/disc2.iso,format=raw,media=cdrom,readonly=on"
vm_add -device scsi-cd,drive=vcd,bus=vsh.0,scsi-id=7,serial=FIXVCD01
# vm-pvscsi: VMware paravirtual SCSI, VMware's INQUIRY strings
vm_add -device pvscsi,id=pvscsi
vm_disk pv 64M
vm_add -device "scsi-hd,drive=pv,bus=pvscsi.0,serial=FIXPV001,vendor=VMware,product=Virtual disk"
# vm-perc-ld: MegaRAID LD with a PERC H700's INQUIRY strings
vm_disk perc 64M
vm_add -device "scsi-hd,drive=perc,bus=mega.0,scsi-id=1,serial=FIXPERC1,vendor=DELL,product=PERC H700"
# vm-floppy: a 1.44 MB floppy on an ISA floppy controller (the q35 LPC bridge)
truncate -s 1440K "$WORK/floppy.img"
vm_add -drive "if=none,id=fd,file=$WORK/floppy.img,format=raw"
vm_add -device isa-fdc,id=fdc -device floppy,bus=fdc.0,drive=fd,unit=0
# vm-multipath: one LUN on two single-queue virtio-scsi HBAs (two scsi-hd on one
# block node, same serial and wwn): dm-multipath map, its paths captured with it
vm_add -device virtio-scsi-pci,id=mpa,num_queues=1
vm_add -device virtio-scsi-pci,id=mpb,num_queues=1
vm_shared_blockdev mplun 64M
vm_add -device scsi-hd,drive=mplun,bus=mpa.0,serial=FIXMPATH,wwn=0x5000c0de00000f01,rotation_rate=1,share-rw=on,vendor=IOSCHED,product=SAN-LUN
vm_add -device scsi-hd,drive=mplun,bus=mpb.0,serial=FIXMPATH,wwn=0x5000c0de00000f01,rotation_rate=1,share-rw=on,vendor=IOSCHED,product=SAN-LUN

trap vm_kill EXIT
vm_start capture
if ! up=$(vm_wait_for '^GUEST-UP' 300); then
	vm_log "guest did not come up; qemu and console tail:"
	cat "$WORK/qemu.log" >&2
	tail -n 40 "$WORK/console.log" >&2
	exit 1
fi
vm_log "guest up after $(vm_elapsed) s: $up"
done_line=$(vm_wait_for '^GUEST-DONE' 600) || { vm_log "capture did not finish"; tail -n 40 "$WORK/console.log" >&2; exit 1; }
vm_wait_exit 60
vm_log "guest done after $(vm_elapsed) s: $done_line"
grep -a -E '^(CAPTURE|SETUP)' "$WORK/results.log" >&2

out=$WORK/out
rm -rf "$out"
mkdir -p "$out"
if [ -s "$WORK/share/fixtures.tar.gz" ]; then
	tar -C "$out" -xzf "$WORK/share/fixtures.tar.gz" || exit 1
else
	sed -n '/^BEGIN-BASE64/,/^END-BASE64/p' "$WORK/results.log" | sed '1d;$d' | base64 -d | tar -C "$out" -xzf - || exit 1
fi

names=("$@")
if [ ${#names[@]} = 0 ]; then
	for d in "$out"/*/; do
		d=${d%/}
		names+=("${d##*/}")
	done
fi
for n in "${names[@]}"; do
	if [ ! -d "$out/$n" ]; then
		vm_log "not captured: $n"
		continue
	fi
	find "$out/$n" -type d -empty -exec touch {}/.gitkeep \;
	case $n in vm-*) t=$DEST/$n-$kmm ;; *) t=$DEST/$n$SUFFIX ;; esac
	rm -rf "${t:?}"
	mkdir -p "$DEST"
	cp -a "$out/$n" "$t"
	vm_log "captured $t ($(find "$t" -type f | wc -l) files, $(find "$t" -type l | wc -l) links)"
	# stored as a tarball: symlinks and empty stub directories survive any copy
	"$VM_TOP/tests/fixtures/pack.sh" --remove "$t"
done
cp "$out/capture-summary.txt" "$WORK/capture-summary.txt" 2>/dev/null
grep -q '^CAPTURE-RESULT PASS' "$WORK/results.log"
