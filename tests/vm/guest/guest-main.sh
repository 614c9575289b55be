#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# guest-main.sh: entry point in the tests/vm guest (iosched-vm-guest.service).
# Reads iosched_vm.mode= from the kernel command line, mounts the host's 9p
# share (tag "hostout") on /mnt/host if there is one, runs the payload and
# copies its log there. The results channel is the second serial port
# (/dev/ttyS1), read by the host; the console is ttyS0.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
here=/usr/local/lib/iosched-vm
mode=test
for w in $(cat /proc/cmdline); do
	case $w in iosched_vm.mode=*) mode=${w#*=} ;; esac
done
[ -r /etc/iosched-vm.conf ] && . /etc/iosched-vm.conf

RES=/dev/ttyS1
[ -c "$RES" ] && stty -F "$RES" raw -echo 115200 2>/dev/null
[ -c "$RES" ] || RES=/dev/console
exec 3>"$RES"
say() { printf '%s\n' "$*" >&3; printf '%s\n' "$*"; }

mkdir -p /mnt/host
if grep -qw 9p /proc/filesystems || modprobe 9pnet_virtio 2>/dev/null; then
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 hostout /mnt/host 2>/dev/null
fi
say "GUEST-UP kernel=$(uname -r) mode=$mode uptime=$(cut -d' ' -f1 /proc/uptime)"
rc=0
case $mode in
test) "$here/payload.sh" 3>&3; rc=$? ;;
capture) "$here/capture.sh" 3>&3; rc=$? ;;
scale) "$here/scale.sh" 3>&3; rc=$? ;;
pkg-install | pkg-boot) "$here/pkg.sh" "$mode" 3>&3; rc=$? ;;
shell) say "shell mode: nothing to run"; exit 0 ;;
*) say "unknown mode $mode"; rc=2 ;;
esac
mountpoint -q /mnt/host && journalctl -b --no-pager >/mnt/host/journal.txt 2>/dev/null
sync
say "GUEST-DONE rc=$rc uptime=$(cut -d' ' -f1 /proc/uptime)"
exit 0
