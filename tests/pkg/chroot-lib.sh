# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/pkg/chroot-lib.sh: sourced by the scripts that work in a chroot of
# another Debian release (deb-build-chroot.sh, chroot-tests.sh), with
# $suite, $MIRROR, $CACHE, $log and step() set: sourcing it
# 1. finds or makes the chroot of $suite (mmdebstrap --variant=buildd from
#    Debian's mirror, with lintian and a user "builder"), cached as a
#    directory keyed by suite, mirror and its recipe below
#    ($CACHE/SUITE-<hash>), and
# 2. makes a fresh copy of it ($root, in $tmp, removed on exit) with the
#    tree (the files git knows or would add) in /home/builder/src ($src),
#    owned by "builder";
# and defines in_chroot CMD.
# 1. the cached chroot (its recipe: this section)
key=$( {
        echo "$suite $MIRROR"
        sed -n '/^# -- chroot recipe/,/^# -- end of recipe/p' "$top/tests/pkg/chroot-lib.sh"
} | sha256sum | cut -c1-16)
cached=$CACHE/$suite-$key
# -- chroot recipe
if [ ! -d "$cached" ]; then
        step "mmdebstrap $suite (variant buildd, lintian) -> $cached"
        s=$(date +%s)
        rm -rf "$cached.tmp"
        if ! mmdebstrap --mode=root --variant=buildd --format=directory \
                --aptopt='Apt::Install-Recommends "false"' \
                --include=lintian,ca-certificates \
                --customize-hook='chroot "$1" useradd --create-home --shell /bin/sh builder' \
                "$suite" "$cached.tmp" "deb $MIRROR $suite main" >>"$log" 2>&1; then
                tail -n 30 "$log"
                rm -rf "$cached.tmp"
                echo "FAIL: mmdebstrap $suite"
                exit 1
        fi
        mv "$cached.tmp" "$cached"
        echo "   $(($(date +%s) - s)) s, $(du -sm "$cached" | cut -f1) MB"
        # older recipes of this suite
        for old in "$CACHE/$suite"-????????????????; do
                [ -d "$old" ] && [ "$old" != "$cached" ] && rm -rf --one-file-system "$old"
        done
else
        step "cached chroot $cached"
fi
# -- end of recipe

# 2. a fresh copy with the tree
tmp=$(mktemp -d /var/tmp/iosched-chroot-XXXXXX) || exit 1
root=$tmp/root
cleanup() {
        # the mounts live in the namespace of step 3/4 and died with it
        rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT
mkdir -p "$root" && cp -a "$cached/." "$root/" || { echo "FAIL: copying $cached"; exit 1; }
src=$root/home/builder/src
. "$top/tests/pkg/tree-copy.sh"
tree_copy "$src" || { echo "FAIL: copying the tree to $src"; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" chown -R builder:builder /home/builder/src
step "chroot ready: $(chroot "$root" sh -c '. /etc/os-release; echo "$PRETTY_NAME"'), gcc $(chroot "$root" gcc -dumpfullversion)"

# in_chroot CMD: CMD (a shell command line) in the chroot, in a PID and mount
# namespace of its own with /proc and a read-only /sys (as sbuild's chroots
# have them); /dev is mmdebstrap's few nodes (null, zero, full, random,
# urandom, tty, console, ptmx): no loop device, no disk
in_chroot() {
        unshare --mount --pid --fork --propagation private sh -c '
                mount -t proc proc "$1/proc" && mount -t sysfs -o ro sysfs "$1/sys" &&
                chroot "$1" /bin/sh -c "$2"' sh "$root" "$1"
}

