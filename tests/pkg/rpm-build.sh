#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/pkg/rpm-build.sh [OUTDIR]: builds the RPMs from iosched.spec and checks
# what they hold.  OUTDIR (default build/rpm under the top of the tree) becomes
# rpmbuild's _topdir: the RPMs end up in OUTDIR/RPMS/<arch>/, the build log in
# OUTDIR/rpmbuild.log.
#
# 1. the source tarball iosched-VERSION.tar.gz (top directory iosched-VERSION/):
#    `make dist` when the Makefile has it (it packs the files git tracks, as
#    they are in the work tree), else, or with RPM_SOURCE=worktree, a tar of
#    the working tree's files that git knows or would add (tracked and
#    untracked, not ignored: new files not added yet are in it too);
# 2. rpmbuild -bb --nodeps --define "_topdir OUTDIR" iosched.spec (--nodeps: on
#    Debian the build dependencies are .debs, not in an RPM database);
# 3. rpm -qlp: the rule under /usr/lib/udev/rules.d, the unit under
#    /usr/lib/systemd/system, the dracut module, the programs, the man pages,
#    the license, bash completion; nothing under /usr/local, no
#    initramfs-tools hook; iosched-bench only in iosched-bench;
# 4. the payload: the rule runs /usr/sbin/iosched-apply, the unit starts
#    /usr/sbin/ioschedd, the preset disables ioschedd, the vendor policy
#    directory compiled in is /usr/lib/iosched, no @PLACEHOLDER@ left and no
#    /usr/local in the manual pages, the rule or the unit;
# 5. rpm -qp --scripts: the reload of the rules and the one-off apply (or, with
#    systemd-rpm-macros installed, the systemd scriptlets for ioschedd.service);
# 6. rpmlint, if installed: its output is printed, not judged (Debian's rpmlint
#    has no Fedora configuration and flags the Debian host's build).
# Environment: RPMBUILD_OPTS, extra rpmbuild options (split on blanks), e.g.
# "--without check" or "--load FILE" (another distribution's macros, to see
# their scriptlets); RPM_SOURCE=worktree, see 1.
# Exit: 0 pass, 1 fail, 77 skip (rpmbuild missing).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

command -v rpmbuild >/dev/null 2>&1 || { echo "SKIP: no rpmbuild (apt-get install rpm)"; exit 77; }
for c in rpm2cpio cpio; do
        command -v $c >/dev/null 2>&1 || { echo "SKIP: no $c"; exit 77; }
done

out=${1:-build/rpm}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
version=$(cat VERSION) || exit 1
name=iosched-$version
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

specver=$(sed -n 's/^Version:[[:space:]]*//p' iosched.spec)
[ "$specver" = "$version" ] || { echo "FAIL: iosched.spec has Version $specver, VERSION says $version"; exit 1; }

# only what rpmbuild and this script make there is removed
for d in BUILD BUILDROOT RPMS SRPMS SOURCES SPECS tmp rpmbuild.log; do rm -rf "${out:?}/$d"; done
mkdir -p "$out/SOURCES" "$out/tmp" || exit 1
tmp=$out/tmp

# 1. the source tarball
if [ "${RPM_SOURCE:-}" != worktree ] && grep -q '^dist:' Makefile; then
        echo "== make dist"
        make dist >"$tmp/dist.log" 2>&1 || { cat "$tmp/dist.log"; echo "FAIL: make dist"; exit 1; }
        tarball=$name.tar.gz
        [ -e "$tarball" ] || tarball=$(find . -maxdepth 2 -name "$name.tar.gz" | head -n 1)
        [ -n "$tarball" ] || { cat "$tmp/dist.log"; echo "FAIL: make dist made no $name.tar.gz"; exit 1; }
        mv "$tarball" "$out/SOURCES/$name.tar.gz" || exit 1
        # make dist packs what git tracks: name what it left out
        new=$(git ls-files --others --exclude-standard 2>/dev/null | head -n 20 | tr '\n' ' ')
        [ -z "$new" ] || echo "   note: not in the tarball (untracked, git add them or RPM_SOURCE=worktree): $new"
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        echo "== tar of the working tree's files (git ls-files -co --exclude-standard)"
        . "$top/tests/pkg/tree-copy.sh"
        tree_copy "$tmp/src/$name" || exit 1
        tar -czf "$out/SOURCES/$name.tar.gz" -C "$tmp/src" "$name" || exit 1
        rm -rf "$tmp/src"
else
        echo "FAIL: no dist target in the Makefile and no git work tree to tar"; exit 1
fi
tar -tzf "$out/SOURCES/$name.tar.gz" >"$tmp/tarlist" || { echo "FAIL: unreadable tarball"; exit 1; }
bad=$(grep -v "^$name/" "$tmp/tarlist" | head -n 3)
[ -z "$bad" ] || { echo "FAIL: tarball entries outside $name/: $bad"; exit 1; }
for f in Makefile VERSION LICENSE README.md udev/60-iosched.rules.in systemd/ioschedd.service \
         dracut/90iosched/module-setup.sh tests/run.sh; do
        grep -qx "$name/$f" "$tmp/tarlist" || t_fail "$f is not in the source tarball"
done
[ $fail = 0 ] || exit 1
echo "   $(wc -l <"$tmp/tarlist") entries, $(du -k "$out/SOURCES/$name.tar.gz" | cut -f1) kB"

# 2. rpmbuild
echo "== rpmbuild -bb --nodeps ${RPMBUILD_OPTS:+$RPMBUILD_OPTS }--define \"_topdir $out\" iosched.spec"
start=$(date +%s)
# shellcheck disable=SC2086 # RPMBUILD_OPTS is a list of options
rpmbuild -bb --nodeps ${RPMBUILD_OPTS:-} --define "_topdir $out" iosched.spec >"$out/rpmbuild.log" 2>&1
rc=$?
if [ $rc != 0 ]; then
        tail -n 60 "$out/rpmbuild.log"
        echo "FAIL: rpmbuild exited $rc (log: $out/rpmbuild.log)"; exit 1
fi
grep -E '^(PASS|SKIP|FAIL|==) ' "$out/rpmbuild.log" | sed 's/^/   check: /'
grep '^Wrote: ' "$out/rpmbuild.log" | sed 's/^/   /'
echo "   $(( $(date +%s) - start )) s"

main=$(ls "$out"/RPMS/*/"$name"-*.rpm 2>/dev/null | head -n 1)
bench=$(ls "$out"/RPMS/*/iosched-bench-"$version"-*.rpm 2>/dev/null | head -n 1)
[ -n "$main" ] || { echo "FAIL: no $name-*.rpm"; exit 1; }
[ -n "$bench" ] || { echo "FAIL: no iosched-bench-$version-*.rpm"; exit 1; }

# 3. the file lists
for r in "$main" "$bench"; do
        echo "== rpm -qlp $(basename "$r")"
        rpm -qlp "$r" | tee "$tmp/$(basename "$r").list" | sed 's/^/   /'
        grep -q '^/usr/local' "$tmp/$(basename "$r").list" && t_fail "$(basename "$r") installs under /usr/local"
        grep -q 'initramfs-tools' "$tmp/$(basename "$r").list" && t_fail "$(basename "$r") has the initramfs-tools hook"
done
ml=$tmp/$(basename "$main").list
bl=$tmp/$(basename "$bench").list
has() { grep -Eq "^$2\$" "$1" || t_fail "$(basename "$1" .list) lacks $2"; }
has "$ml" /usr/sbin/iosched-apply
has "$ml" /usr/sbin/ioschedd
has "$ml" /usr/lib/udev/rules.d/60-iosched.rules
has "$ml" /usr/lib/systemd/system/ioschedd.service
has "$ml" /usr/lib/systemd/system/iosched-textfile.service
has "$ml" /usr/lib/systemd/system/iosched-textfile.timer
has "$ml" /usr/lib/systemd/system-preset/95-iosched.preset
has "$ml" /usr/lib/dracut/modules.d/90iosched
has "$ml" /usr/lib/dracut/modules.d/90iosched/module-setup.sh
has "$ml" /usr/lib/iosched
has "$ml" /etc/iosched.d
has "$ml" /var/lib/iosched/evidence
has "$ml" /usr/share/iosched/iosched-evidence.schema.json
has "$ml" '/usr/share/man/man5/iosched.conf.5(\.gz|\.xz|\.bz2)?'
has "$ml" '/usr/share/man/man7/iosched.7(\.gz|\.xz|\.bz2)?'
has "$ml" '/usr/share/man/man8/iosched-apply.8(\.gz|\.xz|\.bz2)?'
has "$ml" '/usr/share/man/man8/ioschedd.8(\.gz|\.xz|\.bz2)?'
# Fedora's %_docdir_fmt is %{NAME}, Debian's rpm keeps %{NAME}-%{VERSION}
has "$ml" "/usr/share/licenses/iosched(-$version)?/LICENSE"
has "$ml" "/usr/share/doc/iosched(-$version)?/README.md"
has "$ml" /usr/share/bash-completion/completions/iosched-apply
has "$ml" /usr/share/bash-completion/completions/ioschedd
has "$bl" /usr/sbin/iosched-bench
has "$bl" /usr/share/bash-completion/completions/iosched-bench
has "$bl" '/usr/share/man/man8/iosched-bench.8(\.gz|\.xz|\.bz2)?'
has "$bl" "/usr/share/licenses/iosched-bench(-$version)?/LICENSE"
grep -q 'iosched-bench' "$ml" && t_fail "iosched-bench is in the main package"
grep -Eq 'iosched-apply|ioschedd' "$bl" && t_fail "the bench package has the main package's files"
rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$main" | grep -E ' (/usr/sbin/|/usr/lib/dracut/.*\.sh$)' |
        grep -v '^-rwxr-xr-x ' | while read -r l; do echo "FAIL: not 0755: $l"; done | grep . && fail=1

# 4. the payload
mkdir -p "$tmp/root"
(cd "$tmp/root" && rpm2cpio "$main" | cpio -idm --quiet && rpm2cpio "$bench" | cpio -idm --quiet) ||
        { echo "FAIL: cannot unpack the RPMs"; exit 1; }
r=$tmp/root
grep -q '^RUN+="/usr/sbin/iosched-apply --udev \$kernel"' "$r/usr/lib/udev/rules.d/60-iosched.rules" ||
        t_fail "the rule does not run /usr/sbin/iosched-apply: $(grep RUN "$r/usr/lib/udev/rules.d/60-iosched.rules")"
grep -q '^ExecStart=/usr/sbin/ioschedd\( \|$\)' "$r/usr/lib/systemd/system/ioschedd.service" ||
        t_fail "the unit does not start /usr/sbin/ioschedd: $(grep ExecStart "$r/usr/lib/systemd/system/ioschedd.service")"
grep -qx 'disable ioschedd.service' "$r/usr/lib/systemd/system-preset/95-iosched.preset" ||
        t_fail "the preset does not disable ioschedd.service"
grep -qx 'disable iosched-textfile.timer' "$r/usr/lib/systemd/system-preset/95-iosched.preset" ||
        t_fail "the preset does not disable iosched-textfile.timer"
grep -aqx '/usr/lib/iosched' "$r/usr/sbin/iosched-apply" 2>/dev/null ||
        strings "$r/usr/sbin/iosched-apply" 2>/dev/null | grep -qx /usr/lib/iosched ||
        t_fail "iosched-apply does not read the vendor policy from /usr/lib/iosched"
left=$(grep -rl /usr/local "$r/usr/share/man" 2>/dev/null | sed "s|^$r||")
for f in "$r"/usr/lib/udev/rules.d/* "$r"/usr/lib/systemd/system/*; do   # comments aside
        grep -v '^[[:space:]]*#' "$f" | grep -q /usr/local && left="$left ${f#"$r"}"
done
[ -z "$left" ] || t_fail "/usr/local named in: $left"
left=$(grep -rlE '@(SBINDIR|PREFIX|MANDIR|LIBDIR|SYSCONFDIR|UDEVDIR|VERSION)[A-Z_]*@' \
        "$r/usr/lib/udev" "$r/usr/lib/systemd" "$r/usr/lib/dracut" "$r/usr/share/man" 2>/dev/null | sed "s|^$r||")
[ -z "$left" ] || t_fail "unsubstituted placeholders in: $left"
"$r/usr/sbin/iosched-apply" --version >/dev/null 2>&1 || t_fail "the packaged iosched-apply does not run"

# 5. the scriptlets
echo "== rpm -qp --scripts $(basename "$main")"
rpm -qp --scripts "$main" | tee "$tmp/scripts" | sed 's/^/   /'
grep -q '/usr/local' "$tmp/scripts" && t_fail "a scriptlet names /usr/local"
grep -q '/usr/sbin/iosched-apply --quiet' "$tmp/scripts" || t_fail "%post does not apply the policy"
# built with systemd-rpm-macros (the scriptlets name the unit): the Fedora
# scriptlets; without them, only the fallback reload of the rules
if grep -q 'ioschedd\.service' "$tmp/scripts"; then
        for s in postinstall preuninstall postuninstall; do
                sed -n "/^$s scriptlet/,/scriptlet/p" "$tmp/scripts" | grep -q 'ioschedd\.service' ||
                        t_fail "$s has no systemd scriptlet for ioschedd.service"
        done
else
        echo "   (no systemd-rpm-macros here: the systemd scriptlets are empty by design)"
        [ "$(grep -c 'udevadm control --reload' "$tmp/scripts")" -ge 2 ] ||
                t_fail "%post and %postun do not reload the udev rules"
fi
out_b=$(rpm -qp --scripts "$bench")
[ -z "$out_b" ] || t_fail "iosched-bench has scriptlets: $out_b"

# 6. rpmlint
if command -v rpmlint >/dev/null 2>&1; then
        echo "== rpmlint (informational)"
        rpmlint iosched.spec "$main" "$bench" 2>&1 | sed 's/^/   /'
fi

rm -rf "$tmp"
[ $fail = 0 ] || { echo "== FAIL"; exit 1; }
echo "== PASS: $(basename "$main") $(basename "$bench") in $(dirname "$main")"
exit 0
