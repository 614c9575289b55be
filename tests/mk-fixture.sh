#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mk-fixture.sh [-s] [-S|-V] [-k] DEVNAME OUTDIR
#
# Capture, from the running system, the subset of /sys (and of the udev
# database) needed to classify ONE whole disk, as a tree rooted at OUTDIR:
#
#   OUTDIR/sys/block/<name>            relative symlinks, as the kernel has them
#   OUTDIR/sys/class/block/<name>
#   OUTDIR/sys/dev/block/<maj>:<min>
#   OUTDIR/sys/devices/.../<name>/     attributes, queue/, queue/iosched/, mq/<n>/,
#                                      holders/, slaves/, dm/, md/, loop/, multipath/,
#                                      partitions (<name>1/ ...)
#   OUTDIR/sys/devices/...             every ancestor up to sys/devices, one level,
#                                      with driver/subsystem links and the class
#                                      sub-directories naming the controller
#                                      (scsi_host/hostN, scsi_disk, nvme, ...)
#   OUTDIR/sys/class/<cls>/<x>, OUTDIR/sys/bus/<bus>/devices/<x>   links
#   OUTDIR/run/udev/data/b<maj>:<min>  the udev database entry, exact bytes
#   OUTDIR/udev-properties.txt         udevadm info --query=property
#   OUTDIR/udev-attribute-walk.txt     udevadm info --attribute-walk
#   OUTDIR/lsblk.txt, lsblk.json       lsblk
#   OUTDIR/capture-info.txt            kernel, date, by-id names, canonical path
#
# Symlink targets that are not part of the subset are created as empty stub
# directories, so every link resolves inside OUTDIR.
#
# DEVNAME: sda, /dev/sda, /dev/disk/by-id/..., or a hidden disk (nvme0c0n1).
# For an NVMe multipath head (nvmeXnY) the hidden path disks (nvmeXcZnY) are
# captured into the same tree.
#
#   -s  also capture the lower devices listed in slaves/ (md, dm) fully
#   -S  also record queue/iosched/ for every scheduler in OUTDIR/iosched/<sched>/
#       and the scheduler line in OUTDIR/iosched/<sched>.scheduler: tries the
#       listed ones plus mq-deadline, kyber, bfq (the write loads the module)
#       and puts the original back. Changes the device: only on a test machine.
#   -V  only do what -S adds (no capture); for a second pass after capturing
#       every disk, so that loading kyber/bfq does not show in the captures
#   -k  put a .gitkeep file in every empty directory (for committing the tree)
#
# Environment: MKFIX_SYSFS (default /sys), MKFIX_UDEVDB (default /run/udev/data)
# read another tree, e.g. a fixture (used by the self-test).
#
# Needs bash, coreutils and findutils; udevadm and lsblk are optional. Reads
# only; writes nothing outside OUTDIR (except with -S).

set -u
export LC_ALL=C

usage() { echo "usage: $0 [-s] [-S|-V] [-k] DEVNAME OUTDIR" >&2; exit 2; }

WITH_SLAVES=0 WITH_SCHEDS=0 GITKEEP=0 ONLY_SCHEDS=0
while getopts sSVkh opt; do
	case $opt in
	s) WITH_SLAVES=1 ;;
	S) WITH_SCHEDS=1 ;;
	V) WITH_SCHEDS=1 ONLY_SCHEDS=1 ;;
	k) GITKEEP=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage

SYS=$(readlink -f "${MKFIX_SYSFS:-/sys}")
UDEVDB=${MKFIX_UDEVDB:-/run/udev/data}
mkdir -p "$2" || exit 1
OUT=$(readlink -f "$2")
shopt -s nullglob

TIMEOUT=()
command -v timeout >/dev/null 2>&1 && TIMEOUT=(timeout 5)

LINKS_FILE=$OUT/.mkfix-links.$$
UNREADABLE=()
: >"$LINKS_FILE"
trap 'rm -f "$LINKS_FILE"' EXIT

warn() { echo "mk-fixture: $*" >&2; }

# Resolve the argument to a kernel block device name.
devname_of() {
	local a=$1 n
	case $a in
	/dev/*)
		n=$(readlink -f "$a") || return 1
		n=${n#/dev/}
		n=${n//\//!}
		;;
	/sys/*) n=${a##*/} ;;
	*) n=${a//\//!} ;;
	esac
	printf '%s\n' "$n"
}

# Lexically normalise a '/'-separated path (no symlink resolution) into
# $NORM; fails if it climbs above its root. (No $(...): forks are slow.)
normpath() {
	local IFS=/ p
	local -a parts out=()
	read -ra parts <<<"$1"
	for p in "${parts[@]}"; do
		case $p in
		'' | .) ;;
		..)
			[ ${#out[@]} -gt 0 ] || return 1
			unset 'out[${#out[@]}-1]'
			;;
		*) out+=("$p") ;;
		esac
	done
	NORM=${out[*]}
}

# Real /sys path -> path relative to OUT ("sys/...").
rel() { printf 'sys%s\n' "${1#"$SYS"}"; }

declare -A MADE=()
mkdirp() { # mkdir -p, remembering what exists (forks are slow under TCG)
	[ -n "${MADE[$1]:-}" ] && return 0
	mkdir -p "$1" && MADE[$1]=1
}

copy_file() { # $1 = real path of a regular sysfs file
	local src=$1 dst data
	dst=$OUT/sys${src#"$SYS"}
	[ -e "$dst" ] && return 0
	mkdirp "${dst%/*}"
	data=
	case ${src##*/} in
	vpd_pg* | inquiry | *descriptor* | *_bin | cdl_*) ;; # binary: keep NUL bytes
	*) { IFS= read -r -N 1048576 data; } 2>/dev/null <"$src" ;;
	esac
	if [ -n "$data" ]; then
		printf '%s' "$data" >"$dst"
	elif ! "${TIMEOUT[@]}" head -c 1048576 "$src" >"$dst" 2>/dev/null; then
		rm -f "$dst"
		UNREADABLE+=("sys${src#"$SYS"}")
	fi
}

copy_link() { # $1 = real path of a symlink inside /sys
	local src=$1 dst t r
	[ -L "$src" ] || return 0
	dst=$OUT/sys${src#"$SYS"}
	[ -L "$dst" ] && return 0
	t=$(readlink "$src") || return 0
	case $t in
	/*) warn "skipping absolute link $src -> $t"; return 0 ;;
	esac
	r=sys${src#"$SYS"}
	NORM=
	normpath "${r%/*}/$t"
	r=$NORM
	if [ "${r%%/*}" != sys ]; then
		warn "skipping link leaving the tree: $src -> $t"
		return 0
	fi
	mkdirp "${dst%/*}"
	ln -s "$t" "$dst" && printf '%s\n' "$r" >>"$LINKS_FILE"
}

# Names never read: binary/mmio/port I/O windows, actions, huge or slow files.
skip_file() {
	case $1 in
	config | rom | vpd | resource[0-9]* | remove | rescan | reset | reset_method | \
		new_id | remove_id | bind | unbind | driver_override_* | fw_crash_buffer | \
		descriptors | bos_descriptors | fw_dump | *_dump | log | trace_* | firmware_update)
		return 0 ;;
	esac
	return 1
}

# Symlinks not kept (targets far outside the device tree, or noise).
skip_link() {
	case $1 in
	firmware_node | of_node | iommu | iommu_group | consumer:* | supplier:* | bdi | \
		waiting_for_supplier | msi_irqs)
		return 0 ;;
	esac
	return 1
}

# One level of a directory: regular files and symlinks. Write-only
# attributes fail to open for reading and are left out.
copy_attrs() { # $1 = real dir
	local d=$1 f name
	[ -d "$d" ] || return 0
	mkdirp "$OUT/sys${d#"$SYS"}"
	for f in "$d"/*; do
		name=${f##*/}
		if [ -L "$f" ]; then
			skip_link "$name" || copy_link "$f"
		elif [ -f "$f" ]; then
			skip_file "$name" || copy_file "$f"
		fi
	done
}

# sys/class/<cls>/<name> or sys/bus/<bus>/devices/<name> for a device dir.
class_link() { # $1 = real device dir
	local d=$1 s n
	[ -L "$d/subsystem" ] || return 0
	s=$(readlink -f "$d/subsystem") || return 0
	n=${d##*/}
	if [ -L "$s/$n" ]; then
		copy_link "$s/$n"
	elif [ -L "$s/devices/$n" ]; then
		copy_link "$s/devices/$n"
	fi
}

# Sub-directories of an ancestor that are class devices naming the controller.
CLASSDIRS=" scsi_host scsi_disk scsi_device scsi_generic bsg scsi_tape scsi_changer
 ata_port ata_link ata_device sas_host sas_device sas_end_device sas_phy sas_port
 sas_expander fc_host fc_remote_ports fc_transport iscsi_host iscsi_session
 iscsi_connection spi_host spi_transport srp_host srp_remote_ports raid_devices
 mmc_host enclosure "
CLASSDIRS=" $(echo $CLASSDIRS) "

capture_ancestor() { # $1 = real dir
	local a=$1 sub c l x
	copy_attrs "$a"
	class_link "$a"
	for sub in "$a"/*/; do
		sub=${sub%/}
		[ -L "$sub" ] && continue
		case $CLASSDIRS in *" ${sub##*/} "*) ;; *) continue ;; esac
		mkdirp "$OUT/sys${sub#"$SYS"}"
		for c in "$sub"/*/; do
			c=${c%/}
			[ -L "$c" ] && continue
			copy_attrs "$c"
			class_link "$c"
		done
	done
	# libata: the port's link and device objects carry the SATA facts
	case ${a##*/} in
	ata[0-9]*)
		for l in "$a"/link[0-9]*/; do
			l=${l%/}
			copy_attrs "$l"
			for x in "$l"/ata_link/*/ "$l"/dev[0-9]*/ "$l"/dev[0-9]*/ata_device/*/; do
				x=${x%/}
				copy_attrs "$x"
				class_link "$x"
			done
		done
		;;
	esac
}

DONE=" "
CAPTURED=()

capture_disk() { # $1 = kernel name; $2 = 1 for the primary device
	local name=$1 cls canon d p mqd sub dev t
	case $DONE in *" $name "*) return 0 ;; esac
	DONE="$DONE$name "
	cls=$SYS/class/block/$name
	if [ ! -e "$cls" ]; then
		warn "no such block device: $name"
		return 1
	fi
	canon=$(readlink -f "$cls")
	if [ -e "$canon/partition" ]; then
		warn "$name is a partition; capturing its disk ${canon%/*}"
		capture_disk "$(basename "${canon%/*}")" "$2"
		return
	fi
	CAPTURED+=("$name sys${canon#"$SYS"}")

	copy_link "$SYS/block/$name"
	copy_link "$cls"
	dev=
	[ -r "$canon/dev" ] && read -r dev <"$canon/dev"
	[ -n "$dev" ] && copy_link "$SYS/dev/block/$dev"

	copy_attrs "$canon"
	for sub in queue queue/iosched dm md loop holders slaves multipath; do
		copy_attrs "$canon/$sub"
	done
	for d in "$canon"/md/dev-*/ "$canon"/md/rd[0-9]*/; do
		d=${d%/}
		[ -L "$d" ] || copy_attrs "$d"
	done
	if [ -d "$canon/mq" ]; then
		mkdirp "$OUT/sys${canon#"$SYS"}/mq"
		for mqd in "$canon"/mq/*/; do
			mqd=${mqd%/}
			mkdirp "$OUT/sys${mqd#"$SYS"}"
			for t in nr_tags nr_reserved_tags cpu_list; do
				[ -f "$mqd/$t" ] && copy_file "$mqd/$t"
			done
		done
	fi
	# partitions
	for p in "$canon"/*/partition; do
		p=${p%/partition}
		copy_attrs "$p"
		copy_attrs "$p/holders"
		copy_link "$SYS/class/block/${p##*/}"
		t=
		[ -r "$p/dev" ] && read -r t <"$p/dev"
		[ -n "$t" ] && copy_link "$SYS/dev/block/$t"
	done
	# ancestors up to sys/devices
	d=${canon%/*}
	while [ "$d" != "$SYS/devices" ] && [ "${#d}" -gt "${#SYS}" ]; do
		capture_ancestor "$d"
		d=${d%/*}
	done

	# udev database entry, exact bytes
	if [ -n "$dev" ] && [ -f "$UDEVDB/b$dev" ]; then
		mkdir -p "$OUT/run/udev/data"
		cp "$UDEVDB/b$dev" "$OUT/run/udev/data/b$dev"
	fi
	for p in "$canon"/*/partition; do
		p=${p%/partition}
		t=
		[ -r "$p/dev" ] && read -r t <"$p/dev"
		if [ -n "$t" ] && [ -f "$UDEVDB/b$t" ]; then
			mkdir -p "$OUT/run/udev/data"
			cp "$UDEVDB/b$t" "$OUT/run/udev/data/b$t"
		fi
	done

	# NVMe multipath head: capture its hidden path disks too
	if [[ $name =~ ^nvme([0-9]+)n([0-9]+)$ ]]; then
		for p in "$canon"/multipath/* "$SYS"/class/block/nvme"${BASH_REMATCH[1]}"c*n"${BASH_REMATCH[2]}"; do
			capture_disk "${p##*/}" 0
		done
	fi
	if [ "$WITH_SLAVES" = 1 ]; then
		for p in "$canon"/slaves/*; do
			capture_disk "${p##*/}" 0
		done
	fi
	return 0
}

sched_variants() { # $1 = name
	local q=$SYS/class/block/$1/queue cur s line f all tried=" "
	[ -w "$q/scheduler" ] || return 0
	read -r all <"$q/scheduler"
	cur=${all#*[}
	cur=${cur%%]*}
	[ "$cur" = "$all" ] && return 0
	mkdir -p "$OUT/iosched"
	for s in ${all//[\[\]]/} mq-deadline kyber bfq none; do
		case $tried in *" $s "*) continue ;; esac
		tried="$tried$s "
		echo "$s" 2>/dev/null >"$q/scheduler" || continue
		read -r line <"$q/scheduler"
		printf '%s\n' "$line" >"$OUT/iosched/$s.scheduler"
		if [ -d "$q/iosched" ]; then
			mkdir -p "$OUT/iosched/$s"
			for f in "$q"/iosched/*; do
				[ -f "$f" ] || continue
				line=
				{ IFS= read -r -N 65536 line; } 2>/dev/null <"$f"
				printf '%s' "$line" >"$OUT/iosched/$s/${f##*/}"
			done
		fi
	done
	echo "$cur" >"$q/scheduler"
}

NAME=$(devname_of "$1") || { warn "cannot resolve $1"; exit 1; }
if [ "$ONLY_SCHEDS" = 1 ]; then
	sched_variants "$NAME"
	exit 0
fi
capture_disk "$NAME" 1 || exit 1
CANON=$(readlink -f "$SYS/class/block/$NAME")
case $(basename "$CANON") in "$NAME") ;; *) NAME=$(basename "$CANON") ;; esac

# stub directories for link targets outside the subset
while IFS= read -r t; do
	[ -e "$OUT/$t" ] || mkdir -p "$OUT/$t"
done <"$LINKS_FILE"

# udev and lsblk views (only meaningful for the live /sys)
if [ "$SYS" = /sys ]; then
	DEVNODE=/dev/${NAME//!//}
	if command -v udevadm >/dev/null 2>&1; then
		udevadm info --query=property --path="$CANON" >"$OUT/udev-properties.txt" 2>/dev/null
		udevadm info --attribute-walk --path="$CANON" >"$OUT/udev-attribute-walk.txt" 2>/dev/null
	fi
	if command -v lsblk >/dev/null 2>&1; then
		if [ -b "$DEVNODE" ]; then
			lsblk -o NAME,MAJ:MIN,ROTA,SCHED,TRAN,MODEL,TYPE "$DEVNODE" >"$OUT/lsblk.txt" 2>&1
			lsblk -J -O "$DEVNODE" >"$OUT/lsblk.json" 2>&1
		else
			echo "(no device node $DEVNODE: hidden disk; lsblk does not list it)" >"$OUT/lsblk.txt"
		fi
	fi
	# the release, as iosched reads it for version-dependent rules
	mkdir -p "$OUT/proc/sys/kernel"
	cat /proc/sys/kernel/osrelease >"$OUT/proc/sys/kernel/osrelease" 2>/dev/null || uname -r >"$OUT/proc/sys/kernel/osrelease"
	{
		echo "device=$NAME"
		echo "canonical=$(rel "$CANON")"
		echo "dev=$(cat "$CANON/dev" 2>/dev/null)"
		echo "kernel=$(uname -r)"
		echo "proc_version=$(cat /proc/version 2>/dev/null)"
		[ -r /sys/module/nvme_core/parameters/multipath ] &&
			echo "nvme_core.multipath=$(cat /sys/module/nvme_core/parameters/multipath)"
		echo "captured=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		for l in /dev/disk/by-id/*; do
			[ "$(readlink -f "$l")" = "$DEVNODE" ] && echo "by-id=${l##*/}"
		done
		for c in "${CAPTURED[@]}"; do echo "captured-disk=$c"; done
		for u in "${UNREADABLE[@]}"; do echo "unreadable=$u"; done
	} >"$OUT/capture-info.txt"
	[ "$WITH_SCHEDS" = 1 ] && sched_variants "$NAME"
fi

if [ "$GITKEEP" = 1 ]; then
	find "$OUT" -type d -empty -exec touch {}/.gitkeep \;
fi
exit 0
