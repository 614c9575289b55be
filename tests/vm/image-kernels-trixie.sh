#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# image-kernels-trixie.sh ROOT: mmdebstrap customize hook for the Debian 13
# guest of tests/vm. Installs the newest kernel Debian ships for Debian 13
# (trixie-backports) next to trixie's own, so one root file system serves
# both and the flavour is only picked at boot (-kernel/-initrd):
#
#   trixie            linux-image-amd64/trixie            (6.12)
#   trixie-backports  linux-image-amd64/trixie-backports  (7.x as of this writing)
#
# The versioned package linux-image-amd64/trixie-backports depends on is
# installed with its own dependencies from trixie-backports (the metapackages
# cannot be installed side by side), and ROOT/etc/iosched-vm-kernels gets one
# "flavour kernel-version" line each, read by mk-image.sh. Part of the base
# image recipe.
set -eu
R=$1
: >"$R/etc/iosched-vm-kernels"
in_root() { chroot "$R" env DEBIAN_FRONTEND=noninteractive "$@"; }
dep_of() { # the linux-image-KVER package linux-image-amd64/$1 depends on
	in_root apt-cache show "linux-image-amd64/$1" |
		sed -n 's/^Depends: //p' | head -n 1 | tr ',|' '\n\n' |
		sed -n 's/^ *\(linux-image-[^ ]*\).*/\1/p' | head -n 1
}
for fl in trixie trixie-backports; do
	pkg=$(dep_of "$fl")
	[ -n "$pkg" ] || { echo "image-kernels-trixie: no linux-image-amd64 in $fl" >&2; exit 1; }
	if ! chroot "$R" dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
		in_root apt-get install -y -q --no-install-recommends -t "$fl" "$pkg/$fl" >&2
	fi
	kv=${pkg#linux-image-}
	m=usr/lib/modules/$kv
	[ -e "$R/boot/vmlinuz-$kv" ] || [ -e "$R/$m/vmlinuz" ] ||
		{ echo "image-kernels-trixie: $pkg has neither /boot/vmlinuz-$kv nor /$m/vmlinuz" >&2; exit 1; }
	[ -e "$R/boot/initrd.img-$kv" ] || in_root update-initramfs -c -k "$kv" >&2
	echo "$fl $kv" >>"$R/etc/iosched-vm-kernels"
done
