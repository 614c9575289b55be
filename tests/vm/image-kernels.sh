#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# image-kernels.sh ROOT: mmdebstrap customize hook for the tests/vm guest.
# Installs the kernels of the other flavours next to bookworm's (which came
# with --include=linux-image-amd64), so ONE root file system serves every
# kernel and the flavour is only picked at boot (-kernel/-initrd):
#
#   bookworm            linux-image-amd64/bookworm            (6.1)
#   bookworm-backports  linux-image-amd64/bookworm-backports  (6.12 as of this writing)
#   bullseye            linux-image-amd64/bullseye            (5.10, in a bookworm userland)
#   sid                 linux-image-amd64/sid                 (Debian's newest, 7.x as of this writing)
#
# The versioned package each metapackage depends on is installed (the
# metapackages themselves cannot be installed side by side), and
# ROOT/etc/iosched-vm-kernels gets one "flavour kernel-version" line each,
# read by mk-image.sh. Part of the base image recipe.
#
# sid's kernel is unpacked, not installed: its packages depend on sid's
# versions of other packages, and nothing of sid but the kernel may enter the
# bookworm userland. It keeps vmlinuz and config in /usr/lib/modules/KVER/;
# /boot/vmlinuz-KVER and /boot/config-KVER are made relative links to them
# (mk-image.sh copies /boot/vmlinuz-KVER), depmod and bookworm's
# update-initramfs do the rest. The sid source is removed afterwards.
set -eu
R=$1
: >"$R/etc/iosched-vm-kernels"
in_root() { chroot "$R" env DEBIAN_FRONTEND=noninteractive "$@"; }
dep_of() { # the linux-image-KVER package linux-image-amd64/$1 depends on
	in_root apt-cache show "linux-image-amd64/$1" |
		sed -n 's/^Depends: //p' | head -n 1 | tr ',|' '\n\n' |
		sed -n 's/^ *\(linux-image-[^ ]*\).*/\1/p' | head -n 1
}
for fl in bookworm bookworm-backports bullseye; do
	pkg=$(dep_of "$fl")
	[ -n "$pkg" ] || { echo "image-kernels: no linux-image-amd64 in $fl" >&2; exit 1; }
	if ! chroot "$R" dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
		in_root apt-get install -y -q --no-install-recommends "$pkg/$fl" >&2
	fi
	kv=${pkg#linux-image-}
	[ -e "$R/boot/vmlinuz-$kv" ] || { echo "image-kernels: $pkg has no /boot/vmlinuz-$kv" >&2; exit 1; }
	echo "$fl $kv" >>"$R/etc/iosched-vm-kernels"
done

# ---- sid: the newest kernel, unpacked into the bookworm root
mirror=$(cat "$R"/etc/apt/sources.list "$R"/etc/apt/sources.list.d/*.list 2>/dev/null |
	sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm main.*/\2/p' | head -n 1)
[ -n "$mirror" ] || { echo "image-kernels: no bookworm mirror in the sources" >&2; exit 1; }
# a mirror snapshot may hold a sid Release past its Valid-Until: accepted for the kernel alone
echo "deb [check-valid-until=no] $mirror sid main" >"$R/etc/apt/sources.list.d/iosched-vm-sid.list"
in_root apt-get update -q >&2
pkg=$(dep_of sid)
[ -n "$pkg" ] || { echo "image-kernels: no linux-image-amd64 in sid" >&2; exit 1; }
kv=${pkg#linux-image-}
# sid splits the kernel: linux-image-KVER depends on linux-base-KVER (config,
# System.map), linux-binary-KVER (vmlinuz) and linux-modules-KVER
parts=$(in_root apt-cache show "$pkg/sid" | sed -n 's/^Depends: //p' | head -n 1 | tr ',|' '\n\n' |
	sed -n 's/^ *\(linux-[a-z]*-[^ ]*\).*/\1/p' | grep -F -e "-$kv" | sed 's|$|/sid|' | tr '\n' ' ')
dl=$(mktemp -d "$R/tmp/sidkernel.XXXXXX")
chroot "$R" sh -c "cd /tmp/${dl##*/} && apt-get download -q '$pkg/sid' $parts" >&2
for deb in "$dl"/*.deb; do dpkg-deb -x "$deb" "$R/"; done
rm -rf "$dl" "$R/etc/apt/sources.list.d/iosched-vm-sid.list"
in_root apt-get update -q >&2
m=usr/lib/modules/$kv
[ -e "$R/$m/vmlinuz" ] || [ -e "$R/boot/vmlinuz-$kv" ] ||
	{ echo "image-kernels: $pkg has neither /$m/vmlinuz nor /boot/vmlinuz-$kv" >&2; exit 1; }
[ -e "$R/boot/vmlinuz-$kv" ] || ln -s "../$m/vmlinuz" "$R/boot/vmlinuz-$kv"
[ -e "$R/boot/config-$kv" ] || [ ! -e "$R/$m/config" ] || ln -s "../$m/config" "$R/boot/config-$kv"
[ -e "$R/boot/System.map-$kv" ] || [ ! -e "$R/$m/System.map" ] || ln -s "../$m/System.map" "$R/boot/System.map-$kv"
chroot "$R" depmod -a "$kv"
in_root update-initramfs -c -k "$kv" >&2
echo "sid $kv" >>"$R/etc/iosched-vm-kernels"
