#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the initramfs hook (initramfs/hooks/iosched) and the dracut
# module (dracut/90iosched) refuse what iosched-apply refuses.  A policy file
# writable by group or others or not root's, or one in a drop-in directory
# writable by group or others, is not copied into the image (in the image it
# would be root's 0644 and accepted), each one is named on stderr, and iosched
# is left out of the image; with the same files fixed, everything is copied.
# The hook runs as mkinitramfs runs it, in a private mount namespace with an
# overlay over /etc (the test's policy, a rule pointing at this build's
# iosched-apply) and over /usr/share (initramfs-tools' hook-functions stubbed
# to log copy_file/copy_exec, so initramfs-tools is not needed); iosched-apply
# itself, run in the same namespace, must refuse the same file.  The dracut
# module runs against a fake system root with dracut's helpers stubbed.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"

t_require_root
HOOK=$top/initramfs/hooks/iosched
MOD=$top/dracut/90iosched/module-setup.sh
APPLY_BIN=$top/$BUILDDIR/iosched-apply
[ -x "$APPLY_BIN" ] || t_skip "no $BUILDDIR/iosched-apply"
command -v unshare >/dev/null || t_skip "no unshare"
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null
grep -qw overlay /proc/filesystems || t_skip "no overlayfs"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# --- the initramfs-tools hook -------------------------------------------
U=$T_TMP/etc-upper S=$T_TMP/share-upper
mkdir -p "$U/udev/rules.d" "$U/iosched.d" "$S/initramfs-tools" "$T_TMP/w1" "$T_TMP/w2"
sed "s|@SBINDIR@/iosched-apply|$APPLY_BIN|" "$top/udev/60-iosched.rules.in" > "$U/udev/rules.d/60-iosched.rules"
printf '[Match]\nName=loop-none\n[Set]\nScheduler=none\n' > "$U/iosched.d/50-test.conf"
chmod 0644 "$U/udev/rules.d/60-iosched.rules" "$U/iosched.d/50-test.conf"
cat > "$S/initramfs-tools/hook-functions" <<'EOS'
copy_file() { echo "copy_file $*" >> "$IOS_HOOK_LOG"; }
copy_exec() { echo "copy_exec $*" >> "$IOS_HOOK_LOG"; }
manual_add_modules() { echo "manual_add_modules $*" >> "$IOS_HOOK_LOG"; }
EOS

# hook NAME: run the hook (and iosched-apply cat-config) in a namespace that
# sees the test's /etc; $T_TMP/NAME.{log,err,tool} and the image in $T_TMP/NAME.d
hook() {
        rm -rf "$T_TMP/$1.d" "$T_TMP/w1"/* "$T_TMP/w2"/*
        mkdir -p "$T_TMP/$1.d"
        : > "$T_TMP/$1.log"
        unshare -m --propagation private sh -c '
                set -e
                mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1/etc-upper,workdir=$1/w1" /etc
                mount -t overlay overlay -o "lowerdir=/usr/share,upperdir=$1/share-upper,workdir=$1/w2" /usr/share
                "$4" cat-config > /dev/null 2> "$1/$3.tool" || true
                IOS_HOOK_LOG=$1/$3.log DESTDIR=$1/$3.d version=$(uname -r) verbose=n "$2" 2> "$1/$3.err"
        ' sh "$T_TMP" "$HOOK" "$1" "$APPLY_BIN" || { cat "$T_TMP/$1.err"; bad "$1: the hook failed"; }
}

hook good
grep -qxF "copy_file config /etc/iosched.d/50-test.conf" "$T_TMP/good.log" || bad "good: the policy file is not copied: $(cat "$T_TMP/good.log")"
grep -qxF "copy_exec $APPLY_BIN" "$T_TMP/good.log" || bad "good: iosched-apply is not copied"
[ -f "$T_TMP/good.d/lib/udev/rules.d/60-iosched.rules" ] || bad "good: the rule is not copied"
grep -q . "$T_TMP/good.err" && bad "good: the hook warned: $(cat "$T_TMP/good.err")"

# refused: each case must be refused by iosched-apply and by the hook alike
check_refused() {
        n=$1 want=$2
        hook "$n"
        grep -q "refusing" "$T_TMP/$n.tool" || bad "$n: iosched-apply does not refuse it (test setup): $(cat "$T_TMP/$n.tool")"
        grep -q "not copying /etc/iosched.d/50-test.conf: iosched-apply refuses it: .*$want" "$T_TMP/$n.err" ||
                bad "$n: the hook does not say why it refuses (want \"$want\"): $(cat "$T_TMP/$n.err")"
        grep -q "left out of this initramfs" "$T_TMP/$n.err" || bad "$n: the hook does not say iosched is left out"
        grep -q "50-test.conf" "$T_TMP/$n.log" && bad "$n: the hook copied the refused file: $(cat "$T_TMP/$n.log")"
        grep -q "copy_exec" "$T_TMP/$n.log" && bad "$n: the hook copied iosched-apply without its policy"
        [ -e "$T_TMP/$n.d/lib/udev/rules.d/60-iosched.rules" ] && bad "$n: the hook copied the rule without its policy"
        echo "hook: $n refused: $(head -n 1 "$T_TMP/$n.err")"
}
chmod 0775 "$U/iosched.d"
check_refused group-dir "directory /etc/iosched.d is writable by group or others"
chmod 0755 "$U/iosched.d"
chmod 0664 "$U/iosched.d/50-test.conf"
check_refused group-file "/etc/iosched.d/50-test.conf is writable by group or others"
chmod 0644 "$U/iosched.d/50-test.conf"
chown 65534 "$U/iosched.d/50-test.conf"
check_refused not-root "/etc/iosched.d/50-test.conf is not owned by root"
chown 0 "$U/iosched.d/50-test.conf"
hook fixed
grep -qxF "copy_file config /etc/iosched.d/50-test.conf" "$T_TMP/fixed.log" || bad "fixed: the policy file is not copied"

# --- the dracut module --------------------------------------------------
R=$T_TMP/root
mkdir -p "$R/etc/udev/rules.d" "$R/usr/sbin" "$R/etc/iosched.d" "$R/usr/lib/iosched" "$T_TMP/init"
chmod 0755 "$R"
sed 's|@SBINDIR@|/usr/sbin|' "$top/udev/60-iosched.rules.in" > "$R/etc/udev/rules.d/60-iosched.rules"
printf '#!/bin/sh\n' > "$R/usr/sbin/iosched-apply"
chmod 0755 "$R/usr/sbin/iosched-apply"
echo '[Daemon]' > "$R/etc/iosched.d/50-site.conf"
echo '[Daemon]' > "$R/usr/lib/iosched/10-vendor.conf"
chmod 0644 "$R/etc/iosched.d/50-site.conf" "$R/usr/lib/iosched/10-vendor.conf"
drun() {
        (
                export dracutsysrootdir=$R initdir=$T_TMP/init udevdir=/lib/udev hostonly=yes
                inst_rules() { echo "inst_rules $*"; }
                inst_binary() { echo "inst_binary $*"; }
                inst_simple() { echo "inst_simple $*"; }
                inst_dir() { mkdir -p "$initdir$1"; echo "inst_dir $*"; }
                # shellcheck source=/dev/null
                . "$MOD"
                "$@"
        )
}
drun check 2> "$T_TMP/d-good.err" || bad "dracut: check() excludes the module with a sound policy: $(cat "$T_TMP/d-good.err")"
drun install 2>&1 | grep -qxF "inst_simple /etc/iosched.d/50-site.conf" || bad "dracut: install() does not copy a sound file"

dcase() {
        n=$1 want=$2
        drun check 2> "$T_TMP/$n.err" && bad "dracut $n: check() includes the module"
        grep -q "not copying $3: iosched-apply refuses it: .*$want" "$T_TMP/$n.err" ||
                bad "dracut $n: no reason on stderr (want \"$want\"): $(cat "$T_TMP/$n.err")"
        out=$(drun install 2>/dev/null) && bad "dracut $n: install() succeeded"
        grep -q "inst_" <<< "$out" && bad "dracut $n: install() installed: $out"
        echo "dracut: $n refused: $(head -n 1 "$T_TMP/$n.err")"
}
chmod 0775 "$R/etc/iosched.d"
dcase group-dir "directory $R/etc/iosched.d is writable by group or others" /etc/iosched.d/50-site.conf
chmod 0755 "$R/etc/iosched.d"
chmod 0666 "$R/usr/lib/iosched/10-vendor.conf"
dcase world-file "10-vendor.conf is writable by group or others" /usr/lib/iosched/10-vendor.conf
chmod 0644 "$R/usr/lib/iosched/10-vendor.conf"
chown 65534 "$R/etc/iosched.d"
dcase not-root-dir "directory $R/etc/iosched.d is not owned by root" /etc/iosched.d/50-site.conf
chown 0 "$R/etc/iosched.d"
drun check 2>/dev/null || bad "dracut: check() still excludes the module once fixed"

[ $fail = 0 ] || exit 1
echo "PASS"
