#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/vm/run.sh: end-to-end test of iosched on a real Debian kernel with
# real (emulated) disks of every kind. `make check-vm` runs it.
#
# Builds/reuses the guest image (mk-image.sh: Debian 12 + iosched installed
# from this work tree), boots it under QEMU TCG (q35, 2 vCPUs) with the disks
# below, the guest's payload (guest/payload.sh) runs at boot from a systemd
# unit, the host hot-adds disks over QMP when the payload asks, and the
# results come back over the second serial port.
#
# Exit: 0 the payload passed, 1 it failed (or the guest did not finish),
# 77 qemu/mmdebstrap/root missing.
#
# Environment:
#   VM_KERNEL=bookworm|bookworm-backports|bullseye|sid|trixie-backports
#                              guest kernel (mk-image.sh); trixie-backports
#                              boots Debian 13 with iosched from VM_INSTALL_DEBS
#   VM_CHECK_<NAME>=auto|1|0   LIST EXPLAIN COLDPLUG CHECK HOTPLUG_UDEV
#                              HOTPLUG_DAEMON DRIFT REPLAY SOAK KERNEL TUNABLES
#                              (see guest/payload.sh); VM_STRICT=1 sets them
#                              all to 1; SOAK is on (1) unless VM_CHECK_SOAK=0
#                              (it adds ~4 min); TUNABLES (guest/checks-kernel.sh)
#                              is off (0) unless VM_CHECK_TUNABLES=1
#   VM_HOTPLUG=1|0             hot-add disks (default 1)
#   VM_CHECK_SCALE=1           instead of all this, the SAN-host scale run
#                              (tests/vm/scale.sh, opt-in, tens of minutes)
#   VM_REPLAY_ROUNDS=N         coldplug replays per variant (default 3)
#   VM_REPLAY_COMPARE=0        the iosched rule's replays alone, without the
#                              plain-rule and no-rule series (default 1)
#   VM_SOAK_EVENTS=N           daemon soak: add+remove events wanted (10000), capped
#   VM_SOAK_SECONDS=N          at N seconds of event generation (180), failing below
#   VM_SOAK_MIN_EVENTS=N       N events (500); VM_SOAK_DEVICES loop devices (16),
#                              VM_SOAK_SCSI scsi_debug disks (4)
#   VM_TIMEOUT=seconds         whole-guest limit (default 540, plus
#                              VM_SOAK_SECONDS + 240 with the soak)
#   VM_WORKDIR=dir             work directory (default /var/tmp/iosched-vm-run)
#   VM_CACHE=dir               image cache (default /var/cache/iosched-vm)
#   VM_CPU=model               QEMU CPU model (default max; CI: qemu64, faster under TCG)
set -u
here=$(cd "$(dirname "$0")" && pwd)
VM_TOP=$(cd "$here/../.." && pwd)
# the SAN-host scale run is a mode of its own (tens of minutes): scale.sh
case ${VM_CHECK_SCALE:-0} in 1 | on | yes) exec "$here/scale.sh" ;; esac
. "$here/lib.sh"
vm_need_tools

T_START=$(date +%s)
WORK=${VM_WORKDIR:-/var/tmp/iosched-vm-run}
VM_CHECK_SOAK=${VM_CHECK_SOAK:-1} # on unless VM_CHECK_SOAK=0
VM_SOAK_SECONDS=${VM_SOAK_SECONDS:-180}
case $VM_CHECK_SOAK in
0 | off | no) VM_TIMEOUT=${VM_TIMEOUT:-540} ;;
*) VM_TIMEOUT=${VM_TIMEOUT:-$((540 + VM_SOAK_SECONDS + 240))} ;;
esac
vm_setup "$WORK"

# mk-image.sh builds iosched in a directory of its own (PREFIX=/usr, see
# there): build/ of the work tree is neither used nor touched, so a run can go
# beside anything that builds there
vm_log "building iosched and the guest image (kernel flavour ${VM_KERNEL:-bookworm})"
vm_image || { vm_log "image build failed"; exit 1; }
vm_log "image ready in ${VM_IMAGE_SECONDS}s: kernel $VM_KVER, $VM_IMAGE"

# ---------------------------------------------------------------- the disks
# Every disk has a serial; the guest finds it by /dev/disk/by-id, never by
# kernel name. disks.tsv: label, by-id glob, expected class, expected
# scheduler ("keep" = policy leaves the kernel's choice, "zoned" = mq-deadline
# before 6.10, none from 6.10). The root disk is virtio-blk serial ROOT.
vm_disks_tsv_init "$WORK/share/disks.tsv"
disk() { vm_disk_row "$@"; }

# SATA HDD and SSD on the q35 ICH9 AHCI, an NVMe namespace
vm_disks_common
# zoned (ZNS, host-managed) NVMe namespace
vm_add -device nvme,id=nvmez,serial=NVMEZ001
vm_disk nvme-zoned 128M
vm_add -device nvme-ns,drive=nvme-zoned,bus=nvmez,nsid=1,zoned=true,zoned.zone_size=16M,zoned.zone_capacity=16M
disk nvme-zoned 'nvme-*_NVMEZ001' nvme zoned
# logical drive on an LSI SAS2108 MegaRAID (Dell PERC H700/H800): LD on
# channel 2, with the INQUIRY strings a PERC H700 LD reports
vm_add -device megasas-gen2,id=mega
vm_disk megaraid-ld 64M
vm_add -device "scsi-hd,drive=megaraid-ld,bus=mega.0,serial=MEGALD01,vendor=DELL,product=PERC H700"
disk megaraid-ld 'scsi-*_MEGALD01' raid none
# virtio-blk
vm_disk virtio-blk 64M
vm_add -device virtio-blk-pci,drive=virtio-blk,serial=VBLK0001
disk virtio-blk 'virtio-VBLK0001' virtual none
# virtio-scsi (multi-queue), SSD-like
vm_add -device virtio-scsi-pci,id=vscsi
vm_disk virtio-scsi 64M
vm_add -device scsi-hd,drive=virtio-scsi,bus=vscsi.0,serial=VSCSI001,rotation_rate=1
disk virtio-scsi 'scsi-*_VSCSI001' virtual none
# SD card on SDHCI (QEMU's sd-card has no serial property: CID serial 0xdeadbeef)
vm_add -device sdhci-pci
vm_disk sd-card 64M
vm_add -device sd-card,drive=sd-card
disk sd-card 'mmc-*' mmc keep
# USB stick: usb-storage on xHCI
vm_add -device qemu-xhci,id=xhci
vm_disk usb-stick 64M
vm_add -device usb-storage,drive=usb-stick,bus=xhci.0,serial=USB00001,removable=on
disk usb-stick 'usb-*_USB00001-*' usb keep
# empty single-queue virtio-scsi HBA for the hot-added disks (kernel default
# there is mq-deadline, the policy for a virtual disk none: a change to see)
vm_add -device virtio-scsi-pci,id=hpscsi,num_queues=1

# --- emulated and hypervisor disks, removable-media drives (issue 20) -----
# "left:S" = the policy leaves it alone: the kernel's default S after boot,
# and a scheduler written by hand survives a coldplug replay.
# QEMU's default model on AHCI ("QEMU HARDDISK", rotational): virtual
vm_disk ahci-qemu 64M
vm_add -device ide-hd,drive=ahci-qemu,bus=ide.2,serial=AHCIQEMU1
disk ahci-qemu 'ata-*_AHCIQEMU1' virtual none
# VMware paravirtual SCSI (vmw_pvscsi), with VMware's INQUIRY strings
vm_add -device pvscsi,id=pvscsi
vm_disk pvscsi 64M
vm_add -device "scsi-hd,drive=pvscsi,bus=pvscsi.0,serial=PVSCSI01,vendor=VMware,product=Virtual disk"
disk pvscsi 'scsi-*PVSCSI01' virtual none
# AHCI DVD drive (ATAPI, sr) with a disc in it
truncate -s 4M "$WORK/disc.iso"
vm_add -drive "if=none,id=dvd,file=$WORK/disc.iso,format=raw,media=cdrom,readonly=on"
vm_add -device ide-cd,drive=dvd,bus=ide.3,serial=DVD00001
disk ahci-dvd '*_DVD00001' optical left:mq-deadline
# virtio-scsi CD-ROM with a disc, on the single-queue HBA (kernel default
# mq-deadline, the built-in policy for a virtual disk would be none)
truncate -s 4M "$WORK/disc2.iso"
vm_add -drive "if=none,id=vcd,file=$WORK/disc2.iso,format=raw,media=cdrom,readonly=on"
vm_add -device scsi-cd,drive=vcd,bus=hpscsi.0,scsi-id=7,serial=VCD00001
disk vscsi-cd '*_VCD00001' optical left:mq-deadline
# dm-multipath: two single-queue virtio-scsi HBAs = two paths; each LUN is one
# block node with two scsi-hd on it (same serial and wwn, share-rw). The
# multipath device gets the policy (flash LUN none, spinning LUN mq-deadline);
# its paths keep the kernel's default (mq-deadline on a single-queue HBA).
vm_add -device virtio-scsi-pci,id=mpa,num_queues=1
vm_add -device virtio-scsi-pci,id=mpb,num_queues=1
mpath_lun() { # LABEL SCSI-ID WWN ROTATION CLASS SCHED
	local b
	vm_shared_blockdev "$1" 64M
	for b in mpa mpb; do
		vm_add -device "scsi-hd,drive=$1,bus=$b.0,scsi-id=$2,serial=${1^^},wwn=$3,rotation_rate=$4,share-rw=on,vendor=IOSCHED,product=SAN-LUN"
	done
	disk "$1" "dm-uuid-mpath-3${3#0x}" "$5" "$6"
	disk "$1-p0" "wwid:naa.${3#0x}#0" - left:mq-deadline
	disk "$1-p1" "wwid:naa.${3#0x}#1" - left:mq-deadline
}
mpath_lun mpssd 0 0x5000c0de00000001 1 multipath none
mpath_lun mphdd 1 0x5000c0de00000002 7200 multipath mq-deadline

# ---------------------------------------------------------------- config
{
	echo "# written by tests/vm/run.sh"
	for c in LIST EXPLAIN COLDPLUG CHECK HOTPLUG_UDEV HOTPLUG_DAEMON DRIFT REPLAY SOAK \
		MPATH HOTPLUG_MPATH KERNEL TUNABLES; do
		v=VM_CHECK_$c
		val=${!v:-auto}
		# the invariant over every tunable: minutes under TCG, the 7.x lane's
		[ $c = TUNABLES ] && val=${!v:-0}
		[ "${VM_STRICT:-0}" = 1 ] && [ -z "${!v:-}" ] && val=1
		echo "CHECK_$c=$val"
	done
	echo "HOTPLUG=${VM_HOTPLUG:-1}"
	echo "REPLAY_ROUNDS=${VM_REPLAY_ROUNDS:-3}"
	echo "REPLAY_BY_KIND=${VM_REPLAY_BY_KIND:-0}"
	echo "REPLAY_COMPARE=${VM_REPLAY_COMPARE:-1}"
	echo "DRIFT_INTERVAL=${VM_DRIFT_INTERVAL:-1s}"
	echo "SOAK_EVENTS=${VM_SOAK_EVENTS:-10000}"
	echo "SOAK_DEVICES=${VM_SOAK_DEVICES:-16}"
	echo "SOAK_SCSI=${VM_SOAK_SCSI:-4}"
	echo "SOAK_SECONDS=$VM_SOAK_SECONDS"
	echo "SOAK_MIN_EVENTS=${VM_SOAK_MIN_EVENTS:-500}"
} >"$WORK/share/config.sh"

hotplug_add() { # ID SERIAL
	local id=$1 serial=$2
	truncate -s 64M "$WORK/$id.img"
	vm_qmp \
		"{\"execute\":\"blockdev-add\",\"arguments\":{\"driver\":\"raw\",\"node-name\":\"$id\",\"file\":{\"driver\":\"file\",\"filename\":\"$WORK/$id.img\"}}}" \
		"{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"scsi-hd\",\"id\":\"${id}dev\",\"bus\":\"hpscsi.0\",\"drive\":\"$id\",\"serial\":\"$serial\"}}" \
		>>"$WORK/qmp.log" 2>&1
}

hotplug_mpath_add() { # ID SCSI-ID WWN: a new flash LUN on both paths
	local id=$1 sid=$2 wwn=$3 b cmds=()
	truncate -s 64M "$WORK/$id.img"
	cmds+=("{\"execute\":\"blockdev-add\",\"arguments\":{\"driver\":\"raw\",\"node-name\":\"$id\",\"file\":{\"driver\":\"file\",\"filename\":\"$WORK/$id.img\"}}}")
	for b in mpa mpb; do
		cmds+=("{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"scsi-hd\",\"id\":\"$id$b\",\"bus\":\"$b.0\",\"scsi-id\":$sid,\"drive\":\"$id\",\"serial\":\"${id^^}\",\"wwn\":$((wwn)),\"rotation_rate\":1,\"share-rw\":true,\"vendor\":\"IOSCHED\",\"product\":\"SAN-LUN\"}}")
	done
	vm_qmp "${cmds[@]}" >>"$WORK/qmp.log" 2>&1
}

# ---------------------------------------------------------------- run
trap vm_kill EXIT
vm_start test
if ! up=$(vm_wait_for '^GUEST-UP' 300); then
	vm_log "guest did not come up; qemu and console tail:"
	cat "$WORK/qemu.log" >&2
	tail -n 40 "$WORK/console.log" >&2
	exit 1
fi
T_BOOT=$(vm_elapsed)
vm_log "guest up after ${T_BOOT}s (host wall clock): $up"

shown=0 handled=0 finished=0
deadline=$(($(date +%s) + VM_TIMEOUT))
while [ "$(date +%s)" -lt "$deadline" ]; do
	mapfile -t lines < <(tr -d '\r' <"$WORK/results.log")
	while [ "$shown" -lt "${#lines[@]}" ]; do
		printf '  | %s\n' "${lines[$shown]}"
		shown=$((shown + 1))
	done
	n=0
	for l in "${lines[@]}"; do
		case $l in
		HOTPLUG-REQUEST\ *)
			n=$((n + 1))
			if [ "$n" -gt "$handled" ]; then
				set -- $l
				vm_log "hot-adding $2 (serial $3) over QMP"
				hotplug_add "$2" "$3" || vm_log "QMP hot-add failed (see $WORK/qmp.log)"
				handled=$n
			fi
			;;
		HOTPLUG-MPATH-REQUEST\ *)
			n=$((n + 1))
			if [ "$n" -gt "$handled" ]; then
				set -- $l
				vm_log "hot-adding multipath LUN $2 (wwn $4) on two paths over QMP"
				hotplug_mpath_add "$2" "$3" "$4" || vm_log "QMP hot-add failed (see $WORK/qmp.log)"
				handled=$n
			fi
			;;
		GUEST-DONE*) finished=1 ;;
		esac
	done
	[ $finished = 1 ] && break
	vm_alive || break
	sleep 0.3
done
if [ $finished = 1 ]; then
	vm_wait_exit 60
else
	vm_log "guest did not finish within ${VM_TIMEOUT}s"
	tail -n 30 "$WORK/console.log" >&2
	vm_kill
fi
mapfile -t lines < <(tr -d '\r' <"$WORK/results.log")
while [ "$shown" -lt "${#lines[@]}" ]; do
	printf '  | %s\n' "${lines[$shown]}"
	shown=$((shown + 1))
done

T_TOTAL=$(($(date +%s) - T_START))
res=$(grep -a -m1 '^PAYLOAD-RESULT' "$WORK/results.log" | tr -d '\r')
pass=$(grep -a -c '^CHECK .* PASS' "$WORK/results.log")
fail=$(grep -a -c '^CHECK .* FAIL' "$WORK/results.log")
skip=$(grep -a -c '^CHECK .* SKIP' "$WORK/results.log")
vm_log "timings: image ${VM_IMAGE_SECONDS}s, boot to payload ${T_BOOT}s, guest total $(vm_elapsed)s, run total ${T_TOTAL}s (kernel $VM_KVER)"
# the daemon soak's figures, one line (guest/soak.sh)
if grep -a '^soak: ' "$WORK/results.log" | tr -d '\r' >"$WORK/soak.txt" && [ -s "$WORK/soak.txt" ]; then
	vm_log "daemon soak ($VM_KVER): $(cat "$WORK/soak.txt")"
fi
vm_log "logs: $WORK/{results,console,qemu}.log, guest journal $WORK/share/journal.txt"
echo "vm: $pass passed, $fail failed, $skip skipped"
case $res in
"PAYLOAD-RESULT PASS"*) exit 0 ;;
*) vm_log "FAILED: ${res:-no result from the guest}"; exit 1 ;;
esac
