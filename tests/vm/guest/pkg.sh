#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# pkg.sh (guest, iosched_vm.mode=pkg-install|pkg-boot): the Debian package on
# a real system.  The image has no iosched; the host put the .debs on the 9p
# share (/mnt/host) with disks.tsv (label, by-id glob, class, scheduler).
#
# pkg-install  `apt-get install ./iosched_*.deb` with no network: the policy is
#              in force at once on every disk, --check exits 0, the package's
#              dpkg trigger rebuilt the initramfs with the hook and the policy
#              in it, including a drop-in for the root disk provisioned before
#              the install (mq-deadline, unlike the kernel's default none for a
#              multi-queue virtio-blk).  The guest's own kernel and new
#              initramfs go to the host, which boots them next.
# pkg-boot     booted from that kernel and initramfs: the root disk got its
#              scheduler inside the initramfs, before the root file system was
#              mounted (kernel log timestamps); every disk is on its policy;
#              --check exits 0; `apt-get remove` takes the rule away and leaves
#              the schedulers as they are; `apt-get purge` removes /etc/iosched*.
#
# Results on fd 3: CHECK <name> PASS|FAIL <detail>, FIGURE <name> <value>,
# PAYLOAD-RESULT PASS|FAIL passed=N failed=N.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C DEBIAN_FRONTEND=noninteractive
set -u
mode=${1:-pkg-install}
SHARE=/mnt/host
{ true >&3; } 2>/dev/null || exec 3>&1
say() { printf '%s\n' "$*" >&3; }
npass=0 nfail=0
result() { # NAME PASS|FAIL detail...
	local n=$1 r=$2
	shift 2
	case $r in PASS) npass=$((npass + 1)) ;; *) nfail=$((nfail + 1)) ;; esac
	say "CHECK $n $r $*"
}
check() { # NAME DETAIL COMMAND...: PASS if the command succeeds
	local n=$1 d=$2
	shift 2
	if "$@" >/tmp/check.out 2>&1; then result "$n" PASS "$d"; else
		result "$n" FAIL "$d: $(tail -n 5 /tmp/check.out | tr '\n' ' ')"
	fi
}
finish() {
	say "PAYLOAD-RESULT $([ $nfail = 0 ] && echo PASS || echo FAIL) passed=$npass failed=$nfail"
	exit 0
}
resolve() { # by-id glob -> kernel name of the whole disk
	local l
	for l in /dev/disk/by-id/$1; do
		[ -e "$l" ] || continue
		basename "$(readlink -f "$l")"
		return 0
	done
	return 1
}
sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler" 2>/dev/null; }
zoned_want() { # mq-deadline before 6.10, none from 6.10
	local v; v=$(uname -r); v=${v%%-*}
	awk -v v="$v" 'BEGIN { split(v, a, "."); exit !(a[1] > 6 || (a[1] == 6 && a[2] >= 10)) }' && echo none || echo mq-deadline
}
# every disk of disks.tsv on its expected scheduler ("keep": not checked)
disks_on_policy() { # NAME [ROOT-OVERRIDE]
	local label glob cls want name bad=""
	while IFS=$'\t' read -r label glob cls want; do
		[ "$label" = root ] && [ -n "${2:-}" ] && want=$2
		[ "$want" = zoned ] && want=$(zoned_want)
		[ "$want" = keep ] && continue
		name=$(resolve "$glob") || { bad="$bad $label:missing"; continue; }
		[ "$(sched "$name")" = "$want" ] || bad="$bad $label($name):$(sched "$name")!=$want"
	done <"$SHARE/disks.tsv"
	if [ -z "$bad" ]; then result "$1" PASS "every disk on its policy scheduler"; else result "$1" FAIL "$bad"; fi
}
rule_path() {
	local d
	for d in /usr/lib/udev/rules.d /lib/udev/rules.d; do
		[ -e "$d/60-iosched.rules" ] && { echo "$d/60-iosched.rules"; return 0; }
	done
	return 1
}
root=$(resolve virtio-ROOT)
KVER=$(uname -r)

case $mode in
pkg-install)
	command -v iosched-apply >/dev/null && result image-clean FAIL "iosched is already installed in the image"
	# the system the packages go to (the .debs are the ones built on the host)
	say "FIGURE guest $(. /etc/os-release && echo "$PRETTY_NAME") kernel=$KVER systemd=$(dpkg-query -W -f='${Version}' systemd) udev=$(dpkg-query -W -f='${Version}' udev) initramfs-tools=$(dpkg-query -W -f='${Version}' initramfs-tools)"
	debs=$(ls "$SHARE"/debs/iosched_*.deb "$SHARE"/debs/iosched-bench_*.deb 2>/dev/null)
	[ -n "$debs" ] || { result install FAIL "no .deb on the share"; finish; }
	# a policy for the root disk provisioned before the package (as cloud-init
	# would): the initramfs the package's trigger builds must carry it
	# the image carries every flavour's kernel side by side (mk-image.sh);
	# update-initramfs -u (the package's trigger) rebuilds the highest
	# version that has an initramfs: set the other kernels' aside, so that
	# the running kernel is the one, as on a system with one kernel
	for f in /boot/initrd.img-*; do
		[ "$f" = "/boot/initrd.img-$KVER" ] || { mv "$f" /var/tmp/ && say "  set aside $f (not the running kernel)"; }
	done
	mkdir -p /etc/iosched.d
	printf '[Match]\nSerial=ROOT\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=256\n' >/etc/iosched.d/50-root.conf
	chmod 0644 /etc/iosched.d/50-root.conf
	t0=${EPOCHREALTIME/./}
	# no network in the guest: apt resolves the dependencies from what is installed
	# shellcheck disable=SC2086
	apt-get install -y $debs >/tmp/apt.log 2>&1
	rc=$?
	t1=${EPOCHREALTIME/./}
	[ $rc = 0 ] && result install PASS "apt-get install of $(echo $debs | wc -w) package(s) in $(((t1 - t0) / 1000)) ms" ||
		{ result install FAIL "apt-get exit $rc: $(tail -n 8 /tmp/apt.log | tr '\n' ' ')"; finish; }
	cp /tmp/apt.log "$SHARE/apt-install.log" 2>/dev/null
	say "FIGURE installed-size-kib iosched=$(dpkg-query -W -f='${Installed-Size}' iosched) iosched-bench=$(dpkg-query -W -f='${Installed-Size}' iosched-bench 2>/dev/null)"
	disks_on_policy in-force-at-once mq-deadline
	check check-after-install "iosched-apply --check exits 0" iosched-apply --check
	check rule-installed "the udev rule is installed" rule_path
	# listed once: each lsinitramfs unpacks the whole image (seconds under TCG)
	lsinitramfs "/boot/initrd.img-$KVER" >/tmp/initrd.list 2>/tmp/initrd.err ||
		result initramfs-list FAIL "lsinitramfs: $(tail -n 3 /tmp/initrd.err | tr '\n' ' ')"
	check initramfs-hook "the initramfs carries iosched-apply and the rule" \
		sh -c "grep -q 'sbin/iosched-apply\$' /tmp/initrd.list && grep -q '60-iosched.rules\$' /tmp/initrd.list"
	check daemon-not-enabled "ioschedd is installed but not enabled (the rule suffices)" \
		sh -c '! systemctl is-enabled --quiet ioschedd.service'
	check initramfs-policy "the initramfs carries the root disk's policy" \
		grep -q 'etc/iosched.d/50-root.conf$' /tmp/initrd.list
	cp "/boot/vmlinuz-$KVER" "$SHARE/vmlinuz" && cp "/boot/initrd.img-$KVER" "$SHARE/initrd.img" &&
		result kernel-to-host PASS "the guest's own kernel $KVER and rebuilt initramfs" ||
		result kernel-to-host FAIL "cannot copy /boot/*-$KVER to the share"
	finish
	;;
pkg-boot)
	[ "$(cat /proc/cmdline | grep -c 'iosched_vm.own_initrd=1')" = 1 ] ||
		result own-initramfs FAIL "not booted from the guest's own initramfs"
	# evidence from the kernel log: iosched-apply --udev in the initramfs logs to /dev/kmsg
	journalctl -k -b -o short-monotonic --no-pager >/tmp/kmsg.txt 2>/dev/null || dmesg >/tmp/kmsg.txt
	cp /tmp/kmsg.txt "$SHARE/kernel-log.txt" 2>/dev/null
	ts() { sed -n "s/^\[ *\([0-9.]*\)\].*$1.*/\1/p" /tmp/kmsg.txt | head -n 1; }
	t_apply=$(ts "iosched-apply\[[0-9]*\]: $root: scheduler: ")
	t_mount=$(ts "EXT4-fs ($root): mounted filesystem")
	if [ -n "$t_apply" ] && [ -n "$t_mount" ] &&
		awk -v a="$t_apply" -v m="$t_mount" 'BEGIN { exit !(a < m) }'; then
		result initramfs-apply PASS "$root got its scheduler at ${t_apply}s, before the root file system was mounted at ${t_mount}s"
		say "FIGURE boot-to-root-policy-s $t_apply root-mounted-s $t_mount"
	else
		result initramfs-apply FAIL "apply at '${t_apply:-none}', root mounted at '${t_mount:-none}': $(grep -a iosched /tmp/kmsg.txt | head -n 3 | tr '\n' ' ')"
	fi
	disks_on_policy on-policy-after-boot mq-deadline
	check read-ahead "the root disk's read_ahead_kb from the drop-in" \
		sh -c "[ \"\$(cat /sys/block/$root/queue/read_ahead_kb)\" = 256 ]"
	check check-after-boot "iosched-apply --check exits 0" iosched-apply --check
	before=$(for d in /sys/block/*/queue/scheduler; do echo "$d $(cat "$d")"; done)
	apt-get remove -y iosched-bench iosched >/tmp/apt.log 2>&1
	rc=$?
	cp /tmp/apt.log "$SHARE/apt-remove.log" 2>/dev/null
	[ $rc = 0 ] && result remove PASS "apt-get remove" || result remove FAIL "exit $rc: $(tail -n 5 /tmp/apt.log | tr '\n' ' ')"
	check remove-says "removal says the schedulers stay as they are" grep -qi "schedulers.*as they are\|left as they are\|stay as they are" /tmp/apt.log
	check rule-gone "the udev rule is gone after remove" sh -c '! rule_path_() { for d in /usr/lib/udev/rules.d /lib/udev/rules.d; do [ -e $d/60-iosched.rules ] && return 0; done; return 1; }; ! rule_path_'
	after=$(for d in /sys/block/*/queue/scheduler; do echo "$d $(cat "$d")"; done)
	[ "$before" = "$after" ] && result schedulers-kept PASS "remove left every scheduler as it was" ||
		result schedulers-kept FAIL "schedulers changed by remove"
	check conf-kept "/etc/iosched.d is kept on remove" test -e /etc/iosched.d/50-root.conf
	apt-get purge -y iosched >/tmp/apt.log 2>&1 || result purge FAIL "apt-get purge: $(tail -n 5 /tmp/apt.log | tr '\n' ' ')"
	check purge-gone "/etc/iosched.conf and /etc/iosched.d are gone after purge" \
		sh -c '! ls -d /etc/iosched.conf /etc/iosched.d 2>/dev/null | grep -q .'
	finish
	;;
*)
	say "pkg.sh: unknown mode $mode"
	finish
	;;
esac
