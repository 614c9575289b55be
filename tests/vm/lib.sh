# SPDX-License-Identifier: LGPL-2.1-or-later
# lib.sh: shared by tests/vm/run.sh and tests/vm/capture-fixtures.sh (sourced).
#
# Boots the guest built by mk-image.sh under QEMU TCG (q35, 2 vCPUs) with
# the direct kernel boot of the Debian kernel, a qcow2 overlay over the cached
# root image, ttyS0 = console (console.log), ttyS1 = results channel
# (results.log), a 9p share (tag hostout) and a QMP socket.

VM_QEMU=${VM_QEMU:-qemu-system-x86_64}
VM_MEM=${VM_MEM:-2048}
VM_SMP=${VM_SMP:-2}
# the CPU model QEMU emulates: max by default (.ci/run uses qemu64, faster under TCG)
VM_CPU=${VM_CPU:-max}
# KVM hangs at boot on the machines this was written on: TCG by default.
VM_ACCEL=${VM_ACCEL:-tcg}
QEMU_ARGS=()

vm_log() { printf '%s %s\n' "[$(date +%H:%M:%S)]" "$*" >&2; }

# Exit 77 (skip) when the tools are missing.
vm_need_tools() {
	local t missing=
	for t in "$VM_QEMU" qemu-img mmdebstrap mkfs.ext4 python3; do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
	if [ -n "$missing" ]; then
		echo "SKIP: missing:$missing (apt-get install qemu-system-x86 qemu-utils mmdebstrap e2fsprogs python3)"
		exit 77
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: tests/vm needs root (mmdebstrap --mode=root)"
		exit 77
	fi
}

# vm_setup WORKDIR: fresh work directory with a 9p share.
vm_setup() {
	VM_WORK=$1
	rm -rf "$VM_WORK"
	mkdir -p "$VM_WORK/share"
	QEMU_ARGS=()
}

# vm_image: build or reuse the image (sets VM_VMLINUZ VM_INITRD VM_IMAGE VM_KVER).
vm_image() {
	local out t0 rc
	t0=$(date +%s)
	out=$("$VM_TOP/tests/vm/mk-image.sh")
	rc=$?
	[ $rc = 0 ] || return $rc
	eval "$out"
	VM_IMAGE_SECONDS=$(($(date +%s) - t0))
	qemu-img create -q -f qcow2 -b "$VM_IMAGE" -F raw "$VM_WORK/root.qcow2" || return 1
}

# vm_disk ID SIZE: a sparse raw image as drive ID (attach it with vm_add).
vm_disk() {
	truncate -s "$2" "$VM_WORK/$1.img"
	QEMU_ARGS+=(-drive "if=none,id=$1,file=$VM_WORK/$1.img,format=raw,cache=unsafe")
}

vm_add() { QEMU_ARGS+=("$@"); }

# vm_start MODE [EXTRA-KERNEL-ARGS]: boot in the background.
vm_start() {
	local mode=$1 extra=${2:-}
	: >"$VM_WORK/results.log"
	: >"$VM_WORK/console.log"
	VM_QMP=$VM_WORK/qmp.sock
	VM_T0=$(date +%s.%N)
	"$VM_QEMU" -machine q35,accel="$VM_ACCEL" -cpu "$VM_CPU" -smp "$VM_SMP" -m "$VM_MEM" \
		-display none -no-reboot -nic none -monitor none \
		-kernel "$VM_VMLINUZ" -initrd "$VM_INITRD" \
		-append "root=LABEL=iosched-root rw console=ttyS0,115200 panic=-1 quiet loglevel=4 iosched_vm.mode=$mode $extra" \
		-serial "file:$VM_WORK/console.log" -serial "file:$VM_WORK/results.log" \
		-qmp "unix:$VM_QMP,server=on,wait=off" \
		-virtfs "local,path=$VM_WORK/share,mount_tag=hostout,security_model=none,id=hostout" \
		-drive "if=none,id=root,file=$VM_WORK/root.qcow2,format=qcow2,cache=unsafe" \
		-device virtio-blk-pci,drive=root,serial=ROOT \
		"${QEMU_ARGS[@]}" >"$VM_WORK/qemu.log" 2>&1 &
	VM_PID=$!
}

vm_elapsed() { echo "$(date +%s.%N) $VM_T0" | awk '{printf "%.1f", $1 - $2}'; }

vm_alive() { kill -0 "$VM_PID" 2>/dev/null; }

# vm_wait_for REGEX TIMEOUT: wait for a results line; prints it.
vm_wait_for() {
	local re=$1 deadline=$(($(date +%s) + $2)) line
	while [ "$(date +%s)" -lt "$deadline" ]; do
		line=$(grep -a -m1 -E "$re" "$VM_WORK/results.log" 2>/dev/null)
		if [ -n "$line" ]; then
			printf '%s\n' "$line"
			return 0
		fi
		vm_alive || return 1
		sleep 0.2
	done
	return 1
}

# vm_wait_exit TIMEOUT: wait for QEMU to exit (the guest powers off); kill it
# after TIMEOUT seconds. Returns 0 if it exited by itself.
vm_wait_exit() {
	local deadline=$(($(date +%s) + $1))
	while vm_alive; do
		if [ "$(date +%s)" -ge "$deadline" ]; then
			vm_log "guest did not power off within $1 s, killing QEMU"
			kill "$VM_PID" 2>/dev/null
			sleep 2
			kill -9 "$VM_PID" 2>/dev/null
			wait "$VM_PID" 2>/dev/null
			return 1
		fi
		sleep 0.5
	done
	wait "$VM_PID" 2>/dev/null
	return 0
}

vm_kill() {
	[ -n "${VM_PID:-}" ] || return 0
	kill "$VM_PID" 2>/dev/null && sleep 1
	kill -9 "$VM_PID" 2>/dev/null
	wait "$VM_PID" 2>/dev/null
	return 0
}

vm_qmp() { python3 "$VM_TOP/tests/vm/qmp.py" "$VM_QMP" "$@"; }

# vm_disks_tsv_init TSV, vm_disk_row LABEL BYID CLASS SCHED: the disks.tsv the
# guest checks against (label, by-id glob, expected class, expected scheduler:
# a name, "keep" = the kernel's choice, "zoned" = mq-deadline before 6.10,
# none from 6.10). The root disk is virtio-blk serial ROOT.
vm_disks_tsv_init() {
	VM_TSV=$1
	printf '%s\t%s\t%s\t%s\n' root 'virtio-ROOT' virtual none >"$VM_TSV"
}
vm_disk_row() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$VM_TSV"; }

# vm_shared_blockdev NODE SIZE: a raw image as block node NODE that several
# devices can attach to (drive=NODE,share-rw=on): the LUN of a multipath pair.
vm_shared_blockdev() {
	truncate -s "$2" "$VM_WORK/$1.img"
	QEMU_ARGS+=(-blockdev "{\"driver\":\"raw\",\"node-name\":\"$1\",\"file\":{\"driver\":\"file\",\"filename\":\"$VM_WORK/$1.img\"}}")
}

# vm_disks_common: a SATA HDD and SSD on the q35 ICH9 AHCI and an NVMe namespace.
# The SATA disks carry real drives' model strings (a disk passed through to a
# VM keeps its real class); QEMU's default "QEMU HARDDISK" is the emulated
# disk of run.sh (virtual).
vm_disks_common() {
	vm_disk sata-hdd 64M
	vm_add -device "ide-hd,drive=sata-hdd,bus=ide.0,serial=SATAHDD1,rotation_rate=7200,model=WDC WD10EZEX-08WN4A0"
	vm_disk_row sata-hdd 'ata-*_SATAHDD1' hdd mq-deadline
	vm_disk sata-ssd 64M
	vm_add -device "ide-hd,drive=sata-ssd,bus=ide.1,serial=SATASSD1,rotation_rate=1,model=Samsung SSD 870 EVO 1TB"
	vm_disk_row sata-ssd 'ata-*_SATASSD1' ssd none
	vm_add -device nvme,id=nvme0,serial=NVME0001
	vm_disk nvme 64M
	vm_add -device nvme-ns,drive=nvme,bus=nvme0,nsid=1
	vm_disk_row nvme 'nvme-*_NVME0001' nvme none
}
