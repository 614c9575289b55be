#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/pkg/chroot-tests.sh SUITE [TESTS]: the tree's tests as root in a
# chroot of another Debian release, built with its compiler and libraries
# and run with its fio and util-linux, on this machine's kernel, loop
# devices and cgroups (opt-in; needs root, mmdebstrap and Debian's mirror).
# TESTS as tests/run.sh takes it; by default bench-fio, the tests of the
# fio backend, which a newer fio moves first (Debian 13's fio 3.39 has
# engines Debian 12's 3.33 does not).  For example:
#
#   tests/pkg/chroot-tests.sh trixie          # with Debian 13's fio
#
# 1. and 2. the cached chroot of SUITE and a fresh copy of it with the tree
#    (tests/pkg/chroot-lib.sh, shared with deb-build-chroot.sh);
# 3. as root in the chroot: apt-get update, dist-upgrade, build-dep ./ and
#    the packages the tests use (those of the README's test command);
# 4. as root in the chroot, in a mount and PID namespace of its own with a
#    /proc of its own and this machine's /dev, /sys and /run (the tests
#    make loop devices, set their schedulers and make the run's cgroups;
#    the machine-wide test lock and the benchmark locks are the host's):
#    make tests, then tests/run.sh with TESTS.
# Each step's time is printed; OUTDIR build/chroot-tests-SUITE receives the
# log of every step (chroot.log) and of the tests (tests.log).
# Exit: 0 pass, 1 fail, 77 skip (not root, no mmdebstrap, no unshare).
# Environment: CHROOT_MIRROR (http://deb.debian.org/debian), CHROOT_CACHE
# (/var/cache/iosched-chroot).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
suite=${1:-}
tests=${2:-bench-fio}
[ -n "$suite" ] || { echo "usage: $0 SUITE [TESTS]" >&2; exit 2; }
case $suite in *[!a-z0-9-]*) echo "$0: bad suite name '$suite'" >&2; exit 2 ;; esac
out=$top/build/chroot-tests-$suite
MIRROR=${CHROOT_MIRROR:-http://deb.debian.org/debian}
CACHE=${CHROOT_CACHE:-/var/cache/iosched-chroot}

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices, chroot)"; exit 77; }
for c in mmdebstrap unshare chroot tar; do
        command -v $c >/dev/null 2>&1 || { echo "SKIP: no $c (apt-get install mmdebstrap util-linux)"; exit 77; }
done

T0=$(date +%s)
step() { echo "== $1 ($(($(date +%s) - T0)) s so far)"; }
mkdir -p "$CACHE" "$out" || exit 1
log=$out/chroot.log
: >"$log"

. "$top/tests/pkg/chroot-lib.sh"

# as_root CMD: CMD as root in the chroot with this machine's devices, /sys
# (with its cgroup and other mounts) and /run
as_root() {
        unshare --mount --pid --fork --propagation private sh -c '
                for d in dev sys run; do mount --rbind "/$d" "$1/$d" || exit 1; done
                mount -t proc proc "$1/proc" && chroot "$1" /bin/sh -c "$2"' sh "$root" "$1"
}

# 3. the build dependencies and the tests' packages, from SUITE
step "apt-get update, dist-upgrade, build-dep ./, the tests' packages"
s=$(date +%s)
if ! in_chroot 'export DEBIAN_FRONTEND=noninteractive; apt-get update -q && apt-get dist-upgrade -y -q &&
        cd /home/builder/src && apt-get build-dep -y -q --no-install-recommends ./ &&
        apt-get install -y -q --no-install-recommends fio util-linux fdisk e2fsprogs bc kmod python3 jq strace' \
        >>"$log" 2>&1; then
        tail -n 30 "$log"
        echo "FAIL: packages on $suite"
        exit 1
fi
echo "   $(($(date +%s) - s)) s"
chroot "$root" dpkg-query -W -f '   ${Package} ${Version}\n' fio gcc libc6 liburing-dev libaio-dev util-linux 2>/dev/null

# 4. the tests, as root
step "make tests, tests/run.sh TESTS=\"$tests\" as root"
s=$(date +%s)
as_root "cd /home/builder/src && make -j2 tests >/dev/null && TESTS='$tests' sh tests/run.sh" >"$out/tests.log" 2>&1
rc=$?
echo "   $(($(date +%s) - s)) s, exit $rc"
grep -aE '^(FAIL|SKIP) |^      \| |^== .*passed' "$out/tests.log" | sed 's/^/   /'
echo "== total $(($(date +%s) - T0)) s; logs in $out"
[ $rc = 0 ] || { echo "chroot-tests $suite: FAIL (tests/run.sh exit $rc)"; exit 1; }
echo "chroot-tests $suite: PASS"
exit 0
