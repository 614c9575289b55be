#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# import-shared-fixtures.sh SRC [DEST]
#
# Copies the sysfs trees captured earlier from a Debian 12 guest (kernel 6.1,
# QEMU 7.2; SRC is the directory of that capture, one subdirectory per name
# below, and iosched/<name>/) into DEST (default tests/fixtures/), in the same shape as the trees tests/mk-fixture.sh writes:
#  - symlinks that the copy flattened into files holding the link text (whole
#    content "../...", no newline) become symlinks again;
#  - sys/dev/block/<maj>:<min> is added (the kernel's link, same target as
#    sys/class/block/<name>), MAJ:MIN from the device's dev file;
#  - run/udev/data/b<maj>:<min> is generated from udev-properties.txt in the
#    udev database format: S: per DEVLINKS entry, I: USEC_INITIALIZED, E: per
#    property that the kernel did not provide (keys of the device's uevent
#    file, DEVPATH, SUBSYSTEM and udev's own DEVLINKS/TAGS/CURRENT_TAGS/
#    USEC_INITIALIZED are not E: lines in a real database), G:/Q: per tag, V:1;
#  - SRC/iosched/<name>/ (queue/iosched/ under each scheduler) goes to
#    DEST/<name>/iosched/;
#  - stub directories for link targets outside the subset, .gitkeep files in
#    empty directories.
set -eu
[ $# -ge 1 ] && [ -n "$1" ] || { echo "usage: $0 SRC [DEST]  (SRC: the sysfs-6.1 capture directory)" >&2; exit 2; }
SRC=$1
here=$(cd "$(dirname "$0")" && pwd)
DEST=${2:-$here/../fixtures}
NAMES="virtio-scsi-rot virtio-scsi-ssd ahci-sata-ssd nvme virtio-blk-root virtio-blk loop loop-under-dm dm-linear zram"

normpath() {
	local IFS=/ p
	local -a parts out=()
	read -ra parts <<<"$1"
	for p in "${parts[@]}"; do
		case $p in
		'' | .) ;;
		..) [ ${#out[@]} -gt 0 ] || return 1; unset 'out[${#out[@]}-1]' ;;
		*) out+=("$p") ;;
		esac
	done
	printf '%s\n' "${out[*]}"
}

for n in $NAMES; do
	s=$SRC/$n
	d=$DEST/$n
	[ -d "$s" ] || { echo "missing $s" >&2; exit 1; }
	rm -rf "$d"
	mkdir -p "$d"
	cp -a "$s/." "$d/"
	chmod -R u+w,a+rX "$d"
	find "$d" -type f \( -perm -0100 -o -perm -0010 \) -exec chmod a-x {} +

	# flattened symlinks back to symlinks
	find "$d/sys" -type f -size -4k | while IFS= read -r f; do
		[ "$(head -c 3 "$f" | tr -d "\\000")" = "../" ] || continue
		[ "$(wc -l <"$f")" = 0 ] || continue
		grep -q -P '\x00' "$f" 2>/dev/null && continue
		t=$(cat "$f")
		rm -f "$f"
		ln -s "$t" "$f"
	done

	# sys/dev/block/<maj>:<min>
	name=$(ls "$d/sys/block" | head -n 1)
	t=$(readlink "$d/sys/class/block/$name")
	canon=$(normpath "sys/class/block/$t")
	dev=$(cat "$d/$canon/dev")
	mkdir -p "$d/sys/dev/block"
	ln -sfn "$t" "$d/sys/dev/block/$dev"

	# udev database entry
	props=$d/udev-properties.txt
	if [ -f "$props" ]; then
		kernel_keys=" DEVPATH SUBSYSTEM USEC_INITIALIZED DEVLINKS TAGS CURRENT_TAGS ACTION SEQNUM "
		kernel_keys="$kernel_keys$(sed -n 's/=.*//p' "$d/$canon/uevent" | tr '\n' ' ')"
		mkdir -p "$d/run/udev/data"
		{
			for l in $(sed -n 's/^DEVLINKS=//p' "$props"); do echo "S:${l#/dev/}"; done
			sed -n 's/^USEC_INITIALIZED=/I:/p' "$props"
			while IFS= read -r line; do
				k=${line%%=*}
				case $kernel_keys in *" $k "*) continue ;; esac
				echo "E:$line"
			done <"$props"
			for tag in $(sed -n 's/^TAGS=//p' "$props" | tr ':' ' '); do echo "G:$tag"; done
			for tag in $(sed -n 's/^CURRENT_TAGS=//p' "$props" | tr ':' ' '); do echo "Q:$tag"; done
			echo "V:1"
		} >"$d/run/udev/data/b$dev"
	fi

	# scheduler variants
	if [ -d "$SRC/iosched/$n" ]; then
		mkdir -p "$d/iosched"
		cp -a "$SRC/iosched/$n/." "$d/iosched/"
		chmod -R u+w,a+rX "$d/iosched"
	fi

	# stubs for link targets outside the subset
	find "$d/sys" -type l | while IFS= read -r l; do
		r=${l#"$d"/}
		tgt=$(normpath "${r%/*}/$(readlink "$l")") || { echo "link leaves tree: $l" >&2; exit 1; }
		[ -e "$d/$tgt" ] || mkdir -p "$d/$tgt"
	done
	{
		echo "device=$name"
		echo "canonical=$canon"
		echo "dev=$dev"
		echo "kernel=6.1.0 (Debian 6.1.192-2), QEMU 7.2"
		echo "source=imported from the shared sysfs-6.1 capture by tests/vm/import-shared-fixtures.sh"
	} >"$d/capture-info.txt"
	find "$d" -type d -empty -exec touch {}/.gitkeep \;
	echo "imported $n: $name $dev ($(find "$d" -type l | wc -l) links)"
	"$here/../fixtures/pack.sh" --remove "$d"
done
