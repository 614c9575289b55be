#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/pkg/deb-build-chroot.sh SUITE [OUTDIR]: the Debian packages built on
# another Debian release, as its users would build them (opt-in; needs root,
# mmdebstrap and Debian's mirror).  For example:
#
#   tests/pkg/deb-build-chroot.sh trixie      # Debian 13
#   tests/pkg/deb-build-chroot.sh bookworm    # Debian 12, as CI's host
#
# 1. a chroot of SUITE (mmdebstrap --variant=buildd from Debian's mirror, with
#    lintian), cached as a directory keyed by suite, mirror and its recipe
#    ($CHROOT_CACHE/SUITE-<hash>; the mirror's newer packages are taken at
#    step 3);
# 2. a fresh copy of it per run, with the tree (the files git knows or would
#    add) in /home/builder/src, owned by an unprivileged user "builder"
#    (steps 1 and 2: tests/pkg/chroot-lib.sh, shared with chroot-tests.sh);
# 3. as root in the chroot: apt-get update, dist-upgrade, apt-get build-dep ./
#    (debian/control's Build-Depends, with the test dependencies: no nocheck);
# 4. as "builder" (no root, no capability, in its own PID and mount namespace
#    with /proc and a read-only /sys, no loop device it may open):
#    tests/pkg/deb-build.sh, that is dpkg-buildpackage (source and binaries) WITH the build tests,
#    lintian --fail-on error,warning with SUITE's own lintian, the contents
#    and the control files checked;
# 5. OUTDIR (default build/deb-SUITE) receives the .debs, .changes,
#    .buildinfo, build.log, lintian.log and chroot.log (every step's output).
# Each step's time is printed.
# Exit: 0 pass, 1 fail, 77 skip (not root, no mmdebstrap, no unshare).
# Environment: CHROOT_MIRROR (http://deb.debian.org/debian), CHROOT_CACHE
# (/var/cache/iosched-chroot).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
suite=${1:-}
[ -n "$suite" ] || { echo "usage: $0 SUITE [OUTDIR]" >&2; exit 2; }
case $suite in *[!a-z0-9-]*) echo "$0: bad suite name '$suite'" >&2; exit 2 ;; esac
out=${2:-build/deb-$suite}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
MIRROR=${CHROOT_MIRROR:-http://deb.debian.org/debian}
CACHE=${CHROOT_CACHE:-/var/cache/iosched-chroot}

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (mmdebstrap --mode=root, chroot)"; exit 77; }
for c in mmdebstrap unshare chroot runuser tar; do
        command -v $c >/dev/null 2>&1 || { echo "SKIP: no $c (apt-get install mmdebstrap util-linux)"; exit 77; }
done

T0=$(date +%s)
step() { echo "== $1 ($(($(date +%s) - T0)) s so far)"; }
mkdir -p "$CACHE" "$out" || exit 1
rm -f "$out"/iosched*.deb "$out"/iosched*.changes "$out"/iosched*.buildinfo \
      "$out"/build.log "$out"/lintian.log "$out"/chroot.log
log=$out/chroot.log

# 1. and 2. the cached chroot, a fresh copy of it with the tree, in_chroot
. "$top/tests/pkg/chroot-lib.sh"

# 3. build dependencies from SUITE
step "apt-get update, dist-upgrade, build-dep ./"
s=$(date +%s)
if ! in_chroot 'export DEBIAN_FRONTEND=noninteractive; apt-get update -q && apt-get dist-upgrade -y -q &&
        cd /home/builder/src && apt-get build-dep -y -q --no-install-recommends ./' >>"$log" 2>&1; then
        tail -n 30 "$log"
        echo "FAIL: build dependencies on $suite"
        exit 1
fi
echo "   $(($(date +%s) - s)) s"
chroot "$root" dpkg-query -W -f '   ${Package} ${Version}\n' debhelper dpkg-dev gcc libsmartcols-dev libudev-dev systemd lintian 2>/dev/null

# 4. the build with its tests, lintian, contents: as "builder"
step "tests/pkg/deb-build.sh as builder (dpkg-buildpackage with the build tests, lintian)"
s=$(date +%s)
in_chroot 'cd /home/builder/src && exec runuser -u builder -- env HOME=/home/builder DEB_BUILD_OPTIONS= \
        tests/pkg/deb-build.sh /home/builder/out' >"$tmp/deb-build.out" 2>&1
rc=$?
echo "   $(($(date +%s) - s)) s, exit $rc"
sed 's/^/   /' "$tmp/deb-build.out"
cat "$tmp/deb-build.out" >>"$log"

# 5. the results
cp -p "$root"/home/builder/out/* "$out"/ 2>/dev/null
if [ -f "$out/build.log" ]; then
        # the build tests' summary lines, as the build printed them
        grep -aE '^== .*[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped|^(FAIL|SKIP) ' "$out/build.log" | sed 's/^/   build tests: /'
fi
echo "== total $(($(date +%s) - T0)) s; logs in $out"
[ $rc = 0 ] || { echo "deb-build-chroot $suite: FAIL (tests/pkg/deb-build.sh exit $rc)"; exit 1; }
echo "deb-build-chroot $suite: PASS ($out)"
exit 0
