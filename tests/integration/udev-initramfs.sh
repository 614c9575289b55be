#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the initramfs-tools hook (initramfs/hooks/iosched) run as
# mkinitramfs runs it, in a private mount namespace where an overlay over /etc
# holds the installed rule (pointing at this build's iosched-apply) and a test
# policy with a masked file: the image gets the rule, the program with its
# libraries, the policy and the mask; then the program is run chrooted in the
# image on the test's loop device and applies the policy from the image.
# Skips without initramfs-tools (hook-functions), unshare or overlayfs.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

t_require_root
HOOK=$top/initramfs/hooks/iosched
APPLY_BIN=$top/$BUILDDIR/iosched-apply
[ -x "$HOOK" ] || t_fail "initramfs/hooks/iosched is missing or not executable"
[ -r /usr/share/initramfs-tools/hook-functions ] || t_skip "initramfs-tools is not installed"
[ -x "$APPLY_BIN" ] || t_skip "no $BUILDDIR/iosched-apply"
"$APPLY_BIN" --help 2>/dev/null | grep -q -- '--udev' || t_skip "iosched-apply has no --udev mode"
command -v unshare >/dev/null || t_skip "no unshare"
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null
grep -qw overlay /proc/filesystems || t_skip "no overlayfs"
"$HOOK" prereqs | grep -qx udev || t_fail "the hook must run after the udev hook (prereqs)"

t_loop L 16
grep -qw kyber "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no kyber"
echo none > "/sys/block/$L/queue/scheduler"

U=$T_TMP/upper
mkdir -p "$U/udev/rules.d" "$U/iosched.d" "$T_TMP/work" "$T_TMP/dest"
sed "s|@SBINDIR@/iosched-apply|$APPLY_BIN|" "$top/udev/60-iosched.rules.in" > "$U/udev/rules.d/60-iosched.rules"
printf '[Match]\nName=%s\n[Set]\nScheduler=kyber\n' "$L" > "$U/iosched.d/50-test.conf"
chmod 0644 "$U/udev/rules.d/60-iosched.rules" "$U/iosched.d/50-test.conf"
ln -s /dev/null "$U/iosched.d/40-masked.conf"

# the layout mkinitramfs prepares before it runs hooks (usr-merged on Debian 12)
if [ -L /bin ]; then
        for d in /bin /lib* /sbin; do
                mkdir -p "$T_TMP/dest/usr$d"
                ln -s "usr$d" "$T_TMP/dest$d"
        done
fi
mkdir -p "$T_TMP/dest/etc" "$T_TMP/dest/run"

unshare -m --propagation private sh -c '
        set -e
        mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1/upper,workdir=$1/work" /etc
        DESTDIR=$1/dest version=$(uname -r) verbose=n "$2"
' sh "$T_TMP" "$HOOK" > "$T_TMP/hook.log" 2>&1 || { cat "$T_TMP/hook.log"; t_fail "the hook failed"; }
cat "$T_TMP/hook.log"

D=$T_TMP/dest
# copy_file puts /lib/... under /usr/lib on usr-merged systems
rules=$D/lib/udev/rules.d/60-iosched.rules
[ -f "$rules" ] || rules=$D/usr/lib/udev/rules.d/60-iosched.rules
[ -f "$rules" ] || t_fail "the image has no 60-iosched.rules"
grep -q "^RUN+=\"$APPLY_BIN --udev \\\$kernel\"" "$rules" || t_fail "the image's rule does not run $APPLY_BIN"
[ -x "$D$APPLY_BIN" ] || t_fail "the image has no $APPLY_BIN"
[ -f "$D/etc/iosched.d/50-test.conf" ] || t_fail "the image has no /etc/iosched.d/50-test.conf"
[ "$(readlink "$D/etc/iosched.d/40-masked.conf")" = /dev/null ] || t_fail "the mask is not kept as a link to /dev/null"
echo "image: rule, $(find "$D" -name 'lib*.so*' | wc -l) libraries, policy and mask present"

# run the image's iosched-apply on the loop device, as the image's udev would
unshare -m --propagation private sh -c '
        set -e
        mkdir -p "$1/sys" "$1/proc" "$1/dev"
        mount --bind /sys "$1/sys"
        mount -t proc proc "$1/proc"
        mount --bind /dev "$1/dev"
        chroot "$1" "$2" --udev "$3"
' sh "$D" "$APPLY_BIN" "$L" > "$T_TMP/chroot.log" 2>&1 || {
        cat "$T_TMP/chroot.log"
        t_fail "the image's iosched-apply failed in a chroot"
}
d_sched_is "$L" kyber || t_fail "the image's iosched-apply did not apply the image's policy: $(t_sched "$L")"
echo "chroot into the image: iosched-apply --udev $L set kyber from the image's policy"
d_check_host_untouched
echo "PASS"
