#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/pkg/deb-build.sh [OUTDIR]: builds the Debian packages and checks them.
# OUTDIR (default build/deb under the top of the tree) receives the .debs,
# the .changes and .buildinfo, build.log and lintian.log.
#
# 1. a clean copy of the tree: the files git knows or would add (tracked and
#    untracked, not ignored, as they are in the work tree, so uncommitted
#    changes are in it; no build directories), in a temporary directory;
# 2. dpkg-buildpackage -us -uc there, the source package and the binaries
#    (debian/rules: dpkg-buildflags with hardening=+all, the tests that need
#    no root);
# 3. lintian --fail-on error,warning on the .changes (the source package, the
#    .changes and every .deb in it), with its informational tags shown; a
#    lintian older than debian/control's Standards-Version (Debian 12's knows
#    4.6.2) cannot judge it, so its newer-standards-version tag is suppressed
#    there and only there;
# 4. dpkg-deb -c: the programs, the udev rule, the unit, the initramfs-tools
#    hook, the dracut module, the manual pages, the bash completions at their
#    paths, the admin guide and the examples (a drop-in, the alert rules, the
#    Ansible collection, the Puppet module) in /usr/share/doc/iosched,
#    iosched-bench only in iosched-bench, nothing under /usr/local or
#    /etc; the payload: the rule and the unit name /usr/sbin, the manual
#    pages /usr/lib/iosched; the control files: the update-initramfs
#    trigger, the postinst's apply, ioschedd not enabled;
# 5. hardening-check on the programs (PIE, stack protector, fortify, relro,
#    bindnow; not control flow integrity, see below) and blhc --bindnow on the build log (PIE is Debian GCC's
#    default, not a command-line flag, so blhc --all would flag every line),
#    when installed;
# 6. prints each package's Installed-Size.
# Exit: 0 pass, 1 fail, 77 skip (dpkg-buildpackage, dpkg-deb or lintian missing).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

for c in dpkg-buildpackage dpkg-deb dpkg-parsechangelog dpkg-checkbuilddeps lintian; do
        command -v $c >/dev/null 2>&1 ||
                { echo "SKIP: no $c (apt-get install dpkg-dev debhelper lintian)"; exit 77; }
done

out=${1:-build/deb}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
version=$(cat VERSION) || exit 1
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

debver=$(dpkg-parsechangelog -l debian/changelog -S Version) || { echo "FAIL: debian/changelog"; exit 1; }
[ "$debver" = "$version" ] || { echo "FAIL: debian/changelog has version $debver, VERSION says $version"; exit 1; }
if ! missing=$(dpkg-checkbuilddeps 2>&1); then
        echo "FAIL: build dependencies missing: $missing"
        echo "      apt-get install $(printf '%s\n' "$missing" | sed -n 's/.*Unmet build dependencies: //p' | sed 's/([^)]*)//g; s/<[^>]*>//g')"
        exit 1
fi

mkdir -p "$out" || exit 1
# only what this script makes there is removed
rm -f "$out"/iosched*.deb "$out"/iosched*.changes "$out"/iosched*.buildinfo "$out"/iosched_*.dsc "$out"/iosched_*.tar.* \
      "$out"/build.log "$out"/lintian.log
tmp=$(mktemp -d /tmp/iosched-deb-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
src=$tmp/iosched-$version

# 1. the clean copy
. "$top/tests/pkg/tree-copy.sh"
tree_copy "$src" || { echo "FAIL: copying the tree to $src"; exit 1; }
[ -f "$src/debian/control" ] || { echo "FAIL: no debian/control in the copy"; exit 1; }
echo "== copy: $(find "$src" -type f | wc -l) files in $src"

# 2. the build
jobs=$(nproc 2>/dev/null || echo 1)
echo "== dpkg-buildpackage -us -uc (source and binaries, parallel=$jobs)"
start=$(date +%s)
(cd "$src" && DEB_BUILD_OPTIONS="parallel=$jobs ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc) \
        >"$out/build.log" 2>&1
rc=$?
echo "   $(($(date +%s) - start)) s, exit $rc, log $out/build.log"
if [ $rc != 0 ]; then
        tail -n 40 "$out/build.log"
        echo "FAIL: dpkg-buildpackage exit $rc"
        exit 1
fi
grep -E '^(PASS|FAIL|SKIP) |^== ' "$out/build.log" | grep -v '^PASS' | sed 's/^/   build tests: /'
mv "$tmp"/iosched*_"$version"_*.deb "$tmp"/iosched_"$version"_*.changes "$tmp"/iosched_"$version"_*.buildinfo \
   "$tmp"/iosched_"$version".dsc "$tmp"/iosched_"$version".tar.* "$out"/ ||
        { echo "FAIL: dpkg-buildpackage made no .deb/.dsc/.changes"; exit 1; }
changes=$(ls "$out"/iosched_"$version"_*.changes)
grep -q "iosched_$version\.dsc\$" "$changes" || { echo "FAIL: the .changes lists no source package"; exit 1; }
main=$(ls "$out"/iosched_"$version"_*.deb)
bench=$(ls "$out"/iosched-bench_"$version"_*.deb)
[ -f "$main" ] && [ -f "$bench" ] || { echo "FAIL: expected iosched and iosched-bench .debs"; exit 1; }
echo "== built: $(cd "$out" && ls iosched*.deb | tr '\n' ' ')"

# 3. lintian (errors and warnings fail; informational tags are shown)
suppress=""
std=$(sed -n 's/^Standards-Version: *//p' debian/control)
known=$(perl -MJSON::PP -0777 -ne 'print "$_->{version}\n" for @{decode_json($_)->{releases}}' \
        /usr/share/lintian/data/debian-policy/releases.json 2>/dev/null | sort -V | tail -n 1)
if [ -n "$known" ] && [ "$(printf '%s\n%s\n' "$std" "$known" | sort -V | tail -n 1)" != "$known" ]; then
        echo "== this lintian knows Standards-Version $known, debian/control says $std: newer-standards-version suppressed"
        suppress="--suppress-tags newer-standards-version"
fi
echo "== lintian --fail-on error,warning --display-info $suppress $(basename "$changes")"
# shellcheck disable=SC2086
lintian --fail-on error,warning --display-info $suppress "$changes" >"$out/lintian.log" 2>&1
rc=$?
grep -v '^running with root privileges' "$out/lintian.log" | sed 's/^/   /'
[ $rc = 0 ] || t_fail "lintian exit $rc"
grep -q '^[EW]: ' "$out/lintian.log" && t_fail "lintian reports errors or warnings"
[ -s "$out/lintian.log" ] || echo "   (no tags)"

# 4. contents
list() { dpkg-deb -c "$1" | awk '{ print $6 }' | sed 's|^\./|/|'; }
list "$main" >"$tmp/main.list"
list "$bench" >"$tmp/bench.list"
has() { # LIST PATH-REGEX WHAT
        grep -Eqx "$2" "$tmp/$1.list" || t_fail "$1 .deb has no $3 ($2)"
}
has main '/usr/sbin/iosched-apply' 'iosched-apply'
has main '/usr/sbin/ioschedd' 'ioschedd'
has main '(/usr)?/lib/udev/rules\.d/60-iosched\.rules' 'udev rule'
has main '(/usr)?/lib/systemd/system/ioschedd\.service' 'unit'
has main '(/usr)?/lib/systemd/system/iosched-textfile\.service' 'textfile unit'
has main '(/usr)?/lib/systemd/system/iosched-textfile\.timer' 'textfile timer'
has main '/usr/share/initramfs-tools/hooks/iosched' 'initramfs-tools hook'
has main '/usr/lib/dracut/modules\.d/90iosched/module-setup\.sh' 'dracut module'
has main '/usr/lib/iosched/' 'vendor policy directory'
for m in man5/iosched.conf.5 man7/iosched.7 man8/iosched-apply.8 man8/ioschedd.8; do
        has main "/usr/share/man/$m\\.gz" "manual page $m"
done
has main '/usr/share/bash-completion/completions/iosched-apply' 'completion for iosched-apply'
has main '/usr/share/bash-completion/completions/ioschedd' 'completion for ioschedd'
has main '/usr/share/doc/iosched/copyright' 'copyright'
has main '/usr/share/doc/iosched/admin-guide\.md(\.gz)?' 'admin guide'
has main '/usr/share/doc/iosched/examples/60-site\.conf' 'example drop-in'
has main '/usr/share/doc/iosched/examples/iosched\.rules\.yml' 'alert rules'
has main '/usr/share/doc/iosched/examples/ansible/galaxy\.yml' 'Ansible collection'
has main '/usr/share/doc/iosched/examples/puppet/iosched/metadata\.json' 'Puppet module'
has bench '/usr/share/doc/iosched-bench/security\.md(\.gz)?' 'security model'
has bench '/usr/sbin/iosched-bench' 'iosched-bench'
has bench '/usr/share/man/man8/iosched-bench\.8\.gz' 'manual page iosched-bench(8)'
has bench '/usr/share/bash-completion/completions/iosched-bench' 'completion for iosched-bench'
grep -q 'iosched-bench' "$tmp/main.list" && t_fail "iosched .deb holds iosched-bench files: $(grep iosched-bench "$tmp/main.list" | tr '\n' ' ')"
cat "$tmp/main.list" "$tmp/bench.list" | grep -E '^/usr/local|^/etc' && t_fail "files under /usr/local or /etc"
hook_mode=$(dpkg-deb -c "$main" | awk '$6 == "./usr/share/initramfs-tools/hooks/iosched" { print $1 }')
[ "$hook_mode" = -rwxr-xr-x ] || t_fail "the initramfs hook is $hook_mode, not executable"

# the payload and the control files
x=$tmp/x
dpkg-deb -x "$main" "$x" && dpkg-deb -e "$main" "$x/DEBIAN" && dpkg-deb -x "$bench" "$x" ||
        { echo "FAIL: cannot unpack the .debs"; exit 1; }
rule=$(find "$x" -name 60-iosched.rules)
grep -qx 'RUN+="/usr/sbin/iosched-apply --udev $kernel"' "$rule" || t_fail "the rule does not run /usr/sbin/iosched-apply: $(grep RUN "$rule")"
unit=$(find "$x" -name ioschedd.service)
grep -qx 'ExecStart=/usr/sbin/ioschedd' "$unit" || t_fail "the unit does not start /usr/sbin/ioschedd: $(grep ExecStart "$unit")"
tf=$(find "$x" -name iosched-textfile.service)
grep -qx 'ExecStart=/usr/sbin/iosched-apply --check --textfile ${IOSCHED_TEXTFILE}' "$tf" ||
        t_fail "the textfile unit does not run /usr/sbin/iosched-apply --check --textfile: $(grep ExecStart "$tf")"
grep -q 'iosched-textfile.timer' "$x/DEBIAN/postinst" && grep -q 'deb-systemd-invoke start.*iosched-textfile' "$x/DEBIAN/postinst" &&
        t_fail "the postinst starts iosched-textfile.timer"
zcat "$x"/usr/share/man/man*/*.gz | grep -q /usr/local && t_fail "a manual page names /usr/local"
zcat "$x/usr/share/man/man5/iosched.conf.5.gz" | grep -q '^\.I /usr/lib/iosched/\*\.conf' || t_fail "iosched.conf(5) does not name /usr/lib/iosched"
strings "$x/usr/sbin/iosched-apply" | grep -qx /usr/lib/iosched || t_fail "iosched-apply's vendor dir is not /usr/lib/iosched"
grep -qx 'activate-noawait update-initramfs' "$x/DEBIAN/triggers" || t_fail "no update-initramfs trigger"
grep -q 'iosched-apply --quiet' "$x/DEBIAN/postinst" || t_fail "the postinst does not apply the policy"
grep -q 'deb-systemd-helper enable' "$x/DEBIAN/postinst" && ! grep -q 'was-enabled' "$x/DEBIAN/postinst" &&
        t_fail "the postinst enables ioschedd"
grep -q 'try-restart' "$x/DEBIAN/postinst" || t_fail "the postinst does not try-restart ioschedd on upgrade"
grep -q 'as they are' "$x/DEBIAN/postrm" || t_fail "the postrm does not say the schedulers stay as they are"
grep -q 'rm -rf /etc/iosched.d' "$x/DEBIAN/postrm" || t_fail "the postrm does not purge /etc/iosched.d"
grep -q 'rm -rf /var/lib/iosched' "$x/DEBIAN/postrm" || t_fail "the postrm does not purge the evidence (/var/lib/iosched)"
[ -d "$x/var/lib/iosched/evidence" ] || t_fail "the package does not own /var/lib/iosched/evidence"
[ -f "$x/usr/share/iosched/iosched-evidence.schema.json" ] || t_fail "no evidence schema shipped"
[ -e "$x/DEBIAN/conffiles" ] && t_fail "conffiles shipped: $(cat "$x/DEBIAN/conffiles")"
echo "== contents: $(wc -l <"$tmp/main.list") entries in iosched, $(wc -l <"$tmp/bench.list") in iosched-bench; paths, payload and scripts checked"

# 5. hardening
if command -v hardening-check >/dev/null 2>&1; then
        # --nocfprotection: Debian 12's glibc start files (Scrt1.o, crti.o)
        # carry no IBT/SHSTK property, so no program linked on it has one,
        # whatever its flags (a hello world with -fcf-protection has none)
        echo "== hardening-check --nocfprotection"
        for b in "$x"/usr/sbin/*; do
                res=$(hardening-check --nocfprotection "$b" 2>&1); rc=$?
                printf '%s\n' "$res" | sed "s|$x||; s/^/   /"
                [ $rc = 0 ] || t_fail "hardening-check ${b#"$x"}"
        done
else
        echo "== hardening-check not installed (devscripts): not checked"
fi
if command -v blhc >/dev/null 2>&1; then
        echo "== blhc --bindnow $out/build.log"
        res=$(blhc --bindnow "$out/build.log" 2>&1); rc=$?
        [ -n "$res" ] && printf '%s\n' "$res" | sed 's/^/   /'
        [ $rc = 0 ] || t_fail "blhc exit $rc"
        [ $rc = 0 ] && [ -z "$res" ] && echo "   (clean: every compile and link line has the hardening flags)"
else
        echo "== blhc not installed: build log not checked"
fi

# 6. sizes
echo "== Installed-Size"
for d in "$main" "$bench"; do
        printf '   %-16s %6s KiB  (.deb %s bytes)  Depends: %s\n' \
                "$(dpkg-deb -f "$d" Package)" "$(dpkg-deb -f "$d" Installed-Size)" "$(stat -c %s "$d")" \
                "$(dpkg-deb -f "$d" Depends)"
done

[ $fail = 0 ] || { echo "deb-build: FAIL"; exit 1; }
echo "deb-build: PASS ($out)"
exit 0
