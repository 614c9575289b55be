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
#
# The versioned package each metapackage depends on is installed (the
# metapackages themselves cannot be installed side by side), and
# ROOT/etc/iosched-vm-kernels gets one "flavour kernel-version" line each,
# read by mk-image.sh. Part of the base image recipe.
set -eu
R=$1
: >"$R/etc/iosched-vm-kernels"
for fl in bookworm bookworm-backports bullseye; do
	pkg=$(chroot "$R" apt-cache show "linux-image-amd64/$fl" |
		sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p' | head -n 1)
	[ -n "$pkg" ] || { echo "image-kernels: no linux-image-amd64 in $fl" >&2; exit 1; }
	if ! chroot "$R" dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
		chroot "$R" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "$pkg/$fl" >&2
	fi
	kv=${pkg#linux-image-}
	[ -e "$R/boot/vmlinuz-$kv" ] || { echo "image-kernels: $pkg has no /boot/vmlinuz-$kv" >&2; exit 1; }
	echo "$fl $kv" >>"$R/etc/iosched-vm-kernels"
done
