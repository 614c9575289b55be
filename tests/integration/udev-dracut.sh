#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: dracut/90iosched/module-setup.sh against a fake system root
# ($dracutsysrootdir) with dracut's install helpers stubbed to record their
# calls: check() includes the module only when the rule and the program it
# runs are installed (and the rule is not masked); depends() pulls udev-rules;
# install() installs the rule, the program, /etc and vendor policy files and
# keeps a masked file masked; installkernel() asks for the scheduler modules.
# dracut itself is not needed.  Exit 0 pass, 1 fail.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
MOD=$top/dracut/90iosched/module-setup.sh
T=$(mktemp -d /tmp/iosched-dracut-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
[ -f "$MOD" ] || { echo "FAIL: missing dracut/90iosched/module-setup.sh"; exit 1; }

R=$T/root
mkdir -p "$R/etc/udev/rules.d" "$R/usr/sbin" "$R/etc/iosched.d" "$R/usr/lib/iosched" "$T/init"
sed 's|@SBINDIR@|/usr/sbin|' "$top/udev/60-iosched.rules.in" > "$R/etc/udev/rules.d/60-iosched.rules"
printf '#!/bin/sh\n' > "$R/usr/sbin/iosched-apply"
chmod 0755 "$R/usr/sbin/iosched-apply"
echo '[Daemon]' > "$R/etc/iosched.conf"
echo '[Daemon]' > "$R/etc/iosched.d/50-site.conf"
echo '[Daemon]' > "$R/usr/lib/iosched/10-vendor.conf"
echo '[Daemon]' > "$R/usr/lib/iosched/20-hidden.conf"
ln -s /dev/null "$R/etc/iosched.d/20-hidden.conf"

# run one function of the module in a shell with dracut's helpers stubbed
run() {
        (
                export dracutsysrootdir=$R initdir=$T/init udevdir=/lib/udev hostonly=yes
                inst_rules() { echo "inst_rules $*"; }
                inst_binary() { echo "inst_binary $*"; }
                inst_simple() { echo "inst_simple $*"; }
                inst_dir() { mkdir -p "$initdir$1"; echo "inst_dir $*"; }
                instmods() { echo "instmods hostonly=[$hostonly] $*"; }
                # shellcheck source=/dev/null
                . "$MOD"
                "$@"
        )
}

run check || t_fail "check() excludes the module although rule and program are installed"
[ "$(run depends)" = udev-rules ] || t_fail "depends() does not name udev-rules"
out=$(run install) || t_fail "install() failed"
echo "$out"
for want in "inst_rules 60-iosched.rules" "inst_binary /usr/sbin/iosched-apply" \
            "inst_simple /etc/iosched.conf" "inst_simple /etc/iosched.d/50-site.conf" \
            "inst_simple /usr/lib/iosched/10-vendor.conf"; do
        grep -qxF "$want" <<< "$out" || t_fail "install() did not call: $want"
done
grep -q "inst_simple /etc/iosched.d/20-hidden.conf" <<< "$out" && t_fail "install() copied a masked file"
[ "$(readlink "$T/init/etc/iosched.d/20-hidden.conf")" = /dev/null ] || t_fail "the mask is not kept"
grep -q "inst_simple /usr/lib/iosched/20-hidden.conf" <<< "$out" ||
        t_fail "the vendor file behind the mask is not installed (the mask then hides it)"
k=$(run installkernel)
[ "$k" = "instmods hostonly=[] mq-deadline kyber-iosched bfq" ] || t_fail "installkernel(): $k"

# not installed, or masked, or the program missing: module left out
mv "$R/etc/udev/rules.d/60-iosched.rules" "$T/rule"
run check && t_fail "check() includes the module without the rule"
ln -s /dev/null "$R/etc/udev/rules.d/60-iosched.rules"
run check && t_fail "check() includes the module with a masked rule"
rm "$R/etc/udev/rules.d/60-iosched.rules"
mv "$T/rule" "$R/etc/udev/rules.d/60-iosched.rules"
rm "$R/usr/sbin/iosched-apply"
run check && t_fail "check() includes the module without iosched-apply"

[ $fail = 0 ] || exit 1
echo "PASS"
