#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# capture.sh (guest, iosched_vm.mode=capture): run tests/mk-fixture.sh for each
# fixture disk, found by its serial under /dev/disk/by-id (never by kernel
# name), and leave fixtures.tar.gz on the host's 9p share.
# The disks are set up by tests/vm/capture-fixtures.sh; the table below must
# match it.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
here=/usr/local/lib/iosched-vm
say() { printf '%s\n' "$*" >&3; printf '%s\n' "$*"; }
OUT=/var/tmp/fixtures
rm -rf "$OUT"
mkdir -p "$OUT"
fail=0
CAPTURED=()

byid() { # first /dev/disk/by-id entry matching the glob, resolved
	local l
	for l in /dev/disk/by-id/$1; do
		[ -e "$l" ] && { readlink -f "$l"; return 0; }
	done
	return 1
}

# Devices created here (not emulated disks): md RAID1 over two virtio disks,
# nbd served from inside the guest.
setup_md() {
	local a b
	a=$(byid 'virtio-FIXMD01') && b=$(byid 'virtio-FIXMD02') || return 1
	mdadm --create /dev/md/fixmd --name=fixmd --level=1 --raid-devices=2 --metadata=1.2 \
		--run --assume-clean --homehost=iosched-vm "$a" "$b" </dev/null >&2 || return 1
	udevadm settle
}
setup_nbd() {
	modprobe nbd nbds_max=2 || return 1
	truncate -s 64M /var/tmp/nbd.img
	mkdir -p /etc/nbd-server
	cat >/etc/nbd-server/fix.conf <<-EOF
		[generic]
		user = root
		group = root
		listenaddr = 127.0.0.1
		[fixnbd]
		exportname = /var/tmp/nbd.img
	EOF
	nbd-server -C /etc/nbd-server/fix.conf >&2 || return 1
	sleep 1
	nbd-client -N fixnbd 127.0.0.1 /dev/nbd0 >&2 || return 1
	udevadm settle
}

capture() { # NAME DEVICE [mk-fixture options]
	local name=$1 dev=$2
	shift 2
	if [ -z "$dev" ]; then
		say "CAPTURE-FAIL $name: device not found"
		fail=1
		return
	fi
	local t0=$SECONDS
	if "$here/mk-fixture.sh" "$@" "$dev" "$OUT/$name"; then
		CAPTURED+=("$name=$dev")
		say "CAPTURE-OK $name $dev ($((SECONDS - t0)) s) $(cat "$OUT/$name"/sys/class/block/"${dev##*/}"/queue/scheduler 2>/dev/null)"
	else
		say "CAPTURE-FAIL $name $dev"
		fail=1
	fi
}

# issue 20: the RAM-backed disks (brd, scsi_debug) and the multipath map
setup_ram() {
	modprobe brd rd_nr=1 rd_size=65536 max_part=1 || return 1
	modprobe scsi_debug dev_size_mb=64 num_tgts=1 max_luns=1 || return 1
	udevadm settle
}
wait_mpath() { # WWID -> dm-N of its map with two paths, within 60 s
	local i d
	for i in $(seq 1 300); do
		for d in /sys/block/dm-*; do
			[ "$(cat "$d/dm/uuid" 2>/dev/null)" = "mpath-$1" ] || continue
			[ "$(ls "$d/slaves" | wc -l)" = 2 ] && { echo "/dev/${d##*/}"; return 0; }
		done
		sleep 0.2
	done
	return 1
}

udevadm settle
setup_ram || say "SETUP-FAIL ram"
setup_md || say "SETUP-FAIL md"
setup_nbd || say "SETUP-FAIL nbd"

capture ahci-sata-hdd "$(byid 'ata-*FIXHDD01')"
capture megaraid-ld "$(byid 'scsi-*FIXMEGA1')"
capture megaraid-jbod "$(byid 'scsi-*FIXJBOD1')"
capture nvme-zoned "$(byid 'nvme-*FIXZNS01')"
# NVMe multipath: the head (its tree includes the hidden path disks) and one
# hidden path disk as the primary device of its own tree
head=$(byid 'nvme-*FIXMP0*')
capture nvme-multipath "$head"
path=
if [ -n "$head" ]; then
	h=${head##*/}
	for p in /sys/class/block/"${h%n*}"c*n"${h##*n}"; do path=${p##*/}; break; done
fi
capture nvme-multipath-path "$path"
capture sd-card "$(byid 'mmc-*')"
capture usb-stick "$(byid 'usb-*FIXUSB01*')"
capture virtio-scsi-hdd "$(byid 'scsi-*FIXVSH01')"
capture md-raid1 "$(byid 'md-name-*fixmd')" -s
[ -b /dev/nbd0 ] && [ "$(cat /sys/block/nbd0/size)" != 0 ] && capture nbd /dev/nbd0
capture vm-ahci-dvd "$(byid '*_FIXDVD01')"
capture vm-vscsi-cd "$(byid '*_FIXVCD01')"
capture vm-ahci-qemu "$(byid 'ata-*FIXAQ001')"
capture vm-ahci-wdc-hdd "$(byid 'ata-*FIXWDC01')"
capture vm-ahci-samsung-ssd "$(byid 'ata-*FIXSAM01')"
capture vm-pvscsi "$(byid 'scsi-*FIXPV001')"
capture vm-perc-ld "$(byid 'scsi-*FIXPERC1')"
capture vm-floppy "$([ -b /dev/fd0 ] && echo /dev/fd0)"
capture vm-multipath "$(wait_mpath 35000c0de00000f01)" -s
capture vm-brd "$([ -b /dev/ram0 ] && echo /dev/ram0)"
sdbg=
for d in /sys/block/sd*; do
	case $(cat "$d/device/model" 2>/dev/null) in scsi_debug*) sdbg=/dev/${d##*/} ;; esac
done
capture vm-scsi-debug "$sdbg"

# second pass: queue/iosched/ under every scheduler (loads kyber and bfq,
# which is why it comes after every disk was captured as the kernel left it)
for c in "${CAPTURED[@]}"; do
	"$here/mk-fixture.sh" -V "${c#*=}" "$OUT/${c%%=*}" || say "VARIANTS-FAIL $c"
done

{
	echo "kernel $(uname -r)"
	cat /proc/version
	echo
	ls -l /dev/disk/by-id/
	echo
	lsblk -o NAME,MAJ:MIN,ROTA,SCHED,TRAN,MODEL,VENDOR,TYPE,SIZE,HCTL,SERIAL,ZONED
	echo
	lsscsi -v 2>/dev/null
	echo
	nvme list -v 2>/dev/null
	echo
	cat /proc/mdstat
	echo
	cat /sys/module/nvme_core/parameters/multipath
	echo
	multipath -ll 2>&1
} >"$OUT/capture-summary.txt" 2>&1

if mountpoint -q /mnt/host; then
	tar -C "$OUT" -czf /mnt/host/fixtures.tar.gz . && say "CAPTURE-TAR ok"
else
	say "CAPTURE-TAR no 9p share; base64 follows"
	echo "BEGIN-BASE64" >&3
	tar -C "$OUT" -czf - . | base64 -w 76 >&3
	echo "END-BASE64" >&3
fi
say "CAPTURE-RESULT $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
